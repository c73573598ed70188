"""Writes for games. The only code that changes games, seats, moves or notes.

Every move goes the same way: lock the game row, check the ply the client believed
current, let the engine judge the move against the cached state, store the move and
the new state in the same transaction, and broadcast only after commit. The unique
(game, ply) constraint is the last line: two racing submissions can never both land.
"""

from __future__ import annotations

import functools
import hashlib
import json
import random
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from celery import current_app
from django.contrib.auth.models import AnonymousUser
from django.db import IntegrityError, transaction
from django.db.models import Count, F, Q
from django.db.models.functions import Greatest
from django.utils import timezone

from accounts.errors import ServiceError
from accounts.models import User
from accounts.services import play_eligibility

from . import ownership, realtime, selectors, signals, sql
from .models import Game, Match, Move, Observer, PrivateNote, RuleSet, Seat
from .rules import RuleError, get_variant
from .rules import match as match_rules
from .rules.ai import LEVELS as AI_LEVELS
from .rules.ai import choose_move
from .rules.chance import draw, seed_commitment
from .rules.variants.t_tic_t_tac_toe.match import TTTMatch

#: Seconds an AI seat waits before moving, so play feels human.
AI_PACE_SECONDS = 0.8
#: The version an AI picks when it wins an official T-Tic-T-Tac-Toe match's classic game.
AI_VERSION_CHOICE = "2.0"
#: The longest clock or no-show grace period a rule set may have: 366 days.
MAX_RULE_SECONDS = 366 * 24 * 3600


# -- house-rule sets ----------------------------------------------------------------


def validate_rule_options(*, variant: str, options: Mapping[str, Any] | None) -> dict[str, Any]:
    """The options with defaults filled in; ServiceError with the engine's message if bad."""
    try:
        return get_variant(variant).validate_options(options)
    except RuleError as err:
        raise ServiceError(err.code, err.message) from err


@transaction.atomic
def create_rule_set(
    *,
    name: str,
    variant: str,
    options: Mapping[str, Any] | None = None,
    decider: str = RuleSet.Decider.CHALLENGER,
    seconds_per_move: int | None = None,
    seconds_per_game: int | None = None,
    no_show_seconds: int = 300,
    match_format: str = RuleSet.MatchFormat.SINGLE,
    match_games: int = 1,
    next_first: str = RuleSet.NextFirst.LOSER,
    created_by: User | None = None,
    is_standard: bool = False,
) -> RuleSet:
    """A new set, kept by ``created_by`` (None: the platform's; games/ownership.py).
    ``is_standard`` only from standard_rule_set."""
    _check_match_fields(variant, match_format, match_games, next_first)
    _check_play_fields(decider, seconds_per_move, seconds_per_game, no_show_seconds)
    return RuleSet.objects.create(
        name=name,
        variant=variant,
        options=validate_rule_options(variant=variant, options=options),
        decider=decider,
        seconds_per_move=seconds_per_move,
        seconds_per_game=seconds_per_game,
        no_show_seconds=no_show_seconds,
        match_format=match_format,
        match_games=match_games,
        next_first=next_first,
        created_by=created_by,
        is_standard=is_standard,
    )


def _check_play_fields(
    decider: str, seconds_per_move: int | None, seconds_per_game: int | None, no_show_seconds: int
) -> None:
    if decider not in RuleSet.Decider.values:
        raise ServiceError("bad-decider", f"Player One is decided by one of: {', '.join(RuleSet.Decider.values)}.")
    checks = [("no-show grace period", no_show_seconds, 0)]
    checks += [(label, value, 1) for label, value in (("seconds per move", seconds_per_move),
                                                     ("seconds per game", seconds_per_game)) if value is not None]
    for label, value, least in checks:
        # A bound of our own, well inside the database's integer column.
        if isinstance(value, bool) or not isinstance(value, int) or not least <= value <= MAX_RULE_SECONDS:
            raise ServiceError(
                "bad-time-control", f"The {label} is a whole number of seconds from {least} to {MAX_RULE_SECONDS}."
            )


def _check_match_fields(variant: str, match_format: str, match_games: int, next_first: str) -> None:
    if match_format not in RuleSet.MatchFormat.values:
        raise ServiceError("bad-match-rules", f"A match is one of: {', '.join(RuleSet.MatchFormat.values)}.")
    if match_format == RuleSet.MatchFormat.OFFICIAL and variant != "t-tic-t-tac-toe":
        raise ServiceError("bad-match-rules", "The official match (preliminaries and five games) is T-Tic-T-Tac-Toe's.")
    if isinstance(match_games, bool) or not isinstance(match_games, int) or not 1 <= match_games <= 99:
        raise ServiceError("bad-match-rules", "A match has from 1 to 99 games.")
    if next_first not in RuleSet.NextFirst.values:
        raise ServiceError("bad-match-rules", f"Who goes first next is one of: {', '.join(RuleSet.NextFirst.values)}.")


