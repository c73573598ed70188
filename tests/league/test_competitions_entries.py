"""Registration: eligibility at every boundary (FIDE birth-year groups, ages on a
cutoff date, rating bands frozen at registration, club members), capacity, windows,
check-in and late entries. A refused entry says why in words and changes nothing."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest

from accounts.errors import ServiceError
from games import rule_sets as game_rule_sets
from league import competitions as cs
from league.models import Entry, Rating, Section
from tests.factories import MembershipFactory, SectionFactory

pytestmark = pytest.mark.django_db

START = datetime(2026, 6, 1, 10, 0, tzinfo=UTC)
BEFORE = START - timedelta(days=1)


def spring_open(club, **options):
    """A section (by default: "Open", Swiss, standard classic rules) of the club's Spring
    open, which starts at START."""
    return SectionFactory.create(tournament__club=club, tournament__starts_at=START, **options)


def refusal(section, user, now=BEFORE) -> str:
    with pytest.raises(ServiceError) as err:
        cs.register(section=section, user=user, now=now)
    assert not Entry.objects.filter(section=section, user=user).exists()
    return err.value.message


@pytest.mark.parametrize(("under", "ok_born", "refused_born"), [
    (8, date(2018, 1, 1), date(2017, 12, 31)),
    (10, date(2016, 1, 1), date(2015, 12, 31)),
    (12, date(2014, 1, 1), date(2013, 12, 31)),
    (14, date(2012, 1, 1), date(2011, 12, 31)),
    (16, date(2010, 1, 1), date(2009, 12, 31)),
    (18, date(2008, 1, 1), date(2007, 12, 31)),
])
def test_youth_groups_go_by_birth_year_with_the_first_of_january_edge(club, make_player, under, ok_born,
                                                                       refused_born):
    section = spring_open(club, age_under=under, age_year=2026)
    assert cs.register(section=section, user=make_player(born=ok_born), now=BEFORE).status == "registered"
    message = refusal(section, make_player(born=refused_born))
    assert message == (f"Born {refused_born.year}, and this U{under} section is for players born "
                       f"{2026 - under} or later.")


def test_the_issue_example_born_2013_in_a_u12_of_2026(club, make_player):
    section = spring_open(club, age_under=12)  # the year of the start: 2026
    assert refusal(section, make_player(born=date(2013, 12, 31))) == (
        "Born 2013, and this U12 section is for players born 2014 or later.")


@pytest.mark.parametrize(("over", "ok_born", "refused_born"), [
    (50, date(1976, 12, 31), date(1977, 1, 1)),
    (65, date(1961, 12, 31), date(1962, 1, 1)),
])
def test_senior_groups_count_the_age_reached_in_the_year(club, make_player, over, ok_born, refused_born):
    section = spring_open(club, age_over=over, age_year=2026)
    cs.register(section=section, user=make_player(born=ok_born), now=BEFORE)
    assert refusal(section, make_player(born=refused_born)) == (
        "Born 1977, and this 50+ section is for players born 1976 or earlier." if over == 50 else
        "Born 1962, and this 65+ section is for players born 1961 or earlier.")


def test_age_on_a_cutoff_date_is_inclusive_at_both_ends(club, make_player):
    section = spring_open(club, age_cutoff=date(2026, 9, 1), min_age=10, max_age=12)
    cs.register(section=section, user=make_player(born=date(2016, 9, 1)), now=BEFORE)  # 10 that day
    cs.register(section=section, user=make_player(born=date(2013, 9, 2)), now=BEFORE)  # 12 that day
    assert refusal(section, make_player(born=date(2016, 9, 2))) == (
        "Aged 9 on Tue 1 Sep 2026, and this section is for ages 10 and over.")
    assert refusal(section, make_player(born=date(2013, 9, 1))) == (
        "Aged 13 on Tue 1 Sep 2026, and this section is for ages up to 12.")


def test_a_29_february_birthday_counts_from_1_march_in_other_years(club, make_player):
    leapling = make_player(born=date(2016, 2, 29))
    on_28 = spring_open(club, name="A", age_cutoff=date(2026, 2, 28), min_age=10)
    on_1 = spring_open(club, name="B", age_cutoff=date(2026, 3, 1), min_age=10)
    assert "Aged 9 on Sat 28 Feb 2026" in refusal(on_28, leapling)
    cs.register(section=on_1, user=leapling, now=BEFORE)


def test_the_season_year_is_the_default_for_birth_year_groups(club, make_player):
    from league.models import League, Season

    league = League.objects.create(club=club, name="Juniors", slug="juniors")
    season = Season.objects.create(league=league, name="2027", slug="2027", year=2027)
    tournament = cs.create_tournament(club=club, name="Winter", starts_at=START, season=season)
    section = cs.create_section(tournament=tournament, name="U12", format="swiss", age_under=12,
                                rule_set=game_rule_sets.standard_rule_set("classic"))
    cs.register(section=section, user=make_player(born=date(2015, 1, 1)), now=BEFORE)
    assert "born 2015 or later" in refusal(section, make_player(born=date(2014, 12, 31)))


def rate(user, value):
    Rating.objects.update_or_create(user=user, variant="classic", list_key="league", defaults={"rating": value})


def test_rating_band_edges_are_inclusive_and_the_rating_is_frozen_at_registration(club, make_player):
    section = spring_open(club, rating_min=1400, rating_max=1600)
    low, high, below, above, unrated = (make_player() for _ in range(5))
    rate(low, 1400)
    rate(high, 1600)
    rate(below, 1399.5)
    rate(above, 1600.4)
    entry = cs.register(section=section, user=low, now=BEFORE)
    cs.register(section=section, user=high, now=BEFORE)
    assert refusal(section, below) == "Rated 1400, and this section is for players rated 1400 to 1600."
    assert refusal(section, above) == "Rated 1600, and this section is for players rated 1400 to 1600."
    assert refusal(section, unrated) == "Unrated, and this section is for players rated 1400 to 1600."
    rate(low, 1900)  # later games do not move a player out of a band they entered
    entry.refresh_from_db()
    assert entry.rating == 1400


def test_unrated_players_may_enter_an_under_section(club, make_player):
    section = spring_open(club, rating_max=1400)
    assert cs.register(section=section, user=make_player(), now=BEFORE).rating is None


def test_members_only(club, make_player):
    section = spring_open(club, members_only=True)
    member, stranger = make_player(), make_player()
    MembershipFactory.create(club=club, user=member)
    cs.register(section=section, user=member, now=BEFORE)
    assert refusal(section, stranger) == "This section is for members of Chess club."


def test_capacity_duplicates_and_windows(club, make_player):
    section = spring_open(club, capacity=2, registration_opens_at=START - timedelta(days=7))
    a, b, c = make_player(), make_player(), make_player()
    assert refusal(section, a, now=START - timedelta(days=8)).startswith("Registration opens at")
    cs.register(section=section, user=a, now=BEFORE)
    with pytest.raises(ServiceError, match="already entered"):
        cs.register(section=section, user=a, now=BEFORE)
    cs.register(section=section, user=b, now=BEFORE)
    assert refusal(section, c) == "This section is full (2 players)."
    cs.withdraw(section=section, user=b, now=BEFORE)  # a place frees up before the start
    cs.register(section=section, user=c, now=BEFORE)
    assert refusal(section, make_player(), now=START) in ("Registration is closed.",
                                                         "This section is full (2 players).")
    cs.withdraw(section=section, user=c, now=BEFORE)
    assert refusal(section, make_player(), now=START) == "Registration is closed."


def test_too_young_to_play_is_refused_with_the_rules_reason(club, make_player):
    section = spring_open(club)
    toddler = make_player(born=date(2024, 1, 1))
    assert "at least 4" in refusal(section, toddler)


@pytest.mark.parametrize(("options", "message"), [
    ({"tiebreaks": ["buchholz", "coin-toss"]}, "Unknown tie-break 'coin-toss'"),
    ({"age_under": 11}, "Youth groups are U8"),
    ({"age_under": 12, "age_over": 50}, "not both"),
    ({"rating_min": 1600, "rating_max": 1400}, "minimum is above"),
    ({"format": "round-robin", "rounds": 5}, "Only a Swiss"),
    ({"format": "arena"}, "needs a duration"),
    ({"format": "round-robin", "late_entry_rounds": 2}, "Late entries"),
    ({"bye_points": 2}, "A bye is worth"),
    ({"capacity": 1}, "at least two"),
    ({"colour": "red"}, "Unknown section setting"),
])
def test_bad_section_settings_are_refused_and_nothing_is_created(club, options, message):
    from django_celery_beat.models import PeriodicTask

    with pytest.raises(ServiceError, match=message):
        spring_open(club, **options)
    assert not Section.objects.exists()
    assert not PeriodicTask.objects.filter(task="league.start_round").exists()


def test_a_section_schedules_round_one_as_a_one_off_beat_task(club):
    section = spring_open(club)
    round_one = section.round_set.get(number=1)
    task = round_one.start_task
    assert task.one_off and task.task == "league.start_round" and task.clocked.clocked_time == START
    assert task.args == f"[{section.pk}, 1]"


def test_check_in_window_and_no_shows_dropped_at_the_start(club, make_player):
    section = spring_open(club, check_in_opens_at=START - timedelta(hours=1),
                           check_in_closes_at=START - timedelta(minutes=5))
    players = [make_player() for _ in range(4)]
    for user in players:
        cs.register(section=section, user=user, now=BEFORE)
    with pytest.raises(ServiceError, match="Check-in is open from"):
        cs.check_in(section=section, user=players[0], now=START - timedelta(hours=2))
    for user in players[:3]:
        cs.check_in(section=section, user=user, now=START - timedelta(minutes=30))
    with pytest.raises(ServiceError, match="Check-in is open from"):
        cs.check_in(section=section, user=players[3], now=START - timedelta(minutes=4))
    cs.start_round(section_id=section.pk, number=1, now=START)
    late = Entry.objects.get(section=section, user=players[3])
    assert late.status == Entry.Status.WITHDRAWN and late.withdrawn_reason == "Did not check in."
    paired = set(section.pairings.values_list("first", flat=True)) | set(
        section.pairings.exclude(second=None).values_list("second", flat=True))
    assert paired == {u.pk for u in players[:3]}


def test_swiss_late_entries_join_the_next_round_until_the_limit(club, make_player):
    section = spring_open(club, rounds=4, late_entry_rounds=1)
    for _ in range(4):
        cs.register(section=section, user=make_player(), now=BEFORE)
    cs.start_round(section_id=section.pk, number=1, now=START)
    latecomer = make_player()
    entry = cs.register(section=section, user=latecomer, now=START + timedelta(minutes=1))
    assert entry.late and entry.joined_round == 2 and entry.seed == 5
    assert not section.pairings.filter(first=latecomer).exists()
    assert section.standings.get(user=latecomer).points == 0  # in the table at once
    Section.objects.filter(pk=section.pk).update(current_round=2)
    assert refusal(section, make_player(), now=START + timedelta(hours=1)) == (
        "Registration is closed: this section is under way.")


def test_no_late_entry_in_a_round_robin(club, make_player):
    section = spring_open(club, format="round-robin")
    for _ in range(3):
        cs.register(section=section, user=make_player(), now=BEFORE)
    cs.start_round(section_id=section.pk, number=1, now=START)
    assert refusal(section, make_player(), now=START) == "Registration is closed: this section is under way."


def test_the_demo_has_an_open_tournament_with_its_players_entered():
    from django.core.management import call_command

    from league.models import Tournament

    call_command("seed_demo", verbosity=0)
    call_command("seed_demo", verbosity=0)
    tournament = Tournament.objects.get(slug="demo-open")
    sections = {s.name: s for s in tournament.sections.all()}
    assert set(sections) == {"Open", "Under 16"}
    juniors = set(sections["Under 16"].entries.values_list("user__username", flat=True))
    assert juniors == {"ada", "jonas", "emily"}
    assert sections["Open"].entries.count() == 7
    assert sections["Open"].prizes.count() == 2
