"""The organiser picks a Swiss section's pairing system (FIDE Dutch or fast score
groups): declared like the other Swiss settings (form, API, refusals), fixed once round
1 starts, shown on the section page; a Dutch section's round is paired on the section
as TRF-16 (trf_state.section_tournament), the engine's start numbers mapped back to
players. The Dutch round runs the real engine and keeps what it was given."""

from __future__ import annotations

import copy
import importlib
from datetime import timedelta

import pytest
import yaml
from django.apps import apps
from django.urls import reverse
from django.utils import timezone

from accounts.errors import ServiceError
from games import rule_sets as game_rule_sets
from league import competitions as cs
from league.competitions import event_services, trf_state
from league.competitions.formats import section_settings
from league.competitions.formats.section_settings import SWISS_SYSTEM
from league.formats import dutch, explain, trf
from league.models import Entry, Round, Section
from tests.factories import ClubFactory, SectionFactory, players, section_with
from tests.support import api_as as api

from .support import decide, text_of, url

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("eager_celery")]


def new_section(format: str = "swiss", **options) -> Section:
    """Through create_section itself (the test factory makes its Swiss sections fast)."""
    club = ClubFactory.create(name="System club", slug="system-club")
    tournament = cs.create_tournament(club=club, name="System cup", starts_at=timezone.now() + timedelta(hours=1))
    if format == "arena":
        options.setdefault("arena_duration", timedelta(minutes=10))
    return cs.create_section(tournament=tournament, name="Open", rule_set=game_rule_sets.standard_rule_set("classic"),
                             format=format, **options)


# -- the setting ---------------------------------------------------------------------------


def test_a_new_swiss_section_is_paired_by_the_fide_dutch_system_unless_the_organiser_picks_fast():
    assert new_section().swiss_system == Section.SwissSystem.DUTCH
    Section.objects.all().delete()
    assert new_section(swiss_system="fast").swiss_system == Section.SwissSystem.FAST


def test_only_a_swiss_takes_a_pairing_system_and_only_dutch_or_fast():
    with pytest.raises(ServiceError) as refused:
        new_section("round-robin", swiss_system="fast")
    assert refused.value.code == "no-swiss-system" and "Only a Swiss section" in refused.value.message
    with pytest.raises(ServiceError) as refused:  # the Swiss's default is a value given too
        new_section("round-robin", swiss_system="dutch")
    assert refused.value.code == "no-swiss-system"
    assert new_section("round-robin").swiss_system is None  # none given: none at all
    assert new_section("single-elimination", swiss_system=None).swiss_system is None  # null: as not given (like rounds)
    with pytest.raises(ServiceError) as refused:
        new_section(swiss_system="monrad")
    assert refused.value.code == "bad-swiss-system"
    assert Section.objects.filter(format="swiss").count() == 0


def test_the_migration_keeps_existing_swiss_sections_fast_and_leaves_the_others_at_the_default():
    swiss = new_section()
    robin = Section.objects.create(**{f.attname: getattr(swiss, f.attname) for f in Section._meta.concrete_fields
                                      if f.attname not in ("id", "slug", "format")}, slug="rr", format="round-robin")
    migration = importlib.import_module("league.migrations.0009_section_swiss_system")
    migration.existing_swiss_stay_fast(apps, None)
    swiss.refresh_from_db()
    robin.refresh_from_db()
    assert swiss.swiss_system == "fast" and robin.swiss_system == "dutch"


def test_the_system_can_change_until_round_1_starts_and_is_refused_in_words_after(make_player, organiser):
    section = section_with(players(make_player, 4), format="swiss", rounds=3, start=False)
    assert cs.set_swiss_pairing(section_id=section.pk, swiss_system="dutch", by=organiser).swiss_system == "dutch"
    assert cs.set_swiss_pairing(section_id=section.pk, swiss_system="fast", by=organiser).swiss_system == "fast"
    with pytest.raises(ServiceError) as refused:
        cs.set_swiss_pairing(section_id=section.pk, swiss_system="bogus", by=organiser)
    assert refused.value.code == "bad-swiss-system"
    cs.start_round(section_id=section.pk, number=1, force=True)
    with pytest.raises(ServiceError) as refused:
        cs.set_swiss_pairing(section_id=section.pk, swiss_system="dutch", by=organiser)
    assert refused.value.code == "swiss-system-fixed"
    assert refused.value.message == ("Round 1 has started: this section stays paired by Fast score groups, as its "
                                     "rounds so far were.")
    section.refresh_from_db()
    assert section.swiss_system == "fast"
    robin = section_with(players(make_player, 3, prefix="r"), format="round-robin", start=False, tournament="RR")
    with pytest.raises(ServiceError) as refused:
        cs.set_swiss_pairing(section_id=robin.pk, swiss_system="fast", by=organiser)
    assert refused.value.code == "no-swiss-system"


