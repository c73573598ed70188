"""The API opened in a browser (DRF's browsable renderer, Accept: text/html): the games
and rule-set endpoints name their serializers per method, and the renderer's forms asked
the view for one: 500 "should either include a `serializer_class` attribute" on seven
endpoints, the lobby's /api/v1/games/ among them (found while probing the site with
Redis down; Redis had nothing to do with it)."""

from __future__ import annotations

import pytest

from games.models import RuleSet
from tests.factories import GameFactory

pytestmark = pytest.mark.django_db


def test_the_games_and_rule_set_endpoints_open_in_a_browser(client, make_player):
    sam, mei = make_player(), make_player()
    game = GameFactory.create(creator=sam, opponent=mei)
    rule_set = RuleSet.objects.filter(is_current=True).first()
    assert rule_set is not None
    client.force_login(sam)
    paths = ["/api/v1/games/", f"/api/v1/games/{game.pk}/moves/", f"/api/v1/games/{game.pk}/note/",
             f"/api/v1/games/{game.pk}/rematch/", f"/api/v1/games/{game.pk}/resign/", "/api/v1/rule-sets/",
             f"/api/v1/rule-sets/{rule_set.pk}/revise/"]
    answers = {path: client.get(path, HTTP_ACCEPT="text/html").status_code for path in paths}
    assert all(code in (200, 405) for code in answers.values()), answers  # the page, or "not allowed" in it
    page = client.get("/api/v1/games/", HTTP_ACCEPT="text/html")
    assert page["Content-Type"].startswith("text/html") and f"&quot;id&quot;: {game.pk}" in page.content.decode()
