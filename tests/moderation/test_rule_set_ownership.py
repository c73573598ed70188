"""Who may revise which house-rule set (issue #15, item 1; docs/security.md, "Who may
change what"), over HTTP: the REST API (APIClient with tokens) and the console (the
Django test client). Every role against a standard set, a club's set and a player's
own set; each refusal is checked as nothing changed (no new version, no audit entry)
and each success as audited. Also: a player's "Standard classic" is never the
platform's, the platform-wide rating recompute is for superusers only, and a clock
too large for the database is a 400, not a 500."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import Permission
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.urls import reverse

from games import rule_sets as game_rule_sets
from games.models import Game, RuleSet
from league.models import Rating, RecomputeRun
from moderation.models import AuditEntry
from tests.support import token_client as api_client

pytestmark = pytest.mark.django_db

ROLES = ["anonymous", "player", "author", "organiser_a", "arbiter_a", "organiser_b", "superuser"]
#: Who may revise each kind of set; everyone else is refused.
MAY_REVISE = {
    "standard": {"superuser"},
    "club": {"organiser_a", "superuser"},
    "players": {"author"},
}


@pytest.fixture
def people(world, make_player) -> dict[str, Any]:
    return {
        "anonymous": None,
        "player": make_player(username="plain"),
        "author": make_player(username="author"),
        "organiser_a": world.organiser_a,
        "arbiter_a": world.arbiter_a,
        "organiser_b": world.organiser_b,
        "superuser": world.superuser,
    }


@pytest.fixture
def sets(world, people) -> dict[str, RuleSet]:
    created = api_client(people["author"]).post(
        "/api/v1/rule-sets/", {"name": "Author's classic", "variant": "classic"}, format="json"
    )
    assert created.status_code == 201, created.json()
    return {
        "standard": game_rule_sets.standard_rule_set("classic"),
        "club": world.rules_a,
        "players": RuleSet.objects.get(pk=created.json()["id"]),
    }


def snapshot(rule_set: RuleSet) -> tuple[int, int, int]:
    """The versions of the set's family, its current version's id, the audit entries."""
    family = RuleSet.objects.filter(family=rule_set.family)
    return family.count(), family.get(is_current=True).pk, AuditEntry.objects.count()


def assert_revised(rule_set: RuleSet, before: tuple[int, int, int], actor: Any, club: Any) -> RuleSet:
    current = RuleSet.objects.get(family=rule_set.family, is_current=True)
    assert current.version == before[0] + 1 and current.pk != before[1]
    entry = AuditEntry.objects.get(action="rules.revise", target_id=str(current.pk))
    assert entry.actor == actor and entry.club == club
    assert AuditEntry.objects.count() == before[2] + 1
    return current


@pytest.mark.parametrize("kind", ["standard", "club", "players"])
@pytest.mark.parametrize("who", ROLES)
def test_revising_through_the_api(world, people, sets, kind, who):
    rule_set, user = sets[kind], people[who]
    before = snapshot(rule_set)
    response = api_client(user).post(
        f"/api/v1/rule-sets/{rule_set.pk}/revise/", {"seconds_per_move": 42}, format="json"
    )
    if who in MAY_REVISE[kind]:
        assert response.status_code == 201, response.json()
        current = assert_revised(rule_set, before, user, world.club_a if kind == "club" else None)
        assert current.seconds_per_move == 42 and current.is_standard == (kind == "standard")
        assert response.json()["is_standard"] == (kind == "standard")
    else:
        body = response.json()
        assert response.status_code == (401 if user is None else 403), body
        assert set(body) >= {"code", "message"}
        assert snapshot(rule_set) == before


def console_form(rule_set: RuleSet, **overrides: str) -> dict[str, str]:
    data = {
        "name": rule_set.name, "variant": rule_set.variant, "decider": "challenger",
        "opt_symbols_0": "X", "opt_symbols_1": "O", "opt_first": "O",
        "match_format": "single", "match_games": "1", "next_first": "loser", "no_show_seconds": "300",
        "seconds_per_move": "", "seconds_per_game": "",
    }
    data.update(overrides)
    return data


@pytest.mark.parametrize("kind", ["standard", "club", "players"])
@pytest.mark.parametrize("who", ROLES)
def test_revising_in_the_console(client, world, people, sets, kind, who):
    """The console follows the API's rule; players have no console at all."""
    rule_set, user = sets[kind], people[who]
    if user is not None:
        client.force_login(user)
    before = snapshot(rule_set)
    response = client.post(f"/admin/games/ruleset/{rule_set.pk}/change/", console_form(rule_set))
    if who in MAY_REVISE[kind] and user.is_staff:
        assert response.status_code == 302, response.content.decode()[:2000]
        current = assert_revised(rule_set, before, user, world.club_a if kind == "club" else None)
        assert current.options["first"] == "O"
    else:
        # The login page, "doesn't exist" (not theirs to see), or 403 (theirs to see only).
        assert response.status_code in (302, 403)
        assert snapshot(rule_set) == before


def test_the_console_shows_a_set_it_will_not_save_read_only(client, world, sets):
    """A superuser sees a player's set but does not edit it; an arbiter sees their club's."""
    client.force_login(world.superuser)
    page = client.get(f"/admin/games/ruleset/{sets['players'].pk}/change/").content.decode()
    assert "Its author" in page and 'name="_save"' not in page
    client.force_login(world.arbiter_a)
    page = client.get(f"/admin/games/ruleset/{sets['club'].pk}/change/").content.decode()
    assert "Club A" in page and 'name="_save"' not in page


