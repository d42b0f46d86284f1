"""What reading a long game's replay costs a real server (issue 22): the answers' size, the
server's memory, and how long a websocket player waits for an answer meanwhile.

The game: twelve bots play Throw Throw Burrito to its end (`--bruises`, 60 by default, past
what a table may now ask for: a stored game keeps its options). It goes into a SQLite file as a
finished public game; a `cardroom serve` process is started on it; a websocket client pings the
server every 50 ms while the whole replay, every hand shown, is read in each `--langs`
(every page of it, or the one answer a server without pages gives).

    python -m bench.replay [--bruises 60] [--langs en,it,fr]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

import websockets

from cardroom.bots import make_bot
from cardroom.drive.virtual import VirtualDriver
from cardroom.games import find_game
from cardroom.protocol.record import Record
from cardroom.server.process import run_server
from cardroom.server.wire import PROTOCOL_VERSION, messages
from cardroom.store import SeatRecord, Store

GAME_ID = "long1"


def long_game(players: int = 12, bruises: int = 60, seed: int = 0) -> tuple[Record, int, int | None]:
    """A Throw Throw Burrito game bots played to its end: its record, its end time, its winner."""
    game = find_game("burrito")
    options = {"bruises": bruises}
    table = game.new_table(players, options, seed)
    bots = {i: make_bot("burrito", i, "normal", 50 + i + seed) for i in range(players)}
    run = VirtualDriver(table, bots, game.action_json, lambda at, events: None).run()
    return Record("burrito", players, options, seed, moves=list(run.moves)), table.now, table.winner


async def store_game(
    url: str, record: Record, end_at: int, winner: int | None, game_id: str = GAME_ID
) -> None:
    """Keep `record` in the store at `url` as a finished public game, as a server does."""
    store = await Store.open(url)
    try:
        seats = [SeatRecord(f"Bot {i + 1}", bot_level="normal") for i in range(record.players)]
        store.records.start_game(game_id, "room1", record, seats)
        for seq, move in enumerate(record.moves):
            store.journal.move(game_id, seq, move.at, move.player, move.action)
        places = [1 if seat == winner else 2 for seat in range(record.players)]
        store.records.finish_game(game_id, end_at, winner, places)
        await store.journal.flush()
    finally:
        await store.close()


def memory_mib(pid: int) -> tuple[float, float]:
    """The process's resident memory now and at its peak (VmRSS, VmHWM), in MiB."""
    fields = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            fields[key] = int(value.split()[0]) / 1024
    return fields["VmRSS"], fields["VmHWM"]


def read_replay(url: str, lang: str) -> tuple[int, int, int]:
    """Every page of the whole replay in `lang`: (answers, bytes in all, the largest answer)."""
    answers, total, largest, number = 0, 0, 0, 0
    while True:
        path = f"{url}/api/records/{GAME_ID}/frames?seat=all&lang={lang}&page={number}"
        with urllib.request.urlopen(path, timeout=600) as reply:
            body = reply.read()
        answers += 1
        total += len(body)
        largest = max(largest, len(body))
        data: dict[str, Any] = json.loads(body)
        number += 1
        if number >= data.get("pages", 1):
            return answers, total, largest


async def pinger(ws_url: str, stop: asyncio.Event, waits: list[float]) -> None:
    """Ping the server every 50 ms until `stop`; each round trip's time, in ms, into `waits`."""
    async with websockets.connect(ws_url, max_size=None) as ws:
        await ws.send(json.dumps({"type": "hello", "protocol": PROTOCOL_VERSION, "name": "Pinger"}))
        while not any(m.get("type") == "welcome" for m in messages(await ws.recv())):
            pass
        number = 0
        while not stop.is_set():
            number += 1
            sent = time.perf_counter()
            await ws.send(json.dumps({"type": "ping", "id": number}))
            while not any(
                m.get("type") == "pong" and m.get("id") == number for m in messages(await ws.recv())
            ):
                pass
            waits.append((time.perf_counter() - sent) * 1000)
            await asyncio.sleep(0.05)  # within the websocket's message rate


async def measure(url: str, ws_url: str, pid: int, langs: list[str]) -> None:
    stop = asyncio.Event()
    waits: list[float] = []
    ping = asyncio.create_task(pinger(ws_url, stop, waits))
    await asyncio.sleep(1)
    rss, _peak = memory_mib(pid)
    print(f"server before: {rss:.0f} MiB; idle ping {max(waits):.1f} ms at most")
    for lang in langs:
        waits.clear()
        started = time.perf_counter()
        answers, total, largest = await asyncio.to_thread(read_replay, url, lang)
        took = time.perf_counter() - started
        rss, peak = memory_mib(pid)
        print(
            f"{lang}: {answers} answers, {total / 1e6:.1f} MB in all, the largest {largest / 1e6:.2f} MB, "
            f"{took:.1f} s; server {rss:.0f} MiB now, {peak:.0f} MiB at its peak; "
            f"ping meanwhile: {len(waits)} answered, the slowest {max(waits, default=0):.0f} ms"
        )
    stop.set()
    await ping


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.replay", description=__doc__.split("\n\n")[0])
    parser.add_argument("--bruises", type=int, default=60)
    parser.add_argument("--players", type=int, default=12)
    parser.add_argument("--langs", default="en,it,fr")
    args = parser.parse_args(argv)
    record, end_at, winner = long_game(args.players, args.bruises)
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{folder}/long.sqlite3"
        asyncio.run(store_game(url, record, end_at, winner))
        print(
            f"a {args.players}-seat burrito game, bruises {args.bruises}: {len(record.moves)} moves; "
            f"load {os.getloadavg()[0]:.1f}"
        )
        with run_server({"CARDROOM_DB": url}) as server:
            asyncio.run(measure(server.url, server.ws_url, server.process.pid, args.langs.split(",")))
        print(f"load {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
