"""Whether the forgotten-password page's answer time tells which accounts exist: the
median time of POST /accounts/password/reset/ for an existing username, its e-mail
address, an unknown name and an unknown address (docs/security.md, "Passwords and
account recovery").

    .venv/bin/python bench/reset_timing.py                 # 80 requests each
    .venv/bin/python bench/reset_timing.py --requests 300

In-process (Django's test client) on the dev settings with a scratch SQLite database and
the in-memory broker, the per-address throttle off. ``--inline`` sends the mail in the
request instead of queueing the task (what the broker-down fallback does), through
Django's SMTP backend to a local sink that answers like a mail server: the difference
that queueing removes.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def smtp_sink() -> int:
    """A minimal SMTP server on 127.0.0.1 that accepts every message; its port."""
    import socket

    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(16)

    def serve(conn: socket.socket) -> None:
        with conn, conn.makefile("rb") as lines:
            conn.sendall(b"220 sink\r\n")
            for line in lines:
                command = line.strip().upper()
                if command == b"DATA":
                    conn.sendall(b"354 go on\r\n")
                    for body in lines:
                        if body.rstrip(b"\r\n") == b".":
                            break
                    conn.sendall(b"250 ok\r\n")
                elif command.startswith(b"QUIT"):
                    conn.sendall(b"221 bye\r\n")
                    return
                elif command.startswith(b"EHLO"):
                    conn.sendall(b"250 sink\r\n")
                else:
                    conn.sendall(b"250 ok\r\n")

    def accept() -> None:
        while True:
            conn, _ = server.accept()
            threading.Thread(target=serve, args=(conn,), daemon=True).start()

    threading.Thread(target=accept, daemon=True).start()
    return server.getsockname()[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--requests", type=int, default=80, help="requests per identifier (default 80)")
    parser.add_argument("--inline", action="store_true", help="send the mail in the request, over SMTP")
    args = parser.parse_args()

    scratch = tempfile.mkdtemp(prefix="reset-timing-")
    os.environ.update({"SQLITE_PATH": f"{scratch}/db.sqlite3", "THROTTLE_PASSWORD_RESET": "",
                       "DJANGO_SETTINGS_MODULE": "config.settings.dev"})
    os.environ.pop("DATABASE_URL", None)
    os.environ.pop("REDIS_URL", None)
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command
    from django.test import Client

    from accounts import dispatch
    from tests.factories import PlayerFactory

    call_command("migrate", verbosity=0)
    PlayerFactory.create(username="existing", email="existing@example.com")
    settings.ALLOWED_HOSTS = ["testserver"]
    if args.inline:
        settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
        settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", smtp_sink()
        dispatch.enqueue = lambda *a, **k: False  # as with the broker down: the request sends
    client = Client()
    identifiers = ["existing", "existing@example.com", "nobody-here", "nobody@example.com"]
    times: dict[str, list[float]] = {who: [] for who in identifiers}
    for _ in range(args.requests):  # interleaved: drift in the machine's load hits all alike
        for who in identifiers:
            start = time.perf_counter()
            response = client.post("/accounts/password/reset/", {"email": who})
            times[who].append(time.perf_counter() - start)
            assert response.status_code == 302, response.status_code
    mode = "mail sent in the request (SMTP sink)" if args.inline else "mail queued (the page as it runs)"
    print(f"POST /accounts/password/reset/, {args.requests} requests each, {mode}:")
    for who in identifiers:
        ms = sorted(t * 1000 for t in times[who])
        print(f"  {who:22} median {statistics.median(ms):6.2f} ms   p90 {ms[int(len(ms) * 0.9)]:6.2f} ms")


if __name__ == "__main__":
    main()
