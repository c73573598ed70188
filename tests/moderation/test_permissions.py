"""The permissions matrix: superuser, organiser of club A, arbiter of club A, organiser
of club B, a plain member and anonymous, against club A's objects in the admin's
changelists, change views and actions."""

from __future__ import annotations

import re
from typing import Any

import pytest

from games.models import Observer, RuleSet
from moderation import services
from moderation.models import AuditEntry, ObserverBan, ObserverPolicy

pytestmark = pytest.mark.django_db

WHO = ["superuser", "organiser_a", "arbiter_a", "organiser_b", "member_a", "anonymous"]
#: What each may do with club A's objects: see them listed, open and change them.
SEES = {"superuser", "organiser_a", "arbiter_a"}
EDITS_RULES = {"superuser", "organiser_a"}
STAFF = {"superuser", "organiser_a", "arbiter_a", "organiser_b"}


@pytest.fixture
def club_a_objects(world) -> dict[str, Any]:
    from games import observing as game_observing

    game_observing.observer_joined(game_id=world.game_a.pk, user=world.member_a, channel_name="specific.test!watcher")
    ban = services.ban_user(actor=world.superuser, user=world.player_1, game=world.game_a, reason="Old ban")
    policy = services.set_observer_policy(actor=world.superuser, club=world.club_a, policy="signed-in")
    return {
        "ruleset": world.rules_a,
        "game": world.game_a,
        "observer": Observer.objects.get(channel_name="specific.test!watcher"),
        "observerban": ban,
        "observerpolicy": policy,
        "auditentry": AuditEntry.objects.filter(club=world.club_a).first(),
    }


URLS = {
    "ruleset": "/admin/games/ruleset/",
    "game": "/admin/games/game/",
    "observer": "/admin/games/observer/",
    "observerban": "/admin/moderation/observerban/",
    "observerpolicy": "/admin/moderation/observerpolicy/",
    "auditentry": "/admin/moderation/auditentry/",
}


def login(client, world, who):
    if who != "anonymous":
        client.force_login(getattr(world, who))


@pytest.mark.parametrize("who", WHO)
def test_changelists(client, world, club_a_objects, who):
    login(client, world, who)
    for name, url in URLS.items():
        response = client.get(url)
        if who not in STAFF:
            assert response.status_code == 302 and "/admin/login/" in response["Location"], (who, name)
            continue
        assert response.status_code == 200, (who, name)
        obj = club_a_objects[name]
        listed = f"/{obj.pk}/change/" in response.content.decode()
        assert listed == (who in SEES), (who, name)


@pytest.mark.parametrize("who", WHO)
def test_change_views(client, world, club_a_objects, who):
    login(client, world, who)
    for name, url in URLS.items():
        obj = club_a_objects[name]
        response = client.get(f"{url}{obj.pk}/change/")
        if who not in STAFF:
            assert response.status_code == 302 and "/admin/login/" in response["Location"], (who, name)
        elif who in SEES:
            assert response.status_code == 200, (who, name)
        else:  # another club's object is as good as missing
            assert response.status_code == 302 and response["Location"] == "/admin/", (who, name)
    # The watchers' live list, the rule preview: the same rule.
    watchers = client.get(f"/admin/games/game/{world.game_a.pk}/watchers/")
    assert watchers.status_code == (200 if who in SEES else 404 if who in STAFF else 302)
    if who in SEES:
        assert "member_a" in watchers.content.decode()


@pytest.mark.parametrize("who", WHO)
def test_editing_a_house_rule_set(client, world, club_a_objects, who):
    from tests.moderation.test_rule_sets_admin import form_data

    login(client, world, who)
    response = client.post(f"/admin/games/ruleset/{world.rules_a.pk}/change/", form_data(opt_first="O"))
    versions = RuleSet.objects.filter(family=world.rules_a.family).count()
    assert versions == (2 if who in EDITS_RULES else 1), (who, response.status_code)
    if who in STAFF and who not in EDITS_RULES:
        assert response.status_code in (302, 403)


