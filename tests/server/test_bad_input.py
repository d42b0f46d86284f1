"""Issue 4: bad input on the socket gets an error or a named close, and changes nothing."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
import websockets

from cardroom.server import closes
from cardroom.server.wire import PROTOCOL_VERSION, messages
from tests.server.live import Client, LiveServer, run_server

SLOW_KITTENS = {"turn_ms": 60_000}


async def _table(client: Client, game: str = "kittens") -> dict[str, Any]:
    await client.send({"type": "create_table", "game": game, "seats": 2, "bots": 1, "options": SLOW_KITTENS})
    created = await client.expect("table")
    await client.send({"type": "start", "table": created["table"]})
    return await client.expect("table", state="playing")


def _run(coro: Any) -> Any:
    return asyncio.run(coro)


@pytest.mark.parametrize(
    ("frame", "code"),
    [
        ("{not json", "bad_message"),
        (json.dumps({"type": "teleport"}), "bad_message"),
        (json.dumps({"type": "chat", "text": 42}), "bad_message"),
        (json.dumps({"type": "create_table", "game": "kittens", "seats": "two"}), "bad_message"),
        (json.dumps({"type": "join"}), "bad_message"),
        (json.dumps([1, 2, 3]), "bad_message"),
        (json.dumps({"type": "join", "table": "nope"}), "no_such_table"),
        (json.dumps({"type": "create_table", "game": "chess", "seats": 2}), "bad_game"),
        (json.dumps({"type": "create_table", "game": "kittens", "seats": 11}), "bad_seats"),
        (json.dumps({"type": "create_table", "game": "burrito", "seats": 13}), "bad_seats"),
        (json.dumps({"type": "chat", "text": "x" * 501}), "bad_chat"),
        (json.dumps({"type": "hello", "protocol": PROTOCOL_VERSION, "name": "again"}), "already_hello"),
    ],
)
def test_a_bad_message_is_answered_with_an_error_and_the_connection_stays(
    server: LiveServer, frame: str, code: str
) -> None:
    async def scenario() -> None:
        client = await Client.connect(server.ws_url, f"bad-{abs(hash(frame)) % 10_000}")
        await client.ws.send(frame)
        error = await client.expect("error")
        assert error["code"] == code
        assert error["message"]
        await client.send({"type": "ping", "id": 7})
        await client.expect("pong", id=7)
        await client.close()

    _run(scenario())


def test_the_first_message_must_be_hello(server: LiveServer) -> None:
    async def scenario() -> None:
        async with websockets.connect(server.ws_url) as ws:
            await ws.send(json.dumps({"type": "list_tables"}))
            with pytest.raises(websockets.ConnectionClosed) as closed:
                await asyncio.wait_for(ws.recv(), 5)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == closes.NOT_HELLO

    _run(scenario())


def test_a_wrong_protocol_version_is_refused_by_name(server: LiveServer) -> None:
    async def scenario() -> None:
        async with websockets.connect(server.ws_url) as ws:
            await ws.send(json.dumps({"type": "hello", "protocol": 99, "name": "Old"}))
            (error,) = messages(await asyncio.wait_for(ws.recv(), 5))
            assert error["code"] == "protocol"
            with pytest.raises(websockets.ConnectionClosed) as closed:
                await asyncio.wait_for(ws.recv(), 5)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == closes.PROTOCOL_MISMATCH

    _run(scenario())


def test_an_unknown_session_token_is_refused_by_name(server: LiveServer) -> None:
    async def scenario() -> None:
        async with websockets.connect(server.ws_url) as ws:
            await ws.send(json.dumps({"type": "hello", "protocol": PROTOCOL_VERSION, "token": "forged"}))
            (error,) = messages(await asyncio.wait_for(ws.recv(), 5))
            assert error["code"] == "bad_token"
            with pytest.raises(websockets.ConnectionClosed) as closed:
                await asyncio.wait_for(ws.recv(), 5)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == closes.BAD_TOKEN

    _run(scenario())


def test_a_frame_over_the_size_cap_is_refused(server: LiveServer) -> None:
    async def scenario() -> None:
        client = await Client.connect(server.ws_url, "Big")
        await client.send({"type": "chat", "text": "y" * 20_000})
        error = await client.expect("error")
        assert error["code"] == "too_big"
        await client.ws.send("z" * 200_000)
        with pytest.raises(websockets.ConnectionClosed) as closed:
            while True:
                await asyncio.wait_for(client.ws.recv(), 5)
        await client.close()
        assert closed.value.rcvd is not None and closed.value.rcvd.code == closes.MESSAGE_TOO_BIG

    _run(scenario())


def test_nobody_acts_for_another_seat_and_bad_actions_change_nothing(server: LiveServer) -> None:
    async def scenario() -> None:
        me = await Client.connect(server.ws_url, "Cleo")
        table = await _table(me)
        tid = table["table"]
        version = (await me.expect("events", table=tid))["v"]  # the deal
        bad_actions: list[dict[str, Any]] = [
            {"do": "draw", "player": 1},
            {"do": "play", "cards": ["no_such_card"]},
            {"do": "dance"},
            {"nothing": True},
        ]
        for ref, action in enumerate(bad_actions):
            await me.send({"type": "act", "table": tid, "action": action, "ref": ref})
            error = await me.expect("error", ref=ref)
            assert error["code"] == "bad_action"
        # A stranger who is not seated cannot act at all.
        stranger = await Client.connect(server.ws_url, "Mallory")
        await stranger.send({"type": "spectate", "table": tid})
        await stranger.expect("table")
        await stranger.send({"type": "act", "table": tid, "action": {"do": "draw"}, "ref": 9})
        error = await stranger.expect("error", ref=9)
        assert error["code"] == "not_seated"
        await me.send({"type": "resume", "table": tid, "since": version})
        resumed = await me.expect("resumed")
        assert resumed["v"] == version, "no bad action changed the table"
        # A version this table never had (one from before a restart): the whole table, then
        # `resumed` all the same, so a client holding live batches until then knows it is caught up.
        await me.send({"type": "resume", "table": tid, "since": version + 1000})
        resync = await me.expect("table", table=tid)
        assert resync["v"] == version and resync["you"] == 0 and resync["resync"] is True
        assert (await me.expect("resumed", table=tid))["v"] == version
        await me.close()
        await stranger.close()

    _run(scenario())


def test_a_flood_is_rate_limited_then_closed_by_name_and_other_tables_go_on(server: LiveServer) -> None:
    async def scenario() -> None:
        calm = await Client.connect(server.ws_url, "Calm")
        created = await calm.create_table("kittens", 2, bots=1, options={"nope_window_ms": 300})
        await calm.send({"type": "start", "table": created["table"]})
        await calm.expect("table", state="playing")
        flooder = await Client.connect(server.ws_url, "Flood")
        limited = 0
        with pytest.raises(websockets.ConnectionClosed) as closed:
            for i in range(5_000):
                await flooder.send({"type": "ping", "id": i})
                if i % 50 == 0:
                    while True:
                        try:
                            message = await asyncio.wait_for(flooder.ws.recv(), 0.001)
                        except TimeoutError:
                            break
                        limited += sum(m.get("code") == "rate_limited" for m in messages(message))
            while True:
                await asyncio.wait_for(flooder.ws.recv(), 5)
        await flooder.close()
        assert closed.value.rcvd is not None and closed.value.rcvd.code == closes.FLOOD
        assert limited > 0
        # The calm player's table still runs: it is their turn and they can draw.
        await calm.send({"type": "act", "table": created["table"], "action": {"do": "draw"}, "ref": 1})
        answer = await calm.expect("ack", ref=1)
        assert answer["v"] > 0
        assert server.health()["ok"]
        await calm.close()

    _run(scenario())


def test_a_burrito_table_of_seven_is_created_without_naming_two_decks(server: LiveServer) -> None:
    """docs/rules/burrito.md#two-decks-by-themselves: 7 to 12 players use two decks by themselves."""

    async def scenario() -> None:
        client = await Client.connect(server.ws_url, "Seven")
        await client.send({"type": "create_table", "game": "burrito", "seats": 7, "bots": 6, "options": {}})
        created = await client.expect("table")
        assert len(created["seats"]) == 7 and created["state"] == "waiting"
        await client.close()

    _run(scenario())


