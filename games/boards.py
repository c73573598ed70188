"""The game board as HTML: the ``board`` partial of ``templates/games/game.html``, the
one renderer of the first paint (games/views.py), every live push over the game socket
(``update_message_for``, the consumer's ``state`` frames) and the replay's steps.

A board is rendered for a viewer kind (seat 0, seat 1 or an observer), never for a
request: nothing in it depends on who asked beyond their seat, so one render per kind
serves every socket of that kind. Its forms carry no CSRF token when pushed (there is
no request): static/js/game.js fills it in from the page's own (docs/game-page.md).
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.template import engines
from django.template.loader import render_to_string
from django.utils import timezone

from . import lesson_pages, places, selectors, services, sql, time_controls
from .models import Game, Move
from .rules import get_variant
from .rules.results import letter_of

#: A legal-move list longer than this is not offered as a list (the board's own picker is).
MAX_LISTED_MOVES = 250

#: The viewer kinds a change is rendered for, once each.
VIEWERS: tuple[int | None, ...] = (0, 1, None)


def _legal_for(game: Game, seat: int | None) -> list[dict[str, Any]]:
    """The seat's legal moves now, each with its notation and its JSON (for buttons)."""
    if seat is None or game.status != Game.Status.ACTIVE or seat not in game.to_move:
        return []
    variant = get_variant(game.variant)
    moves = variant.legal_moves(variant.load(game.state), seat)
    if len(moves) > MAX_LISTED_MOVES or any("choose" in move for move in moves):
        return []  # too many to list: the variant's board picker builds the move
    return [
        {"move": m, "label": variant.describe_move(m), "json": json.dumps(m), "kind": _kind(m)} for m in moves
    ]


def _kind(move: dict[str, Any]) -> str:
    return str(move.get("action") or move.get("type") or next(iter(move), "move"))


_SEAT_WORDS = ("Player One", "Player Two")


def _say_roles(game: Game, payload: dict[str, Any], variant: Any, seats: list[dict[str, Any]]) -> None:
    """Each seat's ``role`` in words ("Player One · X"). On an open challenge what chance
    decides at the start is not shown, since it is drawn then (games/starting.py,
    ``draw_at_start``): who is Player One under a coin or seed decider, and a letter a
    set-up roll gives."""
    waiting = payload["status"] == Game.Status.OPEN
    seat_drawn = waiting and game.player_one_by_chance
    letter_drawn = waiting and variant.letters_by_chance(game.options)
    for s in seats:
        if seat_drawn:  # the letter goes with the seat, not yet drawn
            s["letter"], s["role"] = "", "Player One or Two, drawn at the start"
        elif letter_drawn:
            s["letter"], s["role"] = "", f"{_SEAT_WORDS[s['seat']]} · X or O, rolled for at the start"
        else:
            s["role"] = _SEAT_WORDS[s["seat"]] + (f" · {s['letter']}" if s["letter"] else "")


