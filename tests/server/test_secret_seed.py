"""Issue 12, critical: a live table's seed is 256 bits from the operating system, kept in the
record (a finished game replays exactly) and never sent to anyone while the game goes on: not
in a player's or a spectator's messages, not in the HTTP API."""

from __future__ import annotations

import asyncio
import json
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tests.server.live import Client, LiveServer, run_server
from tests.server.play import Witness, create_and_start, play_until, stored_game

OPTIONS = {
    "kittens": {
        "nope_window_ms": 300,
        "turn_ms": 5000,
        "defuse_ms": 3000,
        "choose_ms": 2000,
    },
    "burrito": {"bruises": 2, "countdown_ms": 500, "between_rounds_ms": 400, "fight_timeout_ms": 4000},
}


def _get(server: LiveServer, path: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(server.url + path, timeout=10) as reply:
            return reply.status, reply.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode()


@pytest.mark.parametrize("game", sorted(OPTIONS))
def test_the_seed_of_a_game_in_play_reaches_nobody(tmp_path: Path, game: str) -> None:
    db = f"sqlite:///{tmp_path / 'cardroom.sqlite3'}"
    with run_server({"CARDROOM_DATA": str(tmp_path)}) as server:

        async def play() -> tuple[list[str], list[str], int, str, dict[str, tuple[int, str]]]:
            seeds = []
            me = Witness(server.ws_url, "Seer", game, "normal", seed=1)
            await create_and_start(me, game, seats=3, bots=2, options=OPTIONS[game])
            watcher = await Client.connect(server.ws_url, "Watcher")
            await watcher.send({"type": "spectate", "table": me.table})
            await watcher.expect("table")
            await me.send({"type": "start", "table": me.table})
            await play_until([me], acks=4, limit_s=60)
            assert me.acked and not me.over
            game_id = me.acked[0][0]
            found = await stored_game(db, game_id)
            with_seed, state = found.record.seed, found.state
            seeds.append(with_seed)
            http = {
                path: _get(server, path)
                for path in (
                    "/api/records",
                    f"/api/records/{game_id}",
                    f"/api/records/{game_id}/frames",
                    f"/api/records/{game_id}/scenario",
                )
            }
            await me.send({"type": "resume", "table": me.table, "since": 0})
            await watcher.send({"type": "resume", "table": me.table, "since": 0})
            await asyncio.sleep(0.5)
            drained_by = asyncio.get_running_loop().time() + 5  # the game goes on: read a while
            while asyncio.get_running_loop().time() < drained_by:
                try:
                    await watcher.recv(0.2)
                except TimeoutError:
                    break
            await me.close()
            await watcher.close()
            assert state == "playing"
            return me.frames, watcher.frames, with_seed, game_id, http

        frames, watched, seed, game_id, http = asyncio.run(play())

    assert seed.bit_length() > 128  # 256 random bits: shorter than 129 once in 2^128 games
    assert len(frames) > 5 and len(watched) > 5
    secret = (str(seed), f"{seed:x}", f"{seed:X}")
    for text in [*frames, *watched, *(body for _, body in http.values())]:
        assert not any(form in text for form in secret), text[:300]
    assert http[f"/api/records/{game_id}"][0] == 200
    assert http[f"/api/records/{game_id}/frames"][0] >= 400
    assert http[f"/api/records/{game_id}/scenario"][0] >= 400
    assert json.loads(http[f"/api/records/{game_id}/scenario"][1])["error"] == "not_over"
