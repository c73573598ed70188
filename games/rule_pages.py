"""The rules pages: /rules/ (every rule set) and /rules/<slug>/ (one, written for players).

The text is in templates/rules/<slug>.html; this module only picks the page and draws its
diagrams. A diagram is a real position: a few moves played through the engine and drawn
by the variant's own board template, so a diagram can never show a rule the game does
not play.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe
from django.views.decorators.http import require_GET

from . import time_controls
from .lessons import LESSONS
from .rules import get_variant
from .rules.base import State, Variant
from .rules.registry import variant_slugs

#: The order of the index: the classic game, the four rule sets built on it, the decider.
PAGE_ORDER = ("classic", "t-tic-t-tac-toe", "tactic-toe", "tic-tac-two", "nine-square", "rock-paper-scissors")


@dataclass(frozen=True)
class Example:
    """A position for a diagram: the moves that reach it, and what it shows."""

    caption: str
    moves: tuple[tuple[int, Any], ...] = ()
    options: Mapping[str, Any] = field(default_factory=dict)
    seed: str = "rules"
    #: For a game whose moves depend on its dice: plays on from the state to the position.
    play: Callable[[Variant, State], State] | None = None


def _nine_square_position(variant: Variant, state: State) -> State:
    """Four turns of Nine-Square, each placing exactly the marks its die asks for:
    X fills boards 1 and 5 (lines there), O answers on boards 3 and 9."""
    wanted = {
        0: [(1, 1), (1, 2), (1, 3), (5, 5), (5, 1), (5, 9), (1, 5), (1, 9), (2, 5), (4, 5), (6, 5), (8, 5)],
        1: [(3, 1), (3, 5), (3, 9), (9, 3), (9, 5), (9, 7), (3, 2), (7, 7), (7, 8), (6, 1), (2, 2), (8, 8)],
    }
    for _turn in range(4):
        seat = state.to_move[0]
        count = variant.view(state, None)["marks_to_place"]
        marks, wanted[seat] = wanted[seat][:count], wanted[seat][count:]
        state = variant.apply(state, seat, {"marks": [list(m) for m in marks]})
    return state


def _drafted(picks: tuple[str, ...]) -> tuple[tuple[int, Any], ...]:
    """Tic Tac Two's draft: O (seat 1) picks first, then they alternate."""
    return tuple((1 - i % 2, {"type": "pick", "action": a}) for i, a in enumerate(picks))


_TTT_DRAFT = _drafted(("wall", "intersect", "dibs", "swap", "double", "shift"))

#: Each rule set's diagrams, in the order its page shows them.
EXAMPLES: dict[str, tuple[Example, ...]] = {
    "classic": (
        Example("X has three in a row across the top: Player One wins.",
                ((0, {"cell": 1}), (1, {"cell": 4}), (0, {"cell": 2}), (1, {"cell": 5}), (0, {"cell": 3}))),
        Example("A full grid with no three in a row: a draw.",
                tuple((i % 2, {"cell": c}) for i, c in enumerate((5, 1, 9, 3, 2, 8, 4, 6, 7)))),
    ),
    "t-tic-t-tac-toe": (
        Example("Version 1.0 starts with a Berlin Wall around the centre square.", ((0, {"action": "place", "square": 7}),),
                options={"version": "1.0"}),
        Example("O has put an Iron Curtain across the whole board (line h2) and X a Berlin Wall of two segments "
                "(between 3-8 and 4-9): no three in a row may cross them.",
                ((0, {"action": "place", "square": 7}), (1, {"action": "curtain", "line": "h2"}),
                 (0, {"action": "wall", "segments": ["3|8", "4|9"]}), (1, {"action": "place", "square": 13})),
                options={"version": "2.0"}),
    ),
    "tactic-toe": (
        Example("Round 1 revealed. X planned 2, 3, 7 and O planned 2, 7, 1: both wrote 2 first, so they bounce and "
                "2 stays empty; then X takes 3 and O takes 7; X's 7 comes too late, and O takes 1.",
                ((0, {"plan": [2, 3, 7]}), (1, {"plan": [2, 7, 1]}))),
    ),
    "tic-tac-two": (
        Example("After the draft: O placed a Wall on the right side of square 6, which blocks the second row; "
                "X used an Intersect Space on square 11, where both letters now stand.",
                _TTT_DRAFT + ((0, {"type": "write", "cell": 6}), (1, {"type": "write", "cell": 11}),
                              (0, {"type": "intersect", "cell": 11}), (0, {"type": "write", "cell": 11}),
                              (1, {"type": "wall", "cell": 6, "side": "right"}), (1, {"type": "write", "cell": 1}))),
    ),
    "nine-square": (
        Example("After four turns, X has 3 points (the top row and a diagonal on board 1, a diagonal on board 5) "
                "and O has 2 (a diagonal on board 3 and one on board 9).",
                options={"x_player": "player-one"}, seed="rules-nine", play=_nine_square_position),
    ),
    "rock-paper-scissors": (
        Example("Both threw rock (a tie, thrown again); then paper covered rock: Player One wins.",
                ((0, {"throw": "rock"}), (1, {"throw": "rock"}), (0, {"throw": "paper"}), (1, {"throw": "rock"}))),
    ),
}

