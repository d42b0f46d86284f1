"""Relaxed timing and extra time over the wire: a real server, real websocket clients
(docs/rules/kittens.md#time-to-react)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from cardroom.games.kittens.cards import ACTION_SET, TARGETED
from tests.server.live import Client, LiveServer

T = TypeVar("T")
CALM = {"turn_ms": 60_000, "bot_think_ms": 0}


def _run(scenario: Callable[[], Coroutine[Any, Any, T]]) -> T:
    """Run `scenario` in its own thread and loop (the browser tests leave a loop in this one)."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(lambda: asyncio.run(scenario())).result()


def a_play(hand: list[str], target: int) -> dict[str, Any]:
    """A card (or a pair) of `hand` that may be played at the start of a turn."""
    for card in hand:
        if card in ACTION_SET:
            return {"do": "play", "cards": [card], **({"target": target} if card in TARGETED else {})}
    pair = next(card for card in hand if hand.count(card) > 1 and card != "defuse")
    return {"do": "play", "cards": [pair, pair], "target": target}


async def play_first_card(client: Client, table: str) -> dict[str, Any]:
    """Seat 0 plays a card on its first turn: the `played` event, with `at` from its batch."""
    first = await client.expect("events", table=table)
    await client.send({"type": "act", "table": table, "action": a_play(first["view"]["hand"], 1), "ref": 1})
    while True:
        batch = await client.expect("events", table=table)
        for event in batch["events"]:
            if event["event"] == "played":
                return {**event, "batch_at": batch["at"], "deadline": batch["view"]["deadline"]}


def test_a_relaxed_table_doubles_the_nope_window_over_the_wire(server: LiveServer) -> None:
    """docs/rules/kittens.md#time-to-react: timing relaxed: a 6 s Nope window; everyone sees the preset."""

    async def scenario() -> tuple[dict[str, Any], dict[str, Any]]:
        rosa = await Client.connect(server.ws_url, "Rosa")
        options = {**CALM, "timing": "relaxed"}
        await rosa.send(
            {"type": "create_table", "game": "kittens", "seats": 2, "bots": 1, "options": options}
        )
        created = await rosa.expect("table")
        await rosa.send({"type": "start", "table": created["id"]})
        await rosa.expect("table", state="playing")
        played = await play_first_card(rosa, created["id"])
        await rosa.close()
        return created, played

    created, played = _run(scenario)
    assert created["options"]["timing"] == "relaxed"
    assert played["until"] - played["batch_at"] == 6000 and played["deadline"] == played["until"]


def test_the_host_grants_extra_time_and_everyone_sees_it(server: LiveServer) -> None:
    """docs/rules/kittens.md#time-to-react: the host grants extra time per player; the shared Nope
    window doubles when that player may Nope; only the host may grant it, only to a player."""

    async def scenario() -> dict[str, Any]:
        hana = await Client.connect(server.ws_url, "Hana")
        ivo = await Client.connect(server.ws_url, "Ivo")
        await hana.send({"type": "create_table", "game": "kittens", "seats": 2, "options": CALM})
        table = (await hana.expect("table"))["id"]
        await ivo.send({"type": "join", "table": table})
        await ivo.expect("table", you=1)
        out: dict[str, Any] = {}

        await ivo.send({"type": "extra_time", "table": table, "seat": 1})
        out["ivo_grants"] = (await ivo.expect("error"))["code"]
        await hana.send({"type": "extra_time", "table": table, "seat": 5})
        out["no_seat"] = (await hana.expect("error"))["code"]

        await hana.send({"type": "extra_time", "table": table, "seat": 1})
        await hana.expect("table", table=table)
        seen = await ivo.expect("table", table=table)
        out["ivo_sees"] = [s["extra_time"] for s in seen["seats"]], seen["options"].get("extra_time")

        await ivo.send({"type": "leave", "table": table})
        left = await hana.expect("table", table=table)
        out["after_leaving"] = [s["extra_time"] for s in left["seats"]], left["options"].get("extra_time")
        await ivo.send({"type": "join", "table": table})
        await ivo.expect("table", you=1)
        await hana.send({"type": "extra_time", "table": table, "seat": 1})
        await hana.expect("table", table=table)

        await hana.send({"type": "start", "table": table})
        started = await ivo.expect("table", state="playing")
        out["view"] = started["view"]["extra_time"]
        out["played"] = await play_first_card(hana, table)
        await hana.close()
        await ivo.close()
        return out

    out = _run(scenario)
    assert out["ivo_grants"] == "not_host" and out["no_seat"] == "no_such_seat"
    assert out["ivo_sees"] == ([False, True], [1])
    assert out["after_leaving"] == ([False, False], None), "extra time goes with the player"
    assert out["view"] == [1]
    played = out["played"]
    assert played["until"] - played["batch_at"] == 6000, "Ivo (extra time) may Nope: a 6 s window"
