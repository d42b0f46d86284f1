"""Fair fights: how often a person reacting at a person's speed comes out of a burrito fight unbruised.

A real server (started here) seats bots at each table as it always does; one seat is played over
the websocket protocol by a scripted person (`Person`). The person hears what its seat hears and
reacts to each cue after a reaction time drawn, seeded, from a human distribution: log-normal,
median 650 ms, 90th percentile 1,000 ms, never under 350 ms (`human_reaction`), plus 160 ms of a
phone's network for the cue's way in and 160 ms for the action's way out (`LAG_MS`).

- the *screen* model sees each cue as soon as it arrives (standard timing);
- the *speech* model starts reacting once the cue has been spoken at 200 words a minute
  (`bench.speech.Ear`, the page's pace), on the relaxed preset.

What it does in a fight is what a person told the fight's events does: in a fight of its own it
grabs a free burrito, throws the one it holds at a fighter picked at random, dodges a burrito
thrown at it, and, when its dodge is still cooling down, catches it once the catch window has
opened (the `cue` the server sends then); in a duel it throws after "Burrito!". Its card play
between fights is a normal bot's, since only the fights are measured. A fight counts when the
person fought in it and it gives a bruise (tie-breaks give none); the figure is the share of those
fights it ended without the bruise, with a 95 % Wilson interval, for each level and player count,
both seat orders (the person first or last at the table).

    python -m bench.fairness [--fights 200] [--levels easy,normal,hard] [--players 2,4]
                             [--models screen,speech] [--jobs 60] [--seed 1]

Issue 21's targets: screen vs easy >= 50 %, vs normal >= 35 %, vs hard >= 20 %; speech vs easy
>= 40 %. `python -m bench.fairness --virtual` plays the same person in virtual time (no server,
no narration: screen model only), for quick tuning.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import json
import math
import os
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from bench.load import LOAD_LIMITS, _cpu_of, machine_cpu_seconds
from bench.speech import Ear
from cardroom.bots.burrito import BurritoBot
from cardroom.bots.burrito import make_bot as burrito_bot
from cardroom.clients.botclient import NetBot
from cardroom.drive.virtual import VirtualDriver
from cardroom.games.burrito import GAME
from cardroom.games.burrito.actions import Action, Catch, Dodge, Grab, Throw
from cardroom.narrate.speech import Priority
from cardroom.protocol import JSON, Rejected
from cardroom.protocol.rng import KeyedRandom
from cardroom.protocol.table import ViewFn
from cardroom.server.process import run_server
from cardroom.server.wire import messages

MEDIAN_MS = 650
P90_MS = 1000
FLOOR_MS = 350
LAG_MS = 160
"""A phone's network, each way: the cue reaches the person this late, their action the server too."""
SIGMA = math.log(P90_MS / MEDIAN_MS) / 1.2815515655446004
"""The log-normal's spread that puts its 90th percentile at `P90_MS` (z of 0.9)."""
TARGETS = {
    ("screen", "easy"): 0.50,
    ("screen", "normal"): 0.35,
    ("screen", "hard"): 0.20,
    ("speech", "easy"): 0.40,
}
MODELS = ("screen", "speech")
ORDERS = ("first", "last")


def human_reaction(rng: Any) -> int:
    """One person's reaction to a cue, in ms: log-normal (median 650, 90th percentile 1,000),
    drawn again below 350 (nobody answers a choice that fast)."""
    while True:
        ms = MEDIAN_MS * math.exp(rng.gauss(0.0, SIGMA))
        if ms >= FLOOR_MS:
            return int(ms)


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of `wins` out of `n`."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


