"""Hand-written SQL for the reads every move and every websocket connect make, with
model instances out, as the ORM would give them (writes go through the ORM).

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
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import Model
from django.db.models.sql import Query

from accounts.models import Profile, User

from .models import Game, Match, Move, RuleSet, Seat


@dataclass(frozen=True)
class Shape:
    """One model's part of a row: its table alias and the fields selected (all its
    concrete fields unless named; the rest load on first use, as with ``only()``)."""

    model: type[Model]
    alias: str
    only: tuple[str, ...] = ()

    @functools.cached_property
    def fields(self) -> list[Any]:
        fields = self.model._meta.concrete_fields
        return [f for f in fields if f.attname in self.only] if self.only else list(fields)

    @functools.cached_property
    def attnames(self) -> list[str]:
        return [f.attname for f in self.fields]

    @functools.cached_property
    def pk_index(self) -> int:
        return self.fields.index(self.model._meta.pk)

    @functools.cached_property
    def columns(self) -> list[Any]:
        return [f.get_col(self.alias) for f in self.fields]

    def select(self) -> str:
        quote = connections[DEFAULT_DB_ALIAS].ops.quote_name
        return ", ".join(f"{self.alias}.{quote(f.column)}" for f in self.fields)


def fetch(sql: str, params: Sequence[Any], shapes: Sequence[Shape]) -> list[list[Any]]:
    """The rows of ``sql``, whose select list is each shape's ``select()`` in turn, as
    one model instance per shape (None where a LEFT JOIN found no row)."""
    connection = connections[DEFAULT_DB_ALIAS]
    # The converters the ORM itself applies (JSON text, SQLite's dates and booleans).
    compiler = connection.ops.compiler("SQLCompiler")(Query(shapes[0].model), connection, DEFAULT_DB_ALIAS)
    converters = compiler.get_converters([column for shape in shapes for column in shape.columns])
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    if converters:
        rows = list(compiler.apply_converters(rows, converters))
    out = []
    for row in rows:
        instances, start = [], 0
        for shape in shapes:
            end = start + len(shape.attnames)
            values = row[start:end]
            start = end
            instances.append(
                None if values[shape.pk_index] is None else shape.model.from_db(DEFAULT_DB_ALIAS, shape.attnames, values)
            )
        out.append(instances)
    return out


def table(model: type[Model]) -> str:
    return connections[DEFAULT_DB_ALIAS].ops.quote_name(model._meta.db_table)


def select(shapes: Sequence[Shape]) -> str:
    return ", ".join(shape.select() for shape in shapes)


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
