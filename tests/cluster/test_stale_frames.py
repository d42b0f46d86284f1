"""An edge and a stale owner (issue 22): a node that took a table over drops what the table's
old owner, paused past its lease and not yet aware, still sends of it to the players connected
here (cardroom/server/relay.py, `Relay.outgoing`); what it sends of its other tables goes on."""

from __future__ import annotations

import json
import time

from cardroom.games import find_game
from cardroom.server.connection import Connection, Player
from cardroom.server.lobby import Lobby
from cardroom.server.room import Room
from cardroom.server.wire import encode


def test_an_edge_drops_what_another_node_still_sends_of_a_table_it_owns_now() -> None:
    lobby = Lobby()  # node B's
    room = Room(lobby, find_game("kittens"), 3, {}, "host", False, "normal", time.monotonic)
    lobby.rooms[room.id] = room  # B took this table over from node A
    eve = Player("eve", "Eve", "token-eve", "en", connection=Connection(None))  # connected to B
    lobby.players[eve.id] = eve
    stale = {"type": "events", "table": room.id, "v": 40, "events": [{"event": "game_over", "winner": 1}]}
    other = {"type": "events", "table": "at-a", "v": 3, "events": []}
    frames = [encode(stale), encode(other)]
    lobby.relay.outgoing(
        {
            "type": "relay_out",
            "node": "node-a",
            "frames": [["eve", len(data)] for data in frames],
            "tables": {"eve": [room.id, "at-a"]},
            "body": b"".join(frames),
        }
    )
    assert eve.connection is not None
    assert [json.loads(data) for data in eve.connection.pending] == [other]  # A's word on B's table: dropped
    assert eve.away == {"at-a": "node-a"}  # her messages for B's table stay at B
