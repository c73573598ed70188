"""Finding opponents in a real browser against the running platform: Lucía searches
for Sam, challenges him from his page; Kofi's lobby never shows that challenge; Sam
sees "challenges you" and accepts; Lucía resigns; Sam asks for a rematch, Lucía sees
"Rematch offered" live on the finished game's page and accepts, and the new game has
the seats swapped (Sam moves first). Screenshots at 1280 and 390 px of the search page,
the lobby with its online list, the club's members, a player page with the challenge
form and the rematch offer."""

from __future__ import annotations

import re

from tests.browser.support import BROWSER_MARKS, LAPTOP, shoot, wait_live

pytestmark = BROWSER_MARKS

PHONE_390 = {"width": 390, "height": 844}
CLUB = "/clubs/demo-noughts-crosses-club/"


def fits(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


def shoot_both(open_as, username: str, path: str, name: str, ready: str) -> None:
    """Screenshots of one page at both widths, each checked for sideways scrolling."""
    from playwright.sync_api import expect

    for viewport, suffix in ((LAPTOP, "1280"), (PHONE_390, "390")):
        page = open_as(username, viewport)
        page.goto(path)
        expect(page.locator(ready).first).to_be_visible()
        assert fits(page), f"{path} scrolls sideways at {suffix} px"
        shoot(page, f"opponents-{name}-{suffix}")
        page.close()


def test_find_challenge_accept_resign_and_rematch(sign_in):
    from playwright.sync_api import TimeoutError as PlaywrightTimeout
    from playwright.sync_api import expect

    lucia, sam, kofi = sign_in("lucia"), sign_in("sam"), sign_in("kofi")
    for page in (sam, kofi):
        page.goto("/play/")  # a page open: online now

    # Lucía finds Sam by part of his name (the htmx live search) and opens his page.
    lucia.goto("/players/")
    lucia.fill("#player-q", "sa")
    result = lucia.locator("#player-results li", has_text="Sam")
    expect(result).to_be_visible()
    expect(result.locator(".online-dot")).to_have_count(1)
    shoot_both(sign_in, "lucia", "/players/?q=sa", "search", "#player-results li")
    result.get_by_role("link", name="Challenge Sam").click()
    expect(lucia).to_have_url(re.compile(r"/ratings/player/sam/#challenge$"))
    expect(lucia.locator("#challenge")).to_contain_text("Online now")
    shoot_both(sign_in, "lucia", "/ratings/player/sam/", "player-challenge", "#challenge-submit")

    # The challenge: classic, Lucía moves first.
    lucia.select_option("#challenge-variant", "classic")
    lucia.select_option("#challenge-seat", "0")
    lucia.click("#challenge-submit")
    expect(lucia).to_have_url(re.compile(r"/play/\d+/$"))
    game_id = int(lucia.url.rstrip("/").rsplit("/", 1)[1])
    expect(lucia.locator("body")).to_contain_text("Your challenge is waiting for Sam to accept.")

    # Kofi's lobby never lists it; Sam's does, as a challenge to him.
    kofi.goto("/play/")
    expect(kofi.locator("#online-title")).to_be_visible()
    expect(kofi.locator(f"#open-{game_id}")).to_have_count(0)
    sam.goto("/play/")
    offer = sam.locator(f"#open-{game_id}")
    expect(offer).to_contain_text("Lucía challenges you")
    expect(sam.locator(".online-now")).to_contain_text("Kofi")
    shoot_both(sign_in, "sam", "/play/", "lobby", ".online-now li")
    offer.get_by_role("button", name=f"Accept game {game_id}").click()
    expect(sam).to_have_url(re.compile(rf"/play/{game_id}/$"))
    # Lucía's page, open all along, drops "waiting for Sam" and its Cancel as the game
    # starts (the walkthrough found them left there, the Cancel answering "not waiting").
    expect(lucia.locator(".challenge-cancel")).to_have_count(0)
    expect(lucia.locator("#turn-status")).to_contain_text("Your move")

    # They play; Lucía resigns.
    lucia.goto(f"/play/{game_id}/")
    wait_live(lucia, sam)
    # The board as it stands once the start's update has been rendered (a later swap
    # would close the resign box again).
    expect(lucia.locator("#board")).to_have_attribute("data-my-turn", "1")
    for _ in range(3):
        try:
            lucia.locator("details.resign summary").click()
            lucia.click("#resign", timeout=3000)
            break
        except PlaywrightTimeout:  # the board was swapped between the two clicks: open it again
            continue
    expect(sam.locator("#turn-status")).to_contain_text("Game over")
    expect(lucia.locator("#rematch-button")).to_be_visible()

    # Sam asks for the rematch; Lucía's finished game page shows the offer live.
    sam.click("#rematch-button")
    expect(sam).to_have_url(re.compile(r"/play/\d+/$"))
    rematch_id = int(sam.url.rstrip("/").rsplit("/", 1)[1])
    assert rematch_id != game_id
    expect(lucia.locator("#rematch-offered")).to_contain_text("Rematch offered")
    for viewport, suffix in ((LAPTOP, "1280"), (PHONE_390, "390")):
        lucia.set_viewport_size(viewport)
        assert fits(lucia)
        shoot(lucia, f"opponents-rematch-offer-{suffix}")
    lucia.set_viewport_size(LAPTOP)
    lucia.click("#rematch-accept")
    expect(lucia).to_have_url(re.compile(rf"/play/{rematch_id}/$"))
    # Seats swapped: Sam is Player One now and moves first.
    wait_live(lucia)
    players = lucia.locator(".players li")
    expect(players.nth(0)).to_contain_text("Sam")
    expect(players.nth(0)).to_contain_text("Player One")
    expect(players.nth(1)).to_contain_text("Lucía")
    expect(lucia.locator("#turn-status")).to_contain_text("Waiting for Sam")

    # The club's members, online marks and a challenge each.
    shoot_both(sign_in, "kofi", CLUB, "club-members", "#m-heading")
