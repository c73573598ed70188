"""Create (or complete) the demo club. Safe to run any number of times."""

from __future__ import annotations

import random
from datetime import date, timedelta

from django.core.management.base import BaseCommand
from django.db import models, transaction
from django.db.models import F
from django.utils import timezone

from accounts import notices as notice_services
from accounts import services as account_services
from accounts.models import User
from games import rule_sets as game_rule_sets
from games import services as game_services
from games.models import Game, Move, Seat
from games.rules import get_variant
from games.rules.ai import choose_move
from league import competitions as competition_services
from league.clubs import selectors as club_selectors
from league.clubs import services as league_services
from league.models import Club, Entry, Pairing, Round, Section, Standing, Tournament
from league.ratings import services as rating_services

DEMO_PASSWORD = "tictactoe-demo"

# username, display name, age today, country, club role
DEMO_PEOPLE = [
    ("organiser", "Olivia Organiser", 41, "GB", "organiser"),
    ("arbiter", "Arnav Arbiter", 58, "IN", "arbiter"),
    ("ada", "Ada (4)", 4, "FR", "member"),
    ("jonas", "Jonas (15, Germany)", 15, "DE", "member"),
    ("emily", "Emily (15, UK)", 15, "GB", "member"),
    ("sam", "Sam", 27, "US", "member"),
    ("mei", "Mei", 33, "SG", "member"),
    ("kofi", "Kofi", 19, "GH", "member"),
    ("lucia", "Lucía", 66, "ES", "member"),
    ("edith", "Edith (105)", 105, "IE", "member"),
]


def birthday_for_age(age: int, today: date) -> date:
    """A date of birth that makes someone ``age`` today (a birthday last month)."""
    month = today.month - 1 or 12
    year = today.year - age - (1 if today.month == 1 else 0)
    return date(year, month, min(today.day, 28))


class Command(BaseCommand):
    help = "Create the demo club with an admin, organisers and players of varied ages and countries."

    @transaction.atomic
    def handle(self, *args, **options):
        today = timezone.localdate()
        club = league_services.ensure_club(
            name="Demo Noughts & Crosses Club",
            country="GB",
            description="A club to try the platform: every rule set, players from 4 to 105.",
            own_rating_list=True,
        )
        admin = User.objects.filter(username="admin").first()
        if admin is None:
            admin = User.objects.create_superuser("admin", "admin@example.com", DEMO_PASSWORD)
            account_services.update_profile(user=admin, display_name="Club Admin", country="GB")
        league_services.set_membership(club=club, user=admin, role="owner")
        for username, name, age, country, role in DEMO_PEOPLE:
            user = User.objects.filter(username=username).first()
            if user is None:
                registration = account_services.register_player(
                    username=username,
                    password=DEMO_PASSWORD,
                    email=f"{username}@example.com",
                    display_name=name,
                    date_of_birth=birthday_for_age(age, today),
                    country=country,
                    guardian_name="Demo Guardian",
                    guardian_email=f"guardian-of-{username}@example.com",
                    today=today,
                    notify_guardian=False,  # demo guardians consent below
                )
                user = registration.user
                if registration.consent is not None:
                    account_services.grant_guardian_consent(
                        token=account_services.consent_token(registration.consent)
                    )
            league_services.set_membership(club=club, user=user, role=role)
        _demo_rated_games()
        _demo_tournament(club, admin)
        _demo_championship(club, admin)
        _demo_finished_cup(club, admin)
        self.stdout.write(self.style.SUCCESS(f"Demo club ready: {club.name}. {_members_line(club, admin)}"))
        self.stdout.write(f"Log in as admin / {DEMO_PASSWORD} (or any demo player, same password).")


def _members_line(club: Club, member: User) -> str:
    """The club's member count as its page shows it (league.clubs.selectors): a member
    sees every active member listed, anyone else all but those who play with a
    guardian's consent; "11 members" said the whole membership above a list of 9."""
    to_members = len(club_selectors.members_shown_to(club, member))
    to_visitors = len(club_selectors.members_shown_to(club, None))
    line = f"Its page lists {to_members} members to a fellow member"
    if to_visitors == to_members:
        return f"{line}, and to anyone."
    hidden = to_members - to_visitors
    return (f"{line} and {to_visitors} to anyone else ({hidden} play with a guardian's consent: "
            "listed to fellow members only).")


