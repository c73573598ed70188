"""Writes for games. The only code that changes games, seats, moves or notes.

The life of a game: creating and joining it, moves, clocks, AI seats, its end, and the
forfeits and corrections decided from outside the board. Its neighbours: house-rule
sets in games/rule_sets.py, matches in games/matches.py (called here when a match game
ends), the steps both share (a new game's row, seats and start; the announcement after
commit) in games/starting.py, observer rows in games/observing.py.

Every move goes the same way: lock the game row, check the ply the client believed
current, let the engine judge the move against the cached state, store the move and
the new state in the same transaction, and broadcast only after commit. The unique
(game, ply) constraint is the last line: two racing submissions can never both land.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import random
import secrets
from collections.abc import Callable, Iterator, Mapping
from datetime import datetime, timedelta
from typing import Any, Protocol

from django.contrib.auth.models import AnonymousUser
from django.db import IntegrityError, transaction
from django.db.models import F
from django.db.models.functions import Greatest
from django.utils import timezone

from accounts import players
from accounts.errors import ServiceError
from accounts.models import User
from accounts.services import play_eligibility

from . import boards, matches, notices, realtime, rule_sets, selectors, signals, sql, starting, time_controls
from .models import Game, Move, PrivateNote, RuleSet, Seat
from .rules import RuleError, get_variant
from .rules.ai import LEVELS as AI_LEVELS
from .rules.ai import choose_move
from .starting import Player

logger = logging.getLogger(__name__)

# -- creating and joining games -----------------------------------------------------


def play_refusal(user: User, *, own: bool = True) -> ServiceError | None:
    """Why ``user`` may not be seated in a game (None: they may). ``own``: the user asks;
    else their opponent does, and the refusal names them."""
    decision = play_eligibility(user=user, own=own)
    if decision.allowed:
        return None
    return ServiceError("not-eligible", decision.reason if own else f"{user.username} cannot play: {decision.reason}")


def _check_can_play(user: User, *, own: bool = True) -> None:
    if refusal := play_refusal(user, own=own):
        raise refusal


def challenge_refusal(challenger: User, opponent: User) -> ServiceError | None:
    """Why ``create_game`` refuses ``challenger`` a game against ``opponent``, whatever its
    rules and pace (None: it takes it): one of them may not play (no date of birth, under
    4), or they are one person. Pages offer a challenge only where this is None. Asked
    apart: whether the challenger may reach the opponent (``accounts.players.may_reach``),
    and how many of their challenges already wait."""
    if refusal := play_refusal(challenger):
        return refusal
    if opponent.pk == challenger.pk:
        return ServiceError("bad-opponent", "You cannot challenge yourself.")
    return play_refusal(opponent, own=False)


def _check_ai_level(level: str) -> None:
    if level not in AI_LEVELS:
        raise ServiceError("unknown-ai-level", f"AI levels are {', '.join(AI_LEVELS)}.")


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
    untimed: bool = False,
    notify: bool = True,
) -> Game:
    """A new game: against a user (a challenge they accept), an AI (starts at once),
    or an open challenge (no opponent: anyone may accept).

    Player One follows the rule set's decider: the challenger's choice of seat
    (``creator_seat``, default 0), the seed, a coin toss, or a rock-paper-scissors game
    played live first.

    ``rated``: the result counts for both players' ratings (league/ratings/services.py
    rates it when it ends). Only games between two people are rated: a rated game
    against the AI is refused. Every game of a rated match is rated.

    ``untimed``: a game against the computer played without a clock (``practice_rules``):
    the lobby's default for one, since nobody waits on the other side. A game against a
    person always keeps its rules' clock.

    ``notify``: a person's challenge: the opponent gets a "challenge received" notice, and
    a child may be challenged only by whom ``accounts.players.may_reach`` allows; a
    competition's pairing writes its own notice instead (False).
    """
    _check_can_play(creator)
    if opponent is not None and ai_level:
        raise ServiceError("bad-opponent", "Choose a user or an AI level, not both.")
    if rated and ai_level:
        raise ServiceError(
            "ai-not-rated", "Games against the computer are never rated: choose a player or an open challenge."
        )
    if ai_level:
        _check_ai_level(ai_level)
    if opponent is not None:
        if refusal := challenge_refusal(creator, opponent):
            raise refusal
        if notify and not players.may_reach(creator, opponent):  # a person's challenge, not a pairing's
            raise ServiceError(
                "clubmates-only",
                f"Only members of {opponent.name}'s clubs may challenge them.",  # not why: that is theirs
            )
        waiting = notify and Game.objects.filter(status=Game.Status.OPEN, created_by=creator,
                                                 seats__user=opponent).count()
        if waiting and waiting >= OPEN_CHALLENGES_TO_ONE:  # an outside probe sent one player 40 in seconds
            raise ServiceError(
                "too-many-challenges",
                f"{opponent.name} has {waiting} challenges of yours waiting: wait for an answer, or cancel one.",
            )
    if rule_set is not None and rule_set.for_lessons:
        raise ServiceError("lesson-rules", "That rule set is a guided lesson's own: choose another for a real game.")
    if rule_set is None:
        if variant is None:
            raise ServiceError("bad-request", "Choose a variant or a house-rule set.")
        standard = rule_sets.standard_rule_set(variant)
        # Inline options change the house rules, never the clock: a set without one let a
        # challenge to a person (rated too) skip untimed-needs-ai with "options": {}.
        rule_set = (
            standard
            if options is None
            else rule_sets.create_rule_set(
                name=f"Custom {variant}", variant=variant, options=options, created_by=creator,
                seconds_per_move=standard.seconds_per_move, seconds_per_game=standard.seconds_per_game,
                no_show_seconds=standard.no_show_seconds,
            )
        )
    elif options is not None:
        raise ServiceError("bad-request", "Give a house-rule set or options, not both.")
    if creator_seat not in (None, 0, 1):
        raise ServiceError("bad-seat", "A seat is 0 (Player One) or 1 (Player Two).")
    if untimed:
        if not ai_level:
            raise ServiceError("untimed-needs-ai", "Only a game against the computer may be played without a clock.")
        rule_set = practice_rules(rule_set)

    me = Player(user=creator)
    them = Player(ai_level=ai_level) if ai_level else Player(user=opponent) if opponent else None
    if matches.needs_match(rule_set):
        first = matches.start_match(
            rule_set=rule_set, players=(me, them), created_by=creator, creator_seat=creator_seat, rated=rated
        )
        if opponent is not None and notify:
            notices.challenge_received(first, opponent)
        return first

    game = starting.new_game_row(rule_set=rule_set, created_by=creator)
    if rated:
        game.rated = True
        game.save(update_fields=["rated"])
    if rule_set.decider == RuleSet.Decider.CHALLENGER:
        mine = 0 if creator_seat is None else creator_seat
    else:  # seed or coin: drawn again when the challenge is accepted (starting.draw_at_start)
        mine = starting.player_one_draw(game.seed)
    starting.seat_players(game, {mine: me, 1 - mine: them})
    if them is not None and them.ai_level:
        starting.start(game)
    if opponent is not None and notify:
        notices.challenge_received(game, opponent)
    return game


@transaction.atomic
def accept_challenge(*, game_id: int, user: User, notify: bool = True) -> Game:
    """Take the empty seat of an open challenge, or accept a challenge made to you.
    ``notify``: the challenger gets a "challenge accepted" notice (not for a pairing)."""
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
        maker = User.objects.filter(pk=game.created_by_id).first() if game.created_by_id else None
        if maker is not None and not players.may_reach(user, maker):
            raise ServiceError("clubmates-only", f"Only members of {maker.name}'s clubs may take their open "
                                                 "challenges.")
        seat = empty[0]
        seat.user = user
        seat.save(update_fields=["user"])
    elif not invited:
        raise ServiceError("not-invited", "This challenge is for another player.")
    starting.draw_at_start(game)
    if game.match_id:
        matches.draw_at_start(game)
    starting.start(game)
    _announce_to_rematched(game)
    if notify:
        notices.challenge_accepted(game, user)
    return game



@transaction.atomic
def decline_challenge(*, game_id: int, user: User) -> Game:
    """Say no to a challenge made to you by name: it is called off, and the challenger
    gets a notice. (The challenger cancels their own with ``abort``.)"""
    game = _locked_game(game_id)
    if game.status != Game.Status.OPEN:
        raise ServiceError("not-open", "This game is not waiting for an opponent.")
    if user.pk == game.created_by_id:
        raise ServiceError("bad-opponent", "This is your own challenge: cancel it instead.")
    if seat_of(game, user) is None:
        raise ServiceError("not-invited", "Only the player challenged can decline.")
    _call_off(game, f"{user.name} declined the challenge.", declined_by=user)
    return game


@transaction.atomic
def cancel_challenge(*, game_id: int, user: User) -> Game:
    """Call off your own challenge before anyone accepted it (``abort``, for its maker
    only: the player challenged declines instead)."""
    game = _locked_game(game_id)
    if game.created_by_id != user.pk:
        raise ServiceError("not-yours", "Only the player who made a challenge can cancel it.")
    if game.status != Game.Status.OPEN:
        raise ServiceError("not-open", "This game is not waiting for an opponent.")
    return abort(game_id=game_id, user=user)


#: Apps above games that know a game is not its players' to rematch or abort (league: a
#: tournament's pairing decides; lessons: no rematch) say so here, from their
#: AppConfig.ready: a gate answers None or the reason in words.
GameGate = Callable[[Game], str | None]
_gates: dict[str, dict[str, GameGate]] = {"rematch": {}, "abort": {}}


def register_gate(action: str, name: str, gate: GameGate) -> None:
    """``action``: "rematch" or "abort"."""
    _gates[action][name] = gate


def gate_refusal(action: str, game: Game) -> str | None:
    """Why this game's players may not ``action`` it (a gate's reason), or None."""
    for gate in list(_gates[action].values()):
        if reason := gate(game):
            return reason
    return None


def abort_refusal(game: Game) -> str | None:
    """Why an accepted game nobody has moved in may not be aborted, or None: a match's
    later games (the match has begun: a player losing it would call it off), and what
    the gates say (a tournament's games: the pairing stands, and a player who does not
    move loses it as a no-show)."""
    if game.match_id is not None and (game.number_in_match or 1) > 1:
        return "The match has begun: its later games cannot be aborted; resign instead."
    return gate_refusal("abort", game)


@transaction.atomic
def rematch(*, game_id: int, user: User) -> Game:
    """The rematch of a finished game, with the same rules and the seats swapped (so the
    first move too). Against the AI it starts at once; against a person it is a
    challenge to the same opponent (a notice tells them), and when they ask for it too
    they accept it: one game, however often or however nearly at once both press.
    The old game's row lock and the one-to-one ``rematch_of`` keep it to one."""
    game = _locked_game(game_id)
    seat = seat_of(game, user)
    if seat is None:
        raise ServiceError("not-a-player", "Only a player of this game can ask for a rematch.")
    if game.status != Game.Status.FINISHED:
        raise ServiceError("not-finished", "A rematch follows a finished game.")
    if game.match_id:
        raise ServiceError("no-rematch", "A match plays its own next game; there is no rematch.")
    if reason := gate_refusal("rematch", game):
        raise ServiceError("no-rematch", reason)
    existing = selectors.rematch_of(game)
    if existing is not None:
        if existing.status == Game.Status.OPEN and existing.created_by_id != user.pk:
            return accept_challenge(game_id=existing.pk, user=user)
        if existing.status == Game.Status.ABORTED:
            raise ServiceError("rematch-declined", "The rematch was declined or cancelled.")
        return existing
    _check_can_play(user)
    other = next(s for s in game.seats_in_hand if s.number != seat)
    them = Player(ai_level=other.ai_level) if other.ai_level else Player(user=other.user)
    if them.user is not None:
        _check_can_play(them.user, own=False)
        if refusal := rematch_reach_refusal(user, them.user):
            # A rematch is a challenge: a child's is theirs to ask (above, it is then
            # accepted); a stranger's was sent after any game the child took.
            raise ServiceError("clubmates-only", refusal)
    new = starting.new_game_row(rule_set=game.rule_set, created_by=user)
    new.rated = game.rated
    new.rematch_of = game
    new.save(update_fields=["rated", "rematch_of"])
    starting.seat_players(new, {1 - seat: Player(user=user), seat: them})
    if them.user is None:
        starting.start(new)
    else:
        notices.challenge_received(new, them.user)
        _announce_to_rematched(new)
    return new


