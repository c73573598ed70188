"""Test data, built the way the platform builds it (factory-boy).

Players, tournaments, sections and games go through the services (registration's age
screen and profile, the section's scheduled round, the game's seats), so a test sees
what a real one would; clubs, memberships and superusers are plain rows, as the tests
made them before. The ``make_player`` fixture (tests/conftest.py) wraps PlayerFactory.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from datetime import date, timedelta
from typing import Any

import factory
from django.utils import timezone
from django.utils.text import slugify
from factory.django import DjangoModelFactory

from accounts import services as account_services
from accounts.models import User
from games import rule_sets as game_rule_sets
from games import services as game_services
from games.models import Game, Match
from games.rules import get_variant
from league import competitions as competition_services
from league.competitions import event_services
from league.models import Club, ClubMembership, Section, Tournament
from tests.support import years_ago

#: Every test player's password (and the superusers').
PASSWORD = "a-long-Passw0rd!"
BORN = date(1990, 5, 17)


# -- people --------------------------------------------------------------------------------


class PlayerFactory(factory.Factory[User]):
    """A player registered through accounts.services.register_player; the user is
    returned. Guardian details are given, so a child's sign-up is accepted (pending
    the guardian's consent) as an adult's is."""

    class Meta:
        model = User

    username = factory.Sequence(lambda n: f"user{n}")
    password = PASSWORD
    date_of_birth = BORN
    country = "GB"
    guardian_name = "Guardian"
    guardian_email = "guardian@example.com"

    @classmethod
    def _create(cls, model_class: type[User], **kwargs: Any) -> User:
        return account_services.register_player(**kwargs).user


class SignupFactory(factory.DictFactory):
    """What the sign-up page and API are sent: by default an adult in Britain."""

    username = "newplayer"
    display_name = factory.LazyAttribute(lambda o: f"New Player {o.username}")  # display names are unique
    email = "new@example.com"
    password = PASSWORD
    date_of_birth = factory.LazyFunction(lambda: years_ago(30).isoformat())
    country = "GB"


class SuperuserFactory(DjangoModelFactory[User]):
    """``root``, a superuser made as ``createsuperuser`` makes one."""

    class Meta:
        model = User

    username = "root"
    email = "root@example.com"
    password = PASSWORD

    @classmethod
    def _create(cls, model_class: type[User], **kwargs: Any) -> User:
        return model_class.objects.create_superuser(**kwargs)


# -- clubs ---------------------------------------------------------------------------------


class ClubFactory(DjangoModelFactory[Club]):
    """A club row (the club with that slug when there is one). ``members``: users who
    join it as plain members."""

    class Meta:
        model = Club
        django_get_or_create = ("slug",)
        skip_postgeneration_save = True

    name = factory.Sequence(lambda n: f"Club {n}")
    slug = factory.LazyAttribute(lambda club: slugify(club.name))

    @factory.post_generation
    def members(club: Club, create: bool, extracted: Iterable[User] | None, **kwargs: Any) -> None:
        for user in extracted or ():
            MembershipFactory.create(club=club, user=user)


class MembershipFactory(DjangoModelFactory[ClubMembership]):
    """A club membership row (moderation's signal makes organisers and arbiters staff)."""

    class Meta:
        model = ClubMembership

    club = factory.SubFactory(ClubFactory)
    user = factory.SubFactory(PlayerFactory)
    role = ClubMembership.Role.MEMBER


# -- events --------------------------------------------------------------------------------


class TournamentFactory(factory.Factory[Tournament]):
    """A tournament through league's services: by an organiser (``by``, who must be
    allowed to) through event_services, else straight through competition_services."""

    class Meta:
        model = Tournament

    by = None
    club = factory.SubFactory(ClubFactory)
    name = "Spring open"
    starts_at = factory.LazyFunction(lambda: timezone.now() + timedelta(hours=1))

    @classmethod
    def _create(cls, model_class: type[Tournament], *, by: User | None = None, **kwargs: Any) -> Tournament:
        if by is None:
            return competition_services.create_tournament(**kwargs)
        return event_services.create_tournament(by=by, **kwargs)


class SectionFactory(factory.Factory[Section]):
    """A section through league's services (``by`` as for TournamentFactory), played by
    ``variant``'s standard rules unless a ``rule_set`` is given; ``players`` are
    registered in that order (``players__now``: when they register). A Swiss is paired
    by the fast system unless ``swiss_system="dutch"`` is given: these tests' expected
    pairings are its (the FIDE Dutch's are tests/league/test_swiss_dutch_section.py's)."""

    class Meta:
        model = Section

    class Params:
        variant = "classic"

    by = None
    tournament = factory.SubFactory(TournamentFactory, by=factory.SelfAttribute("..by"))
    name = "Open"
    format = "swiss"
    rule_set = factory.LazyAttribute(lambda section: game_rule_sets.standard_rule_set(section.variant))

    @classmethod
    def _create(cls, model_class: type[Section], *, by: User | None = None, **kwargs: Any) -> Section:
        if kwargs.get("format") == Section.Format.SWISS:
            kwargs.setdefault("swiss_system", Section.SwissSystem.FAST)
        if by is None:
            return competition_services.create_section(**kwargs)
        return event_services.create_section(by=by, **kwargs)

    @factory.post_generation
    def players(section: Section, create: bool, extracted: Iterable[User] | None, **kwargs: Any) -> None:
        for user in extracted or ():
            competition_services.register(section=section, user=user, **kwargs)


def players(make_player: Any, n: int, *, prefix: str = "p", born: date = BORN) -> list[User]:
    """``n`` players named ``p001``, ``p002``, ..."""
    return [make_player(username=f"{prefix}{i:03d}", born=born) for i in range(1, n + 1)]


def make_section(club: Club, organiser: User, *, format: str, players: Iterable[User] = (), variant: str = "classic",
                 **settings: Any) -> Section:
    """A section the organiser made for an hour from now, with ``players`` registered
    (in that order)."""
    later = timezone.now() + timedelta(hours=1)
    if format == "arena":
        settings.setdefault("arena_duration", timedelta(minutes=10))
    return SectionFactory.create(by=organiser, tournament__club=club, tournament__name=f"{format} open",
                                 tournament__starts_at=later, format=format, variant=variant, players=players, **settings)


def section_with(users: Iterable[User], *, format: str, variant: str = "classic", rule_set: Any = None,
                 starts_in: float = 60, start: bool = True, club: Club | None = None, tournament: str = "",
                 **options: Any) -> Section:
    """A section of ``users`` (in the chess club unless another ``club`` is given);
    ``start``: its round 1 started at once, as the organiser's "start now" does (beat
    would start it at its time)."""
    club = club or ClubFactory.create(name="Chess club", slug="chess-club")
    now = timezone.now()
    starts_at = now + timedelta(seconds=starts_in)
    rule_set = rule_set or game_rule_sets.standard_rule_set(variant)
    if format == "arena":
        options.setdefault("arena_duration", timedelta(seconds=8))
    section = SectionFactory.create(tournament__club=club, tournament__name=tournament or f"{format} cup",
                                    tournament__starts_at=starts_at, rule_set=rule_set, format=format, starts_at=starts_at,
                                    players=users, players__now=now, **options)
    if start:
        if format == "arena":  # the arena's clock starts now
            Section.objects.filter(pk=section.pk).update(starts_at=timezone.now())
            section.refresh_from_db()
        competition_services.start_round(section_id=section.pk, number=1, force=True)
        section.refresh_from_db()
    return section


# -- games ---------------------------------------------------------------------------------


class GameFactory(factory.Factory[Game]):
    """A game through games.services: ``creator`` (seat 0 by default) challenges
    ``opponent``, who accepts (``accepted=False``: the challenge stays open); then
    ``resigned_by`` resigns, if given. Other keywords go to create_game (``rule_set``,
    ``rated``, ``options``, ...). The Game is the one create_game returned: what
    accepting and resigning changed is in the database (refresh_from_db)."""

    class Meta:
        model = Game

    creator = factory.SubFactory(PlayerFactory)
    opponent = factory.SubFactory(PlayerFactory)
    rule_set = None
    variant = factory.Maybe("rule_set", yes_declaration=None, no_declaration="classic")
    accepted = True
    resigned_by = None

    @classmethod
    def _create(cls, model_class: type[Game], *, accepted: bool = True, resigned_by: User | None = None,
                **kwargs: Any) -> Game:
        game = game_services.create_game(**kwargs)
        if accepted:
            game_services.accept_challenge(game_id=game.pk, user=kwargs["opponent"])
        if resigned_by is not None:
            game_services.resign(game_id=game.pk, user=resigned_by)
        return game


def finished_game(winner: User, loser: User, *, rated: bool = True, variant: str = "classic") -> Game:
    """A game between two people that ``winner`` wins when ``loser`` resigns."""
    game = GameFactory.create(creator=winner, opponent=loser, variant=variant, rated=rated, resigned_by=loser)
    game.refresh_from_db()
    return game


def official_match_to_choose(first: User, second: User) -> Match:
    """An official T-Tic-T-Tac-Toe match whose preliminaries ``first`` won (the
    rock-paper-scissors game, then the classic game): first must choose the version."""
    rules = game_rule_sets.create_rule_set(name="Official", variant="t-tic-t-tac-toe", match_format="official")
    rps = game_services.create_game(creator=first, rule_set=rules, opponent=second)
    game_services.accept_challenge(game_id=rps.pk, user=second)  # a match starts once accepted
    game_services.submit_move(game_id=rps.pk, user=first, ply=0, move={"throw": "paper"})
    game_services.submit_move(game_id=rps.pk, user=second, ply=1, move={"throw": "rock"})
    assert rps.match is not None  # an official rule set's games are played in a match
    classic = rps.match.games.get(number_in_match=2)
    assert classic.variant == "classic" and classic.seats.get(number=0).user == first  # the rps winner is X
    for ply, cell in enumerate([1, 4, 2, 5, 3]):
        game_services.submit_move(game_id=classic.pk, user=(first, second)[ply % 2], ply=ply, move={"cell": cell})
    match = Match.objects.get(pk=rps.match.pk)
    assert match.state["stage"] == "version"
    return match


def play_to_the_end(game: Game, players: Sequence[User], *, seed: int = 1, moves: int = 1000) -> Game:
    """Play an accepted game between ``players`` (seat 0, seat 1) to its end through
    games.services, each seat choosing the engine's casual move (seeded: the same game
    each time); the finished game, read back."""
    variant = get_variant(game.variant)
    rng = random.Random(seed)
    for _ in range(moves):
        game = Game.objects.get(pk=game.pk)
        if game.status != Game.Status.ACTIVE:
            return game
        seat = game.to_move[0]
        move = variant.casual_move(variant.load(game.state), seat, rng)
        game_services.submit_move(game_id=game.pk, user=players[seat], ply=game.ply, move=move)
    raise AssertionError(f"game {game.pk} did not end within {moves} moves")