def test_a_dutch_section_takes_at_most_its_player_limit(make_player, organiser, monkeypatch):
    # The limit (2,000: a round of that many takes about a minute to pair) made 3 here.
    monkeypatch.setattr(section_settings, "DUTCH_MOST_PLAYERS", 3)
    with pytest.raises(ServiceError) as refused:  # a capacity above it, at creation
        new_section(capacity=4)
    assert refused.value.code == "dutch-capacity" and "at most 3 players" in refused.value.message
    assert new_section(swiss_system="fast", capacity=4).capacity == 4  # the fast system has no such limit
    Section.objects.all().delete()
    dutch_section = new_section()  # no capacity: the limit is the Dutch's
    entrants = players(make_player, 4)
    for player in entrants[:3]:
        cs.register(section=dutch_section, user=player, now=timezone.now())
    with pytest.raises(ServiceError) as refused:
        cs.register(section=dutch_section, user=entrants[3], now=timezone.now())
    assert refused.value.code == "section-full"
    assert refused.value.message == "This section is full (3 players, the most the FIDE Dutch pairing system takes here)."
    # A fast section with more entrants than the limit cannot switch to the Dutch.
    fast = section_with(players(make_player, 4, prefix="f"), format="swiss", rounds=3, start=False, tournament="Fast")
    fast.swiss_system = "fast"
    fast.save(update_fields=["swiss_system"])
    with pytest.raises(ServiceError) as refused:
        cs.set_swiss_pairing(section_id=fast.pk, swiss_system="dutch", by=organiser)
    assert refused.value.code == "dutch-too-many-players"
    fast.refresh_from_db()
    assert fast.swiss_system == "fast"


def test_a_later_dutch_stage_takes_no_more_than_its_player_limit(club, organiser, monkeypatch):
    # The qualifiers of a stage are entered without registering: the limit is checked
    # on how many go through, when the stage is made and when it switches to the Dutch.
    monkeypatch.setattr(section_settings, "DUTCH_MOST_PLAYERS", 3)
    tournament = cs.create_tournament(club=club, name="Stages cup", starts_at=timezone.now() + timedelta(hours=1))
    rules = game_rule_sets.standard_rule_set("classic")
    first = cs.create_section(tournament=tournament, name="Open", format="swiss", rule_set=rules, swiss_system="fast")

    def stage(name: str, after: Section, **options) -> Section:
        return cs.create_section(tournament=tournament, name=name, format="swiss", previous_stage=after,
                                 rule_set=rules, **options)

    with pytest.raises(ServiceError) as refused:
        stage("Final", first, advance=4)
    assert refused.value.code == "bad-advance"
    assert refused.value.message == ("4 cannot go through into Final: it takes at most 3 players, the most the FIDE "
                                     "Dutch pairing system takes here.")
    later = stage("Final", first, advance=4, swiss_system="fast")
    with pytest.raises(ServiceError) as refused:
        cs.set_swiss_pairing(section_id=later.pk, swiss_system="dutch", by=organiser)
    assert refused.value.code == "dutch-too-many-players"
    later.refresh_from_db()
    assert later.swiss_system == "fast"
    assert stage("Last four", later, advance=3).swiss_system == "dutch"  # at the limit: taken


def test_the_organisers_form_offers_the_system_for_a_swiss_only(client, club, organiser):
    tournament = event_services.create_tournament(by=organiser, club=club, name="Form cup",
                                                  starts_at=timezone.now() + timedelta(days=1))
    client.force_login(organiser)
    fieldset = reverse("competitions:section-format-settings", args=[club.slug, tournament.slug])
    swiss = client.get(fieldset, {"format": "swiss"}).content.decode()
    assert 'name="swiss_system"' in swiss and "Pairing system" in swiss and "Swiss: pairing" not in swiss
    assert '<option value="dutch" selected>FIDE Dutch</option>' in swiss
    assert 'name="swiss_system"' not in client.get(fieldset, {"format": "round-robin"}).content.decode()
    made = client.post(reverse("competitions:section-new", args=[club.slug, tournament.slug]), {
        "name": "Blitz", "variant": "classic", "format": "swiss", "swiss_system": "fast", "observer_policy": "anyone",
        "bye_points": "1", "late_entry_rounds": "0", "grand_final": "reset", "cycles": "1", "placements": "none",
        "groups": "1",
    })
    assert made.status_code == 302, made.content.decode()[:2000]
    assert Section.objects.get(name="Blitz").swiss_system == "fast"


