"""Writes for guided lessons (docs/lessons.md): starting or resuming a player's lesson
game, and the coach that follows it (registered with games/services.py, which asks it
about every move of a lesson game). The scripts themselves are pure: games/lessons/.

A lesson game is a real game: the learner in their seat, the coach an AI seat, no
clock, unrated, marked by ``Game.lesson`` and listed nowhere. Where the learner is in
the script is read from the game's own moves (the learner's moves after the set-up),
so a page reload, a second tab or a lost socket never loses the place.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from accounts.errors import ServiceError
from accounts.models import User
from accounts.services import play_eligibility

from . import rule_sets, services, starting
from .lessons import Lesson, get_lesson
from .models import Game, LessonProgress, Move, RuleSet
from .rules import RuleError, get_variant
from .starting import Player

#: The coach plays like a person where the script leaves it free (after the last step).
COACH_LEVEL = "casual"
#: Before the first move a lesson waits this long (the no-show grace): a learner reads.
NO_SHOW_SECONDS = 24 * 3600


def lesson_of(game: Game) -> Lesson | None:
    return get_lesson(game.lesson) if game.lesson else None


def steps_done(lesson: Lesson, moves: list[Move] | Any) -> int:
    """How many steps the learner has done: their moves after the set-up."""
    return min(
        sum(1 for m in moves if m.seat == lesson.learner_seat and m.ply > len(lesson.setup)), len(lesson.steps)
    )


def _rule_set(lesson: Lesson) -> RuleSet:
    """The lesson's own house rules, without a clock (made once, then found by name)."""
    name = f"Lesson: {lesson.title}"[:120]
    found = RuleSet.objects.filter(name=name, variant=lesson.variant, for_lessons=True, is_current=True).first()
    if found is not None:
        return found
    return rule_sets.create_rule_set(
        name=name, variant=lesson.variant, options=lesson.options, no_show_seconds=NO_SHOW_SECONDS, for_lessons=True,
    )


def unfinished_lesson_game(user: User, slug: str) -> Game | None:
    return (
        Game.objects.filter(lesson=slug, status=Game.Status.ACTIVE, seats__user=user)
        .order_by("-created_at")
        .first()
    )


@transaction.atomic
def start_lesson(*, user: User, slug: str, again: bool = False) -> Game:
    """The player's lesson game of ``slug``: the unfinished one if there is one, else a
    new one set up at the lesson's position, the coach in the other seat. ``again``: a
    new one even so (the unfinished one is resigned: a lesson is never rated)."""
    lesson = get_lesson(slug) if isinstance(slug, str) else None
    if lesson is None:
        raise ServiceError("no-such-lesson", "There is no such lesson.")
    decision = play_eligibility(user=user)
    if not decision.allowed:
        raise ServiceError("not-eligible", decision.reason)
    # One player's lesson at a time: their own row lock keeps two quick clicks to one game.
    User.objects.select_for_update().filter(pk=user.pk).first()
    existing = unfinished_lesson_game(user, slug)
    if existing is not None and not again:
        return existing
    if existing is not None:
        services.resign(game_id=existing.pk, user=user)
    game = starting.new_game_row(rule_set=_rule_set(lesson), created_by=user, seed=lesson.seed or None)
    game.lesson = lesson.slug
    game.save(update_fields=["lesson"])
    starting.seat_players(
        game, {lesson.learner_seat: Player(user=user), lesson.coach_seat: Player(ai_level=COACH_LEVEL)}
    )
    services.play_set_up(game, lesson.setup)
    starting.start(game)
    LessonProgress.objects.get_or_create(user=user, lesson=lesson.slug)
    return game


def progress_of(user: User | Any) -> dict[str, LessonProgress]:
    """The player's progress per lesson slug (none for a visitor)."""
    if user is None or not user.is_authenticated:
        return {}
    return {p.lesson: p for p in LessonProgress.objects.filter(user=user)}


def finished_lessons(user_id: int | None) -> set[str]:
    """The slugs of the lessons the player has finished (their progress rows with
    ``completed_at``: a lesson once done stays done)."""
    if user_id is None:
        return set()
    return set(
        LessonProgress.objects.filter(user_id=user_id, completed_at__isnull=False).values_list("lesson", flat=True)
    )


def unfinished_games_of(user: User | Any) -> dict[str, int]:
    """Lesson slug -> the id of the player's unfinished lesson game."""
    if user is None or not user.is_authenticated:
        return {}
    rows = Game.objects.filter(~Q(lesson=""), status=Game.Status.ACTIVE, seats__user=user).order_by("created_at")
    return dict(rows.values_list("lesson", "pk"))


def no_rematch_for_lessons(game: Game) -> str | None:
    """A lesson is played again from the lessons page (a fresh lesson), not rematched."""
    return "A lesson has no rematch: start it again from the lessons page." if game.lesson else None


def _same_effect(game: Game, seat: int, move: Any, expected: Any) -> bool:
    """Whether ``move`` is the step's move under another name (a wall named by its
    segments rather than the square it surrounds, say): both leave the same state."""
    variant = get_variant(game.variant)
    state = variant.load(game.state)
    try:
        return bool(variant.dump(variant.apply(state, seat, move)) == variant.dump(variant.apply(state, seat, expected)))
    except RuleError:
        return False


class Coach:
    """The lesson script at work in a game (games/services.py LessonCoach)."""

    def refusal(self, game: Game, seat: int, move: Any) -> str | None:
        lesson = lesson_of(game)
        if lesson is None or seat != lesson.learner_seat:
            return None
        done = steps_done(lesson, game.moves.only("seat", "ply"))
        if done >= len(lesson.steps):
            return None  # the lesson is over: play on freely
        step = lesson.steps[done]
        if step.takes(move) or (step.accepts is None and _same_effect(game, seat, move, step.move)):
            return None
        return f"Not this time: {step.hint}"

    def played(self, game: Game, seat: int, moves: list[Move]) -> None:
        lesson = lesson_of(game)
        if lesson is None or seat != lesson.learner_seat or game.ply + 1 <= len(lesson.setup):
            return
        learner_id = next((s.user_id for s in game.seats_in_hand if s.number == seat), None)
        if learner_id is None:
            return
        done = steps_done(lesson, moves)
        progress, _ = LessonProgress.objects.get_or_create(user_id=learner_id, lesson=lesson.slug)
        progress.steps_done = max(progress.steps_done, done)
        if done == len(lesson.steps) and progress.completed_at is None:
            progress.completed_at = timezone.now()
        progress.save()

    def reply(self, game: Game, seat: int, state: Any) -> Any | None:
        lesson = lesson_of(game)
        if lesson is None or seat != lesson.coach_seat:
            return None
        made = game.moves.filter(seat=seat, ply__gt=len(lesson.setup)).count()
        move = lesson.coach_move(made)
        if move is None:
            return None
        try:
            get_variant(game.variant).apply(state, seat, move)
        except RuleError:
            return None  # off the script (it cannot be, but never a stuck game): the AI plays
        return move


COACH = Coach()
