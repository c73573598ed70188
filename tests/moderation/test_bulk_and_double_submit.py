"""Bulk actions and actions confirmed twice. A ban confirmed twice (a double click on
Save, a form posted again) or a viewer with several tabs banned in one action makes one
ban in force: two made lifting one leave the viewer refused by the other. "Select all"
then confirm acts on every row the confirmation listed (an outside probe, 2026-12-01)."""

from __future__ import annotations

import re

import pytest

from accounts.errors import ServiceError
from games.models import Observer
from moderation import services
from moderation.models import AuditEntry, ObserverBan

pytestmark = pytest.mark.django_db


def test_a_second_ban_in_force_for_the_same_scope_is_refused(world):
    services.ban_user(actor=world.organiser_a, user=world.member_a, club=world.club_a, reason="Spoilers")
    with pytest.raises(ServiceError) as refused:
        services.ban_user(actor=world.organiser_a, user=world.member_a, club=world.club_a, reason="Spoilers")
    assert refused.value.code == "already-banned" and "Spoilers" in refused.value.message
    assert ObserverBan.objects.filter(user=world.member_a).count() == 1
    # Another scope is another ban; once lifted, a new one may be made.
    services.ban_user(actor=world.organiser_a, user=world.member_a, game=world.game_a, reason="Here too")
    services.lift_ban(actor=world.organiser_a, ban=ObserverBan.objects.get(club=world.club_a))
    services.ban_user(actor=world.organiser_a, user=world.member_a, club=world.club_a, reason="Again")
    assert ObserverBan.objects.filter(user=world.member_a, lifted_at__isnull=True).count() == 2


def test_the_ban_form_saved_twice_makes_one_ban_and_says_so(client, world):
    client.force_login(world.organiser_a)
    data = {"user": world.member_a.pk, "club": world.club_a.pk, "tournament": "", "game": "", "reason": "Spoilers",
            "_save": "Save"}
    assert client.post("/admin/moderation/observerban/add/", data).status_code == 302
    again = client.post("/admin/moderation/observerban/add/", data)
    assert again.status_code == 200
    assert "already banned from watching" in again.content.decode()
    assert ObserverBan.objects.filter(user=world.member_a).count() == 1
    assert AuditEntry.objects.filter(action="observer.ban").count() == 1


def test_banning_a_viewers_two_tabs_at_once_makes_one_ban_without_an_error(client, world):
    tabs = [Observer.objects.create(game=world.game_a, user=world.member_a, channel_name=f"tab.{n}",
                                    viewer=f"user:{world.member_a.pk}") for n in (1, 2)]
    client.force_login(world.organiser_a)
    response = client.post("/admin/games/observer/", {
        "action": "ban_from_club", "_selected_action": [tab.pk for tab in tabs], "confirm": "yes", "reason": "Spoilers",
    }, follow=True)
    page = response.content.decode()
    assert not re.search(r'class="error"', page), page
    assert ObserverBan.objects.filter(user=world.member_a).count() == 1
    assert not Observer.objects.filter(user=world.member_a).exists()


def _hidden_fields(page: str) -> list[tuple[str, str]]:
    form = page[page.index('<div id="confirm-action">'):]
    return re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', form)


def test_select_all_then_confirm_acts_on_every_row_it_listed(client, world):
    """"Select all 250 observers", then Kick: the confirmation listed all 250 but sent
    back only the page's 100 ids, and kicked 100 ("done for 100")."""
    Observer.objects.bulk_create([Observer(game=world.game_a, channel_name=f"bulk.{n}", viewer=f"address:10.0.0.{n}")
                                  for n in range(120)])
    client.force_login(world.organiser_a)
    url = f"/admin/games/observer/?game__id__exact={world.game_a.pk}"
    page_ids = list(Observer.objects.order_by("-pk").values_list("pk", flat=True)[:100])
    confirm = client.post(url, {"action": "kick", "select_across": "1", "index": "0", "_selected_action": page_ids})
    page = confirm.content.decode()
    assert page.count(f"watching game {world.game_a.pk}") == 120
    data: dict[str, list[str]] = {}
    for name, value in _hidden_fields(page):
        data.setdefault(name, []).append(value)
    data["reason"] = ["Clearing the room"]
    done = client.post(url, data, follow=True)
    assert "done for 120" in done.content.decode()
    assert not Observer.objects.filter(game=world.game_a).exists()
