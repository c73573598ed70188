"""Baku acceleration (FIDE C.04.5.1) for a Swiss section paired by the FIDE Dutch system:
the organiser's setting (refused elsewhere, fixed once round 1 starts), the virtual
points written into the section's TRF as XXA lines (so the Dutch pairer, the arbiter's
export and any other program read the same values), and scores that never show them."""

from __future__ import annotations

from datetime import timedelta

import pytest
import yaml
from django.core.management import call_command
from django.db import IntegrityError
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from accounts.errors import ServiceError
from league import competitions as cs
from league.competitions import event_services, selectors, trf_state
from league.formats import dutch, swiss_cli, trf
from league.models import Entry, Pairing, Round, Section, Standing
from moderation.models import AuditEntry
from tests.factories import SectionFactory, players, section_with
from tests.support import api_as as api

from .support import decide, text_of, url

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("eager_celery")]

GROUP_A, GROUP_B = {1, 2, 3, 4}, {5, 6, 7, 8}  # 8 players: 2 * ceil(8 / 4) in group A


def baku_section(make_player, n: int = 8, rounds: int = 4, **options) -> Section:
    options.setdefault("round_interval", timedelta(hours=1))
    return section_with(players(make_player, n), format="swiss", swiss_system="dutch", acceleration="baku",
                        rounds=rounds, **options)


def seeds(section: Section) -> dict[int, int]:
    return {user: seed or 0 for user, seed in Entry.objects.filter(section=section).values_list("user_id", "seed")}


def stored_pairs(section: Section, number: int) -> list[tuple[int, int | None]]:
    """Round ``number``'s boards in order, by start number."""
    seed = seeds(section)
    return [(seed[p.first_id], seed[p.second_id] if p.second_id else None)
            for p in Pairing.objects.filter(round__section=section, round__number=number).order_by("board")]


def engine_pairs(tournament: trf.Tournament, number: int, section: Section) -> list[tuple[int, int | None]]:
    return [(p.white, p.black) for p in dutch.pair(tournament, number,
                                                   points=dutch.Points(pab=float(section.bye_points)))]


def as_sets(pairs) -> set[frozenset]:
    return {frozenset(pair) for pair in pairs}


# -- the pairings ---------------------------------------------------------------------------


def test_round_1_pairs_group_a_among_itself_and_group_b_among_itself(make_player):
    section = baku_section(make_player)
    before = trf_state.section_tournament(section, before_round=1)
    # 4 rounds: 2 accelerated; group A has 1 virtual point in round 1, 0.5 in round 2.
    assert [text for tag, text in before.headers if tag == "XXA"] == [
        f"{n:>4}  1.0  0.5" for n in sorted(GROUP_A)]
    assert trf.declared(before).virtual_points == {n: (1.0, 0.5) for n in GROUP_A}
    pairs = stored_pairs(section, 1)
    assert len(pairs) == 4
    assert all(set(pair) <= GROUP_A or set(pair) <= GROUP_B for pair in pairs), pairs
    assert as_sets(pairs) == {frozenset(p) for p in ((1, 3), (2, 4), (5, 7), (6, 8))}


def test_round_2_is_the_engines_pairing_of_the_section_with_its_virtual_points(make_player):
    section = baku_section(make_player)
    decide(section)  # the higher seed wins: 1, 2, 5 and 6 have a point
    cs.start_round(section_id=section.pk, number=2, force=True)
    section.refresh_from_db()
    before = trf_state.section_tournament(section, before_round=2)
    assert stored_pairs(section, 2) == engine_pairs(before, 2, section)
    # Pairing scores 1.5 (1, 2), 1 (5, 6), 0.5 (3, 4), 0 (7, 8): each pair within its group.
    assert as_sets(stored_pairs(section, 2)) == {frozenset(p) for p in ((1, 2), (5, 6), (3, 4), (7, 8))}
    unaccelerated = trf.Tournament([h for h in before.headers if h[0] != "XXA"], before.players)
    assert as_sets(engine_pairs(unaccelerated, 2, section)) != as_sets(stored_pairs(section, 2))


