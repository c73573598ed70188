"""What the league tests share besides their data (tests/factories.py builds that):
sections played to their end (bots, or one move and a resignation), Celery eager, the
competition pages' URLs and text, and every rating as comparable rows."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import cast

from django.urls import reverse

from config.celery import app
from games import services as game_services
from games.models import Game
from games.rules import get_variant
from league import competitions as cs
from league.formats import trf
from league.management.commands.play_section_bots import all_finished, play_pending_moves
from league.models import Entry, Pairing, Rating, RatingChange, Section


@contextmanager
def eager_tasks() -> Iterator[None]:
    """Celery tasks run in the caller, as a worker would run them."""
    app.conf.task_always_eager = True
    try:
        yield
    finally:
        app.conf.task_always_eager = False


# -- playing -------------------------------------------------------------------------------


def play_out(section_ids, *, limit: int = 20_000, level: str = "random") -> None:
    """Bots move until the sections finish (every other step is Celery's)."""
    for _ in range(limit):
        if all_finished(section_ids):
            return
        if not play_pending_moves(section_ids, level=level):
            cs.sweep()  # a round due, an arena over: what beat's sweep would catch
    raise AssertionError("the sections did not finish")


def play_to_the_end(section: Section, limit: int = 5000) -> None:
    """AI moves for every seat; sweep() does what Celery would (record results, start
    the rounds due)."""
    play_out([section.pk], limit=limit)


def one_move(game: Game, seed: int = 2) -> Game:
    """The seat to move plays a random legal move (drawn by random.Random(seed))."""
    mover = game.seats.get(number=game.to_move[0])
    variant = get_variant(game.variant)
    move = variant.random_move(variant.load(game.state), mover.number, random.Random(seed))
    assert mover.user is not None  # a person's seat
    return game_services.submit_move(game_id=game.pk, user=mover.user, ply=game.ply, move=move)


def decide(section, *, winner=None) -> int:
    """Finish every game in play: one move, then the loser resigns. ``winner(pairing)``
    picks the winner's user id (default: the higher seed, the lower seed number)."""
    # Seeded: the section has started.
    seeds = cast(dict[int, int], dict(Entry.objects.filter(section=section).values_list("user_id", "seed")))
    done = 0
    for pairing in Pairing.objects.filter(section=section, status=Pairing.Status.IN_PLAY):
        game = pairing.game
        if game is None:
            assert pairing.match is not None  # in play: a game or a match
            game = pairing.match.games.filter(status=Game.Status.ACTIVE).first()
        if game is None or game.status != Game.Status.ACTIVE:
            continue
        first, second = cast(tuple[int, int], (pairing.first_id, pairing.second_id))  # in play: two players
        chosen = winner(pairing) if winner else min((first, second), key=lambda u: seeds[u])
        loser_id = second if chosen == first else first
        one_move(game, seed=1)
        loser = game.seats.get(user_id=loser_id).user
        assert loser is not None
        game_services.resign(game_id=game.pk, user=loser)
        done += 1
    return done


def run_decided(section, *, winner=None, limit: int = 200) -> None:
    """Decide rounds until the section finishes (Celery eager does the rest)."""
    for _ in range(limit):
        section.refresh_from_db()
        if section.status in (Section.Status.FINISHED, Section.Status.CANCELLED):
            return
        if not decide(section, winner=winner):
            cs.sweep()
    raise AssertionError("the section did not finish")


# -- pages ---------------------------------------------------------------------------------


def url(name: str, section: Section, **extra) -> str:
    t = section.tournament
    return reverse(f"competitions:{name}", args=[t.club.slug, t.slug, section.slug], **extra)


def text_of(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


# -- ratings -------------------------------------------------------------------------------


def snapshot() -> tuple[list, list]:
    """Every rating change and rating, as comparable tuples."""
    changes = sorted(
        RatingChange.objects.values_list(
            "game_id", "user_id", "list_key", "system", "period", "opponent_rating", "score", "k",
            "rating_before", "rating_after", "rd_before", "rd_after", "volatility_before", "volatility_after",
            "provisional", "sequence",
        )
    )
    ratings = sorted(
        Rating.objects.values_list(
            "user_id", "variant", "list_key", "system", "rating", "rd", "volatility", "games", "established",
            "reached_2400", "provisional", "initial_results",
        ),
        key=repr,
    )
    return changes, ratings


def with_round_2(text: str, pairs: list[tuple[int, int | None]]) -> str:
    """The section's TRF with round 2's pairings added (no results yet)."""
    t = trf.read(text)
    by_number = {p.number: p for p in t.players}
    for first, second in pairs:
        if second is None:
            by_number[first].rounds.append(trf.Game(None, "-", "U"))
        else:
            by_number[first].rounds.append(trf.Game(second, "w", " "))
            by_number[second].rounds.append(trf.Game(first, "b", " "))
    return trf.write(t)
