"""Issue 22, "Unbounded `expert_think_ms`": one table's expert budget stalled every expert bot of
the server (they share one search worker), and the worker outlived its server.

Each test runs a real server process; the players are real websocket clients.
"""

from __future__ import annotations

import asyncio
import json
import signal
import time
from typing import Any

import pytest

from cardroom.server.wire import messages
from tests.procs import descendants, still_running
from tests.server.live import Client, LiveServer, run_server
from tests.server.play import Witness, create_and_start

pytestmark = pytest.mark.slow

LARGEST = 1000
"""The largest `expert_think_ms` a table may ask for (docs/bots.md says why)."""
HOG = {"expert_think_ms": LARGEST, "bot_think_ms": 0}
"""A table of expert bots thinking as long as they may, at every decision."""
VICTIM = {"bot_think_ms": 0, "turn_ms": 1500, "defuse_ms": 1500}
"""Another table's expert, with short timers: 1.5 s for its turn and for its Defuse."""
EXPERT = 1
"""The victim table's expert bot's seat (the host's client sits at 0)."""


def test_the_largest_expert_budget_is_taken_and_a_larger_one_refused() -> None:
    """A larger budget gets `bad_options` naming the bound, and no table is made."""

    async def scenario(server: LiveServer) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
        client = await Client.connect(server.ws_url, "Budget")
        answers = []
        for budget in (LARGEST + 1, 10**9, LARGEST):
            options = {"expert_think_ms": budget}
            await client.send({"type": "create_table", "game": "kittens", "seats": 2, "options": options})
            answers.append(await _answer(client))
        await client.close()
        return answers[0], answers[1], answers[2]

    with run_server() as server:
        one_more, huge, largest = asyncio.run(scenario(server))
        tables = server.health()["tables"]
    for refused in (one_more, huge):
        assert refused["type"] == "error" and refused["code"] == "bad_options", refused
        assert f"at most {LARGEST} ms" in refused["message"]
    assert largest["type"] == "table" and largest["options"] == {"expert_think_ms": LARGEST}
    assert tables == 1


async def _answer(client: Client) -> dict[str, Any]:
    while True:
        message = await client.recv()
        if message.get("type") in ("error", "table"):
            return message


def test_an_expert_moves_in_time_beside_a_table_of_experts_at_the_largest_budget() -> None:
    """Nine expert bots think 1 s at each decision at one table; at another, an expert with
    1.5 s for its turn and for its Defuse still makes every move itself before its timer: no
    forced draw, no explosion with a Defuse in hand (the public `exploded` event shows the
    hand). Before: its search waited behind the other table's, and its timer drew for it."""

    async def scenario(server: LiveServer) -> Witness:
        hog = Witness(server.ws_url, "Hog", "kittens", "hard", seed=1)
        await create_and_start(hog, "kittens", seats=10, bots=9, options=HOG, level="expert")
        await hog.send({"type": "start", "table": hog.table})
        victim = Witness(server.ws_url, "Victim", "kittens", "hard", seed=2)
        await create_and_start(victim, "kittens", seats=2, bots=1, options=VICTIM, level="expert")
        await victim.send({"type": "start", "table": victim.table})
        players = [hog, victim]
        tasks = [asyncio.create_task(p.reader()) for p in players] + [
            asyncio.create_task(p.actor()) for p in players
        ]
        try:
            async with asyncio.timeout(240):
                while not victim.over and len(_expert_turns(victim)) < 8:
                    await asyncio.sleep(0.1)
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            await hog.close()
            await victim.close()
        return victim

    with run_server() as server:
        victim = asyncio.run(scenario(server))
    turns = _expert_turns(victim)
    forced = [e for e in turns if e["event"] == "drew" and e["forced"]]
    defused_too_late = [
        e
        for e in _events(victim)
        if e["event"] == "exploded" and e["player"] == EXPERT and "defuse" in e["discarded"]
    ]
    assert len(turns) >= 4, f"the expert ended only {len(turns)} turns"
    assert not forced, f"the timer drew for the expert at {len(forced)} of its {len(turns)} turns"
    assert not defused_too_late, "the expert exploded with a Defuse in hand"


def _events(player: Witness) -> list[dict[str, Any]]:
    """Every event the player heard at its table, in order."""
    out: list[dict[str, Any]] = []
    for raw in player.frames:
        for message in messages(raw):
            if message.get("type") == "events" and message.get("table") == player.table:
                out.extend(message["events"])
    return out


def _expert_turns(player: Witness) -> list[dict[str, Any]]:
    """The draws that ended the expert's turns, forced or not."""
    return [e for e in _events(player) if e["event"] == "drew" and e["player"] == EXPERT]


async def seat_experts(url: str) -> None:
    """A table of four expert bots at the largest budget, playing on after its host left."""
    host = Witness(url, "Host", "kittens", "hard", seed=3)
    await create_and_start(host, "kittens", seats=4, bots=3, options=HOG, level="expert")
    await host.send({"type": "start", "table": host.table})
    await host.send({"type": "leave", "table": host.table})  # a bot plays the seat for good
    await asyncio.sleep(0.5)
    await host.close()


def wait_for_search_worker(pid: int) -> dict[int, str]:
    """The processes `pid` started, once its search worker (a multiprocessing child) is one."""
    deadline = time.monotonic() + 30
    while True:
        started = descendants(pid)
        if any("multiprocessing" in command for command in started.values()):
            return started
        assert time.monotonic() < deadline, f"no search worker among {json.dumps(started)}"
        time.sleep(0.1)


@pytest.mark.parametrize("how", [signal.SIGTERM, signal.SIGINT, signal.SIGKILL], ids=lambda s: s.name)
def test_the_search_worker_ends_with_its_server(how: signal.Signals) -> None:
    """A server whose expert bots are searching is stopped (SIGTERM, SIGINT) or killed (SIGKILL):
    no process it started is left running (before: the worker stayed, its parent pid 1, still
    searching)."""
    with run_server() as server:
        asyncio.run(seat_experts(server.ws_url))
        started = wait_for_search_worker(server.process.pid)
        server.process.send_signal(how)
        server.process.wait(30)
        left = still_running(started, within_s=15)
    assert not left, f"still running after {how.name}: {left}"
