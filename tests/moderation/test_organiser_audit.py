"""Every organiser action, from the pages, the API and the console, writes exactly one
entry in the one audit log (moderation.AuditEntry) with its actor, club and target; a
refused action writes none (docs/moderation.md, "The audit log")."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from games import rule_sets as game_rule_sets
from league import competitions as cs
from league.models import ClubMembership, Entry, Pairing, Prize, Section, Tournament
from moderation.models import AuditEntry
from tests.factories import ClubFactory, MembershipFactory, SectionFactory


class World:
    def __init__(self, make_player: Any) -> None:
        self.club = ClubFactory.create(name="Harbour club", slug="harbour")
        self.organiser = MembershipFactory.create(club=self.club, user=make_player(username="olivia"),
                                                  role=ClubMembership.Role.ORGANISER).user
        self.member = MembershipFactory.create(club=self.club, user=make_player(username="mo")).user
        self.players = [make_player(username=f"p{i}") for i in range(4)]
        # Set up without an actor: only the action under test is audited.
        self.section = SectionFactory.create(tournament__club=self.club, tournament__name="Spring open",
                                             format="swiss", rounds=3, players=self.players)
        self.tournament = self.section.tournament

    def started(self) -> Section:
        cs.start_round(section_id=self.section.pk, number=1, force=True)
        self.section.refresh_from_db()
        return self.section


@pytest.fixture
def world(db, make_player) -> World:
    return World(make_player)


def _starts() -> str:
    return (timezone.now() + timedelta(days=2)).strftime("%Y-%m-%dT%H:%M")


def _api(user: Any) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def _section_form(tournament: Tournament) -> dict[str, Any]:
    return {"name": "Juniors", "variant": "classic", "rule_set": game_rule_sets.standard_rule_set("classic").pk,
            "format": "swiss", "rated": "on", "observer_policy": "anyone", "grand_final": "reset",
            "cycles": "1", "bye_points": "1", "swiss_system": "dutch", "late_entry_rounds": "0", "tiebreaks": ""}


# Each case: (action, how it is done by ``user`` through an entry point, the target it must name).
def page_create_tournament(w: World, client: Any) -> Any:
    client.post(reverse("competitions:tournament-new", args=[w.club.slug]),
                {"name": "Winter cup", "starts_at": _starts(), "rating_period": "game"})
    return Tournament.objects.filter(name="Winter cup").first()


def page_create_section(w: World, client: Any) -> Any:
    client.post(reverse("competitions:section-new", args=[w.club.slug, w.tournament.slug]), _section_form(w.tournament))
    return w.tournament.sections.filter(name="Juniors").first()


def _closed_first(w: World) -> None:
    """Registration reopens only once it is closed (refusals.open_registration_refusal):
    closed here without the service, so the only audit entry is the one under test."""
    Section.objects.filter(tournament=w.tournament).update(registration_closes_at=timezone.now())


def page_tournament_action(action: str):
    def do(w: World, client: Any) -> Any:
        if action == "open":
            _closed_first(w)
        client.post(reverse("competitions:tournament-action", args=[w.club.slug, w.tournament.slug]), {"action": action})
        return w.section if action == "start" else w.tournament
    do.__name__ = f"page_tournament_{action}"
    return do


def page_start_section(w: World, client: Any) -> Any:
    client.post(reverse("competitions:section-start", args=[w.club.slug, w.tournament.slug, w.section.slug]))
    return w.section


def api_create_tournament(w: World, client: Any) -> Any:
    client.post("/api/v1/tournaments/", {"club": w.club.slug, "name": "Winter cup", "starts_at": _starts()},
                format="json")
    return Tournament.objects.filter(name="Winter cup").first()


def api_create_section(w: World, client: Any) -> Any:
    client.post("/api/v1/sections/", {"tournament": w.tournament.pk, "name": "Juniors", "variant": "classic",
                                      "format": "swiss"}, format="json")
    return w.tournament.sections.filter(name="Juniors").first()


def api_tournament_action(path: str):
    def do(w: World, client: Any) -> Any:
        if path == "open-registration":
            _closed_first(w)
        client.post(f"/api/v1/tournaments/{w.tournament.pk}/{path}/")
        return w.section if path == "start" else w.tournament
    do.__name__ = f"api_tournament_{path}"
    return do


def api_start_section(w: World, client: Any) -> Any:
    client.post(f"/api/v1/sections/{w.section.pk}/start/")
    return w.section


def _admin(path: str, action: str, pk: int, client: Any, **extra: str) -> None:
    client.post(f"/admin/league/{path}/", {"action": action, "_selected_action": [pk], "confirm": "yes",
                                            "reason": "Audit test", **extra})


def admin_pause(w: World, client: Any) -> Any:
    _admin("section", "pause", w.section.pk, client)
    return w.section


def admin_resume(w: World, client: Any) -> Any:
    Section.objects.filter(pk=w.section.pk).update(paused_at=timezone.now())
    _admin("section", "resume", w.section.pk, client)
    return w.section


def admin_start_now(w: World, client: Any) -> Any:
    round_ = w.section.round_set.get(number=1)
    _admin("round", "start_now", round_.pk, client)
    return round_


def admin_forfeit(w: World, client: Any) -> Any:
    pairing = Pairing.objects.filter(section=w.started(), second__isnull=False).first()
    assert pairing is not None
    _admin("pairing", "forfeit_second", pairing.pk, client)
    return pairing


def admin_adjudicate(w: World, client: Any) -> Any:
    pairing = Pairing.objects.filter(section=w.started(), second__isnull=False).first()
    assert pairing is not None
    _admin("pairing", "adjudicate_first", pairing.pk, client)
    return pairing


def admin_withdraw(w: World, client: Any) -> Any:
    entry = Entry.objects.get(section=w.section, user=w.players[0])
    _admin("entry", "withdraw", entry.pk, client)
    return entry


def service_add_prize(w: World, client: Any) -> Any:
    user = client.actor
    try:
        return cs.add_prize(section=w.section, label="Best U12", kind=Prize.Kind.AGE, age_under=12, by=user)
    except Exception:  # the refusal is the point of the refused case; nothing written is checked below
        return Prize.objects.filter(section=w.section).first()


CASES = [
    ("page", "tournament.create", page_create_tournament),
    ("page", "section.create", page_create_section),
    ("page", "tournament.close-registration", page_tournament_action("close")),
    ("page", "tournament.open-registration", page_tournament_action("open")),
    ("page", "section.start", page_tournament_action("start")),
    ("page", "section.start", page_start_section),
    ("api", "tournament.create", api_create_tournament),
    ("api", "section.create", api_create_section),
    ("api", "tournament.close-registration", api_tournament_action("close-registration")),
    ("api", "tournament.open-registration", api_tournament_action("open-registration")),
    ("api", "section.start", api_tournament_action("start")),
    ("api", "section.start", api_start_section),
    ("admin", "section.pause", admin_pause),
    ("admin", "section.resume", admin_resume),
    ("admin", "round.start-now", admin_start_now),
    ("admin", "game.forfeit", admin_forfeit),
    ("admin", "game.adjudicate", admin_adjudicate),
    ("admin", "entry.withdraw", admin_withdraw),
    ("service", "prize.add", service_add_prize),
]


class _ServiceCaller:
    def __init__(self, actor: Any) -> None:
        self.actor = actor


def _client(entry: str, user: Any, client: Any) -> Any:
    if entry == "api":
        return _api(user)
    if entry == "service":
        return _ServiceCaller(user)
    client.force_login(user)
    return client


@pytest.mark.parametrize("entry,action,do", CASES, ids=[f"{e}-{a}-{d.__name__}" for e, a, d in CASES])
def test_each_organiser_action_writes_one_audit_entry(world, client, entry, action, do):
    before = AuditEntry.objects.count()
    target = do(world, _client(entry, world.organiser, client))
    assert target is not None, "the action was not done"
    written = list(AuditEntry.objects.order_by("pk")[before:])
    assert [e.action for e in written] == [action]
    (audit,) = written
    assert audit.actor == world.organiser and audit.actor_name == "olivia"
    assert audit.club == world.club
    assert (audit.target_type, audit.target_id) == (target._meta.label_lower, str(target.pk))


@pytest.mark.parametrize("entry,action,do", CASES, ids=[f"{e}-{a}-{d.__name__}" for e, a, d in CASES])
def test_a_refused_action_writes_no_audit_entry(world, client, entry, action, do):
    """A member who does not organise the club is refused everywhere: nothing is audited."""
    before = AuditEntry.objects.count()
    target = do(world, _client(entry, world.member, client))
    assert AuditEntry.objects.count() == before
    if action.endswith(".create") or action == "prize.add":
        assert target is None  # nothing made either


def test_a_prize_added_and_edited_in_the_admin_is_audited_through_the_service(world, client, make_player):
    from django.contrib.auth import get_user_model

    root = get_user_model().objects.create_superuser("root", "root@example.org", "x-long-password-1")
    client.force_login(root)
    form = {"section": world.section.pk, "kind": "place", "place": "1", "label": "Gold", "value": ""}
    assert client.post("/admin/league/prize/add/", form).status_code == 302
    prize = Prize.objects.get(section=world.section)
    added = AuditEntry.objects.get(action="prize.add")
    assert (added.actor, added.target_id, added.club) == (root, str(prize.pk), world.club)
    client.post(f"/admin/league/prize/{prize.pk}/change/", {**form, "label": "Golden cup"})
    changed = AuditEntry.objects.get(action="prize.change")
    assert changed.details["changed"] == ["label"]
    # The service's refusal, in the admin too: an age prize without its group is not made.
    client.post("/admin/league/prize/add/", {**form, "kind": "age", "label": "Junior"})
    assert Prize.objects.filter(section=world.section).count() == 1
    assert AuditEntry.objects.filter(action="prize.add").count() == 1
