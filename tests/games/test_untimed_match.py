"""``untimed`` against the AI holds for every game of the match, the games of another
variant too: a bot asking ``{"rule_set": <official>, "ai_level": ..., "untimed": true}``
got a rock-paper-scissors game on "30 s per move", then a classic game on "3 min per
game" (the standard sets' clocks), and lost them on time while it thought it had no clock."""

from __future__ import annotations

import pytest

from games import rule_sets, services, tasks
from games.models import Game

pytestmark = pytest.mark.django_db(transaction=True)


def _no_clock(game: Game) -> bool:
    return not game.rule_set.seconds_per_move and not game.rule_set.seconds_per_game


@pytest.mark.parametrize("settings_", [
    {"variant": "t-tic-t-tac-toe", "match_format": "official"},
    {"variant": "classic", "decider": "rock-paper-scissors", "seconds_per_move": 20},
])
def test_every_game_of_an_untimed_match_has_no_clock(make_player, settings_):
    bot = make_player(username="untimedbot")
    rules = rule_sets.create_rule_set(name="Match", **settings_)
    first = services.create_game(creator=bot, rule_set=rules, ai_level="random", untimed=True)
    assert first.variant == "rock-paper-scissors" and _no_clock(first)
    assert first.match is not None
    for _ in range(20):  # the bot throws, the AI throws (its task, run as a worker would)
        first.refresh_from_db()
        if first.status != Game.Status.ACTIVE:
            break
        if 0 in first.to_move:
            services.submit_move(game_id=first.pk, user=bot, ply=first.ply, move={"throw": "rock"})
        else:
            tasks.play_ai_move(first.pk, first.ply)
    later = list(first.match.games.exclude(pk=first.pk))
    assert later and all(_no_clock(game) for game in later)  # the official classic game, or the match's first


def test_a_match_between_people_keeps_its_clocks(make_player):
    one, two = make_player(username="clock1"), make_player(username="clock2")
    rules = rule_sets.create_rule_set(name="Official", variant="t-tic-t-tac-toe", match_format="official")
    first = services.create_game(creator=one, rule_set=rules, opponent=two)
    assert first.rule_set == rule_sets.standard_rule_set("rock-paper-scissors") and not _no_clock(first)
