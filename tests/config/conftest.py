"""Fixtures of the config tests."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone


@pytest.fixture
def api_world(make_player):
    """A few rows of everything the API looks up: a club with its owner and a member, a
    tournament, a section with two entries, a game with a move, a house-rule set."""
    from games import services as game_services
    from league import competitions as competition_services
    from league import event_services
    from league.models import Club, ClubMembership

    owner = make_player(username="owner")
    member = make_player(username="member")
    club = Club.objects.create(name="Harbour club", slug="harbour")
    ClubMembership.objects.create(club=club, user=owner, role=ClubMembership.Role.OWNER)
    ClubMembership.objects.create(club=club, user=member, role=ClubMembership.Role.MEMBER)
    tournament = event_services.create_tournament(by=owner, club=club, name="Open",
                                                  starts_at=timezone.now() + timedelta(hours=1))
    section = event_services.create_section(by=owner, tournament=tournament, name="Main",
                                            rule_set=game_services.standard_rule_set("classic"), format="swiss")
    for user in (owner, member):
        competition_services.register(section=section, user=user)
    game = game_services.create_game(creator=owner, variant="classic", opponent=member)
    game_services.accept_challenge(game_id=game.pk, user=member)
    first = next(seat.user for seat in game.seats.select_related("user").order_by("number"))
    game_services.submit_move(game_id=game.pk, user=first, ply=0, move={"cell": 5})
    rule_set = game_services.create_rule_set(created_by=owner, name="House", variant="classic")
    return {"owner": owner, "member": member, "club": club, "tournament": tournament, "section": section,
            "game": game, "rule_set": rule_set}
