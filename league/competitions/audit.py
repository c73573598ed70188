"""The organisers' actions go into the one audit log (moderation's ``AuditEntry``).

league stands below moderation and cannot import it, so moderation registers its
recorder here in ``ModerationConfig.ready``, as it does for rule-set revisions
(games/ownership.py). Each service calls ``record`` inside its own transaction, after
its checks: an action and its entry are stored together or not at all, and a refused
action writes none."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from django.db import models

from accounts.models import User
from league.models import Club

Recorder = Callable[..., Any]

_recorders: dict[str, Recorder] = {}


def register_recorder(name: str, recorder: Recorder) -> None:
    """``recorder(actor=, action=, target=, club=, reason=, details=)`` writes one entry."""
    _recorders[name] = recorder


def record(*, actor: User | None, action: str, target: models.Model, club: Club | None, reason: str = "",
           details: Mapping[str, Any] | None = None) -> None:
    if not _recorders:  # moderation is always installed: an unaudited action is a bug, not a choice
        raise RuntimeError("No audit recorder is registered (moderation's AppConfig.ready registers one).")
    for recorder in _recorders.values():
        recorder(actor=actor, action=action, target=target, club=club, reason=reason, details=details)