# Every id (and the attributes that point at ids) in a diagram gets the diagram's prefix,
# so several boards on one page keep their ids unique.
_ID_ATTRIBUTES = re.compile(r'\b(id|for|aria-labelledby|aria-describedby|aria-controls)="([^"]*)"')


def diagrams(slug: str) -> list[dict[str, Any]]:
    """The page's diagrams: each a caption and its board, drawn by the variant's own board
    template from a position played through the engine; nothing on them can be played."""
    variant = get_variant(slug)
    drawn = []
    for number, example in enumerate(EXAMPLES.get(slug, ()), start=1):
        state = variant.new_game(example.options, seed=example.seed)
        for seat, move in example.moves:
            state = variant.apply(state, seat, move)
        if example.play:
            state = example.play(variant, state)
        view = variant.view(state, None)
        outcome = variant.outcome(state)
        context: dict[str, Any] = {
            "view": view,
            "board": variant.build_board(view, [], None, False),
            "payload": {"variant": slug, "status": "finished" if outcome else "active", "view": view},
            "seat": None,
            "my_turn": False,
            "live": False,
            "legal": [],
        }
        name = f"{slug}-diagram-{number}"
        board = _inert(render_to_string(variant.board_template, context), prefix=f"{name}-")
        drawn.append({"caption": example.caption, "board": board, "id": name})
    return drawn


def _inert(html: str, *, prefix: str) -> SafeString:
    """A diagram's board with its controls disabled (a picture of a position, not a game)
    and its ids prefixed."""
    html = re.sub(r"<button\b(?![^>]*\bdisabled\b)", "<button disabled", html)
    html = _ID_ATTRIBUTES.sub(lambda m: f'{m[1]}="{" ".join(prefix + v for v in m[2].split())}"', html)
    # The board templates' own markup, rendered from the engine's view: safe as on the game page.
    return mark_safe(html)


@require_GET
def index(request: HttpRequest) -> HttpResponse:
    """Every rule set, with its one-line summary."""
    slugs = [s for s in PAGE_ORDER if s in variant_slugs()]
    return render(request, "rules/index.html", {"variants": [get_variant(s) for s in slugs]})


@require_GET
def variant_page(request: HttpRequest, slug: str) -> HttpResponse:
    """One rule set's page, with its diagrams."""
    if slug not in variant_slugs():
        raise Http404("There is no rule set by that name.")
    variant = get_variant(slug)
    context = {
        "variant": variant,
        "slug": slug,
        "standard_rules": variant.describe_rules(variant.default_options()),
        "diagrams": diagrams(slug),
        "clock": _clock_words(variant),
        "lessons": [lesson for lesson in LESSONS if lesson.variant == slug],
    }
    return render(request, f"rules/{slug}.html", context)


def _clock_words(variant: Variant) -> str:
    """The standard clock in the platform's words (the lobby's and the game page's)."""
    return time_controls.label(variant.default_seconds_per_move, variant.default_seconds_per_game)