def rematch_reach_refusal(asker: User | None, opponent: User | None) -> str | None:
    """Why ``asker`` may not offer ``opponent`` a rematch, or None: a rematch is a
    challenge, so a child (an account opened with a guardian's consent) gets one only
    from whom ``accounts.players.may_reach`` allows, as any challenge; the child may
    still ask for it, and the other then accepts (docs/accounts.md, "Finding players")."""
    if opponent is None or players.may_reach(asker, opponent):  # an AI seat: no challenge
        return None
    return (f"Only members of {opponent.name}'s clubs may challenge them, a rematch too. They may ask for one "
            "themselves.")


def _announce_to_rematched(game: Game) -> None:
    """A rematch offered, accepted, declined or cancelled: the finished game's page
    hears it too (its board shows the rematch's state), after commit."""
    old_id = game.rematch_of_id
    if old_id is not None:
        transaction.on_commit(lambda: realtime.send_to_game(old_id, boards.update_message(old_id)))


# -- guided lessons ---------------------------------------------------------------------


class LessonCoach(Protocol):
    """A lesson game's script (games/lesson_service.py registers it from AppConfig.ready),
    asked only about games with ``game.lesson`` set."""

    def refusal(self, game: Game, seat: int, move: Any) -> str | None:
        """The step's hint when ``move`` is not the step's; None to let it be played."""

    def played(self, game: Game, seat: int, moves: list[Move]) -> None:
        """A move was stored (``moves``: the whole log): note the learner's progress."""

    def reply(self, game: Game, seat: int, state: Any) -> Any | None:
        """The coach's scripted move for ``seat`` now, if legal in ``state``; None: the AI's."""


