"""What players and pages hear: a player's pairing as a stored notice (accounts/notices.py,
pushed after commit), a section's progress on its group (``section_group``) after commit.
A lost section update costs a page refresh, never a result."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.urls import reverse

from accounts.broadcast import send_to_groups
from accounts.notices import Kind, NoticeSpec, notify_many
from league.models import Pairing, Round, Section, Tournament


def section_group(section_id: int) -> str:
    """The channel-layer group of a section's live pages."""
    return f"section-{section_id}"


def announce_round(section: Section, round_: Round) -> None:
    pairings = list(round_.pairings.select_related("first", "second"))
    notify_players(section, round_, pairings)
    broadcast_section(section, {"event": "round-started", "round": round_.number})


def notify_players(section: Section, round_: Round, pairings: list[Pairing]) -> None:
    """Each player's notice of their pairing, stored in this transaction (accounts/notices.py):
    once per pairing and game, so a retried task or a replayed draw writes each once."""
    specs = []
    for pairing in pairings:
        game_id = pairing.game_id or (pairing.match.games.order_by("number_in_match").values_list(
            "pk", flat=True).last() if pairing.match is not None else None)
        for user_id, opponent_id in ((pairing.first_id, pairing.second_id), (pairing.second_id, pairing.first_id)):
            if user_id is None:
                continue
            kind = Kind.PAIRING
            if opponent_id is None:
                text, kind = f"{section}: round {round_.number}: you have a bye.", Kind.ROUND_STARTED
            elif game_id is None:
                text = f"{section}: round {round_.number}: result by forfeit ({pairing.get_result_display()})."
                kind = Kind.ROUND_STARTED
            else:
                text = f"{section}: round {round_.number}, board {pairing.board}: your game is ready."
            specs.append(NoticeSpec(
                recipient_id=user_id, kind=kind, cause=f"pairing:{pairing.pk}:game:{game_id or 0}", message=text,
                url=f"/play/{game_id}/" if game_id else section_url(section),
                data={"section": section.pk, "round": round_.number, "board": pairing.board, "game": game_id},
            ))
    notify_many(specs)


def section_url(section: Section) -> str:
    tournament = section.tournament
    return reverse("competitions:section", args=[tournament.club.slug, tournament.slug, section.slug])


def notify_tournament_finished(tournament: Tournament) -> None:
    """Each player of a finished tournament: the final standings of their section and their place."""
    url = reverse("competitions:tournament", args=[tournament.club.slug, tournament.slug])
    specs = []
    for section in tournament.sections.filter(status=Section.Status.FINISHED):
        table = list(section.standings.select_related("user__profile").order_by("rank", "user__username"))
        top = ", ".join(f"{row.rank}. {row.user.name} ({row.points:g})" for row in table[:3])
        for row in table:
            specs.append(NoticeSpec(
                recipient_id=row.user_id, kind=Kind.TOURNAMENT_FINISHED,
                cause=f"tournament-finished:{tournament.pk}:section:{section.pk}",
                message=(f"{tournament.name} is over: you placed {row.rank} of {len(table)} in {section.name} "
                         f"with {row.points:g} points. Final standings: {top}."),
                url=url, data={"tournament": tournament.pk, "section": section.pk, "place": row.rank,
                               "players": len(table), "points": row.points},
            ))
    notify_many(specs)


def broadcast_section(section: Section, payload: dict[str, Any]) -> None:
    message = {"type": "section.update", "section": section.pk, **payload}
    group = section_group(section.pk)
    transaction.on_commit(lambda: send_to_groups([(group, message)]))
