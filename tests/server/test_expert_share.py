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

from bench import expert_share
from tests.procs import descendants, still_running
from tests.server.live import Client, LiveServer, run_server
from tests.server.play import Witness, create_and_start

pytestmark = pytest.mark.slow

LARGEST = 1000
"""The largest `expert_think_ms` a table may ask for (docs/bots.md says why)."""
HOG = {"expert_think_ms": LARGEST, "bot_think_ms": 0}
"""A table of expert bots thinking as long as they may, at every decision."""


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
    1.5 s for its turn and for its Defuse (`bench.expert_share`) still makes every move itself
    before its timer: the turn timer never draws for it, and it never explodes with a Defuse in
    hand (the public `exploded` event shows the hand). Before: its search waited behind the
    other table's, and its timer drew for it."""
    with run_server() as server:
        seen = asyncio.run(expert_share.run(server.ws_url, LARGEST, turns=8, limit_s=240))
    assert seen["expert_turns"] >= 4, seen
    assert seen["forced_draws"] == 0, f"the timer drew for the expert: {seen}"
    assert seen["exploded_holding_a_defuse"] == 0, seen


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