def test_group_a_is_round_1s_field_not_the_entries_who_did_not_play_it(make_player):
    """Twelve entries, four withdrawn before the start: group A is the top 4 of the 8 who
    play (2 * ceil(8 / 4)), in round 1 as in the export after it."""
    people = players(make_player, 12)
    section = section_with(people, format="swiss", swiss_system="dutch", acceleration="baku", rounds=4,
                           round_interval=timedelta(hours=1), start=False)
    for user in people[8:]:
        cs.withdraw(section=section, user=user)
    cs.start_round(section_id=section.pk, number=1, force=True)
    section.refresh_from_db()
    paired = sorted(n for pair in stored_pairs(section, 1) for n in pair if n is not None)
    assert paired == list(range(1, 9))
    assert all(set(pair) <= GROUP_A or set(pair) <= GROUP_B for pair in stored_pairs(section, 1))
    for before_round in (1, 2, None):
        assert set(trf.declared(trf_state.section_tournament(section, before_round=before_round))
                   .virtual_points) == GROUP_A


def test_the_export_carries_the_xxa_lines_and_an_arbiters_check_agrees(make_player, tmp_path, capsys):
    section = baku_section(make_player)
    for number in range(1, 5):
        decide(section)
        if number < 4:
            cs.start_round(section_id=section.pk, number=number + 1, force=True)
    section.refresh_from_db()
    assert section.status == Section.Status.FINISHED
    export = cs.section_trf(section)
    assert [line for line in export.splitlines() if line.startswith("XXA")] == [
        f"XXA {n:>4}  1.0  0.5" for n in sorted(GROUP_A)]
    path = tmp_path / "baku.trf"
    path.write_text(export, encoding="utf-8")
    assert swiss_cli.main(["--dutch", str(path), "-c"]) == swiss_cli.OK
    assert "4 of 4 rounds agree with the file (dutch)." in capsys.readouterr().out


def test_standings_published_scores_and_board_order_count_real_points_only(client, make_player):
    section = baku_section(make_player)
    decide(section)  # 5 and 7, 6 and 8: the higher seed wins
    seed = {number: user for user, number in seeds(section).items()}
    for pair in ((1, 3), (2, 4)):  # group A's games drawn: half a point each
        drawn = Pairing.objects.get(round__section=section, round__number=1, first__in=[seed[n] for n in pair])
        cs.correct_result(pairing_id=drawn.pk, result="draw", reason="Agreed draw")
    cs.start_round(section_id=section.pk, number=2, force=True)
    section.refresh_from_db()
    real = {1: 0.5, 2: 0.5, 3: 0.5, 4: 0.5, 5: 1.0, 6: 1.0, 7: 0.0, 8: 0.0}
    standing = {seeds(section)[s.user_id]: s.points for s in Standing.objects.filter(section=section)}
    assert standing == real
    results = selectors.section_results(section)
    assert {n: results.points(user) for n, user in seed.items()} == real
    shown = {row["username"]: row["points"] for row in api().get(f"/api/v1/sections/{section.pk}/standings/").json()}
    usernames = dict(Entry.objects.filter(section=section).values_list("seed", "user__username"))
    assert {n: float(shown[usernames[n]]) for n in real} == real
    exported = trf.read(cs.section_trf(section))
    assert {p.number: p.points for p in exported.players} == real  # the points column: no virtual points
    # Boards by real scores (C.04.2): the pairs with a 1-point player lead. By pairing
    # scores (group A's 0.5 + 0.5 virtual, level with them) group A's top pair would.
    before = trf_state.section_tournament(section, before_round=2)
    boards = stored_pairs(section, 2)
    assert boards == trf.published_order(boards, before, 2)
    assert {5, 6} & set(boards[0])
    pairing_score = {n: real[n] + (0.5 if n in GROUP_A else 0.0) for n in real}
    by_pairing_score = sorted(boards, key=lambda pair: (-max(pairing_score[n] for n in pair),
                                                        -min(pairing_score[n] for n in pair), min(pair)))
    assert by_pairing_score != boards
    page = text_of(client.get(url("section", section)).content.decode())
    assert "with Baku acceleration (C.04.5.1): virtual points in rounds 1\N{EN DASH}2" in page


# -- the setting and its refusals ---------------------------------------------------------