@transaction.atomic
def revise_rule_set(*, rule_set: RuleSet, created_by: User | None = None, **changes: Any) -> RuleSet:
    """A new version of the set; games already started keep the version they used.

    Only who the permission "games.revise_ruleset" allows (games/ownership.py):
    ``created_by`` None is the platform itself (a command). Every revision is told to
    the recorders (the audit log) in this transaction.
    """
    current = RuleSet.objects.select_for_update().filter(family=rule_set.family).order_by("-version").first()
    assert current is not None
    keeper = ownership.keeper_of(current)
    if created_by is not None and not ownership.may_revise(current, created_by):
        raise ServiceError(keeper.refusal.code, keeper.refusal.message)
    fields = {
        "name": current.name,
        "variant": current.variant,
        "options": current.options,
        "decider": current.decider,
        "seconds_per_move": current.seconds_per_move,
        "seconds_per_game": current.seconds_per_game,
        "no_show_seconds": current.no_show_seconds,
        "match_format": current.match_format,
        "match_games": current.match_games,
        "next_first": current.next_first,
    }
    unknown = set(changes) - set(fields)
    if unknown:
        raise ServiceError("bad-field", f"A rule set has no field {sorted(unknown)[0]!r}.")
    fields.update(changes)
    if fields["variant"] != current.variant:
        # Games, sections and the standard set of each variant rely on it.
        raise ServiceError("variant-fixed", "A rule set keeps its variant; create a new set for another one.")
    _check_match_fields(fields["variant"], fields["match_format"], fields["match_games"], fields["next_first"])
    _check_play_fields(fields["decider"], fields["seconds_per_move"], fields["seconds_per_game"],
                       fields["no_show_seconds"])
    fields["options"] = validate_rule_options(variant=fields["variant"], options=fields["options"])
    RuleSet.objects.filter(family=current.family).update(is_current=False)
    revised = RuleSet.objects.create(
        family=current.family, version=current.version + 1, created_by=created_by, is_current=True,
        is_standard=current.is_standard, **fields
    )
    ownership.revised(current, revised, created_by, keeper)
    return revised


def standard_rule_set(variant: str) -> RuleSet:
    """The variant's standard rules (the text's own), created on first use. Found by
    its mark, never by its name: anyone may call a set of theirs "Standard classic"."""
    try:
        get_variant(variant)
    except RuleError as err:
        raise ServiceError(err.code, err.message) from err
    rule_set = RuleSet.objects.filter(is_standard=True, variant=variant, is_current=True).first()
    if rule_set is not None:
        return rule_set
    try:
        with transaction.atomic():
            return create_rule_set(name=f"Standard {variant}", variant=variant, is_standard=True)
    except IntegrityError:  # another request made it first (one current standard set per variant)
        return RuleSet.objects.get(is_standard=True, variant=variant, is_current=True)


# -- creating and joining games -----------------------------------------------------


@dataclass(frozen=True)
class Player:
    """Who sits in a seat: a user or an AI level."""

    user: User | None = None
    ai_level: str = ""

    def __post_init__(self) -> None:
        if (self.user is None) == (not self.ai_level):
            raise ValueError("A player is a user or an AI level, not both or neither.")


def _check_can_play(user: User) -> None:
    decision = play_eligibility(user=user)
    if not decision.allowed:
        raise ServiceError("not-eligible", decision.reason)


def _check_ai_level(level: str) -> None:
    if level not in AI_LEVELS:
        raise ServiceError("unknown-ai-level", f"AI levels are {', '.join(AI_LEVELS)}.")


def _new_game_row(*, rule_set: RuleSet, created_by: User | None, match: Match | None = None, number: int | None = None,
                  variant: str | None = None, options: Mapping[str, Any] | None = None) -> Game:
    variant = variant or rule_set.variant
    options = rule_set.options if options is None else options
    seed = secrets.token_hex(16)
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


def _seat_players(game: Game, players: Mapping[int, Player | None]) -> None:
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


