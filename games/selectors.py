"""Reads for games: what each viewer may see. Secrets never leave for the wrong viewer."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db.models import Count, Exists, F, OuterRef, Q, QuerySet

from accounts import players
from accounts.models import User

from . import sql, time_controls
from .models import Game, Match, Move, RuleSet, Seat
from .rules import get_variant
from .rules.match import MatchState
from .rules.variants.t_tic_t_tac_toe.match import TTTMatch

OBSERVER = "observer"


def viewer_key(seat: int | None) -> str:
    return OBSERVER if seat is None else str(seat)


def _move_entry(move: Move, viewer: int | None, describe: Any) -> dict[str, Any]:
    entry: dict[str, Any] = {"ply": move.ply, "seat": move.seat}
    visible = move.revealed or move.seat == viewer
    if visible:
        entry["move"] = move.move
        entry["notation"] = describe(move.move)
    if move.commitment:
        entry["commitment"] = move.commitment
        if move.revealed:
            entry["nonce"] = move.nonce
    return entry


def deadline_for(game: Game, seat: Seat) -> datetime | None:
    """When ``seat`` runs out of time on the current turn, if it is to move."""
    if game.status != Game.Status.ACTIVE or seat.number not in game.to_move or game.turn_started_at is None:
        return None
    rules = game.rule_set
    return turn_deadline(started=game.turn_started_at, first_step=game.on_first_step, seconds_per_move=rules.seconds_per_move,
                         seconds_per_game=rules.seconds_per_game, no_show_seconds=rules.no_show_seconds,
                         clock_ms=seat.clock_ms)


def turn_deadline(*, started: datetime, first_step: bool, seconds_per_move: int | None, seconds_per_game: int | None,
                  no_show_seconds: int, clock_ms: int | None) -> datetime | None:
    """When a seat to move since ``started`` runs out of time: the nearer of the per-move
    limit and its game clock; on the game's first step, at least the no-show grace."""
    limits = []
    if seconds_per_move:
        limits.append(started + timedelta(seconds=seconds_per_move))
    if seconds_per_game and clock_ms is not None:
        limits.append(started + timedelta(milliseconds=clock_ms))
    if first_step and not limits:
        limits.append(started + timedelta(seconds=no_show_seconds))
    elif first_step:
        limits = [max(limit, started + timedelta(seconds=no_show_seconds)) for limit in limits]
    return min(limits) if limits else None


def idle_deadline(game: Game) -> datetime | None:
    """When a game in play whose rules have no clock ends as abandoned, if nobody moves
    (settings.GAME_IDLE_SECONDS). Before the first move the no-show rule ends it instead,
    and a game with a clock always ends by its clock."""
    if game.status != Game.Status.ACTIVE or game.turn_started_at is None:
        return None
    rules = game.rule_set
    return idle_deadline_of(started=game.turn_started_at, first_step=game.on_first_step, seconds_per_move=rules.seconds_per_move,
                            seconds_per_game=rules.seconds_per_game)


def idle_deadline_of(*, started: datetime, first_step: bool, seconds_per_move: int | None,
                     seconds_per_game: int | None) -> datetime | None:
    if first_step or seconds_per_move or seconds_per_game:
        return None
    return started + timedelta(seconds=time_controls.idle_seconds())


def games_out_of_time(now: datetime) -> list[int]:
    """The games in play a seat of which has run out of time at ``now``, or idle past the
    limit: what the periodic clock check locks and ends. One query for the games and one
    for their seats, read as plain values: for 10,000 games in play, 1.2 s as model
    instances with a prefetch against 0.1 s as values (bench/lobby.py)."""
    in_play = {"status": Game.Status.ACTIVE, "turn_started_at__lte": now}
    clocks: dict[int, dict[int, int | None]] = {}
    for game_id, number, clock_ms in Seat.objects.filter(**{f"game__{k}": v for k, v in in_play.items()}).values_list(
        "game_id", "number", "clock_ms"
    ):
        clocks.setdefault(game_id, {})[number] = clock_ms
    due = []
    for game_id, game_started, to_move, started, per_move, per_game, no_show in Game.objects.filter(**in_play).values_list(
        "id", "started_at", "to_move", "turn_started_at", "rule_set__seconds_per_move", "rule_set__seconds_per_game",
        "rule_set__no_show_seconds",
    ):
        if started is None:  # not so: the filter reads turn_started_at <= now
            continue
        seats = clocks.get(game_id, {})
        first_step = started == game_started  # as Game.on_first_step
        ends = [
            turn_deadline(started=started, first_step=first_step, seconds_per_move=per_move, seconds_per_game=per_game,
                          no_show_seconds=no_show, clock_ms=seats.get(number))
            for number in to_move
        ] + [idle_deadline_of(started=started, first_step=first_step, seconds_per_move=per_move, seconds_per_game=per_game)]
        if any(end is not None and end <= now for end in ends):
            due.append(game_id)
    return due


