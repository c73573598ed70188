"""The game page's words, as a newcomer read them (the board walkthrough): Tactic-Toe's
board does not offer a square taken before the round, Nine-Square says who is X and why
and shows no die once the game is over, T-Tic-T-Tac-Toe's first hint names only what is
offered and explains the other letter in the list, a result names the players by name
and letter, and the fairness proof is folded away behind a plain question."""

from __future__ import annotations

import random
import re

from django.test import Client
from django.urls import reverse

from accounts.models import Notice
from accounts.notices import Kind
from games import services
from games.models import Game
from games.rules import get_variant
from games.rules.variants.tactic_toe import board as tactic_board
from tests.games.rules.test_t_tic_t_tac_toe import V as TTT
from tests.games.rules.test_t_tic_t_tac_toe import place, play
from tests.games.test_tttt_board_template import render as render_tttt
from tests.games.test_views import buttons, client_for, enabled, started
from tests.sockets import pushed_board


def page(game: Game, user=None) -> str:
    client = client_for(user) if user is not None else Client()
    return client.get(reverse("games:game", args=[game.pk])).content.decode()


def user_of(game: Game, seat: int):
    return game.seats.get(number=seat).user


def play_out(game: Game) -> Game:
    """Random legal moves for whoever is to move, until the game is over."""
    variant = get_variant(game.variant)
    rng = random.Random(7)
    while True:
        game = Game.objects.get(pk=game.pk)
        if game.status != Game.Status.ACTIVE:
            return game
        seat = game.to_move[0]
        move = variant.random_move(variant.load(game.state), seat, rng)
        services.submit_move(game_id=game.pk, user=user_of(game, seat), ply=game.ply, move=move)


# -- Tactic-Toe: a square taken before the round is not offered ---------------------------


def test_tactic_toe_does_not_offer_a_square_taken_before_the_round_but_the_engine_accepts_it():
    variant = get_variant("tactic-toe")
    state = variant.new_game()
    state = variant.apply(variant.apply(state, 0, {"plan": [1, 2, 4]}), 1, {"plan": [3, 6, 8]})
    view = variant.view(state, 0)
    assert view["round"] == 2 and view["board"][0] == "X" and view["board"][2] == "O"
    cells = {c["n"]: c for c in tactic_board.build_board(view, [], 0, True)["cells"]}
    for taken in (3, 6, 8):  # O's squares: not X's own round-1 numbers, so legal, but wasted
        assert not cells[taken]["legal"], taken
        assert cells[taken]["label"].endswith("already taken: a mark planned here would be lost")
    assert cells[1]["label"].endswith("not allowed this round")  # X's own round-1 number
    assert {n for n, c in cells.items() if c["legal"]} == {5, 7, 9}
    # The rules allow it (docs/rules/tactic-toe.md, round 2 and 3): the engine keeps accepting it.
    after = variant.apply(state, 0, {"plan": [3, 5, 7]})
    assert after.to_move == (1,)


def test_tactic_toe_page_says_why_taken_squares_are_not_offered(alice, bob):
    game = started("tactic-toe", alice, bob)
    x, o = user_of(game, 0), user_of(game, 1)
    services.submit_move(game_id=game.pk, user=x, ply=0, move={"plan": [1, 2, 4]})
    services.submit_move(game_id=game.pk, user=o, ply=1, move={"plan": [3, 6, 8]})
    html = pushed_board(game.pk, x)
    assert 'id="plan-taken-note"' in html and "its mark would be lost" in html
    squares = buttons(html)
    assert not enabled(squares["sq-3"]) and enabled(squares["sq-5"])
    # Before anything is taken (round 1) there is nothing to warn about.
    fresh = started("tactic-toe", alice, bob)
    assert 'id="plan-taken-note"' not in pushed_board(fresh.pk, user_of(fresh, 0))


# -- Nine-Square: who is X, the die, the rematch -------------------------------------------


def test_nine_square_says_who_rolled_what_and_so_who_is_x(alice, bob):
    game = started("nine-square", alice, bob)
    view = get_variant("nine-square").view(get_variant("nine-square").load(game.state), None)
    rolls, x_seat = view["setup_rolls"][-1], view["x_seat"]
    names = [user_of(game, s).name for s in (0, 1)]
    html = pushed_board(game.pk)
    opening = re.search(r'<p class="muted small" id="nine-opening">(.*?)</p>', html, re.S)
    assert opening is not None
    words = " ".join(opening.group(1).split())
    assert words.startswith(f"Opening roll: {names[0]} {rolls[0]}, {names[1]} {rolls[1]}")
    assert words.endswith(f"{names[x_seat]} rolled higher, so plays X and moves first.")
    assert max(rolls) == rolls[x_seat] and rolls[0] != rolls[1]


def test_nine_square_asks_for_one_square_in_the_singular(alice, bob):
    for _ in range(40):  # a die of 1 for the first mover comes within a few games
        game = started("nine-square", alice, bob)
        state = get_variant("nine-square").load(game.state)
        if state.roll == 1:  # type: ignore[attr-defined]
            break
    else:
        raise AssertionError("no first roll of 1 in 40 games")
    html = pushed_board(game.pk, user_of(game, game.to_move[0]))
    assert "Pick exactly <strong>1</strong> empty square, then submit." in html
    assert "empty squares" not in html


