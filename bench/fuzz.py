"""Protocol fuzzer: hypothesis-made messages and garbage frames against a real server process.

Messages are generated from the typed wire structs (`cardroom.server.wire`): every client
message type, its fields filled with plausible and hostile values (known and unknown table
ids, odd seats, random actions and options), some with a field dropped or given a value of
the wrong type; and raw frames: random text, random JSON, binary frames, frames over the size
cap, deeply nested JSON. One fuzzing connection sends them, one at a time, while two other
players watch: Ann, seated at a started game waiting for her move (so her table is silent
unless someone changes it), and Ben, host of a waiting table, in the lobby. Checked after each
frame:

- the server is up and the fuzzing connection still open (no crash; no close but by name);
- a refused frame (answered with `error` or `rejected`) changed nothing: Ann and Ben heard
  nothing because of it, and the server's table and player counts did not move.

At the end Ann's game still plays: her move is acknowledged. `python -m bench.fuzz --examples N`
prints the counts; tests/server/test_fuzz.py runs a bounded number in `make test`.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import seed as with_seed
from hypothesis import strategies as st

from cardroom.server import wire
from cardroom.server.process import LiveServer, run_server
from tests.server.live import Client

QUIET = ("ping", "pong", "lag")
"""What the server sends on its own (its lag pings): not a change."""

VERBS = ["draw", "play", "nope", "defuse", "insert", "give", "reorder", "discard", "set", "call",
         "catch", "dodge", "grab", "throw", "dance"]  # fmt: skip

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**40), 2**40)
    | st.floats(allow_nan=False)
    | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)


@dataclass
class Counts:
    frames: Counter[str] = field(default_factory=Counter)
    answers: Counter[str] = field(default_factory=Counter)
    refused: int = 0
    accepted: int = 0
    crashes: int = 0
    changed_by_refused: int = 0
    problems: list[str] = field(default_factory=list)

    def line(self) -> str:
        kinds = ", ".join(f"{k} {n}" for k, n in sorted(self.frames.items()))
        codes = ", ".join(f"{k} {n}" for k, n in self.answers.most_common())
        return (
            f"fuzz: {sum(self.frames.values())} frames ({kinds}); {self.accepted} accepted, "
            f"{self.refused} refused ({codes}); crashes {self.crashes}, "
            f"state changes from refused messages {self.changed_by_refused}"
        )


class Harness:
    """The server, the fuzzing connection and the two watchers, on one event loop."""

    def __init__(self, server: LiveServer, loop: asyncio.AbstractEventLoop) -> None:
        self.server = server
        self.loop = loop
        self.counts = Counts()
        self.tables: list[str] = []
        self.marker = 0

    async def setup(self) -> None:
        url = self.server.ws_url
        self.ann = await Client.connect(url, "Ann")
        await self.ann.send(
            {
                "type": "create_table",
                "game": "kittens",
                "seats": 2,
                "bots": 1,
                "options": {"turn_ms": 600_000},  # the longest a table may ask for: Ann's turn waits for her
            }
        )
        self.ann_table = (await self.ann.expect("table"))["table"]
        await self.ann.send({"type": "start", "table": self.ann_table})
        await self.ann.expect("table", state="playing")
        view = (await self.ann.expect("events", table=self.ann_table))["view"]
        assert view["turn"] == view["seat"], "Ann starts: her table waits for her"
        self.ben = await Client.connect(url, "Ben")
        await self.ben.send({"type": "create_table", "game": "burrito", "seats": 4, "private": True})
        self.ben_table = (await self.ben.expect("table"))["table"]
        await self.ben.send({"type": "leave", "table": self.ben_table})  # Ben watches the lobby...
        await self.ben.expect("tables")
        await self.ben.send({"type": "create_table", "game": "burrito", "seats": 4})
        self.ben_table = (await self.ben.expect("table"))["table"]  # ...from a table of his own
        self.fuzzer = await Client.connect(url, "Fuzz")
        self.tables = [self.ann_table, self.ben_table]
        await self._drain(self.ann)
        await self._drain(self.ben)

    async def _drain(self, client: Client) -> list[dict[str, Any]]:
        """Everything `client` got until the answer to a ping sent now (the server answers in order)."""
        self.marker += 1
        await client.send({"type": "ping", "id": self.marker})
        got = []
        while True:
            message = await client.recv(20)
            if message["type"] == "pong" and message.get("id") == self.marker:
                return got
            if message["type"] == "ping":
                await client.send({"type": "pong", "id": message["id"]})
            if message["type"] not in QUIET:
                got.append(message)

    def check(self, kind: str, frame: str | bytes) -> None:
        self.loop.run_until_complete(self._check(kind, frame))

    async def _check(self, kind: str, frame: str | bytes) -> None:
        counts = self.counts
        counts.frames[kind] += 1
        before = self.server.health()
        try:
            await self.fuzzer.ws.send(frame)
            answers = await self._drain(self.fuzzer)
        except Exception as exc:  # the connection closed, or the server stopped answering
            counts.crashes += 1
            counts.problems.append(f"{kind} {frame[:200]!r}: {exc!r}")
            self.fuzzer = await Client.connect(self.server.ws_url, token=self.fuzzer.token)
            return
        for message in answers:
            if message["type"] == "table" and message.get("table") not in self.tables:
                self.tables.append(message["table"])
        refusals = [m for m in answers if m["type"] in ("error", "rejected")]
        heard = await self._drain(self.ann) + await self._drain(self.ben)
        if refusals:
            counts.refused += 1
            counts.answers.update(m["code"] for m in refusals)
            after = self.server.health()
            mine = [m for m in heard if _about(m) not in self.tables[2:]]
            if mine or (after["tables"], after["players_online"]) != (
                before["tables"],
                before["players_online"],
            ):
                counts.changed_by_refused += 1
                counts.problems.append(f"refused {frame[:200]!r} yet others heard {mine[:3]}")
        else:
            counts.accepted += 1
            counts.answers.update(["(accepted)"])

    def finish(self) -> None:
        self.loop.run_until_complete(self._finish())

    async def _finish(self) -> None:
        """Ann's game went on untouched: her move is acknowledged."""
        await self.ann.send({"type": "act", "table": self.ann_table, "action": {"do": "draw"}, "ref": 1})
        answer = await self.ann.expect("ack", ref=1, timeout=20)
        assert answer["table"] == self.ann_table
        for client in (self.ann, self.ben, self.fuzzer):
            await client.close()