def new_section(format: str = "swiss", **options) -> Section:
    return SectionFactory.create(format=format, **options)


@pytest.mark.parametrize(("format", "options", "code", "words"), [
    ("round-robin", {}, "no-acceleration", "Only a Swiss section paired by the FIDE Dutch system"),
    ("single-elimination", {}, "no-acceleration", "Only a Swiss section paired by the FIDE Dutch system"),
    ("swiss", {"swiss_system": "fast"}, "acceleration-needs-dutch", "FIDE Dutch pairing system only"),
    ("swiss", {"swiss_system": "dutch", "acceleration": "bogus"}, "bad-acceleration", "none"),
])
def test_acceleration_is_refused_off_a_dutch_swiss_and_nothing_is_made(format, options, code, words):
    with pytest.raises(ServiceError) as refused:
        new_section(format, **{"acceleration": "baku", **options})
    assert refused.value.code == code and words in refused.value.message
    assert not Section.objects.exists()


def test_the_default_is_none_and_a_dutch_swiss_takes_baku():
    assert new_section("round-robin").acceleration == Section.Acceleration.NONE
    assert new_section(swiss_system="dutch").acceleration == Section.Acceleration.NONE
    assert new_section(swiss_system="dutch", acceleration="baku").acceleration == Section.Acceleration.BAKU


def test_acceleration_changes_until_round_1_starts_audited_and_is_refused_in_words_after(make_player, organiser):
    section = section_with(players(make_player, 4), format="swiss", swiss_system="dutch", rounds=3, start=False)
    assert cs.set_swiss_pairing(section_id=section.pk, acceleration="baku", by=organiser).acceleration == "baku"
    entry = AuditEntry.objects.get(action="section.acceleration")
    assert entry.actor == organiser and entry.details == {"from": "none", "to": "baku"}
    with pytest.raises(ServiceError) as refused:  # the fast system has no virtual points
        cs.set_swiss_pairing(section_id=section.pk, swiss_system="fast", by=organiser)
    assert refused.value.code == "acceleration-needs-dutch"
    with pytest.raises(ServiceError) as refused:
        cs.set_swiss_pairing(section_id=section.pk, acceleration="monrad", by=organiser)
    assert refused.value.code == "bad-acceleration"
    cs.start_round(section_id=section.pk, number=1, force=True)
    with pytest.raises(ServiceError) as refused:
        cs.set_swiss_pairing(section_id=section.pk, acceleration="none", by=organiser)
    assert refused.value.code == "acceleration-fixed"
    assert refused.value.message == ("Round 1 has started: this section keeps Baku acceleration, as its rounds so "
                                     "far were paired with it.")
    section.refresh_from_db()
    assert (section.acceleration, section.swiss_system) == ("baku", "dutch")
    assert AuditEntry.objects.filter(action="section.acceleration").count() == 1
    fast = section_with(players(make_player, 2, prefix="f"), format="swiss", rounds=1, start=False, tournament="Fast")
    with pytest.raises(ServiceError) as refused:
        cs.set_swiss_pairing(section_id=fast.pk, acceleration="baku", by=organiser)
    assert refused.value.code == "acceleration-needs-dutch"
    robin = section_with(players(make_player, 3, prefix="r"), format="round-robin", start=False, tournament="RR")
    with pytest.raises(ServiceError) as refused:
        cs.set_swiss_pairing(section_id=robin.pk, acceleration="baku", by=organiser)
    assert refused.value.code == "no-acceleration"
    assert Section.objects.filter(acceleration="baku").count() == 1


def test_the_database_holds_acceleration_to_a_dutch_swiss(make_player):
    robin = section_with(players(make_player, 3), format="round-robin", start=False)
    with pytest.raises(IntegrityError):
        Section.objects.filter(pk=robin.pk).update(acceleration="baku")


def test_the_migration_applies_backwards_and_forwards():
    call_command("migrate", "league", "0010", verbosity=0)
    call_command("migrate", "league", verbosity=0)
    call_command("makemigrations", "league", "--check", "--dry-run", verbosity=0)  # the model is its migrations'
    assert Section._meta.get_field("acceleration").default == "none"


# -- the form, the API and the schema -----------------------------------------------------