def board_context(
    game: Game, payload: dict[str, Any], seat: int | None, *, live: bool = True, shared: Shared | None = None
) -> dict[str, Any]:
    """Everything the ``board`` partial needs, for a live viewer or a replay step;
    ``shared``: what every viewer's board of this game shares (``shared_parts``)."""
    shared = shared or Shared()
    legal = _legal_for(game, seat) if live else []
    view = payload["view"]
    my_turn = (
        live and seat is not None and payload["status"] == Game.Status.ACTIVE and seat in payload["to_move"]
    )
    variant = get_variant(payload["variant"])
    match = payload["match"]
    seats = [dict(s, letter=letter_of(view, s["seat"]), clock=None if game.lesson else _clock(s, payload))
             for s in payload["seats"]]
    _say_roles(game, payload, variant, seats)
    # Before the first move the clock shows the no-show grace, which may be longer
    # than the time control (or, with no clock, be the only clock face): the page says
    # why. The first step is the clocks' own (Game.on_first_step): both plans of a
    # simultaneous one, not ply 0 alone. A lesson waits for its learner: no words.
    first_step = live and payload["status"] == Game.Status.ACTIVE and game.on_first_step and not game.lesson
    for s in seats:  # a running face then counts that grace: labelled "first move within"
        s["counts_first_move"] = bool(first_step and s["clock"] and s["clock"]["running"])
    return {
        "game": game,
        "payload": payload,
        "view": view,
        "seat": seat,
        "my_turn": my_turn,
        "live": live,
        "legal": legal,
        "legal_groups": _group(legal),
        "action_list": variant.offers_move_list,
        # The variant's package builds the board's context; its metadata names the template.
        "board": variant.build_board(view, legal, seat, my_turn),
        "template": variant.board_template,
        "board_script": variant.board_script,
        "variant_name": variant.display_name,
        # A lesson is learnt at the learner's pace: no clock face, no idle warning.
        "seats": seats,
        # Each move with who made it, in words: worked out here once rather than by a
        # loop over the seats for every move in the template.
        "moves": _moves_with_movers(payload["moves"], seats),
        # Whether the fairness proof has secret moves' fingerprints to list.
        "secret_moves": any(m.get("commitment") for m in payload["moves"]),
        "lesson_game": bool(game.lesson),
        "time_control": payload["rules"]["time_control"],
        "lesson": lesson_pages.panel_context(game, seat, payload["moves"]) if live and game.lesson else None,
        "idle_words": time_controls.duration_words(time_controls.idle_seconds()),
        # The computer is always at the board: the grace is not for it to arrive.
        "against_computer": any(s["ai_level"] for s in payload["seats"]),
        "first_move_words": time_controls.duration_words(game.rule_set.no_show_seconds) if first_step else "",
        "untimed": not (game.rule_set.seconds_per_move or game.rule_set.seconds_per_game),
        # The official match's version is chosen by its chooser's seat (by user: the
        # seats swap from game to game of a match).
        "chooses_version": bool(
            live and match and match["choose_version"] and seat is not None
            and _user_id(game, seat) == match["choose_version"]["chooser_id"]
        ),
        "open_words": _open_words(game, seat, seats) if payload["status"] == Game.Status.OPEN else "",
        "waiting_for": _waiting_for(payload, seats),
        "rematch": shared.rematch.get(seat) if seat is not None else None,
        "rating_note": shared.rating_note,
        # A tournament game's way back to its section once it is over (games.places).
        "place": shared.place,
        "abortable": shared.abortable,
        "aborts_allowed": services.ABORTS_ALLOWED[0],
    }


def _open_words(game: Game, seat: int | None, seats: list[dict[str, Any]]) -> str:
    """What an open challenge waits for, as this viewer's seat sees it."""
    maker = next((s.number for s in game.seats_in_hand if s.user_id == game.created_by_id), None)
    names = {s["seat"]: s["name"] for s in seats}
    if seat is not None and maker is not None and seat != maker:
        return f"{names.get(maker) or 'Your opponent'} is waiting for you to accept."
    if seat is not None and names.get(1 - seat):
        return f"Waiting for {names[1 - seat]} to accept."
    return "Waiting for an opponent to accept."


def _waiting_for(payload: dict[str, Any], seats: list[dict[str, Any]]) -> str:
    """Who the game waits for, for "Waiting for ... to move.": both names, joined by
    "and", when both seats are to move (Tactic-Toe's plans, a rock-paper-scissors throw);
    an observer read "Waiting for Lucía Kofi to move."."""
    names = [s["name"] or "the other player" for s in seats if s["seat"] in payload["to_move"]]
    return " and ".join(names) or "the other player"


