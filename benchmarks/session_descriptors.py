"""What a session costs the server process in open files (descriptors): the figures behind
`server.FILES_PER_SESSION` and `FILES_RESERVED`.

Starts a server of its own (`--max-sessions 4`), then prints its open descriptors idle (with its
preheated kernel), after each of `--sessions` connected sessions (each a protocol-level page: its page
loaded, its kernel websocket open; the pool refilled) and after a second websocket to the first session.

    nice .venv/bin/python benchmarks/session_descriptors.py --sessions 3
    .venv/bin/python benchmarks/session_descriptors.py --smoke    (one session)
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "tests"), str(Path(__file__).resolve().parent)]

from app_speed import Server  # noqa: E402
from kernel_client import Visit  # noqa: E402

SETTLE_SECONDS = 4.0
"""How long to wait after each step (the preheated pool refills) before counting."""
SMOKE = {"sessions": 1}
"""--smoke: the smallest real run (the test suite runs it): one session, then its second websocket."""


async def measure(server: Server, sessions: int) -> None:
    """Open the sessions one by one, then a second websocket to the first, printing the server's descriptors."""
    process = psutil.Process(server.process.pid)
    await asyncio.sleep(SETTLE_SECONDS)
    idle = process.num_fds()
    print(f"idle, with its preheated kernel: {idle} descriptors")
    visits, counts = [], [idle]
    for number in range(1, sessions + 1):
        visit = Visit(server.url)
        await visit.open()
        visits.append(visit)
        await asyncio.sleep(SETTLE_SECONDS)
        counts.append(process.num_fds())
        print(f"{number} connected session(s): {counts[-1]} (+{counts[-1] - counts[-2]})")
    extra = Visit(server.url, cookies=dict(visits[0].cookies), kernel_id=visits[0].kernel_id)
    await extra.connect()
    await extra.ready()
    await asyncio.sleep(SETTLE_SECONDS)
    print(f"a second websocket to session 1: {process.num_fds()} (+{process.num_fds() - counts[-1]})")
    print(f"per connected session: {(counts[-1] - idle) / sessions:.1f} descriptors")
    for visit in [*visits, extra]:
        await visit.close()


def main() -> None:
    """Parse the options, start the server, measure, stop it."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=3, help="connected sessions to open (1 to 4)")
    parser.add_argument("--smoke", action="store_true", help=f"the smallest real run: {SMOKE} (overrides those)")
    args = parser.parse_args()
    if args.smoke:
        vars(args).update(SMOKE)
    if not 1 <= args.sessions <= 4:
        parser.error(f"--sessions must be from 1 to 4, not {args.sessions}")
    server = Server("--max-sessions", "4")
    try:
        asyncio.run(measure(server, args.sessions))
    finally:
        server.stop()


if __name__ == "__main__":
    main()
