"""Issue 22, critical: a write the database can never take is refused alone.

asyncpg reports a value too long for its column as a plain DBAPIError, and SQLite's driver
raises Python's own errors for a value it cannot bind (a lone surrogate, an integer past 64
bits): the journal took both for a store that is away, tried the same batch for ever, and
every table paused. Each bad value here goes in one batch between good writes, on SQLite and
on PostgreSQL: the bad one fails (where that database cannot hold it), says so once in the log,
the rest of the batch and the next batch go in, and the journal never reports `failing`.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from sqlalchemy import select

from cardroom.protocol.record import Record
from cardroom.store import SeatRecord, Store, StoreError
from cardroom.store.schema import moves, players


@dataclass(frozen=True)
class Bad:
    """One bad value: how it reaches the journal, what the log names, the databases refusing it."""

    write: Callable[[Store], asyncio.Future[None] | None]
    what: str
    refused_by: frozenset[str]


def _player(**bad: Any) -> Callable[[Store], None]:
    def write(store: Store) -> None:
        fields: dict[str, Any] = {"name": "Bad", "token_hash": "t-bad", "account_id": None, "lang": "en"}
        store.records.save_player("p-bad", **{**fields, **bad})

    return write


BOTH = frozenset({"sqlite", "postgresql"})
CASES = {
    # SQLite keeps text of any length and NUL bytes: those land there whole.
    "too long": Bad(_player(lang="x" * 20), "the row of player p-bad", frozenset({"postgresql"})),
    "NUL byte": Bad(_player(name="Bad\x00Bunny"), "the row of player p-bad", frozenset({"postgresql"})),
    "lone surrogate": Bad(_player(name="Bad\ud800"), "the row of player p-bad", BOTH),
    "wrong type": Bad(_player(account_id="seven"), "the row of player p-bad", BOTH),
    "integer out of range": Bad(
        lambda store: store.journal.move("g-bad", 0, 2**70, 0, {"do": "draw"}), "move 0 of game g-bad", BOTH
    ),
    # moves.seq is an INTEGER: 32 bits on PostgreSQL, 64 on SQLite.
    "integer past its column": Bad(
        lambda store: store.journal.move("g-bad", 2**40, 0, 0, {"do": "draw"}),
        f"move {2**40} of game g-bad",
        frozenset({"postgresql"}),
    ),
    "not JSON": Bad(
        lambda store: store.journal.move("g-bad", 0, 0, 0, {"do": b"\x00"}), "move 0 of game g-bad", BOTH
    ),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_value_the_database_cannot_hold_is_refused_alone(
    case: str, db_url: str, with_store: Any, caplog: pytest.LogCaptureFixture
) -> None:
    bad = CASES[case]
    kind = "sqlite" if db_url.startswith("sqlite") else "postgresql"
    record = Record("kittens", 2, {}, 5)

    async def go(store: Store) -> dict[str, Any]:
        heard: list[bool] = []
        store.journal.watchers.add(heard.append)
        for game_id in ("g1", "g-bad", "g2"):
            store.records.start_game(game_id, "r", record, [SeatRecord("A"), SeatRecord("B")])
        await store.journal.flush()
        good = [store.journal.move("g1", 0, 0, 0, {"do": "draw"})]
        store.records.save_player("p-before", "Anna", "t-before", None, "fr")
        refused = bad.write(store)
        store.records.save_player("p-after", "Hugo", "t-after", None, "de")
        good.append(store.journal.move("g2", 0, 0, 1, {"do": "draw"}))
        async with asyncio.timeout(30):  # bounds the wait: the old journal retried for ever
            await store.journal.flush()
        good.append(store.journal.move("g2", 1, 10, 0, {"do": "draw"}))  # the next batch
        store.records.save_player("p-later", "Sanne", "t-later", None, "nl")
        async with asyncio.timeout(30):
            await store.journal.flush()
        async with store.engine.connect() as conn:
            logged = {(r.game_id, r.seq) for r in (await conn.execute(select(moves))).all()}
            ids = {r.id for r in (await conn.execute(select(players.c.id))).all()}
        return {
            "good": [f.exception() is None for f in good],
            # The future of a move (a player row is not awaited: it has none to look at).
            "answer": None if refused is None else "failed" if refused.exception() else "written",
            "stored": "p-bad" in ids or any(game == "g-bad" for game, _ in logged),
            "logged": logged,
            "players": ids,
            "heard": heard,
        }

    with caplog.at_level(logging.ERROR, logger="cardroom.store"):
        seen = with_store(go)
    assert all(seen["good"]), "the good writes of the same batch and of the next batch went in"
    assert {("g1", 0), ("g2", 0), ("g2", 1)} <= seen["logged"]
    assert {"p-before", "p-after", "p-later"} <= seen["players"]
    assert seen["heard"] == [], "the journal never said it was failing: no table paused"
    said = [r.getMessage() for r in caplog.records if r.name == "cardroom.store"]
    if kind in bad.refused_by:
        assert not seen["stored"] and seen["answer"] in (None, "failed")
        assert len(said) == 1 and bad.what in said[0] and "for good" in said[0], said
    else:
        assert seen["stored"] and seen["answer"] in (None, "written") and said == [], (
            "this database holds the value: it lands"
        )


@pytest.mark.parametrize("wrong", ["g1\x00", "g\ud800"])
def test_a_record_id_no_game_can_have_is_no_record(wrong: str, with_store: Any) -> None:
    """`/api/records/g1%00` reached PostgreSQL, which refuses a NUL byte even to compare: the
    API answered 503, "the server cannot use its database", for a bad address."""

    async def go(store: Store) -> str:
        store.records.start_game("g1", "r", Record("kittens", 2, {}, 5), [SeatRecord("A"), SeatRecord("B")])
        await store.journal.flush()
        with pytest.raises(StoreError) as refused:
            await store.records.get(wrong)
        assert (await store.records.get("g1")).id == "g1"
        return refused.value.code

    assert with_store(go) == "no_record"


@pytest.mark.parametrize(
    "keys",
    [
        {"kittens": {"draw\x00": "d"}},
        {"kittens": {"draw": "\x1b[2J"}},
        {"k" * 5000: {"draw": "d"}},
        {"kittens": {"draw": ""}},
        {"kittens\ud800": {"draw": "d"}},
    ],
)
def test_a_key_map_with_a_name_no_page_can_show_is_refused(keys: Any, with_store: Any) -> None:
    """The key map of a profile (PUT /api/profile) is kept as JSON and shown back by the page:
    a control character, a NUL byte or a 5000-character game name is refused, nothing kept."""

    async def go(store: Store) -> tuple[str, Any]:
        anna = await store.accounts.register("Anna", "correct horse")
        with pytest.raises(StoreError) as refused:
            await store.accounts.save_profile(anna.id, {"keys": keys})
        account, _ = await store.accounts.login("Anna", "correct horse")
        return refused.value.code, account.profile["keys"]

    assert with_store(go) == ("bad_profile", {})
