"""Issue 12, 15: chat follows the nicknames' character rules, has a per-player rate, and a busy
lobby does not flood the players seated at a table."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest

from tests.server.live import Client, LiveServer, run_server


def _run(coro: Any) -> Any:
    return asyncio.run(coro)


async def _quiet(client: Client, seconds: float) -> list[dict[str, Any]]:
    """Every message `client` gets for `seconds`."""
    got: list[dict[str, Any]] = []
    deadline = time.monotonic() + seconds
    while (left := deadline - time.monotonic()) > 0:
        try:
            got.append(await client.recv(left))
        except TimeoutError:
            break
    return got


@pytest.mark.parametrize(
    "text", ["nul\x00here", "abc\u202egpj.exe", "\u2066isolated\u2069", "bell\x07", "\u200b"]
)
def test_chat_refuses_what_a_nickname_refuses(server: LiveServer, text: str) -> None:
    """NUL and bidirectional overrides reached every screen; a nickname refused them already."""

    async def scenario() -> None:
        speaker = await Client.connect(server.ws_url, f"Spk{abs(hash(text)) % 10_000}")
        listener = await Client.connect(server.ws_url, f"Lis{abs(hash(text)) % 10_000}")
        await speaker.send({"type": "chat", "text": text})
        error = await speaker.expect("error")
        assert error["code"] == "bad_chat"
        assert "printable" in error["message"]
        heard = await _quiet(listener, 0.5)
        assert not [m for m in heard if m["type"] == "chat"]
        # The same text as a nickname is refused too: one rule for both.
        async with asyncio.timeout(5):
            named = await Client.connect_raw(
                server.ws_url, {"type": "hello", "protocol": 2, "name": f"x{text}"}
            )
            assert (await named.expect("error"))["code"] == "bad_name"
        for client in (speaker, listener, named):
            await client.close()

    _run(scenario())


def test_a_player_s_chat_has_a_rate(server: LiveServer) -> None:
    async def scenario() -> None:
        talker = await Client.connect(server.ws_url, "Chatty")
        for i in range(8):
            await talker.send({"type": "chat", "text": f"line {i}"})
        said = refused = 0
        while said + refused < 8:
            message = await talker.recv()
            if message["type"] == "chat" and message["from"] == "Chatty":
                said += 1
            elif message["type"] == "error":
                assert message["code"] == "chat_rate"
                refused += 1
        assert (said, refused) == (5, 3)
        await talker.close()

    _run(scenario())


def test_a_lobby_flood_reaches_seated_players_at_a_calm_rate() -> None:
    async def scenario(server: LiveServer) -> tuple[int, int]:
        seated = await Client.connect(server.ws_url, "Seated")
        await seated.send(
            {
                "type": "create_table",
                "game": "kittens",
                "seats": 2,
                "bots": 1,
                "options": {"turn_ms": 600_000},
            }
        )
        await seated.expect("table")
        lobby = await Client.connect(server.ws_url, "Lobbyist")
        talkers = [await Client.connect(server.ws_url, f"Loud{i}") for i in range(4)]
        for round_ in range(5):
            for talker in talkers:
                await talker.send({"type": "chat", "text": f"{talker.player} {round_}"})
        heard_seated = await _quiet(seated, 2.0)
        heard_lobby = await _quiet(lobby, 0.5)
        for client in [seated, lobby, *talkers]:
            await client.close()
        lines = [m for m in heard_seated if m["type"] == "chat" and m["table"] is None]
        in_lobby = [m for m in heard_lobby if m["type"] == "chat"]
        return len(lines), len(in_lobby)

    with run_server({"CARDROOM_CHAT_BURST": "5"}) as server:
        seated_lines, lobby_lines = _run(scenario(server))
    assert lobby_lines == 20, "the lobby hears every line"
    assert 1 <= seated_lines <= 4, f"a seated player heard {seated_lines} of 20 lines in 2 s"