_lesson_coach: LessonCoach | None = None


def register_lesson_coach(coach: LessonCoach) -> None:
    global _lesson_coach
    _lesson_coach = coach


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
        if game.lesson and _lesson_coach is not None and (hint := _lesson_coach.refusal(game, seat, move)):
            raise ServiceError("off-lesson", hint)
        if not _flag_if_expired(game, timezone.now()):
            return _play(game, seat, move)
    # Raised after the commit: the time-out that ended the game is kept.
    raise ServiceError("time-out", "Time ran out; the game is over.")


def _check_can_move(game: Game, ply: Any) -> None:
    if isinstance(ply, bool) or not isinstance(ply, int):
        raise ServiceError("malformed-ply", "The ply must be a whole number: the number of moves you have seen.")
    if game.status == Game.Status.OPEN:
        raise ServiceError("not-started", "The game has not started yet.")
    # Stale before over: a duplicate of a stored move gets the same answer whether that
    # move ended the game or not (docs/protocol.md, "Stale ply").
    if ply != game.ply:
        raise ServiceError("stale-ply", f"The game is at ply {game.ply}, not {ply}; here is the current state.")
    if game.is_over:
        raise ServiceError("game-over", "The game is over.")


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
        stored = Move.objects.create(
            game=game,
            ply=game.ply + 1,
            seat=seat,
            move=move,
            commitment=commitment_for(move, nonce) if secret else "",
            nonce=nonce,
            revealed=not secret,
        )
    except IntegrityError as exc:
        raise ServiceError("stale-ply", "Another move was stored first; here is the current state.") from exc
    moves.append(stored)
    if game.lesson and _lesson_coach is not None:
        _lesson_coach.played(game, seat, moves)
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
        game.save(update_fields=fields)
        starting.announce_after_commit(game, moves=moves)
        notices.your_turn(game, seat)
    return game


