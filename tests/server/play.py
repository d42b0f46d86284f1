"""Whole games over the real server, played by network bots."""

from __future__ import annotations

import asyncio
import os
import signal
from typing import Any

import websockets

from cardroom.clients.botclient import NetBot, Timings
from cardroom.protocol import JSON
from cardroom.server.wire import messages
from cardroom.store import GameRecord, Store

FAST_KITTENS: JSON = {
    "nope_window_ms": 400,
    "turn_ms": 5000,
    "defuse_ms": 3000,
    "choose_ms": 2000,
    "bot_think_ms": 0,
}
"""Quick windows and bots that do not stop to think: a whole game in seconds."""
FAST_BURRITO: JSON = {"bruises": 2, "countdown_ms": 600, "between_rounds_ms": 500, "fight_timeout_ms": 4000}
"""Two bruises lose, and the pauses between rounds are short."""


async def create_and_start(
    bot: NetBot,
    game: str,
    seats: int,
    bots: int,
    options: JSON,
    level: str | None = None,
    private: bool = False,
) -> JSON:
    """`bot` creates a table with `bots` bots, starts it, and returns the started table message."""
    await bot.connect()
    while not any(m.get("type") == "welcome" for m in await _recv(bot)):
        pass
    await bot.send(
        {
            "type": "create_table",
            "game": game,
            "seats": seats,
            "bots": bots,
            "options": options,
            "bot_level": level,
            "private": private,
        }
    )
    while True:
        for message in await _recv(bot):
            if message.get("type") == "table":
                bot.table = message["table"]
                return message
            assert message.get("type") != "error", message


async def _recv(bot: NetBot) -> list[Any]:
    """The messages of the bot's next frame (one, or several coalesced), each handled by the bot."""
    raw = await asyncio.wait_for(bot.ws.recv(), 10)
    received = messages(raw)
    for message in received:
        await bot.handle(message, raw)
    return received


async def play_to_the_end(bots: list[NetBot], limit_s: float) -> None:
    """Run every bot's reader and actor until each has seen the game end."""
    tasks = [asyncio.create_task(b.reader()) for b in bots] + [asyncio.create_task(b.actor()) for b in bots]
    try:
        async with asyncio.timeout(limit_s):
            while not all(b.over for b in bots):
                _raise_if_failed(tasks)
                await asyncio.sleep(0.05)
    except TimeoutError:
        behind = [
            f"{b.name} ({b.lag()}{_stopped(tasks[i], tasks[len(bots) + i])})"
            for i, b in enumerate(bots)
            if not b.over
        ]
        raise TimeoutError(f"after {limit_s} s, these never saw the game end: {'; '.join(behind)}") from None
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


def _stopped(reader: asyncio.Task[None], actor: asyncio.Task[None]) -> str:
    return "".join(
        f"; its {name} had stopped" for name, task in (("reader", reader), ("actor", actor)) if task.done()
    )


def _raise_if_failed(tasks: list[asyncio.Task[None]]) -> None:
    """A player's reader or actor that stopped on an error fails the game at once, with that
    error (else the player would just stop, and the test wait out its whole limit)."""
    for task in tasks:
        error = task.exception() if task.done() and not task.cancelled() else None
        if error is not None and not isinstance(error, websockets.ConnectionClosed):
            raise error  # (a closed connection is the player gone: the reader marks them over)


class Witness(NetBot):
    """A network player that remembers each acknowledged action (game, place in the log, action)
    and every frame it received."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.sent: dict[int, dict[str, Any]] = {}
        self.acked: list[tuple[str, int, dict[str, Any]]] = []
        self.frames: list[str] = []
        self.on_message = self._note

    async def send(self, message: dict[str, Any]) -> None:
        if message.get("type") == "act":
            self.sent[message["ref"]] = message["action"]
        await super().send(message)

    def _note(self, message: dict[str, Any], raw: str) -> None:
        if not self.frames or self.frames[-1] is not raw:
            self.frames.append(raw)
        if message.get("type") == "ack" and message.get("ref") in self.sent:
            self.acked.append((message["game"], message["seq"], self.sent[message["ref"]]))


async def play_until(players: list[Witness], acks: int, limit_s: float) -> None:
    """Run the players until each has `acks` acknowledged actions or its game is over."""
    tasks = [asyncio.create_task(p.reader()) for p in players] + [
        asyncio.create_task(p.actor()) for p in players
    ]
    try:
        async with asyncio.timeout(limit_s):
            while any(len(p.acked) < acks and not p.over for p in players):
                _raise_if_failed(tasks)
                await asyncio.sleep(0.02)
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


async def play_then_kill(me: Witness, options: JSON, acks: int, pid: int) -> None:
    """`me` starts a kittens table of three with two bots and plays until `acks` of its actions
    are acknowledged; then the server process `pid` is killed (kill -9) in mid-game."""
    await create_and_start(me, "kittens", seats=3, bots=2, options=options)
    await me.send({"type": "start", "table": me.table})
    await play_until([me], acks=acks, limit_s=60)
    os.kill(pid, signal.SIGKILL)


async def stored_game(db: str, game_id: str) -> GameRecord:
    """A game as the database at `db` holds it (the server may still be running on it)."""
    store = await Store.open(db)
    try:
        return await store.records.get(game_id)
    finally:
        await store.close()


async def finished_game(db: str, game_id: str, within: float = 20) -> GameRecord:
    """The game as stored once its end is written (players hear the end before the record of it
    is committed), or as it stands after `within` seconds."""
    deadline = asyncio.get_running_loop().time() + within
    while True:
        stored = await stored_game(db, game_id)
        if stored.state == "over" or asyncio.get_running_loop().time() > deadline:
            return stored
        await asyncio.sleep(0.2)


__all__ = [
    "NetBot",
    "Timings",
    "Witness",
    "create_and_start",
    "finished_game",
    "play_then_kill",
    "play_to_the_end",
    "play_until",
    "stored_game",
]
