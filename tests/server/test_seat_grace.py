"""A person whose connection drops mid-game has their seat held for the table's `seat_grace_ms`
before a stand-in plays it, and hears one line of what happened while they were away (issue
23; server/absence.py). Over a real server process, with websocket clients."""

from __future__ import annotations

import asyncio
from typing import Any

from cardroom.games.burrito.options import parse_options
from cardroom.games.kittens.options import Options
from cardroom.server.absence import SEAT_GRACE_MS
from tests.server.live import Client, LiveServer


async def _table(nina: Client, watcher: Client, options: dict[str, Any]) -> str:
    """Nina's started two-seat kittens table (one bot), watched by `watcher`."""
    await nina.send({"type": "create_table", "game": "kittens", "seats": 2, "bots": 1, "options": options})
    table = str((await nina.expect("table"))["table"])
    await watcher.send({"type": "spectate", "table": table})
    await watcher.expect("table", table=table)
    await nina.send({"type": "start", "table": table})
    await watcher.expect("table", table=table, state="playing")
    return table


async def _seat_after_drop(watcher: Client, table: str) -> dict[str, Any]:
    """Seat 0 as the watcher is first told of it once Nina's connection is gone."""
    while True:
        message = await watcher.expect("table", table=table, timeout=15)
        seat: dict[str, Any] = message["seats"][0]
        if not seat["connected"]:
            return seat


def test_a_dropped_seat_is_held_for_the_grace_period_then_a_stand_in_plays(server: LiveServer) -> None:
    async def go() -> tuple[dict[str, Any], float]:
        nina = await Client.connect(server.ws_url, "Nina")
        watcher = await Client.connect(server.ws_url, "Watcher1")
        table = await _table(nina, watcher, {"seat_grace_ms": 2000, "bot_think_ms": 0})
        loop = asyncio.get_running_loop()
        gone = loop.time()
        await nina.close()
        held = await _seat_after_drop(watcher, table)
        standing = held["standing_in"]
        while not standing:
            standing = (await watcher.expect("table", table=table, timeout=20))["seats"][0]["standing_in"]
        waited = loop.time() - gone
        await watcher.close()
        return held, waited

    held, waited = asyncio.run(go())
    assert held["name"] == "Nina" and not held["standing_in"], "no stand-in takes the seat at once"
    assert waited >= 2.0, f"the stand-in came {waited:.1f} s after the drop, within the 2 s grace"


def test_a_person_back_within_the_grace_has_their_seat_and_one_line_of_what_happened(
    server: LiveServer,
) -> None:
    async def go() -> tuple[list[dict[str, Any]], list[dict[str, Any]], dict[str, Any]]:
        nina = await Client.connect(server.ws_url, "Nora")
        watcher = await Client.connect(server.ws_url, "Watcher2")
        table = await _table(nina, watcher, {"seat_grace_ms": 60_000})
        await nina.close()
        await _seat_after_drop(watcher, table)
        back = await Client.connect(server.ws_url, token=nina.token)
        resync = await back.expect("table", table=table)
        await back.send({"type": "ping", "id": 1})
        await back.expect("pong")  # everything the server sent on her return is in by now
        seen = [m for m in watcher.inbox if m.get("type") == "table"]
        await back.close()
        await watcher.close()
        return [m for m in back.inbox if m.get("type") == "away"], seen, resync

    away, seen, resync = asyncio.run(go())
    assert resync["you"] == 0 and resync["state"] == "playing"
    assert len(away) == 1 and away[0]["text"].startswith("While you were away"), away
    assert not any(m["seats"][0]["standing_in"] for m in seen), "no stand-in played her seat"


def test_the_away_line_counts_the_moves_a_stand_in_made(server: LiveServer) -> None:
    async def go() -> str:
        nina = await Client.connect(server.ws_url, "Nils")
        watcher = await Client.connect(server.ws_url, "Watcher3")
        table = await _table(nina, watcher, {"seat_grace_ms": 0, "bot_think_ms": 0})
        await nina.close()
        while True:  # the stand-in's first move for Nina (seat 0)
            message = await watcher.expect("events", table=table, timeout=20)
            if any(e.get("event") in ("drew", "played") and e.get("player") == 0 for e in message["events"]):
                break
        back = await Client.connect(server.ws_url, token=nina.token)
        text = str((await back.expect("away", table=table))["text"])
        await back.close()
        await watcher.close()
        return text

    text = asyncio.run(go())
    assert text.startswith("While you were away: a stand-in made "), text


def test_the_grace_period_is_a_table_option_checked_like_the_others(server: LiveServer) -> None:
    async def go() -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
        nina = await Client.connect(server.ws_url, "Noor")
        replies = []
        for value in (-1, "soon", 45_000):
            options = {"seat_grace_ms": value}
            await nina.send(
                {"type": "create_table", "game": "burrito", "seats": 3, "bots": 1, "options": options}
            )
            while (reply := await nina.recv())["type"] not in ("table", "error"):
                pass
            replies.append(reply)
        await nina.close()
        return replies[0], replies[1], replies[2]

    negative, words, created = asyncio.run(go())
    assert created["type"] == "table" and created["options"]["seat_grace_ms"] == 45_000
    assert negative["type"] == "error" and negative["code"] == "bad_options"
    assert words["type"] == "error" and words["code"] == "bad_options"


def test_both_games_and_the_server_agree_on_the_default_grace_period() -> None:
    """docs/rules/<game>.md#stand-ins: 30 s unless the table says otherwise."""
    assert Options().seat_grace_ms == parse_options({}, 4).seat_grace_ms == SEAT_GRACE_MS == 30_000