@transaction.atomic
def create_game(
    *,
    creator: User,
    variant: str | None = None,
    rule_set: RuleSet | None = None,
    options: Mapping[str, Any] | None = None,
    opponent: User | None = None,
    ai_level: str = "",
    creator_seat: int | None = None,
    rated: bool = False,
) -> Game:
    """A new game: against a user (a challenge they accept), an AI (starts at once),
    or an open challenge (no opponent: anyone may accept).

    Player One follows the rule set's decider: the challenger's choice of seat
    (``creator_seat``, default 0), the seed, a coin toss, or a rock-paper-scissors game
    played live first.

    ``rated``: the result counts for both players' ratings (league/ratings/services.py
    rates it when it ends). Only games between two people are rated: a rated game
    against the AI is refused. Every game of a rated match is rated.
    """
    _check_can_play(creator)
    if opponent is not None and ai_level:
        raise ServiceError("bad-opponent", "Choose a user or an AI level, not both.")
    if rated and ai_level:
        raise ServiceError(
            "ai-not-rated", "Games against the computer are never rated: choose a player or an open challenge."
        )
    if opponent is not None and opponent.pk == creator.pk:
        raise ServiceError("bad-opponent", "You cannot challenge yourself.")
    if ai_level:
        _check_ai_level(ai_level)
    if opponent is not None:
        _check_can_play(opponent)
    if rule_set is None:
        if variant is None:
            raise ServiceError("bad-request", "Choose a variant or a house-rule set.")
        rule_set = (
            standard_rule_set(variant)
            if options is None
            else create_rule_set(name=f"Custom {variant}", variant=variant, options=options, created_by=creator)
        )
    elif options is not None:
        raise ServiceError("bad-request", "Give a house-rule set or options, not both.")
    if creator_seat not in (None, 0, 1):
        raise ServiceError("bad-seat", "A seat is 0 (Player One) or 1 (Player Two).")

    me = Player(user=creator)
    them = Player(ai_level=ai_level) if ai_level else Player(user=opponent) if opponent else None
    if _needs_match(rule_set):
        return _start_match(
            rule_set=rule_set, players=(me, them), created_by=creator, creator_seat=creator_seat, rated=rated
        )

    game = _new_game_row(rule_set=rule_set, created_by=creator)
    if rated:
        game.rated = True
        game.save(update_fields=["rated"])
    if rule_set.decider == RuleSet.Decider.CHALLENGER:
        mine = 0 if creator_seat is None else creator_seat
    else:  # seed or coin: a fair draw from the game's own seed, checkable after the game
        mine = draw(game.seed, 10_000, 2)
    _seat_players(game, {mine: me, 1 - mine: them})
    if them is not None and them.ai_level:
        _start(game)
    return game


def _start(game: Game) -> None:
    now = timezone.now()
    game.status = Game.Status.ACTIVE
    game.started_at = now
    game.turn_started_at = now
    game.save(update_fields=["status", "started_at", "turn_started_at"])
    _after_commit_announce(game)


@transaction.atomic
def accept_challenge(*, game_id: int, user: User) -> Game:
    """Take the empty seat of an open challenge, or accept a challenge made to you."""
    game = _locked_game(game_id)
    if game.status != Game.Status.OPEN:
        raise ServiceError("not-open", "This game is not waiting for an opponent.")
    if user.pk == game.created_by_id:
        raise ServiceError("bad-opponent", "You cannot accept your own challenge.")
    _check_can_play(user)
    seats = game.seats_in_hand
    empty = [seat for seat in seats if seat.user_id is None and not seat.ai_level]
    invited = [seat for seat in seats if seat.user_id == user.pk]
    if empty:
        seat = empty[0]
        seat.user = user
        seat.save(update_fields=["user"])
    elif not invited:
        raise ServiceError("not-invited", "This challenge is for another player.")
    _start(game)
    return game


# -- moves ----------------------------------------------------------------------------


def canonical(move: Any) -> str:
    return json.dumps(move, sort_keys=True, separators=(",", ":"))


def commitment_for(move: Any, nonce: str) -> str:
    """sha256 of the canonical move JSON followed by the nonce, in hex."""
    return hashlib.sha256((canonical(move) + nonce).encode()).hexdigest()


def seat_of(game: Game, user: User | AnonymousUser | None) -> int | None:
    if user is None or not user.is_authenticated:
        return None
    for seat in game.seats_in_hand:
        if seat.user_id == user.pk:
            return seat.number
    return None


def submit_move(*, game_id: int, user: User, ply: int, move: Any) -> Game:
    """Play ``move`` for the user's seat, if ``ply`` is the game's current ply."""
    with transaction.atomic():
        game = _locked_game(game_id)
        seat = seat_of(game, user)
        if seat is None:
            raise ServiceError("not-a-player", "Only the game's players can move; observers watch.")
        _check_can_move(game, ply)
        if not _flag_if_expired(game, timezone.now()):
            return _play(game, seat, move)
    # Raised after the commit: the time-out that ended the game is kept.
    raise ServiceError("time-out", "Time ran out; the game is over.")


