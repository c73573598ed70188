"""Multi-stage events through the services, Celery eager (the real worker:
test_multi_stage_worker.py): groups then a knockout, a Swiss then its top 4, the
carry-over's rules and the refusals."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from accounts.errors import ServiceError
from accounts.models import Notice
from games import rule_sets as game_rule_sets
from league import competitions as cs
from league.competitions import refusals
from league.competitions.notices import notify_stage_waiting
from league.competitions.podium import podium
from league.formats.stages import knockout_seeds, snake_groups
from league.models import ClubMembership, Entry, Section, Standing, Tournament
from moderation import operations
from tests.factories import ClubFactory, players

from .support import play_out, text_of, url

pytestmark = pytest.mark.django_db(transaction=True)


def _tournament(name="Club championship"):
    club = ClubFactory.create(name="Chess club", slug="chess-club")
    return cs.create_tournament(club=club, name=name, starts_at=timezone.now() + timedelta(seconds=60))


def _section(tournament, name, format, **options):
    options.setdefault("starts_at", tournament.starts_at)
    return cs.create_section(tournament=tournament, name=name, format=format,
                             rule_set=game_rule_sets.standard_rule_set("classic"), **options)


def _two_stages(make_player, n, format, later="single-elimination", *, first=None, **settings):
    """A first stage of ``n`` players (registered, rated by their number so seeds are
    known) and a later stage due at once."""
    tournament = _tournament()
    stage_one = _section(tournament, "Stage one", format, **(first or {}))
    stage_two = _section(tournament, "Final stage", later, previous_stage=stage_one,
                         starts_at=timezone.now(), **settings)
    for i, user in enumerate(players(make_player, n)):
        entry = cs.register(section=stage_one, user=user)
        Entry.objects.filter(pk=entry.pk).update(rating=2000 - i)  # p001 is seed 1
    return stage_one, stage_two


def _seeds(section):
    return [e.user_id for e in Entry.objects.filter(section=section).order_by("seed")]


def _final_table(section):
    return list(Standing.objects.filter(section=section, final=True).order_by("rank").values_list("user_id", "rank"))


def test_groups_then_a_knockout_of_the_top_two_of_each_group(make_player, eager_celery):
    groups, ko = _two_stages(make_player, 8, "round-robin", first={"groups": 2}, advance=2)
    cs.start_round(section_id=groups.pk, number=1, force=True)
    assert cs.start_round(section_id=ko.pk, number=1, force=True) is None  # waits for the groups
    play_out([groups.pk, ko.pk])
    groups.refresh_from_db()
    ko.refresh_from_db()
    assert groups.status == ko.status == Section.Status.FINISHED
    assert groups.total_rounds == 3  # two groups of four
    # Each group's table ranks within the group; the knockout's seeds are the cross-over of its top two.
    seeds = dict(Entry.objects.filter(section=groups).values_list("seed", "user_id"))
    tables = []
    for members in snake_groups(8, 2):
        ids = {seeds[s] for s in members}
        ranked = sorted(Standing.objects.filter(section=groups, user_id__in=ids).values_list("rank", "user_id"),
                        key=lambda row: (row[0], next(k for k, v in seeds.items() if v == row[1])))
        assert ranked[0][0] == 1
        tables.append([user_id for _, user_id in ranked][:2])
    assert _seeds(ko) == knockout_seeds(tables)
    a1, a2 = tables[0]
    b1, b2 = tables[1]
    assert _seeds(ko) == [a1, b1, a2, b2]  # 1 v 4 is A1 v B2, 2 v 3 is B1 v A2
    assert ko.tournament.status == Tournament.Status.FINISHED
    winner = _final_table(ko)[0][0]
    assert Standing.objects.get(section=ko, user_id=winner).rank == 1
    # The event is announced once, by its last stage: the groups have no podium, and each
    # of their entrants hears whether they went through (and as which seed).
    assert podium(groups) is None and podium(ko).winners[0].user_id == winner
    stage_notices = {n.recipient_id: n for n in Notice.objects.filter(cause__endswith=f"section:{groups.pk}")}
    assert set(stage_notices) == set(Entry.objects.filter(section=groups).values_list("user_id", flat=True))
    for seed, user_id in enumerate(_seeds(ko), start=1):
        assert f"You go through to Final stage as seed {seed}." in stage_notices[user_id].message
    out = set(stage_notices) - set(_seeds(ko))
    assert len(out) == 4 and all("do not go through" in stage_notices[u].message for u in out)


def test_an_earlier_stage_s_results_page_leads_to_the_last_stage_s(client, make_player, eager_celery):
    swiss, ko = _two_stages(make_player, 4, "swiss", first={"rounds": 1, "swiss_system": "fast"}, advance=2)
    cs.start_round(section_id=swiss.pk, number=1, force=True)
    play_out([swiss.pk, ko.pk])
    t = swiss.tournament
    response = client.get(reverse("competitions:section-results", args=[t.club.slug, t.slug, swiss.slug]))
    assert response.status_code == 302
    assert response["Location"] == reverse("competitions:section-results", args=[t.club.slug, t.slug, ko.slug])


def test_swiss_then_the_top_four(make_player, eager_celery):
    swiss, ko = _two_stages(make_player, 8, "swiss", first={"rounds": 3, "swiss_system": "fast"}, advance=4)
    cs.start_round(section_id=swiss.pk, number=1, force=True)
    play_out([swiss.pk, ko.pk])
    swiss.refresh_from_db()
    ko.refresh_from_db()
    assert swiss.status == ko.status == Section.Status.FINISHED
    seed_of = dict(Entry.objects.filter(section=swiss).values_list("user_id", "seed"))
    top = [u for u, _ in sorted(_final_table(swiss), key=lambda row: (row[1], seed_of[row[0]]))][:4]
    assert _seeds(ko) == top
    assert Entry.objects.filter(section=ko).count() == 4
    assert _final_table(ko)[0][1] == 1


def test_the_carry_over_happens_once_and_keeps_the_previous_ratings(make_player, eager_celery):
    swiss, ko = _two_stages(make_player, 6, "swiss", first={"rounds": 2, "swiss_system": "fast"}, advance=4)
    Section.objects.filter(pk=ko.pk).update(starts_at=timezone.now() + timedelta(hours=1))  # not due yet
    cs.start_round(section_id=swiss.pk, number=1, force=True)
    play_out([swiss.pk])
    ko.refresh_from_db()
    assert ko.status == Section.Status.REGISTRATION  # carried over, starts at its own time
    first = list(Entry.objects.filter(section=ko).order_by("seed").values_list("user_id", "seed", "rating", "status"))
    assert len(first) == 4 and [row[1] for row in first] == [1, 2, 3, 4]
    ratings = dict(Entry.objects.filter(section=swiss).values_list("user_id", "rating"))
    assert all(rating == ratings[user_id] for user_id, _, rating, _ in first)
    assert all(status == Entry.Status.CHECKED_IN for *_, status in first)
    assert cs.carry_over_stage(section_id=ko.pk) == []  # a retried task adds nobody
    assert list(Entry.objects.filter(section=ko).order_by("seed").values_list("user_id", "seed", "rating",
                                                                              "status")) == first


def test_a_later_stage_waiting_for_its_time_tells_the_organisers_once(make_player, eager_celery):
    swiss, ko = _two_stages(make_player, 4, "swiss", first={"rounds": 1, "swiss_system": "fast"}, advance=2)
    club = swiss.tournament.club
    organiser, member = make_player(username="org1"), make_player(username="member1")
    ClubMembership.objects.create(club=club, user=organiser, role=ClubMembership.Role.ORGANISER)
    ClubMembership.objects.create(club=club, user=member, role=ClubMembership.Role.MEMBER)
    starts = (timezone.now() + timedelta(hours=3)).replace(second=0, microsecond=0)
    Section.objects.filter(pk=ko.pk).update(starts_at=starts)  # not due: it waits for its time or "Start now"
    cs.start_round(section_id=swiss.pk, number=1, force=True)
    play_out([swiss.pk])
    ko.refresh_from_db()
    assert ko.status == Section.Status.REGISTRATION and Entry.objects.filter(section=ko).count() == 2
    [notice] = Notice.objects.filter(cause=f"stage-waiting:{ko.pk}")
    assert notice.recipient_id == organiser.pk  # the club's organisers, not its members nor the players
    assert notice.kind == Notice.Kind.ORGANISING and notice.get_kind_display() == "Your club's events"
    assert notice.message.startswith("Club championship: Stage one is over and its 2 qualifiers are in Final stage,")
    assert f"{starts:%H:%M} UTC" in notice.message and "“Start now” on the tournament's page" in notice.message
    t = ko.tournament
    assert notice.url == reverse("competitions:tournament", args=[t.club.slug, t.slug]) + "#org-heading"
    # The stage's end handled twice (a retried task, a lost one made good): still one notice.
    cs.carry_over_stage(section_id=ko.pk)
    notify_stage_waiting(ko, 2)
    assert Notice.objects.filter(cause=f"stage-waiting:{ko.pk}").count() == 1


def test_a_later_stage_due_at_once_starts_without_a_notice_to_the_organisers(make_player, eager_celery):
    swiss, ko = _two_stages(make_player, 4, "swiss", first={"rounds": 1, "swiss_system": "fast"}, advance=2)
    ClubMembership.objects.create(club=swiss.tournament.club, user=make_player(username="org1"),
                                  role=ClubMembership.Role.ORGANISER)
    cs.start_round(section_id=swiss.pk, number=1, force=True)
    play_out([swiss.pk])
    ko.refresh_from_db()
    assert ko.status == Section.Status.RUNNING
    assert not Notice.objects.filter(cause=f"stage-waiting:{ko.pk}").exists()


def test_a_withdrawn_player_does_not_go_through(make_player, eager_celery):
    swiss, ko = _two_stages(make_player, 6, "swiss", first={"rounds": 2, "swiss_system": "fast"}, advance=2)
    Section.objects.filter(pk=ko.pk).update(starts_at=timezone.now() + timedelta(hours=1))
    cs.start_round(section_id=swiss.pk, number=1, force=True)
    play_out([swiss.pk])
    leader = _final_table(swiss)[0][0]
    # Withdrawn after the end (an arbiter's decision, say): the next ones go through instead.
    Entry.objects.filter(section=swiss, user_id=leader).update(status=Entry.Status.WITHDRAWN)
    Entry.objects.filter(section=ko).delete()
    cs.carry_over_stage(section_id=ko.pk)
    assert leader not in _seeds(ko) and len(_seeds(ko)) == 2


def test_nobody_registers_in_a_later_stage(make_player):
    _, ko = _two_stages(make_player, 4, "swiss", advance=2)
    with pytest.raises(ServiceError) as refused:
        cs.register(section=ko, user=make_player(username="late"))
    assert refused.value.code == "later-stage" and "Stage one" in refused.value.message
    assert not Entry.objects.filter(section=ko).exists()


def test_a_later_stage_s_preview_says_when_it_starts_and_offers_no_start(client, make_player):
    """Its players come from the Groups when they finish: the round's preview says so,
    not "Fewer than two players: starting now would cancel the section", with no
    Publish; an organiser's start and "start now" give the same words."""
    groups, knockout = _two_stages(make_player, 4, "round-robin", first={"groups": 2}, advance=1)
    organiser = make_player(username="olivia")
    ClubMembership.objects.create(club=groups.tournament.club, user=organiser, role=ClubMembership.Role.ORGANISER)
    words = ("Final stage starts when Stage one finishes, with the winner of each group: its round 1 is paired "
             "then.")
    with pytest.raises(ServiceError) as refused:
        cs.preview_round(round_=knockout.round_set.get(number=1))
    assert (refused.value.code, refused.value.message) == ("later-stage", words)
    client.force_login(organiser)
    t = knockout.tournament
    page = client.get(reverse("arbiter:round-preview", args=[t.club.slug, t.slug, knockout.slug, 1])).content.decode()
    assert words in text_of(page) and 'class="notice later-stage"' in page  # a fact, not an error
    assert "Fewer than two players" not in page and "Publish now" not in page
    assert refusals.start_section_refusal(knockout, organiser) == ("later-stage", words)
    with pytest.raises(ServiceError) as refused:
        operations.start_round_now(actor=organiser, round_id=knockout.round_set.get(number=1).pk)
    assert refused.value.message == words


