"""A tournament game's place for the game page (games.places, registered by
league.apps): its tournament, section, round and board, and the section's page."""

from __future__ import annotations

import functools

from django.urls import reverse

from accounts import sql
from games.models import Game
from games.places import Place
from league.models import Club, Pairing, Round, Section, Tournament

_PLACE = (
    sql.Shape(Pairing, "p", ("id", "board")),
    sql.Shape(Round, "rd", ("id", "number")),
    sql.Shape(Section, "s", ("id", "name", "slug")),
    sql.Shape(Tournament, "t", ("id", "name", "slug")),
    sql.Shape(Club, "c", ("id", "slug")),
)


@functools.cache
def _place_sql() -> str:
    return (
        f"SELECT {sql.select(_PLACE)} FROM {sql.table(Pairing)} p"
        f" JOIN {sql.table(Round)} rd ON rd.id = p.round_id"
        f" JOIN {sql.table(Section)} s ON s.id = p.section_id"
        f" JOIN {sql.table(Tournament)} t ON t.id = s.tournament_id"
        f" JOIN {sql.table(Club)} c ON c.id = t.club_id"
        f" WHERE p.game_id = %s OR p.match_id = %s ORDER BY p.id LIMIT 1"
    )


def tournament_place(game: Game) -> Place | None:
    """Hand-written (accounts.sql), as the other reads every page of a game's crowd makes:
    through the ORM (select_related over five tables) this lookup cost 3.5-5.0 ms of CPU,
    a third of a signed-in observer's game page; 0.17 ms so (docs/benchmarks-live.md,
    fifteenth round)."""
    rows = sql.fetch(_place_sql(), [game.pk, game.match_id], _PLACE)
    if not rows:
        return None
    pairing, round_, section, tournament, club = rows[0]
    url = reverse("competitions:section", args=[club.slug, tournament.slug, section.slug])
    return Place(event=tournament.name, part=section.name, where=f"Round {round_.number}, board {pairing.board}",
                 url=url)
