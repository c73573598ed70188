"""The rating pages read as a product (issue #18): a tab per variant, club lists, the
dated chart, and each rating change explained on the game and the player page."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.core.management import call_command
from django.urls import reverse

from games import services as game_services
from league.models import Club, Rating
from league.ratings import selectors
from league.ratings import services as rating_services
from tests.factories import ClubFactory, finished_game

pytestmark = pytest.mark.django_db

VARIANTS = ["classic", "t-tic-t-tac-toe", "tactic-toe", "tic-tac-two", "nine-square"]


@pytest.fixture
def crafted(make_player):
    """alice and bob established (five rated games each with a score), set by the
    audited adjustment to 1512 and 1580; then alice beats bob (K 40, expected 0.41);
    carol, new, then beats bob: her first rating is the FIDE estimate."""
    alice, bob, carol, dan = (make_player(username=n) for n in ("alice", "bob", "carol", "dan"))
    for winner, loser in [(alice, dan)] * 3 + [(dan, alice)] * 2 + [(bob, dan)] * 3 + [(dan, bob)] * 2:
        rating_services.rate_game(game_id=finished_game(winner, loser).pk)
    for user, value in ((alice, 1512), (bob, 1580)):
        row = Rating.objects.get(user=user, list_key="league", variant="classic")
        assert not row.provisional
        rating_services.adjust_rating(rating=row, new_rating=value, reason="Test setup", made_by=None)
    game = finished_game(alice, bob)
    rating_services.rate_game(game_id=game.pk)
    first = finished_game(carol, bob)
    rating_services.rate_game(game_id=first.pk)
    return {"alice": alice, "bob": bob, "carol": carol, "game": game, "first": first}


def test_every_variant_tab_renders_and_an_empty_one_says_so(client, crafted):
    for variant in VARIANTS:
        page = client.get(reverse("league:leaderboard", args=[variant]))
        assert page.status_code == 200, variant
        html = page.content.decode()
        for other in VARIANTS:  # every tab on every page, the current one marked
            assert reverse("league:leaderboard", args=[other]) in html
        assert re.search(rf'href="{reverse("league:leaderboard", args=[variant])}"\s*aria-current="page"', html)
        if variant != "classic":
            assert f"No rated {selectors.variant_name(variant)} games" in html
    html = client.get(reverse("league:index")).content.decode()  # the default tab: classic, rated here
    assert "/ratings/player/alice/?variant=classic" in html and "Last played" in html and "Trend" in html
    assert 'id="provisional-legend"' in html and "five games with a score above zero" in html
    assert client.get("/ratings/chess/").status_code == 404


def test_the_leaderboard_pages_a_long_list(client, make_player):
    players = [make_player(username=f"p{i:02}") for i in range(54)]
    for winner, loser in zip(players[::2], players[1::2], strict=True):
        rating_services.rate_game(game_id=finished_game(winner, loser).pk)
    first = client.get(reverse("league:leaderboard", args=["classic"])).content.decode()
    assert "Page 1 of 2" in first and first.count("/ratings/player/p") == 50
    second = client.get(reverse("league:leaderboard", args=["classic"]), {"page": 2}).content.decode()
    assert second.count("/ratings/player/p") == 4 and '<td class="rank">54</td>' in second
    assert client.get(reverse("league:leaderboard", args=["classic"]), {"page": "x"}).status_code == 200


def test_the_demo_club_has_its_list_with_tabs_and_its_page_links_to_it(client):
    call_command("seed_demo", verbosity=0)
    club = Club.objects.get(slug="demo-noughts-crosses-club")
    page = client.get(reverse("league:club", args=[club.slug]))
    assert page.status_code == 200
    html = page.content.decode()
    assert "Demo Noughts &amp; Crosses Club: ratings" in html and "/ratings/player/lucia/" in html
    assert reverse("league:club-variant", args=[club.slug, "nine-square"]) in html
    # the demo's rated games fill two variants, in the league's list and the club's
    for variant in ("tactic-toe", "tic-tac-two"):
        assert Rating.objects.filter(list_key=f"club-{club.pk}", variant=variant).count() == 5
        assert Rating.objects.filter(list_key="league", variant=variant).count() == 5
    club_page = client.get(reverse("competitions:club", args=[club.slug])).content.decode()
    assert reverse("league:club", args=[club.slug]) in club_page


def test_a_club_without_a_list_shows_its_members_league_places(client, crafted):
    club = ClubFactory.create(name="Quiet Club", members=[crafted["alice"]])
    html = client.get(reverse("league:club", args=[club.slug])).content.decode()
    assert "keeps no rating list of its own" in html
    assert "/ratings/player/alice/" in html and "/ratings/player/bob/" not in html
    assert client.get(reverse("league:club", args=["no-such-club"])).status_code == 404


def test_the_lists_page_offers_the_viewers_clubs(client, crafted):
    mine = ClubFactory.create(name="Alice Club", members=[crafted["alice"]])
    ClubFactory.create(name="Other Club")
    client.force_login(crafted["alice"])
    html = client.get(reverse("league:index")).content.decode()
    assert reverse("league:club-variant", args=[mine.slug, "classic"]) in html and "(your club)" in html
    assert "Other Club" not in html  # neither the viewer's nor one with a list of its own


def _words(html: str) -> str:
    """A page's words, as read: no tags, one space between words."""
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html)))


