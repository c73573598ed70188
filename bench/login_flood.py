"""What a flood of password guesses costs everyone else: the lobby's latency for another
visitor while N clients guess one player's password as fast as they can, with the
abuse limits on (the defaults: docs/security.md, "Abuse limits") and, for comparison,
off.

    .venv/bin/python bench/login_flood.py                        # embedded SQLite
    .venv/bin/python bench/login_flood.py --guessers 96 --seconds 10
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/ttt REDIS_URL=redis://127.0.0.1:6379/0 \\
        .venv/bin/python bench/login_flood.py

The platform runs as it does in production (tests.processes: `runplatform`, or uvicorn
with a Celery worker and beat on the services runtime) on a scratch database, on
127.0.0.1 only. For each setting it measures the lobby alone, then the lobby while the
guessers post wrong passwords for one demo player to the API's log-in, and prints the
lobby's median and 95th percentile, the guesses answered by status, and whether the
right password still worked afterwards.
"""

from __future__ import annotations

import argparse
import collections
import json
import statistics
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.processes import free_port, platform_commands, running, scratch_database, wait_for_port  # noqa: E402

VICTIM, PASSWORD = "sam", "tictactoe-demo"  # a demo player (league/management/commands/seed_demo.py)


def post_login(base: str, password: str) -> int:
    request = urllib.request.Request(
        f"{base}/api/v1/accounts/login/",
        data=json.dumps({"username": VICTIM, "password": password}).encode(),
        headers={"Content-Type": "application/json"},
    )
    try:
        return urllib.request.urlopen(request, timeout=30).status
    except urllib.error.HTTPError as err:
        return err.code
    except OSError:
        return 0  # refused or timed out


def lobby_times(base: str, seconds: float) -> list[float]:
    times, deadline = [], time.monotonic() + seconds
    while time.monotonic() < deadline:
        start = time.perf_counter()
        urllib.request.urlopen(f"{base}/play/", timeout=30).read()
        times.append((time.perf_counter() - start) * 1000)
        time.sleep(0.05)
    return times


def flood(base: str, guessers: int, seconds: float) -> tuple[list[float], collections.Counter]:
    statuses: collections.Counter = collections.Counter()
    lock, stop = threading.Lock(), threading.Event()

    def guess() -> None:
        while not stop.is_set():
            status = post_login(base, "wrong-guess")
            with lock:
                statuses[status] += 1

    threads = [threading.Thread(target=guess, daemon=True) for _ in range(guessers)]
    for thread in threads:
        thread.start()
    time.sleep(0.5)  # the flood is under way before the lobby is timed
    times = lobby_times(base, seconds)
    stop.set()
    for thread in threads:
        thread.join(timeout=60)
    return times, statuses


def summary(times: list[float]) -> str:
    times = sorted(times)
    p95 = times[min(len(times) - 1, int(len(times) * 0.95))]
    return f"median {statistics.median(times):6.1f} ms, p95 {p95:7.1f} ms ({len(times)} loads)"


def run(limits: bool, guessers: int, seconds: float) -> None:
    with tempfile.TemporaryDirectory() as tmp, scratch_database(Path(tmp)) as env:
        for name in ("THROTTLE_USER_WRITE", "THROTTLE_ANON_WRITE", "THROTTLE_LOGIN", "THROTTLE_SIGNUP"):
            env.pop(name, None)  # the defaults, not the tests' generous rates
        if not limits:
            env.update(THROTTLE_LOGIN="", THROTTLE_ANON_WRITE="", AXES_FAILURE_LIMIT="1000000000")
        env["LOG_LEVEL"] = "WARNING"
        port = free_port()
        base = f"http://127.0.0.1:{port}"
        with running(*platform_commands(port), env=env, log_dir=Path(tmp)) as processes:
            wait_for_port(port, process=processes[0])
            lobby_times(base, 1.0)  # warm-up
            alone = lobby_times(base, seconds)
            during, statuses = flood(base, guessers, seconds)
            time.sleep(1.0)
            right = post_login(base, PASSWORD)
        label = "limits on " if limits else "limits off"
        print(f"{label}: lobby alone:        {summary(alone)}")
        print(f"{label}: lobby under flood:  {summary(during)}")
        answered = ", ".join(f"{status or 'failed'}: {count}" for status, count in sorted(statuses.items()))
        print(f"{label}: {sum(statuses.values())} guesses by {guessers} clients in {seconds:g} s ({answered})")
        print(f"{label}: the right password afterwards: {right}")


def main() -> None:
    import os

    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.dev")
    django.setup()
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--guessers", type=int, default=96)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--only", choices=("on", "off"), help="run one setting only")
    args = parser.parse_args()
    for limits in (True, False):
        if args.only in (None, "on" if limits else "off"):
            run(limits, args.guessers, args.seconds)


if __name__ == "__main__":
    main()
