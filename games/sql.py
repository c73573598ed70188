"""Hand-written SQL (accounts.sql) for the reads every move and every websocket connect
make, with model instances out, as the ORM would give them (writes go through the ORM).

Why: on the live path Django's query compiler, not the database, was the cost. A move
took 1.6-1.7 ms of CPU with these reads and 2.7-3.6 ms through the ORM, a player's
connect 0.6 against 2.0 ms, an observer's 1.0 against 3.0 ms (bench/live_costs.py);
on the browser's path one server process held 15-20 games with them and none at 10
through the ORM, its sockets waiting 0.9 s to connect instead of 0.3 s
(docs/benchmarks-live.md, sixth round). The SQL is plain enough for PostgreSQL and
SQLite alike; the values go through the same converters the ORM applies, so what
comes out equals what the ORM returns (tests compare them field by field).
"""

from __future__ import annotations

import functools

from django.db import DEFAULT_DB_ALIAS, connections

from accounts.models import Profile, User
from accounts.sql import Shape, fetch, select, table

from .models import Game, Match, Move, RuleSet, Seat

_GAME = (Shape(Game, "g"), Shape(RuleSet, "r"), Shape(Match, "m"))
_SEAT = (
    Shape(Seat, "s"),
    Shape(User, "u", ("id", "username", "is_active")),
    Shape(Profile, "p", ("id", "user_id", "display_name")),
)
_MOVE = (Shape(Move, "mv"),)
_LARGEST_ID = 2**63 - 1  # BigAutoField
_PROFILE_OF_USER = User.profile.related  # the OneToOneRel, as User._meta.get_field("profile")


# The statements, written once per process (one database per process).


@functools.cache
def _game_sql(lock: bool, skip_locked: bool) -> str:
    features = connections[DEFAULT_DB_ALIAS].features
    lock_clause = ""
    if lock and features.has_select_for_update:
        lock_clause = " FOR UPDATE OF g" if features.has_select_for_update_of else " FOR UPDATE"
        if skip_locked and features.has_select_for_update_skip_locked:
            lock_clause += " SKIP LOCKED"
    return (
        f"SELECT {select(_GAME)} FROM {table(Game)} g"
        f" JOIN {table(RuleSet)} r ON r.id = g.rule_set_id"
        f" LEFT JOIN {table(Match)} m ON m.id = g.match_id"
        f" WHERE g.id = %s{lock_clause}"
    )


@functools.cache
def _seats_sql() -> str:
    return (
        f"SELECT {select(_SEAT)} FROM {table(Seat)} s"
        f" LEFT JOIN {table(User)} u ON u.id = s.user_id"
        f" LEFT JOIN {table(Profile)} p ON p.user_id = s.user_id"
        f" WHERE s.game_id = %s ORDER BY s.number"
    )


@functools.cache
def _moves_sql() -> str:
    return f"SELECT {select(_MOVE)} FROM {table(Move)} mv WHERE mv.game_id = %s ORDER BY mv.ply"


def game(game_id: int, *, lock: bool = False, skip_locked: bool = False) -> Game | None:
    """The game with its rules, match and seats (``seats_in_hand``, with users and
    profiles), in two queries; ``lock``: the game row locked for the transaction (only
    that row: every game of a house-rule set shares its RuleSet row); ``skip_locked``:
    None if another transaction holds that lock, rather than waiting for it."""
    if not 0 < game_id <= _LARGEST_ID:
        return None  # no such row; the database would refuse the number itself
    rows = fetch(_game_sql(lock, skip_locked), [game_id], _GAME)
    if not rows:
        return None
    found, rule_set, match = rows[0]
    found.rule_set = rule_set
    found.match = match
    found.seats_in_hand = seats(game_id)
    for seat in found.seats_in_hand:
        seat.game = found  # as a prefetch leaves it: the seat's game without a query
    return found


def seats(game_id: int) -> list[Seat]:
    """A game's seats in order, each with its user and the user's profile."""
    out = []
    for seat, user, profile in fetch(_seats_sql(), [game_id], _SEAT):
        if user is not None:
            # As select_related leaves it: a user without a profile reads None, no query.
            _PROFILE_OF_USER.set_cached_value(user, profile)
            seat.user = user
        out.append(seat)
    return out


def moves(game_id: int) -> list[Move]:
    """A game's move log, in order."""
    return [move for (move,) in fetch(_moves_sql(), [game_id], _MOVE)]
