"""The speech budget: words a minute one seat's listener hears, per verbosity, from a real server.

A four-player table (the listener's seat, played by a normal network bot, and three normal bots):
Throw Throw Burrito's first minute of play, and a whole game of Exploding Kittens. Every batch the
server sends to that seat is kept; what each verbosity says of it is counted in words
(`cardroom.narrate.speech.heard`, the rule every client follows). Issue 14's targets, default
verbosity: at most 150 words a minute (burrito, first minute), 120 (kittens, whole game).

One table's minute depends on how many fights the listener happens to be in (two to four), so
several tables play at once on the same server (`--tables`), each its own round with its own
secret seed, and the figure is their words over their minutes; each table's own figure is
printed beside it.

    python -m bench.speech [--game burrito|kittens|both] [--seconds 60] [--tables 4] [--rate 1]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import time
from dataclasses import dataclass, field
from typing import Any

from cardroom.clients.botclient import NetBot
from cardroom.narrate.speech import (
    DEFAULT_VERBOSITY,
    VERBOSITIES,
    Priority,
    heard,
    said_at_once,
    said_in_ms,
)
from cardroom.server.process import run_server
from cardroom.server.wire import messages

TARGETS = {"burrito": 150.0, "kittens": 120.0}
"""Words a minute the default verbosity may say at most (issue 14)."""

PERSON_MS = 3000
"""The listener plays cards at a screen-reader user's pace: at most one card action every 3 s
(a normal bot would act every 0.4 s and hear its own moves far more often than a person does)."""


class Ear:
    """When the listener has heard each batch: its lines at the default verbosity are said one
    after another at `WORD_MS` a word; an assertive line (needs an answer) is said at once, ahead
    of the polite lines waiting, which it pushes back (the page's `announce`)."""

    def __init__(self) -> None:
        self.free_at = 0
        """When the screen reader has said every line given so far (play time, ms)."""

    def hear(self, at: int, lines: list[tuple[str, int]]) -> int:
        """The lines of a batch sent at `at`, with their priorities: the moment the listener has
        heard them all (`at` when nothing is said)."""
        heard = at
        for text, priority in lines:
            if not said_at_once(priority, DEFAULT_VERBOSITY):
                continue
            ms = said_in_ms(text)
            if priority == Priority.ANSWER:
                heard = max(heard, at + ms)
                self.free_at = max(self.free_at, at) + ms
            else:
                self.free_at = max(self.free_at, at) + ms
                heard = max(heard, self.free_at)
        return heard


class Paced:
    """A normal bot playing for a person who listens to a screen reader: it notices a batch only
    once the lines that tell it have been said (`Ear`), then reacts with the bot's own person-like
    reaction times (`cardroom.bots.burrito_levels`: a simple reaction of about 280 ms plus 80 ms a
    bit of choice); so a grab comes after "Duel: you against Marco." is said, a dodge after
    "Incoming!". Out of fights its card play also waits `PERSON_MS` after its last action."""

    def __init__(self, inner: Any, seat: NetBot) -> None:
        self.inner = inner
        self.seat = seat
        self.last = -PERSON_MS
        self.heard_at = 0
        """When the batch being noticed has been said (set by the `Listener` before `notice`)."""

    def _in_fight(self) -> bool:
        view = self.seat.view or {}
        return bool(view.get("fight"))

    def due(self) -> int | None:
        due: int | None = self.inner.due()
        if due is None or self._in_fight():
            return due
        return max(due, self.last + PERSON_MS)

    def act(self, view: Any, now: int) -> Any:
        action = self.inner.act(view, now)
        if action is not None:
            self.last = now
        return action

    def notice(self, events: Any, view: Any, now: int) -> None:
        self.inner.notice(events, view, max(now, self.heard_at))

    def refused(self, rejected: Any, view: Any, now: int) -> None:
        self.inner.refused(rejected, view, now)


class Listener(NetBot):
    """The listener's seat: a normal network bot at a person's pace, who hears the lines (`Paced`)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.ear = Ear()

    async def handle(self, message: dict[str, Any], raw: str) -> None:
        if message.get("type") == "events" and message.get("table") == self.table:
            lines = list(zip(message.get("texts", []), message.get("priority", []), strict=True))
            heard = self.ear.hear(message["at"], lines)
            if isinstance(self.bot, Paced):
                self.bot.heard_at = heard
        elif message.get("type") == "cue" and isinstance(self.bot, Paced):
            self.ear.hear(message["at"], [(message["text"], Priority.ANSWER)])
        await super().handle(message, raw)
        if self.bot is not None and not isinstance(self.bot, Paced):
            self.bot = Paced(self.bot, self)  # type: ignore[assignment]


@dataclass
class Transcript:
    """What the server sent one seat: its `events` batches and cues, in order, with play time."""

    batches: list[dict[str, Any]] = field(default_factory=list)
    first_at: int | None = None
    last_at: int | None = None
    window_ms: int | None = None
    """Only the first `window_ms` of play from the first batch (burrito's first minute), which
    is then the span measured, even when its last line came earlier; None: the whole game."""

    def take(self, message: dict[str, Any]) -> None:
        if message.get("type") not in ("events", "cue"):
            return
        at = message["at"]
        if self.first_at is None:
            self.first_at = at
        if self.window_ms is not None and at - self.first_at >= self.window_ms:
            return
        self.last_at = at
        self.batches.append(message)

    def minutes(self) -> float:
        if self.first_at is None or self.last_at is None:
            return 0.0
        if self.window_ms is not None:
            return self.window_ms / 60_000
        return max(self.last_at - self.first_at, 1) / 60_000

    def words(self, verbosity: str) -> int:
        return sum(len(line.split()) for line in heard(self.batches, verbosity))

    def rates(self) -> dict[str, float]:
        minutes = self.minutes()
        return {v: self.words(v) / minutes if minutes else 0.0 for v in VERBOSITIES}


async def listen(
    url: str, game: str, seconds: float | None, seed: int = 7, name: str = "Listener", rate: float = 1.0
) -> Transcript:
    """Seat 0 (a normal network bot at a person's pace) creates a four-seat table with three normal bots and plays;
    its transcript covers the first `seconds` of play, or the whole game when None. `rate`: the
    server's clock rate (`Lobby.rate`: CARDROOM_CLOCK_RATE), at which the listener plays too."""
    transcript = Transcript(window_ms=None if seconds is None else int(seconds * 1000))

    def keep(message: dict[str, Any], _raw: str) -> None:
        transcript.take(message)

    bot = Listener(url, name, game, "normal", seed, on_message=keep, rate=rate)
    await bot.connect()
    while not any(m.get("type") == "welcome" for m in messages(await bot.ws.recv())):
        pass
    await bot.send({"type": "create_table", "game": game, "seats": 4, "bots": 3, "bot_level": "normal"})
    while bot.table is None:
        for message in messages(await asyncio.wait_for(bot.ws.recv(), 10)):
            await bot.handle(message, "")
            if message.get("type") == "table":
                bot.table = message["id"]
    await bot.send({"type": "start", "table": bot.table})
    tasks = [asyncio.create_task(bot.reader()), asyncio.create_task(bot.actor())]
    try:
        limit = (seconds + 3 if seconds is not None else 900) / rate  # the window's last lines too
        started = time.monotonic()
        while not bot.over and time.monotonic() - started < limit:
            await asyncio.sleep(0.05)
        if seconds is None and not bot.over:
            raise RuntimeError(f"the {game} game did not end in {limit:.0f} s")
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        with contextlib.suppress(Exception):
            await bot.close()
    return transcript


def pooled(transcripts: list[Transcript]) -> dict[str, float]:
    """Words a minute per verbosity over several tables: all their words over all their minutes."""
    minutes = sum(t.minutes() for t in transcripts)
    return {v: sum(t.words(v) for t in transcripts) / minutes if minutes else 0.0 for v in VERBOSITIES}


async def listen_many(
    url: str, game: str, seconds: float | None, tables: int, rate: float = 1.0
) -> list[Transcript]:
    """`tables` tables played at once, a listener at each (`listen`; nicknames are unique)."""
    runs = (listen(url, game, seconds, seed=7 + i, name=f"Listener{i + 1}", rate=rate) for i in range(tables))
    return list(await asyncio.gather(*runs))


def measure(game: str, seconds: float | None, url: str | None = None, tables: int = 1) -> list[Transcript]:
    """`listen_many` against `url`, or against a server of its own."""
    if url is not None:
        return asyncio.run(listen_many(url, game, seconds, tables))
    with run_server() as server:
        return asyncio.run(listen_many(server.ws_url, game, seconds, tables))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.speech", description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=("burrito", "kittens", "both"), default="both")
    parser.add_argument("--seconds", type=float, default=60.0, help="burrito: the seconds measured")
    parser.add_argument("--tables", type=int, default=4, help="tables played at once, a listener at each")
    parser.add_argument(
        "--rate",
        type=float,
        default=1.0,
        help="the server's clock rate (CARDROOM_CLOCK_RATE): play time passes this many times faster",
    )
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    games = ("burrito", "kittens") if args.game == "both" else (args.game,)
    results: dict[str, dict[str, Any]] = {}
    with run_server(extra_env={"CARDROOM_CLOCK_RATE": str(args.rate)}) as server:
        for game in games:
            span = args.seconds if game == "burrito" else None
            transcripts = asyncio.run(listen_many(server.ws_url, game, span, args.tables, args.rate))
            results[game] = {
                **pooled(transcripts),
                "minutes": sum(t.minutes() for t in transcripts),
                "tables": [t.rates() for t in transcripts],
            }
    if args.json:
        print(json.dumps(results))
        return 0
    for game, rates in results.items():
        span = "first minute" if game == "burrito" else "whole game"
        figures = ", ".join(f"{v} {rates[v]:.0f}" for v in VERBOSITIES)
        tables = rates["tables"]
        print(
            f"speech {game} ({span}, {len(tables)} tables, {rates['minutes']:.1f} min of play),"
            f" words a minute: {figures} (target for normal: at most {TARGETS[game]:.0f})"
        )
        for v in VERBOSITIES:
            print(f"  {v}, each table: " + ", ".join(f"{t[v]:.0f}" for t in tables))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
