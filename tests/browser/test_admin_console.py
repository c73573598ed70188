"""The moderation console in a real browser (Debian's chromium, Playwright) against a
real running platform: a house-rule set with the letter Q refused in the engine's
words, an observer banned from a live game and their page disconnected at once, a
tournament game forfeited and the standings changed, and an organiser of another club
who sees nothing of this one. Screenshots go to
test-artifacts/screenshots/."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Iterator

import pytest

from tests.browser.support import (
    BROWSER_MARKS,
    PASSWORD,
    PHONE,
    shoot,
    wait_live,
)
from tests.processes import ROOT, free_port, platform_commands, running, scratch_database, wait_for_port

pytestmark = BROWSER_MARKS

# Run once against the demo data: a rival club with its own organiser, a house-rule set
# of the demo club, and a game under it between Sam and Mei, in play.
SETUP = """
import json
from accounts.models import User
from accounts import services as accounts
from games import services as games
from league.clubs import services as league
from league.models import Club
from moderation import services
from datetime import date

demo = Club.objects.get(memberships__user__username="organiser")
rival_club = league.ensure_club(name="Rival Club")
rival = accounts.register_player(username="rival", password="%(password)s", date_of_birth=date(1980, 1, 1),
                                 country="GB", guardian_name="", guardian_email="").user
league.set_membership(club=rival_club, user=rival, role="organiser")
organiser = User.objects.get(username="organiser")
rules = services.save_house_rules(actor=organiser, club=demo, fields={"name": "Demo club classic", "variant": "classic"})
services.save_house_rules(actor=rival, club=rival_club, fields={"name": "Rival classic", "variant": "classic"})
sam, mei = User.objects.get(username="sam"), User.objects.get(username="mei")
game = games.create_game(creator=sam, rule_set=rules, opponent=mei)
games.accept_challenge(game_id=game.pk, user=mei)

# A tournament of the demo club: Lucia and Edith, round 1 in play.
from datetime import timedelta
from django.utils import timezone
from league import competitions as cs
later = timezone.now() + timedelta(hours=1)
cup = cs.create_tournament(club=demo, name="Forfeit cup", starts_at=later)
section = cs.create_section(tournament=cup, name="Open", rule_set=rules, format="round-robin", starts_at=later)
for name in ("lucia", "edith"):
    cs.register(section=section, user=User.objects.get(username=name))