class Person:
    """A person at one seat, as the Bot protocol asks (`due`, `notice`, `act`, `refused`).

    `heard_at` is when the batch being noticed reached the person's mind (set by the client
    before `notice`: its arrival plus the network, plus its speaking time for the speech model);
    each action leaves a reaction time after its cue and reaches the server `LAG_MS` later.
    """

    hears_secrets = True
    listens = True

    def __init__(self, seat: int, seed: int, cards: BurritoBot, told_windows: bool = True) -> None:
        self.seat = seat
        self.told_windows = told_windows
        """The server tells it when a catch window opens (its `cue`); False: it sees that
        moment itself (in virtual time, where no cue is sent), `LAG_MS` after it."""
        self.rng = KeyedRandom(seed)
        self.cards = cards
        """A normal bot plays the cards between fights: only fights are measured."""
        self.heard_at: int | None = None
        self.fighting = False
        self.in_fight = False
        """A fight is on in which the person fought (from its first `fight_start` to `fight_over`)."""
        self.counted = False
        self.holding = False
        self.duel = False
        self.arm_at: int | None = None
        self.def_at: int | None = None
        self.def_do: Action = Dodge()
        self.incoming: dict[int, tuple[int, int]] = {}  # id: (lands_at, catch_from)
        self.dodge_until = 0
        self.last = ""
        self.outcomes: list[bool] = []
        """One per counted fight: True when the person took its bruise."""

    # ---- the Bot protocol ------------------------------------------------------------------

    def due(self) -> int | None:
        if not self.fighting:
            return self.cards.due()
        times = [t for t in (self.arm_at, self.def_at) if t is not None]
        return min(times) if times else None

    def notice(self, events: list[JSON], view: ViewFn, now: int) -> None:
        self.cards.notice(events, view, now)
        seen = self.heard_at if self.heard_at is not None else now + LAG_MS
        self.heard_at = None
        seat = self.seat
        for e in events:
            kind = e["event"]
            if kind == "fight_start":
                if not self.in_fight:
                    self.in_fight = True
                    self.counted = seat in e["fighters"] and e.get("tiebreak") is None
                if seat in e["fighters"]:
                    if not e.get("merged"):
                        self.incoming.clear()
                        self.def_at = None
                        self.duel = e.get("go_at") is not None
                        self.holding = self.duel
                    self.fighting = True
                    self.arm_at = None if self.duel else self._react(seen)
                else:
                    self._leave()
            elif not self.fighting:
                if kind in ("fight_over", "game_over"):
                    self._over(e)
                continue
            elif kind == "duel_beat" and e["beat"] == "burrito" and self.holding:
                self.arm_at = self._react(seen)
            elif kind == "grab" and e["player"] == seat:
                self.holding = True
                self.arm_at = self._react(seen)
            elif kind == "throw":
                if e["thrower"] == seat:
                    self.holding = False
                    f = view()["fight"]
                    self.arm_at = self._react(seen) if f is not None and f["free"] > 0 else None
                if e["target"] == seat:
                    self.incoming[e["id"]] = (e["lands_at"], e["catch_from"])
                    self._defend(seen)
            elif kind == "miss":
                self.incoming.pop(e["id"], None)
                if not self.holding and self.arm_at is None:
                    self.arm_at = self._react(seen)  # a burrito is free again
            elif kind in ("catch", "fumble", "hit"):
                self.incoming.pop(e["id"], None)
                if kind == "catch" and e["player"] == seat:
                    self.holding = True
                    self.arm_at = self._react(seen)
            elif kind == "dodge" and e["player"] == seat:
                self.dodge_until = e["until"]
                for fid in e["ids"]:
                    self.incoming.pop(fid, None)
                self.def_at = None
            elif kind == "eliminated" and e["player"] == seat:
                self._leave()
            elif kind in ("fight_over", "fight_tie", "game_over"):
                self._leave()
                if kind != "fight_tie":
                    self._over(e)

    def cue(self, seen: int) -> None:
        """The catch window of a burrito at the person opened; they notice it at `seen`."""
        if self.fighting and self.incoming and self.def_do == Catch() and self.def_at is None:
            self.def_at = self._react(seen)

    def act(self, view: ViewFn, now: int) -> Action | None:
        if not self.fighting:
            self.last = "cards"
            return self.cards.act(view, now)
        if self.def_at is not None and (self.arm_at is None or self.def_at <= self.arm_at):
            self.def_at = None
            self.last = "defence"
            return self.def_do if self.incoming else None
        self.arm_at = None
        self.last = "arm"
        f = view()["fight"]
        if f is None or self.seat not in f["fighters"]:
            return None
        if f["holding"][self.seat] > 0:
            others = [q for q in f["fighters"] if q != self.seat]
            return Throw(int(self.rng.choice(others)))
        return Grab() if f["free"] > 0 else None

    def refused(self, rejection: Rejected, view: ViewFn, now: int) -> None:
        if self.last == "cards":
            self.cards.refused(rejection, view, now)
        elif self.fighting and self.last == "arm" and rejection.code in ("no_free_burrito", "behind_back"):
            self.arm_at = self._react(now)
        elif self.fighting and rejection.code == "dodge_cooldown" and self.incoming:
            self.def_do = Catch()  # caught out: wait for the catch window
            if not self.told_windows:
                self.cue(max(now, min(self.incoming.values())[1] + LAG_MS))

    # ---- helpers ---------------------------------------------------------------------------

    def _react(self, seen: int) -> int:
        """When an action answering a cue noticed at `seen` reaches the server."""
        return seen + human_reaction(self.rng) + LAG_MS

    def _defend(self, seen: int) -> None:
        """A burrito at the person: dodge, or (dodge still cooling down) catch in its window."""
        at = self._react(seen)
        if at >= self.dodge_until:
            self.def_do, self.def_at = Dodge(), at
        else:
            self.def_do, self.def_at = Catch(), None
            if not self.told_windows:  # else `cue` plans it when the window opens
                self.cue(min(self.incoming.values())[1] + LAG_MS)

    def _leave(self) -> None:
        self.fighting = False
        self.arm_at = self.def_at = None
        self.incoming.clear()

    def _over(self, e: JSON) -> None:
        if e["event"] == "fight_over" and self.in_fight:
            if self.counted and e.get("bruise"):
                self.outcomes.append(e["loser"] == self.seat)
            self.in_fight = self.counted = False
        elif e["event"] == "game_over":
            self.in_fight = self.counted = False


