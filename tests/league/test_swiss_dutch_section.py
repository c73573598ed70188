"""Swiss sections paired by the FIDE Dutch system (league.formats.dutch) end to end.

What they hold: every round
pairs each player who plays it exactly once, with no rematch; the stored pairings are
the engine's on the section's TRF before the round (an arbiter's check); its reasons
are stored with user ids and said in words on the page and in the API."""

from __future__ import annotations

from datetime import timedelta

import pytest

from league import competitions as cs
from league.competitions import selectors, trf_state
from league.formats import dutch, explain, trf
from league.models import Entry, Pairing, Round, Section
from tests.factories import players, section_with
from tests.support import api_as as api

from .support import decide, text_of, url

pytestmark = [
    pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("eager_celery"),
]


def dutch_section(make_player, n: int, rounds: int, **options) -> Section:
    options.setdefault("round_interval", timedelta(hours=1))
    return section_with(players(make_player, n), format="swiss", swiss_system="dutch", rounds=rounds, **options)


def check_round(section: Section, number: int) -> None:
    """Round ``number`` as stored is the engine's pairing of the section before it."""
    round_ = Round.objects.get(section=section, number=number)
    seed = {user: number or 0 for user, number in Entry.objects.filter(section=section).values_list("user_id", "seed")}
    stored = [(seed[p.first_id], seed[p.second_id] if p.second_id else None)
              for p in round_.pairings.order_by("board")]
    before = trf_state.section_tournament(section, before_round=number)
    active = {seed[u] for u in selectors.active_user_ids(section, number)}
    for player in before.players:
        if player.number not in active:
            player.rounds.append(trf.Game(None, "-", "Z"))
    expected = [(p.white, p.black) for p in dutch.pair(before, number, points=dutch.Points(pab=float(section.bye_points)))]
    assert stored == expected
    paired = [n for pair in stored for n in pair if n is not None]
    assert sorted(paired) == sorted(active)
    met = {frozenset((p.number, g.opponent)) for p in before.players for g in p.rounds if g.opponent}
    assert not any(frozenset(pair) in met for pair in stored if pair[1] is not None)


def test_a_dutch_swiss_is_paired_round_by_round_by_the_engine(make_player):
    section = dutch_section(make_player, 9, rounds=4)
    for number in range(1, 5):
        check_round(section, number)
        decide(section)
        section.refresh_from_db()
        if number < 4:
            cs.start_round(section_id=section.pk, number=number + 1, force=True)
    section.refresh_from_db()
    assert section.status == Section.Status.FINISHED
    whole = trf.read(cs.section_trf(section))
    for number in range(1, 5):
        assert len(trf.round_pairings(whole, number)) == 5  # four games and the bye, as TRF says


def test_a_withdrawn_player_is_absent_and_the_others_are_paired(make_player):
    people = players(make_player, 6)
    section = section_with(people, format="swiss", swiss_system="dutch", rounds=3, round_interval=timedelta(hours=1))
    decide(section)
    cs.withdraw(section=section, user=people[5])
    cs.start_round(section_id=section.pk, number=2, force=True)
    check_round(section, 2)
    assert not Pairing.objects.filter(round__section=section, round__number=2, first=people[5]).exists()
    assert not Pairing.objects.filter(round__section=section, round__number=2, second=people[5]).exists()


def test_the_dutchs_reasons_are_stored_with_user_ids_and_said_in_words(client, make_player):
    section = dutch_section(make_player, 5, rounds=3)
    decide(section)
    cs.start_round(section_id=section.pk, number=2, force=True)
    pairings = list(Pairing.objects.filter(round__section=section, round__number=2).order_by("board"))
    users = set(Entry.objects.filter(section=section).values_list("user_id", flat=True))
    assert all(p.reasons for p in pairings)
    assert all(set(r["players"]) <= users for p in pairings for r in p.reasons)
    names = {e.user_id: e.user.name for e in Entry.objects.filter(section=section).select_related("user__profile")}
    said = [explain.text(r, names) for p in pairings for r in p.reasons]
    page = text_of(client.get(url("section", section)).content.decode())
    assert "Paired by the FIDE Dutch system (C.04.3, 2025)" in page
    assert all(sentence in page for sentence in said)
    rounds = api().get(f"/api/v1/sections/{section.pk}/rounds/").json()
    round_2 = next(r for r in rounds if r["number"] == 2)
    shown = [r["text"] for p in round_2["pairings"] for r in p["reasons"]]
    assert sorted(shown) == sorted(said)