def _check_can_move(game: Game, ply: Any) -> None:
    if isinstance(ply, bool) or not isinstance(ply, int):
        raise ServiceError("malformed-ply", "The ply must be a whole number: the number of moves you have seen.")
    if game.status == Game.Status.OPEN:
        raise ServiceError("not-started", "The game has not started yet.")
    if game.is_over:
        raise ServiceError("game-over", "The game is over.")
    if ply != game.ply:
        raise ServiceError("stale-ply", f"The game is at ply {game.ply}, not {ply}; here is the current state.")


def _locked_game(game_id: int) -> Game:
    """The game row locked for this transaction, with its rules and seats in hand
    (games/sql.py). The seats change only under this lock, so ``game.seats_in_hand`` is
    current all along."""
    try:
        game = sql.game(int(game_id), lock=True)
    except (ValueError, TypeError):
        game = None
    if game is None:
        raise ServiceError("no-such-game", "There is no such game.")
    return game


def _play(game: Game, seat: int, move: Any) -> Game:
    """Apply and store ``move`` on the locked, active ``game`` (checked by the caller)."""
    now = timezone.now()
    variant = get_variant(game.variant)
    before = variant.load(game.state)
    try:
        after = variant.apply(before, seat, move)
    except RuleError as err:
        raise ServiceError(err.code, err.message) from err
    # The log in hand: the secret check below and the broadcast both need it.
    moves = sql.moves(game.pk)
    secret = len(before.to_move) == 2 or any(m.commitment and not m.revealed for m in moves)
    nonce = secrets.token_hex(16) if secret else ""
    try:
        # No savepoint: the row lock makes a clash all but impossible, and if the unique
        # (game, ply) still refuses the insert, the error rolls back the whole move.
        stored = sql.insert(
            Move(
                game=game,
                ply=game.ply + 1,
                seat=seat,
                move=move,
                commitment=commitment_for(move, nonce) if secret else "",
                nonce=nonce,
                revealed=not secret,
            )
        )
    except IntegrityError as exc:
        raise ServiceError("stale-ply", "Another move was stored first; here is the current state.") from exc
    moves.append(stored)
    if secret and len(before.to_move) == 1:
        # The second half of a simultaneous step: both are revealed together.
        _reveal(game, moves)
    _charge_clock(game, seat, now)
    game.ply += 1
    game.state = variant.dump(after)
    game.to_move = list(after.to_move)
    if not set(after.to_move) <= set(before.to_move):
        game.turn_started_at = now  # a new turn begins; a simultaneous partner keeps its start
    outcome = variant.outcome(after)
    fields = ["ply", "state", "to_move", "turn_started_at"]
    if outcome is not None:
        _finish(
            game, result=outcome.result, winner=outcome.winner, scores=outcome.scores,
            reason=outcome.reason or "", moves=moves,
        )
    else:
        sql.update(game, fields)
        _after_commit_announce(game, moves=moves)
    return game


def _reveal(game: Game, moves: list[Move] | None) -> None:
    """Reveal every hidden move of the game, in the database and in ``moves`` (the log
    in hand, if any). Skips the query when the log in hand shows nothing hidden."""
    if moves is not None:
        hidden = [m for m in moves if not m.revealed]
        if not hidden:
            return
        for m in hidden:
            m.revealed = True
    game.moves.filter(revealed=False).update(revealed=True)


def _charge_clock(game: Game, seat: int, now: datetime) -> None:
    """Take the time this turn took off the seat's game clock."""
    if game.rule_set.seconds_per_game and game.turn_started_at:
        spent = int((now - game.turn_started_at).total_seconds() * 1000)
        Seat.objects.filter(game=game, number=seat).update(clock_ms=Greatest(F("clock_ms") - spent, 0))
        # The seats in hand feed the broadcast: keep them equal to the row just updated.
        for held in game.seats_in_hand:
            if held.number == seat and held.clock_ms is not None:
                held.clock_ms = max(held.clock_ms - spent, 0)


def _flag_if_expired(game: Game, now: datetime) -> bool:
    """Finish the game if a seat to move has run out of time. True if it did."""
    expired = []
    for seat in game.seats_in_hand:
        deadline = selectors.deadline_for(game, seat)
        if deadline is not None and now >= deadline:
            expired.append(seat.number)
    if not expired:
        return False
    if len(expired) == 2:
        _finish(game, result="draw", winner=None, scores=None, reason="Both players ran out of time.")
    else:
        loser = expired[0]
        why = "did not show up" if game.ply == 0 else "ran out of time"
        _finish(game, result="win", winner=1 - loser, scores=None, reason=f"Player {loser + 1} {why}.")
    return True


