"""accounts.broadcast.send_to_groups: a live hint from sync code never raises and never
hangs; with the layer failing, the first failure is logged and the rest are dropped."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import pytest

from accounts import broadcast


class RecordingLayer:
    def __init__(self, fail_from: int | None = None, hang: bool = False) -> None:
        self.sent: list[tuple[str, dict[str, Any]]] = []
        self.fail_from = fail_from
        self.hang = hang

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        if self.hang:
            await asyncio.sleep(60)
        if self.fail_from is not None and len(self.sent) >= self.fail_from:
            raise ConnectionError("Redis is down")
        self.sent.append((group, message))


def use_layer(monkeypatch: pytest.MonkeyPatch, layer: RecordingLayer) -> None:
    monkeypatch.setattr(broadcast, "get_channel_layer", lambda: layer)


def test_every_message_goes_out_in_order(monkeypatch):
    layer = RecordingLayer()
    use_layer(monkeypatch, layer)
    messages = [("user-1", {"type": "user.notice", "n": 1}), ("section-2", {"type": "section.update", "n": 2})]
    broadcast.send_to_groups(messages)
    assert layer.sent == messages


def test_a_failing_layer_is_logged_and_the_rest_dropped(monkeypatch, caplog):
    layer = RecordingLayer(fail_from=1)
    use_layer(monkeypatch, layer)
    with caplog.at_level(logging.WARNING, logger="accounts.broadcast"):
        broadcast.send_to_groups([("a", {"type": "x"}), ("b", {"type": "y"}), ("c", {"type": "z"})])
    assert layer.sent == [("a", {"type": "x"})]
    [record] = [r for r in caplog.records if r.name == "accounts.broadcast"]
    assert "2 live message(s) lost" in record.getMessage() and "Redis is down" in record.getMessage()


def test_a_hung_layer_is_given_up_after_send_seconds(monkeypatch):
    use_layer(monkeypatch, RecordingLayer(hang=True))
    monkeypatch.setattr(broadcast, "SEND_SECONDS", 0.2)
    loop = asyncio.new_event_loop()
    try:
        started = loop.time()
        broadcast.send_to_groups([("a", {"type": "x"}), ("b", {"type": "y"})])
        assert loop.time() - started < 2  # one wait for the lot, not one each, and no hang
    finally:
        loop.close()


def test_after_a_failure_the_layer_is_not_asked_again_for_a_few_seconds(monkeypatch, caplog):
    """With Redis hung, every write waited SEND_SECONDS for its hints: now the first
    does, and the next ones in the following QUIET_SECONDS go on at once, their hints
    lost as the first one's was (the sockets resync from the database)."""
    from accounts import unanswered

    clock = [1000.0]
    monkeypatch.setattr(unanswered.time, "monotonic", lambda: clock[0])
    layer = RecordingLayer(fail_from=0)
    use_layer(monkeypatch, layer)
    asked = []
    real_send = layer.group_send

    async def counting_send(group, message):
        asked.append(group)
        await real_send(group, message)

    layer.group_send = counting_send
    with caplog.at_level(logging.WARNING):
        broadcast.send_to_groups([("a", {"type": "x"})])
        broadcast.send_to_groups([("b", {"type": "y"})])  # resting: not asked
        clock[0] += unanswered.QUIET_SECONDS - 0.1
        broadcast.send_to_groups([("c", {"type": "z"})])  # still resting
    assert asked == ["a"]
    assert sum("did not answer" in r.getMessage() for r in caplog.records) == 1  # one line an outage
    clock[0] += 0.2
    layer.fail_from = None
    broadcast.send_to_groups([("d", {"type": "w"})])  # asked again, and it answers
    assert asked == ["a", "d"] and layer.sent == [("d", {"type": "w"})]
