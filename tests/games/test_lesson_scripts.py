"""Every lesson's script replayed through the engine alone (pure: no database): the
set-up is legal, each step's move is legal (and, where a step takes one exact move, it is
the very move the board or the action list sends), each scripted reply is legal, and
the last step is reached."""

from __future__ import annotations

import re

import pytest

from games.lessons import LESSONS, get_lesson, next_lesson, same_move
from games.rules import get_variant


def _new_state(lesson):
    variant = get_variant(lesson.variant)
    state = variant.new_game(lesson.options, seed=lesson.seed or "lesson-test")
    for seat, move in lesson.setup:
        state = variant.apply(state, seat, move)
    return variant, state


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.slug)
def test_the_script_plays_to_its_end(lesson):
    variant, state = _new_state(lesson)
    coach_moves = list(lesson.coach_moves)
    for number, step in enumerate(lesson.steps, 1):
        # The coach moves whenever it is to move (as the platform's AI seat does).
        while lesson.coach_seat in state.to_move and lesson.learner_seat not in state.to_move:
            state = variant.apply(state, lesson.coach_seat, coach_moves.pop(0))
        assert lesson.learner_seat in state.to_move, f"step {number}: the learner is not to move"
        assert step.takes(step.move), f"step {number} refuses its own move"
        if step.accepts is None and not variant.huge_move_space:
            legal = variant.legal_moves(state, lesson.learner_seat)
            assert any(same_move(step.move, m) for m in legal), f"step {number}: {step.move} is not a listed move"
        state = variant.apply(state, lesson.learner_seat, step.move)
        # Simultaneous plans: the coach's plan may come second.
        while coach_moves and lesson.coach_seat in state.to_move and lesson.learner_seat not in state.to_move:
            state = variant.apply(state, lesson.coach_seat, coach_moves.pop(0))
    assert coach_moves == [], "scripted replies left over"


#: A quoted name the text gives as an entry of the action list: one in curly quotes
#: followed by "in the action list", as in: choose “pick Double” in the action list.
_LIST_ENTRY = re.compile("\u201c([^\u201d]*)\u201d(?= in the action list)")


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.slug)
def test_every_action_list_entry_a_step_names_is_one_the_list_offers(lesson):
    """docs/lessons.md: the instructions name an action as the action list labels it. The
    list labels each legal move with the variant's ``describe_move`` (games/boards.py
    ``_legal_for``), so every quoted entry must be the label of a move the list offers at
    that step, and the label of the step's own move; a step that sends the learner to the
    action list must quote its entry."""
    from games.boards import MAX_LISTED_MOVES

    variant, state = _new_state(lesson)
    coach_moves = list(lesson.coach_moves)
    for number, step in enumerate(lesson.steps, 1):
        while lesson.coach_seat in state.to_move and lesson.learner_seat not in state.to_move:
            state = variant.apply(state, lesson.coach_seat, coach_moves.pop(0))
        named = 0
        for field, text in (("instruction", step.instruction), ("hint", step.hint)):
            quoted = _LIST_ENTRY.findall(text)
            if "action list" in text:
                assert quoted, f"step {number}'s {field} sends the learner to the action list without naming the entry"
            if not quoted:
                continue
            assert variant.offers_move_list, f"step {number}: {lesson.variant} shows no action list"
            legal = variant.legal_moves(state, lesson.learner_seat)
            assert len(legal) <= MAX_LISTED_MOVES and not any("choose" in m for m in legal), (
                f"step {number}: the action list is not shown here"
            )
            labels = {variant.describe_move(m) for m in legal}
            for label in quoted:
                assert label in labels, f"step {number}'s {field}: the action list has no \u201c{label}\u201d"
                assert label == variant.describe_move(step.move), (
                    f"step {number}'s {field} names \u201c{label}\u201d, not the step's own move"
                )
                named += 1
        special = step.move.get("action", step.move.get("type")) not in ("place", "write")
        if variant.offers_move_list and special:  # a special action: its entry is named
            assert named, f"step {number} names no action list entry for {step.move}"
        state = variant.apply(state, lesson.learner_seat, step.move)
        while coach_moves and lesson.coach_seat in state.to_move and lesson.learner_seat not in state.to_move:
            state = variant.apply(state, lesson.coach_seat, coach_moves.pop(0))


@pytest.mark.parametrize("slug", [
    "classic", "tactic-toe", "t-tic-t-tac-toe", "tic-tac-two", "tic-tac-two-dibs-intersect-shift", "tic-tac-two-wall"
])
def test_these_lessons_end_the_game_with_the_learners_win(slug):
    lesson = get_lesson(slug)
    variant, state = _new_state(lesson)
    for seat, move in _script_in_order(lesson, variant, state):
        state = variant.apply(state, seat, move)
    outcome = variant.outcome(state)
    assert outcome is not None and outcome.winner == lesson.learner_seat


