"""`cardroom serve --workers N` (issue 15): N cluster nodes behind one port on one machine
(cardroom/server/workers.py), on this session's throwaway PostgreSQL and Redis."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import time
from typing import Any

from cardroom.games import find_game
from cardroom.protocol.record import replay
from cardroom.server.process import LiveServer
from cardroom.server.wire import messages
from tests.cluster.test_nodes import cluster_env, wait_for
from tests.cluster.test_relay import QUICK_KITTENS, sit
from tests.procs import still_running
from tests.server.live import run_server
from tests.server.play import Witness, finished_game, play_to_the_end
from tests.server.test_expert_share import seat_experts, wait_for_search_worker

__all__ = ["cluster_env"]


def _per_worker(server: LiveServer, workers: int) -> dict[str, int]:
    """Players connected to each worker: each request to /healthz lands on one of them, so ask
    until every worker has answered."""
    seen: dict[str, int] = {}
    deadline = time.monotonic() + 20
    while len(seen) < workers:
        assert time.monotonic() < deadline, f"only {len(seen)} workers answer"
        health = server.health()
        seen[health["cluster"]["node"]] = health["players_online"]
    return seen


def test_two_workers_share_one_port_and_players_on_both_play_one_game(cluster_env: dict[str, str]) -> None:
    """Players connect to the one port until some have landed on each worker; one of each sits at
    one table (two bots fill it) and they play a whole game of kittens through their own
    worker; the game is stored whole. Both workers are nodes of one cluster."""
    db = cluster_env["CARDROOM_DB"]
    with run_server(cluster_env, extra_args=("--workers", "2")) as server:
        wait_for(lambda: len(server.health()["cluster"]["nodes"]) == 2, 30, "both workers up")

        async def go() -> tuple[list[Witness], dict[str, int]]:
            landed: dict[str, Witness] = {}
            everyone: list[Witness] = []
            for i in range(40):
                before = _per_worker(server, 2)
                bot = Witness(server.ws_url, f"P{i}", "kittens", "normal", seed=i)
                await bot.connect()
                everyone.append(bot)
                while True:
                    now = _per_worker(server, 2)
                    if sum(now.values()) == sum(before.values()) + 1:
                        break
                    await asyncio.sleep(0.05)
                node = next(n for n in now if now[n] > before.get(n, 0))
                landed.setdefault(node, bot)
                if len(landed) == 2:
                    break
            counts = _per_worker(server, 2)
            first, second = landed.values()
            # on the connections they have: a new one might land on the other worker
            await first.send(
                {"type": "create_table", "game": "kittens", "seats": 4, "bots": 2, "options": QUICK_KITTENS}
            )
            while first.table is None:
                for message in messages(await first.ws.recv()):
                    if message.get("type") == "table":
                        first.table = message["table"]
            await sit(second, first.table, connect=False)
            await first.send({"type": "start", "table": first.table})
            await play_to_the_end([first, second], limit_s=240)
            for bot in everyone:
                await bot.close()
            return [first, second], counts

        players, counts = asyncio.run(go())
        game_id = players[0].acked[0][0]
        stored = asyncio.run(finished_game(db, game_id))
    assert all(count >= 1 for count in counts.values())  # players on both workers
    assert all(p.over for p in players) and players[0].winner == players[1].winner
    assert stored.state == "over" and stored.seats[0].name == players[0].name
    for _game, seq, action in players[0].acked + players[1].acked:
        assert stored.record.moves[seq].action == action
    replay(find_game("kittens"), stored.record)
    assert "Traceback" not in server.log


def test_workers_need_redis_and_postgresql(tmp_path: Any) -> None:
    """Without Redis, or on SQLite, `--workers` is refused with a clear line, before any port."""
    base = [sys.executable, "-m", "cardroom", "serve", "--workers", "2", "--port", "8099"]
    no_redis = subprocess.run(
        [*base, "--db", f"sqlite:///{tmp_path}/x.sqlite3"], capture_output=True, text=True, timeout=60
    )
    on_sqlite = subprocess.run(
        [*base, "--db", f"sqlite:///{tmp_path}/x.sqlite3", "--redis", "redis://127.0.0.1:1/0"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert no_redis.returncode != 0 and "--workers needs --redis" in no_redis.stderr
    assert on_sqlite.returncode != 0 and "PostgreSQL" in on_sqlite.stderr
    assert "Traceback" not in no_redis.stderr + on_sqlite.stderr


def test_a_node_address_is_checked_and_is_not_for_workers(tmp_path: Any) -> None:
    """docs/deploy.md, "Players at their table's node": `--node-url` is a ws:// or wss://
    address or a path; the workers of one port cannot each be reached, so not with them."""
    base = [
        sys.executable,
        "-m",
        "cardroom",
        "serve",
        "--port",
        "8099",
        "--db",
        f"sqlite:///{tmp_path}/x.sqlite3",
    ]
    bad = subprocess.run(
        [*base, "--node-url", "http://b.example/ws"], capture_output=True, text=True, timeout=60
    )
    workers = subprocess.run(
        [*base, "--workers", "2", "--redis", "redis://127.0.0.1:1/0"],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "CARDROOM_NODE_URL": "ws://127.0.0.1:{port}/ws"},
    )
    assert bad.returncode != 0 and "--node-url: a ws:// or wss:// address" in bad.stderr
    assert workers.returncode != 0 and "--node-url names one node: not with --workers" in workers.stderr
    assert "Traceback" not in bad.stderr + workers.stderr


def test_the_workers_and_their_search_workers_end_when_the_parent_is_killed(
    cluster_env: dict[str, str],
) -> None:
    """Issue 22: `cardroom serve --workers 2` killed with SIGKILL could pass no SIGTERM on, and
    both nodes went on serving the port, parent pid 1. Now each node sees its parent gone,
    drains and stops (or, past the 30 s the parent would give it, ends), its expert bots'
    search worker with it: nothing it started runs on."""
    with run_server(cluster_env, extra_args=("--workers", "2")) as server:
        wait_for(lambda: len(server.health()["cluster"]["nodes"]) == 2, 30, "both workers up")
        asyncio.run(seat_experts(server.ws_url))
        started = wait_for_search_worker(server.process.pid)
        server.process.kill()
        server.process.wait(30)
        left = still_running(started, within_s=60)
    assert not left, f"still running after SIGKILL: {left}"
