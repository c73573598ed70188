"""Tournament pages in a real browser, against a real running platform (the same
processes as the other browser tests: tests/browser/support.py): the demo club's organiser creates a tournament with a
knockout section and an under-12 section through the organiser pages, six players
register with the buttons, a 15-year-old is refused in words, the organiser starts the
knockout (asked first: it cannot be undone) and everybody sees the bracket (byes to
seeds 1 and 2; "Scroll sideways for more" where it is wider than the screen), a player
follows "my next game" to the game, and a withdrawal (asked first too: mid-event it
forfeits the game) reaches the organiser's open page live.
Screenshots go to test-artifacts/screenshots/."""

from __future__ import annotations

import re

from tests.browser.support import BROWSER_MARKS, LAPTOP, PHONE, shoot, wait_section_current

pytestmark = BROWSER_MARKS

ENTRANTS = ["sam", "mei", "kofi", "lucia", "arbiter", "organiser"]  # seeds 1..6: no ratings yet, by registration


def no_sideways_scroll(page) -> bool:
    """The page itself fits the screen (wide tables and brackets scroll in their own box)."""
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


def cues_match_overflow(page) -> bool:
    """Each bracket's "Scroll sideways for more" shows exactly while the bracket is wider than its box."""
    return page.evaluate("""() => [...document.querySelectorAll('.bracket-scroll')].every(box => {
        const cue = box.querySelector('.scroll-cue');
        const shown = cue !== null && getComputedStyle(cue).visibility === 'visible' && cue.offsetHeight > 0;
        return shown === box.scrollWidth > box.clientWidth; })""")