def test_nine_square_scores_three_lines_and_the_three_boards_bonus():
    lesson = get_lesson("nine-square")
    variant, state = _new_state(lesson)
    assert state.roll == 3  # the fixed seed: the learner's first roll
    for seat, move in _script_in_order(lesson, variant, state):
        state = variant.apply(state, seat, move)
    view = variant.view(state, 0)
    assert view["points"]["lines"][0] == 3 and view["points"]["bonus"][0] == 3


def _script_in_order(lesson, variant, state):
    """(seat, move) for the whole script from ``state``: a replay of the test above."""
    played = []
    coach_moves = list(lesson.coach_moves)
    for step in lesson.steps:
        while lesson.coach_seat in state.to_move and lesson.learner_seat not in state.to_move:
            move = coach_moves.pop(0)
            state = variant.apply(state, lesson.coach_seat, move)
            played.append((lesson.coach_seat, move))
        state = variant.apply(state, lesson.learner_seat, step.move)
        played.append((lesson.learner_seat, step.move))
        while coach_moves and lesson.coach_seat in state.to_move and lesson.learner_seat not in state.to_move:
            move = coach_moves.pop(0)
            state = variant.apply(state, lesson.coach_seat, move)
            played.append((lesson.coach_seat, move))
    return played


def test_a_step_with_a_check_takes_any_move_that_does_it():
    step = get_lesson("nine-square").steps[0]
    assert step.takes({"marks": [[2, 7], [2, 5], [2, 3]]})  # another line on board 2, in any order
    assert not step.takes({"marks": [[2, 1], [2, 2], [2, 4]]})  # not a line
    assert not step.takes({"marks": [[1, 4], [1, 5], [1, 6]]})  # a line on the wrong board
    assert not step.takes({"nonsense": True})


def test_an_exact_step_takes_its_move_in_any_key_order_only():
    step = get_lesson("classic").steps[0]
    assert step.takes({"cell": 5}) and not step.takes({"cell": 4})


def test_every_variant_has_a_lesson_and_they_follow_one_another():
    assert {lesson.variant for lesson in LESSONS} == {
        "classic", "tactic-toe", "nine-square", "t-tic-t-tac-toe", "tic-tac-two"
    }
    assert next_lesson(LESSONS[0].slug, set()) is LESSONS[1]
    assert all(1 <= len(lesson.steps) <= 10 for lesson in LESSONS)
    # "Next lesson: <title>" tells them apart, Tic Tac Two's three lessons too.
    assert len({lesson.title for lesson in LESSONS}) == len(LESSONS)


def test_the_t_tic_t_tac_toe_lessons_last_step_names_every_other_win_it_has():
    """The walkthrough's find: the last step said 21 was the way to win, and refused 11,
    which wins too. The step keeps 21 (the lesson is about a line round a wall's end) and
    names every other winning square, as the engine finds them."""
    lesson = get_lesson("t-tic-t-tac-toe")
    variant, state = _new_state(lesson)
    coach_moves = list(lesson.coach_moves)
    for step in lesson.steps[:-1]:
        state = variant.apply(state, lesson.learner_seat, step.move)
        while coach_moves and lesson.coach_seat in state.to_move:
            state = variant.apply(state, lesson.coach_seat, coach_moves.pop(0))
    wins = []
    for square in range(1, 26):
        move = {"action": "place", "square": square}
        if any(same_move(move, m) for m in variant.legal_moves(state, lesson.learner_seat)):
            outcome = variant.outcome(variant.apply(state, lesson.learner_seat, move))
            if outcome is not None and outcome.winner == lesson.learner_seat:
                wins.append(square)
    last = lesson.steps[-1]
    assert last.move["square"] in wins
    others = [square for square in wins if square != last.move["square"]]
    assert others, "the step would need no note"
    listed = ", ".join(str(s) for s in others[:-1]) + f" and {others[-1]}"
    assert f"({listed} would each make three in a row too)" in last.instruction


def test_the_next_lesson_is_the_first_not_finished_after_this_one_going_round():
    """The walkthrough's find: "Next lesson" offered the next lesson in the page's order
    even when the player had finished it."""
    slugs = [lesson.slug for lesson in LESSONS]
    first, second, third, *_, last = slugs
    assert next_lesson(first, set()).slug == second
    assert next_lesson(first, {first, second}).slug == third
    # After the last lesson it goes round to the first not finished.
    assert next_lesson(last, {last}).slug == first
    assert next_lesson(last, {first, last}).slug == second
    # Finished or not, the lesson just played is never offered again.
    assert next_lesson(second, set(slugs) - {second}) is None
    assert next_lesson(second, set(slugs)) is None