def play_set_up(game: Game, moves: Any) -> None:
    """Play ``moves``, (seat, move) pairs, on a new game before it starts: a lesson's
    set-up position (games/lesson_service.py), stored like any move."""
    for seat, move in moves:
        _play(game, seat, move)


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
    """Take the time this turn took off the seat's game clock. Not the first step's: its
    time is the no-show grace's (``Game.on_first_step``). Charged, a first move made 3½
    minutes into a 5-minute grace left a 3-minute clock at 0:00, and its player lost on
    time at once (an outside walkthrough, rated)."""
    if game.rule_set.seconds_per_game and game.turn_started_at and not game.on_first_step:
        spent = int((now - game.turn_started_at).total_seconds() * 1000)
        Seat.objects.filter(game=game, number=seat).update(clock_ms=Greatest(F("clock_ms") - spent, 0))
        # The seats in hand feed the broadcast: keep them equal to the row just updated.
        for held in game.seats_in_hand:
            if held.number == seat and held.clock_ms is not None:
                held.clock_ms = max(held.clock_ms - spent, 0)


def _flag_if_expired(game: Game, now: datetime) -> bool:
    """Finish the game if a seat to move has run out of time, or (no clock) nobody has
    moved within the idle limit. True if it did. A seat that has already played its half
    of a simultaneous step is no longer to move, so it is never flagged."""
    expired = []
    for seat in game.seats_in_hand:
        deadline = selectors.deadline_for(game, seat)
        if deadline is not None and now >= deadline:
            expired.append(seat.number)
    idle = selectors.idle_deadline(game)
    abandoned = not expired and idle is not None and now >= idle
    if abandoned:
        expired = sorted(game.to_move)
    if not expired:
        return False
    no_show = game.on_first_step  # a seat that never came to the board (both halves of a simultaneous first step)
    if no_show:
        game.rated = False  # a no-show is a forfeit, unrated as ``forfeit`` makes it (FIDE)
    idle_words = time_controls.duration_words(time_controls.idle_seconds())
    if len(expired) == 2:
        reason = (f"The game was abandoned: neither player moved for {idle_words}." if abandoned
                  else "Neither player showed up." if no_show else "Both players ran out of time.")
        _finish(game, result="draw", winner=None, scores=None, reason=reason)
    else:
        loser = expired[0]
        if abandoned:
            reason = f"The game was abandoned: Player {loser + 1} did not move for {idle_words}."
        elif no_show and any(seat.ai_level for seat in game.seats_in_hand):
            # The computer is always there: its opponent made the game and left it.
            reason = f"The game was abandoned: Player {loser + 1} never made a move."
        else:
            reason = f"Player {loser + 1} {'did not show up' if no_show else 'ran out of time'}."
        _finish(game, result="win", winner=1 - loser, scores=None, reason=reason)
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
    """Finish every active game whose player to move ran out of time, or that sat idle
    past the limit without a clock, and call off the challenges nobody accepted within
    that limit (Celery beat, every 5 s). Returns the games ended."""
    now = now or timezone.now()
    ended = 0
    for game_id in selectors.games_out_of_time(now):
        with _each_game_alone(game_id), transaction.atomic():
            game = sql.game(game_id, lock=True, skip_locked=True)
            if game is not None and game.status == Game.Status.ACTIVE and _flag_if_expired(game, now):
                ended += 1
    for game_id in selectors.unanswered_challenges(now):
        with _each_game_alone(game_id), transaction.atomic():
            game = sql.game(game_id, lock=True, skip_locked=True)
            if game is not None and game.status == Game.Status.OPEN:
                idle_words = time_controls.duration_words(time_controls.idle_seconds())
                _call_off(game, f"Nobody accepted the challenge within {idle_words}.")
                ended += 1
    return ended


