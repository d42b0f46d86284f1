"""Soak run: bot games for a long while against a real server, watching for what leaks.

`make soak` (30 minutes; `python -m bench.soak --minutes 3` for a short one). Several tables
play at once, one after another game: each table's people are network bots (cardroom's own
bots behind real websocket clients, as `bench.load`), with server bots in the other seats.
People come and go as people do: every game they connect again with their token (a
reconnect), some drop out mid-game and come back with `resume`, some leave mid-game for good
(a bot takes the seat), and others join the next game.

It reports, with the figures:
- the server's resident memory (RSS) after the warm-up and at the end: growth under 10 %;
- the server's open file descriptors before the first client and after the last has gone:
  back to the baseline;
- no game lost: every game a player got an acknowledgement in is in the records, finished,
  holding every acknowledged move;
each as a PASS or FAIL line at the end, after the machine's load at the start and the end and
the CPU time the server, the clients and everything else used (other work on the machine slows
the games: fewer of them, and a different memory figure).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import sys
import time
import urllib.request
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import websockets

from cardroom.clients.botclient import NetBot
from cardroom.protocol import JSON
from cardroom.server.process import LiveServer, run_server
from cardroom.server.wire import PROTOCOL_VERSION, messages

GAMES: dict[str, JSON] = {
    "burrito": {"countdown_ms": 800, "between_rounds_ms": 800, "fight_timeout_ms": 3000},
    "kittens": {"turn_ms": 4000, "nope_window_ms": 800, "choose_ms": 2000, "defuse_ms": 2000},
}


def memory_kib(pid: int) -> dict[str, int]:
    """The process's resident memory in KiB (Linux /proc): `VmRSS` in all, `RssAnon` of it the
    heaps (Python's objects, SQLite's page caches, ...), `RssFile` the mapped files (the
    interpreter, its libraries and compiled modules)."""
    fields = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "RssAnon", "RssFile"):
            fields[key] = int(value.split()[0])
    if "VmRSS" not in fields:
        raise RuntimeError("no VmRSS")
    return fields


def parts(fields: dict[str, int]) -> str:
    """The resident memory's two parts (of one `memory_kib` reading), for a reader who wants
    to know which grew."""
    return f"heaps {fields.get('RssAnon', 0) / 1024:.1f} MiB, mapped files {fields.get('RssFile', 0) / 1024:.1f} MiB"


def cpu_ticks() -> dict[int, tuple[str, int]]:
    """Every process's CPU time so far (user and system, in clock ticks), with its name; under
    pid 0, the whole machine's busy time (/proc/stat: all but idle and waiting for the disk)."""
    fields = Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]
    busy = sum(int(f) for f in fields) - int(fields[3]) - int(fields[4])
    ticks: dict[int, tuple[str, int]] = {0: ("machine", busy)}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        with contextlib.suppress(OSError, ValueError, IndexError):
            stat = Path(f"/proc/{entry}/stat").read_text()
            name, rest = stat[stat.index("(") + 1 : stat.rindex(")")], stat[stat.rindex(")") + 2 :].split()
            ticks[int(entry)] = (name, int(rest[11]) + int(rest[12]))
    return ticks


def command(pid: int, name: str) -> str:
    """A process's command line, shortened (a name like `python` says little), else its name."""
    with contextlib.suppress(OSError):
        words = Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace").split("\0")
        line = " ".join(w.rsplit("/", 1)[-1] if i == 0 else w for i, w in enumerate(words[:6]) if w)
        return line[:70] or name
    return name


def cpu_report(before: dict[int, tuple[str, int]], seconds: float, server: int) -> str:
    """Who used the CPU since `before`: the server, this run's clients, and the rest of the machine
    (a busy machine slows the games, and the figures with them), in CPU seconds; the other
    processes that used most, among those still running."""
    hz = os.sysconf("SC_CLK_TCK")
    now = cpu_ticks()
    spent: dict[int, int] = {}
    for pid, (name, ticks) in now.items():
        then = before.get(pid)
        spent[pid] = ticks - (then[1] if then is not None and then[0] == name else 0)
    ours = spent.get(server, 0) + spent.get(os.getpid(), 0)
    others: Counter[str] = Counter()
    for pid, ticks in spent.items():
        if pid not in (0, server, os.getpid()) and ticks > 0:
            others[command(pid, now[pid][0])] += ticks
    most = ", ".join(f"{name} {ticks / hz:.0f} s" for name, ticks in others.most_common(4))
    return (
        f"CPU over {seconds / 60:.1f} min on {os.cpu_count()} cores: the server {spent.get(server, 0) / hz:.0f} s, "
        f"the soak's clients {spent.get(os.getpid(), 0) / hz:.0f} s, everything else "
        f"{max(0, spent[0] - ours) / hz:.0f} s" + (f" (most, of those still running: {most})" if most else "")
    )