@transaction.atomic
def claim_timeout(*, game_id: int, user: User) -> Game:
    game = _locked_game(game_id)
    if seat_of(game, user) is None:
        raise ServiceError("not-a-player", "Only a player of this game can claim a time-out.")
    if game.is_over:
        raise ServiceError("game-over", "The game is over.")
    if not _flag_if_expired(game, timezone.now()):
        raise ServiceError("no-time-out", "Nobody has run out of time.")
    return game


def flag_expired_clocks(*, now: datetime | None = None) -> int:
    """Finish every active game whose player to move ran out of time (Celery beat)."""
    now = now or timezone.now()
    flagged = 0
    # Only games that can run out of time: a clock, or no first move yet (the no-show).
    can_expire = Q(ply=0) | Q(rule_set__seconds_per_move__isnull=False) | Q(rule_set__seconds_per_game__isnull=False)
    for game_id in Game.objects.filter(can_expire, status=Game.Status.ACTIVE).values_list("pk", flat=True):
        with transaction.atomic():
            game = sql.game(game_id, lock=True, skip_locked=True)
            if game is not None and game.status == Game.Status.ACTIVE and _flag_if_expired(game, now):
                flagged += 1
    return flagged


@transaction.atomic
def resign(*, game_id: int, user: User) -> Game:
    game = _locked_game(game_id)
    seat = seat_of(game, user)
    if seat is None:
        raise ServiceError("not-a-player", "Only a player of this game can resign.")
    if game.status != Game.Status.ACTIVE:
        raise ServiceError("game-over" if game.is_over else "not-started", "There is no game in play to resign.")
    _finish(game, result="win", winner=1 - seat, scores=None, reason=f"Player {seat + 1} resigned.")
    return game


@transaction.atomic
def abort(*, game_id: int, user: User) -> Game:
    """Call a game off before it really began (no move yet): nobody wins, nothing is rated."""
    game = _locked_game(game_id)
    if seat_of(game, user) is None and game.created_by_id != user.pk:
        raise ServiceError("not-a-player", "Only a player of this game can abort it.")
    if game.is_over:
        raise ServiceError("game-over", "The game is over.")
    if game.ply > 0:
        raise ServiceError("already-begun", "A game with moves cannot be aborted; resign instead.")
    game.status = Game.Status.ABORTED
    game.finished_at = timezone.now()
    game.end_reason = "Aborted before the first move."
    game.to_move = []
    game.save(update_fields=["status", "finished_at", "end_reason", "to_move"])
    _after_commit_announce(game)
    return game


def _finish(
    game: Game, *, result: str, winner: int | None, scores: Any, reason: str, moves: list[Move] | None = None
) -> None:
    """End the game; ``moves``: the log in hand, when the caller has it (a move's path)."""
    game.status = Game.Status.FINISHED
    game.result = result
    game.winner_seat = winner
    game.scores = list(scores) if scores is not None else None
    game.end_reason = reason
    game.finished_at = timezone.now()
    game.to_move = []
    game.save()
    _reveal(game, moves)
    _after_commit_announce(game, moves=moves)
    transaction.on_commit(lambda: signals.game_finished.send(sender=Game, game_id=game.pk))
    if game.match_id:
        _advance_match(game)


# -- AI seats -------------------------------------------------------------------------


def _after_commit_announce(game: Game, *, moves: list[Move] | None = None) -> None:
    """Broadcast the change once the transaction commits (never before: a move is
    stored before anyone hears of it), and queue the AI seats that must act.

    On a move's path the game, its seats and ``moves`` (the whole log) are in hand, so
    the message is built from them now, as committed; elsewhere, and for a match game
    (whose summary changes as the match advances), it is read back after the commit.
    """
    game_id, ply = game.pk, game.ply
    if moves is not None and not game.match_id:
        message = selectors.update_message_for(game, moves)
        transaction.on_commit(lambda: realtime.send_to_game(game_id, message))
    else:
        transaction.on_commit(lambda: realtime.send_to_game(game_id, selectors.update_message(game_id)))
    if game.status == Game.Status.ACTIVE:
        ai_seats = [s.number for s in game.seats_in_hand if s.ai_level and s.number in game.to_move]
        if ai_seats:
            # By its registered name: games/tasks.py calls these services.
            transaction.on_commit(lambda: current_app.tasks["games.play_ai_move"].apply_async(
                (game_id, ply), countdown=AI_PACE_SECONDS))


