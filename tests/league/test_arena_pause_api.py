"""An arena's pause and "I'm back" through the REST API (docs/api.md, "Competitions"):
the same services as the section page's buttons (league/competitions/arena_pause.py),
so the same refusals, as 400 with their code and words, and nothing changed; the
entries and the standings say who is paused."""

from __future__ import annotations

from datetime import timedelta

import pytest
import yaml
from django.utils import timezone

from games import services as game_services
from league.models import Entry, Pairing, Section
from tests.factories import make_section, players, section_with
from tests.support import api_as as api

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("eager_celery")]


def arena_of(make_player, n: int = 2, **options) -> Section:
    return section_with(players(make_player, n), format="arena", arena_duration=timedelta(minutes=10), **options)


def pauses(section: Section) -> list:
    return list(section.entries.order_by("pk").values_list("paused_at", "paused_reason"))


def refused(answer, code: str, status: int = 400) -> dict:
    assert answer.status_code == status, answer.content
    body = answer.json()
    assert body["code"] == code and body["message"], body
    return body


def test_a_player_pauses_and_comes_back_through_the_api(make_player):
    section = arena_of(make_player)
    me = section.entries.order_by("pk").first().user
    paused = api(me).post(f"/api/v1/sections/{section.pk}/pause/")
    assert paused.status_code == 200, paused.content
    body = paused.json()
    assert body["username"] == me.username and body["paused_at"] and body["paused_reason"] == "You paused."
    entry = Entry.objects.get(section=section, user=me)
    assert entry.paused_at is not None

    listed = {e["username"]: e for e in api().get(f"/api/v1/sections/{section.pk}/entries/").json()}
    assert listed[me.username]["paused_at"] and not any(
        e["paused_at"] for name, e in listed.items() if name != me.username)
    standings = {r["username"]: r for r in api().get(f"/api/v1/sections/{section.pk}/standings/").json()}
    assert standings[me.username]["paused_since"] == listed[me.username]["paused_at"]
    assert [r["paused_since"] for name, r in standings.items() if name != me.username] == [None]

    # The game in play goes on; once it is over nobody new is paired until "I'm back".
    (pairing,) = section.pairings.filter(status=Pairing.Status.IN_PLAY)
    assert pairing.game is not None
    game_services.resign(game_id=pairing.game.pk, user=me)
    assert not section.pairings.filter(status=Pairing.Status.IN_PLAY).exists()

    back = api(me).post(f"/api/v1/sections/{section.pk}/back/")
    assert back.status_code == 200, back.content
    assert back.json()["paused_at"] is None and back.json()["paused_reason"] == ""
    assert section.pairings.filter(status=Pairing.Status.IN_PLAY).count() == 1  # paired with the next free


def test_another_player_cannot_pause_or_bring_back_an_entry_not_theirs(make_player):
    section = arena_of(make_player)
    entrant = section.entries.order_by("pk").first().user
    api(entrant).post(f"/api/v1/sections/{section.pk}/pause/")
    before = pauses(section)
    stranger = make_player(username="stranger")
    for action in ("pause", "back"):
        refused(api(stranger).post(f"/api/v1/sections/{section.pk}/{action}/"), "not-entered")
        # A body naming the entrant changes nothing: the operation acts on the caller's own entry.
        refused(api(stranger).post(f"/api/v1/sections/{section.pk}/{action}/", {"username": entrant.username},
                                   format="json"), "not-entered")
    assert pauses(section) == before


@pytest.mark.parametrize("action", ["pause", "back"])
def test_signed_out_is_401_and_an_unknown_section_404(make_player, action):
    section = arena_of(make_player)
    refused(api().post(f"/api/v1/sections/{section.pk}/{action}/"), "not_authenticated", 401)
    refused(api(section.entries.first().user).post(f"/api/v1/sections/{section.pk + 999}/{action}/"),
            "not_found", 404)
    assert not section.entries.filter(paused_at__isnull=False).exists()


@pytest.mark.parametrize(("case", "action", "code"), [
    ("twice", "pause", "paused"),
    ("not-paused", "back", "not-paused"),
    ("swiss", "pause", "not-arena"),
    ("swiss", "back", "not-arena"),
    ("not-started", "pause", "not-running"),
    ("finished", "back", "not-running"),
    ("time-up", "pause", "arena-over"),
    ("time-up", "back", "arena-over"),
    ("withdrawn", "pause", "not-entered"),
])
def test_a_bad_state_is_refused_in_words_and_changes_nothing(club, organiser, make_player, case, action, code):
    if case == "swiss":
        section = section_with(players(make_player, 2), format="swiss", rounds=1, club=club)
    elif case == "not-started":
        section = make_section(club, organiser, format="arena", players=players(make_player, 2))
    else:
        section = arena_of(make_player, club=club)
    me = section.entries.order_by("pk").first().user
    if case in ("twice", "finished", "time-up"):
        api(me).post(f"/api/v1/sections/{section.pk}/pause/")
    if case == "finished":
        Section.objects.filter(pk=section.pk).update(status=Section.Status.FINISHED)
    elif case == "time-up":
        Section.objects.filter(pk=section.pk).update(starts_at=timezone.now() - timedelta(minutes=11))
    elif case == "withdrawn":
        api(me).post(f"/api/v1/sections/{section.pk}/withdraw/")
    before = pauses(section)
    body = refused(api(me).post(f"/api/v1/sections/{section.pk}/{action}/"), code)
    assert pauses(section) == before, body


def test_pause_and_back_are_in_the_schema(client):
    paths = yaml.safe_load(client.get("/api/schema/").content)["paths"]
    for action in ("pause", "back"):
        operation = paths[f"/api/v1/sections/{{id}}/{action}/"]["post"]
        assert "requestBody" not in operation  # no body: it acts on the caller's own entry
        assert {"200", "400", "401", "404"} <= set(operation["responses"])
        assert "not-paused" in operation["responses"]["400"]["description"]
