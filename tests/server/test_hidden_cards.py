"""Issue 4 / STYLE: a spectator and a player never receive a card hidden from them.

The server runs in this process so that the test can hold every batch the table produced
(hidden parts included) against the raw bytes each client received for it.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from cardroom.clients.botclient import NetBot
from cardroom.server.lobby import Lobby
from cardroom.server.wire import messages
from tests.server.live import Client, in_process
from tests.server.play import create_and_start, play_to_the_end

pytestmark = pytest.mark.slow

GAMES = {
    "kittens": {
        "nope_window_ms": 300,
        "turn_ms": 4000,
        "defuse_ms": 2000,
        "choose_ms": 1500,
        "bot_think_ms": 0,
    },
    "burrito": {"bruises": 2, "countdown_ms": 500, "between_rounds_ms": 400, "fight_timeout_ms": 3000},
}


RATE = 4.0
"""Games play four times faster (`Lobby.rate`), the player keeping the same clock: what each
client receives is checked, not the game's pace."""


@pytest.mark.parametrize("game", sorted(GAMES))
def test_no_client_receives_a_card_hidden_from_its_seat(game: str) -> None:
    lobby = Lobby(rate=RATE)

    async def scenario() -> tuple[list[tuple[dict[str, Any], str]], list[tuple[dict[str, Any], str]], str]:
        async with in_process(lobby) as port:
            return await play(port)

    async def play(
        port: int,
    ) -> tuple[list[tuple[dict[str, Any], str]], list[tuple[dict[str, Any], str]], str]:
        player_raw: list[tuple[dict[str, Any], str]] = []
        watcher_raw: list[tuple[dict[str, Any], str]] = []
        me = NetBot(
            f"ws://127.0.0.1:{port}/ws", "Player", game, "hard" if game == "burrito" else "normal", 3,
            on_message=lambda m, raw: player_raw.append((m, raw)), rate=RATE,
        )  # fmt: skip
        await create_and_start(me, game, seats=3, bots=2, options=GAMES[game])
        assert me.table is not None
        watcher = await Client.connect(f"ws://127.0.0.1:{port}/ws", "Watcher")
        await watcher.send({"type": "spectate", "table": me.table})
        await watcher.expect("table")
        await me.send({"type": "start", "table": me.table})

        async def watch() -> None:
            while True:
                message = await watcher.recv(60)
                watcher_raw.append((message, watcher.raw[-1]))

        watching = asyncio.create_task(watch())
        await play_to_the_end([me], 150)
        await asyncio.sleep(0.3)
        watching.cancel()
        await asyncio.gather(watching, return_exceptions=True)
        await me.close()
        await watcher.close()
        return player_raw, watcher_raw, me.table

    player_raw, watcher_raw, table_id = asyncio.run(scenario())
    room_history = {b.v: b for b in lobby_history(lobby, table_id)}
    checked = 0
    for seat, received in ((0, player_raw), (None, watcher_raw)):
        for message, raw in received:
            if message.get("type") == "table" and message.get("view") is not None:
                assert_view_is_seats_own(message["view"], seat, raw)
            if message.get("type") != "events":
                continue
            assert_view_is_seats_own(message["view"], seat, raw)
            batch = room_history.get(message["v"])
            if batch is None:
                continue
            expected = [e for e in (ev.for_seat(seat) for ev in batch.events) if e is not None]
            assert message in messages(raw), "the message is what its frame carried"
            assert message["events"] == expected
            for event in batch.events:
                if event.secret and seat not in event.knowers:
                    shown = event.for_seat(seat)
                    for key in event.secret:
                        assert shown is None or key not in shown or shown[key] == event.data.get(key)
            checked += 1
    assert checked > 20, "the game produced batches for both clients"


def lobby_history(lobby: Lobby, table_id: str) -> list[Any]:
    room = lobby.rooms.get(table_id)
    assert room is not None, "the table is still listed"
    return list(room.history._batches)


def assert_view_is_seats_own(view: dict[str, Any], seat: int | None, raw: str) -> None:
    assert "hands" not in view, "no view holds every hand"
    if seat is None:
        assert not view.get("hand"), f"a spectator sees no hand: {raw[:200]}"
    else:
        assert view.get("seat") == seat
