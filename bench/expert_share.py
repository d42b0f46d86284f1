"""Whether one table's expert bots can make another table's expert late (issue 22).

A real server; one table of ten seats, nine expert bots thinking `--hog-ms` at each decision
(its host, a `hard` network bot, plays the tenth); another table where a `hard` network bot
plays one expert whose turn and Defuse timers are 1.5 s (a new such table when a game ends).
Printed: how many of the victim expert's turns the turn timer ended for it (a forced draw),
whether it ever exploded with a Defuse in hand, and how long its turns took in play time (from
its `turn` event to its draw).

    python -m bench.expert_share --turns 10
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
from typing import Any

from cardroom.clients.botclient import NetBot
from cardroom.server.process import run_server
from cardroom.server.wire import messages

VICTIM = {"bot_think_ms": 0, "turn_ms": 1500, "defuse_ms": 1500}
EXPERT = 1
"""The victim expert's seat."""


class Watcher(NetBot):
    """A network bot that keeps the events of its table."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.events: list[dict[str, Any]] = []
        self.on_message = self._keep

    def _keep(self, message: dict[str, Any], raw: str) -> None:
        if message.get("type") == "events" and message.get("table") == self.table:
            self.events.extend({"at": message["at"], **e} for e in message["events"])


async def _open(bot: Watcher, seats: int, bots: int, options: dict[str, Any]) -> None:
    """`bot` creates a table of expert bots and starts it."""
    await bot.connect()
    await bot.send(
        {
            "type": "create_table",
            "game": "kittens",
            "seats": seats,
            "bots": bots,
            "options": options,
            "bot_level": "expert",
        }
    )
    while bot.table is None:
        for message in messages(await asyncio.wait_for(bot.ws.recv(), 10)):
            await bot.handle(message, "")
            if message.get("type") == "error":
                raise RuntimeError(f"the server refused the table: {message}")
            if message.get("type") == "table":
                bot.table = message["table"]
    await bot.send({"type": "start", "table": bot.table})


def _turns(events: list[dict[str, Any]]) -> list[tuple[int, dict[str, Any]]]:
    """Each draw that ended the expert's turn, with the play time its turn began."""
    out = []
    began = None
    for e in events:
        if e["event"] == "turn" and e["player"] == EXPERT:
            began = e["at"]
        elif e["event"] == "drew" and e["player"] == EXPERT:
            out.append((began if began is not None else e["at"], e))
            began = None
    return out


async def run(url: str, hog_ms: int, turns: int, limit_s: float) -> dict[str, Any]:
    """Watch the victim expert for `turns` turns (over as many games as that takes: a game of
    two may end after a few turns) or `limit_s` seconds, the hog table playing all along."""
    hog = Watcher(url, "Hog", "kittens", "hard", seed=1)
    await _open(hog, 10, 9, {"expert_think_ms": hog_ms, "bot_think_ms": 0})
    hogging = [asyncio.create_task(hog.reader()), asyncio.create_task(hog.actor())]
    events: list[dict[str, Any]] = []  # the victim expert's games', one after another
    games = 0
    try:
        async with asyncio.timeout(limit_s):
            while len(_turns(events)) < turns:
                games += 1
                await _victim_game(url, games, events, turns)
    except TimeoutError:
        pass
    finally:
        for task in hogging:
            task.cancel()
        await asyncio.gather(*hogging, return_exceptions=True)
        await hog.close()
    ended = _turns(events)
    took = [e["at"] - began for began, e in ended]
    return {
        "hog_expert_think_ms": hog_ms,
        "victim_games": games,
        "expert_turns": len(ended),
        "forced_draws": sum(1 for _, e in ended if e["forced"]),
        "exploded_holding_a_defuse": sum(
            1
            for e in events
            if e["event"] == "exploded" and e["player"] == EXPERT and "defuse" in e["discarded"]
        ),
        "turn_ms_median": statistics.median(took) if took else None,
        "turn_ms_max": max(took) if took else None,
    }


async def _victim_game(url: str, game: int, events: list[dict[str, Any]], turns: int) -> None:
    """One game of the victim table, its host's events added to `events`, until it ends or the
    expert has ended `turns` turns in all."""
    victim = Watcher(url, f"Victim {game}", "kittens", "hard", seed=1 + game)
    victim.events = events
    await _open(victim, 2, 1, VICTIM)
    playing = [asyncio.create_task(victim.reader()), asyncio.create_task(victim.actor())]
    try:
        while not victim.over and len(_turns(events)) < turns:
            await asyncio.sleep(0.1)
    finally:
        for task in playing:
            task.cancel()
        await asyncio.gather(*playing, return_exceptions=True)
        await victim.close()


def main() -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.expert_share", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument(
        "--hog-ms", type=int, default=1000, help="the expert_think_ms of the table of nine experts"
    )
    parser.add_argument("--turns", type=int, default=10, help="victim expert turns to watch")
    parser.add_argument("--limit", type=float, default=180, help="seconds at most")
    args = parser.parse_args()
    with run_server() as server:
        result = asyncio.run(run(server.ws_url, args.hog_ms, args.turns, args.limit))
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