def _about(message: dict[str, Any]) -> Any:
    table = message.get("table")
    return table.get("id") if isinstance(table, dict) else table


def messages(harness: Harness) -> st.SearchStrategy[tuple[str, str | bytes]]:
    """Frames made from the wire structs, well-formed or with one field broken."""
    # An index into the tables known now (the list grows as the fuzzer creates some): fixed
    # bounds, so that hypothesis draws the same way whatever the list holds.
    known = st.integers(0, 15).map(lambda i: harness.tables[i % len(harness.tables)])
    table_ids = known | st.text(max_size=12)
    seats = st.none() | st.integers(-3, 12) | st.integers()
    small_text = st.none() | st.text(max_size=30)
    actions = st.fixed_dictionaries({"do": st.sampled_from(VERBS)}, optional={
        "cards": st.lists(st.text(max_size=12), max_size=3), "target": seats, "card": small_text,
        "position": seats, "player": seats,
    }) | st.dictionaries(st.text(max_size=8), json_values, max_size=4)  # fmt: skip
    options = st.fixed_dictionaries({}, optional={
        "variants": json_values | st.lists(st.sampled_from(["small_room", "two_decks", "x"])),
        "turn_ms": json_values | st.integers(-5, 10**9), "countdown_ms": st.integers(-5, 10**6),
        "bruises": st.integers(-2, 40), "pile_size": st.integers(0, 60),
    }) | st.dictionaries(st.text(max_size=8), json_values, max_size=3)  # fmt: skip
    structs = st.one_of(
        st.builds(wire.Hello, protocol=st.integers(0, 3), name=st.text(max_size=30), token=small_text,
                  lang=st.sampled_from(["en", "fr", "xx"]), session=small_text),
        st.builds(wire.Ping, id=st.integers()),
        st.builds(wire.Pong, id=st.integers()),
        st.builds(wire.ListTables, page=st.integers(-2, 5)),
        st.builds(wire.CreateTable, game=st.sampled_from(["kittens", "burrito", "chess", ""]),
                  seats=seats.filter(lambda s: s is not None), options=options, bots=st.integers(-1, 12),
                  bot_level=st.none() | st.sampled_from(["easy", "normal", "hard", "god"]),
                  private=st.booleans()),
        st.builds(wire.Join, table=table_ids, code=small_text, seat=seats),
        st.builds(wire.Spectate, table=table_ids, code=small_text),
        st.builds(wire.Leave, table=table_ids),
        st.builds(wire.Start, table=table_ids),
        st.builds(wire.Kick, table=table_ids, seat=seats.filter(lambda s: s is not None)),
        st.builds(wire.AddBot, table=table_ids, seat=seats, level=small_text),
        st.builds(wire.Rematch, table=table_ids),
        st.builds(wire.Chat, text=st.text(max_size=40) | st.text(min_size=490, max_size=520), table=st.none() | table_ids),
        st.builds(wire.Act, table=table_ids, action=actions, ref=st.none() | st.integers()),
        st.builds(wire.Resume, table=table_ids, since=st.integers()),
        st.builds(wire.Query, table=table_ids, what=st.sampled_from(["turn", "counts", "card", "?"]), card=small_text),
    )  # fmt: skip

    @st.composite
    def framed(draw: Any) -> tuple[str, str | bytes]:
        struct = draw(structs)
        data = json.loads(msgspec.json.encode(struct))
        kind = data["type"]
        if draw(st.integers(0, 3)) == 0:  # break one field: drop it, or give it any JSON value
            name = draw(st.sampled_from(sorted(data)))
            if draw(st.booleans()):
                data.pop(name)
            else:
                data[name] = draw(json_values)
            kind += "*"
        return kind, json.dumps(data)

    garbage = st.one_of(
        st.text(max_size=200).map(lambda t: ("text", t)),
        st.binary(max_size=200).map(lambda b: ("binary", b)),
        json_values.map(lambda v: ("json", json.dumps(v))),
        st.integers(16 * 1024, 60 * 1024).map(lambda n: ("huge", "x" * n)),
        st.integers(100, 6000).map(lambda n: ("nested", '{"type":"act","table":"t","action":{"a":' + "[" * n + "]" * n + "}}")),
    )  # fmt: skip
    return st.one_of(framed(), framed(), framed(), framed(), garbage)


