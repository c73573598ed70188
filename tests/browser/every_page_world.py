"""What the every-page browser test visits beyond the demo club (seed_demo): a game
against the computer in each variant, a finished game to replay, a section of each
format (started, so brackets and crosstables show), a league season and a guardian's
consent link. One player has the longest name there is: a 150-letter username, its first
60 letters the display name, one word, in the lobby's "In play" and "Open challenges", a
game with Sam, every section's tables and Sam's notices, so that no page is made to scroll
sideways by a name. Made through the services, in the platform's own database:

    python manage.py shell -c "from tests.browser.every_page_world import build; build()"

prints one JSON object of path names to paths (tests/browser/test_every_page_fits.py)."""

from __future__ import annotations

import json
from datetime import date, timedelta
from typing import Any

from django.utils import timezone

from accounts import services as account_services
from accounts.models import User
from games import lesson_service
from games import services as game_services
from league.competitions import entries, event_services
from league.models import Club, League, Season, Section, Tournament

VARIANTS = ["classic", "t-tic-t-tac-toe", "tactic-toe", "tic-tac-two", "nine-square"]
CLUB = "demo-noughts-crosses-club"
PLAYERS = ["sam", "mei", "kofi", "lucia"]
#: A username as long as may be (150 letters, no space); its display name is its first 60.
LONG = ("Wolfeschlegelsteinhausenbergerdorff" * 5)[:150]


def build_stages(organiser: User, players: list[User]) -> dict[str, str]:
    """A two-stage championship: round robin groups (two groups of two: one round),
    played (every game resigned by its first player) and carried over into a knockout of
    the group winners, which waits for its start time. Paths: the tournament, both stages."""
    from games.models import Game
    from league import competitions

    club = Club.objects.get(slug=CLUB)
    tournament = event_services.create_tournament(by=organiser, club=club, name="Club championship",
                                                  starts_at=timezone.now() + timedelta(hours=1))
    groups = event_services.create_section(by=organiser, tournament=tournament, name="Groups", format="round-robin",
                                           variant="classic", groups=2)
    knockout = event_services.create_section(by=organiser, tournament=tournament, name="Knockout",
                                             format="single-elimination", variant="classic", previous_stage=groups,
                                             advance=1)
    for player in players:
        entries.register(section=groups, user=player)
    event_services.start_section(by=organiser, section=groups)
    for pairing in groups.pairings.filter(game__isnull=False).select_related("first"):
        assert pairing.game_id is not None  # the filter
        game_services.resign(game_id=pairing.game_id, user=pairing.first)
        assert Game.objects.get(pk=pairing.game_id).status == Game.Status.FINISHED
        competitions.record_game_result(game_id=pairing.game_id)
    competitions.carry_over_stage(section_id=knockout.pk)  # what the worker's league.carry_over does
    base = f"/clubs/{CLUB}/{tournament.slug}/"
    return {"tournament-stages": base, "stage-groups": base + f"{groups.slug}/",
            "stage-knockout": base + f"{knockout.slug}/"}