# (variant, winner, loser): rated games played out in this order, so the leaderboards and
# the history charts of two variants have something to show (docs/ratings.md). Not
# classic: the demo tournament's variant, whose entries are seeded by rating.
DEMO_RATED_GAMES = [
    ("tactic-toe", "lucia", "sam"), ("tactic-toe", "mei", "kofi"), ("tactic-toe", "lucia", "kofi"),
    ("tactic-toe", "sam", "edith"), ("tactic-toe", "lucia", "mei"), ("tactic-toe", "kofi", "edith"),
    ("tactic-toe", "mei", "sam"), ("tactic-toe", "lucia", "edith"), ("tactic-toe", "sam", "kofi"),
    ("tactic-toe", "mei", "edith"), ("tactic-toe", "lucia", "sam"), ("tactic-toe", "kofi", "mei"),
    ("tactic-toe", "sam", "mei"), ("tactic-toe", "edith", "kofi"), ("tactic-toe", "lucia", "kofi"),
    ("tactic-toe", "mei", "lucia"), ("tactic-toe", "sam", "edith"), ("tactic-toe", "lucia", "mei"),
    ("tic-tac-two", "kofi", "lucia"), ("tic-tac-two", "sam", "mei"), ("tic-tac-two", "kofi", "sam"),
    ("tic-tac-two", "mei", "lucia"), ("tic-tac-two", "lucia", "edith"), ("tic-tac-two", "kofi", "mei"),
    ("tic-tac-two", "sam", "lucia"), ("tic-tac-two", "edith", "mei"),
]


def _demo_rated_games() -> None:
    """The rated games above, each a few moves long (so each has a replay), then won by
    resignation, then rated (the task each game queues on commit finds them rated:
    rating is idempotent). Once only."""
    if Game.objects.filter(rated=True, seats__user__username__in=[p[0] for p in DEMO_PEOPLE]).exists():
        return
    people = {u.username: u for u in User.objects.filter(username__in=[p[0] for p in DEMO_PEOPLE])}
    last = None
    for variant, winner, loser in DEMO_RATED_GAMES:
        game = game_services.create_game(creator=people[winner], opponent=people[loser], variant=variant,
                                         rated=True, notify=False)
        game = game_services.accept_challenge(game_id=game.pk, user=people[loser], notify=False)
        game = _opening(game, plies=8)
        last = game_services.resign(game_id=game.pk, user=people[loser])
    if last is not None:
        rating_services.rate_game(game_id=last.pk)
    for user in people.values():  # the demo's past games: their "game over" notices are old news
        notice_services.mark_all_read(user=user)


def _demo_championship(club, organiser) -> None:
    """A two-stage event open for registration (docs/competitions.md, "Multi-stage events"):
    round robin groups, then a knockout of each group's top two with a third-place match."""
    if Tournament.objects.filter(club=club, slug="club-championship").exists():
        return
    starts_at = (timezone.now() + timedelta(days=8)).replace(minute=0, second=0, microsecond=0)
    tournament = competition_services.create_tournament(club=club, name="Club championship", starts_at=starts_at,
                                                        created_by=organiser)
    rules = game_rule_sets.standard_rule_set("classic")
    groups = competition_services.create_section(
        tournament=tournament, name="Groups", rule_set=rules, format="round-robin", groups=2,
        round_interval=timedelta(minutes=15))
    knockout = competition_services.create_section(
        tournament=tournament, name="Knockout", rule_set=rules, format="single-elimination", placements="third",
        previous_stage=groups, advance=2, starts_at=starts_at + timedelta(hours=2))
    competition_services.add_prize(section=knockout, label="Club champion", value="The championship cup")
    for user in User.objects.filter(username__in=["sam", "mei", "kofi", "lucia", "edith", "organiser"]):
        competition_services.register(section=groups, user=user)


def _demo_tournament(club, organiser) -> None:
    """An open-registration tournament a week away: a Swiss open and an under-16
    section with an age prize, the demo players entered (docs/competitions.md)."""
    if Tournament.objects.filter(club=club, slug="demo-open").exists():
        return
    starts_at = (timezone.now() + timedelta(days=7)).replace(minute=0, second=0, microsecond=0)
    tournament = competition_services.create_tournament(club=club, name="Demo Open", starts_at=starts_at,
                                                        created_by=organiser)
    rules = game_rule_sets.standard_rule_set("classic")
    open_section = competition_services.create_section(
        tournament=tournament, name="Open", rule_set=rules, format="swiss", rounds=5, capacity=64,
        round_interval=timedelta(minutes=20), late_entry_rounds=2)
    juniors = competition_services.create_section(
        tournament=tournament, name="Under 16", rule_set=rules, format="round-robin", age_under=16,
        round_interval=timedelta(minutes=15))
    competition_services.add_prize(section=open_section, label="1st", value="Club trophy")
    competition_services.add_prize(section=open_section, kind="age", age_over=65, label="Best 65+",
                                   value="Book token")
    competition_services.add_prize(section=juniors, label="Junior champion", value="Medal")
    for user in User.objects.filter(username__in=[p[0] for p in DEMO_PEOPLE]):
        section = juniors if user.username in ("ada", "jonas", "emily") else open_section
        competition_services.register(section=section, user=user)


# The Autumn Cup's players and how well each plays (the AI's levels stand in for them).
CUP_PLAYERS = {"lucia": "strong", "mei": "strong", "kofi": "casual", "sam": "casual", "arbiter": "casual",
               "jonas": "random", "emily": "random", "edith": "random"}