@transaction.atomic
def play_ai_move(*, game_id: int, ply: int) -> Game | None:
    """Move for every AI seat that must act at ``ply``. Idempotent: a late or repeated
    call for a ply already played does nothing."""
    game = _locked_game(game_id)
    if game.status != Game.Status.ACTIVE or game.ply != ply or _flag_if_expired(game, timezone.now()):
        return None
    variant = get_variant(game.variant)
    for seat in game.seats_in_hand:
        if not seat.ai_level or seat.number not in game.to_move:
            continue
        # The AI decides from what it may know: never from an opponent's unrevealed move.
        known = _state_without_secrets(game)
        rng = random.Random(f"{game.seed}:{game.ply}:{seat.number}")
        move = choose_move(variant, known, seat.number, seat.ai_level, rng)
        game = _play(game, seat.number, move)
        if game.status != Game.Status.ACTIVE:
            break
    return game


def _state_without_secrets(game: Game) -> Any:
    variant = get_variant(game.variant)
    hidden = game.moves.filter(revealed=False).exists()
    if not hidden:
        return variant.load(game.state)
    public = [(m.seat, m.move) for m in game.moves.filter(revealed=True).order_by("ply")]
    return variant.replay(public, game.options, game.seed)


# -- matches ---------------------------------------------------------------------------
#
# A match is a pure value from the engine (games.rules.match.MatchState, or the official
# T-Tic-T-Tac-Toe TTTMatch); these services store it, create each game it asks for, and
# feed each finished game back. Match players are 0 (the challenger) and 1.


def _needs_match(rule_set: RuleSet) -> bool:
    return (
        rule_set.match_format != RuleSet.MatchFormat.SINGLE
        or rule_set.decider == RuleSet.Decider.ROCK_PAPER_SCISSORS
    )


def _start_match(
    *, rule_set: RuleSet, players: tuple[Player, Player | None], created_by: User, creator_seat: int | None,
    rated: bool = False,
) -> Game:
    if players[1] is None:
        raise ServiceError("bad-opponent", "A match needs a named opponent or an AI.")
    seed = secrets.token_hex(8)
    if rule_set.match_format == RuleSet.MatchFormat.OFFICIAL:
        if rule_set.variant != "t-tic-t-tac-toe":
            raise ServiceError("bad-match-rules", "The official match is T-Tic-T-Tac-Toe's.")
        kind, state = Match.Kind.OFFICIAL, TTTMatch.new(seed).dump()
    else:
        first_by_decider: dict[str, str] = {
            RuleSet.Decider.ROCK_PAPER_SCISSORS: "rock-paper-scissors",
            RuleSet.Decider.COIN: "coin",
            RuleSet.Decider.SEED: "coin",
            RuleSet.Decider.CHALLENGER: "given",
        }
        first = first_by_decider[rule_set.decider]
        single = rule_set.match_format == RuleSet.MatchFormat.SINGLE
        try:
            rules = match_rules.MatchRules(
                format="all" if single else rule_set.match_format,
                games=1 if single else rule_set.match_games,
                first=first,
                next_first=rule_set.next_first,
            )
            series = match_rules.new_match(rules, seed=seed)
        except RuleError as err:
            raise ServiceError(err.code, err.message) from err
        if first == "given":
            series = series.decide(0 if creator_seat in (None, 0) else 1, detail="the challenger's choice")
        kind, state = Match.Kind.SERIES, series.dump()
    match = Match.objects.create(
        rule_set=rule_set, kind=kind, players=[_player_json(p) for p in players], state=state
    )
    return _next_match_game(match, created_by, rated=rated)


def _player_json(player: Player | None) -> dict[str, Any]:
    assert player is not None
    return {"user": player.user.pk if player.user else None, "ai_level": player.ai_level}


def _player_from_json(data: Mapping[str, Any]) -> Player:
    if data.get("user"):
        return Player(user=User.objects.get(pk=data["user"]))
    return Player(ai_level=data["ai_level"])


def _next_match_game(match: Match, created_by: User | None, *, rated: bool | None = None) -> Game:
    """Create the game the match asks for next (while a player must choose, the latest game).

    ``rated`` is given for the first game; later games inherit it from the earlier
    ones, so every game of a rated match is rated.
    """
    players = [_player_from_json(p) for p in match.players]
    earlier_rated = list(match.games.values_list("rated", flat=True))
    number = len(earlier_rated) + 1
    if rated is None:
        rated = any(earlier_rated)
    variant, options, player_one = _next_game_spec(match)
    if variant is None:
        latest = match.games.order_by("-number_in_match").first()
        assert latest is not None  # the version is chosen once the classic game is over
        return latest
    rule_set = match.rule_set if variant == match.rule_set.variant else standard_rule_set(variant)
    game = _new_game_row(
        rule_set=rule_set, created_by=created_by, match=match, number=number, variant=variant, options=options
    )
    if rated:
        game.rated = True
        game.save(update_fields=["rated"])
    _seat_players(game, {0: players[player_one], 1: players[1 - player_one]})
    _start(game)
    return game