@contextlib.contextmanager
def _each_game_alone(game_id: int) -> Iterator[None]:
    """One game's failure is logged and its transaction undone, and the sweep goes on: an
    outside probe found one game's error (a decider ended without a winner) stopping
    every time-out after it, every 5 s, for good."""
    try:
        yield
    except Exception:
        logger.exception("The clock sweep could not end game %s; it goes on with the others.", game_id)


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


#: Challenges one player may have waiting for the same opponent at once.
OPEN_CHALLENGES_TO_ONE = 3


#: What a practice copy of a set is called: its name, and that it has no clock.
PRACTICE_SUFFIX = " (no clock)"


def practice_rules(rule_set: RuleSet) -> RuleSet:
    """``rule_set`` without a clock, for a game against the computer (docs/game-page.md,
    "Clocks"): a copy made once per set and version, then found again. Never current, so
    no list offers it for choosing and nobody revises it; its games keep it like any set.
    The first move may wait as long as any other (the idle limit): nobody has to arrive."""
    fields = {
        "variant": rule_set.variant, "options": rule_set.options, "decider": rule_set.decider,
        "match_format": rule_set.match_format, "match_games": rule_set.match_games,
        "next_first": rule_set.next_first,
        "no_show_seconds": min(max(time_controls.idle_seconds(), rule_sets.MIN_NO_SHOW_SECONDS),
                               rule_sets.MAX_RULE_SECONDS),
    }
    if not rule_set.seconds_per_move and not rule_set.seconds_per_game:
        return rule_set  # a house set without a clock already
    name = f"{rule_set.name[:120 - len(PRACTICE_SUFFIX)]}{PRACTICE_SUFFIX}"
    copies = RuleSet.objects.filter(name=name, created_by=None, is_current=False, is_standard=False, for_lessons=False,
                                    seconds_per_move__isnull=True, seconds_per_game__isnull=True, **fields)
    if (found := copies.first()) is not None:
        return found
    with transaction.atomic():
        # Games created at once would each miss the copy and make one: the set's row lock
        # (held to the caller's commit) makes the next wait, then find the first's copy.
        list(RuleSet.objects.select_for_update().filter(pk=rule_set.pk).values_list("pk", flat=True))
        if (found := copies.first()) is not None:
            return found
        return RuleSet.objects.create(name=name, is_current=False, **fields)

