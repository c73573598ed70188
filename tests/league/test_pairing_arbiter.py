"""Pairings that explain themselves, the next round previewed and published, the
section as TRF-16 and a round's pairings set from a TRF by the arbiter (audited)."""

from __future__ import annotations

import logging
from datetime import timedelta

import pytest
from django.urls import reverse

from accounts.errors import ServiceError
from games.models import Game
from league import competitions as cs
from league.formats import trf
from league.models import ClubMembership, Entry, Pairing, PairingPlayer, Round, Section, Tournament
from moderation import operations
from moderation.models import AuditEntry
from tests.factories import MembershipFactory, players, section_with
from tests.league.support import with_round_2
from tests.support import api_as as api

from .support import decide, text_of, url

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("eager_celery")]


def swiss(club, make_player, n=5, **options):
    """A Swiss of ``n`` players whose round 1 is played; round 2 scheduled an hour on."""
    options.setdefault("round_interval", timedelta(hours=1))
    section = section_with(players(make_player, n), format="swiss", rounds=3, club=club, **options)
    decide(section)
    section.refresh_from_db()
    return section


def boards(round_: Round) -> list[tuple[int, int, int | None, list]]:
    return list(round_.pairings.order_by("board").values_list("board", "first_id", "second_id", "reasons"))


def arbiter_url(name: str, section: Section, *args) -> str:
    t = section.tournament
    return reverse(f"arbiter:{name}", args=[t.club.slug, t.slug, section.slug, *args])


# -- reasons -------------------------------------------------------------------------------


def test_a_swiss_round_keeps_its_reasons_and_shows_them_on_the_page_and_in_the_api(client, club, make_player):
    section = section_with(players(make_player, 5), format="swiss", rounds=3, club=club)
    pairings = list(Pairing.objects.filter(section=section).order_by("board"))
    bye = next(p for p in pairings if p.second_id is None)
    assert [r["code"] for r in bye.reasons] == ["bye"] and bye.reasons[0]["players"] == [bye.first_id]
    games = [p for p in pairings if p.second_id is not None]
    assert all([r["code"] for r in p.reasons] == ["score-group", "first-move"] for p in games)
    bye_name = Entry.objects.get(section=section, user_id=bye.first_id).user.name
    html = text_of(client.get(url("section", section)).content.decode())
    assert "Why?" in html
    assert f"{bye_name} has the bye: lowest ranked in the lowest score group who has not had one." in html
    rounds = api().get(f"/api/v1/sections/{section.pk}/rounds/").json()
    by_board = {p["board"]: p for p in rounds[-1]["pairings"]}
    assert by_board[bye.board]["reasons"] == [
        {"code": "bye", "text": f"{bye_name} has the bye: lowest ranked in the lowest score group who has not had one."}]
    assert by_board[1]["reasons"][0] == {"code": "score-group", "text": "Both on 0 points."}


def test_round_robin_boards_say_their_berger_round_and_group(club, make_player):
    section = section_with(players(make_player, 5), format="round-robin", groups=2, club=club)
    pairings = list(Pairing.objects.filter(section=section, round__number=1))
    assert pairings and all([r["code"] for r in p.reasons] == ["berger"] for p in pairings)
    assert {r["data"]["group"] for p in pairings for r in p.reasons} == {"A", "B"}
    rounds = api().get(f"/api/v1/sections/{section.pk}/rounds/").json()
    texts = [r["text"] for p in rounds[-1]["pairings"] for r in p["reasons"]]
    assert any(t.startswith("Round 1 of the Berger table of group A, fixed at the start: seed ") for t in texts)


def test_later_swiss_rounds_say_the_first_move_history_with_its_rounds(club, make_player):
    section = swiss(club, make_player, n=4, round_interval=None)  # round 2 starts at once
    round_2 = section.round_set.get(number=2)
    texts = [cs_text for _, _, _, reasons in boards(round_2) for cs_text in reasons]
    colour = [r for r in texts if r["code"] == "first-move"]
    assert colour and all(r["data"]["rule"] != "board" for r in colour)
    assert any(1 in r["data"]["x"][0] + r["data"]["o"][0] for r in colour)  # round 1 is named