def build() -> None:
    people = {user.username: user for user in User.objects.filter(username__in=[*PLAYERS, "organiser"])}
    sam, organiser = people["sam"], people["organiser"]
    paths: dict[str, str] = {}
    for variant in VARIANTS:
        game = game_services.create_game(creator=sam, variant=variant, ai_level="casual", creator_seat=0)
        paths[f"game-{variant}"] = f"/play/{game.pk}/"
    lesson = lesson_service.start_lesson(user=sam, slug="t-tic-t-tac-toe")
    paths["lesson-t-tic-t-tac-toe"] = f"/play/{lesson.pk}/"
    finished = game_services.create_game(creator=sam, variant="classic", ai_level="casual", creator_seat=0)
    # A move first: a game without one has no replay steps, only a line saying so.
    game_services.submit_move(game_id=finished.pk, user=sam, ply=0, move={"cell": 5})
    game_services.resign(game_id=finished.pk, user=sam)
    paths["replay"] = f"/play/{finished.pk}/replay/"
    # Rock-paper-scissors, decided: the page says what each threw.
    throws = game_services.create_game(creator=sam, variant="rock-paper-scissors", opponent=people["mei"],
                                       creator_seat=0)
    game_services.accept_challenge(game_id=throws.pk, user=people["mei"])
    for ply, (player, throw) in enumerate([(sam, "rock"), (people["mei"], "scissors")]):
        game_services.submit_move(game_id=throws.pk, user=player, ply=ply, move={"throw": throw})
    paths["game-rock-paper-scissors-decided"] = f"/play/{throws.pk}/"

    # The longest name: a game with Sam in play (the lobby's "In play", a game page), a
    # player page, and an entry in every format below.
    long = account_services.register_player(username=LONG, password="tictactoe-demo", email="long@example.com",
                                            date_of_birth=date(1990, 5, 17), country="GB").user
    assert len(long.name) == 60 and " " not in long.name
    people[LONG] = long
    with_long = game_services.create_game(creator=sam, variant="classic", opponent=long, creator_seat=0)
    game_services.accept_challenge(game_id=with_long.pk, user=long)
    paths["game-long-name"] = f"/play/{with_long.pk}/"
    # And a challenge from them waiting for Sam: the lobby's "... challenges you" and Sam's notice of it.
    game_services.create_game(creator=long, variant="tic-tac-two", opponent=sam, creator_seat=1)
    paths["player-long-name"] = f"/ratings/player/{LONG}/"

    club = Club.objects.get(slug=CLUB)
    league = League.objects.create(club=club, name="Club league", slug="club-league")
    season = Season.objects.create(league=league, name=str(date.today().year), slug="this-year",
                                   year=date.today().year)
    paths["season"] = f"/clubs/{CLUB}/leagues/{league.slug}/{season.slug}/"
    paths["league"] = f"/clubs/{CLUB}/leagues/{league.slug}/"
    # A tournament per format: a player enters one section of a tournament.
    for format, label in Section.Format.choices:
        tournament = event_services.create_tournament(by=organiser, club=club, name=f"Every format: {label}",
                                                      starts_at=timezone.now() + timedelta(hours=1), season=season)
        extra: dict[str, Any] = {"arena_duration": timedelta(minutes=30)} if format == Section.Format.ARENA else {}
        section = event_services.create_section(by=organiser, tournament=tournament, name=label, format=format,
                                                variant="classic", **extra)
        for username in [*PLAYERS, LONG]:
            entries.register(section=section, user=people[username])
        event_services.start_section(by=organiser, section=section)
        paths[f"section-{format}"] = f"/clubs/{CLUB}/{tournament.slug}/{section.slug}/"
    paths["tournament-started"] = f"/clubs/{CLUB}/{Tournament.objects.get(pk=tournament.pk).slug}/"
    paths.update(build_stages(organiser, [people[username] for username in PLAYERS]))

    # A finished knockout: its podium, results page and results image (Celery eager here).
    from tests.league.support import eager_tasks, run_decided

    finished_cup = event_services.create_tournament(by=organiser, club=club, name="Finished cup",
                                                    starts_at=timezone.now() + timedelta(hours=1))
    knockout = event_services.create_section(by=organiser, tournament=finished_cup, name="Knockout",
                                             format=Section.Format.SINGLE_ELIMINATION, variant="classic")
    for username in PLAYERS:
        entries.register(section=knockout, user=people[username])
    with eager_tasks():
        event_services.start_section(by=organiser, section=knockout)
        run_decided(knockout)
    paths["section-finished"] = f"/clubs/{CLUB}/{finished_cup.slug}/{knockout.slug}/"
    paths["results-finished"] = paths["section-finished"] + "results/"

    # A Swiss not started yet: its organiser's preview of round 1.
    later = event_services.create_tournament(by=organiser, club=club, name="Previewed",
                                             starts_at=timezone.now() + timedelta(hours=2))
    swiss = event_services.create_section(by=organiser, tournament=later, name="Swiss", format=Section.Format.SWISS,
                                          swiss_system=Section.SwissSystem.FAST, variant="classic")
    for username in [*PLAYERS, "organiser"]:
        entries.register(section=swiss, user=people[username])
    paths["round-preview"] = f"/clubs/{CLUB}/{later.slug}/{swiss.slug}/rounds/1/preview/"

    registration = account_services.register_player(
        username="young", password="tictactoe-demo", email="young@example.com", display_name="Young",
        date_of_birth=date.today().replace(year=date.today().year - 9), country="GB",
        guardian_name="A Guardian", guardian_email="guardian@example.com", notify_guardian=False)
    assert registration.consent is not None
    paths["consent"] = f"/accounts/consent/{account_services.consent_token(registration.consent)}/"
    print(json.dumps(paths))


def build_stages_only() -> None:
    """Only the two-stage championship (tests/browser/test_multi_stage_pages.py)."""
    people = {user.username: user for user in User.objects.filter(username__in=[*PLAYERS, "organiser"])}
    print(json.dumps(build_stages(people["organiser"], [people[username] for username in PLAYERS])))
