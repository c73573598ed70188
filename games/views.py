"""Pages for live play: the lobby, a game page for every variant, and the replay.

Thin: every write goes through ``games.services``, every read through
``games.selectors`` (what a viewer may see) and the engine (legal moves, replay).

How the page stays live: ``static/js/game.js`` opens the game websocket in board mode
(``?board=html``), and each ``state``/``update`` frame carries the ``board`` partial of
``games/game.html`` already rendered for this viewer's kind (seat 0, seat 1 or observer;
games/boards.py, once per change for each kind): the page swaps it in, no request.
One renderer (games/boards.py over that partial) serves the first paint here, the
pushes and the replay, so the board looks the same everywhere and tests can read it
without a browser. Moves go back over the socket with the ply of the board shown.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.html import format_html
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import HttpResponseClientRedirect
from django_htmx.middleware import HtmxDetails

from accounts import players
from accounts.errors import ServiceError
from accounts.models import User

from . import boards, matches, observing, places, selectors, services, time_controls
from .models import Game, PrivateNote
from .rules import get_variant, variant_slugs
from .rules.ai import LEVELS as AI_LEVELS
from .templatetags.game_lines import move_words

#: slug -> the name the site shows, from each variant's metadata (league's forms read it too).
VARIANT_NAMES = {slug: get_variant(slug).display_name for slug in variant_slugs()}


class Request(HttpRequest):
    """A request as the middleware leaves it (django-htmx's typing recipe)."""

    htmx: HtmxDetails


class PlayerRequest(Request):
    """A request behind @login_required."""

    user: User


def _viewer(request: HttpRequest) -> User | None:
    return request.user if isinstance(request.user, User) else None


# -- lobby --------------------------------------------------------------------------


def _lobby_filter(request: Request) -> tuple[dict[str, str], list[str]]:
    """The lobby's filter from the query string (variant, pace), and what was ignored:
    a value the bar does not offer shows every game, with a word why, never an error."""
    wanted = {key: request.GET.get(key, "").strip() for key in ("variant", "pace")}
    ignored = []
    if wanted["variant"] and wanted["variant"] not in VARIANT_NAMES:
        wanted["variant"] = ""
        ignored.append("There is no such variant: showing every variant.")
    if wanted["pace"] and wanted["pace"] not in time_controls.PACES:
        wanted["pace"] = ""
        ignored.append("There is no such time control: showing every time control.")
    return wanted, ignored


def _lobby_context(request: Request, **extra: Any) -> dict[str, Any]:
    wanted, ignored = _lobby_filter(request)
    viewer = _viewer(request)
    games = {kind: list(rows) for kind, rows in selectors.lobby_games(viewer, **wanted).items()}
    for game in games["finished"]:
        game.result_text = selectors.finished_result_text(game)  # type: ignore[attr-defined]
    for rows in games.values():
        for game in rows:
            game.variant_name = VARIANT_NAMES.get(game.variant, game.variant)  # type: ignore[attr-defined]
            game.time_control = time_controls.label_of(game.rule_set)  # type: ignore[attr-defined]
    # games["to_you"]: challenges to the viewer, at the top of the page whatever the
    # filter (on a phone the open list sits below the new-game form, 1,400 px down).
    rule_sets = list(selectors.current_rule_sets())
    for rule_set in rule_sets:
        rule_set.time_control = time_controls.label_of(rule_set)  # type: ignore[attr-defined]
    standard = {rs.variant: rs for rs in rule_sets if rs.is_standard}
    context: dict[str, Any] = {
        "games": games,
        "online": players.online_players(viewer=viewer),
        # Each variant with its standard clock (the variant's default until its set exists).
        "variants": [
            (slug, VARIANT_NAMES.get(slug, slug),
             time_controls.label_of(standard[slug] if slug in standard else _default_clock(slug)))
            for slug in variant_slugs()
        ],
        "paces": list(time_controls.PACES.items()),
        "pace_help": time_controls.PACE_HELP,
        "filter": wanted,
        "filter_query": urlencode({key: value for key, value in wanted.items() if value}),
        "filter_ignored": ignored,
        "ai_levels": list(AI_LEVELS),
        # No clock is not no limit: a game idle this long ends (the game page says the same).
        "idle_words": time_controls.duration_words(time_controls.idle_seconds()),
        # House rules only: the standard sets are "The variant's standard rules".
        "rule_sets": [rule_set for rule_set in rule_sets if not rule_set.is_standard],
        "form": {
            "variant": "classic", "rule_set": "", "opponent": "open", "username": "", "ai_level": "casual", "seat": "0",
            "rated": "", "ai_clock": "none",
        },
        "error": None,
    }
    context.update(extra)
    return context


def _default_clock(slug: str) -> Any:
    engine = get_variant(slug)
    return SimpleNamespace(seconds_per_move=engine.default_seconds_per_move,
                           seconds_per_game=engine.default_seconds_per_game)


@require_GET
def lobby(request: Request) -> HttpResponse:
    context = _lobby_context(request)
    if request.htmx and (request.GET.get("part") == "lists" or request.htmx.target == "lobby-lists"):
        # The lists refresh themselves every few seconds, and the filter bar asks for
        # them: only they are sent.
        return render(request, "games/lobby.html#lists", context)
    if request.htmx and request.GET.get("part") == "to-you":
        return render(request, "games/lobby.html#to-you", context)
    return render(request, "games/lobby.html", context)


@login_required
@require_POST
def create(request: PlayerRequest) -> HttpResponse:
    form = {
        key: request.POST.get(key, "").strip()
        for key in ("variant", "rule_set", "opponent", "username", "ai_level", "ai_clock", "seat", "rated")
    }
    try:
        kwargs: dict[str, Any] = {"creator": request.user}
        if form["rule_set"]:
            # Not a number (a forged form) is no set, like an id that does not exist.
            wanted = form["rule_set"] if form["rule_set"].isdecimal() and len(form["rule_set"]) < 19 else None
            kwargs["rule_set"] = selectors.current_rule_sets().filter(pk=wanted).first() if wanted else None
            if kwargs["rule_set"] is None:
                raise ServiceError("no-such-rule-set", "That house-rule set does not exist any more.")
            chosen = kwargs["rule_set"].variant
            if form["variant"] and form["variant"] != chosen:
                # The page keeps the two in step (static/js/site.js); without script it says so.
                name = VARIANT_NAMES.get(chosen, chosen)
                raise ServiceError("variant-mismatch", f"That house-rule set is for {name}: choose {name} as the "
                                                       "variant too, or the variant's standard rules.")
        else:
            kwargs["variant"] = form["variant"] or "classic"
        if form["opponent"] == "user":
            kwargs["opponent"] = players.by_name_shown(form["username"])
        elif form["opponent"] == "ai":
            kwargs["ai_level"] = form["ai_level"]
            # Unhurried unless asked: a practice game, nobody waiting (docs/game-page.md, "Clocks").
            kwargs["untimed"] = form["ai_clock"] != "rules"
        elif form["opponent"] != "open":
            raise ServiceError("bad-opponent", "Choose a player, an open challenge or the computer.")
        if form["seat"] in ("0", "1"):
            kwargs["creator_seat"] = int(form["seat"])
        kwargs["rated"] = bool(form["rated"])  # a checkbox: sent ("on") or absent
        game = services.create_game(**kwargs)
    except ServiceError as err:
        context = _lobby_context(request, form=form, error=err.message)
        template = "games/lobby.html#create-form" if request.htmx else "games/lobby.html"
        return render(request, template, context, status=400 if not request.htmx else 200)
    return _go_to(request, game.pk)


@login_required
@require_POST
def accept(request: PlayerRequest, game_id: int) -> HttpResponse:
    try:
        services.accept_challenge(game_id=game_id, user=request.user)
    except Game.DoesNotExist as exc:
        raise Http404("There is no such game.") from exc
    except ServiceError as err:
        if request.htmx:
            return HttpResponse(format_html('<p class="error" role="alert">{}</p>', err.message))
        return render(request, "games/lobby.html", _lobby_context(request, error=err.message), status=400)
    return _go_to(request, game_id)


@login_required
@require_POST
def decline(request: PlayerRequest, game_id: int) -> HttpResponse:
    """Say no to a challenge made to you; back to the lobby."""
    return _game_action(request, game_id, services.decline_challenge, "Challenge declined.")


@login_required
@require_POST
def cancel(request: PlayerRequest, game_id: int) -> HttpResponse:
    """Call off your own challenge before anyone accepted it."""
    return _game_action(request, game_id, services.cancel_challenge, "Challenge cancelled.")


@login_required
@require_POST
def abort(request: PlayerRequest, game_id: int) -> HttpResponse:
    """Call off an accepted game nobody has moved in (either player; counted)."""
    return _game_action(request, game_id, services.abort, "Game aborted: nobody won, and nothing was rated.")


def _game_action(request: PlayerRequest, game_id: int, action: Any, done: str) -> HttpResponse:
    try:
        action(game_id=game_id, user=request.user)
    except ServiceError as err:
        if err.code == "no-such-game":
            raise Http404("There is no such game.") from err
        messages.error(request, err.message)
    else:
        messages.success(request, done)
    url = reverse("games:lobby")
    return HttpResponseClientRedirect(url) if request.htmx else redirect(url)


@login_required
@require_POST
def rematch(request: PlayerRequest, game_id: int) -> HttpResponse:
    """Ask for (or accept) the rematch of a finished game; to the new game."""
    try:
        new = services.rematch(game_id=game_id, user=request.user)
    except ServiceError as err:
        if err.code == "no-such-game":
            raise Http404("There is no such game.") from err
        messages.error(request, err.message)
        return redirect("games:game", game_id)
    return _go_to(request, new.pk)


def _go_to(request: Request, game_id: int) -> HttpResponse:
    url = reverse("games:game", args=[game_id])
    return HttpResponseClientRedirect(url) if request.htmx else redirect(url)


# -- the game page --------------------------------------------------------------------


def _load(game_id: int) -> Game:
    try:
        return selectors.load_game(game_id)
    except Game.DoesNotExist as exc:
        raise Http404("There is no such game.") from exc


def _refused(request: HttpRequest, game: Game, seat: int | None) -> HttpResponse | None:
    """A 403 page for a viewer without a seat whom a watch gate refuses (an observer
    ban or policy; docs/moderation.md), else None."""
    refusal = observing.view_refusal(game=game, user=request.user, seat=seat)
    if refusal is None:
        return None
    return render(request, "games/watch_refused.html", {"game_id": game.pk, "refusal": refusal}, status=403)


@require_GET
def game_page(request: Request, game_id: int) -> HttpResponse:
    game = _load(game_id)
    viewer = _viewer(request)
    seat = services.seat_of(game, viewer)
    if refused := _refused(request, game, seat):
        return refused
    payload = selectors.game_payload(game, seat)
    shared = boards.shared_parts(game)
    context = boards.board_context(game, payload, seat, shared=shared)
    # A tournament game says where it belongs at the top (games.places; read once with a finished game's board).
    context["game_place"] = shared.place if game.is_over else places.place_of(game)
    if seat is not None:
        # Only the author's own note is ever read into a page.
        note = PrivateNote.objects.filter(game=game, author=viewer).values_list("text", flat=True).first()
        context["note"] = note or ""
    is_open = game.status == Game.Status.OPEN and viewer is not None
    mine = viewer is not None and game.created_by_id == viewer.pk
    open_seat = any(s.user_id is None and not s.ai_level for s in game.seats_in_hand)
    # A challenge to one player: only they may accept or decline it; its maker cancels it.
    context["can_accept"] = is_open and not mine and (open_seat or seat is not None)
    context["can_decline"] = context["can_accept"] and not open_seat
    context["can_cancel"] = is_open and mine
    context["challenged"] = next((s.user.name for s in game.seats_in_hand if s.user and s.user_id != game.created_by_id), "")
    return render(request, "games/game.html", context)


@login_required
@require_POST
def note(request: PlayerRequest, game_id: int) -> HttpResponse:
    try:
        saved = services.save_note(game_id=game_id, user=request.user, text=request.POST.get("text", ""))
    except ServiceError as err:
        return render(
            request,
            "games/game.html#note-status",
            {"error": err.message},
            status=200 if request.htmx else 400,
        )
    return render(request, "games/game.html#note-status", {"saved_at": saved.updated_at})


# -- replay ----------------------------------------------------------------------------


@require_GET
def replay(request: Request, game_id: int) -> HttpResponse:
    """Step ``?step=n`` of a finished game, rebuilt with the engine from the public seed."""
    game = _load(game_id)
    seat = services.seat_of(game, _viewer(request))
    if refused := _refused(request, game, seat):
        return refused
    if not game.is_over:
        raise Http404("A game can be replayed once it is over (its seed is secret until then).")
    moves = list(game.moves.order_by("ply"))
    try:
        step = max(0, min(len(moves), int(request.GET.get("step", len(moves)))))
    except ValueError:
        step = len(moves)
    variant = get_variant(game.variant)
    state = variant.new_game(game.options, seed=game.seed)
    for move in moves[:step]:
        state = variant.apply(state, move.seat, move.move)
    payload = selectors.game_payload(game, None, moves=moves)
    final = step == len(moves)
    game_result = payload["result"]
    # The board as an observer saw it after ``step`` moves; the move list stays whole.
    payload = dict(
        payload,
        view=variant.view(state, None),
        to_move=list(state.to_move),
        ply=step,
        status=game.status if final else Game.Status.ACTIVE,
        result=payload["result"] if final else None,
    )
    shared = boards.shared_parts(game, live=False)
    context = boards.board_context(game, payload, None, live=False, shared=shared)
    context["rematch"] = shared.rematch.get(seat) if seat is not None else None  # the viewer's own offer
    context["game_result"] = game_result
    context.update(
        step=step,
        total=len(moves),
        current=moves[step - 1] if step else None,
        # Who made the step's move, as the move list says it ("Sam (X)"): "pick Shift" alone
        # did not say whose draft it was.
        mover=context["moves"][step - 1]["mover"] if step else "",
        # The head says the step's move in the move list's words, not the engine's notation.
        notation=(move_words(game.variant, payload["moves"][step - 1], payload["view"]) or "secret until the reveal")
        if step else "Start",
        steps={"first": 0, "prev": max(0, step - 1), "next": min(len(moves), step + 1), "last": len(moves)},
    )
    if request.htmx:
        return render(request, "games/replay.html#replay-step", context)
    return render(request, "games/replay.html", context)


@login_required
@require_POST
def match_version(request: PlayerRequest, match_id: int) -> HttpResponse:
    """The official T-Tic-T-Tac-Toe match: the classic game's winner picks the version."""
    try:
        game = matches.choose_match_version(
            match_id=match_id, user=request.user, version=request.POST.get("version", "")
        )
    except ServiceError as err:
        messages.error(request, err.message)
        return redirect("games:lobby")
    return redirect("games:game", game.pk)
