"""The guided lessons' pages (docs/lessons.md): /learn/, the index with each player's
progress, and POST /learn/<slug>/, which starts or resumes the player's lesson game and
goes to its game page. The lesson panel on the game page is built here too
(``panel_context``, for the board partial). Writes go through games/lesson_service.py.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from accounts.errors import ServiceError

from . import lesson_service
from .lessons import LESSONS, get_lesson, next_lesson
from .models import Game
from .rules import get_variant


@require_GET
def learn(request: HttpRequest) -> HttpResponse:
    progress = lesson_service.progress_of(request.user)
    unfinished = lesson_service.unfinished_games_of(request.user)
    rows = []
    for lesson in LESSONS:
        mine = progress.get(lesson.slug)
        total = len(lesson.steps)
        if mine is not None and mine.completed_at is not None:
            state, button = "Done", "Replay"
        elif lesson.slug in unfinished:
            state, button = f"Step {min((mine.steps_done if mine else 0) + 1, total)} of {total}", "Continue"
        else:
            state, button = "Not started", "Start"
        if lesson.slug in unfinished and button == "Replay":
            button = "Continue"  # a replay under way
        rows.append({"lesson": lesson, "variant_name": get_variant(lesson.variant).display_name,
                     "steps": total, "state": state, "button": button, "done": state == "Done",
                     # A game under way can be left for a fresh start (a done Nine-Square plays on).
                     "can_restart": lesson.slug in unfinished})
    return render(request, "games/learn.html", {"rows": rows})


@login_required
@require_POST
def learn_variant(request: HttpRequest, slug: str) -> HttpResponse:
    if get_lesson(slug) is None:
        raise Http404("There is no such lesson.")
    try:
        game = lesson_service.start_lesson(
            user=request.user, slug=slug, again=request.POST.get("again") == "1"  # type: ignore[arg-type]
        )
    except ServiceError as err:
        messages.error(request, err.message)
        return redirect(reverse("games:learn"))
    return redirect(reverse("games:game", args=[game.pk]))


def panel_context(game: Game, seat: int | None, moves: list[dict[str, Any]]) -> dict[str, Any] | None:
    """What the lesson panel shows on a lesson game's page (its learner only), from the
    game payload's moves: the steps, which are done, the current one; None elsewhere."""
    lesson = lesson_service.lesson_of(game)
    if lesson is None or seat != lesson.learner_seat:
        return None
    done = min(
        sum(1 for m in moves if m["seat"] == lesson.learner_seat and m["ply"] > len(lesson.setup)),
        len(lesson.steps),
    )
    complete = done == len(lesson.steps)
    # The next lesson is the first the learner has not finished (after this one, going
    # round); read only once this one is complete, the only time the panel offers it.
    after = None
    if complete:
        learner = next((s.user_id for s in game.seats_in_hand if s.number == lesson.learner_seat), None)
        after = next_lesson(lesson.slug, lesson_service.finished_lessons(learner))
    return {
        "lesson": lesson,
        "steps": [{"number": n, "instruction": step.instruction, "done": n <= done, "current": n == done + 1}
                  for n, step in enumerate(lesson.steps, 1)],
        "current": lesson.steps[done] if done < len(lesson.steps) else None,
        "number": done + 1,
        "total": len(lesson.steps),
        "complete": complete,
        "next": after,
        "all_done": complete and after is None,
        "variant_name": get_variant(lesson.variant).display_name,
    }