# ---- over the network ------------------------------------------------------------------------


class PersonClient(NetBot):
    """The person's connection: it wraps the seat's bot in a `Person` and tells it when each
    batch reached the person's mind (network in; for the speech model, the lines spoken)."""

    def __init__(self, *args: Any, model: str = "screen", person_seed: int = 0, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.model = model
        self.person_seed = person_seed
        self.ear = Ear()

    @property
    def person(self) -> Person | None:
        return self.bot if isinstance(self.bot, Person) else None

    def _heard(self, at: int, lines: list[tuple[str, int]]) -> int:
        arrived = at + LAG_MS
        return self.ear.hear(arrived, lines) if self.model == "speech" else arrived

    async def handle(self, message: dict[str, Any], raw: str) -> None:
        person = self.person
        kind = message.get("type")
        if kind == "events" and message.get("table") == self.table and person is not None:
            lines = list(zip(message.get("texts", []), message.get("priority", []), strict=True))
            person.heard_at = self._heard(message["at"], lines)
        elif kind == "cue" and person is not None:
            lines = [(message.get("text", ""), Priority.ANSWER)]
            person.cue(self._heard(message["at"], lines))
            self.wake.set()
        await super().handle(message, raw)
        if isinstance(self.bot, BurritoBot) and self.seat is not None:
            self.bot = Person(self.seat, self.person_seed, self.bot)


@dataclass
class Config:
    model: str
    level: str
    players: int
    order: str
    extra: JSON = field(default_factory=dict)
    """Table options given on the command line (`--options`), on top of the model's preset."""

    @property
    def options(self) -> JSON:
        return {**self.extra, "timing": "relaxed"} if self.model == "speech" else dict(self.extra)


@dataclass
class Tally:
    outcomes: dict[tuple[str, str, int, str], list[bool]] = field(default_factory=dict)
    playing: dict[int, tuple[Config, list[bool]]] = field(default_factory=dict)
    """The fights counted so far at tables still playing, by their seed: once enough are in
    across the tables of a config, every one of them stops."""

    @staticmethod
    def key(c: Config) -> tuple[str, str, int, str]:
        return (c.model, c.level, c.players, c.order)

    def add(self, c: Config, bruised: list[bool]) -> None:
        self.outcomes.setdefault(self.key(c), []).extend(bruised)

    def count(self, c: Config) -> int:
        """Fights counted for `c`, at the tables done and at those still playing."""
        done = len(self.outcomes.get(self.key(c), []))
        return done + sum(len(out) for other, out in self.playing.values() if self.key(other) == self.key(c))


SERVER_ENV = {**LOAD_LIMITS, "CARDROOM_SOCKETS_PER_ADDRESS": "100000", "CARDROOM_HELLO_WAIT_S": "60"}
"""Every client comes from 127.0.0.1: the per-address limits of a public server are lifted."""


async def _recv_until(client: NetBot, kind: str, timeout: float = 60) -> JSON:
    while True:
        for message in messages(await asyncio.wait_for(client.ws.recv(), timeout)):
            await client.handle(message, "")
            if message.get("type") == kind:
                return message
            if message.get("type") == "error":
                raise RuntimeError(f"the server refused: {message}")


async def _hello(client: NetBot) -> None:
    await client.connect()
    await _recv_until(client, "welcome")


async def play_table(url: str, c: Config, seed: int, tally: Tally, need: int) -> None:
    """One game at a fresh table, the person first or last; its counted fights go to `tally`
    (the game is left once `need` fights of its kind are in)."""
    name = f"P{seed}"
    client = PersonClient(url, name, "burrito", c.level, seed, model=c.model, person_seed=seed)
    await _hello(client)
    host: NetBot | None = None
    ask = {
        "type": "create_table",
        "game": "burrito",
        "seats": c.players,
        "bot_level": c.level,
        "options": c.options,
    }
    if c.order == "first":
        await client.send({**ask, "bots": c.players - 1})
        client.table = (await _recv_until(client, "table"))["id"]
    else:
        host = NetBot(url, f"H{seed}", "burrito", c.level, seed)
        await _hello(host)
        await host.send({**ask, "bots": 0})
        host.table = (await _recv_until(host, "table"))["id"]
        client.table = host.table
        await client.send({"type": "join", "table": client.table, "seat": c.players - 1})
        await _recv_until(client, "table")
        await host.send({"type": "leave", "table": host.table})
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(host.ws.recv(), 5)
        await host.close()
    await client.send({"type": "start", "table": client.table})
    tasks = [asyncio.create_task(client.reader()), asyncio.create_task(client.actor())]
    try:
        started = time.monotonic()
        while not client.over and time.monotonic() - started < 1200:
            await asyncio.sleep(0.2)
            person = client.person
            if person is not None:
                tally.playing[seed] = (c, person.outcomes)
                if tally.count(c) >= need:
                    break
    finally:
        tally.playing.pop(seed, None)
        person = client.person
        if person is not None:
            tally.add(c, person.outcomes)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        with contextlib.suppress(Exception):
            await client.close()


async def play_all(
    url: str, configs: list[Config], fights: int, jobs: int, seed: int, per_table: int = 4
) -> Tally:
    """Tables for every config until each has `fights` counted fights, `jobs` tables at once,
    a table started for each `per_table` fights still missing (a game counts about four: fewer
    gets the fights sooner, from more tables at once)."""
    tally = Tally()
    seeds = itertools.count(seed * 100_000)
    failed = 0
    running: set[asyncio.Task[None]] = set()
    playing: dict[asyncio.Task[None], Config] = {}

    def wanted() -> Config | None:
        busy = {id(c): 0 for c in configs}
        for c in playing.values():
            busy[id(c)] += 1
        # Enough tables for what is still missing.
        short = [
            c
            for c in configs
            if tally.count(c) < fights and busy[id(c)] * per_table < fights - tally.count(c)
        ]
        return min(short, key=lambda c: busy[id(c)], default=None)

    while True:
        while len(running) < jobs and (c := wanted()) is not None:
            task = asyncio.create_task(play_table(url, c, next(seeds), tally, fights))
            running.add(task)
            playing[task] = c
            await asyncio.sleep(0.05)  # a few connections at a time, as people arrive
        if not running:
            if failed:
                print(f"{failed} tables could not be played (the server too slow to answer)")
            return tally
        done, running = await asyncio.wait(running, return_when=asyncio.FIRST_COMPLETED)
        for task in done:
            playing.pop(task)
            if task.exception() is not None:
                failed += 1


# ---- in virtual time -------------------------------------------------------------------------


def play_virtual(c: Config, fights: int, seed: int) -> list[bool]:
    """The screen model at tables played in virtual time (no network, no narration): quick figures."""
    out: list[bool] = []
    for game_seed in itertools.count(seed * 100_000):
        if len(out) >= fights:
            return out[:fights]
        table = GAME.new_table(c.players, c.options, game_seed)
        me = 0 if c.order == "first" else c.players - 1
        bots: dict[int, Any] = {s: burrito_bot(s, c.level, game_seed * 1_000 + s) for s in range(c.players)}
        person = Person(me, game_seed, burrito_bot(me, "normal", game_seed * 1_000 + me), told_windows=False)
        bots[me] = person
        VirtualDriver(table, bots).run()
        out.extend(person.outcomes)
    return out


# ---- the figures -----------------------------------------------------------------------------


def configs_for(
    models: Sequence[str], levels: Sequence[str], players: Sequence[int], extra: JSON | None = None
) -> list[Config]:
    out: list[Config] = []
    for model in models:
        for level in levels if model == "screen" else [lvl for lvl in levels if (model, lvl) in TARGETS]:
            for n in players:
                out.extend(Config(model, level, n, order, dict(extra or {})) for order in ORDERS)
    return out


def report(tally: Tally, models: Sequence[str], levels: Sequence[str], players: Sequence[int]) -> list[str]:
    lines = []
    for model in models:
        for level in levels:
            rows = {k: v for k, v in tally.outcomes.items() if k[0] == model and k[1] == level}
            if not rows:
                continue
            allb = [b for v in rows.values() for b in v]
            safe = allb.count(False)
            low, high = wilson(safe, len(allb))
            target = TARGETS.get((model, level))
            verdict = (
                ""
                if target is None
                else (
                    f", target >= {target:.0%}: "
                    + ("met" if low >= target or safe / len(allb) >= target else "MISSED")
                )
            )
            lines.append(
                f"{model} vs {level}: unbruised in {safe} of {len(allb)} fights, {safe / len(allb):.1%}"
                f" [{low:.1%}, {high:.1%}]{verdict}"
            )
            for n in players:
                parts = []
                for order in ORDERS:
                    got = rows.get((model, level, n, order), [])
                    if got:
                        parts.append(f"{order} {got.count(False)}/{len(got)}")
                if parts:
                    lines.append(f"  {n} players: " + ", ".join(parts))
    return lines


def kittens_pace(games: int = 40, seed: int = 1) -> list[str]:
    """Exploding Kittens' pace between bots (bench/kittens_pace.py): the share of game time in
    Nope windows and the median game, before and after issue 21, from the same run."""
    from bench.kittens_pace import report

    return ["Exploding Kittens, 4 bots:", *report(games, seed)]


Meter = tuple[float, float | None, float, float | None]
"""When, the server's CPU seconds, this process's, the whole machine's."""


def meter(pid: int) -> Meter:
    return time.monotonic(), _cpu_of([pid]), time.process_time(), machine_cpu_seconds()


def busy_line(before: Meter, after: Meter, load: float) -> str:
    """What else used the CPU while the fights were played (the figures depend on it: a late
    server delays the bots and the person alike, but not equally): load averages at the start
    and the end, and the cores the other processes of the machine took meanwhile."""
    (at0, server0, own0, all0), (at1, server1, own1, all1) = before, after
    elapsed = max(1e-9, at1 - at0)
    others = "unknown"
    if None not in (server0, server1, all0, all1):
        assert server0 is not None and server1 is not None and all0 is not None and all1 is not None
        spent = max(0.0, (all1 - all0) - (server1 - server0) - (own1 - own0))
        others = f"{spent / elapsed:.2f} cores"
    return (
        f"Machine: load average {load:.1f} at the start, {os.getloadavg()[0]:.1f} at the end;"
        f" other processes used {others}."
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.fairness", description=__doc__.splitlines()[0])
    parser.add_argument(
        "--fights", type=int, default=200, help="counted fights per level, player count and model"
    )
    parser.add_argument("--levels", default="easy,normal,hard")
    parser.add_argument("--players", default="2,4")
    parser.add_argument("--models", default="screen,speech")
    parser.add_argument("--jobs", type=int, default=60, help="tables played at once on the server")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--options", type=json.loads, default={}, help="table options as JSON (default: the defaults)"
    )
    parser.add_argument("--virtual", action="store_true", help="virtual time, no server (screen model only)")
    args = parser.parse_args(argv)
    levels = args.levels.split(",")
    players = [int(p) for p in args.players.split(",")]
    models = args.models.split(",")
    configs = configs_for(models, levels, players, args.options)
    # Split each (model, level, players) figure between the two seat orders.
    per_order = (args.fights + 1) // 2
    started = time.monotonic()
    if args.virtual:
        tally = Tally()
        for c in configs:
            if c.model == "screen":
                tally.add(c, play_virtual(c, per_order, args.seed))
    else:
        with run_server(extra_env=SERVER_ENV) as server:
            load, before = os.getloadavg()[0], meter(server.process.pid)
            tally = asyncio.run(play_all(server.ws_url, configs, per_order, args.jobs, args.seed))
            print(busy_line(before, meter(server.process.pid), load))
    for line in report(tally, models, levels, players):
        print(line)
    for line in kittens_pace():
        print(line)
    print(f"({time.monotonic() - started:.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