def test_a_knockout_pairing_carries_its_seed_path(club, make_player):
    section = section_with(players(make_player, 8), format="single-elimination", club=club)
    first = Pairing.objects.get(section=section, board=1)
    assert first.reasons == [{"code": "seed-path", "players": [],
                              "data": {"seeds": [1, 8], "stage": "quarter-final",
                                       "next": "the winner of seed 4 v seed 5"}}]


def test_an_arena_wave_says_why(club, make_player):
    section = section_with(players(make_player, 4), format="arena", club=club)
    reasons = [r["code"] for p in Pairing.objects.filter(section=section) for r in p.reasons]
    assert reasons.count("arena") == 2 and reasons.count("arena-first-move") == 2


# -- preview -------------------------------------------------------------------------------


def test_the_preview_writes_nothing_and_publishing_gives_exactly_the_previewed_pairings(club, organiser, make_player):
    section = swiss(club, make_player, n=7)
    round_2 = section.round_set.get(number=2)
    assert round_2.status == Round.Status.SCHEDULED
    counts = (Pairing.objects.count(), PairingPlayer.objects.count(), Game.objects.count(), Round.objects.count())
    previewed = cs.preview_round(round_=round_2)
    assert (Pairing.objects.count(), PairingPlayer.objects.count(), Game.objects.count(),
            Round.objects.count()) == counts
    round_2.refresh_from_db()
    assert round_2.status == Round.Status.SCHEDULED
    assert len(previewed.boards) == 4 and any(r["code"] == "float" or r["code"] == "score-group"
                                              for b in previewed.boards for r in b.reasons)
    operations.start_round_now(actor=organiser, round_id=round_2.pk, reason="Published from the preview.")
    assert boards(round_2) == [(b.number, b.first, b.second, list(b.reasons)) for b in previewed.boards]


def test_round_one_previewed_before_the_start_leaves_the_section_in_registration(club, organiser, make_player):
    section = section_with(players(make_player, 6), format="swiss", rounds=3, club=club, start=False,
                           starts_in=3600)
    round_1 = section.round_set.get(number=1)
    previewed = cs.preview_round(round_=round_1)
    section.refresh_from_db()
    assert section.status == Section.Status.REGISTRATION and not section.entries.filter(seed__isnull=False).exists()
    operations.start_round_now(actor=organiser, round_id=round_1.pk)
    assert boards(round_1) == [(b.number, b.first, b.second, list(b.reasons)) for b in previewed.boards]


def test_the_preview_page_is_for_the_club_s_organisers_and_publishes(client, club, organiser, make_player):
    section = swiss(club, make_player, n=4)
    page = arbiter_url("round-preview", section, 2)
    client.force_login(make_player(username="nosy"))
    assert client.get(page).status_code == 403
    assert client.post(arbiter_url("round-publish", section, 2)).status_code == 403
    client.force_login(organiser)
    raw = client.get(page).content.decode()
    html = text_of(raw)
    assert "Preview round 2 pairings" in html and "Why?" in html and "Publish now" in html
    # Its boards' table scrolls sideways on a phone: a keyboard reaches it, named by the heading (axe).
    assert '<div class="table-scroll" tabindex="0" role="group" aria-labelledby="preview-heading">' in raw
    assert '<h1 id="preview-heading">' in raw
    assert Round.objects.get(section=section, number=2).status == Round.Status.SCHEDULED
    assert "preview round 2 pairings" in text_of(client.get(url("section", section)).content.decode())
    client.post(arbiter_url("round-publish", section, 2))
    assert Round.objects.get(section=section, number=2).status == Round.Status.IN_PLAY
    assert "has started" in text_of(client.get(page).content.decode())  # nothing left to preview