#: Aborts of accepted games one player may make in a rolling window (a challenge's maker
#: cancelling it before anyone accepted is not counted).
ABORTS_ALLOWED = (3, timedelta(hours=24))


@transaction.atomic
def abort(*, game_id: int, user: User) -> Game:
    """Call a game off before it really began (no move yet): nobody wins, nothing is rated."""
    game = _locked_game(game_id)
    if seat_of(game, user) is None and game.created_by_id != user.pk:
        raise ServiceError("not-a-player", "Only a player of this game can abort it.")
    if game.is_over:
        raise ServiceError("game-over", "The game is over.")
    if game.status == Game.Status.OPEN and game.created_by_id != user.pk:
        # A challenge is its maker's to call off; the player challenged declines it.
        raise ServiceError("not-yours", "Only the player who made a challenge can cancel it; decline it instead.")
    if game.ply > 0:
        raise ServiceError("already-begun", "A game with moves cannot be aborted; resign instead.")
    if game.status == Game.Status.ACTIVE and (reason := abort_refusal(game)):
        raise ServiceError("no-abort", reason)
    if game.status == Game.Status.ACTIVE:
        # An accepted game's seats are drawn (docs/rules/matches.md): aborts are counted,
        # as Lichess counts them, so nobody re-rolls the first move game after game.
        limit, window = ABORTS_ALLOWED
        if Game.objects.filter(aborted_by=user, finished_at__gte=timezone.now() - window).count() >= limit:
            raise ServiceError(
                "abort-limit",
                f"You have aborted {limit} games in the last {window.days * 24 + window.seconds // 3600} hours, "
                "the most allowed: play this game, or resign it.",
            )
        game.aborted_by = user
        game.save(update_fields=["aborted_by"])
    _call_off(game, "Aborted before the first move.")
    return game


