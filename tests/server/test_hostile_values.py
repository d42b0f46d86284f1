"""Issue 22, critical: every field of every client message is bounded at the edge.

A `hello` whose `lang` did not fit `players.lang VARCHAR(8)` was stored unchecked; on
PostgreSQL the journal then retried that write for ever and every table of the node paused.
Now each value out of bounds (a language that is not one of the six, an overlong or non-ASCII
table id, a NUL byte in a token, a number past what a browser or a BIGINT holds) gets a
`bad_message` refusal naming the field, changes nothing, and the connection stays.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from sqlalchemy import select

from cardroom.i18n import LANGUAGES
from cardroom.server.wire import PROTOCOL_VERSION
from cardroom.store.db import create_engine
from cardroom.store.schema import games, players
from tests.databases import empty_postgres
from tests.server.live import Client, LiveServer, run_server

SLOW_KITTENS = {"turn_ms": 60_000, "bot_think_ms": 600_000}  # nothing moves but the people
HOSTILE_HELLO = {"type": "hello", "protocol": PROTOCOL_VERSION, "name": "Mallory", "lang": "x" * 20}


async def _playing(client: Client) -> str:
    """A kittens table of `client` and a bot, started: its id."""
    await client.send(
        {"type": "create_table", "game": "kittens", "seats": 2, "bots": 1, "options": SLOW_KITTENS}
    )
    created = await client.expect("table")
    await client.send({"type": "start", "table": created["table"]})
    await client.expect("table", state="playing", table=created["table"])
    return str(created["table"])


async def _refused_then_welcome(url: str, hostile: dict[str, Any], name: str) -> dict[str, Any]:
    """Send `hostile` as the hello: its refusal; then the same connection says a proper hello."""
    client = await Client.connect_raw(url, hostile)
    refusal = await client.expect("error")
    await client.send({"type": "hello", "protocol": PROTOCOL_VERSION, "name": name, "lang": "fr"})
    await client.expect("welcome")
    # A guest's row is written once they sit down (docs/security.md): Mallory hosts a table.
    await client.send({"type": "create_table", "game": "kittens", "seats": 2})
    await client.expect("table")
    await client.close()
    return refusal


def test_a_hostile_hello_pauses_no_table_on_postgresql() -> None:
    url = empty_postgres()

    async def scenario(server: LiveServer) -> tuple[dict[str, Any], list[dict[str, Any]], list[Any]]:
        anna = await Client.connect(server.ws_url, "Anna")
        first = await _playing(anna)
        refusal = await _refused_then_welcome(server.ws_url, HOSTILE_HELLO, "Mallory")
        # A new game starts (a failing journal answers store_unavailable), the first goes on.
        await _playing(anna)
        await anna.send({"type": "act", "table": first, "action": {"do": "draw"}, "ref": 1})
        async with asyncio.timeout(30):  # an ack, or "not your turn": a paused table refuses it
            while (await anna.recv()).get("ref") != 1:
                pass
        await anna.close()
        engine = create_engine(url)
        try:
            async with engine.connect() as conn:
                rows = list((await conn.execute(select(players.c.name, players.c.lang))).all())
        finally:
            await engine.dispose()
        return refusal, anna.inbox, rows

    with run_server({"CARDROOM_DB": url}) as server:
        refusal, seen, rows = asyncio.run(scenario(server))
    assert refusal["code"] == "bad_message" and "lang" in refusal["message"], refusal
    codes = [m.get("code") for m in seen if m["type"] in ("notice", "error", "rejected")]
    assert "table_paused" not in codes and "store_unavailable" not in codes, codes
    assert seen[-1]["type"] in ("ack", "rejected"), seen[-1]
    assert sorted((r.name, r.lang) for r in rows) == [("Anna", "en"), ("Mallory", "fr")]
    assert "the store cannot write" not in server.log and "for good" not in server.log, server.log


REFUSE_GAME = """
CREATE FUNCTION refuse_moves_of() RETURNS trigger AS $$
BEGIN
  IF NEW.game_id = '{game}' THEN
    RAISE EXCEPTION 'this game takes no more moves' USING ERRCODE = 'invalid_parameter_value';
  END IF;
  RETURN NEW;
END $$ LANGUAGE plpgsql
---
CREATE TRIGGER refuse_moves BEFORE INSERT ON moves FOR EACH ROW EXECUTE FUNCTION refuse_moves_of()
"""
"""A data error (SQLSTATE 22023) for every move of one game: asyncpg's plain DBAPIError."""


async def _answer(client: Client, ref: int) -> dict[str, Any]:
    """The answer to the action numbered `ref` (an ack, a rejection or an error)."""
    async with asyncio.timeout(30):  # bounds the wait: a move the journal retried for ever never had one
        while True:
            message = await client.recv()
            if message.get("ref") == ref:
                return message


