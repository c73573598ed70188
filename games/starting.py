"""The steps every new game takes, a lone game's (games/services.py) or a match's next
game's (games/matches.py): its row, its seats and its start; and the announcement after
commit that ends every change of a game (the broadcast, and the AI seats' queued moves).

Below both services and matches, so that neither imports the other both ways.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone

from accounts import dispatch
from accounts.errors import ServiceError
from accounts.models import User

from . import boards, realtime
from .models import Game, Match, Move, RuleSet, Seat
from .rules import RuleError, get_variant
from .rules.chance import draw, seed_commitment

#: Seconds an AI seat waits before moving, so play feels human.
AI_PACE_SECONDS = 0.8


@dataclass(frozen=True)
class Player:
    """Who sits in a seat: a user or an AI level."""

    user: User | None = None
    ai_level: str = ""

    def __post_init__(self) -> None:
        if (self.user is None) == (not self.ai_level):
            raise ValueError("A player is a user or an AI level, not both or neither.")


def new_game_row(*, rule_set: RuleSet, created_by: User | None, match: Match | None = None, number: int | None = None,
                  variant: str | None = None, options: Mapping[str, Any] | None = None, seed: str | None = None) -> Game:
    """``seed``: a fixed one where the game must be known in advance (a lesson's dice)."""
    variant = variant or rule_set.variant
    options = rule_set.options if options is None else options
    seed = seed or secrets.token_hex(16)
    try:
        state = get_variant(variant).new_game(options, seed=seed)
    except RuleError as err:
        raise ServiceError(err.code, err.message) from err
    engine = get_variant(variant)
    return Game.objects.create(
        rule_set=rule_set,
        variant=variant,
        options=engine.validate_options(options),
        match=match,
        number_in_match=number,
        seed=seed,
        seed_hash=seed_commitment(seed),
        state=engine.dump(state),
        to_move=list(state.to_move),
        created_by=created_by,
    )


def seat_players(game: Game, players: Mapping[int, Player | None]) -> None:
    """Create the new game's seats, seat number -> player (None: an empty seat), in that
    order, and keep them in hand (``seats_in_hand``, in seat order)."""
    clock = game.rule_set.seconds_per_game * 1000 if game.rule_set.seconds_per_game else None
    seats = [
        Seat.objects.create(
            game=game,
            number=number,
            user=player.user if player else None,
            ai_level=player.ai_level if player else "",
            clock_ms=clock,
        )
        for number, player in players.items()
    ]
    game.seats_in_hand = sorted(seats, key=lambda seat: seat.number)


def player_one_draw(seed: str) -> int:
    """The seat a seed or coin decider gives the game's maker: a fair draw from the seed,
    checkable once the seed is published after the game."""
    return draw(seed, 10_000, 2)


def draw_at_start(game: Game) -> None:
    """What chance decides as a game starts through an accepted challenge, drawn now from
    a new seed: the variant's set-up (Nine-Square's roll for X, its first die) and, for a
    lone game under a seed or coin decider, who is Player One (a match's own draw:
    ``matches.draw_at_start``). Drawn when the challenge was made, its maker saw the
    outcome and could cancel and ask again until it suited them, and anyone could pick
    the open challenges that suited them; drawn at the accept, nobody sees it before it
    is final (Lichess draws a random side at acceptance too). The new seed's commitment
    replaces the old one before any move."""
    seed = secrets.token_hex(16)
    engine = get_variant(game.variant)
    state = engine.new_game(game.options, seed=seed)
    game.seed, game.seed_hash = seed, seed_commitment(seed)
    game.state, game.to_move = engine.dump(state), list(state.to_move)
    game.save(update_fields=["seed", "seed_hash", "state", "to_move"])
    if game.match_id is None and game.player_one_by_chance and game.created_by_id is not None:
        seat_user(game, game.created_by_id, player_one_draw(seed))


def seat_user(game: Game, user_id: int, number: int) -> None:
    """Seat the player ``user_id`` in seat ``number`` (0: Player One), swapping the two
    seats' players if they sit the other way; done before the first move, so nothing
    else of the seats differs yet."""
    seats = game.seats_in_hand
    if seats[number].user_id == user_id or all(s.user_id != user_id for s in seats):
        return
    first, second = seats
    first.user, second.user = second.user, first.user
    first.ai_level, second.ai_level = second.ai_level, first.ai_level
    for seat in seats:
        seat.save(update_fields=["user", "ai_level"])


def start(game: Game) -> None:
    now = timezone.now()
    game.status = Game.Status.ACTIVE
    game.started_at = now
    game.turn_started_at = now
    game.save(update_fields=["status", "started_at", "turn_started_at"])
    announce_after_commit(game)


def announce_after_commit(game: Game, *, moves: list[Move] | None = None) -> None:
    """Broadcast the change once the transaction commits (never before: a move is
    stored before anyone hears of it), and queue the AI seats that must act.

    The message (games/boards.py: each viewer kind's frames and rendered board) is
    built after the commit, so the game row's lock is not held while the boards render.
    On a move's path the game, its seats and ``moves`` (the whole log) are in hand, as
    committed, and it is built from them; elsewhere, and for a match game (whose
    summary changes as the match advances), it is read back from the database.
    """
    game_id, ply = game.pk, game.ply
    if moves is not None and not game.match_id:
        transaction.on_commit(lambda: realtime.send_to_game(game_id, boards.update_message_for(game, moves)))
    else:
        transaction.on_commit(lambda: realtime.send_to_game(game_id, boards.update_message(game_id)))
    if game.status == Game.Status.ACTIVE:
        ai_seats = [s.number for s in game.seats_in_hand if s.ai_level and s.number in game.to_move]
        if ai_seats:
            # By its registered name: games/tasks.py calls these services. Not queued
            # (broker down): played in this process, as the player waits for it.
            dispatch.enqueue_on_commit("games.play_ai_move", game_id, ply, countdown=AI_PACE_SECONDS,
                                       someone_waits=True)
