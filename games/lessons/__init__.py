"""The guided lessons, one module per variant (docs/lessons.md). Pure: no Django.

``LESSONS`` is their order on the lessons page: the classic game first, then the
variants from the simplest to the richest.
"""

from __future__ import annotations

from collections.abc import Collection

from . import classic, nine_square, t_tic_t_tac_toe, tactic_toe, tic_tac_two
from .lesson import Lesson, Move, Step, same_move

LESSONS: tuple[Lesson, ...] = (
    classic.LESSON,
    tactic_toe.LESSON,
    nine_square.LESSON,
    *t_tic_t_tac_toe.LESSONS,
    *tic_tac_two.LESSONS,
)
BY_SLUG: dict[str, Lesson] = {lesson.slug: lesson for lesson in LESSONS}


def get_lesson(slug: str) -> Lesson | None:
    return BY_SLUG.get(slug)


def next_lesson(slug: str, finished: Collection[str]) -> Lesson | None:
    """The lesson to offer once ``slug`` is done: the first one after it on the lessons
    page, going round to the start, that is not in ``finished`` (the slugs the player has
    finished); ``slug`` itself never. None when every other lesson is finished."""
    slugs = [lesson.slug for lesson in LESSONS]
    start = slugs.index(slug) + 1 if slug in slugs else 0
    for lesson in LESSONS[start:] + LESSONS[:start]:
        if lesson.slug != slug and lesson.slug not in finished:
            return lesson
    return None


__all__ = ["BY_SLUG", "LESSONS", "Lesson", "Move", "Step", "get_lesson", "next_lesson", "same_move"]