def test_a_draft_s_arbiter_pages_are_not_found_for_anyone_but_its_organisers(client, club, organiser, make_player):
    section = swiss(club, make_player, n=4)
    Tournament.objects.filter(pk=section.tournament_id).update(status=Tournament.Status.DRAFT)
    pages = [arbiter_url("round-preview", section, 2), arbiter_url("section-trf", section)]
    client.force_login(make_player(username="nosy"))
    assert [client.get(page).status_code for page in pages] == [404, 404]  # as for no section at all
    client.force_login(organiser)
    assert [client.get(page).status_code for page in pages] == [200, 200]


def test_an_arena_has_no_round_to_preview(club, make_player):
    section = section_with(players(make_player, 4), format="arena", club=club, start=False)
    with pytest.raises(ServiceError) as err:
        cs.preview_round(round_=section.round_set.get(number=1))
    assert err.value.code == "timed-format"


# -- TRF-16 --------------------------------------------------------------------------------


def test_the_section_s_trf_reads_back_identical_and_holds_the_rounds(client, club, organiser, make_player):
    section = swiss(club, make_player, n=5)
    text = cs.section_trf(section)
    assert trf.write(trf.read(text)) == text
    t = trf.read(text)
    seeds = dict(Entry.objects.filter(section=section).values_list("seed", "user_id"))
    assert [p.number for p in t.players] == sorted(seeds)
    by_number = {p.number: p for p in t.players}
    for side in PairingPlayer.objects.filter(round__section=section, round__number=1).select_related("pairing"):
        number = next(n for n, u in seeds.items() if u == side.user_id)
        (game,) = by_number[number].rounds
        if side.opponent_id is None:
            assert game == trf.Game(None, "-", "U")
        else:
            assert seeds[game.opponent] == side.opponent_id and game.colour == ("w" if side.moves_first else "b")
            assert game.result == {1.0: "1", 0.0: "0", 0.5: "="}[side.points]
        assert by_number[number].points == side.points
    assert t.header("XXR") == "3"
    download = arbiter_url("section-trf", section)
    assert client.get(download).status_code == 403
    client.force_login(organiser)
    response = client.get(download)
    assert response.status_code == 200 and response.content.decode() == text
    assert "attachment" in response["Content-Disposition"]


def test_a_refused_trf_download_is_logged_in_one_line_without_a_traceback(client, club, make_player, caplog):
    section = swiss(club, make_player, n=4)
    pages = [arbiter_url("section-trf", section), arbiter_url("round-preview", section, 2)]
    with caplog.at_level(logging.INFO, logger="django.request"):
        assert client.get(pages[0]).status_code == 403  # signed out
        client.force_login(make_player(username="nosy"))
        answers = [client.get(page) for page in pages]
    assert [answer.status_code for answer in answers] == [403, 403]
    assert "You cannot open this page" in answers[0].content.decode()
    refusals = [record for record in caplog.records if record.name == "django.request"]
    assert [record.getMessage() for record in refusals] == [f"Forbidden: {pages[0]}"] * 2 + [f"Forbidden: {pages[1]}"]
    assert not any(record.exc_info or record.exc_text for record in refusals)




def test_the_arbiter_s_trf_pairings_are_used_when_the_round_starts_and_audited(client, club, organiser, make_player):
    section = swiss(club, make_player, n=5)
    arbiter = MembershipFactory.create(club=club, user=make_player(username="ada"),
                                       role=ClubMembership.Role.ARBITER).user
    round_2 = section.round_set.get(number=2)
    text = with_round_2(cs.section_trf(section), [(5, 1), (2, 4), (3, None)])
    operations.set_round_pairings(actor=arbiter, round_id=round_2.pk, text=text, reason="Club rule")
    entry = AuditEntry.objects.get(action="round.set-pairings")
    seeds = dict(Entry.objects.filter(section=section).values_list("seed", "user_id"))
    names = dict(Entry.objects.filter(section=section).values_list("seed", "user__username"))
    assert (entry.actor, entry.club, entry.target_id, entry.reason) == (arbiter, club, str(round_2.pk), "Club rule")
    assert entry.details["pairings"] == [[names[5], names[1]], [names[2], names[4]], [names[3], None]]
    previewed = cs.preview_round(round_=round_2)
    assert [(b.first, b.second) for b in previewed.boards] == [(seeds[5], seeds[1]), (seeds[2], seeds[4]),
                                                               (seeds[3], None)]
    operations.start_round_now(actor=organiser, round_id=round_2.pk)
    assert [(f, s) for _, f, s, _ in boards(round_2)] == [(seeds[5], seeds[1]), (seeds[2], seeds[4]), (seeds[3], None)]
    assert all(reasons == [{"code": "arbiter", "players": [], "data": {}}] for *_, reasons in boards(round_2))
    html = text_of(client.get(url("section", section)).content.decode())
    assert "Pairings set by the arbiter." in html
    rounds = api().get(f"/api/v1/sections/{section.pk}/rounds/").json()
    assert [(r["number"], r["set_by_arbiter"]) for r in rounds] == [(2, True), (1, False)]
    assert rounds[0]["pairings"][0]["reasons"] == [{"code": "arbiter", "text": "Pairings set by the arbiter."}]