def test_the_organisers_form_offers_acceleration_for_a_swiss_only(client, club, organiser):
    tournament = event_services.create_tournament(by=organiser, club=club, name="Form cup",
                                                  starts_at=timezone.now() + timedelta(days=1))
    client.force_login(organiser)
    fieldset = reverse("competitions:section-format-settings", args=[club.slug, tournament.slug])
    swiss = client.get(fieldset, {"format": "swiss"}).content.decode()
    assert 'name="acceleration"' in swiss and "Accelerated rounds" in swiss
    assert '<option value="baku">Baku (FIDE C.04.5.1)</option>' in swiss
    assert 'name="acceleration"' not in client.get(fieldset, {"format": "round-robin"}).content.decode()
    fields = {"variant": "classic", "format": "swiss", "observer_policy": "anyone", "bye_points": "1",
              "late_entry_rounds": "0", "grand_final": "reset", "cycles": "1", "placements": "none", "groups": "1"}
    new = reverse("competitions:section-new", args=[club.slug, tournament.slug])
    made = client.post(new, {**fields, "name": "Accelerated", "swiss_system": "dutch", "acceleration": "baku"})
    assert made.status_code == 302, made.content.decode()[:2000]
    assert Section.objects.get(name="Accelerated").acceleration == "baku"
    refused = client.post(new, {**fields, "name": "Fast", "swiss_system": "fast", "acceleration": "baku"})
    assert refused.status_code == 200 and "FIDE Dutch pairing system only" in refused.content.decode()
    assert not Section.objects.filter(name="Fast").exists()
    robin = client.post(new, {**fields, "name": "Robin", "format": "round-robin", "acceleration": "baku"})
    assert robin.status_code == 302  # another format's setting is not on its page: sent at the default
    assert Section.objects.get(name="Robin").acceleration == "none"


def test_the_api_takes_shows_and_refuses_acceleration_in_the_services_words(club, organiser):
    tournament = event_services.create_tournament(by=organiser, club=club, name="API cup",
                                                  starts_at=timezone.now() + timedelta(days=1))
    body = {"tournament": tournament.pk, "name": "Open", "variant": "classic", "format": "swiss"}
    plain = api(organiser).post("/api/v1/sections/", body, format="json")
    assert plain.status_code == 201 and plain.json()["acceleration"] == "none"
    made = api(organiser).post("/api/v1/sections/", {**body, "name": "Baku", "acceleration": "baku"}, format="json")
    assert made.status_code == 201 and made.json()["acceleration"] == "baku"
    for value, code in [("BAKU", "bad-acceleration"), ("monrad", "bad-acceleration"), ("", "bad-acceleration")]:
        refused = api(organiser).post("/api/v1/sections/", {**body, "name": f"X{value}", "acceleration": value},
                                      format="json")
        assert refused.status_code == 400 and refused.json()["code"] == code, refused.json()
    fast = api(organiser).post("/api/v1/sections/", {**body, "name": "F", "swiss_system": "fast",
                                                     "acceleration": "baku"}, format="json")
    assert fast.status_code == 400 and fast.json()["code"] == "acceleration-needs-dutch"
    robin = api(organiser).post("/api/v1/sections/", {**body, "name": "R", "format": "round-robin",
                                                      "acceleration": "baku"}, format="json")
    assert robin.status_code == 400 and robin.json()["code"] == "no-acceleration"
    for not_a_choice in (None, 3, ["baku"]):
        odd = api(organiser).post("/api/v1/sections/", {**body, "name": "Odd", "acceleration": not_a_choice},
                                  format="json")
        assert odd.status_code == 400, odd.content
    assert set(Section.objects.filter(tournament=tournament).values_list("name", flat=True)) == {"Open", "Baku"}


def test_the_schema_lists_the_acceleration_methods(client):
    schema = yaml.safe_load(client.get("/api/schema/").content)["components"]["schemas"]
    for name in ("SectionCreateRequest", "Section"):
        prop = schema[name]["properties"]["acceleration"]
        enum = schema[prop["$ref"].rsplit("/", 1)[-1]]["enum"] if "$ref" in prop else prop.get("enum")
        if enum is None:
            refs = [part["$ref"] for part in prop.get("allOf", []) + prop.get("oneOf", []) if "$ref" in part]
            enum = [v for ref in refs for v in schema[ref.rsplit("/", 1)[-1]]["enum"]]
        assert sorted(enum) == ["baku", "none"], prop
        assert "baku" in prop.get("description", "")


