"""Issue 22, high: refused actions fill the database.

Every action reached the log whole, refused or not: one seated guest sending a `reorder` with a
16 KiB list in a loop grew the database by about 24 KB per refusal (`python -m bench.refusals`).
A refusal changes nothing, so the log keeps accepted actions only (the replay needs nothing
else), and each seat has a budget of refusals (docs/protocol.md#limits): past it, that seat is
told to wait while the rest of the table plays on.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from bench.refusals import LONG_ORDER, SLOW_TURNS, database_bytes
from cardroom.games import find_game
from cardroom.protocol.record import replay
from cardroom.store import GameRecord
from tests.databases import empty_postgres
from tests.server.live import Client, run_server
from tests.server.play import stored_game

QUIET = {**SLOW_TURNS, "defuse_ms": 120_000}
"""Nothing moves while the guest thinks, even holding an Exploding Kitten."""
WAITING = ("turn", "defusing")
REFUSALS = 60
"""Refused actions the guest sends at once: under the messages' burst (80)."""
LOG_SLACK = 256 * 1024
"""What a draw, its events and SQLite's page-sized writes may add; the refusals alone added over 1 MB."""


async def outcome(client: Client, ref: int) -> str:
    """How the action `ref` was answered: "ack", or the code of its refusal."""
    while True:
        message = await client.recv(10)
        if message.get("ref") == ref and message.get("type") in ("ack", "rejected", "error"):
            return "ack" if message["type"] == "ack" else str(message["code"])


async def quiet(guest: Client) -> dict[str, Any]:
    """The guest's last `events` once the table waits for the guest again (the bot has played)."""
    last = next(m for m in reversed(guest.inbox) if m.get("type") == "events")
    while not (last["view"].get("turn") == 0 and last["view"].get("phase") in WAITING):
        message = await guest.recv(30)
        last = message if message.get("type") == "events" else last
    return last


async def answers(client: Client, count: int) -> Counter[str]:
    """The codes of the next `count` answers to actions (`rejected` or `error`)."""
    seen: Counter[str] = Counter()
    while sum(seen.values()) < count:
        message = await client.recv(30)
        if message.get("type") in ("rejected", "error"):
            seen[message["code"]] += 1
    return seen


@pytest.mark.parametrize("database", ["sqlite", "postgresql"])
def test_refused_actions_leave_no_trace_in_the_log_and_the_game_replays(
    tmp_path: Path, database: str
) -> None:
    """Every refusal reaches the rules here (a budget larger than them all): none is logged."""
    env = {"CARDROOM_DATA": str(tmp_path)} if database == "sqlite" else {"CARDROOM_DB": empty_postgres()}
    env["CARDROOM_REFUSALS_BURST"] = str(REFUSALS + 1)
    db = f"sqlite:///{tmp_path / 'cardroom.sqlite3'}" if database == "sqlite" else env["CARDROOM_DB"]

    with run_server(env) as server:

        async def play() -> tuple[int, Counter[str], dict[str, Any], GameRecord]:
            guest = await Client.connect(server.ws_url, "Guest")
            table = (await guest.create_table("kittens", 2, bots=1, options=QUIET))["table"]
            await guest.start_to_my_turn(table)
            await asyncio.sleep(0.5)  # the start's own writes are committed
            size = database_bytes(tmp_path)
            for ref in range(REFUSALS):  # nobody is choosing: each is refused (`not_choosing`)
                action = {"do": "reorder", "order": LONG_ORDER}
                await guest.send({"type": "act", "table": table, "action": action, "ref": ref})
            codes = await answers(guest, REFUSALS)
            await guest.send({"type": "act", "table": table, "action": {"do": "draw"}, "ref": REFUSALS})
            ack = await guest.expect("ack", ref=REFUSALS)
            grown = database_bytes(tmp_path) - size
            last = await quiet(guest)
            stored = await stored_game(db, ack["game"])  # while the guest is seated (no stand-in plays)
            await guest.close()
            return grown, codes, last, stored

        grown, codes, last, stored = asyncio.run(play())

    assert codes == Counter({"not_choosing": REFUSALS})
    # The guest (seat 0) never reordered; the bot may have, having played an Alter the Future.
    guests = [m.action["do"] for m in stored.record.moves if m.player == 0]
    assert "reorder" not in guests, f"a refusal was logged: {guests}"
    if database == "sqlite":
        assert grown < LOG_SLACK, f"the database grew {grown} bytes"
    replayed = replay(find_game("kittens"), stored.record, until=last["at"])
    assert replayed.view(0)["hand"] == last["view"]["hand"]  # the log rebuilds the guest's game


def test_a_seat_past_its_refusals_waits_while_the_others_play_on() -> None:
    """Two guests at a Throw Throw Burrito table: Ada's refusals run past her budget, so her
    next actions are answered `too_many_refusals` (in words too); Bea plays on meanwhile, and
    once the budget refills Ada plays again."""
    burst = 10
    with run_server({"CARDROOM_REFUSALS_PER_S": "0.2", "CARDROOM_REFUSALS_BURST": str(burst)}) as server:

        async def play() -> None:
            ada = await Client.connect(server.ws_url, "Ada")
            options = {"countdown_ms": 300}
            await ada.send({"type": "create_table", "game": "burrito", "seats": 2, "options": options})
            table = (await ada.expect("table"))["table"]
            bea = await Client.connect(server.ws_url, "Bea")
            await bea.send({"type": "join", "table": table})
            await ada.send({"type": "start", "table": table})
            hands = {}
            for who in (ada, bea):
                while who not in hands:
                    message = await who.recv(30)
                    view = message.get("view") or {}
                    if view.get("phase") == "play":
                        hands[who] = view["hand"]

            for ref in range(burst + 10):  # no fight: each grab is refused (`no_fight`)
                await ada.send({"type": "act", "table": table, "action": {"do": "grab"}, "ref": ref})
            codes = await answers(ada, burst + 10)
            assert codes["no_fight"] >= burst and codes["too_many_refusals"] > 0, codes
            told = next(m for m in ada.inbox if m.get("code") == "too_many_refusals")
            assert told["message"] == "Too many of your actions were refused: wait a moment, then play on."

            discard = {"do": "discard", "card": hands[ada][0]}
            await ada.send({"type": "act", "table": table, "action": discard, "ref": 100})
            assert await outcome(ada, 100) == "too_many_refusals"  # even a good action waits

            other = {"do": "discard", "card": hands[bea][0]}
            await bea.send({"type": "act", "table": table, "action": other, "ref": 1})
            await bea.expect("ack", ref=1)  # the table plays on for everyone else

            ref = 101
            await ada.send({"type": "act", "table": table, "action": discard, "ref": ref})
            while await outcome(ada, ref) != "ack":  # one refusal back every 5 s: then it goes through
                await asyncio.sleep(0.3)
                ref += 1
                await ada.send({"type": "act", "table": table, "action": discard, "ref": ref})
            await ada.close()
            await bea.close()

        asyncio.run(play())