def test_the_api_takes_shows_and_documents_the_system(client, club, organiser):
    tournament = event_services.create_tournament(by=organiser, club=club, name="API cup",
                                                  starts_at=timezone.now() + timedelta(days=1))
    body = {"tournament": tournament.pk, "name": "Open", "variant": "classic", "format": "swiss"}
    made = api(organiser).post("/api/v1/sections/", body, format="json")
    assert made.status_code == 201 and made.json()["swiss_system"] == "dutch"
    fast = api(organiser).post("/api/v1/sections/", {**body, "name": "Arena-sized", "swiss_system": "fast"},
                               format="json")
    assert fast.status_code == 201 and fast.json()["swiss_system"] == "fast"
    refused = api(organiser).post("/api/v1/sections/", {**body, "name": "RR", "format": "round-robin",
                                                        "swiss_system": "fast"}, format="json")
    assert refused.status_code == 400 and refused.json()["code"] == "no-swiss-system"
    schema = yaml.safe_load(client.get("/api/schema/").content)["components"]["schemas"]
    assert "dutch" in schema["SectionCreateRequest"]["properties"]["swiss_system"]["description"]
    assert "FIDE Dutch" in schema["Section"]["properties"]["swiss_system"]["description"]


def _enum_and_nullable(schema, prop):
    """A property's allowed values (its enum, inline or a $ref'd component) and whether null is allowed."""
    values, nullable = [], bool(prop.get("nullable"))
    for part in [prop, *prop.get("oneOf", []), *prop.get("allOf", []), *prop.get("anyOf", [])]:
        if "$ref" in part:
            part = schema[part["$ref"].rsplit("/", 1)[-1]]
        values += [value for value in part.get("enum", []) if value is not None]
        nullable |= bool(part.get("nullable")) or None in part.get("enum", [])
    return sorted(values), nullable


def test_the_schema_lists_the_systems_and_shows_null_for_other_formats(client):
    schema = yaml.safe_load(client.get("/api/schema/").content)["components"]["schemas"]
    assert _enum_and_nullable(schema, schema["SectionCreateRequest"]["properties"]["swiss_system"]) == (
        ["dutch", "fast"], True)
    assert _enum_and_nullable(schema, schema["Section"]["properties"]["swiss_system"]) == (["dutch", "fast"], True)


def test_the_api_shows_no_system_on_other_formats_and_refuses_any_given(club, organiser):
    tournament = event_services.create_tournament(by=organiser, club=club, name="Null cup",
                                                  starts_at=timezone.now() + timedelta(days=1))
    body = {"tournament": tournament.pk, "variant": "classic"}
    for fmt in ("round-robin", "single-elimination"):
        made = api(organiser).post("/api/v1/sections/", {**body, "name": fmt, "format": fmt}, format="json")
        assert made.status_code == 201 and made.json()["swiss_system"] is None
        shown = api(organiser).get(f"/api/v1/sections/{made.json()['id']}/")
        assert shown.status_code == 200 and shown.json()["swiss_system"] is None
        for system in ("dutch", "fast", "monrad"):
            refused = api(organiser).post("/api/v1/sections/", {**body, "name": f"{fmt} {system}", "format": fmt,
                                                                "swiss_system": system}, format="json")
            assert refused.status_code == 400 and refused.json()["code"] == "no-swiss-system", refused.json()
    nothing = api(organiser).post("/api/v1/sections/", {**body, "name": "RR null", "format": "round-robin",
                                                        "swiss_system": None}, format="json")
    assert nothing.status_code == 201 and nothing.json()["swiss_system"] is None
    swiss = api(organiser).post("/api/v1/sections/", {**body, "name": "Swiss null", "format": "swiss",
                                                      "swiss_system": None}, format="json")
    assert swiss.status_code == 201 and swiss.json()["swiss_system"] == "dutch"  # null: the default


@pytest.mark.parametrize("system", [" dutch", "DUTCH", "dutch ", "monrad", ""])
def test_the_api_refuses_a_system_not_in_the_list_in_the_services_words(club, organiser, system):
    tournament = event_services.create_tournament(by=organiser, club=club, name="Enum cup",
                                                  starts_at=timezone.now() + timedelta(days=1))
    refused = api(organiser).post("/api/v1/sections/", {"tournament": tournament.pk, "name": "Open",
                                                        "variant": "classic", "format": "swiss",
                                                        "swiss_system": system}, format="json")
    assert refused.status_code == 400
    assert refused.json()["code"] == "bad-swiss-system"
    assert refused.json()["message"] == SWISS_SYSTEM.refusal[1]
    assert not Section.objects.filter(tournament=tournament).exists()