def _demo_finished_cup(club, organiser) -> None:
    """A Swiss played last weekend, every game moved out on the board, so a newcomer sees
    what standings, the crosstable, tie-breaks and replays look like (the other demo
    events are still taking entries). Not rated: the demo's ratings stay the ones above.
    Played now through the services, then dated back (``_date_back``)."""
    if Tournament.objects.filter(club=club, slug="autumn-cup").exists():
        return
    seeded_at = timezone.now()
    starts_at = (seeded_at - timedelta(days=2)).replace(hour=10, minute=0, second=0, microsecond=0)
    tournament = competition_services.create_tournament(club=club, name="Autumn Cup", starts_at=starts_at,
                                                        created_by=organiser)
    section = competition_services.create_section(
        tournament=tournament, name="Swiss", rule_set=game_rule_sets.standard_rule_set("classic"), format="swiss",
        rounds=3, rated=False, round_interval=CUP_ROUND_INTERVAL)
    people = {u.username: u for u in User.objects.filter(username__in=CUP_PLAYERS)}
    for username in CUP_PLAYERS:
        competition_services.register(section=section, user=people[username], now=starts_at - timedelta(days=1))
    for number in (1, 2, 3):
        competition_services.start_round(section_id=section.pk, number=number, force=True)
        round_games = Pairing.objects.filter(section=section, round__number=number, game__isnull=False)
        for game_id in round_games.values_list("game_id", flat=True):
            _play_out(game_id)
            competition_services.record_game_result(game_id=game_id)
    section.refresh_from_db()
    assert section.status == Section.Status.FINISHED, section.status
    _date_back(section, seeded_at, starts_at)
    for user in people.values():  # the weekend's pairing and result notices: read by now
        notice_services.mark_all_read(user=user)


#: The Autumn Cup's rounds, as its schedule says and its rows are dated.
CUP_ROUND_INTERVAL = timedelta(minutes=20)


def _date_back(section: Section, seeded_at, starts_at) -> None:
    """Move every time the cup's rows were given while it was played (at seeding, all in
    a few seconds) to when it says it was played: round N at ``starts_at`` plus N-1
    round intervals, entries the day before. Demo data only: no service dates back."""

    def shift(rows, by: timedelta) -> None:
        for row in rows:
            fields = {f.attname: getattr(row, f.attname) + by for f in row._meta.concrete_fields
                      if isinstance(f, models.DateTimeField) and (getattr(row, f.attname) or starts_at) >= seeded_at}
            if fields:
                type(row).objects.filter(pk=row.pk).update(**fields)

    to_start = starts_at - seeded_at
    shift(Entry.objects.filter(section=section), starts_at - timedelta(days=1) - seeded_at)
    for round_ in Round.objects.filter(section=section):
        by = to_start + (round_.number - 1) * CUP_ROUND_INTERVAL
        games = Game.objects.filter(pairing__section=section, pairing__round=round_)
        shift([round_], by)
        shift(Pairing.objects.filter(round=round_), by)
        shift(games, by)
        shift(Move.objects.filter(game__in=games), by)
        shift(Seat.objects.filter(game__in=games), by)
    last = to_start + 2 * CUP_ROUND_INTERVAL  # round 3 of 3
    shift(Standing.objects.filter(section=section), last)
    Section.objects.filter(pk=section.pk).update(started_at=F("started_at") + to_start, finished_at=F("finished_at") + last)
    Tournament.objects.filter(pk=section.tournament_id).update(finished_at=F("finished_at") + last)


def _opening(game: Game, *, plies: int) -> Game:
    """Up to ``plies`` seeded random moves, none of which ends the game (its resignation does)."""
    variant = get_variant(game.variant)
    users = {seat.number: seat.user for seat in game.seats.select_related("user") if seat.user is not None}
    while game.ply < plies:
        seat, state = game.to_move[0], variant.load(game.state)
        moves = variant.legal_moves(state, seat)
        random.Random(f"{game.pk}:{game.ply}").shuffle(moves)
        move = next((m for m in moves if variant.outcome(variant.apply(state, seat, m)) is None), None)
        if move is None:
            break
        game = game_services.submit_move(game_id=game.pk, user=users[seat], ply=game.ply, move=move)
    return game


def _play_out(game_id: int) -> None:
    """Play a game to its end, each seat at its player's level (CUP_PLAYERS), seeded."""
    game = Game.objects.get(pk=game_id)
    variant = get_variant(game.variant)
    levels = {seat.number: (seat.user, CUP_PLAYERS[seat.user.username])
              for seat in game.seats.select_related("user") if seat.user is not None}  # two people's seats
    while game.status == Game.Status.ACTIVE:
        seat = game.to_move[0]
        user, level = levels[seat]
        rng = random.Random(f"{game_id}:{game.ply}")
        move = choose_move(variant, variant.load(game.state), seat, level, rng)
        game = game_services.submit_move(game_id=game.pk, user=user, ply=game.ply, move=move)