def test_a_players_standard_classic_is_never_the_platforms(world, people):
    mallory = api_client(people["player"])
    fake = mallory.post("/api/v1/rule-sets/", {"name": "Standard classic", "variant": "classic"}, format="json")
    assert fake.status_code == 201 and fake.json()["is_standard"] is False
    revised = mallory.post(f"/api/v1/rule-sets/{fake.json()['id']}/revise/",
                           {"options": {"first": "O"}, "seconds_per_move": 1}, format="json")
    assert revised.status_code == 201
    fake_family = revised.json()["family"]
    # Everyone's next plain classic game: the platform's standard rules, made on first use.
    for who in ("author", "organiser_b"):
        game = api_client(people[who]).post("/api/v1/games/", {"variant": "classic", "ai_level": "random"},
                                            format="json")
        assert game.status_code == 201, game.json()
        rules = Game.objects.get(pk=game.json()["id"]).rule_set
        assert rules.is_standard and str(rules.family) != fake_family
        assert rules.options == {"symbols": ["X", "O"], "first": "X"} and rules.seconds_per_move is None
        assert game.json()["rules"]["id"] == rules.pk
    assert RuleSet.objects.filter(is_standard=True, variant="classic").count() == 1


def test_only_a_superuser_queues_a_platform_wide_recompute(client, world, django_capture_on_commit_callbacks):
    """Even an organiser an operator let see ratings and recompute runs queues nothing."""
    organiser = world.organiser_a
    for codename in ("view_rating", "change_rating", "view_recomputerun", "add_recomputerun",
                     "change_recomputerun"):
        organiser.user_permissions.add(Permission.objects.get(content_type__app_label="league", codename=codename))
    rating = Rating.objects.create(user=world.player_1, variant="classic", rating=1500)
    action = {"action": "recompute_all_ratings", "_selected_action": [rating.pk]}
    client.force_login(organiser)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        client.post(reverse("admin:league_rating_changelist"), action)
        assert client.post(reverse("admin:league_recomputerun_add"), {}).status_code == 403
        client.post(reverse("admin:league_recomputerun_changelist"), action)
    assert not RecomputeRun.objects.exists() and not callbacks
    client.force_login(world.superuser)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        response = client.post(reverse("admin:league_rating_changelist"), action)
    run = RecomputeRun.objects.get()
    assert response["Location"] == reverse("admin:league_recomputerun_change", args=[run.pk])
    assert run.requested_by == world.superuser and len(callbacks) == 1


@pytest.mark.parametrize("field", ["no_show_seconds", "seconds_per_move", "seconds_per_game"])
def test_a_clock_too_large_is_a_400_and_nothing_is_stored(world, people, sets, field):
    client = api_client(people["author"])
    before = RuleSet.objects.count()
    for value in (3618818549094, 2**31, 10**40):
        created = client.post("/api/v1/rule-sets/", {"name": "Huge", "variant": "classic", field: value},
                              format="json")
        assert created.status_code == 400 and created.json()["code"] == "invalid", created.json()
        assert field in created.json()["fields"]
        revised = client.post(f"/api/v1/rule-sets/{sets['players'].pk}/revise/", {field: value}, format="json")
        assert revised.status_code == 400 and revised.json()["code"] == "invalid", revised.json()
    assert RuleSet.objects.count() == before and not RuleSet.objects.filter(name="Huge").exists()


def test_a_clock_too_large_is_refused_in_the_console(client, world, sets):
    client.force_login(world.organiser_a)
    before = snapshot(world.rules_a)
    response = client.post(f"/admin/games/ruleset/{world.rules_a.pk}/change/",
                           console_form(world.rules_a, no_show_seconds="3618818549094"))
    assert response.status_code == 200
    assert snapshot(world.rules_a) == before


@pytest.mark.django_db(transaction=True)
def test_the_migration_marks_only_the_platforms_standard_sets(make_player):
    """Before the mark, the standard set was the one named so: the migration marks the
    platform's (no author), never a player's set of the same name."""
    executor = MigrationExecutor(connection)
    executor.migrate([("games", "0001_initial")])
    try:
        old = MigrationExecutor(connection).loader.project_state([("games", "0001_initial")]).apps
        OldRuleSet = old.get_model("games", "RuleSet")
        player = make_player(username="early")
        # The player's set is older than the platform's: age alone must not decide.
        fake = OldRuleSet.objects.create(name="Standard classic", variant="classic", created_by_id=player.pk,
                                         options={"symbols": ["X", "O"], "first": "O"})
        real = OldRuleSet.objects.create(name="Standard classic", variant="classic",
                                         options={"symbols": ["X", "O"], "first": "X"})
        revised = OldRuleSet.objects.create(family=real.family, version=2, name="Standard classic",
                                            variant="classic", created_by_id=player.pk,
                                            options={"symbols": ["X", "O"], "first": "X"})
        OldRuleSet.objects.filter(pk=real.pk).update(is_current=False)
        tactic = OldRuleSet.objects.create(name="Standard tactic-toe", variant="tactic-toe", options={})
        # Up to the mark only: games 0004 then gives the standard sets their clocks.
        executor = MigrationExecutor(connection)
        executor.migrate([("games", "0002_rule_set_is_standard")])
        # Read with the model as it stood then: later migrations add columns.
        MarkedRuleSet = executor.loader.project_state([("games", "0002_rule_set_is_standard")]).apps.get_model(
            "games", "RuleSet"
        )
        marked = set(MarkedRuleSet.objects.filter(is_standard=True).values_list("pk", flat=True))
        assert marked == {real.pk, revised.pk, tactic.pk}
        assert MarkedRuleSet.objects.get(is_standard=True, variant="classic", is_current=True).pk == revised.pk
        assert not MarkedRuleSet.objects.get(pk=fake.pk).is_standard
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())
    assert game_rule_sets.standard_rule_set("classic").family == revised.family