def test_the_section_page_says_which_system_pairs_a_swiss(client, club, organiser, make_player):
    fast = section_with(players(make_player, 2), format="swiss", rounds=1, start=False, tournament="Fast cup")
    assert "Paired by fast score groups" in text_of(client.get(url("section", fast)).content.decode())
    dutch_section = SectionFactory.create(tournament=fast.tournament, name="Main", swiss_system="dutch")
    page = text_of(client.get(url("section", dutch_section)).content.decode())
    assert "Paired by the FIDE Dutch system (C.04.3, 2025)" in page
    robin = SectionFactory.create(tournament=fast.tournament, name="Robin", format="round-robin")
    assert "Paired by" not in text_of(client.get(url("section", robin)).content.decode())


# -- the section as TRF-16, before a round ------------------------------------------------


def test_the_section_before_a_round_is_its_earlier_rounds_as_trf(make_player):
    section = section_with(players(make_player, 5), format="swiss", rounds=3, round_interval=timedelta(hours=1))
    decide(section)
    cs.start_round(section_id=section.pk, number=2, force=True)
    before_2 = trf_state.section_tournament(section, before_round=2)
    assert all(len(p.rounds) == 1 for p in before_2.players)
    assert before_2.header("XXR") == "3" and before_2.header("XXC") == "white1"
    whole = trf.read(cs.section_trf(Section.objects.get(pk=section.pk)))
    assert [p.rounds[:1] for p in whole.players] == [p.rounds for p in before_2.players]
    assert whole.header("092") == "Swiss" and all(len(p.rounds) == 2 for p in whole.players)


# -- a Dutch section's round: what the engine is given and how its answer is kept --------


def test_a_dutch_round_is_paired_on_the_section_as_trf_and_mapped_back_to_players(client, make_player, monkeypatch):
    """Round 2 of 5 players, one withdrawn: the engine is given round 1 and the absent
    player's Z, the section's bye points as the PAB's; its pairs, boards and reasons
    (start numbers) come back as the section's players."""
    people = players(make_player, 5)
    section = section_with(people, format="swiss", swiss_system="fast", rounds=3, bye_points="0.5",
                           round_interval=timedelta(hours=1))
    Section.objects.filter(pk=section.pk).update(swiss_system="dutch")  # round 1 by fast, as if chosen before
    decide(section)
    cs.withdraw(section=section, user=people[4])
    seen: dict = {}
    real_pair = dutch.pair

    def engine(tournament, round_number=None, **options):  # the real engine, its input kept
        seen.update(tournament=copy.deepcopy(tournament), round=round_number, points=options.get("points"))
        seen["pairs"] = real_pair(tournament, round_number, **options)
        return seen["pairs"]

    monkeypatch.setattr(dutch, "pair", engine)
    cs.start_round(section_id=section.pk, number=2, force=True)
    tournament = seen["tournament"]
    assert seen["round"] == 2 and seen["points"] == dutch.Points(pab=0.5)
    by_number = {p.number: p for p in tournament.players}
    assert [len(p.rounds) for p in tournament.players] == [1, 1, 1, 1, 2]
    assert by_number[5].rounds[-1] == trf.Game(None, "-", "Z")
    seed = dict(Entry.objects.filter(section=section).values_list("seed", "user_id"))
    round_2 = Round.objects.get(section=section, number=2)
    stored = list(round_2.pairings.order_by("board").values_list("board", "first_id", "second_id", "reasons"))
    pairs = seen["pairs"]
    assert [(b, f, s) for b, f, s, _ in stored] == [
        (board, seed[p.white], seed[p.black] if p.black else None) for board, p in enumerate(pairs, start=1)]
    assert [r for *_, r in stored] == [[reason.as_dict({n: seed[n] for n in seed}) for reason in p.reasons]
                                       for p in pairs]
    assert all(p.black for p in pairs)  # four players left: two pairs, no bye
    page = text_of(client.get(url("section", section)).content.decode())
    name = {e.seed: e.user.name for e in Entry.objects.filter(section=section).select_related("user__profile")}
    names = {seed[n]: name[n] for n in seed}
    for _, _, _, reasons in stored:
        for reason in reasons:
            assert explain.text(reason, names) in page