def test_a_finished_nine_square_shows_no_die_and_its_rematch_tells_the_roll_decides_again(alice, bob):
    game = play_out(started("nine-square", alice, bob))
    assert game.status == Game.Status.FINISHED
    html = page(game, alice)
    assert 'class="die"' not in html and "Roll of the turn in progress" not in html
    assert 'id="nine-opening"' in html  # who was X stays said
    assert "the opening roll decides again who is X and moves first" in html
    assert "the other player moves first" not in html
    # A game without the roll keeps the plain rule: swapped seats, the other moves first
    # (every variant's words: tests/games/test_rematch_words.py).
    classic = started("classic", alice, bob)
    services.resign(game_id=classic.pk, user=bob)
    assert f"seats swapped: {bob.name} plays X and moves first" in page(classic, alice)


# -- T-Tic-T-Tac-Toe: the first hint, and the other letter in the list ------------------------


def test_tttt_first_move_hint_names_only_placing_a_letter_and_explains_the_other_letter():
    new = TTT.new_game(seed=1)
    first = render_tttt(new, new.to_move[0])
    hint = re.search(r'id="ttt-hint"[^>]*>([^<]*)<', first)
    assert hint is not None and hint.group(1) == "Click an empty square to place your letter."
    assert 'data-place="Click an empty square to place your letter."' in first
    # Named as the page names it (the Action list), not "the list of moves": the Moves record.
    assert 'id="ttt-bwah"' in first and "The Action list under the board also offers O on a square" in first
    assert "place your opponent&#x27;s letter" in first or "place your opponent's letter" in first
    # Later, with the specials in reach, the hint names them as well.
    later_state = play(new, place(7), place(13))
    later = render_tttt(later_state, later_state.to_move[0])
    hint = re.search(r'id="ttt-hint"[^>]*>([^<]*)<', later)
    assert hint is not None and hint.group(1).endswith(", or choose another action above.")
    # With bwahs off (a house rule) there is no other letter to explain.
    no_bwahs = TTT.new_game({"bwahs": False}, seed=1)
    assert 'id="ttt-bwah"' not in render_tttt(no_bwahs, no_bwahs.to_move[0])


# -- results name the player and the letter ------------------------------------------------


def test_a_game_over_notice_names_the_winner_and_the_letter_not_the_seat(make_player):
    ann, bob = make_player(username="ann"), make_player(username="bob")
    game = services.create_game(creator=ann, variant="classic", opponent=bob, creator_seat=0)
    services.accept_challenge(game_id=game.pk, user=bob)
    for ply, (user, cell) in enumerate([(ann, 1), (bob, 4), (ann, 2), (bob, 5), (ann, 3)]):
        services.submit_move(game_id=game.pk, user=user, ply=ply, move={"cell": cell})
    ended = {n.recipient_id: n.message for n in Notice.objects.filter(kind=Kind.GAME_ENDED)}
    assert ended[bob.pk] == f"{ann.name} beat you at Classic Tic Tac Toe. {ann.name} (X) has three in a row."
    assert ended[ann.pk] == f"You beat {bob.name} at Classic Tic Tac Toe. {ann.name} (X) has three in a row."
    assert "Player One" not in ended[ann.pk] + ended[bob.pk]


def test_an_engine_reason_naming_a_seat_reads_name_and_letter_once():
    from games.rules.results import rules_reason

    view = {"letters": ["X", "O"]}
    said = rules_reason(view, {"reason": "Player Two (O) has nowhere left to write an O."}, ["Ann", "Bob"])
    assert said == "Bob (O) has nowhere left to write an O."
    assert rules_reason(view, {"reason": "Player One has three in a row."}, None) == (
        "Player One (X) has three in a row.")


# -- the fairness proof, folded away ----------------------------------------------------------


def test_the_fairness_proof_is_behind_a_plain_question(alice, bob):
    game = started("tactic-toe", alice, bob)
    services.submit_move(game_id=game.pk, user=user_of(game, 0), ply=0, move={"plan": [1, 3, 8]})
    html = page(game, alice)
    proof = html.split('<details class="fairness small" id="fairness">')[1].split("</details>")[0]
    assert "<summary>How do we know the game was fair?</summary>" in proof
    assert "Seed hash" in proof and game.seed_hash in proof
    assert game.moves.get().commitment[:10] in proof and "key shown at the reveal" in proof
    outside = html.replace(proof, "")
    for jargon in ("Seed hash", "commitment", "nonce", game.seed_hash):
        assert jargon not in outside, jargon


# -- Whose turn, to a watcher: both names when both plan ---------------------------------


def test_a_watcher_reads_both_names_joined_when_both_players_plan(alice, bob, carol):
    """A watcher of a Tactic-Toe game read "Waiting for Lucía Kofi to move." (both seats
    plan at once: the names ran together)."""
    game = started("tactic-toe", alice, bob)
    x, o = user_of(game, 0), user_of(game, 1)
    status = re.compile(r'<p id="turn-status"[^>]*>(.*?)</p>', re.S)

    def said(html: str) -> str:
        found = status.search(html)
        assert found is not None
        return " ".join(found.group(1).split())

    assert said(page(game, carol)) == f"Waiting for {x.name} and {o.name} to move."
    services.submit_move(game_id=game.pk, user=x, ply=0, move={"plan": [1, 2, 4]})
    assert said(page(game, carol)) == f"Waiting for {o.name} to move."


def test_the_move_list_says_it_is_another_way_to_play_not_an_action_count(alice, bob):
    """'Action (33 legal)' above 'swap 6<>9' told a newcomer nothing (newcomer probe):
    the list is the keyboard's and the unsure player's way to the same moves as the board."""
    game = started("tic-tac-two", alice, bob)
    html = pushed_board(game.pk, user_of(game, game.to_move[0]))
    label = re.search(r'<label for="action-select">(.*?)</label>', html)
    assert label is not None and re.fullmatch(r"Or pick your move from the list \(\d+ legal\)", label.group(1))