@pytest.mark.parametrize("who", WHO)
def test_the_kick_action(client, world, club_a_objects, who):
    login(client, world, who)
    observer = club_a_objects["observer"]
    client.post(URLS["observer"], {"action": "kick", "_selected_action": [observer.pk], "confirm": "yes",
                                   "reason": "Noise"})
    kicked = not Observer.objects.filter(pk=observer.pk).exists()
    assert kicked == (who in SEES), who
    assert AuditEntry.objects.filter(action="observer.kick").exists() == (who in SEES)


@pytest.mark.parametrize("who", WHO)
def test_the_lift_ban_action(client, world, club_a_objects, who):
    login(client, world, who)
    ban = club_a_objects["observerban"]
    client.post(URLS["observerban"], {"action": "lift", "_selected_action": [ban.pk], "confirm": "yes",
                                      "reason": ""})
    ban.refresh_from_db()
    assert (ban.lifted_at is not None) == (who in SEES), who


@pytest.mark.parametrize("who", WHO)
def test_the_remove_policy_action(client, world, club_a_objects, who):
    login(client, world, who)
    policy = club_a_objects["observerpolicy"]
    client.post(URLS["observerpolicy"], {"action": "remove_policies", "_selected_action": [policy.pk],
                                         "confirm": "yes", "reason": ""})
    assert (not ObserverPolicy.objects.filter(pk=policy.pk).exists()) == (who in EDITS_RULES), who


def test_the_kick_action_asks_for_confirmation_and_a_reason(client, world, club_a_objects):
    client.force_login(world.arbiter_a)
    observer = club_a_objects["observer"]
    page = client.post(URLS["observer"], {"action": "kick", "_selected_action": [observer.pk]})
    assert page.status_code == 200 and "please confirm" in page.content.decode()
    no_reason = client.post(URLS["observer"], {"action": "kick", "_selected_action": [observer.pk],
                                               "confirm": "yes", "reason": ""})
    assert no_reason.status_code == 200 and "This field is required." in no_reason.content.decode()
    assert Observer.objects.filter(pk=observer.pk).exists()


def test_ban_from_the_club_action(client, world, club_a_objects):
    client.force_login(world.organiser_a)
    observer = club_a_objects["observer"]
    response = client.post(URLS["observer"], {"action": "ban_from_club", "_selected_action": [observer.pk],
                                              "confirm": "yes", "reason": "Coaching"})
    assert response.status_code == 302
    ban = ObserverBan.objects.get(user=world.member_a)
    assert ban.club == world.club_a and ban.reason == "Coaching" and ban.banned_by == world.organiser_a
    assert not Observer.objects.filter(pk=observer.pk).exists()


@pytest.mark.parametrize("who", WHO)
def test_the_audit_log_is_never_editable(client, world, club_a_objects, who):
    login(client, world, who)
    entry = club_a_objects["auditentry"]
    before = AuditEntry.objects.count()
    client.post(f"{URLS['auditentry']}{entry.pk}/change/", {"reason": "rewritten"})
    client.post(f"{URLS['auditentry']}{entry.pk}/delete/", {"post": "yes"})
    client.post(URLS["auditentry"], {"action": "delete_selected", "_selected_action": [entry.pk], "post": "yes"})
    entry.refresh_from_db()
    assert entry.reason != "rewritten" and AuditEntry.objects.count() >= before
    if who in SEES:
        page = client.get(f"{URLS['auditentry']}{entry.pk}/change/").content.decode()
        assert 'name="reason"' not in page and "Save" not in page


def test_the_audit_log_filters_and_searches(client, world, club_a_objects):
    client.force_login(world.organiser_a)
    services.kick_observer(actor=world.arbiter_a, observer=club_a_objects["observer"], reason="Whistling")
    page = client.get(URLS["auditentry"] + "?action=observer.kick").content.decode()
    assert "Whistling" in page and "Old ban" not in page
    page = client.get(URLS["auditentry"] + "?q=Whistling").content.decode()
    assert "Whistling" in page and "Old ban" not in page