def test_a_move_postgresql_refuses_for_good_is_refused_and_other_tables_go_on() -> None:
    """The journal's side: a move the database refuses for good gets `not_saved`, its table
    closes, and the table next to it plays on unpaused."""
    url = empty_postgres()

    async def scenario(server: LiveServer) -> tuple[str, dict[str, Any], dict[str, Any], Client, Client]:
        anna = await Client.connect(server.ws_url, "Anna")
        bob = await Client.connect(server.ws_url, "Bob")
        doomed = await _playing(anna)
        other = await _playing(bob)
        engine = create_engine(url)
        try:
            game = None
            async with asyncio.timeout(30):  # the game's row is written by the journal, soon after the start
                while game is None:
                    async with engine.connect() as conn:
                        game = (
                            await conn.execute(select(games.c.id).where(games.c.room_id == doomed))
                        ).scalar()
                    await asyncio.sleep(0.05)
            async with engine.begin() as conn:
                for statement in REFUSE_GAME.format(game=game).split("---"):
                    await conn.exec_driver_sql(statement)
        finally:
            await engine.dispose()
        await anna.send({"type": "act", "table": doomed, "action": {"do": "draw"}, "ref": 1})
        refused = await _answer(anna, 1)
        await bob.send({"type": "act", "table": other, "action": {"do": "draw"}, "ref": 2})
        answered = await _answer(bob, 2)
        await anna.close()
        await bob.close()
        return doomed, refused, answered, anna, bob

    with run_server({"CARDROOM_DB": url}) as server:
        doomed, refused, answered, anna, bob = asyncio.run(scenario(server))
    assert refused["type"] == "error" and refused["code"] == "not_saved", refused
    assert [m["code"] for m in anna.inbox if m["type"] == "notice"] == ["game_not_saved"]
    assert {"type": "table_closed", "table": doomed} in anna.inbox
    assert answered["type"] in ("ack", "rejected"), answered
    assert not [m for m in bob.inbox if m["type"] == "notice"], "the other table never paused"
    assert server.log.count("for good") == 1 and "this game takes no more moves" in server.log, server.log
    assert "the store cannot write" not in server.log


def test_a_hello_in_each_of_the_six_languages_is_welcomed(server: LiveServer) -> None:
    async def scenario() -> list[str]:
        named = []
        for lang in LANGUAGES:
            client = await Client.connect_raw(
                server.ws_url,
                {"type": "hello", "protocol": PROTOCOL_VERSION, "name": f"Polyglot {lang}", "lang": lang},
            )
            named.append((await client.expect("welcome"))["name"])
            await client.close()
        return named

    assert asyncio.run(scenario()) == [f"Polyglot {lang}" for lang in LANGUAGES]


@pytest.mark.parametrize(
    ("field", "hello"),
    [
        ("lang", {"lang": "x" * 20}),
        ("lang", {"lang": "en-US"}),
        ("token", {"token": "forged\x00token"}),
        ("session", {"session": "s" * 1000}),
        ("name", {"name": "N" * 200}),
        ("protocol", {"protocol": 2**63}),
    ],
)
def test_a_hello_out_of_bounds_is_refused_and_the_connection_stays(
    server: LiveServer, field: str, hello: dict[str, Any]
) -> None:
    hostile = {"type": "hello", "protocol": PROTOCOL_VERSION, "name": "Eve", **hello}
    name = f"Eve {field} {len(json.dumps(hello))}"
    refusal = asyncio.run(_refused_then_welcome(server.ws_url, hostile, name))
    assert refusal["code"] == "bad_message" and f"$.{field}" in refusal["message"], refusal


@pytest.mark.parametrize(
    ("field", "message"),
    [
        ("table", {"type": "join", "table": "t" * 100}),
        ("table", {"type": "spectate", "table": "table\x00"}),
        ("game", {"type": "create_table", "game": "kittens\x00", "seats": 2}),
        (
            "bot_level",
            {"type": "create_table", "game": "kittens", "seats": 2, "bots": 1, "bot_level": "é" * 40},
        ),
        ("code", {"type": "join", "table": "abc", "code": "c" * 100}),
        ("seat", {"type": "kick", "table": "abc", "seat": 2**63 - 1}),
        ("ref", {"type": "act", "table": "abc", "action": {"do": "draw"}, "ref": 2**60}),
        ("since", {"type": "resume", "table": "abc", "since": -(2**62)}),
        ("card", {"type": "query", "table": "abc", "what": "card", "card": "defuse\n"}),
        ("text", {"type": "chat", "text": "x" * 5000}),
    ],
)
def test_a_message_out_of_bounds_is_refused_and_changes_nothing(
    server: LiveServer, field: str, message: dict[str, Any]
) -> None:
    async def scenario() -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
        client = await Client.connect(server.ws_url, f"Bounds {abs(hash(json.dumps(message))) % 10_000}")
        await client.send({"type": "list_tables"})
        before = await client.expect("tables")
        await client.send(message)
        refusal = await client.expect("error")
        await client.send({"type": "list_tables"})
        after = await client.expect("tables")
        await client.close()
        return refusal, before, after

    refusal, before, after = asyncio.run(scenario())
    assert refusal["code"] == "bad_message" and f"$.{field}" in refusal["message"], refusal
    assert after == before, "nothing changed"
