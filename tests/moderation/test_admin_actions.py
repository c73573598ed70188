"""An admin action posted with a malformed selection (``_selected_action=abc`` where
the key is a number, or one past 64 bits) is answered with the admin's own "no items"
message, never a 500 (docs/security.md, "Bad input"). The check is the site's
(moderation.admin_site.ConsoleSite), so it holds for every model admin registered on
it, the project's, Django's and the libraries' alike: the test walks them all."""

from __future__ import annotations

from datetime import date

import pytest
from django.contrib import admin
from django.contrib.admin import helpers
from django.contrib.messages import get_messages
from django.test import Client
from django.urls import reverse

from accounts.models import GuardianConsent
from tests.factories import SuperuserFactory

pytestmark = pytest.mark.django_db

HUGE = "9" * 30


def _registered() -> list[tuple[str, str]]:
    return sorted((model._meta.app_label, str(model._meta.model_name)) for model in admin.site._registry)


@pytest.fixture
def root_client() -> Client:
    client = Client(raise_request_exception=False)
    client.force_login(SuperuserFactory.create())
    return client


@pytest.mark.parametrize(("app_label", "model_name"), _registered())
def test_a_malformed_selection_is_the_admins_message_not_a_500(root_client, rf, app_label, model_name):
    model_admin = next(a for m, a in admin.site._registry.items()
                       if (m._meta.app_label, m._meta.model_name) == (app_label, model_name))
    request = rf.get("/")
    request.user = SuperuserFactory.build(is_superuser=True, is_staff=True)
    # The admin's first action; an admin without any (read-only ones) is sent Django's.
    action = next(iter(model_admin.get_actions(request)), "delete_selected")
    url = reverse(f"admin:{app_label}_{model_name}_changelist")
    for selected in ("abc", HUGE, "-" + HUGE, "1.5", ""):
        # Both ways Django takes an action: with "index" (the changelist's form) and
        # without it (a confirmation page's second post, delete_selected's "Yes, I'm sure").
        for extra in ({"index": "0"}, {"post": "yes"}):
            body = {"action": action, helpers.ACTION_CHECKBOX_NAME: [selected, "1"], **extra}
            response = root_client.post(url, body)
            assert response.status_code in (200, 302), (action, selected, extra, response.status_code)


def test_the_message_says_nothing_was_changed(root_client, make_player):
    kid = make_player(username="kid", born=date(2015, 1, 1), open_account=False)
    consent = GuardianConsent.objects.get(user=kid)
    url = reverse("admin:accounts_guardianconsent_changelist")
    response = root_client.post(url, {"action": "withdraw_consent", "index": "0",
                                      helpers.ACTION_CHECKBOX_NAME: [str(consent.pk), "abc"]})
    assert response.status_code == 302 and response.url == url
    text = [str(m) for m in get_messages(response.wsgi_request)]
    assert any("No items have been changed" in m for m in text), text
    consent.refresh_from_db()
    assert consent.revoked_at is None


def test_a_well_formed_selection_still_runs_the_action(root_client, make_player):
    kid = make_player(username="kid", born=date(2015, 1, 1), open_account=False)
    consent = GuardianConsent.objects.get(user=kid)
    url = reverse("admin:accounts_guardianconsent_changelist")
    response = root_client.post(url, {"action": "withdraw_consent", "index": "0",
                                      helpers.ACTION_CHECKBOX_NAME: [str(consent.pk)]})
    assert response.status_code == 302
    consent.refresh_from_db()
    assert consent.revoked_at is not None


def _with_date_hierarchy() -> list[tuple[str, str, str]]:
    return sorted((m._meta.app_label, str(m._meta.model_name), a.date_hierarchy)
                  for m, a in admin.site._registry.items() if a.date_hierarchy)


@pytest.mark.parametrize(("app_label", "model_name", "field"), _with_date_hierarchy())
@pytest.mark.parametrize("dates", [{"year": HUGE}, {"year": "9999"}, {"year": "9999", "month": "12"},
                                   {"year": "9999", "month": "12", "day": "31"}, {"year": "2026", "month": HUGE}])
def test_a_date_past_the_calendar_is_a_bad_filter_not_a_500(root_client, app_label, model_name, field, dates):
    """A date hierarchy's year no date holds (an outside probe: ?created_at__year=9...9 on
    the audit log) sends the list back with "?e=1", as a year of "zz" does."""
    url = reverse(f"admin:{app_label}_{model_name}_changelist")
    response = root_client.get(url, {f"{field}__{part}": value for part, value in dates.items()})
    assert response.status_code == 302 and response.url.endswith("?e=1"), response.status_code