cs.start_round(section_id=section.pk, number=1, force=True)
print(json.dumps({"game": game.pk, "rules": rules.pk, "section_url": f"/clubs/{demo.slug}/{cup.slug}/{section.slug}/"}))
"""


@pytest.fixture(scope="module")
def platform(tmp_path_factory) -> Iterator[dict]:
    tmp_path = tmp_path_factory.mktemp("admin-browser")
    port = free_port()
    with scratch_database(tmp_path) as env:
        # Redis pub/sub ignores database numbers: a prefix of our own keeps groups apart.
        made = subprocess.run([sys.executable, "manage.py", "shell", "-c", SETUP % {"password": PASSWORD}],
                              cwd=ROOT, env=env, check=True, capture_output=True, text=True)
        ids = json.loads(made.stdout.strip().splitlines()[-1])
        with running(*platform_commands(port), env=env, log_dir=tmp_path) as processes:
            wait_for_port(port, process=processes[0])
            yield {"url": f"http://127.0.0.1:{port}", **ids}


@pytest.fixture(scope="module")
def server(platform) -> str:
    """This module's platform, for conftest.py's sign_in."""
    return platform["url"]


def test_a_house_rule_set_with_the_letter_q_is_refused(sign_in):
    from playwright.sync_api import expect

    organiser = sign_in("organiser")
    organiser.goto("/admin/games/ruleset/add/")
    expect(organiser.locator("#id_opt_symbols_0")).to_have_value("X")
    organiser.fill("#id_name", "Q and O")
    organiser.select_option("#id_club", label="Demo Noughts & Crosses Club")
    organiser.fill("#id_opt_symbols_0", "Q")
    # The preview answers as soon as the letter is typed ...
    expect(organiser.locator("#rules-preview")).to_contain_text("it must be Xs and Os")
    organiser.click("input[name=_save]")
    # ... and saving is refused beside the field, in the FAQ's words.
    error = organiser.locator("#id_opt_symbols_0_error")
    expect(error).to_contain_text("'Q' is not a letter you can play: it must be Xs and Os.")
    shoot(organiser, "admin-rule-set-letter-q-refused")

    # The FAQ's house rule from its preset saves, and reads right in words.
    organiser.goto("/admin/games/ruleset/add/")
    organiser.click("text=Classic: O goes first")
    expect(organiser.locator("#id_opt_first")).to_have_value("O")
    expect(organiser.locator("#rules-preview")).to_contain_text("House rule: O goes first, so Player Two moves first.")
    organiser.select_option("#id_club", label="Demo Noughts & Crosses Club")
    organiser.click("input[name=_save]")
    expect(organiser.locator(".messagelist")).to_contain_text("was added successfully")
    expect(organiser.locator("#result_list")).to_contain_text("Classic: O goes first")
    shoot(organiser, "admin-rule-sets-list")


def test_ban_an_observer_of_a_live_game_and_their_page_disconnects(platform, sign_in):
    from playwright.sync_api import expect

    game = platform["game"]
    kofi = sign_in("kofi", PHONE)
    kofi.goto(f"/play/{game}/")
    wait_live(kofi)

    arbiter = sign_in("arbiter")
    arbiter.goto(f"/admin/games/game/{game}/change/")
    # The live list of who is watching.
    expect(arbiter.locator("text=Watching now").locator("..")).to_contain_text("kofi")
    shoot(arbiter, "admin-game-watching-now")
    arbiter.click("text=Kick or ban these observers…")
    row = arbiter.locator("#result_list tbody tr", has_text="kofi")
    row.locator("input[type=checkbox]").check()
    arbiter.select_option("select[name=action]", "ban_from_game")
    arbiter.click("button[name=index]")
    expect(arbiter.locator("#confirm-action")).to_contain_text("please confirm")
    arbiter.fill("#id_reason", "Coaching Sam from the side")
    shoot(arbiter, "admin-ban-confirmation")
    arbiter.click("#confirm-button")
    expect(arbiter.locator(".messagelist")).to_contain_text("done for 1")

    # Kofi's page is disconnected at once, told why, and kept out.
    expect(kofi.locator("#connection")).to_have_text("Disconnected")
    expect(kofi.locator("#game-errors")).to_contain_text(re.compile("banned from watching"))
    expect(kofi.locator("#game-errors")).to_contain_text("Coaching Sam from the side")
    shoot(kofi, "admin-banned-observer-phone")

    # The ban is in the audit log, with who and why.
    arbiter.goto("/admin/moderation/auditentry/?action=observer.ban")
    expect(arbiter.locator("#result_list")).to_contain_text("Coaching Sam from the side")
    expect(arbiter.locator("#result_list")).to_contain_text("arbiter")


def test_an_organiser_of_another_club_sees_nothing_of_this_one(platform, sign_in):
    from playwright.sync_api import expect

    rival = sign_in("rival")
    rival.goto("/admin/games/ruleset/")
    expect(rival.locator("#result_list")).to_contain_text("Rival classic")
    expect(rival.locator("body")).not_to_contain_text("Demo club classic")
    rival.goto("/admin/games/game/")
    expect(rival.locator("#changelist")).to_contain_text("0 games")
    rival.goto(f"/admin/games/ruleset/{platform['rules']}/change/")
    expect(rival.locator(".messagelist")).to_contain_text(re.compile("doesn.t exist"))
    rival.goto(f"/admin/games/game/{platform['game']}/change/")
    expect(rival.locator(".messagelist")).to_contain_text(re.compile("doesn.t exist"))
    rival.goto("/admin/moderation/auditentry/")
    expect(rival.locator("body")).not_to_contain_text("Demo club classic")
    rival.goto("/admin/")
    expect(rival.locator("body")).not_to_contain_text("Periodic tasks")
    shoot(rival, "admin-rival-organiser-index")

    # A player never reaches the admin.
    player = sign_in("mei")
    player.goto("/admin/")
    expect(player).to_have_url(re.compile(r"/admin/login/"))


def test_forfeit_a_game_and_see_the_standings_change(platform, sign_in):
    from playwright.sync_api import expect

    arbiter = sign_in("arbiter")
    arbiter.goto(platform["section_url"])
    expect(arbiter.locator("body")).to_contain_text("Forfeit cup")
    # The table is there from round 1 (every result counts as it is scored): nobody has a point yet.
    points = arbiter.locator("table.standings tbody tr td:nth-child(3)")
    expect(points).to_have_text(["0"] * points.count())

    arbiter.goto("/admin/league/pairing/")
    row = arbiter.locator("#result_list tbody tr", has_text="Forfeit cup")  # the demo's Autumn Cup has lucia too
    row.locator("input[type=checkbox]").check()
    arbiter.select_option("select[name=action]", "forfeit_second")
    arbiter.click("button[name=index]")
    expect(arbiter.locator("#confirm-action")).to_contain_text("Forfeit: the second player loses")
    arbiter.fill("#id_reason", "Edith did not arrive")
    arbiter.click("#confirm-button")
    expect(arbiter.locator(".messagelist")).to_contain_text("done for 1")
    expect(row).to_contain_text("First player won by forfeit")

    arbiter.goto(platform["section_url"])
    expect(arbiter.locator("#st-heading")).to_be_visible()
    first = arbiter.locator("table.standings tbody tr").first
    expect(first).to_contain_text("Lucía")
    expect(first.locator("td").nth(2)).to_have_text("1")
    shoot(arbiter, "admin-forfeit-standings")
    arbiter.goto("/admin/moderation/auditentry/?action=game.forfeit")
    expect(arbiter.locator("#result_list")).to_contain_text("Edith did not arrive")
