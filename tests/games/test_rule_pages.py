"""The rules pages (/rules/, /rules/<slug>/), the game page's Rules panel, and the links to
them from the lobby, the main menu and a tournament section, through Django's test client."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.test import Client
from django.urls import reverse

from games import rule_sets
from games.admin import rules_in_words
from games.rule_pages import EXAMPLES, PAGE_ORDER
from games.rules import get_variant
from games.rules.registry import variant_slugs
from tests.factories import GameFactory, SectionFactory
from tests.games.test_views import client_for

pytestmark = pytest.mark.django_db

HEADINGS = {
    "classic": ["The aim", "The board", "A turn", "How it ends"],
    "t-tic-t-tac-toe": ["The aim", "The board", "A turn", "The special actions", "How it ends"],
    "tactic-toe": ["The aim", "The board", "A round", "The three rounds", "How it ends"],
    "tic-tac-two": ["The aim", "The board", "The draft", "A turn", "The special actions", "How it ends"],
    "nine-square": ["The aim", "The board", "A turn", "Scoring", "How it ends"],
    "rock-paper-scissors": ["Where it is used", "A throw", "How it ends"],
}


def headings(html: str) -> list[str]:
    return [re.sub(r"<[^>]+>", "", h).strip() for h in re.findall(r"<h[12][^>]*>(.*?)</h[12]>", html, re.S)]


def test_every_rule_set_has_a_page_in_the_index():
    assert sorted(PAGE_ORDER) == sorted(variant_slugs())
    html = Client().get("/rules/").content.decode()
    assert "<title>Rules · Tic Tac Toe League</title>" in html
    for slug in PAGE_ORDER:
        variant = get_variant(slug)
        assert f'href="/rules/{slug}/"' in html
        assert variant.summary.replace("'", "&#x27;") in html
    assert "The decider" in html


@pytest.mark.parametrize("slug", PAGE_ORDER)
def test_a_rule_sets_page_has_its_sections_decisions_clock_and_diagrams(slug):
    assert reverse("games:rules-variant", args=[slug]) == f"/rules/{slug}/"
    response = Client().get(f"/rules/{slug}/")
    assert response.status_code == 200
    html = response.content.decode()
    found = headings(html)
    variant = get_variant(slug)
    assert found[0] == f"How to play {variant.display_name}"
    for heading in ["In short", *HEADINGS[slug], "The clock"]:
        assert heading in found, (slug, heading, found)
    assert "Where the original rules are silent, we decided" in found
    # The diagrams: the variant's own board, inert, each with its caption.
    figures = re.findall(r'<figure class="rules-diagram.*?</figure>', html, re.S)
    assert len(figures) == len(EXAMPLES[slug]) >= 1
    for figure, example in zip(figures, EXAMPLES[slug], strict=True):
        assert example.caption.replace("'", "&#x27;") in figure
        assert " inert" in figure
        assert not re.search(r"<button(?![^>]*\bdisabled\b)", figure), "a diagram's buttons are all disabled"
    # Several boards on one page keep their ids unique.
    ids = re.findall(r'\bid="([^"]+)"', html)
    assert len(ids) == len(set(ids))


def test_the_diagrams_are_drawn_by_the_board_templates():
    html = Client().get("/rules/classic/").content.decode()
    # classic's board: a 3x3 grid whose winning squares are marked.
    assert html.count('class="grid grid-3"') == 2
    assert html.count("square win") == 3
    html = Client().get("/rules/t-tic-t-tac-toe/").content.decode()
    assert "Iron Curtain" in html and "Berlin Wall" in html


def test_an_unknown_rule_set_is_not_found():
    assert Client().get("/rules/checkers/").status_code == 404


def test_the_game_page_has_a_rules_panel_with_the_house_rules_in_words(alice, bob):
    house = rule_sets.create_rule_set(name="Swapped letters", variant="classic", options={"symbols": ["O", "X"]},
                                      seconds_per_move=45)
    game = GameFactory.create(creator=alice, opponent=bob, rule_set=house)
    html = client_for(alice).get(reverse("games:game", args=[game.pk])).content.decode()
    assert '<a href="#rules-panel-body" id="rules-link">Rules</a>' in html
    panel = re.search(r'<details class="card rules-panel" id="rules-panel">.*?</details>', html, re.S).group(0)
    assert "<summary>Rules</summary>" in panel
    assert "Swapped letters" in panel and "a house-rule set" in panel
    assert "House rule: Player One places O and Player Two places X." in panel
    assert "X goes first, so Player Two moves first." in panel
    assert "Each move must be made within 45 seconds." in panel  # the set's clock
    assert "three of your letters in a row" in panel  # the variant in short
    assert 'href="/rules/classic/"' in panel


@pytest.mark.parametrize(("decider", "sentence"), [
    ("challenger", "Who is Player One: the challenger chooses."),
    ("coin", "Who is Player One: a coin toss decides, as the game starts."),
    ("seed", "Who is Player One: drawn from the game's seed, as the game starts."),
    ("rock-paper-scissors", "Who is Player One: the winner of a game of rock-paper-scissors, played live first."),
])
def test_the_rules_panel_says_who_is_player_one_in_a_sentence(alice, bob, decider, sentence):
    """It said "Player One is decided by: the challenger chooses" (a newcomer's walkthrough).
    The describer every page uses (the panel, a section, the admin) says it; the panel
    shows it (a game under rock-paper-scissors opens on its decider game, whose own rules
    the panel shows: that one, the describer alone)."""
    house = rule_sets.create_rule_set(name="Deciders", variant="classic", decider=decider)
    assert rules_in_words(house)[-1] == sentence
    if decider == "rock-paper-scissors":
        return
    game = GameFactory.create(creator=alice, opponent=bob, rule_set=house)
    html = client_for(alice).get(reverse("games:game", args=[game.pk])).content.decode()
    panel = unescape(re.search(r'<details class="card rules-panel" id="rules-panel">.*?</details>', html, re.S).group(0))
    assert sentence in panel
    assert "decided by:" not in panel


@pytest.mark.parametrize("slug", ["classic", "t-tic-t-tac-toe", "tactic-toe", "tic-tac-two", "nine-square", "rock-paper-scissors"])
def test_every_variants_game_page_has_its_rules_panel(alice, bob, slug):
    game = GameFactory.create(creator=alice, opponent=bob, variant=slug)
    html = client_for(alice).get(reverse("games:game", args=[game.pk])).content.decode()
    panel = re.search(r'id="rules-panel">.*?</details>', html, re.S).group(0)
    assert f"{get_variant(slug).display_name} in short" in panel
    assert "(the standard rules)" not in panel and "a house-rule set" not in panel
    assert f'href="/rules/{slug}/"' in panel


def test_a_game_against_the_computer_without_a_clock_names_the_standard_rules(alice, monkeypatch):
    """The lobby's "No clock" choice plays the standard rules on a clockless copy
    the platform makes, stored as "Standard classic (no clock)": the game page named it so
    and its Rules panel called it "a house-rule set" (walkthrough)."""
    from games import tasks
    from games.models import Game

    monkeypatch.setattr(tasks.play_ai_move, "apply_async", lambda *args, **kwargs: None)
    lobby = client_for(alice)
    lobby.post("/play/new/", {"variant": "classic", "opponent": "ai", "ai_level": "random", "ai_clock": "none"})
    game = Game.objects.filter(created_by=alice).latest("pk")
    assert not game.rule_set.is_standard and not game.rule_set.seconds_per_game  # the practice copy
    html = lobby.get(reverse("games:game", args=[game.pk])).content.decode()
    panel = re.search(r'id="rules-panel">.*?</details>', html, re.S).group(0)
    assert "<strong>Classic Tic Tac Toe, standard rules, no clock</strong> (v1):" in panel
    assert "a house-rule set" not in html and "Standard classic" not in html
    assert "<dt>Rules</dt><dd>Classic Tic Tac Toe, standard rules, no clock (v1)</dd>" in html
    # A house-rule set without a clock is still named and called one.
    house = rule_sets.create_rule_set(name="Swapped letters", variant="classic", options={"symbols": ["O", "X"]},
                                      created_by=alice)
    other = GameFactory.create(creator=alice, rule_set=house)
    html = lobby.get(reverse("games:game", args=[other.pk])).content.decode()
    assert "<strong>Swapped letters</strong> (v1), a house-rule set:" in html


def test_the_lobby_links_every_variants_rules_and_explains_the_decider(alice):
    html = client_for(alice).get(reverse("games:lobby")).content.decode()
    for slug in PAGE_ORDER:
        assert f'href="/rules/{slug}/"' in html
    assert "Rock-paper-scissors is the decider" in html


def test_the_menu_links_the_rules():
    nav = re.search(r'<nav class="nav" aria-label="Main">(.*?)</nav>', Client().get("/rules/tactic-toe/").content.decode(),
                    re.S).group(1)
    assert '<a href="/rules/" aria-current="true">Rules</a>' in nav


def test_a_tournament_section_links_its_rules_in_words(alice):
    house = rule_sets.create_rule_set(name="Meta draft", variant="tic-tac-two", options={"meta": True})
    section = SectionFactory.create(rule_set=house, variant="tic-tac-two")
    tournament = section.tournament
    url = reverse("competitions:section", args=[tournament.club.slug, tournament.slug, section.slug])
    html = Client().get(url).content.decode()
    assert '<a href="/rules/tic-tac-two/">Rules</a>' in html
    assert "Meta variation: a player may pick actions the opponent chose" in html
    # A section has no challenger: its pairing names Player One (found by a walkthrough).
    assert "the challenger chooses" not in html and "Who is Player One: the pairing's first player." in unescape(html)
    # A section under way takes no entries: a visitor is not asked to log in to enter.
    assert "Log in</a> to enter" in html
    type(section).objects.filter(pk=section.pk).update(status="running")
    html = Client().get(url).content.decode()
    assert "Log in</a> to enter" not in html and "Registration is closed: the section is under way." in html


def test_rules_and_lessons_link_each_other():
    """Each variant's rules page offers its guided lessons; each lesson its variant's rules."""
    from games.lessons import LESSONS

    for slug in PAGE_ORDER:
        html = Client().get(f"/rules/{slug}/").content.decode()
        for lesson in LESSONS:
            linked = f'href="/learn/#lesson-{lesson.slug}"' in html
            assert linked == (lesson.variant == slug), (slug, lesson.slug)
    learn = Client().get("/learn/").content.decode()
    for lesson in LESSONS:
        assert f'href="/rules/{lesson.variant}/"' in learn
    assert 'href="/learn/"' in Client().get("/rules/").content.decode()
