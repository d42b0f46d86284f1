"""Issue 12, 15: chat follows the nicknames' character rules, has a per-player rate, and a busy
lobby does not flood the players seated at a table."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest
import websockets

from cardroom.server.limits import client_key
from cardroom.server.wire import PROTOCOL_VERSION
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
        await seated.create_table("kittens", 2, bots=1, options={"turn_ms": 600_000})
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

    # The talkers share one address: its own allowance is not what this test is about.
    with run_server({"CARDROOM_CHAT_BURST": "5", "CARDROOM_CHAT_ADDRESS_BURST": "100"}) as server:
        seated_lines, lobby_lines = _run(scenario(server))
    assert lobby_lines == 20, "the lobby hears every line"
    assert 1 <= seated_lines <= 4, f"a seated player heard {seated_lines} of 20 lines in 2 s"


async def _guest_from(server: LiveServer, address: str, name: str) -> Client:
    """A new guest connected from `address` (one of the loopback's 127.0.0.x)."""
    client = Client(await websockets.connect(server.ws_url, local_addr=(address, 0)))
    await client.send({"type": "hello", "protocol": PROTOCOL_VERSION, "name": name})
    await client.expect("welcome")
    return client


def test_reconnecting_as_new_guests_does_not_raise_an_address_s_chat_rate() -> None:
    """Issue 22: a bystander got 33,775 lines in 32 s from one address, each new guest with a
    fresh allowance. Here an address may say 10 lines, then one every 100 s."""

    async def scenario(server: LiveServer) -> tuple[int, list[str], bool]:
        bystander = await _guest_from(server, "127.0.0.2", "Bystander")
        answers: list[str] = []
        for i in range(8):  # eight new guests, each with a player's whole burst of five
            flooder = await _guest_from(server, "127.0.0.1", f"Flood{i}")
            for line in range(5):
                await flooder.send({"type": "chat", "text": f"flood {i}.{line}"})
            for _line in range(5):
                message = await flooder.recv()
                while message["type"] not in ("chat", "error"):
                    message = await flooder.recv()
                answers.append(message.get("code", "said"))
            await flooder.close()
        # Someone at another address is not held back by them.
        other = await _guest_from(server, "127.0.0.3", "Neighbour")
        await other.send({"type": "chat", "text": "hello all"})
        heard = await _quiet(bystander, 1.0)
        await other.close()
        await bystander.close()
        flood = [m for m in heard if m["type"] == "chat" and str(m["from"]).startswith("Flood")]
        neighbour = any(m["type"] == "chat" and m["from"] == "Neighbour" for m in heard)
        return len(flood), answers, neighbour

    env = {"CARDROOM_CHAT_PER_ADDRESS_PER_S": "0.01", "CARDROOM_CHAT_ADDRESS_BURST": "10"}
    with run_server(env) as server:
        flood, answers, neighbour = _run(scenario(server))
    assert flood <= 11, f"the bystander got {flood} of 40 lines from one address"
    assert answers.count("chat_rate") >= 29 and set(answers) == {"said", "chat_rate"}
    assert neighbour


def test_the_addresses_of_one_ipv6_network_count_as_one_client() -> None:
    """An IPv6 household or server picks any of the 2^64 addresses of its /64: the limits per
    address (chat, sockets) count the network. An IPv4 address written as IPv6 is itself."""
    assert client_key("2001:db8:1:2::1") == client_key("2001:db8:1:2:ffff:ab:cd:ef") == "2001:db8:1:2::/64"
    assert client_key("2001:db8:1:3::1") != client_key("2001:db8:1:2::1")
    assert client_key("::ffff:192.0.2.7") == client_key("192.0.2.7") == "192.0.2.7"
