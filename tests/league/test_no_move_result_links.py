"""A section's rounds and bracket link each game; for one lost before any move (a
forfeit) they say "result", not "replay": it has nothing to replay (an outside probe;
the other pages: tests/games/test_replay_without_moves.py)."""

from __future__ import annotations

import pytest

from games import services
from league import competitions as cs
from league.models import Pairing
from tests.factories import players, section_with
from tests.games.test_views import client_for

from .support import one_move, url

pytestmark = pytest.mark.django_db


def test_a_sections_rounds_and_bracket_say_result_for_a_game_lost_before_any_move(make_player, eager_celery):
    section = section_with(players(make_player, 4), format="single-elimination")
    forfeited, played = Pairing.objects.filter(section=section, round__number=1).order_by("board")
    services.resign(game_id=forfeited.game_id, user=forfeited.second)  # before anyone moved
    one_move(played.game)
    services.resign(game_id=played.game_id, user=played.second)
    cs.sweep()  # the results scored, as the beat does
    page = client_for(forfeited.first).get(url("section", section)).content.decode()
    for kind in ("", ' class="watch"'):  # the rounds' table, the bracket
        assert f'<a{kind} href="/play/{forfeited.game_id}/">result</a>' in page
        assert f'<a{kind} href="/play/{played.game_id}/">replay</a>' in page