def _stranger(text: str) -> str:
    """Round 2 with a start number 6 this section does not have, paired with 3."""
    t = trf.read(with_round_2(text, [(5, 1), (2, 4)]))
    t.players.append(trf.Player(6, "Zed", rounds=[trf.Game(None, "-", "Z"), trf.Game(3, "b", " ")]))
    next(p for p in t.players if p.number == 3).rounds.append(trf.Game(6, "w", " "))
    return trf.write(t)


def _renamed(text: str) -> str:
    t = trf.read(with_round_2(text, [(5, 1), (2, 4), (3, None)]))
    t.players[0].name = "Somebody Else"
    return trf.write(t)


@pytest.mark.parametrize("change, code", [
    (lambda text: "not a trf at all\n001 x", "bad-trf"),
    (lambda text: "nothing but a header", "bad-trf"),
    (lambda text: with_round_2(text, [(5, 1), (2, 4)]), "bad-trf"),  # 3 has no round 2
    (_stranger, "unknown-player"),
    (_renamed, "other-section"),
])
def test_a_bad_trf_is_refused_in_words_and_changes_nothing(club, organiser, make_player, change, code):
    section = swiss(club, make_player, n=5)
    round_2 = section.round_set.get(number=2)
    with pytest.raises(ServiceError) as err:
        operations.set_round_pairings(actor=organiser, round_id=round_2.pk, text=change(cs.section_trf(section)))
    assert err.value.code == code and err.value.message
    round_2.refresh_from_db()
    assert round_2.pairing_override is None and not AuditEntry.objects.filter(action="round.set-pairings").exists()


def test_the_override_is_refused_to_strangers_after_the_start_and_in_a_bracket(client, club, organiser, make_player):
    section = swiss(club, make_player, n=4)
    round_2 = section.round_set.get(number=2)
    text = with_round_2(cs.section_trf(section), [(1, 4), (2, 3)])
    with pytest.raises(ServiceError) as err:
        operations.set_round_pairings(actor=make_player(username="nosy"), round_id=round_2.pk, text=text)
    assert err.value.code == "not-a-moderator"
    client.force_login(make_player(username="nosy2"))
    assert client.post(arbiter_url("round-pairings", section, 2), {"text": text}).status_code == 403
    operations.start_round_now(actor=organiser, round_id=round_2.pk)
    with pytest.raises(ServiceError) as err:
        operations.set_round_pairings(actor=organiser, round_id=round_2.pk, text=text)
    assert err.value.code == "round-started"
    knockout = section_with(players(make_player, 4, prefix="k"), format="single-elimination", club=club,
                            tournament="Cup", round_interval=timedelta(hours=1))
    decide(knockout)
    with pytest.raises(ServiceError) as err:
        operations.set_round_pairings(actor=organiser, round_id=knockout.round_set.get(number=2).pk, text=text)
    assert err.value.code == "bracket-format"