NESTED_ACTION = '{"type":"act","table":"x","action":{"a":' + "[" * 6000 + "]" * 6000 + "}}"
NESTED_OPTIONS = (
    '{"type":"create_table","game":"kittens","seats":2,"options":{"a":' + "[" * 6000 + "]" * 6000 + "}}"
)


@pytest.mark.parametrize(
    "frame", [NESTED_ACTION, NESTED_OPTIONS, b"\x00\x01binary", b'{"type":"ping","id":1}']
)
def test_deep_nesting_and_binary_frames_are_bad_messages_and_the_connection_stays(
    server: LiveServer, frame: str | bytes
) -> None:
    """Issue 12, 13: such frames closed the connection with 1001 (and a traceback in the log)."""

    async def scenario() -> None:
        client = await Client.connect(server.ws_url, f"deep-{abs(hash(frame)) % 10_000}")
        await client.ws.send(frame)
        error = await client.expect("error")
        assert error["code"] == "bad_message"
        await client.send({"type": "ping", "id": 8})
        await client.expect("pong", id=8)
        await client.close()

    _run(scenario())
    assert "Traceback" not in server.log


@pytest.mark.parametrize(
    "options",
    [{"variants": {}}, {"variants": "none"}, {"variants": [{}]}, {"turn_ms": "soon"}, {"turn_ms": []}],
)
def test_options_a_game_cannot_read_are_refused_and_the_list_stays_readable(
    server: LiveServer, options: dict[str, Any]
) -> None:
    """Issue 12, 4: `{"variants": {}}` was accepted, stored raw and sent to every lobby, whose
    pages then failed to draw the table list."""

    async def scenario() -> None:
        client = await Client.connect(server.ws_url, f"opt-{abs(hash(json.dumps(options))) % 10_000}")
        await client.send({"type": "create_table", "game": "kittens", "seats": 2, "options": options})
        error = await client.expect("error")
        assert error["code"] == "bad_options"
        await client.send({"type": "list_tables"})
        listing = await client.expect("tables")
        assert all(
            isinstance(t["options"], dict) and isinstance(t["options"].get("variants", []), list)
            for t in listing["tables"]
        ), "every listed table's options are in their typed form"
        await client.close()

    _run(scenario())


def test_a_table_s_options_are_sent_in_their_own_form() -> None:
    """Issue 12, 4: only the parsed options are kept and sent: each value of its type, the
    defaults left out, so a table with the plain options lists as `{}`."""

    async def scenario(server: LiveServer) -> list[dict[str, Any]]:
        client = await Client.connect(server.ws_url, "Forms")
        sent: list[tuple[str, int, dict[str, Any]]] = [
            ("kittens", 2, {"variants": [], "turn_ms": 60_000}),
            ("kittens", 2, {"turn_ms": 30_000}),
            ("burrito", 8, {"variants": ["two_decks", "two_decks"], "burritos": 4, "countdown_ms": 2000}),
        ]
        tables = []
        for game, seats, options in sent:
            await client.send({"type": "create_table", "game": game, "seats": seats, "options": options})
            tables.append(await client.expect("table"))
            await client.send({"type": "leave", "table": tables[-1]["table"]})
        await client.close()
        return tables

    with run_server({"CARDROOM_TABLES_PER_PLAYER": "1"}) as server:
        first, second, third = _run(scenario(server))
    assert first["options"] == {}
    assert second["options"] == {"turn_ms": 30_000}
    assert third["options"] == {"variants": ["two_decks"], "countdown_ms": 2000}