@transaction.atomic
def call_off(*, game_id: int, reason: str) -> Game:
    """The platform calls off a game nobody has moved in (a tournament's operations: a
    withdrawal, a round paired again): nobody wins, nothing is rated, and no player's
    abort is counted or gated. A game already over is left as it is."""
    game = _locked_game(game_id)
    if game.is_over:
        return game
    if game.ply > 0:
        raise ServiceError("already-begun", "A game with moves is not called off: it is forfeited.")
    _call_off(game, reason)
    return game


def _call_off(game: Game, reason: str, *, declined_by: User | None = None) -> None:
    """End the locked game before any move: nobody wins, nothing is rated. A declined
    challenge tells its maker so; any other call-off tells both seats the game ended."""
    game.status = Game.Status.ABORTED
    game.finished_at = timezone.now()
    game.end_reason = reason
    game.to_move = []
    game.save(update_fields=["status", "finished_at", "end_reason", "to_move"])
    if game.match_id:
        matches.call_off(game)
    starting.announce_after_commit(game)
    _announce_to_rematched(game)
    if declined_by is not None:
        notices.challenge_declined(game, declined_by)
    else:
        notices.game_ended(game)


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
    starting.announce_after_commit(game, moves=moves)
    notices.game_ended(game)
    transaction.on_commit(lambda: signals.game_finished.send(sender=Game, game_id=game.pk))
    if game.match_id:
        matches.advance(game)


# -- AI seats -------------------------------------------------------------------------


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
        scripted = _lesson_coach.reply(game, seat.number, known) if game.lesson and _lesson_coach else None
        move = scripted if scripted is not None else choose_move(variant, known, seat.number, seat.ai_level, rng)
        game = _play(game, seat.number, move)
        if game.status != Game.Status.ACTIVE:
            break
    return game


#: An AI seat to move for this long with nothing played: its task was lost (the broker
#: was down when it was queued, or its worker died), so the sweep plays it.
AI_STALL_SECONDS = 10.0


def play_stalled_ai_seats(*, now: datetime | None = None) -> int:
    """Play the AI seats whose task was lost (Celery beat, every 5 s); idempotent with
    the task itself (the ply is checked under the game's lock). Returns games moved."""
    cutoff = (now or timezone.now()) - timedelta(seconds=AI_STALL_SECONDS)
    stalled = Game.objects.filter(status=Game.Status.ACTIVE, turn_started_at__lt=cutoff, seats__ai_level__gt="")
    played = 0
    for game_id, ply, to_move in stalled.values_list("pk", "ply", "to_move").distinct()[:100]:
        ai_seats = Seat.objects.filter(game_id=game_id, number__in=to_move).exclude(ai_level="")
        if ai_seats.exists() and play_ai_move(game_id=game_id, ply=ply) is not None:
            played += 1
    return played


def _state_without_secrets(game: Game) -> Any:
    variant = get_variant(game.variant)
    hidden = game.moves.filter(revealed=False).exists()
    if not hidden:
        return variant.load(game.state)
    public = [(m.seat, m.move) for m in game.moves.filter(revealed=True).order_by("ply")]
    return variant.replay(public, game.options, game.seed)


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
    # To the author's open sockets (other tabs, however it was saved: socket, page or
    # REST), which pick it out of the game group's messages (GameConsumer.game_note): no
    # group of its own, so no second Redis subscription for every player's socket.
    transaction.on_commit(lambda: realtime.send_to_game(
        game.pk, {"type": "game.note", "author": user.pk, "text": note.text}))
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
