"""House-rule sets in the admin: the form the engine's option schemas generate, the
engine's refusals, presets, versions and the preview in words (Django test client)."""

from __future__ import annotations

import re

import pytest

from games.admin import option_fields
from games.models import RuleSet
from games.rules import variant_slugs
from moderation.models import AuditEntry, ClubRuleSet

pytestmark = pytest.mark.django_db

ADD = "/admin/games/ruleset/add/"


def form_data(**overrides):
    data = {
        "name": "House classic", "variant": "classic", "decider": "challenger",
        "opt_symbols_0": "X", "opt_symbols_1": "O", "opt_first": "X",
        "match_format": "single", "match_games": "1", "next_first": "loser", "no_show_seconds": "300",
        "seconds_per_move": "", "seconds_per_game": "",
    }
    data.update(overrides)
    return data


def errors(response) -> list[str]:
    return re.findall(r'<ul class="errorlist[^"]*"[^>]*><li>(.*?)</li>', response.content.decode())


def test_every_variant_gets_a_form_without_raw_json():
    for slug in variant_slugs():
        fields = option_fields(slug)
        for field in fields.values():
            assert "JSON" not in type(field).__name__
    assert set(option_fields("classic")) == {"opt_symbols_0", "opt_symbols_1", "opt_first"}
    assert set(option_fields("tic-tac-two")) == {"opt_meta", "opt_void"}


def test_choosing_a_variant_shows_its_options(client, world):
    client.force_login(world.organiser_a)
    page = client.get(ADD + "?variant=tic-tac-two").content.decode()
    assert 'name="opt_meta"' in page and 'name="opt_void"' in page and "Meta variation" in page
    assert 'name="opt_symbols_0"' not in page
    classic = client.get(ADD).content.decode()
    assert 'name="opt_symbols_0"' in classic and "Letters: Player One" in classic
    assert 'name="options"' not in classic  # never the raw JSON field


@pytest.mark.parametrize("field,letter", [("opt_symbols_0", "Q"), ("opt_symbols_1", "C"), ("opt_first", "Q")])
def test_the_letter_q_or_c_is_refused_with_the_faq_answer(client, world, field, letter):
    client.force_login(world.organiser_a)
    before = RuleSet.objects.count()
    response = client.post(ADD + "?variant=classic", form_data(**{field: letter, "club": world.club_a.pk}))
    assert response.status_code == 200
    found = errors(response)
    assert any("it must be Xs and Os" in e and f"&#x27;{letter}&#x27;" in e for e in found), found
    # The message sits beside the option at fault.
    assert re.search(rf'<ul class="errorlist" id="id_{field}_error">', response.content.decode())
    assert RuleSet.objects.count() == before
    assert not AuditEntry.objects.filter(action="rules.create", target_repr__startswith="House classic").exists()


def test_the_services_checks_come_back_as_form_errors(client, world):
    client.force_login(world.organiser_a)
    response = client.post(ADD, form_data(match_format="official", club=world.club_a.pk))
    assert any("official match" in e for e in errors(response))
    assert not RuleSet.objects.filter(name="House classic").exists()


def test_presets_fill_the_form(client, world):
    client.force_login(world.organiser_a)
    page = client.get(ADD + "?preset=classic-player-two-x").content.decode()
    assert re.search(r'name="opt_symbols_0"[^>]*value="O"', page)
    assert re.search(r'name="opt_symbols_1"[^>]*value="X"', page)
    assert "X goes first, so Player Two moves first." in page  # the preview of the preset
    o_first = client.get(ADD + "?preset=classic-o-first").content.decode()
    assert re.search(r'name="opt_first"[^>]*value="O"', o_first)
    assert "FAQ v1.03 house rule" in o_first


def test_creating_a_set_for_the_club_is_audited(client, world):
    client.force_login(world.organiser_a)
    response = client.post(ADD, form_data(name="O first", opt_first="O", club=world.club_a.pk))
    assert response.status_code == 302
    saved = RuleSet.objects.get(name="O first")
    assert saved.options == {"symbols": ["X", "O"], "first": "O"}
    assert ClubRuleSet.objects.get(family=saved.family).club == world.club_a
    entry = AuditEntry.objects.get(action="rules.create", target_id=str(saved.pk))
    assert entry.actor == world.organiser_a and entry.club == world.club_a