def unanswered_challenges(now: datetime) -> list[int]:
    """Challenges nobody accepted within the idle limit: they leave the lobby."""
    cutoff = now - timedelta(seconds=time_controls.idle_seconds())
    return list(Game.objects.filter(status=Game.Status.OPEN, created_at__lt=cutoff).values_list("pk", flat=True))


def _seat_entry(seat: Seat, game: Game) -> dict[str, Any]:
    deadline = deadline_for(game, seat)
    user = seat.user
    return {
        "seat": seat.number,
        "user": user.username if user is not None else None,
        "name": seat_name(seat, lesson=bool(game.lesson)),
        "ai_level": seat.ai_level or None,
        "clock_ms": seat.clock_ms,
        "deadline": deadline.isoformat() if deadline else None,
        # Whose clock runs: a seat to move in a game in play (both, in a simultaneous step).
        "running": game.status == Game.Status.ACTIVE and seat.number in game.to_move,
    }


def seat_name(seat: Seat, *, lesson: bool = False) -> str | None:
    """What a seat's player is called: their name, "AI (strong)" ("Coach" in a lesson),
    None for an open seat. The one place these names are made."""
    if seat.user is not None:
        return seat.user.name
    if not seat.ai_level:
        return None
    return "Coach" if lesson else f"AI ({seat.ai_level})"


