"""Helpers shared by the competition tests (no tests here)."""

from __future__ import annotations

from datetime import date, timedelta

from django.utils import timezone

from games import services as game_services
from league import competitions as cs
from league.management.commands.play_section_bots import all_finished, play_pending_moves
from league.models import Club, Section


def players(make_player, n: int, *, prefix: str = "p", born: date = date(1990, 5, 17)):
    return [make_player(username=f"{prefix}{i:03d}", born=born) for i in range(1, n + 1)]


def section_with(users, *, format: str, variant: str = "classic", rule_set=None, starts_in: float = 60,
                 start: bool = True, **options):
    """A section of ``users``; ``start``: its round 1 started at once, as the organiser's
    "start now" does (beat would start it at its time)."""
    club = Club.objects.get_or_create(slug="chess-club", defaults={"name": "Chess club"})[0]
    now = timezone.now()
    tournament = cs.create_tournament(club=club, name=f"{format} cup", starts_at=now + timedelta(seconds=starts_in))
    rule_set = rule_set or game_services.standard_rule_set(variant)
    if format == "arena":
        options.setdefault("arena_duration", timedelta(seconds=8))
    section = cs.create_section(tournament=tournament, name="Open", rule_set=rule_set, format=format,
                                starts_at=now + timedelta(seconds=starts_in), **options)
    for user in users:
        cs.register(section=section, user=user, now=now)
    if start:
        if format == "arena":  # the arena's clock starts now
            Section.objects.filter(pk=section.pk).update(starts_at=timezone.now())
            section.refresh_from_db()
        cs.start_round(section_id=section.pk, number=1, force=True)
        section.refresh_from_db()
    return section


def play_out(section_ids, *, limit: int = 20_000, level: str = "random") -> None:
    """Bots move until the sections finish (every other step is Celery's)."""
    for _ in range(limit):
        if all_finished(section_ids):
            return
        if not play_pending_moves(section_ids, level=level):
            cs.sweep()  # a round due, an arena over: what beat's sweep would catch
    raise AssertionError("the sections did not finish")


def decide(section, *, winner=None) -> int:
    """Finish every game in play: one move, then the loser resigns. ``winner(pairing)``
    picks the winner's user id (default: the higher seed, the lower seed number)."""
    from games.models import Game
    from games.rules import get_variant
    from league.models import Entry, Pairing

    seeds = dict(Entry.objects.filter(section=section).values_list("user_id", "seed"))
    done = 0
    for pairing in Pairing.objects.filter(section=section, status=Pairing.Status.IN_PLAY):
        game = pairing.game or pairing.match.games.filter(status=Game.Status.ACTIVE).first()
        if game is None or game.status != Game.Status.ACTIVE:
            continue
        chosen = winner(pairing) if winner else min((pairing.first_id, pairing.second_id), key=lambda u: seeds[u])
        loser_id = pairing.second_id if chosen == pairing.first_id else pairing.first_id
        mover = game.seats.get(number=game.to_move[0])
        variant = get_variant(game.variant)
        import random

        move = variant.random_move(variant.load(game.state), mover.number, random.Random(1))
        game_services.submit_move(game_id=game.pk, user=mover.user, ply=game.ply, move=move)
        loser = game.seats.get(user_id=loser_id).user
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