def _moves_with_movers(moves: list[dict[str, Any]], seats: list[dict[str, Any]]) -> list[dict[str, Any]]:
    movers = {}
    for s in seats:
        name = s["name"] or "Open seat"
        movers[s["seat"]] = f"{name} ({s['letter']})" if s["letter"] else name
    return [dict(m, mover=movers.get(m["seat"], "")) for m in moves]


def _user_id(game: Game, seat: int) -> int | None:
    return next((s.user_id for s in game.seats_in_hand if s.number == seat), None)


def _clock(entry: dict[str, Any], payload: dict[str, Any]) -> dict[str, Any] | None:
    """What a seat's clock shows (static/js/game.js counts it down between frames): the
    time left and whether it runs; None where the rules have no clock for it."""
    per_move = payload["rules"]["seconds_per_move"]
    if entry["deadline"]:
        left = datetime.fromisoformat(entry["deadline"]) - timezone.now()
        ms, running = int(left.total_seconds() * 1000), True
    elif entry["clock_ms"] is not None:
        ms, running = entry["clock_ms"], False
    elif per_move and payload["status"] in (Game.Status.OPEN, Game.Status.ACTIVE):
        ms, running = per_move * 1000, False  # the whole allowance, waiting for its turn
    else:
        return None
    return {"ms": max(ms, 0), "text": time_controls.clock_text(ms), "running": running}


def _group(legal: list[dict[str, Any]]) -> list[tuple[str, list[dict[str, Any]]]]:
    groups: dict[str, list[dict[str, Any]]] = {}
    for item in legal:
        groups.setdefault(item["kind"], []).append(item)
    return list(groups.items())


@dataclass(frozen=True)
class Shared:
    """The parts of a game's boards that cost a query, read once for every viewer kind."""

    rematch: dict[int, dict[str, Any]] = field(default_factory=dict)  # rematch_offers
    rating_note: str = ""  # a finished game's rating line, rendered (a SafeString)
    abortable: bool = False  # accepted, nobody has moved, and its players may abort it
    place: places.Place | None = None  # a finished game's event, for "Back to <section>" (games.places)


#: league's tag, through the template engine: games imports nothing of league.
_RATING_NOTE = "{% load league_ratings %}{% game_rating_note game %}"


@functools.cache
def _rating_note_template() -> Any:
    """Compiled once a process (``from_string`` compiles at every call)."""
    return engines["django"].from_string(_RATING_NOTE)


def shared_parts(game: Game, *, live: bool = True) -> Shared:
    """What every viewer's board of ``game`` shares, as it stands now."""
    if not game.is_over:
        # Asked only before the first move (a tournament's gate is a query).
        return Shared(abortable=live and game.status == Game.Status.ACTIVE and game.ply == 0 and not game.lesson
                      and services.abort_refusal(game) is None)
    note = _rating_note_template().render({"game": game}) if live else ""
    return Shared(rematch=rematch_offers(game), rating_note=note, place=places.place_of(game) if live else None)


def rematch_offers(game: Game) -> dict[int, dict[str, Any]]:
    """What a finished game's board offers each seat's player about a rematch (by seat;
    none for an AI seat, and none at all where there can be no rematch), read once for
    both seats."""
    if game.status != Game.Status.FINISHED or game.match_id or services.gate_refusal("rematch", game) is not None:
        return {}
    offered = selectors.rematch_of(game)
    names = {s.number: selectors.seat_name(s) or "" for s in game.seats_in_hand}
    users = {s.number: s.user for s in game.seats_in_hand}
    return {
        seat.number: {
            "game": offered,
            "mine": offered is not None and offered.created_by_id == seat.user_id,
            "opponent": names.get(1 - seat.number, ""),
            "first": rematch_swap_words(game, seat.number, names.get(1 - seat.number, "")),
            # Only where they could not ask (no offer yet): a child's rematch is theirs to offer.
            "refused": None if offered is not None
            else services.rematch_reach_refusal(seat.user, users.get(1 - seat.number)),
        }
        for seat in game.seats_in_hand
        if seat.user_id is not None
    }


