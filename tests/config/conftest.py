"""Fixtures of the config tests."""

from __future__ import annotations

import pytest


@pytest.fixture
def api_world(make_player):
    """A few rows of everything the API looks up: a club with its owner and a member, a
    tournament, a section with two entries, a game with a move, a house-rule set."""
    from games import rule_sets as game_rule_sets
    from games import services as game_services
    from league.models import ClubMembership
    from tests.factories import ClubFactory, GameFactory, MembershipFactory, SectionFactory, TournamentFactory

    owner = make_player(username="owner")
    member = make_player(username="member")
    club = ClubFactory.create(name="Harbour club", slug="harbour")
    MembershipFactory.create(club=club, user=owner, role=ClubMembership.Role.OWNER)
    MembershipFactory.create(club=club, user=member)
    tournament = TournamentFactory.create(by=owner, club=club, name="Open")  # in an hour
    section = SectionFactory.create(by=owner, tournament=tournament, name="Main", format="swiss", players=(owner, member))
    game = GameFactory.create(creator=owner, opponent=member)
    first = next(seat.user for seat in game.seats.select_related("user").order_by("number"))
    game_services.submit_move(game_id=game.pk, user=first, ply=0, move={"cell": 5})
    rule_set = game_rule_sets.create_rule_set(created_by=owner, name="House", variant="classic")
    return {"owner": owner, "member": member, "club": club, "tournament": tournament, "section": section,
            "game": game, "rule_set": rule_set}