def test_the_import_page_takes_a_file_or_pasted_text(client, club, organiser, make_player):
    section = swiss(club, make_player, n=4)
    text = with_round_2(cs.section_trf(section), [(1, 4), (2, 3)])
    client.force_login(organiser)
    response = client.post(arbiter_url("round-pairings", section, 2), {"text": "nonsense"}, follow=True)
    assert "This file cannot be used" in text_of(response.content.decode())
    assert Round.objects.get(section=section, number=2).pairing_override is None
    from django.core.files.uploadedfile import SimpleUploadedFile
    upload = SimpleUploadedFile("round2.trf", text.encode(), content_type="text/plain")
    response = client.post(arbiter_url("round-pairings", section, 2), {"file": upload, "reason": "manual"},
                           follow=True)
    html = text_of(response.content.decode())
    assert "the arbiter's pairings" in html and "Pairings set by the arbiter." in html
    assert Round.objects.get(section=section, number=2).pairing_override is not None


def test_the_file_must_pair_exactly_the_players_of_the_round(club, organiser, make_player):
    section = swiss(club, make_player, n=5)
    round_2 = section.round_set.get(number=2)
    text = cs.section_trf(section)
    bye_number = next(p.number for p in trf.read(text).players if p.rounds[0].opponent is None)
    others = [p.number for p in trf.read(text).players if p.number != bye_number]
    # The player who had the bye left out of the file: refused, they play round 2.
    t = trf.read(with_round_2(text, [(others[0], others[1]), (others[2], others[3])]))
    t.players = [p for p in t.players if p.number != bye_number]
    with pytest.raises(ServiceError) as err:
        operations.set_round_pairings(actor=organiser, round_id=round_2.pk, text=trf.write(t))
    assert err.value.code == "not-paired" and f"Start number {bye_number}" in err.value.message
    # A player who withdrew since may not be paired.
    gone = Entry.objects.get(section=section, seed=others[0])
    cs.withdraw(section=section, user=gone.user, reason="Ill")
    with pytest.raises(ServiceError) as err:
        operations.set_round_pairings(actor=organiser, round_id=round_2.pk, text=with_round_2(
            text, [(others[0], others[1]), (others[2], others[3]), (bye_number, None)]))
    assert err.value.code == "not-playing"
    round_2.refresh_from_db()
    assert round_2.pairing_override is None


def test_the_schema_describes_a_pairing_s_reasons(client):
    import yaml

    schemas = yaml.safe_load(client.get("/api/schema/").content)["components"]["schemas"]
    reasons = schemas["Pairing"]["properties"]["reasons"]
    assert reasons["type"] == "array" and reasons["items"]["$ref"].endswith("/Reason")
    assert set(schemas["Reason"]["properties"]) == {"code", "text"}


def test_a_player_withdrawn_before_the_start_is_no_player_of_the_trf(club, organiser, make_player):
    """TRF-16 lists the starting field: a player who withdrew before round 1 had an 001 line
    of "Z" in every round and was counted in 062. Left out, the file still reads back the
    same, the check mode re-pairs its rounds as stored, and the Dutch pairer pairs round 2."""
    from league.competitions import event_services
    from league.formats import swiss_cli

    section = section_with(players(make_player, 6), format="swiss", rounds=3, club=club, start=False,
                           swiss_system="dutch", round_interval=timedelta(hours=1))
    gone = Entry.objects.filter(section=section).order_by("registered_at").last()
    assert gone is not None
    cs.withdraw(section=section, user=gone.user, reason="Cannot come")
    event_services.start_section(by=organiser, section=section)
    decide(section)
    section.refresh_from_db()

    text = cs.section_trf(section)
    t = trf.read(text)
    assert trf.write(t) == text
    assert gone.user.name not in [p.name for p in t.players]
    assert t.header("062") == "5" and len(t.players) == 5
    assert [p.number for p in t.players] == [1, 2, 3, 4, 5]  # the seeds, no gap
    assert not any(all(g.result == "Z" for g in p.rounds) for p in t.players)
    check = swiss_cli.check_round("dutch", t, 1)
    assert not check.error and sorted(check.stored) == sorted(check.ours)

    later = section.round_set.get(number=2)
    cs.start_round(section_id=section.pk, number=2, force=True)
    assert not PairingPlayer.objects.filter(round__section=section, user=gone.user).exists()
    assert PairingPlayer.objects.filter(round=later).count() == 5
