"""A bot that plays over the network, as a person's client would: for tests and load runs.

It speaks the wire protocol only: hello, create or join a table, then it feeds the events and
view it receives to an ordinary bot and sends that bot's actions back. Server play time is
estimated from each batch's `at` plus the local time since it arrived.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urljoin

import websockets

from cardroom.bots import make_bot
from cardroom.games import find_game
from cardroom.protocol import JSON, Bot, Rejected
from cardroom.server.wire import PROTOCOL_VERSION, messages


@dataclass
class Timings:
    """What a load run measures, in ms: action to ack, action to each recipient's events."""

    ack: list[float] = field(default_factory=list)
    fanout: list[float] = field(default_factory=list)
    by_version: dict[str, dict[int, float]] = field(default_factory=dict)
    """When the action that made each table version was sent. (Per table a dict of numbers only:
    the garbage collector does not track it, so the load run's own pauses stay short.)"""
    early: dict[str, dict[int, list[float]]] = field(default_factory=dict)
    """When members received a version whose action's ack had not come yet: on a durable store
    the ack waits for the disk and the events do not, so most events come first. Counted when
    the ack says when that action was sent (counting only the events that came after it made
    the fan-out look slower than the ack)."""

    def received(self, table: str, v: int, at: float) -> None:
        """A member received version `v` of `table` at `at` (ms)."""
        sent = self.by_version.get(table, {}).get(v)
        if sent is not None:
            self.fanout.append(at - sent)
        else:
            self.early.setdefault(table, {}).setdefault(v, []).append(at)

    def acknowledged(self, table: str, v: int, sent: float) -> None:
        """The action sent at `sent` (ms) made version `v` of `table`: its events received so
        far are counted; versions no ack will name (a timer's) are let go."""
        self.by_version.setdefault(table, {}).setdefault(v, sent)
        waiting = self.early.get(table)
        if waiting:
            for at in waiting.pop(v, ()):
                self.fanout.append(at - sent)
            for old in [w for w in waiting if w < v]:
                del waiting[old]


BUSY_AGAIN_S = 0.5
"""How long a hello told `busy` waits before it is sent again."""

AWAKE = object()
"""`NetBot.sleeping_for` while the actor is not asleep."""