@pytest.mark.parametrize("who", WHO)
def test_celery_schedules_are_for_superusers_only(client, world, who):
    login(client, world, who)
    response = client.get("/admin/django_celery_beat/periodictask/")
    if who == "superuser":
        assert response.status_code == 200
        index = client.get("/admin/").content.decode()
        assert "/admin/django_celery_beat/periodictask/" in index
        assert client.get("/admin/django_celery_beat/periodictask/add/").status_code == 200
    elif who in STAFF:
        assert response.status_code == 403
        assert "django_celery_beat" not in client.get("/admin/").content.decode()
    else:
        assert response.status_code == 302


def test_policy_and_ban_forms_need_exactly_one_scope(client, world):
    client.force_login(world.organiser_a)
    page = client.post("/admin/moderation/observerpolicy/add/", {"policy": "none", "cap": ""})
    assert "Choose what the policy is for: a club, a tournament section or one game" in page.content.decode()
    page = client.post("/admin/moderation/observerban/add/", {"user": world.member_a.pk, "reason": "x",
                                                             "club": world.club_a.pk, "game": world.game_a.pk})
    assert "Choose what the ban is from: a club, a tournament or one game" in page.content.decode()
    assert not ObserverPolicy.objects.exists() and not ObserverBan.objects.exists()
    client.post("/admin/moderation/observerpolicy/add/", {"club": world.club_a.pk, "policy": "members", "cap": "3"})
    assert ObserverPolicy.objects.get(club=world.club_a).cap == 3
    client.post("/admin/moderation/observerban/add/", {"user": world.member_a.pk, "reason": "Heckling",
                                                       "club": world.club_a.pk})
    assert ObserverBan.objects.get(user=world.member_a).banned_by == world.organiser_a
    # Another club's organiser cannot aim a policy or a ban at club A.
    # The form comes back with the service's refusal, and no "added successfully" (an
    # outside probe saw both at once, and a link to a ban "None").
    client.force_login(world.organiser_b)
    client.get("/admin/")  # shows (and so clears) the messages of the adds above
    for url, fields in (("observerban", {"user": world.player_1.pk, "reason": "x", "game": world.game_a.pk}),
                        ("observerpolicy", {"game": world.game_a.pk, "policy": "none", "cap": ""})):
        page = client.post(f"/admin/moderation/{url}/add/", fields, follow=True)
        text = page.content.decode()
        assert page.status_code == 200 and "Only the club" in text, text[-2000:]
        assert "successfully" not in text and "/None/" not in text
    assert not ObserverBan.objects.filter(user=world.player_1).exists()
    assert not ObserverPolicy.objects.filter(game=world.game_a).exists()


@pytest.mark.parametrize("cap", ["0", "100001", "99999999999999"])
def test_the_policy_form_refuses_a_cap_out_of_range_beside_the_field(client, world, cap):
    client.force_login(world.organiser_a)
    page = client.post("/admin/moderation/observerpolicy/add/", {"club": world.club_a.pk, "policy": "anyone",
                                                                 "cap": cap})
    text = page.content.decode()
    assert page.status_code == 200
    # Beside the cap (Django's admin puts a field's errors in its row), in words.
    assert re.search(r'field-cap[^>]*>\s*<ul class="errorlist"[^>]*><li>The observer cap is a whole number '
                     r'from 1 to 100,000', text), text[-4000:]
    assert not ObserverPolicy.objects.exists()


def test_the_policy_and_ban_forms_say_what_scope_is_missing_in_words(client, world):
    client.force_login(world.organiser_a)
    text = client.post("/admin/moderation/observerpolicy/add/", {"policy": "none", "cap": ""}).content.decode()
    assert "Choose what the policy is for: a club, a tournament section or one game (exactly one)." in text
    assert "observer_policy_has_one_scope" not in text and "Constraint" not in text
    text = client.post("/admin/moderation/observerban/add/", {"user": world.member_a.pk,
                                                             "reason": "x"}).content.decode()
    assert "Choose what the ban is from: a club, a tournament or one game (exactly one)." in text
    assert "observer_ban_has_one_scope" not in text and "Constraint" not in text
    assert not ObserverPolicy.objects.exists() and not ObserverBan.objects.exists()
