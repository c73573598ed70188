"""A section's live socket: ``/ws/sections/<id>/`` (docs/protocol.md, "Section pages").

Joins the section's group (``competitions.section_group``) and forwards each
``section.update`` as an ``update`` frame: which event happened, not the new state.
The page then fetches its live part over HTTP, the one place that renders it, so a
frame carries nothing a viewer could not read on the page."""

from __future__ import annotations

from typing import Any

from accounts.realtime import SafeJsonConsumer
from games import database
from league.competitions import refusals, section_group
from league.models import Section

#: Close code when there is no such section (or it is a draft hidden from this viewer).
CLOSE_NO_SUCH_SECTION = 4404


def _may_follow(*, section_id: int, user: Any) -> bool:
    """The section page's own rule (refusals.view_refusal): one query for the section."""
    section = Section.objects.select_related("tournament__club").filter(pk=section_id).first()
    return section is not None and refusals.view_refusal(section.tournament, user) is None


class SectionConsumer(SafeJsonConsumer):
    """Tells a section's pages that something changed; they refresh their live part."""

    async def connect(self) -> None:
        self.section_id = int(self.scope["url_route"]["kwargs"]["section_id"])
        self.group = ""
        await self.accept()
        if not await database.run(_may_follow, section_id=self.section_id, user=self.scope.get("user")):
            await self.send_error("no-such-section", "There is no such section.")
            await self.close(code=CLOSE_NO_SUCH_SECTION)
            return
        self.group = section_group(self.section_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.send_json({"type": "following", "section": self.section_id})

    async def disconnect(self, code: int) -> None:
        if getattr(self, "group", ""):
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive_json(self, content: dict[str, Any], **kwargs: Any) -> None:
        await self.send_json({"type": "pong"})  # a ping: the only frame it takes (frame_fields)

    async def section_update(self, event: dict[str, Any]) -> None:
        # league.competitions.notices.broadcast_section: the event's name and numbers.
        await self.send_json({"type": "update", **{key: value for key, value in event.items() if key != "type"}})
