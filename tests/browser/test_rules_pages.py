"""The rules from a game page, in a real browser against the running platform: for a game
of each variant against the computer, the head's "Rules" link opens the Rules panel with
that variant's rules and the rule set in force; the rules pages themselves. Screenshots
(1280 and 390 px) go to test-artifacts/screenshots/rules/."""

from __future__ import annotations

import re

import pytest

from games.rules import get_variant
from tests.browser.support import BROWSER_MARKS, LAPTOP, SHOTS

pytestmark = BROWSER_MARKS

VARIANTS = ["classic", "t-tic-t-tac-toe", "tactic-toe", "tic-tac-two", "nine-square", "rock-paper-scissors"]
PHONE_390 = {"width": 390, "height": 844}


def shot(page, name: str) -> None:
    (SHOTS / "rules").mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "rules" / f"{name}.png"), full_page=True)


def game_against_the_computer(page, variant: str) -> str:
    """Create a game against the computer from the lobby's form; return its page's URL."""
    page.goto("/play/")
    page.select_option("#id_variant", variant)
    page.check("input[name=opponent][value=ai]")
    page.select_option("select[name=ai_level]", "random")
    page.click("#create-form button[type=submit]")
    page.wait_for_url(re.compile(r".*/play/\d+/$"))
    return page.url


def open_the_rules(page, variant: str) -> None:
    """Click the game head's "Rules" link; the panel beside the board opens on this
    variant's rules, with the rule set in force in words and a link to the full page."""
    from playwright.sync_api import expect

    panel = page.locator("#rules-panel")
    expect(panel).not_to_have_attribute("open", "")
    page.locator(".game-head").get_by_role("link", name="Rules", exact=True).click()
    expect(panel).to_have_attribute("open", "")
    name = get_variant(variant).display_name
    expect(panel.get_by_role("heading", name=f"{name} in short")).to_be_visible()
    expect(panel.locator(".house-rules li").first).to_be_visible()
    expect(panel.get_by_role("link", name=f"The full rules of {name}")).to_have_attribute("href", f"/rules/{variant}/")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_rules_open_from_a_game_page_of_each_variant(sign_in, variant):
    page = sign_in("sam", LAPTOP)
    game_against_the_computer(page, variant)
    open_the_rules(page, variant)
    if variant in ("classic", "tic-tac-two"):
        shot(page, f"panel-{variant}-1280")


def test_the_rules_panel_on_a_phone_is_reached_from_the_head(sign_in):
    from playwright.sync_api import expect

    page = sign_in("mei", PHONE_390)
    game_against_the_computer(page, "t-tic-t-tac-toe")
    open_the_rules(page, "t-tic-t-tac-toe")
    # On a phone the side column is under the board: the link brought the panel into view.
    expect(page.locator("#rules-panel-body")).to_be_in_viewport()
    shot(page, "panel-t-tic-t-tac-toe-390")


@pytest.mark.parametrize("viewport", [LAPTOP, PHONE_390], ids=["1280", "390"])
def test_the_rules_pages_fit_and_follow_from_the_index(sign_in, viewport):
    from playwright.sync_api import expect

    page = sign_in("kofi", viewport)
    page.goto("/rules/")
    shot(page, f"index-{viewport['width']}")
    page.get_by_role("link", name="Tactic-Toe", exact=True).click()
    expect(page.get_by_role("heading", level=1)).to_have_text("How to play Tactic-Toe")
    expect(page.locator("figure.rules-diagram")).to_have_count(1)
    for slug in VARIANTS:
        page.goto(f"/rules/{slug}/")
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), slug
        shot(page, f"{slug}-{viewport['width']}")