def test_the_game_page_explains_an_established_change_with_k_and_expected_score(client, crafted):
    client.force_login(crafted["alice"])
    html = client.get(reverse("games:game", args=[crafted["game"].pk])).content.decode()
    words = _words(html)
    # 1512 v 1580: expected 0.41 (table 8.1.2); 40 x (1 - 0.41) = 23.6, so +24; bob 40 x (0 - 0.59) = -23.6, -24.
    assert ("1512 → 1536 (+24) K = 40, expected score 0.41 against bob (1580), scored 1 (a win): "
            "40 × (1 − 0.41) = +23.6, rounded to +24.") in words
    assert ("1580 → 1556 (−24) K = 40, expected score 0.59 against alice (1512), scored 0 (a loss): "
            "40 × (0 − 0.59) = −23.6, rounded to −24.") in words
    replay = client.get(reverse("games:replay", args=[crafted["game"].pk])).content.decode()
    assert "K = 40, expected score 0.41" in replay


def test_the_game_page_explains_a_provisional_first_rating_in_fides_words(client, crafted):
    client.force_login(crafted["carol"])
    words = _words(client.get(reverse("games:game", args=[crafted["first"].pk])).content.decode())
    # carol's one win v bob (1556): (1556 + 1800 + 1800) / 3 = 1718.7; 2 of 3 = 67%, dp +125: 1844.
    assert ("1800 → 1844 (+44) provisional The first rating is estimated again after each game, from this "
            "first game, a win. As FIDE "
            "estimates an unrated player's first rating: the average of the opponents' ratings, counting two "
            "imaginary 1800 opponents drawn with, is 1719; a score of 2 of 3 (67%) adds +125: 1719 + 125 = 1844. "
            "It becomes established after 5 games with a score above zero (4 more).") in words


def test_the_player_page_explains_each_change_and_draws_a_dated_chart(client, crafted):
    html = client.get(reverse("league:player", args=["alice"])).content.decode()
    assert "K = 40, expected score 0.41 against bob (1580)" in html
    assert "First rating, set from all 5 games together" in html
    assert '<svg class="rating-chart"' in html and "<title>" in html and 'class="chart-point is-provisional"' in html
    point = re.findall(r"<title>([^<]+)</title>", html)[1]  # the first point's hover text (0: the page's title)
    assert re.match(r"\d{1,2} \w{3} \d{4}: rating \d+ → \d+ \([+−±]\d+\) after game #\d+, (won|lost|drew) against ",
                    point)
    assert client.get(reverse("league:player", args=["alice"]), {"variant": "nine-square"}).status_code == 200
    assert client.get(reverse("league:player", args=["alice"]), {"variant": "chess"}).status_code == 404


def test_unrated_games_say_why(client, make_player):
    ann, ben = make_player(username="ann"), make_player(username="ben")
    client.force_login(ann)
    casual = finished_game(ann, ben, rated=False)
    assert "Unrated: a casual game" in client.get(reverse("games:game", args=[casual.pk])).content.decode()
    game = game_services.create_game(creator=ann, variant="classic", opponent=ben, rated=True)
    game_services.accept_challenge(game_id=game.pk, user=ben)
    game_services.forfeit(game_id=game.pk, seat=1, reason="Player 2 did not show up: lost by forfeit.")
    assert "a forfeit is not rated" in client.get(reverse("games:game", args=[game.pk])).content.decode()
    aborted = game_services.create_game(creator=ann, variant="classic", opponent=ben, rated=True)
    game_services.accept_challenge(game_id=aborted.pk, user=ben)
    game_services.abort(game_id=aborted.pk, user=ann)
    assert "an aborted game is never rated" in client.get(reverse("games:game", args=[aborted.pk])).content.decode()
    ai = game_services.create_game(creator=ann, variant="classic", ai_level="random")
    game_services.resign(game_id=ai.pk, user=ann)
    assert "against the computer is never rated" in client.get(reverse("games:game", args=[ai.pk])).content.decode()


def test_rating_a_game_tells_its_open_pages_to_show_the_changes(make_player, django_capture_on_commit_callbacks):
    """The game page said "reload in a moment" until reloaded: the rating now sends the
    game's sockets an update (each page fetches its board, with the changes, again)."""
    import asyncio

    from asgiref.sync import async_to_sync, sync_to_async
    from channels.layers import get_channel_layer

    from games.realtime import game_group

    alice, bob = make_player(), make_player()
    game = finished_game(alice, bob)

    def rate() -> int:
        with django_capture_on_commit_callbacks(execute=True):
            return rating_services.rate_game(game_id=game.pk)

    async def a_page_listening() -> tuple[int, dict]:
        layer = get_channel_layer()
        listener = await layer.new_channel()
        await layer.group_add(game_group(game.pk), listener)
        try:
            rated = await sync_to_async(rate)()
            return rated, await asyncio.wait_for(layer.receive(listener), 5)
        finally:
            await layer.group_discard(game_group(game.pk), listener)

    rated, message = async_to_sync(a_page_listening)()
    assert rated == 1 and message["type"] == "game.update" and message["status"] == "finished"