FUZZ_LIMITS = {
    # The fuzzer sends as fast as the server answers: the flood limit has its own test.
    "CARDROOM_MESSAGES_PER_S": "100000",
    "CARDROOM_MESSAGES_BURST": "100000",
}


def run(examples: int, seed: int | None = None) -> Counts:
    """Fuzz a fresh server with `examples` frames; the counts (problems listed in them)."""
    loop = asyncio.new_event_loop()
    try:
        with run_server(FUZZ_LIMITS) as server:
            harness = Harness(server, loop)
            loop.run_until_complete(harness.setup())

            @settings(
                max_examples=examples,
                deadline=None,
                database=None,
                derandomize=seed is None,
                suppress_health_check=list(HealthCheck),
                phases=[p for p in settings.default.phases if p.name != "shrink"],
            )
            @given(st.data())
            def fuzz(data: st.DataObject) -> None:
                kind, frame = data.draw(messages(harness))
                harness.check(kind, frame)

            if seed is not None:
                fuzz = with_seed(seed)(fuzz)
            fuzz()
            harness.finish()
        if "Traceback" in server.log:
            harness.counts.crashes += server.log.count("Traceback")
            harness.counts.problems.append(server.log[server.log.index("Traceback") :][:2000])
        return harness.counts
    finally:
        loop.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.fuzz", description=__doc__.split("\n\n")[0])
    parser.add_argument("--examples", type=int, default=2000, help="frames to send (default 2000)")
    parser.add_argument(
        "--seed", type=int, default=None, help="a random run with this seed (default: the fixed one)"
    )
    args = parser.parse_args(argv)
    started = time.monotonic()
    counts = run(args.examples, args.seed)
    print(f"{counts.line()} ({time.monotonic() - started:.0f} s)")
    for problem in counts.problems[:20]:
        print("  ", problem)
    return 1 if counts.crashes or counts.changed_by_refused else 0


if __name__ == "__main__":
    sys.exit(main())