def test_organiser_runs_a_knockout_that_players_follow(sign_in):
    from playwright.sync_api import expect

    organiser = sign_in("organiser")
    organiser.click("nav >> text=Clubs & events")
    organiser.click("text=Demo Noughts & Crosses Club")
    organiser.click("text=New tournament")
    organiser.fill("input[name=name]", "Browser cup")
    organiser.fill("input[name=starts_at]", "2030-06-01T10:00")
    organiser.click("button:has-text('Create the tournament')")

    # The section form: a knockout with every place played for, then an under-12 round robin.
    expect(organiser.locator("h1")).to_contain_text("Browser cup: a new section")
    organiser.fill("input[name=name]", "Knockout")
    organiser.select_option("select[name=format]", "single-elimination")
    organiser.select_option("select[name=placements]", "all")
    expect(organiser.locator("select[name=tiebreaks_0]")).to_have_count(0)  # a bracket ranks without them
    organiser.click("button:has-text('Create the section')")
    expect(organiser.locator(".message")).to_contain_text("Section Knockout is created")
    tournament_url = organiser.url
    organiser.click("text=Add a section")
    organiser.fill("input[name=name]", "Under 12")
    organiser.select_option("select[name=format]", "round-robin")
    expect(organiser.locator("#format-settings legend")).to_have_text("Round robin settings")  # its own only
    expect(organiser.locator("input[name=arena_duration]")).to_have_count(0)
    # The tie-breaks are chosen, not typed: one chosen twice is refused in words, nothing made.
    expect(organiser.locator("select[name=tiebreaks_0]")).to_have_value("direct-encounter")  # the default
    organiser.select_option("select[name=tiebreaks_1]", "direct-encounter")
    organiser.click("summary:has-text('Who may enter')")  # folded until opened
    organiser.select_option("select[name=age_under]", "12")
    organiser.click("button:has-text('Create the section')")
    expect(organiser.locator(".error")).to_contain_text("Each tie-break counts once: Direct encounter is chosen twice")
    expect(organiser.locator(".section-grid article")).to_have_count(0)
    organiser.select_option("select[name=tiebreaks_1]", "")
    organiser.click("button:has-text('Create the section')")
    expect(organiser.locator(".section-grid article")).to_have_count(2)
    shoot(organiser, "tournament-organiser-laptop")

    knockout_url = tournament_url + "knockout/"
    under12_url = tournament_url + "under-12/"

    # Six players enter with the Register button; a 15-year-old is refused in words.
    pages = {}
    for username in ENTRANTS:
        page = organiser if username == "organiser" else sign_in(username, PHONE if username == "mei" else LAPTOP)
        page.goto(knockout_url)
        page.click("button:has-text('Register')")
        expect(page.locator(".message")).to_contain_text("You are entered in Knockout")
        pages[username] = page
    jonas = sign_in("jonas", PHONE)
    jonas.goto(under12_url)
    expect(jonas.locator(".refusal")).to_contain_text(
        re.compile(r"You cannot enter: Born (\d{4}), and this U12 section is for players born 2018 or later\."))
    expect(jonas.locator("button:has-text('Register')")).to_have_count(0)
    shoot(jonas, "section-refusal-phone")

    # The organiser starts the knockout, asked first (static/js/site.js, data-confirm):
    # "Cancel" changes nothing; OK starts it. The bracket: byes to seeds 1 and 2.
    organiser.goto(knockout_url)
    asked = []
    organiser.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.dismiss()))
    organiser.click("button:has-text('Start this section now')")
    expect(organiser.locator("button:has-text('Start this section now')")).to_be_visible()
    organiser.wait_for_timeout(500)  # a submission, had there been one, would have left the page
    assert asked == ["Start Knockout now: registration closes and round 1 is paired at once. "
                     "This cannot be undone. Start?"]
    assert organiser.locator(".bracket-column").count() == 0 and organiser.locator(".message").count() == 0
    organiser.once("dialog", lambda dialog: dialog.accept())
    organiser.click("button:has-text('Start this section now')")
    expect(organiser.locator(".message")).to_contain_text("Knockout has started")
    first_round = organiser.locator(".bracket-column").first
    expect(first_round.locator("h3")).to_have_text("Quarter-finals")
    byes = first_round.locator(".bracket-match.is-bye")
    expect(byes).to_have_count(2)
    expect(byes.nth(0)).to_contain_text("Sam")
    expect(byes.nth(1)).to_contain_text("Mei")
    final = organiser.locator(".bracket-column", has=organiser.get_by_role("heading", name="Final", exact=True, level=3))
    expect(final.locator(".match-label")).to_have_text("Third place")
    # The quarter-finals' losers play for places 5-8 in a block of their own.
    expect(organiser.locator(".bracket-block-title")).to_have_text("Places 5-8")
    expect(organiser.locator(".bracket-column").last.locator(".match-label")).to_have_text(["Places 5-6", "Places 7-8"])
    shoot(organiser, "bracket-laptop")
    # "Scroll sideways for more" above a bracket exactly when it is wider than its box.
    assert cues_match_overflow(organiser)

    # Mei, on a phone, sees the same bracket and the page does not scroll sideways.
    mei = pages["mei"]
    mei.goto(knockout_url)
    wait_section_current(mei)
    expect(mei.locator(".bracket-match.is-bye")).to_have_count(2)
    expect(mei.locator(".bracket-block-title")).to_have_text("Places 5-8")
    assert no_sideways_scroll(mei)
    main_bracket = mei.locator(".bracket-scroll").first
    # Read in one evaluation of the page as it is (a live refresh may replace the element between a locator's
    # lookup and its evaluation: a detached box measures 0 by 0; seen once in CI).
    assert mei.evaluate("() => { const b = document.querySelector('.bracket-scroll');"
                        " return b.scrollWidth > b.clientWidth; }")  # three rounds: wider than a phone
    expect(main_bracket.locator(".scroll-cue")).to_be_visible()
    expect(main_bracket.locator(".scroll-cue")).to_have_text("Scroll sideways for more →")
    assert cues_match_overflow(mei)
    shoot(mei, "bracket-phone")

    # Kofi's page, open since he registered, is told live that his game is ready.
    kofi = pages["kofi"]
    notice = kofi.locator("#notices .notice-live")
    expect(notice).to_contain_text("round 1, board", timeout=15_000)
    expect(notice).to_contain_text("your game is ready")
    # "Go to the game" goes through the inbox (a POST, marking it read) to the game.
    expect(notice.locator("form")).to_have_attribute("action", re.compile(r"^/accounts/notices/\d+/$"))
    expect(notice.locator("button", has_text="Go to the game")).to_be_visible()
    shoot(kofi, "pairing-notice-laptop")

    # Kofi (seed 3) meets the organiser (seed 6): "my next game" leads to the game.
    kofi.goto(knockout_url)
    expect(kofi.locator(".my-game")).to_contain_text("round 1")
    kofi.click(".my-game >> text=Play")
    kofi.wait_for_url(re.compile(r"/play/\d+/$"))

    # Lucia (seed 4) withdraws: the organiser's open page shows Arnav through, no reload.
    lucia = pages["lucia"]
    lucia.goto(knockout_url)
    asked = []
    lucia.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.accept()))
    lucia.click("button:has-text('Withdraw')")
    expect(lucia.locator(".message")).to_contain_text("You have withdrawn from Knockout")
    assert asked == ["Withdraw from Knockout: your game in play is lost by forfeit and you are paired in no "
                     "later round. This cannot be undone. Withdraw?"]
    winner = organiser.locator(".bracket-column").first.locator(".side.winner", has_text="Arnav")
    expect(winner).to_have_count(1, timeout=20_000)
    shoot(organiser, "bracket-after-withdrawal-laptop")

    # The exports answer from the page's links.
    response = organiser.request.get(knockout_url + "bracket.json")
    assert response.ok and response.json()["columns"][0]["title"] == "Quarter-finals"
    csv_text = organiser.request.get(knockout_url + "standings.csv").text()
    assert csv_text.splitlines()[0].startswith("rank,username,name,seed,points")


def test_a_players_withdraw_stays_on_their_row(sign_in, server):
    """At 1280 px a player's "Withdraw" wrapped onto a line of its own, beside the next
    player's name in the column (outside organiser). Each entrant's name is made long here
    (as a real name can be): the name wraps within its own part and Withdraw stays level
    with its first line, at 1280 and 390 px."""
    for viewport, label in ((LAPTOP, "1280"), ({"width": 390, "height": 844}, "390")):
        page = sign_in("organiser", viewport)
        page.goto(f"{server}/clubs/demo-noughts-crosses-club/demo-open/open/")
        misplaced = page.evaluate("""() => {
            const rows = [...document.querySelectorAll('#section-players li')].filter(li => li.querySelector('.withdraw-player'));
            rows.forEach(li => { li.querySelector('a').textContent += ' Mensah-Bonsu Alexandrova (4)'; });
            return [rows.length, rows.filter(li => {
                const name = li.querySelector('a').getClientRects()[0];
                const button = li.querySelector('.withdraw-player button').getBoundingClientRect();
                return button.top > name.bottom || button.left < name.left; }).map(li => li.textContent.trim())]; }""")
        assert misplaced[0] >= 2 and misplaced[1] == [], misplaced
        assert no_sideways_scroll(page)
        shoot(page, f"section-players-withdraw-{label}")
