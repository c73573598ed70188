"""A stand-in for the AIs' clock: how long a move takes by the AI's own reckoning,
whatever the machine's load (bench/engine.py prints the real latencies)."""

from __future__ import annotations

import types

import pytest


class SteppingClock:
    """``perf_counter`` that moves on ``step`` seconds at every reading, so a search that
    ignored its deadline would read far past it."""

    def __init__(self, step: float = 0.01) -> None:
        self.now = 0.0
        self.step = step
        self.readings = 0

    def perf_counter(self) -> float:
        self.now += self.step
        self.readings += 1
        return self.now


def stepping_clock(monkeypatch: pytest.MonkeyPatch, module: types.ModuleType, step: float = 0.01) -> SteppingClock:
    """Give ``module`` (an AI that does ``import time``) the stepping clock."""
    clock = SteppingClock(step)
    monkeypatch.setattr(module, "time", types.SimpleNamespace(perf_counter=clock.perf_counter))
    return clock
