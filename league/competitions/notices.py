"""What players and pages hear, after commit: a player's pairing on their own group,
a section's progress on its group (``section_group``). A lost notice costs a page refresh,
never a result."""

from __future__ import annotations

import logging
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

from accounts.realtime import user_group
from league.models import Pairing, Round, Section

log = logging.getLogger(__name__)


def section_group(section_id: int) -> str:
    """The channel-layer group of a section's live pages."""
    return f"section-{section_id}"


def announce_round(section: Section, round_: Round) -> None:
    pairings = list(round_.pairings.select_related("first", "second"))
    notify_players(section, round_, pairings)
    broadcast_section(section, {"event": "round-started", "round": round_.number})


def notify_players(section: Section, round_: Round, pairings: list[Pairing]) -> None:
    """Tell each player their pairing, on their own group, after commit."""
    messages = []
    for pairing in pairings:
        game_id = pairing.game_id or (pairing.match.games.order_by("number_in_match").values_list(
            "pk", flat=True).last() if pairing.match is not None else None)
        for user_id, opponent_id in ((pairing.first_id, pairing.second_id), (pairing.second_id, pairing.first_id)):
            if user_id is None:
                continue
            if opponent_id is None:
                text = f"{section}: round {round_.number}: you have a bye."
            elif game_id is None:
                text = f"{section}: round {round_.number}: result by forfeit ({pairing.get_result_display()})."
            else:
                text = f"{section}: round {round_.number}, board {pairing.board}: your game is ready."
            messages.append((user_group(user_id), {
                "type": "user.notice", "message": text, "event": "pairing", "section": section.pk,
                "round": round_.number, "board": pairing.board, "game": game_id,
                "url": f"/play/{game_id}/" if game_id else "",
            }))
    if messages:
        transaction.on_commit(lambda: _group_send_all(messages))


def broadcast_section(section: Section, payload: dict[str, Any]) -> None:
    message = {"type": "section.update", "section": section.pk, **payload}
    group = section_group(section.pk)
    transaction.on_commit(lambda: _group_send_all([(group, message)]))


def _group_send_all(messages: list[tuple[str, dict[str, Any]]]) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    for group, message in messages:
        try:
            async_to_sync(layer.group_send)(group, message)
        except Exception:  # a lost notice costs a page refresh, never a result
            log.warning("could not send %s to %s", message.get("event"), group, exc_info=True)