def test_too_few_players_for_the_groups_play_in_fewer_groups(make_player, eager_celery):
    tournament = _tournament()
    section = _section(tournament, "Groups", "round-robin", groups=4)
    for user in players(make_player, 5):
        cs.register(section=section, user=user)
    cs.start_round(section_id=section.pk, number=1, force=True)
    section.refresh_from_db()
    assert section.groups == 2 and section.total_rounds == 3  # groups of 3 and 2


@pytest.mark.parametrize("later, code", [
    ({"advance": 2}, "bad-stage"),  # advance without a previous stage
    ({"previous_stage": "other", "advance": 2}, "bad-stage"),
    ({"previous_stage": "first", "advance": 9}, "bad-advance"),  # more than the first stage's capacity (8)
    ({"previous_stage": "first", "advance": 4, "capacity": 3}, "bad-advance"),  # more than its own capacity
    ({"previous_stage": "first", "advance": 1}, "bad-advance"),  # one player is no stage
    ({"previous_stage": "first"}, "bad-advance"),
    ({"previous_stage": "groups", "advance": 3}, "bad-advance"),  # groups of 2 (capacity 4, 2 groups)
    ({"groups": 3, "capacity": 5}, "bad-groups"),  # groups of fewer than two
    ({"previous_stage": "taken", "advance": 2}, "bad-stage"),  # already followed
])
def test_stage_nonsense_is_refused_and_nothing_is_created(make_player, later, code):
    tournament = _tournament()
    first = _section(tournament, "First", "swiss", capacity=8)
    groups = _section(tournament, "Groups", "round-robin", groups=2, capacity=4)
    taken = _section(tournament, "Taken", "swiss")
    _section(tournament, "After taken", "single-elimination", previous_stage=taken, advance=2)
    other = _section(_tournament_two(), "Elsewhere", "swiss")
    named = {"first": first, "groups": groups, "other": other, "taken": taken}
    if "previous_stage" in later:
        later = {**later, "previous_stage": named[later["previous_stage"]]}
    before = Section.objects.count()
    fmt = "round-robin" if "groups" in later else "single-elimination"
    with pytest.raises(ServiceError) as refused:
        _section(tournament, "Knockout", fmt, **later)
    assert refused.value.code == code
    assert Section.objects.count() == before


