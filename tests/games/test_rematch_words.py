"""The rematch box says what the swapped seats change, variant by variant, and the
rematch then plays that way: who plays which letter and who moves first; in Tactic-Toe
and rock-paper-scissors both choose at once, so nobody moves first; in Tic Tac Two O
drafts first and X writes first; in Nine-Square the opening roll decides again
(games.boards.rematch_swap_words)."""

from __future__ import annotations

import html
import random

import pytest

from games import boards, services, sql
from games.models import Game
from games.rules import get_variant
from games.rules.results import letter_of
from tests.factories import GameFactory
from tests.games.test_game_page_words import page

BOTH = "you both still choose each move at once"
DRAFT = "O picks the first special action"

#: variant, options, what the box tells Alice (seat 0 of the finished game) and Bob,
#: then what the rematch does for Alice: her letter and who moves first there.
CASES = [
    ("classic", {}, "seats swapped: {bob} plays X and moves first", "seats swapped: you play X and move first",
     "O", "bob"),
    ("classic", {"first": "O"}, "seats swapped: you play O and move first",
     "seats swapped: {alice} plays O and moves first", "O", "alice"),
    ("classic", {"symbols": ["O", "X"]}, "seats swapped: you play X and move first",
     "seats swapped: {alice} plays X and moves first", "X", "alice"),
    ("t-tic-t-tac-toe", {}, "seats swapped: {bob} plays X and moves first",
     "seats swapped: you play X and move first", "O", "bob"),
    ("tic-tac-two", {}, f"seats swapped: you play O and {{bob}} plays X; {DRAFT} and X writes the first letter",
     f"seats swapped: you play X and {{alice}} plays O; {DRAFT} and X writes the first letter", "O", "draft"),
    ("tic-tac-two", {"void": True},
     f"seats swapped: you play O and {{bob}} plays X; {DRAFT}, X places the first Void and writes the first letter",
     f"seats swapped: you play X and {{alice}} plays O; {DRAFT}, X places the first Void and writes the first letter",
     "O", "draft"),
    ("tactic-toe", {}, f"seats swapped: you play O and {{bob}} plays X; {BOTH}, so nobody moves first",
     f"seats swapped: you play X and {{alice}} plays O; {BOTH}, so nobody moves first", "O", "both"),
    ("rock-paper-scissors", {}, f"seats swapped, which changes nothing here: {BOTH}",
     f"seats swapped, which changes nothing here: {BOTH}", "", "both"),
    ("nine-square", {"x_player": "player-two"}, "seats swapped: you play X and move first",
     "seats swapped: {alice} plays X and moves first", "X", "alice"),
    ("nine-square", {}, "seats swapped; the opening roll decides again who is X and moves first",
     "seats swapped; the opening roll decides again who is X and moves first", None, "roll"),
]


@pytest.mark.parametrize(("variant", "options", "to_alice", "to_bob", "her_letter", "first"), CASES,
                         ids=[f"{c[0]}-{n}" for n, c in enumerate(CASES)])
def test_the_rematch_box_says_what_the_swapped_game_does(alice, bob, variant, options, to_alice, to_bob,
                                                         her_letter, first):
    game = GameFactory.create(creator=alice, opponent=bob, variant=variant, options=options, resigned_by=bob)
    game = sql.game(game.pk)
    assert game is not None and game.seats.get(number=0).user == alice
    names = {"alice": alice.name, "bob": bob.name}
    words = {s: offer["first"] for s, offer in boards.rematch_offers(game).items()}
    assert words == {0: to_alice.format(**names), 1: to_bob.format(**names)}
    assert f"Same rules against {bob.name}, {html.escape(words[0])}." in page(game, alice)

    # The swapped game plays as the box said.
    services.rematch(game_id=game.pk, user=alice)
    new = services.rematch(game_id=game.pk, user=bob)  # the second ask accepts the first's
    new = Game.objects.get(pk=new.pk)
    assert new.status == Game.Status.ACTIVE and new.seats.get(number=1).user == alice
    engine = get_variant(variant)
    state = engine.load(new.state)
    if first == "roll":
        assert engine.letters_by_chance(new.options)
        return
    assert letter_of(engine.view(state, None), 1) == her_letter
    if first == "draft":
        # Tic Tac Two: O (Alice now) picks first; X (Bob) places the first Void, if any,
        # and writes the first letter.
        assert state.to_move == (1,)
        firsts: dict[str, int] = {}
        rng = random.Random(3)
        while "write" not in firsts:
            seat = state.to_move[0]
            move = engine.random_move(state, seat, rng)
            firsts.setdefault(move["type"], seat)
            state = engine.apply(state, seat, move)
        assert firsts["pick"] == 1 and firsts["write"] == 0 and firsts.get("void", 0) == 0
        assert ("void" in firsts) is bool(options.get("void"))
        return
    expected = {"alice": (1,), "bob": (0,), "both": (0, 1)}[first]
    assert tuple(sorted(state.to_move)) == expected
    if first == "both":
        # Either may choose first: the other is still asked afterwards (nobody moves first).
        after = engine.apply(state, 1, engine.random_move(state, 1, random.Random(1)))
        assert after.to_move == (0,)
