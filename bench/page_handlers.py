"""What a game page costs the server process through each of Django's two handlers, as
uvicorn serves it: the WSGI handler on a pool of page threads (config/asgi.py, the
platform's) against Django's ASGI handler (what config/asgi.py served pages with before
2026-11-29). Same scratch database, same signed-in observers, same game four moves in;
each handler in its own server process, measured twice in turn (wsgi, asgi, wsgi, asgi).

    .venv/bin/python bench/page_handlers.py                 # 600 GETs, 4 browsers at once
    .venv/bin/python bench/page_handlers.py --gets 1200 --browsers 8

Printed per run: the server process's CPU per GET (its children included: the database
workers, idle here) and the wall time a browser waited per GET. PostgreSQL and Redis as
bench/live.py uses them (a scratch database, an empty Redis database)."""

from __future__ import annotations

import argparse
import asyncio
import concurrent.futures
import importlib
import multiprocessing
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parent.parent
if str(REPO_ROOT) not in sys.path:
    sys.path.insert(0, str(REPO_ROOT))

# bench/live.py's scratch services, processes and browser client; imported by name, as
# mypy checks each bench script as a module of its own (bench is no package).
live = importlib.import_module("bench.live")

HANDLERS = {
    "wsgi": "config.asgi:application",
    "asgi": "bench.page_handlers_asgi:application",
}


async def fetch_pages(port: int, server_pid: int, cookies: list[str], game_id: int, gets: int) -> tuple[float, float]:
    """(server CPU seconds per GET, wall seconds a browser waited per GET) for ``gets``
    page loads shared by the browsers, after 30 each to warm up."""
    browsers = [live.HttpClient(port, cookie) for cookie in cookies]

    async def load(browser: Any, times: int) -> None:
        for _ in range(times):
            status, _ = await browser.get(f"/play/{game_id}/")
            if status != 200:
                raise SystemExit(f"the game page answered {status}")

    await asyncio.gather(*(load(b, 30) for b in browsers))
    pids = live.with_descendants([server_pid])
    cpu, began = live.cpu_seconds(pids), time.perf_counter()
    each = gets // len(browsers)
    await asyncio.gather(*(load(b, each) for b in browsers))
    wall, cpu = time.perf_counter() - began, live.cpu_seconds(pids) - cpu
    for browser in browsers:
        await browser.close()
    return cpu / (each * len(browsers)), wall / each


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--gets", type=int, default=600, help="page loads measured per run")
    parser.add_argument("--browsers", type=int, default=4, help="signed-in observers loading at once")
    parser.add_argument("--database-url", default="postgres://postgres@127.0.0.1:5432/postgres")
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379")
    parser.add_argument("--redis-db", type=int, default=11)
    args = parser.parse_args()
    args.db_pool, args.db_processes = None, 2  # the platform's own settings
    with tempfile.TemporaryDirectory(prefix="ttt-pages-") as tmp, live.scratch_services(args) as scratch:
        with concurrent.futures.ProcessPoolExecutor(
            1, mp_context=multiprocessing.get_context("spawn"), initializer=live._db_init,
            initargs=(scratch.helper_env,),
        ) as helper:
            people = helper.submit(live._db_make_players, "pages", 2 + args.browsers).result()
            game_id = helper.submit(live._db_sample_game, people[0][0], people[1][0]).result()
        cookies = [cookie for _, _, cookie in people[2:]]
        processes = live.Processes(Path(tmp))
        print(f"game page of a signed-in observer, {args.gets} GETs, {args.browsers} browsers at once")
        for name in ["wsgi", "asgi"] * 2:
            port = live.free_port()
            server = processes.start(name, live.uvicorn_command(HANDLERS[name], port, 1), scratch.env)
            live.wait_for_port(port, server)
            cpu, wall = asyncio.run(fetch_pages(port, server.pid, cookies, game_id, args.gets))
            print(f"{name}: {cpu * 1000:6.2f} ms server CPU per GET, {wall * 1000:6.2f} ms a browser waited per GET",
                  flush=True)
            processes.stop([server])


if __name__ == "__main__":
    main()