def test_groups_are_for_a_round_robin_only(make_player):
    with pytest.raises(ServiceError) as refused:
        _section(_tournament(), "Swiss", "swiss", groups=2)
    assert refused.value.code == "bad-groups"


def _tournament_two():
    club = ClubFactory.create(name="Other club", slug="other-club")
    return cs.create_tournament(club=club, name="Other", starts_at=timezone.now() + timedelta(hours=1))



# -- pages and the API ----------------------------------------------------------------------


def test_an_organiser_runs_a_two_stage_championship_from_the_pages(client, club, organiser, make_player,
                                                                    eager_celery):
    client.force_login(organiser)
    tournament = cs.create_tournament(club=club, name="Club championship",
                                      starts_at=timezone.now() + timedelta(days=1))
    new_section = reverse("competitions:section-new", args=[club.slug, tournament.slug])
    form = {"variant": "classic", "rated": "on", "observer_policy": "anyone", "grand_final": "reset", "cycles": "1",
            "bye_points": "1", "late_entry_rounds": "0"}
    assert client.post(new_section, {**form, "name": "Groups", "format": "round-robin", "groups": "2"}).status_code == 302
    groups = tournament.sections.get(name="Groups")
    refused = client.post(new_section, {**form, "name": "Knockout", "format": "single-elimination",
                                        "previous_stage": groups.pk})
    assert "Say how many players go through" in refused.content.decode()
    assert client.post(new_section, {**form, "name": "Knockout", "format": "single-elimination",
                                     "previous_stage": groups.pk, "advance": "2"}).status_code == 302
    knockout = tournament.sections.get(name="Knockout")
    assert (knockout.previous_stage, knockout.advance, groups.groups) == (groups, 2, 2)

    page = text_of(client.get(reverse("competitions:tournament", args=[club.slug, tournament.slug])).content.decode())
    assert page.index("Stage 1 of 2") < page.index("Stage 2 of 2")  # stages in order
    assert "Stage 1 of 2: the top 2 of each group go through to Knockout" in page
    assert "Stage 2 of 2 (single elimination): the top 2 of each group of Groups play here" in page
    later = client.get(url("section", knockout)).content.decode()
    assert "Previous stage:" in later and "This is a later stage" in later and ">Register<" not in later
    # It takes no entries: no "Registration" badge, and not "Who may enter: Everyone".
    assert ">Next stage</span>" in later and ">Registration</span>" not in later
    assert "The players going through from Groups" in text_of(later) and "Everyone" not in text_of(later)

    for user in players(make_player, 8):
        cs.register(section=groups, user=user)
    client.post(reverse("competitions:tournament-action", args=[club.slug, tournament.slug]), {"action": "start"})
    knockout.refresh_from_db()
    assert knockout.status == Section.Status.REGISTRATION  # "Start now" leaves the later stage waiting
    client.post(url("section-start", knockout))
    knockout.refresh_from_db()
    assert knockout.status == Section.Status.REGISTRATION  # refused: the groups are being played
    play_out([groups.pk])
    first = text_of(client.get(url("section", groups)).content.decode())
    assert "Group A (final)" in first and "Group B (final)" in first and "Next stage: Knockout" in first
    # The qualifiers are in at once; the knockout keeps its own start time, or starts now.
    assert Entry.objects.filter(section=knockout).count() == 4
    client.post(url("section-start", knockout))
    play_out([knockout.pk])
    knockout.refresh_from_db()
    assert knockout.status == Section.Status.FINISHED
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED


