"""The database worker processes (games/workers.py) are spawned and import their modules
before Django is set up: anything those import at module level must not need the app
registry. (A module-level import of a models module made every worker die at start, so
no game socket ever got its state, while the suite ran with LIVE_DB_PROCESSES = 0.)"""

from __future__ import annotations

import subprocess
import sys

from tests.processes import ROOT


def test_the_worker_modules_import_before_django_is_set_up():
    result = subprocess.run(
        [sys.executable, "-c", "import games.workers, games.realtime, accounts.broadcast"],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
        env={"PATH": "/usr/bin:/bin", "DJANGO_SETTINGS_MODULE": "config.settings.test"},
    )
    assert result.returncode == 0, result.stderr[-2000:]
