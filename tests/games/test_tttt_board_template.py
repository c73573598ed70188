"""T-Tic-T-Tac-Toe's board template, rendered from build_board's context: the targets are
buttons carrying their move, a pending move is decided on the board, and nothing uses an
inline style (the site's CSP forbids them)."""

from __future__ import annotations

import json
import re

from django.template.loader import render_to_string

from tests.games.rules.test_t_tic_t_tac_toe import EMPTY, V, place, play, position
from tests.games.rules.test_t_tic_t_tac_toe_board import a_busy_position, built


def render(state, seat: int) -> str:
    context = {"board": built(state, seat), "view": V.view(state, seat), "live": True}
    return render_to_string("games/boards/t-tic-t-tac-toe.html", context)


def moves_in(html: str) -> list[dict]:
    """The moves of the buttons other than the squares (each square carries its placement)."""
    tags = [t for t in re.findall(r"<button[^>]*>", html) if 'class="square' not in t]
    return [
        json.loads(m.group(1).replace("&quot;", '"'))
        for t in tags
        if (m := re.search(r"data-move='([^']*)'", t))
    ]


def squares_offered(html: str) -> set[int]:
    tags = [t for t in re.findall(r"<button[^>]*>", html) if 'class="square' in t]
    return {int(n) for t in tags if "aria-disabled" not in t for n in re.findall(r'id="sq-(\d+)"', t)}


def test_every_legal_move_but_a_bwah_is_a_button_or_a_two_pick_wall_on_the_board():
    state = a_busy_position()
    html = render(state, 0)
    offered = moves_in(html)
    legal = V.legal_moves(state, 0)
    assert all(move in legal for move in offered)  # nothing illegal
    assert squares_offered(html) == {m["square"] for m in legal if m["action"] == "place" and "symbol" not in m}
    on_board = [m for m in legal if m["action"] != "place" and not (m["action"] == "wall" and "segments" in m)]
    assert all(move in offered for move in on_board)
    sides = {side for m in legal if m["action"] == "wall" for side in m.get("segments", [])}
    assert len(sides) == 35  # the curtain on h4 leaves no straight wall on its five sides
    assert set(re.findall(r'data-segment="([^"]+)"', html)) == sides
    assert 'style="' not in html
    assert 'id="tool-destroy"' in html and 'id="tool-curtain"' in html


def test_a_pending_move_offers_confirm_and_take_back_and_is_drawn():
    state = play(position(EMPTY, version="2.0", confirm_moves=True), {"action": "wall", "around": 7})
    html = render(state, 0)
    assert moves_in(html) == [{"action": "confirm"}, {"action": "take-back"}]
    assert "Pen still on the paper: <strong>Berlin Wall around square 7</strong>" in html
    assert 'class="ttt-pending-shape box x-1 y-1 w-1 h-1"' in html
    assert 'id="ttt-tools"' not in html and squares_offered(html) == set()
    watching = render(state, 1)
    assert "Waiting for it to be confirmed or taken back" in watching and moves_in(watching) == []


def test_the_waiting_player_sees_the_board_but_no_tools_or_targets():
    state = play(a_busy_position(), place(25))
    html = render(state, 0)
    assert 'id="ttt-tools"' not in html and "ttt-target" not in html
    assert "Move 11, X: place on square 25." in html