def _next_game_spec(match: Match) -> tuple[str | None, dict[str, Any] | None, int]:
    """(variant, options, match player who is Player One) of the next game; variant None
    when the match waits for a choice (the official match's version)."""
    if match.kind == Match.Kind.OFFICIAL:
        official = TTTMatch.load(match.state)
        step = official.next_step()
        if step["stage"] == "version":
            assert official.chooser is not None  # the classic game's winner, set with the stage
            chooser = match.players[official.chooser]
            if chooser.get("ai_level"):  # an AI chooses at once: the newer rules
                official = official.choose_version(official.chooser, AI_VERSION_CHOICE)
                match.state = official.dump()
                match.save(update_fields=["state"])
                return _next_game_spec(match)
            return None, None, 0
        if step["stage"] == "rps":
            return "rock-paper-scissors", None, 0
        return step["variant"], step.get("options"), step["player_one"]
    series = match_rules.MatchState.load(match.state)
    if series.pending_decision == "rock-paper-scissors":
        return "rock-paper-scissors", None, 0
    assert series.player_one is not None
    return match.rule_set.variant, None, series.player_one


def _advance_match(game: Game) -> None:
    assert game.match_id is not None  # called only for a game of a match
    match = Match.objects.select_for_update().get(pk=game.match_id)
    seat_to_player = {}
    for seat in game.seats_in_hand:
        for index, data in enumerate(match.players):
            if (seat.user_id and data.get("user") == seat.user_id) or (
                not seat.user_id and not data.get("user") and data.get("ai_level") == seat.ai_level
            ):
                seat_to_player[seat.number] = index
    winner = None if game.winner_seat is None else seat_to_player.get(game.winner_seat)
    try:
        if match.kind == Match.Kind.OFFICIAL:
            official = TTTMatch.load(match.state)
            record = {"rps": official.record_rps, "classic": official.record_classic}.get(official.stage)
            official = record(winner) if record else official.record_game(winner, reason=game.end_reason)
            match.state, over = official.dump(), official.is_over
        else:
            series = match_rules.MatchState.load(match.state)
            if series.pending_decision == "rock-paper-scissors" and game.variant == "rock-paper-scissors":
                assert winner is not None  # a tie is thrown again inside the game
                series = series.decide(winner, detail=f"won rock-paper-scissors (game {game.pk})")
            else:
                series = series.record(winner, result=game.result, reason=game.end_reason)
            match.state, over = series.dump(), series.is_over
    except RuleError as err:
        raise ServiceError(err.code, err.message) from err
    match.status = Match.Status.FINISHED if over else Match.Status.ACTIVE
    match.save(update_fields=["state", "status"])
    if not over:
        _next_match_game(match, None)


@transaction.atomic
def choose_match_version(*, match_id: int, user: User, version: str) -> Game:
    """The official match: the classic game's winner chooses Version 1.0 or 2.0."""
    match = Match.objects.select_for_update().filter(pk=match_id, kind=Match.Kind.OFFICIAL).first()
    if match is None:
        raise ServiceError("no-such-match", "There is no such T-Tic-T-Tac-Toe match.")
    official = TTTMatch.load(match.state)
    players = [p.get("user") for p in match.players]
    if user.pk not in players:
        raise ServiceError("not-a-player", "Only a player of this match can choose.")
    try:
        official = official.choose_version(players.index(user.pk), version)
    except RuleError as err:
        raise ServiceError(err.code, err.message) from err
    match.state = official.dump()
    match.save(update_fields=["state"])
    return _next_match_game(match, user)


# -- observers -----------------------------------------------------------------------
# One row per open socket of someone not seated: bookkeeping for the live count and
# for moderation (who is watching), not game state.


# Two queries per connect and per disconnect (a write and a count), each on its own
# worker thread and pooled connection, never behind a move.
# A server that dies never runs its sockets' disconnects: ``sweep_stale_observers``
# (Celery beat, every minute) deletes the rows whose socket is gone.

#: A row younger than this is never swept (its socket may still be connecting).
OBSERVER_SWEEP_AFTER = timedelta(seconds=30)


def observer_joined(*, game_id: int, user: Any, channel_name: str) -> int:
    """Record a watching socket; the number of observers now."""
    # One INSERT; a channel name already recorded (a socket counted twice) is left be.
    sql.insert(
        Observer(game_id=game_id, user=user if user.is_authenticated else None, channel_name=channel_name),
        ignore_conflicts=True,
    )
    return sql.count(Observer, "game", game_id)