def test_the_api_refuses_a_stage_of_another_tournament(club, organiser, make_player):
    from rest_framework.test import APIClient

    elsewhere = _section(_tournament_two(), "Elsewhere", "swiss")
    tournament = cs.create_tournament(club=club, name="Cup", starts_at=timezone.now() + timedelta(days=1))
    client = APIClient()
    client.force_authenticate(organiser)
    answer = client.post("/api/v1/sections/", {
        "tournament": tournament.pk, "name": "Knockout", "variant": "classic", "format": "single-elimination",
        "previous_stage": elsewhere.pk, "advance": 2}, format="json")
    assert answer.status_code == 400 and answer.json()["code"] == "bad-stage"
    assert not tournament.sections.exists()
    first = _section(tournament, "Swiss", "swiss")
    answer = client.post("/api/v1/sections/", {
        "tournament": tournament.pk, "name": "Knockout", "variant": "classic", "format": "single-elimination",
        "previous_stage": first.pk, "advance": 4}, format="json")
    assert answer.status_code == 201, answer.content
    assert answer.json()["previous_stage"] == first.pk and answer.json()["advance"] == 4


def test_a_stage_followed_by_another_is_not_deleted_alone_but_its_tournament_is(make_player):
    from django.db.models import RestrictedError

    first, later = _two_stages(make_player, 4, "swiss", advance=2)
    with pytest.raises(RestrictedError):
        first.delete()
    first.tournament.delete()
    assert not Section.objects.filter(pk__in=[first.pk, later.pk]).exists()