def test_the_section_page_says_when_a_swiss_is_accelerated(client, make_player):
    plain = section_with(players(make_player, 2), format="swiss", swiss_system="dutch", rounds=5, start=False)
    assert "acceleration" not in text_of(client.get(url("section", plain)).content.decode())
    baku = SectionFactory.create(tournament=plain.tournament, name="Main", swiss_system="dutch", acceleration="baku",
                                 rounds=5)
    page = text_of(client.get(url("section", baku)).content.decode())
    assert ("Paired by the FIDE Dutch system (C.04.3, 2025), with Baku acceleration (C.04.5.1): virtual points in "
            "rounds 1\N{EN DASH}3") in page
    assert Round.objects.filter(section=baku).exists()  # round 1 scheduled, as for any section


def test_an_organiser_changes_the_swiss_pairing_over_the_api_before_round_1_only(make_player, organiser):
    """POST /api/v1/sections/<id>/swiss-pairing/: both settings at once (Baku off and the
    fast system, which alone would be refused), a player refused, after round 1 refused."""
    section = section_with(players(make_player, 4), format="swiss", swiss_system="dutch", rounds=3, start=False)
    url = f"/api/v1/sections/{section.pk}/swiss-pairing/"
    api = APIClient()
    api.force_authenticate(organiser)
    assert api.post(url, {"acceleration": "baku"}, format="json").json()["acceleration"] == "baku"
    refused = api.post(url, {"swiss_system": "fast"}, format="json")
    assert refused.status_code == 400 and refused.json()["code"] == "acceleration-needs-dutch"
    both = api.post(url, {"swiss_system": "fast", "acceleration": "none"}, format="json")
    assert both.status_code == 200 and (both.json()["swiss_system"], both.json()["acceleration"]) == ("fast", "none")
    assert api.post(url, {"acceleration": 7}, format="json").status_code == 400
    player = APIClient()
    player.force_authenticate(Entry.objects.filter(section=section).first().user)
    denied = player.post(url, {"swiss_system": "dutch"}, format="json")
    assert denied.status_code == 403 and denied.json()["code"] == "not-organiser"
    assert APIClient().post(url, {"swiss_system": "dutch"}, format="json").status_code in (401, 403)
    section.refresh_from_db()
    assert (section.swiss_system, section.acceleration) == ("fast", "none")
    cs.start_round(section_id=section.pk, number=1, force=True)
    late = api.post(url, {"swiss_system": "dutch"}, format="json")
    assert late.status_code == 400 and late.json()["code"] == "swiss-system-fixed"
    assert api.post(url, {"swiss_system": "fast"}, format="json").status_code == 200  # no change is no refusal


def test_the_section_page_lets_its_organiser_change_the_pairing_until_round_1(client, make_player, organiser):
    section = section_with(players(make_player, 4), format="swiss", swiss_system="dutch", rounds=3, start=False)
    page, save = url("section", section), url("section-swiss-pairing", section)
    player = Entry.objects.filter(section=section).first().user
    client.force_login(player)
    assert 'name="acceleration"' not in client.get(page).content.decode()
    assert client.post(save, {"acceleration": "baku"}).status_code == 403
    client.force_login(organiser)
    shown = client.get(page).content.decode()
    assert 'name="swiss_system"' in shown and '<option value="dutch" selected>FIDE Dutch</option>' in shown
    saved = client.post(save, {"swiss_system": "dutch", "acceleration": "baku"}, follow=True).content.decode()
    assert "Pairing saved." in saved and "with Baku acceleration" in saved
    refused = client.post(save, {"swiss_system": "fast", "acceleration": "baku"}, follow=True).content.decode()
    assert "FIDE Dutch pairing system only" in refused
    section.refresh_from_db()
    assert (section.swiss_system, section.acceleration) == ("dutch", "baku")
    cs.start_round(section_id=section.pk, number=1, force=True)
    assert 'name="acceleration"' not in client.get(page).content.decode()  # fixed from round 1
