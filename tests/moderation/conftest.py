"""Two clubs, each with an owner-organiser, an arbiter and members, a house-rule set
of club A and a game played under it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

from tests.factories import GameFactory, SuperuserFactory


@dataclass
class World:
    club_a: Any
    club_b: Any
    superuser: Any
    organiser_a: Any
    arbiter_a: Any
    organiser_b: Any
    member_a: Any
    player_1: Any
    player_2: Any
    rules_a: Any
    rules_b: Any
    game_a: Any
    game_b: Any


def _world(make_player: Any) -> World:
    from league.clubs import services as league
    from moderation import services

    club_a = league.ensure_club(name="Club A")
    club_b = league.ensure_club(name="Club B")
    superuser = SuperuserFactory.create()
    people = {name: make_player(username=name) for name in
              ("organiser_a", "arbiter_a", "organiser_b", "member_a", "player_1", "player_2")}
    league.set_membership(club=club_a, user=people["organiser_a"], role="organiser")
    league.set_membership(club=club_a, user=people["arbiter_a"], role="arbiter")
    league.set_membership(club=club_b, user=people["organiser_b"], role="owner")
    for name in ("member_a", "player_1", "player_2"):
        league.set_membership(club=club_a, user=people[name], role="member")
    for name in people:
        people[name].refresh_from_db()
    rules_a = services.save_house_rules(actor=people["organiser_a"], club=club_a,
                                        fields={"name": "A's classic", "variant": "classic"})
    rules_b = services.save_house_rules(actor=people["organiser_b"], club=club_b,
                                        fields={"name": "B's classic", "variant": "classic"})
    game_a = GameFactory.create(creator=people["player_1"], rule_set=rules_a, opponent=people["player_2"])
    game_b = GameFactory.create(creator=people["player_1"], rule_set=rules_b, opponent=people["player_2"], accepted=False)
    return World(club_a=club_a, club_b=club_b, superuser=superuser, rules_a=rules_a, rules_b=rules_b,
                 game_a=game_a, game_b=game_b, **people)


@pytest.fixture
def world(db, make_player) -> World:
    return _world(make_player)


@pytest.fixture
def world_tx(transactional_db, make_player) -> World:
    """The same, committed (for websocket tests, whose consumers use other threads)."""
    return _world(make_player)


@pytest.fixture
def own_channel_layer(settings, channel_layers_fresh):
    """A fresh channel layer per test; on Redis, under a prefix of this suite's own so
    no other run's sockets hear our messages."""
    if "hosts" in settings.CHANNEL_LAYERS["default"].get("CONFIG", {}):
        layers = {"default": {**settings.CHANNEL_LAYERS["default"]}}
        layers["default"]["CONFIG"] = {**layers["default"]["CONFIG"], "prefix": "ttt-moderation-tests"}
        settings.CHANNEL_LAYERS = layers
