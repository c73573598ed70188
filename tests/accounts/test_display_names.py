"""A display name cannot pass one player off as another (docs/accounts.md, "Names"):
another player's username or display name, in any case, spacing or Unicode form, is
refused at sign-up and on the profile, and nothing changes; so is a name or username
mixing scripts' look-alike letters ("Olga" spelt with a Cyrillic "O")."""

from __future__ import annotations

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from accounts import services
from accounts.errors import ServiceError
from accounts.models import User
from tests.factories import SignupFactory as signup_data

pytestmark = pytest.mark.django_db


def fullwidth(text: str) -> str:
    """``text`` in fullwidth letters (U+FF21...), which NFKC reads as plain ones."""
    return "".join(chr(ord(c) + 0xFEE0) for c in text)


@pytest.fixture
def olga(make_player):
    return make_player(username="olga", display_name="Olga the Organiser")


@pytest.mark.parametrize("taken", [
    "Olga the Organiser", "olga THE organiser", "  Olga   the\tOrganiser ", fullwidth("OLGA") + " the Organiser",
    "OLGA", fullwidth("olga"),
    # A variation selector (U+FE0F: an emoji's colour) adds nothing to read: "Olga" and
    # "Olga" + U+FE0F are one name on the page.
    "Olga the Organiser\ufe0f", "olga\ufe0e", "Ol\ufe0fga the Organiser",
])
def test_another_players_name_is_refused_on_the_profile(olga, make_player, taken):
    sam = make_player(username="sam", display_name="Sam")
    with pytest.raises(ServiceError) as refused:
        services.update_profile(user=sam, display_name=taken)
    assert refused.value.code == "display-name-taken"
    sam.profile.refresh_from_db()
    assert sam.profile.display_name == "Sam"


def test_a_player_keeps_or_takes_their_own_names(olga):
    assert services.update_profile(user=olga, display_name="OLGA").display_name == "OLGA"
    assert services.update_profile(user=olga, display_name=" Olga  the Organiser ").display_name == "Olga the Organiser"


def test_names_are_stored_as_others_will_compare_them(make_player):
    player = make_player(username="rosa")
    assert services.update_profile(user=player, display_name=fullwidth("Rosa") + " \t S.").display_name == "Rosa S."


def test_the_profile_page_says_why_and_keeps_the_name(client, olga, make_player):
    sam = make_player(username="sam", display_name="Sam")
    client.force_login(sam)
    page = client.post(reverse("accounts:profile"), {"display_name": "olga the organiser", "country": "GB"})
    assert "is another player&#x27;s name" in page.content.decode()
    sam.profile.refresh_from_db()
    assert sam.profile.display_name == "Sam"


def test_sign_up_with_another_players_name_is_refused(client, olga):
    page = client.post(reverse("accounts:signup"), signup_data(username="olga2", display_name="Olga The Organiser"))
    assert page.status_code == 200 and "is another player&#x27;s name" in page.content.decode()
    response = APIClient().post("/api/v1/accounts/signup/", signup_data(username="olga3", display_name="OLGA"),
                                format="json")
    assert response.status_code == 400 and response.json()["code"] == "display-name-taken"
    assert list(User.objects.values_list("username", flat=True)) == ["olga"]


def test_a_username_that_is_another_players_display_name_needs_a_display_name_of_its_own(client, make_player):
    make_player(username="ann", display_name="Captain")
    refused = client.post(reverse("accounts:signup"), signup_data(username="captain", display_name=""))
    assert "is another player&#x27;s name" in refused.content.decode()
    assert client.post(reverse("accounts:signup"),
                       signup_data(username="captain", display_name="The Captain")).status_code == 302


CYRILLIC_O, GREEK_ALPHA, CYRILLIC_DZE = "\u041e", "\u0391", "\u0455"


@pytest.mark.parametrize("name", [CYRILLIC_O + "lga the Organiser", GREEK_ALPHA + "dmin", "organi" + CYRILLIC_DZE + "er",
                                  "Olga \u041f\u0435\u0442\u0440\u043e\u0432\u0430"])
def test_look_alike_letters_of_another_script_are_refused(olga, make_player, name):
    sam = make_player(username="sam", display_name="Sam")
    with pytest.raises(ServiceError) as refused:
        services.update_profile(user=sam, display_name=name)
    assert refused.value.code == "display-name-look-alike" and "one script" in refused.value.message
    sam.profile.refresh_from_db()
    assert sam.profile.display_name == "Sam"


