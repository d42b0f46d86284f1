"""Protocol 2: what is waiting for a connection goes out as one frame, a JSON array of the
messages in order; a frame with a single message is that message. Every client reads both."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
import websockets

from cardroom.server.connection import frames
from cardroom.server.wire import PROTOCOL_VERSION, messages
from tests.server.live import Client, LiveServer

SLOW_KITTENS = {"turn_ms": 60_000}


def test_frames_gather_messages_into_one_array_in_order() -> None:
    one = [b'{"type":"pong","id":1}']
    assert list(frames(one)) == [b'{"type":"pong","id":1}'], "a lone message is a frame of its own"
    several = [b'{"type":"pong","id":%d}' % i for i in range(5)]
    (frame,) = frames(several)
    assert [m["id"] for m in json.loads(frame)] == [0, 1, 2, 3, 4]
    split = list(frames(several, limit=50))
    assert len(split) > 1, "a frame holds about `limit` bytes"
    assert [m["id"] for f in split for m in messages(f)] == [0, 1, 2, 3, 4]


def test_messages_reads_both_forms() -> None:
    assert messages('{"type":"lag","ms":3}') == [{"type": "lag", "ms": 3}]
    assert messages(b'[{"type":"lag","ms":3},{"type":"pong","id":2}]') == [
        {"type": "lag", "ms": 3},
        {"type": "pong", "id": 2},
    ]


def test_the_answers_to_hello_arrive_as_one_array(server: LiveServer) -> None:
    async def scenario() -> list[Any]:
        async with websockets.connect(server.ws_url) as ws:
            await ws.send(json.dumps({"type": "hello", "protocol": PROTOCOL_VERSION, "name": "Arrays"}))
            return list(json.loads(await asyncio.wait_for(ws.recv(), 10)))

    first = asyncio.run(scenario())
    assert isinstance(first, list)
    assert [m["type"] for m in first] == ["welcome", "tables", "lobby_chat"]


def test_a_protocol_1_client_still_reads_its_refusal(server: LiveServer) -> None:
    """An old client reads one JSON object per frame: the refusal is one, then the 4000 close."""

    async def scenario() -> tuple[Any, int | None]:
        async with websockets.connect(server.ws_url) as ws:
            await ws.send(json.dumps({"type": "hello", "protocol": 1, "name": "Old"}))
            refusal = json.loads(await asyncio.wait_for(ws.recv(), 5))
            with pytest.raises(websockets.ConnectionClosed) as closed:
                await asyncio.wait_for(ws.recv(), 5)
            return refusal, closed.value.rcvd.code if closed.value.rcvd else None

    refusal, code = asyncio.run(scenario())
    assert isinstance(refusal, dict) and refusal["code"] == "protocol"
    assert code == 4000


def test_a_burst_of_actions_is_answered_in_order_each_ack_with_its_ref(server: LiveServer) -> None:
    async def scenario() -> Client:
        me = await Client.connect(server.ws_url, "Burst")
        await me.send(
            {"type": "create_table", "game": "kittens", "seats": 2, "bots": 1, "options": SLOW_KITTENS}
        )
        tid = (await me.expect("table"))["table"]
        await me.send({"type": "start", "table": tid})
        playing = await me.expect("table", state="playing")
        assert playing["you"] == 0
        burst = [{"type": "act", "table": tid, "action": {"do": "draw"}, "ref": ref} for ref in range(1, 9)]
        await asyncio.gather(*(me.ws.send(json.dumps(m)) for m in burst))  # back to back
        answered: list[dict[str, Any]] = []
        while len(answered) < len(burst):
            message = await me.recv()
            if message["type"] in ("ack", "rejected", "error") and message.get("ref") is not None:
                answered.append(message)
        assert [m["ref"] for m in answered] == list(range(1, 9)), "one answer per action, in order"
        assert answered[0]["type"] == "ack", "the first draw, on our turn, is accepted"
        assert all(m["type"] != "ack" for m in answered[1:]), "then it is not our turn any more"
        # The accepted draw's batch reached us before its ack (which waits for the disk).
        ack = answered[0]
        batch = next(m for m in me.inbox if m["type"] == "events" and m["v"] == ack["v"])
        assert me.inbox.index(batch) < me.inbox.index(ack)
        await me.close()
        return me

    me = asyncio.run(scenario())
    assert any(isinstance(json.loads(frame), list) for frame in me.frames)


def test_what_one_turn_of_the_loop_sends_a_client_arrives_in_one_frame_in_order_and_whole(
    server: LiveServer,
) -> None:
    """Twenty pings in one write are read in one turn of the server's loop: their twenty pongs
    go out in one frame (one write, issue 26), in the order asked, each one whole."""
    idents = [2**52 - 7 * i for i in range(20)]  # large ids: a cut or merged number shows

    async def scenario() -> list[str]:
        me = await Client.connect(server.ws_url, "Turns")
        await me.expect("lobby_chat")  # the hello is answered whole
        ws = me.ws
        for ident in idents:
            ws.protocol.send_text(json.dumps({"type": "ping", "id": ident}).encode())
        ws.transport.write(b"".join(ws.protocol.data_to_send()))  # one write, one read there
        pongs: list[int] = []
        while len(pongs) < len(idents):
            message = await me.recv()
            if message["type"] == "pong":
                pongs.append(message["id"])
        assert pongs == idents, "every pong, in the order of the pings, its id intact"
        await me.close()
        return [frame for frame in me.frames if '"pong"' in frame]

    with_pongs = asyncio.run(scenario())
    assert len(with_pongs) == 1, "one frame for what one turn of the loop sent"
    assert [m["id"] for m in messages(with_pongs[0]) if m["type"] == "pong"] == idents
