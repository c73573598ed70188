"""A tournament game's place for the game page (games.places, registered by
league.apps): its tournament, section, round and board, and the section's page."""

from __future__ import annotations

from django.db.models import Q
from django.urls import reverse

from games.models import Game
from games.places import Place
from league.models import Pairing


def tournament_place(game: Game) -> Place | None:
    by_match = Q(match_id=game.match_id) if game.match_id else Q(pk__in=[])
    pairing = (Pairing.objects.filter(Q(game_id=game.pk) | by_match)
               .select_related("round", "section__tournament__club").first())
    if pairing is None:
        return None
    section = pairing.section
    tournament = section.tournament
    url = reverse("competitions:section", args=[tournament.club.slug, tournament.slug, section.slug])
    return Place(event=tournament.name, part=section.name,
                 where=f"Round {pairing.round.number}, board {pairing.board}", url=url)