@pytest.mark.parametrize("name", ["\u041e\u043b\u044c\u0433\u0430", "\u03a3\u03c9\u03ba\u03c1\u03ac\u03c4\u03b7\u03c2",
                                  "\u3084\u307e\u3060 \u592a\u90ce", "Sam \u592a\u90ce", "\u0645\u062d\u0645\u062f Ali",
                                  "Ren\u00e9e O\u2019Neil-\u0141uk", "Kim \ud55c\uc194 \u97d3"])
def test_one_script_or_scripts_written_together_are_welcome(make_player, name):
    player = make_player(username="anyone")
    assert services.update_profile(user=player, display_name=name).display_name == name


def test_a_look_alike_username_is_refused_at_sign_up(client, olga):
    page = client.post(reverse("accounts:signup"), signup_data(username=CYRILLIC_O + "lga", display_name="Real Olga"))
    assert page.status_code == 200 and "one script" in page.content.decode()
    response = APIClient().post("/api/v1/accounts/signup/", signup_data(username="organi" + CYRILLIC_DZE + "er"),
                                format="json")
    assert response.status_code == 400 and "one script" in str(response.json())
    assert list(User.objects.values_list("username", flat=True)) == ["olga"]


@pytest.mark.parametrize("name", ["Mei \u202e1 point", "\u200b\u200b", "x\u0001\u001b[31mred", "Ana\u2066", "\ufeffSam"])
def test_invisible_and_control_characters_are_refused(make_player, name):
    player = make_player(username="anyone", display_name="Anyone")
    with pytest.raises(ServiceError) as refused:
        services.update_profile(user=player, display_name=name)
    assert refused.value.code in ("display-name-invisible", "invalid-display-name")
    player.profile.refresh_from_db()
    assert player.profile.display_name == "Anyone"


def test_joiners_that_scripts_and_emoji_need_are_kept(make_player):
    player = make_player(username="anyone")
    persian = "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645"  # a zero-width non-joiner inside a Persian word
    assert services.update_profile(user=player, display_name=persian).display_name == persian
    family = "Kim \U0001f468\u200d\U0001f469\u200d\U0001f467"  # an emoji family: joiners between its people
    assert services.update_profile(user=player, display_name=family).display_name == family


def test_a_name_of_symbols_alone_is_still_a_name_but_not_of_marks_alone(make_player):
    player = make_player(username="anyone")
    assert services.update_profile(user=player, display_name="\u2605 Star \u2605").display_name == "\u2605 Star \u2605"
    with pytest.raises(ServiceError) as refused:
        services.update_profile(user=player, display_name="\u0301\u0301")  # combining accents with nothing under them
    assert refused.value.code == "invalid-display-name"


@pytest.mark.parametrize("name", ["\u115f\u115f", "\u3164", "\uffa0\uffa0", "\u2800\u2800", "Sam\u3164", "M\u034fei"])
def test_letters_and_symbols_that_draw_nothing_are_refused(make_player, name):
    """The Hangul fillers, the Braille blank and the combining grapheme joiner: letters,
    symbols or marks to Unicode, blank on the page (an outside probe's display name)."""
    player = make_player(username="anyone", display_name="Anyone")
    with pytest.raises(ServiceError) as refused:
        services.update_profile(user=player, display_name=name)
    assert refused.value.code == "display-name-invisible"
    player.profile.refresh_from_db()
    assert player.profile.display_name == "Anyone"


def test_an_emoji_with_its_variation_selector_is_still_a_name(make_player):
    player = make_player(username="anyone")
    assert services.update_profile(user=player, display_name="Kim \u2764\ufe0f").display_name == "Kim \u2764\ufe0f"


@pytest.mark.parametrize("username", ["\u115f\u115f", "sam\u3164", "\uffa0x"])
def test_a_username_that_draws_nothing_is_refused_at_sign_up(client, username):
    response = APIClient().post("/api/v1/accounts/signup/", signup_data(username=username), format="json")
    assert response.status_code == 400 and "shows as nothing" in str(response.json())
    page = client.post(reverse("accounts:signup"), signup_data(username=username, display_name="Blank"))
    assert page.status_code == 200 and "shows as nothing" in page.content.decode()
    assert not User.objects.exists()