class NetBot:
    """One websocket connection playing one seat with a bot's brain."""

    def __init__(
        self,
        url: str,
        name: str,
        game: str,
        level: str,
        seed: int,
        timings: Timings | None = None,
        on_message: Callable[[JSON, str], None] | None = None,
        rate: float = 1.0,
        moves: bool = False,
    ) -> None:
        self.url = url
        self.moves = moves
        """Whether this client follows a `move` to its table's node (a cluster's)."""
        self.left: Any = None
        """The connection a move left, closed once the new one is welcome."""
        self.moved_to: str | None = None
        """The node this client was sent to and has not reached yet (`reader` goes there)."""
        self.rate = rate
        """The server's clock rate (`Lobby.rate`): play time passes `rate` times faster."""
        self.name = name
        self.game = find_game(game)
        self.level = level
        self.seed = seed
        self.timings = timings
        self.on_message = on_message
        self.ws: Any = None
        self.table: str | None = None
        self.seat: int | None = None
        self.view: JSON | None = None
        self.bot: Bot[Any] | None = None
        self.offset = 0.0
        self.over = False
        self.winner: int | None = None
        self.refs = 0
        self.pending: dict[int, float] = {}
        self.wake = asyncio.Event()
        self.sleeping_for: int | object | None = AWAKE
        """The bot's `due` the actor sleeps towards, AWAKE when it is not asleep: a message that
        leaves it as it was need not wake the actor (`_nudge`)."""
        self.last_v = 0
        self.rejections = 0
        self.token: str | None = None
        self.read = 0
        """Frames read, and when the last one came (monotonic s): what a test that waited in
        vain reports of a player who stopped hearing."""
        self.read_at = 0.0
        self.welcomed = False
        """Whether this connection's hello was answered with a welcome."""

    async def connect(self) -> None:
        self.ws = await websockets.connect(self.url, max_size=None, ping_interval=None, close_timeout=2)
        self.welcomed = False
        await self._hello()

    async def _hello(self) -> None:
        hello: JSON = {"type": "hello", "protocol": PROTOCOL_VERSION, "name": self.name}
        if self.token is not None:  # coming back: the seats of the earlier connection are ours
            hello["token"] = self.token
        if self.moves:
            hello["moves"] = True
        await self.send(hello)

    async def send(self, message: JSON) -> None:
        await self.ws.send(json.dumps(message))

    def play_now(self) -> int:
        return int(self._clock_ms() - self.offset)

    def _clock_ms(self) -> float:
        """This machine's clock at the server's rate, in ms (play time less `offset`)."""
        return time.monotonic() * 1000 * self.rate

    def _view(self) -> JSON:
        assert self.view is not None
        return self.view

    async def handle(self, message: JSON, raw: str) -> None:
        """One server message; `raw` is the whole frame it came in (it may hold others)."""
        if self.on_message is not None:
            self.on_message(message, raw)
        kind = message.get("type")
        if kind == "welcome":
            self.welcomed = True
            self.token = message["token"]
            if self.left is not None:  # closed sooner, the node left could drop the seat first
                left, self.left = self.left, None
                with contextlib.suppress(websockets.ConnectionClosed):
                    await left.close()
        elif kind == "move" and self.moves:
            # Not to where it is: an address that leads back here (a proxy's mistake) is not
            # followed again and again; the relay goes on carrying the game meanwhile. A path is
            # of this server's address (a proxy routes it to the node).
            target = urljoin(self.url, str(message.get("url")))
            if target != self.url:
                self.moved_to = target
        elif kind == "ping":
            await self.send({"type": "pong", "id": message["id"]})
        elif kind == "error" and message.get("code") == "busy" and not self.welcomed:
            # A crowd of hellos waits its turn at the database; one past its wait is told to
            # try again (docs/protocol.md), and the server closes a connection that never does
            # (bench.load's thousand bots lost one so, and the run).
            await asyncio.sleep(BUSY_AGAIN_S)
            await self._hello()
        elif kind == "table" and message.get("table") == self.table:
            self.seat = message.get("you")
            self.last_v = message.get("v", self.last_v)
            if message.get("view") is not None:
                self.view = message["view"]
            if message.get("state") == "playing" and self.seat is not None:
                if self.bot is None:
                    self.bot = make_bot(self.game.name, self.seat, self.level, self.seed, live=True)
                if self.view is not None and isinstance(self.view.get("now"), int):
                    # Sitting down mid-game, or resynced (the table moved to another node, whose
                    # events since the last one seen here were never sent): the bot takes the
                    # table as it is.
                    self.offset = self._clock_ms() - self.view["now"]
                    self.bot.notice([], self._view, self.view["now"])
            if message.get("state") == "over":
                self.over = True
                self.wake.set()
            self._nudge()
        elif kind == "events" and message.get("table") == self.table:
            received = time.monotonic() * 1000
            self.offset = self._clock_ms() - message["at"]
            self.view = message["view"]
            self.last_v = message["v"]
            if self.timings is not None:
                self.timings.received(message["table"], message["v"], received)
            if self.bot is None and self.seat is not None:
                self.bot = make_bot(self.game.name, self.seat, self.level, self.seed, live=True)
            if self.bot is not None:
                self.bot.notice(message["events"], self._view, message["at"])
            for event in message["events"]:
                if event.get("event") == "game_over":
                    self.over = True
                    self.winner = event.get("winner")
                    self.wake.set()
            self._nudge()
        elif kind in ("ack", "rejected"):
            ref = message.get("ref")
            sent_at = self.pending.pop(ref, None) if isinstance(ref, int) else None
            now = time.monotonic() * 1000
            if kind == "ack" and sent_at is not None and self.timings is not None:
                self.timings.ack.append(now - sent_at)
                self.timings.acknowledged(message["table"], message["v"], sent_at)
            if kind == "rejected":
                self.rejections += 1
                if self.bot is not None and self.view is not None:
                    self.bot.refused(
                        Rejected(message["code"], message["message"]), self._view, self.play_now()
                    )
            self.wake.set()

    def _nudge(self) -> None:
        """Wake the actor if the bot is due at another time than the one it sleeps towards: four
        messages in five change nothing for it, and in a load run each wake was the generator's
        time, its lateness counted in every latency it measures (issue 26, docs/deploy.md)."""
        due = self.bot.due() if self.bot is not None and self.view is not None else None
        if due != self.sleeping_for:
            self.wake.set()

    async def reader(self) -> None:
        while True:
            if self.moved_to is not None:  # told before the reader began (while joining)
                await self._move()
            with contextlib.suppress(websockets.ConnectionClosed):
                async for raw in self.ws:
                    self.read += 1
                    self.read_at = time.monotonic()
                    for message in messages(raw):
                        await self.handle(message, raw)
                    if self.moved_to is not None:
                        break
            if self.moved_to is None:
                break
        self.over = True
        self.wake.set()

    async def _move(self) -> None:
        """To the node the server sent this client to, with its token: the seats come along;
        the connection left is closed once the new one is welcome."""
        assert self.moved_to is not None
        old, here, self.url, self.moved_to = self.ws, self.url, self.moved_to, None
        try:
            await self.connect()
        except (OSError, websockets.InvalidHandshake, websockets.InvalidURI):
            self.ws, self.url = old, here  # not reached: the game goes on through the relay
            return
        self.left = old

    def lag(self) -> str:
        """What this player last heard, for a test's report of one that never saw the end."""
        ago = time.monotonic() - self.read_at if self.read else float("nan")
        return (
            f"last saw v{self.last_v}; {self.read} frames read, the last {ago:.1f} s ago; "
            f"{self.refs} actions sent, {len(self.pending)} unanswered, {self.rejections} refused"
        )

    async def actor(self) -> None:
        """Act when the bot is due, like a person reacting to what they saw."""
        while not self.over:
            due = self.bot.due() if self.bot is not None and self.view is not None else None
            wait = None if due is None else max(0.0, (due - self.play_now()) / 1000 / self.rate)
            self.wake.clear()
            if wait is None or wait > 0:
                # asyncio.timeout, not wait_for: Python 3.11's wait_for can swallow a cancellation
                # that races with the wake-up, and this loop would then never end.
                self.sleeping_for = due
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(wait):
                        await self.wake.wait()
                self.sleeping_for = AWAKE
                continue
            assert self.bot is not None
            action = self.bot.act(self._view, max(due or 0, self.play_now()))
            if action is None or self.table is None:
                continue
            self.refs += 1
            self.pending[self.refs] = time.monotonic() * 1000
            await self.send(
                {
                    "type": "act",
                    "table": self.table,
                    "action": self.game.action_json(action),
                    "ref": self.refs,
                }
            )
            # Until the answer comes, the view is stale: wait for it rather than acting twice.
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(5):
                    await self._answered(self.refs)

    async def _answered(self, ref: int) -> None:
        while ref in self.pending and not self.over:
            self.wake.clear()
            await self.wake.wait()

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