def load() -> str:
    return "load average {:.2f} {:.2f} {:.2f}".format(*os.getloadavg())


def open_fds(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


def fd_kinds(pid: int) -> Counter[str]:
    """The process's open file descriptors by kind: sockets, the database's files, the rest."""
    kinds: Counter[str] = Counter()
    for fd in os.listdir(f"/proc/{pid}/fd"):
        with contextlib.suppress(OSError):
            target = os.readlink(f"/proc/{pid}/fd/{fd}")
            if target.startswith("socket:"):
                kinds["sockets"] += 1
            elif "cardroom.sqlite3" in target:
                kinds["database files"] += 1
            else:
                kinds["other"] += 1
    return kinds


@dataclass
class Tally:
    games_started: int = 0
    games_over: int = 0
    games_stuck: int = 0
    reconnects: int = 0
    drops: int = 0
    leaves: int = 0
    joins: int = 0
    acked: dict[str, int] = field(default_factory=dict)
    """Per game id, the highest acknowledged move's place in the log."""
    errors: list[str] = field(default_factory=list)


class Forgotten(Exception):
    """The server no longer knows this person's token."""


class Person:
    """A network bot with a fixed identity: each game it comes back with its token."""

    def __init__(self, url: str, name: str, seed: int, tally: Tally) -> None:
        self.url, self.name, self.seed, self.tally = url, name, seed, tally
        self.token: str | None = None
        self.bot: NetBot | None = None
        self.tasks: list[asyncio.Task[None]] = []
        self.last_message = (time.monotonic(), "")
        self.last_events = time.monotonic()

    def _seen(self, message: JSON, _raw: str) -> None:
        self.last_message = (time.monotonic(), str(message.get("type")))
        if message.get("type") == "events":
            self.last_events = time.monotonic()
        if message.get("type") == "ack" and isinstance(message.get("game"), str):
            game, seq = message["game"], message.get("seq", 0)
            self.tally.acked[game] = max(self.tally.acked.get(game, -1), seq)
        elif message.get("type") == "error" and message.get("code") not in ("rate_limited",):
            self.tally.errors.append(f"{self.name}: {message.get('code')}")

    async def connect(self, game: str, table: str | None = None) -> NetBot:
        """A fresh websocket for this person (with the token once there is one), welcomed; back at
        `table` (its resync may come in the welcome's frame). A person away past the grace
        period is forgotten with their token (docs/security.md): they enter again with their
        nickname, as the page tells them to."""
        try:
            return await self._connect(game, table)
        except Forgotten:
            self.token = None
            return await self._connect(game, table)

    async def _connect(self, game: str, table: str | None) -> NetBot:
        bot = NetBot(self.url, self.name, game, "normal", seed=self.seed, on_message=self._seen)
        bot.table = table
        bot.ws = await websockets.connect(self.url, max_size=None, ping_interval=None, close_timeout=2)
        hello: JSON = {"type": "hello", "protocol": PROTOCOL_VERSION, "name": self.name}
        if self.token:
            hello["token"] = self.token
        await bot.send(hello)
        try:
            while not bot.token:
                for message in messages(await asyncio.wait_for(bot.ws.recv(), 30)):
                    if message.get("type") == "error" and message.get("code") == "bad_token":
                        raise Forgotten
                    await bot.handle(message, "")
                    if message.get("type") == "error":
                        raise RuntimeError(f"{self.name}: {message}")
        except websockets.ConnectionClosed as closed:
            if closed.rcvd is not None and closed.rcvd.code == 4002:
                raise Forgotten from None
            raise
        except Forgotten:
            with contextlib.suppress(Exception):
                await bot.ws.close()
            raise
        self.token = bot.token
        self.bot = bot
        return bot

    def play(self) -> None:
        assert self.bot is not None
        self.tasks = [asyncio.create_task(self.bot.reader()), asyncio.create_task(self.bot.actor())]

    async def halt(self) -> None:
        """Stop reading and acting (the socket stays open)."""
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        self.tasks = []

    async def stop(self) -> None:
        await self.halt()
        if self.bot is not None:
            with contextlib.suppress(Exception):
                await self.bot.close()

    async def expect(self, kind: str, **fields: Any) -> JSON:
        assert self.bot is not None
        while True:
            for message in messages(await asyncio.wait_for(self.bot.ws.recv(), 30)):
                await self.bot.handle(message, "")
                if message.get("type") == kind and all(message.get(k) == v for k, v in fields.items()):
                    return message
                if message.get("type") == "error":
                    raise RuntimeError(f"{self.name}: {message}")


async def one_game(people: list[Person], game: str, seats: int, rng: random.Random, tally: Tally) -> None:
    """The first person hosts a table, the others join, it plays to the end with comings and goings;
    a table where nothing happens for a minute is counted as stuck."""
    host, *guests = people
    bot = await host.connect(game)
    await bot.send({"type": "create_table", "game": game, "seats": seats, "options": GAMES[game]})
    table = (await host.expect("table"))["table"]
    bot.table = table
    for guest in guests:
        joined = await guest.connect(game, table)
        await joined.send({"type": "join", "table": table})
        await guest.expect("table", table=table)
        tally.joins += 1
    await bot.send({"type": "start", "table": table})
    for person in people:
        person.play()
    tally.games_started += 1
    deadline = time.monotonic() + 1200  # a long game of Throw Throw Burrito takes minutes, not twenty
    left: set[str] = set()
    while not host.bot or not host.bot.over:
        await asyncio.sleep(rng.uniform(2, 6))
        # Stuck: nothing happened at the table for a minute (timers move every game on in seconds).
        if time.monotonic() > deadline or time.monotonic() - host.last_events > 60:
            tally.games_stuck += 1
            heard_at, kind = host.last_message
            tally.errors.append(
                f"stuck: {game} table {table}, {seats} seats, {len(people)} people ({len(left)} left); the host "
                f"is at version {host.bot.last_v if host.bot else '?'}, last heard {kind!r} "
                f"{time.monotonic() - heard_at:.0f} s ago"
            )
            break
        present = [p for p in guests if p.name not in left]
        if not present or rng.random() < 0.5:
            continue
        person = rng.choice(present)
        assert person.bot is not None
        if person.bot.over:
            continue
        move = rng.random()
        if move < 0.45:  # a reconnect: the socket goes, the same player comes back and resumes
            since = person.bot.last_v
            await person.stop()
            again = await person.connect(game, table)
            await again.send({"type": "resume", "table": table, "since": since})
            person.play()
            tally.reconnects += 1
        elif move < 0.8:  # dropped for a few seconds (a bot stands in), then back
            await person.stop()
            await asyncio.sleep(rng.uniform(1, 4))
            await person.connect(game, table)
            person.play()
            tally.drops += 1
        else:  # leaves for good: a bot plays the seat to the end
            await person.halt()
            await person.bot.send({"type": "leave", "table": table})
            await asyncio.sleep(0.2)
            await person.stop()
            left.add(person.name)
            tally.leaves += 1
    if host.bot is not None and host.bot.over:
        tally.games_over += 1
    for person in people:
        if person.bot is not None and person.name not in left:
            with contextlib.suppress(Exception):
                await person.bot.send({"type": "leave", "table": table})
        await person.stop()


async def table_life(url: str, index: int, until: float, tally: Tally) -> None:
    """One table's people play game after game until `until`."""
    rng = random.Random(index)
    people = [Person(url, f"soak{index}-{i}", index * 10 + i, tally) for i in range(3)]
    turn = 0
    while time.monotonic() < until:
        game = "kittens" if (index + turn) % 2 else "burrito"
        present = people[: rng.randint(1, 3)]
        seats = rng.randint(max(2, len(present)), 5)
        try:
            await one_game(present, game, seats, rng, tally)
        except Exception as exc:
            tally.errors.append(f"table {index}: {exc!r}")
            for person in people:
                await person.stop()
            await asyncio.sleep(1)
        turn += 1


def records_check(server: LiveServer, tally: Tally) -> tuple[int, list[str]]:
    """Every game with an acknowledged move is recorded, over, with every acknowledged move."""
    lost = []
    for game_id, seq in sorted(tally.acked.items()):
        try:
            with urllib.request.urlopen(f"{server.url}/api/records/{game_id}", timeout=10) as reply:
                record = json.loads(reply.read())
        except OSError as exc:
            lost.append(f"{game_id}: {exc}")
            continue
        if record.get("state") != "over":
            lost.append(f"{game_id}: {record.get('state')}, not over")
        elif record.get("moves", 0) <= seq:
            lost.append(f"{game_id}: {record.get('moves')} moves kept, move {seq} was acknowledged")
    return len(tally.acked), lost


async def soak(server: LiveServer, minutes: float, tables: int, warmup_s: float) -> int:
    pid = server.process.pid
    print(f"  at the start: {load()}", flush=True)
    cpu_before = cpu_ticks()
    fds_before = open_fds(pid)
    kinds_before = fd_kinds(pid)
    started = time.monotonic()
    until = started + minutes * 60
    tally = Tally()
    lives = [asyncio.create_task(table_life(server.ws_url, i, until, tally)) for i in range(tables)]
    samples: list[tuple[float, int]] = []
    warm: int | None = None
    while not all(life.done() for life in lives):
        await asyncio.sleep(5)
        now = time.monotonic() - started
        memory = memory_kib(pid)
        samples.append((now, memory["VmRSS"]))
        if warm is None and now >= warmup_s:
            warm = memory["VmRSS"]
            print(f"  warm-up over at {now:.0f} s: RSS {warm / 1024:.1f} MiB ({parts(memory)})", flush=True)
        if len(samples) % 12 == 0:
            print(
                f"  {now / 60:.1f} min: RSS {samples[-1][1] / 1024:.1f} MiB, "
                f"{tally.games_started} games started, {tally.games_over} over, fds {open_fds(pid)}",
                flush=True,
            )
    await asyncio.gather(*lives, return_exceptions=True)
    end = memory_kib(pid)
    end_rss = end["VmRSS"]
    await asyncio.sleep(5)  # the server notices the last closes
    fds_after = open_fds(pid)
    for _i in range(10):
        if fds_after <= fds_before:
            break
        await asyncio.sleep(1)
        fds_after = open_fds(pid)
    kinds_after = fd_kinds(pid)
    games, lost = records_check(server, tally)
    warm = warm or samples[0][1]
    growth = 100 * (end_rss - warm) / warm
    print(
        f"soak: {minutes:g} min, {tables} tables at once: {tally.games_started} games started, "
        f"{tally.games_over} played to the end, {tally.games_stuck} stuck; {tally.joins} joins, "
        f"{tally.reconnects} reconnects with resume, {tally.drops} drops and returns, {tally.leaves} leaves"
    )
    print(f"  at the end: {load()}; {cpu_report(cpu_before, time.monotonic() - started, pid)}")
    peak = max(kib for _t, kib in samples)
    print(
        f"  server RSS after warm-up {warm / 1024:.1f} MiB, at the end {end_rss / 1024:.1f} MiB "
        f"(peak {peak / 1024:.1f} MiB; at the end {parts(end)})"
    )
    # The database pool keeps up to five connections open once a load needed them: their files
    # are counted apart; every socket and other file must be back to the baseline.
    client_fds = kinds_after["sockets"] + kinds_after["other"]
    back = client_fds <= kinds_before["sockets"] + kinds_before["other"]
    print(
        f"  server file descriptors: {fds_before} before the first client, {fds_after} after the last: "
        f"sockets {kinds_before['sockets']} -> {kinds_after['sockets']}, other files "
        f"{kinds_before['other']} -> {kinds_after['other']}; "
        f"database files (the connection pool) {kinds_before['database files']} -> {kinds_after['database files']}"
    )
    print(f"  games with acknowledged moves: {games}, lost: {len(lost)}")
    for line in lost[:10]:
        print("   ", line)
    if tally.errors:
        print(f"  errors seen by the clients: {len(tally.errors)}:")
        for line in tally.errors[:10]:
            print("   ", line)
    verdicts = [
        (
            growth < 10,
            f"memory: server RSS {growth:+.1f} % from the end of the warm-up to the end (target < 10 %)",
        ),
        (
            back,
            f"file descriptors: sockets and files {client_fds} after the last client, baseline "
            f"{kinds_before['sockets'] + kinds_before['other']}",
        ),
        (
            not lost and tally.games_stuck == 0,
            f"games: {len(lost)} lost of {games} with acknowledged moves, {tally.games_stuck} stuck",
        ),
    ]
    for ok, line in verdicts:
        print(f"{'PASS' if ok else 'FAIL'}  {line}")
    return 0 if all(ok for ok, _line in verdicts) else 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.soak", description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=30, help="how long to play (default 30)")
    parser.add_argument("--tables", type=int, default=8, help="tables playing at once (default 8)")
    parser.add_argument(
        "--warmup", type=float, default=None, help="seconds of warm-up (default a sixth of the run)"
    )
    parser.add_argument("--db", default="sqlite", help="sqlite (a file, the default) or a database URL")
    args = parser.parse_args(argv)
    env = {} if args.db == "sqlite" else {"CARDROOM_DB": args.db}
    warmup = args.warmup if args.warmup is not None else args.minutes * 60 / 6
    with run_server(env) as server:
        return asyncio.run(soak(server, args.minutes, args.tables, warmup))


if __name__ == "__main__":
    sys.exit(main())