def test_an_organiser_must_choose_one_of_their_clubs(client, world):
    client.force_login(world.organiser_a)
    response = client.post(ADD, form_data(name="Nowhere"))
    assert response.status_code == 200 and not RuleSet.objects.filter(name="Nowhere").exists()
    response = client.post(ADD, form_data(name="Theirs", club=world.club_b.pk))
    assert response.status_code == 200 and not RuleSet.objects.filter(name="Theirs").exists()


def test_editing_makes_a_new_version_and_games_keep_theirs(client, world):
    from games import services

    client.force_login(world.organiser_a)
    old = world.rules_a
    url = f"/admin/games/ruleset/{old.pk}/change/"
    response = client.post(url, form_data(name="A's classic", opt_symbols_0="O", opt_symbols_1="X"))
    assert response.status_code == 302, errors(response)
    new = RuleSet.objects.get(family=old.family, is_current=True)
    assert new.version == 2 and new.options["symbols"] == ["O", "X"]
    old.refresh_from_db()
    assert not old.is_current and old.options["symbols"] == ["X", "O"]
    world.game_a.refresh_from_db()
    assert world.game_a.rule_set_id == old.pk and world.game_a.options["symbols"] == ["X", "O"]
    # A game made from the new version plays it.
    game = services.create_game(creator=world.player_1, rule_set=new, opponent=world.player_2)
    assert game.options["symbols"] == ["O", "X"]
    # The older version is shown, not edited.
    assert client.post(url, form_data()).status_code == 403
    assert AuditEntry.objects.filter(action="rules.revise", target_id=str(new.pk)).exists()


def test_the_variant_of_a_set_cannot_change(client, world):
    client.force_login(world.organiser_a)
    url = f"/admin/games/ruleset/{world.rules_a.pk}/change/"
    client.post(url, form_data(variant="tic-tac-two", opt_meta="on"))
    assert RuleSet.objects.get(family=world.rules_a.family, is_current=True).variant == "classic"


def test_the_preview_speaks_the_form_as_it_stands(client, world):
    client.force_login(world.organiser_a)
    words = client.post("/admin/games/ruleset/preview/", form_data(opt_first="O")).content.decode()
    assert "House rule: O goes first, so Player Two moves first." in words
    refused = client.post("/admin/games/ruleset/preview/", form_data(opt_symbols_0="Q")).content.decode()
    assert "it must be Xs and Os" in refused
    client.force_login(world.member_a)
    assert client.post("/admin/games/ruleset/preview/", form_data()).status_code == 302  # to the login


def test_the_change_page_shows_the_rules_in_words(client, world):
    client.force_login(world.organiser_a)
    page = client.get(f"/admin/games/ruleset/{world.rules_a.pk}/change/").content.decode()
    assert "Player One places X and Player Two places O." in page
    assert "saving makes version 2" in page


@pytest.mark.parametrize("value", ["0", "29"])
def test_a_no_show_grace_under_the_minimum_is_refused_in_the_console(client, world, value):
    """A set with a grace of 0 forfeited every game at once ("did not show up")."""
    client.force_login(world.organiser_a)
    before = RuleSet.objects.count()
    response = client.post(ADD + "?variant=classic", form_data(no_show_seconds=value, club=world.club_a.pk))
    assert response.status_code == 200
    assert any("at least 30 seconds" in error for error in errors(response)), errors(response)
    assert RuleSet.objects.count() == before


@pytest.mark.parametrize("name", ["A h\u043euse", "\u0421lassic night"])  # a Cyrillic o, a Cyrillic Es
def test_a_name_passing_a_cyrillic_letter_off_as_latin_is_refused(client, world, name):
    """An outside probe named a set "A house" (its "o" Cyrillic) beside the club's "A house": the lobby listed
    two sets that read the same. Refused on the form, on add and on edit, nothing saved."""
    client.force_login(world.organiser_a)
    before = RuleSet.objects.count()
    response = client.post(ADD + "?variant=classic", form_data(name=name, club=world.club_a.pk))
    assert response.status_code == 200
    assert any("different scripts that look alike" in e for e in errors(response)), errors(response)
    assert re.search(r'<ul class="errorlist" id="id_name_error">', response.content.decode())
    response = client.post(f"/admin/games/ruleset/{world.rules_a.pk}/change/", form_data(name=name))
    assert response.status_code == 200
    assert any("different scripts that look alike" in e for e in errors(response)), errors(response)
    assert RuleSet.objects.count() == before
    assert not AuditEntry.objects.filter(action__in=["rules.create", "rules.revise"]).exclude(
        target_repr__startswith=world.rules_a.name).filter(details__name=name).exists()
