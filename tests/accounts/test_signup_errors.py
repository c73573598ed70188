"""Where the sign-up page's errors are: each field's beside its field (in the element its
input names in ``aria-describedby``, the input ``aria-invalid``), and the ones about no
one field in one place at the top of the form, as on every form of the site. An outside
walkthrough found them scattered: a taken username or a common password above the form,
a short password beside its box. The age step (the guardian's details) and the profile
page follow the same rule."""

from __future__ import annotations

import html
import re

import pytest
from django.test import Client

from accounts import services
from accounts.errors import ServiceError
from tests.factories import SignupFactory as signup_data
from tests.support import years_ago

pytestmark = pytest.mark.django_db

PAGE = "/accounts/signup/"


def form_of(response) -> str:
    """The page's form (the one in <main>: the menu has a Log out form)."""
    assert response.status_code in (200, 400), response.status_code
    page = response.content.decode()
    page = page[page.index("<main"):]
    return page[page.index("<form"):page.index("</form>")]


def top_errors(form: str) -> list[str]:
    """The error lines above the form's first field."""
    head = form[:form.index('<div class="field')]
    return [html.unescape(line) for line in re.findall(r'<p class="error" role="alert">(.*?)</p>', head)]


def field_error(form: str, name: str) -> str:
    """The error beside field ``name``, checked to be tied to its input as a screen reader
    reads it: the input is aria-invalid and names the error's element."""
    tag = re.search(rf'<(?:input|select)[^>]*name="{name}"[^>]*>', form)
    assert tag, name
    assert 'aria-invalid="true"' in tag.group(0), tag.group(0)
    described = re.search(r'aria-describedby="([^"]*)"', tag.group(0))
    assert described and f"id_{name}_error" in described.group(1).split(), tag.group(0)
    block = re.search(rf'<div id="id_{name}_error">(.*?)</div>', form, re.S)
    assert block, name
    return html.unescape(" ".join(re.findall(r'<p class="error" role="alert">(.*?)</p>', block.group(1))))


def all_errors(form: str) -> list[str]:
    return re.findall(r'<p class="error" role="alert">(.*?)</p>', form)


def assert_only_beside(form: str, name: str, words: str) -> None:
    """The form's one error is ``words``, beside ``name``; nothing at the top."""
    assert words in field_error(form, name)
    assert top_errors(form) == []
    assert len(all_errors(form)) == 1, all_errors(form)


def test_a_taken_username_is_beside_the_username(make_player):
    make_player(username="taken")
    form = form_of(Client().post(PAGE, signup_data(username="Taken")))
    assert_only_beside(form, "username", "That username is taken: usernames are the same in any case")


def test_a_common_password_is_beside_the_password_as_a_short_one_is():
    form = form_of(Client().post(PAGE, signup_data(password="12345678901")))
    assert_only_beside(form, "password", "This password is entirely numeric.")
    form = form_of(Client().post(PAGE, signup_data(password="short")))
    assert_only_beside(form, "password", "at least 8 characters")


def test_the_password_box_sent_back_names_its_retype_note_too():
    form = form_of(Client().post(PAGE, signup_data(password="short")))
    tag = re.search(r'<input[^>]*name="password"[^>]*>', form).group(0)
    assert 'aria-describedby="id_password_retype id_password_helptext id_password_error"' in tag
    assert 'id="id_password_retype"' in form and "Type your password again." in form


@pytest.mark.parametrize(("display_name", "words"), [
    ("Olga", "is another player's name"),
    ("\u041elga", "one script"),  # a Cyrillic capital O
    ("Sam\u202e", "invisible or control characters"),
])
def test_a_display_name_refused_is_beside_the_display_name(make_player, display_name, words):
    make_player(username="olga")
    form = form_of(Client().post(PAGE, signup_data(display_name=display_name)))
    assert_only_beside(form, "display_name", words)


def test_a_date_of_birth_in_the_future_is_beside_the_date_once():
    form = form_of(Client().post(PAGE, signup_data(date_of_birth="2099-01-01")))
    assert_only_beside(form, "date_of_birth", "A date of birth cannot be in the future.")


def test_the_age_step_asks_for_the_guardian_without_calling_it_an_error():
    form = form_of(Client().post(PAGE, signup_data(date_of_birth=years_ago(15).isoformat(), country="DE")))
    assert all_errors(form) == []
    assert "need a parent&#x27;s or guardian&#x27;s consent" in form
    assert 'name="guardian_name"' in form and "Ask for consent" in form


def test_the_guardians_details_left_out_are_beside_their_fields():
    data = signup_data(date_of_birth=years_ago(15).isoformat(), country="DE", guardian_name="", guardian_email="")
    form = form_of(Client().post(PAGE, data))
    assert "This field is required." in field_error(form, "guardian_name")
    assert "This field is required." in field_error(form, "guardian_email")
    assert top_errors(form) == []


def test_the_players_own_address_as_the_guardians_is_beside_the_guardians_email():
    data = signup_data(date_of_birth=years_ago(15).isoformat(), country="DE", guardian_name="Mum",
                       guardian_email="New@example.com")
    form = form_of(Client().post(PAGE, data))
    assert_only_beside(form, "guardian_email", "must be their own, not the one you sign up with")
    # The step's own words still say why a guardian is asked for.
    assert "under 16 in the European Union" in form and "Ask for consent" in form


def test_a_refusal_about_no_one_field_is_at_the_top(monkeypatch):
    def refuse(**_kwargs):
        raise ServiceError("try-again", "The platform is busy; please send the form again.")

    monkeypatch.setattr(services, "register_player", refuse)
    form = form_of(Client().post(PAGE, signup_data()))
    assert top_errors(form) == ["The platform is busy; please send the form again."]
    assert len(all_errors(form)) == 1


def test_the_profiles_display_name_refused_is_beside_it(make_player):
    make_player(username="olga")
    sam = make_player(username="sam")
    client = Client()
    client.force_login(sam)
    form = form_of(client.post("/accounts/profile/", {"display_name": "OLGA", "country": "GB"}))
    assert_only_beside(form, "display_name", "is another player's name")


def test_every_fields_problem_is_told_at_once_beside_it(make_player):
    """A taken username and a display name that is someone's are told with the form's own
    errors, not after the others are fixed."""
    make_player(username="sam")
    data = signup_data(username="Sam", display_name="SAM", email="not-an-address", password="short",
                       date_of_birth="")
    form = form_of(Client().post(PAGE, data))
    assert "usernames are the same in any case" in field_error(form, "username")
    assert "is another player's name" in field_error(form, "display_name")
    assert field_error(form, "email") == "Enter a valid e-mail address."
    assert "at least 8 characters" in field_error(form, "password")
    assert field_error(form, "date_of_birth") == "This field is required."
    assert top_errors(form) == []


def test_the_sign_up_page_says_e_mail_as_the_site_does():
    form = form_of(Client().get(PAGE))
    assert '<label for="id_email">E-mail <span class="muted">(optional)</span></label>' in form