def rematch_swap_words(game: Game, seat: int, opponent: str) -> str:
    """What the rematch's swapped seats change for the player of ``seat`` (who sits in
    seat ``1 - seat`` then), read from the start of a game under the same rules, so the
    words follow the engine: who plays which letter and who moves first; where both
    choose at once (Tactic-Toe, rock-paper-scissors) nobody moves first; where a roll
    at the start decides (Nine-Square) it decides again; where the first mover is not
    simply the seat to move (Tic Tac Two's draft) the variant says who does what first."""
    variant = get_variant(game.variant)
    if variant.letters_by_chance(game.options):
        return "seats swapped; the opening roll decides again who is X and moves first"
    start = variant.new_game(options=game.options, seed="rematch")
    letters = [letter_of(variant.view(start, None), s) for s in (0, 1)]
    mine = 1 - seat
    if opening := variant.opening_words(game.options):
        return f"seats swapped: you play {letters[mine]} and {opponent} plays {letters[seat]}; {opening}"
    if len(start.to_move) > 1:
        if not letters[mine]:
            return "seats swapped, which changes nothing here: you both still choose each move at once"
        return (f"seats swapped: you play {letters[mine]} and {opponent} plays {letters[seat]}; "
                "you both still choose each move at once, so nobody moves first")
    first = start.to_move[0]
    who, plays, moves = ("you", "play", "move") if first == mine else (opponent, "plays", "moves")
    letter = f" {plays} {letters[first]} and" if letters[first] else ""
    return f"seats swapped: {who}{letter} {moves} first"


def render_board(context: dict[str, Any]) -> str:
    """The ``<div id="board">`` element, rendered without a request: its forms' CSRF
    tokens render as nothing (static/js/game.js adds the page's own)."""
    return render_to_string("games/game.html#board", context).strip()


def viewer_board(game: Game, seat: int | None) -> tuple[dict[str, Any], str]:
    """(the payload, the rendered board) of one viewer: a socket's ``state`` frame."""
    payload = selectors.game_payload(game, seat)
    return payload, render_board(board_context(game, payload, seat, shared=shared_parts(game)))


def board_frame(kind: str, payload: dict[str, Any], board: str) -> dict[str, Any]:
    """A ``state`` or ``update`` frame of a board-mode socket (docs/protocol.md)."""
    return {"type": kind, "ply": payload["ply"], "status": payload["status"], "board": board}


def update_message(game_id: int) -> dict[str, Any]:
    """The group message after a change, read back from the database."""
    game = selectors.load_game(game_id)
    return update_message_for(game, sql.moves(game_id))


def update_message_for(game: Game, moves: list[Move]) -> dict[str, Any]:
    """The group message after a change, from the game, its seats and its whole move
    log in hand: for each kind of viewer its JSON ``update`` frame and its board frame,
    encoded once here for every socket of the game; each socket forwards only its own
    viewer's, in its own mode (so a secret goes only to the seat that may see it), and
    the channel layer carries strings instead of nested payloads. Three renders of the
    board per change, whatever the number of sockets."""
    shared = shared_parts(game)
    frames, boards = {}, {}
    for viewer in VIEWERS:
        key = selectors.viewer_key(viewer)
        payload = selectors.game_payload(game, viewer, moves=moves)
        frames[key] = json.dumps({"type": "update", "ply": game.ply, "view": payload["view"], "game": payload})
        context = board_context(game, payload, viewer, shared=shared)
        boards[key] = json.dumps(board_frame("update", payload, render_board(context)))
    return {
        "type": "game.update",
        "ply": game.ply,
        "status": game.status,  # with the ply, what a socket has seen (games/resync.py)
        "frames": frames,
        "boards": boards,
        # Who sits where: an observer who has just accepted the open challenge takes its seat.
        "players": [seat.user.username for seat in game.seats_in_hand if seat.user is not None],
    }