def observer_left(*, channel_name: str) -> None:
    """Forget a watching socket. Its game's sockets hear the new count from
    ``games.consumers.ObserverCounts``, counted once for a burst of comings and goings."""
    sql.delete(Observer, "channel_name", channel_name)


def sweep_stale_observers(*, older_than: timedelta = OBSERVER_SWEEP_AFTER) -> int:
    """Delete the observer rows whose socket no longer exists (its server process
    crashed or was killed), and send the games concerned their new count. How many
    rows went. Does nothing when the channel layer cannot tell who is alive."""
    rows = list(
        Observer.objects.filter(joined_at__lt=timezone.now() - older_than).values_list(
            "pk", "game_id", "channel_name"
        )
    )
    alive = realtime.live_channels(name for _, _, name in rows) if rows else None
    if alive is None:
        return 0
    dead = [(pk, game_id) for pk, game_id, name in rows if name not in alive]
    if not dead:
        return 0
    with transaction.atomic():
        Observer.objects.filter(pk__in=[pk for pk, _ in dead]).delete()
        games = sorted({game_id for _, game_id in dead})
        counts = dict(
            Observer.objects.filter(game_id__in=games)
            .values("game_id")
            .annotate(n=Count("pk"))
            .values_list("game_id", "n")
        )
        for game_id in games:
            message = {"type": "game.observers", "count": counts.get(game_id, 0)}
            transaction.on_commit(functools.partial(realtime.send_to_game, game_id, message))
    return len(dead)


# -- notes -----------------------------------------------------------------------------


def _encodable(text: str) -> bool:
    """Whether ``text`` can be stored and sent as UTF-8 (a lone surrogate cannot)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


@transaction.atomic
def save_note(*, game_id: int, user: User, text: str) -> PrivateNote:
    """A player's private notes on their game; only the author ever reads them."""
    game = sql.game(game_id)
    if game is None:
        raise ServiceError("no-such-game", "There is no such game.")
    if seat_of(game, user) is None:
        raise ServiceError("not-a-player", "Only the game's players keep notes on it.")
    if not isinstance(text, str) or len(text) > 10_000:
        raise ServiceError("bad-note", "A note is text of at most 10,000 characters.")
    if "\x00" in text or not _encodable(text):  # the websocket's frames reach here unchecked
        raise ServiceError("bad-note", "A note cannot hold NUL or unpaired surrogate characters.")
    note, _ = PrivateNote.objects.update_or_create(game=game, author=user, defaults={"text": text})
    return note


# -- decisions from outside the board: forfeits and corrections ------------------------


@transaction.atomic
def forfeit(*, game_id: int, seat: int, reason: str, rated: bool | None = False) -> Game:
    """End a game in play as lost by ``seat`` without playing it out: a no-show, a
    withdrawal, an arbiter's decision. ``rated``: False (the default) takes the game out
    of the ratings, as FIDE does with forfeits; None leaves the game's flag as it is.
    Announced and signalled like any other end (league scores it)."""
    game = _locked_game(game_id)
    if seat not in (0, 1):
        raise ServiceError("bad-seat", "A seat is 0 (Player One) or 1 (Player Two).")
    if game.status != Game.Status.ACTIVE:
        raise ServiceError("game-over" if game.is_over else "not-started", "There is no game in play to forfeit.")
    reason = (reason or "").strip() or f"Player {seat + 1} lost by forfeit."
    if rated is not None and game.rated != rated:
        game.rated = rated  # saved by _finish with the rest of the row
    _finish(game, result="win", winner=1 - seat, scores=None, reason=reason[:200])
    return game


@transaction.atomic
def correct_result(*, game_id: int, winner_seat: int | None, reason: str) -> Game:
    """An arbiter's correction of a finished single game's outcome: ``winner_seat`` 0 or
    1, or None for a draw. The moves stay as played; the end reason says it was
    corrected, so the game log (which ratings are recomputed from) tells the story."""
    game = _locked_game(game_id)
    if game.status != Game.Status.FINISHED:
        raise ServiceError("not-finished", "Only a finished game's result can be corrected.")
    if game.match_id:
        raise ServiceError("match-game", "A match game's result is part of its match: it cannot be corrected alone.")
    if winner_seat not in (None, 0, 1):
        raise ServiceError("bad-seat", "The winner is seat 0 (Player One), 1 (Player Two), or nobody (a draw).")
    reason = (reason or "").strip()
    if not reason:
        raise ServiceError("reason-required", "A correction needs a reason.")
    game.result = "draw" if winner_seat is None else "win"
    game.winner_seat = winner_seat
    game.end_reason = f"Result corrected by the arbiter: {reason}"[:200]
    game.save(update_fields=["result", "winner_seat", "end_reason"])
    return game
