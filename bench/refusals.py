"""What refused actions cost the database: one seated guest sends refused actions in a loop.

A real server on a SQLite file of its own; a guest at a Exploding Kittens table (one bot, a
two-minute turn, so nothing else moves) sends a `reorder` with a long list while nobody is
choosing (refused: `not_choosing`), `--rate` a second for `--seconds`, the way issue 22's guest
grew the database by 26 MB in 20 s. Printed: how each action was answered, the growth of the
database's files (the file and its write-ahead log) and of its `moves` rows, and the bytes per
refused action. `python -m bench.refusals --seconds 10`.
"""

from __future__ import annotations

import argparse
import asyncio
import sqlite3
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from cardroom.server.process import run_server
from tests.server.live import Client

SLOW_TURNS = {"turn_ms": 120_000, "bot_think_ms": 0}
LONG_ORDER = list(range(1000, 3200))
"""A reorder's list as long as a message may carry (16 KiB): what a refused action could log."""


def database_bytes(folder: Path) -> int:
    """The SQLite database's size on disk: the file and its write-ahead log."""
    return sum(p.stat().st_size for p in folder.glob("cardroom.sqlite3*"))


def moves_rows(folder: Path) -> int:
    with sqlite3.connect(f"file:{folder / 'cardroom.sqlite3'}?mode=ro", uri=True) as db:
        return int(db.execute("SELECT count(*) FROM moves").fetchone()[0])


async def seated_guest(url: str) -> tuple[Client, str]:
    """A guest at a started two-seat kittens table, before their first move."""
    guest = await Client.connect(url, "Guest")
    await guest.send(
        {"type": "create_table", "game": "kittens", "seats": 2, "bots": 1, "options": SLOW_TURNS}
    )
    table = (await guest.expect("table"))["table"]
    await guest.send({"type": "start", "table": table})
    await guest.expect("table", timeout=30, state="playing")
    return guest, table


async def refuse(url: str, folder: Path, seconds: float, rate: float) -> tuple[Counter[str], int, int]:
    """Send refused actions for `seconds` at `rate` a second: how each was answered, and the
    growth of the database (bytes, moves rows) from the game's start to the last answer."""
    guest, table = await seated_guest(url)
    await asyncio.sleep(1)  # the start's own writes (the game, the table, the bot's moves) settle
    size, rows = database_bytes(folder), moves_rows(folder)
    answers: Counter[str] = Counter()
    sent = 0
    start = time.monotonic()
    while (elapsed := time.monotonic() - start) < seconds:
        while sent < elapsed * rate:
            action: dict[str, Any] = {"do": "reorder", "order": LONG_ORDER}
            await guest.send({"type": "act", "table": table, "action": action, "ref": sent})
            sent += 1
        await asyncio.sleep(0.01)
    while sum(answers.values()) < sent:
        message = await guest.recv(30)
        if message.get("type") == "rejected":
            answers[f"rejected {message['code']}"] += 1
        elif message.get("type") == "error":
            answers[f"error {message['code']}"] += 1
    await asyncio.sleep(1)  # the journal commits what the last answers waited for
    grown = database_bytes(folder) - size, moves_rows(folder) - rows
    await guest.close()
    return answers, *grown


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument(
        "--rate", type=float, default=35.0, help="actions a second (the server allows 40 messages)"
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        with run_server({"CARDROOM_DATA": name}) as server:
            answers, grown, rows = asyncio.run(refuse(server.ws_url, folder, args.seconds, args.rate))
        sent = sum(answers.values())
        refused = sum(n for what, n in answers.items() if what.startswith("rejected"))
        print(
            f"{sent} actions in {args.seconds:g} s: "
            + ", ".join(f"{n} {w}" for w, n in answers.most_common())
        )
        print(f"database grew {grown:,} bytes, moves rows +{rows}")
        print(
            f"per action sent: {grown / max(sent, 1):,.0f} bytes; per refusal the rules saw: {grown / max(refused, 1):,.0f} bytes"
        )


if __name__ == "__main__":
    main()