def _iso(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment is not None else None


def game_payload(game: Game, viewer: int | None, *, moves: list[Move] | None = None) -> dict[str, Any]:
    """The whole game as ``viewer`` (seat 0, seat 1 or None for anyone else) may see it."""
    variant = get_variant(game.variant)
    state = variant.load(game.state)
    if moves is None:
        moves = sql.moves(game.pk)
    payload: dict[str, Any] = {
        "id": game.pk,
        "variant": game.variant,
        "status": game.status,
        "rated": game.rated,
        "ply": game.ply,
        "to_move": list(game.to_move),
        "you": viewer,
        "view": variant.view(state, viewer),
        "seats": [_seat_entry(seat, game) for seat in game.seats_in_hand],
        "moves": [_move_entry(m, viewer, variant.describe_move) for m in moves],
        "rules": {
            "id": game.rule_set_id,
            "name": game.rule_set.name,
            "version": game.rule_set.version,
            "options": game.options,
            "seconds_per_move": game.rule_set.seconds_per_move,
            "seconds_per_game": game.rule_set.seconds_per_game,
            "time_control": time_controls.label_of(game.rule_set),
        },
        "idle_deadline": _iso(idle_deadline(game)),
        "match": match_summary(game) if game.match_id else None,
        "seed_hash": game.seed_hash,
        "seed": game.seed if game.is_over else None,
        "result": (
            {"result": game.result, "winner": game.winner_seat, "scores": game.scores, "reason": game.end_reason}
            if game.status == Game.Status.FINISHED
            else None
        ),
    }
    if game.status == Game.Status.ABORTED:
        payload["result"] = {"result": "aborted", "winner": None, "scores": None, "reason": game.end_reason}
    if payload["result"] is not None:
        payload["result"]["text"] = result_text(variant, payload["view"], payload["result"], payload["seats"])
    return payload


def finished_result_text(game: Game) -> str:
    """A finished game's result sentence as anyone may read it (lobby lines, lists): the
    same words as its page, from its final state (its seats prefetched)."""
    variant = get_variant(game.variant)
    result = {"result": game.result, "winner": game.winner_seat, "scores": game.scores, "reason": game.end_reason}
    seats = [{"seat": seat.number, "name": seat_name(seat, lesson=bool(game.lesson))} for seat in game.seats.all()]
    return result_text(variant, variant.view(variant.load(game.state), None), result, seats)


def result_text(variant: Any, view: dict[str, Any], result: dict[str, Any], seats: list[dict[str, Any]]) -> str:
    """The result in one sentence with the players' names (Variant.describe_result): what
    the game page, the replay and the API say."""
    names = {entry["seat"]: entry["name"] for entry in seats}
    return str(variant.describe_result(view, result, [names.get(0), names.get(1)]))


def match_summary(game: Game) -> dict[str, Any]:
    """Where the game's match stands: score, what comes next, who must choose."""
    match = game.match
    assert match is not None
    names = [_player_name(p) for p in match.players]
    latest = match.games.order_by("-number_in_match").values_list("pk", "number_in_match").first()
    summary: dict[str, Any] = {
        "id": match.pk,
        "kind": match.kind,
        "number": game.number_in_match,
        "status": match.status,
        "players": names,
        "next_game": latest[0] if latest and (latest[1] or 0) > (game.number_in_match or 0) else None,
        "choose_version": None,
    }
    if match.kind == Match.Kind.OFFICIAL:
        official = TTTMatch.load(match.state)
        step = official.next_step()
        summary.update(score=list(official.score), stage=step["stage"], text=_named(step.get("text", ""), names),
                       version=official.version)
        if step["stage"] == "version":
            chooser = match.players[official.chooser or 0]
            summary["choose_version"] = {
                "chooser": names[official.chooser or 0],
                "chooser_id": chooser.get("user"),
                # A bot knows its username, not its id nor how its name is shown.
                "chooser_username": _player_username(chooser),
                "versions": step["versions"],
            }
    else:
        series = MatchState.load(match.state)
        summary.update(score=list(series.score), stage="over" if series.is_over else "games", text="")
    return summary


def _named(text: str, names: list[str]) -> str:
    """The engine's words count match players from 0 ("player 1 is X"), where results
    count from 1: put their names in instead, for people and bots alike."""
    return re.sub(r"\b[Pp]layer ([01])\b", lambda found: names[int(found.group(1))], text)


def _player_username(data: dict[str, Any]) -> str | None:
    """A match player's username; None for an AI."""
    if not data.get("user"):
        return None
    return User.objects.filter(pk=data["user"]).values_list("username", flat=True).first()


def _player_name(data: dict[str, Any]) -> str:
    if data.get("user"):
        user = User.objects.filter(pk=data["user"]).select_related("profile").first()
        return user.name if user else "?"
    return f"AI ({data.get('ai_level')})"  # a match's seat data, not a Seat row


def load_game(game_id: int) -> Game:
    """The game with what its payload reads: rules, match, seats (two queries)."""
    game = sql.game(game_id)
    if game is None:
        raise Game.DoesNotExist(f"no game {game_id}")
    return game


def current_rule_sets() -> QuerySet[RuleSet]:
    """The latest version of every house-rule set (not the lessons' own), for choosing one: the platform's
    standard sets first, so a player's set that borrows a standard name is never
    listed as if it were one (docs/security.md)."""
    return (
        RuleSet.objects.filter(is_current=True, for_lessons=False).select_related("created_by").order_by("-is_standard", "variant", "name")
    )


def visible_challenges(viewer: Any) -> Q:
    """Which games a viewer may see listed: every game but a challenge to one player,
    which only its two players see (docs/game-page.md, "Finding opponents"), and a
    child's open challenge, which only those who may reach the child see (as only they
    may take it: services.accept_challenge)."""
    open_seat = Exists(Seat.objects.filter(game=OuterRef("pk"), user__isnull=True, ai_level=""))
    shown = ~Q(status=Game.Status.OPEN) | Q(open_seat)
    out_of_reach = _children_out_of_reach(viewer)
    if out_of_reach:
        shown &= ~Q(status=Game.Status.OPEN, created_by__in=out_of_reach)
    if viewer is not None and viewer.is_authenticated:
        shown |= Q(created_by=viewer.pk) | Q(Exists(Seat.objects.filter(game=OuterRef("pk"), user=viewer.pk)))
    return shown


def _children_out_of_reach(viewer: Any) -> list[int]:
    """The children with an open challenge whom ``viewer`` may not reach (few: one query
    for them, then accounts.players.may_reach each)."""
    makers = User.objects.filter(pk__in=Game.objects.filter(status=Game.Status.OPEN).values("created_by"),
                                 guardian_consent__isnull=False)
    return [maker.pk for maker in makers if not players.may_reach(viewer, maker)]


def challenges_to(viewer: Any) -> QuerySet[Game]:
    """The open challenges made to this viewer by name, newest first."""
    if viewer is None or not viewer.is_authenticated:
        return Game.objects.none()
    return (
        Game.objects.filter(status=Game.Status.OPEN, seats__user=viewer.pk)
        .exclude(created_by=viewer.pk)
        .select_related("rule_set", "created_by__profile")
        .prefetch_related("seats__user__profile")
        .order_by("-created_at")
    )


def lobby_games(viewer: Any = None, *, variant: str = "", pace: str = "") -> dict[str, QuerySet[Game]]:
    """The lobby's lists as ``viewer`` may see them (visible_challenges); ``variant`` (a
    slug) and ``pace`` (a key of time_controls.PACES) narrow every list when given (the
    view checks them), except ``to_you``, the challenges to the viewer (challenges_to),
    which no filter hides: a player filtering for quick classic games missed a
    Tactic-Toe challenge to them. ``open`` leaves them out."""
    # A guided lesson (games/lessons/) is a player's own practice, listed nowhere.
    base = Game.objects.filter(lesson="").select_related("rule_set").prefetch_related("seats__user__profile")
    if variant:
        base = base.filter(variant=variant)
    if pace:
        base = base.filter(time_controls.pace_filter(pace))
    to_you = challenges_to(viewer)
    return {
        "to_you": to_you[:50],
        "open": base.filter(visible_challenges(viewer), status=Game.Status.OPEN)
        .exclude(pk__in=to_you.values("pk")).order_by("-created_at")[:50],
        "active": base.filter(status=Game.Status.ACTIVE).order_by("-started_at")[:50],
        "finished": base.filter(finished_worth_showing(viewer), status=Game.Status.FINISHED).order_by("-finished_at")[:20],
    }


#: A game both sides moved in at least once was played; fewer moves is a no-show or a
#: game left at once.
PLAYED_PLIES = 2


def finished_worth_showing(viewer: Any = None) -> Q:
    """The lobby's "Recently finished" (docs/game-page.md, "Finding opponents"): games
    between two people that were played or moved ratings (a no-show never does), and
    the viewer's own games they moved in, against the computer too. Everyone's practice
    against the computer and games nobody played filled the list, hiding the club's."""
    against_computer = Exists(Seat.objects.filter(game=OuterRef("pk")).exclude(ai_level=""))
    shown = (Q(ply__gte=PLAYED_PLIES) | Q(rated=True)) & ~Q(against_computer)
    if viewer is not None and getattr(viewer, "is_authenticated", False):
        mine = Exists(Seat.objects.filter(game=OuterRef("pk"), user_id=viewer.pk))
        shown |= Q(mine) & Q(ply__gte=1)
    return shown


#: A player's page lists this many of their latest games (docs/game-page.md, "A player's page").
PLAYER_GAMES_SHOWN = 10


@dataclass(frozen=True)
class Record:
    """A player's finished games against people, as the lobby's "Recently finished"
    counts them (finished_worth_showing): won, drawn and lost."""

    won: int
    drawn: int
    lost: int

    @property
    def played(self) -> int:
        return self.won + self.drawn + self.lost


def _games_against_people(person: User) -> QuerySet[Game]:
    """``person``'s finished games that count in their record, joined to their seat."""
    return Game.objects.filter(finished_worth_showing(), status=Game.Status.FINISHED, lesson="", seats__user=person)


def player_record(person: User, *, against: User | None = None) -> Record:
    """``person``'s won, drawn and lost games against people; with ``against``, only those
    against that player (a head-to-head)."""
    games = _games_against_people(person)
    if against is not None:
        games = games.filter(Exists(Seat.objects.filter(game=OuterRef("pk"), user=against)))
    # F("seats__number") is the seat of the filter's join: person's own.
    mine = Q(winner_seat=F("seats__number"))
    counts = games.aggregate(won=Count("pk", filter=Q(result="win") & mine),
                             drawn=Count("pk", filter=Q(result="draw")),
                             lost=Count("pk", filter=Q(result="win") & ~mine))
    return Record(**counts)


@dataclass(frozen=True)
class PlayerGame:
    """One of a player's games as their page lists it."""

    game: Game
    variant_name: str
    opponent: str  # the other seat's name (seat_name): a player, or "AI (casual)"
    opponent_user: User | None
    outcome: str  # "won", "drew", "lost"; "" while in play


def player_games(person: User, *, limit: int = PLAYER_GAMES_SHOWN) -> dict[str, list[PlayerGame]]:
    """``person``'s games in play now (against the computer too) and their latest
    finished games against people (the record's), newest first."""
    def listed(games: QuerySet[Game]) -> list[PlayerGame]:
        out = []
        for game in games.select_related("rule_set").prefetch_related("seats__user__profile")[:limit]:
            seats = list(game.seats.all())
            own = next(seat for seat in seats if seat.user_id == person.pk)
            other = next((seat for seat in seats if seat is not own), None)
            outcome = ""
            if game.status == Game.Status.FINISHED:
                won = game.winner_seat == own.number
                outcome = {"draw": "drew", "win": "won" if won else "lost"}.get(game.result, "")
            out.append(PlayerGame(game=game, variant_name=get_variant(game.variant).display_name, opponent=(seat_name(other) or "") if other else "",
                                  opponent_user=other.user if other else None, outcome=outcome))
        return out

    active = Game.objects.filter(status=Game.Status.ACTIVE, lesson="", seats__user=person).order_by("-started_at")
    return {"active": listed(active), "finished": listed(_games_against_people(person).order_by("-finished_at"))}


def rematch_of(game: Game) -> Game | None:
    """The rematch of a game, once someone asked for it."""
    return Game.objects.filter(rematch_of=game.pk).first()
