"""Run by the killed-worker notice test as a separate process against a scratch database.

    python tests/accounts/notices_worker_script.py setup        -> prints a section's id (4 players, round 1 due)
    python tests/accounts/notices_worker_script.py send SECTION -> queues its round 1 on the broker
    python tests/accounts/notices_worker_script.py count SECTION -> JSON: pairing notices per player, pairings, rounds

With NOTICE_KILL_MARKER set, a process that loads this module (the Celery worker, by
``--include``) writes its pid to that file and kills itself with SIGKILL right after a
transaction that wrote notices commits: before their live push, before the task is
acknowledged. The moment the issue's worker died.
"""

from __future__ import annotations

import json
import os
import signal
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import django

django.setup()

from accounts import notices as notice_service  # noqa: E402
from accounts.models import Notice  # noqa: E402
from league import tasks  # noqa: E402
from league.models import Pairing, Round  # noqa: E402

KILL_MARKER_ENV = "NOTICE_KILL_MARKER"


def kill_after_commit_if_asked() -> None:
    marker = os.environ.get(KILL_MARKER_ENV)
    if not marker:
        return

    def die(notices: list[Notice]) -> None:
        Path(marker).write_text(str(os.getpid()))
        os.kill(os.getpid(), signal.SIGKILL)

    notice_service._after_commit = die


kill_after_commit_if_asked()


def main(command: str, section_id: int = 0) -> None:
    if command == "setup":
        from tests.factories import players, section_with

        def make_player(*, username: str, born, **extra):
            from tests.factories import PlayerFactory

            return PlayerFactory.create(username=username, date_of_birth=born, **extra)

        from datetime import timedelta

        from django.utils import timezone

        section = section_with(players(make_player, 4, prefix="kill"), format="swiss", rounds=2, start=False)
        due = timezone.now() - timedelta(seconds=5)  # registration closed with everyone in: round 1 is due
        Round.objects.filter(section=section, number=1).update(starts_at=due)
        type(section).objects.filter(pk=section.pk).update(starts_at=due)
        print(section.pk)
    elif command == "send":  # to the test's own queue: other runs' workers may share the Redis database
        tasks.start_round.apply_async(args=[section_id, 1], queue=os.environ.get("NOTICE_TEST_QUEUE", "celery"))
    elif command == "count":
        pairings = Pairing.objects.filter(section_id=section_id)
        paired = [uid for pair in pairings.values_list("first_id", "second_id") for uid in pair if uid]
        per_player = {str(uid): Notice.objects.filter(recipient_id=uid, kind=Notice.Kind.PAIRING).count()
                      for uid in paired}
        links = sorted(Notice.objects.filter(recipient_id__in=paired).values_list("url", flat=True))
        print(json.dumps({"notices": per_player, "links": links, "pairings": pairings.count(),
                          "games": sorted(pairings.values_list("game_id", flat=True)),
                          "rounds": Round.objects.filter(section_id=section_id).exclude(
                              status=Round.Status.SCHEDULED).count()}))


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 0)
