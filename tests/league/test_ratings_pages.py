"""Rating pages, API and admin through the real stack (Django's test client)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from league.models import Rating, RatingAdjustment, RatingChange, RecomputeRun
from league.ratings import services as rating_services
from tests.factories import ClubFactory, finished_game
from tests.support import token_client

from .support import eager_tasks

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(make_player):
    """Six rated games: ``a`` beats everyone (established after five), plus a club list."""
    a, *others = [make_player(username=name) for name in ("alice", "bob", "carol", "dan", "erin", "fay")]
    club = ClubFactory.create(name="Chess Club", slug="chess-club", rating_system="glicko2", own_rating_list=True,
                              members=[a, others[0]])
    for other in others + [others[0]]:
        rating_services.rate_game(game_id=finished_game(a, other).pk)
    tournament = [finished_game(others[1], a), finished_game(a, others[2])]
    rating_services.rate_period(tournament, key="tournament-7", name="Autumn Cup")
    return a, others, club


def test_the_leaderboard_lists_players_best_first_with_provisional_marks(client, played):
    a, _, _ = played
    page = client.get(reverse("league:leaderboard", args=["classic"])).content.decode()
    assert page.index(">alice<") < page.index(">bob<")
    assert 'class="provisional"' in page  # bob and the others are still provisional
    alice = Rating.objects.get(user=a, list_key="league")
    assert not alice.provisional and f"{alice.rating:.0f}" in page


def test_a_club_leaderboard_shows_its_own_list(client, played):
    _, _, club = played
    page = client.get(reverse("league:club-variant", args=[club.slug, "classic"])).content.decode()
    assert "Chess Club: ratings" in page and "/ratings/player/alice/" in page and "/ratings/player/carol/" not in page
    assert "±" in page  # Glicko-2 shows the deviation


def test_the_player_page_draws_the_history_and_lists_games_and_performances(client, played):
    a, _, _ = played
    page = client.get(reverse("league:player", args=["alice"])).content.decode()
    assert page.count('<svg class="rating-chart"') == 2  # league classic and the club's classic
    assert "<polyline" in page and "Autumn Cup" in page
    assert reverse("games:game", args=[a.rating_changes.first().game_id]) in page


def test_the_api_serves_leaderboards_ratings_and_history(client, played):
    _, _, club = played
    board = client.get("/api/v1/ratings/", {"variant": "classic"}).json()
    assert board["results"][0]["username"] == "alice" and board["results"][0]["provisional"] is False
    club_board = client.get("/api/v1/ratings/", {"variant": "classic", "club": club.slug}).json()
    assert {r["username"] for r in club_board["results"]} == {"alice", "bob"}
    ratings = client.get("/api/v1/ratings/players/alice/").json()
    assert {r["list"] for r in ratings["ratings"]} == {"league", f"club-{club.pk}"}
    assert ratings["performances"][0]["name"] == "Autumn Cup" and ratings["performances"][0]["games"] == 2
    history = client.get("/api/v1/ratings/players/alice/history/", {"variant": "classic"}).json()
    assert history["count"] == 8
    assert history["results"][1]["rating_before"] == history["results"][0]["rating_after"]


def test_admin_adjustment_needs_a_reason_and_lands_in_the_audit_log(admin_client, played):
    a, _, _ = played
    rating = Rating.objects.get(user=a, list_key="league")
    url = reverse("admin:league_rating_change", args=[rating.pk])
    refused = admin_client.post(url, {"new_rating": "2000", "reason": ""})
    assert refused.status_code == 200 and "needs a reason" in refused.content.decode()
    assert not RatingAdjustment.objects.exists()
    done = admin_client.post(url, {"new_rating": "2000", "reason": "Ruling of the arbiter"})
    assert done.status_code == 302
    assert Rating.objects.get(pk=rating.pk).rating == 2000
    assert RatingAdjustment.objects.get().reason == "Ruling of the arbiter"


def test_admin_recompute_runs_as_a_task_and_shows_its_progress(
    admin_client, played, django_capture_on_commit_callbacks
):
    before = sorted(Rating.objects.values_list("user_id", "list_key", "rating"))
    with eager_tasks(), django_capture_on_commit_callbacks(execute=True):
        response = admin_client.post(reverse("admin:league_recomputerun_add"), {})
    run = RecomputeRun.objects.get()
    assert response.status_code == 302 and response["Location"].endswith(f"/{run.pk}/change/")
    assert run.status == "done" and run.total == 8 and run.done == 8
    assert sorted(Rating.objects.values_list("user_id", "list_key", "rating")) == before
    progress = admin_client.get(reverse("league:recompute-progress", args=[run.pk])).content.decode()
    assert "8 / 8 games (100%)" in progress and "hx-trigger" not in progress  # finished: polling stops
    page = admin_client.get(response["Location"]).content.decode()
    assert reverse("league:recompute-progress", args=[run.pk]) in page and "htmx" in page


def test_a_running_recompute_is_polled(admin_client, db):
    run = RecomputeRun.objects.create(status="running", total=10, done=4)
    html = admin_client.get(reverse("league:recompute-progress", args=[run.pk])).content.decode()
    assert 'hx-trigger="every 1s"' in html and "4 / 10 games (40%)" in html


def test_the_admin_action_on_ratings_queues_a_recompute(admin_client, played, django_capture_on_commit_callbacks):
    rating = Rating.objects.first()
    with eager_tasks(), django_capture_on_commit_callbacks(execute=True):
        response = admin_client.post(reverse("admin:league_rating_changelist"), {
            "action": "recompute_all_ratings", "_selected_action": [rating.pk]})
    run = RecomputeRun.objects.get()
    assert response["Location"] == reverse("admin:league_recomputerun_change", args=[run.pk])
    assert run.status == "done" and run.requested_by.is_superuser


def leaderboard_ratings(client, variant: str = "classic") -> dict[str, int]:
    """username -> rating as the leaderboard page prints it."""
    import re

    page = client.get(reverse("league:leaderboard", args=[variant])).content.decode()
    rows = re.findall(r'<a href="/ratings/player/([^/]+)/\?variant=[^"]*">.*?</td>\s*<td class="num"><strong>(\d+)', page)
    return {name: int(rating) for name, rating in rows}


def test_a_rated_game_played_through_the_api_moves_both_ratings_on_the_leaderboard(
    client, make_player, django_capture_on_commit_callbacks
):
    alice, bob, carol, dan = (make_player(username=n) for n in ("alice", "bob", "carol", "dan"))
    with eager_tasks():  # the rating task runs where the signal queues it
        # Five games each with a score, so both have an established rating that can fall.
        with django_capture_on_commit_callbacks(execute=True):
            for winner, loser in [(alice, carol)] * 3 + [(dan, alice)] * 2 + [(bob, dan)] * 3 + [(carol, bob)] * 2:
                finished_game(winner, loser)
        before = leaderboard_ratings(client)
        assert not Rating.objects.get(user=alice, list_key="league").provisional
        assert not Rating.objects.get(user=bob, list_key="league").provisional

        api = {}
        for user in (alice, bob):
            api[user.username] = token_client(user)
        with django_capture_on_commit_callbacks(execute=True):
            game = api["alice"].post("/api/v1/games/", {"variant": "classic", "opponent": "bob", "rated": True,
                                                        "seat": 0}, format="json").json()
            game = api["bob"].post(f"/api/v1/games/{game['id']}/accept/").json()
        by_seat = {s["seat"]: api[s["user"]] for s in game["seats"]}
        for cell in (1, 4, 2, 5, 3):  # Player One (alice) takes the top row
            with django_capture_on_commit_callbacks(execute=True):
                response = by_seat[game["to_move"][0]].post(
                    f"/api/v1/games/{game['id']}/moves/", {"ply": game["ply"], "move": {"cell": cell}}, format="json")
            assert response.status_code == 201, response.json()
            game = response.json()
    assert game["status"] == "finished" and game["result"]["winner"] == 0

    after = leaderboard_ratings(client)
    assert after["alice"] > before["alice"] and after["bob"] < before["bob"]
    assert after["carol"] == before["carol"] and after["dan"] == before["dan"]
    changes = {c.user.username: c for c in RatingChange.objects.filter(game_id=game["id"]).select_related("user")}
    assert {name: round(c.rating_after) for name, c in changes.items()} == {
        "alice": after["alice"], "bob": after["bob"]}
    assert changes["alice"].k == changes["bob"].k == 40  # fewer than 30 games: K 40
    # The winner's player page lists the game with its rating change.
    page = client.get(reverse("league:player", args=["alice"])).content.decode()
    assert reverse("games:game", args=[game["id"]]) in page and f"{before['alice']} → {after['alice']}" in page


def test_the_rating_api_refuses_unknown_variants_lists_clubs_and_players(client, played):
    _, _, club = played
    for url, params, status, code in [
        ("/api/v1/ratings/", {"variant": "chess"}, 400, "unknown-variant"),
        ("/api/v1/ratings/", {"variant": "classic", "club": "no-such-club"}, 404, "not_found"),
        ("/api/v1/ratings/players/alice/history/", {"variant": "chess"}, 400, "unknown-variant"),
        ("/api/v1/ratings/players/alice/history/", {"list": "club-999999"}, 400, "unknown-list"),
        ("/api/v1/ratings/players/nobody/", {}, 404, "not_found"),
    ]:
        response = client.get(url, params)
        assert response.status_code == status and response.json()["code"] == code, (url, params, response.json())
    club_history = client.get("/api/v1/ratings/players/alice/history/", {"list": f"club-{club.pk}"}).json()
    assert club_history["count"] == 2 and {r["system"] for r in club_history["results"]} == {"glicko2"}
