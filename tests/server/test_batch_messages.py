"""What each member of a table receives with every batch, byte for byte, is what the plain
definition of a batch builds: for each member, the events as their seat may know them
(`Event.for_seat`), their seat's view (`Table.view`), each event narrated for their seat in
their language with its priority, in the game's order for a batch's lines (kittens' `arrange`,
burrito's `ANSWERS_FIRST`), and their seat's summary of the background when one is due (none
with the batch that ends a burrito round, which empties the digest).

The server builds these a faster way (`fanout.hear`: the public forms and the views' public part
once per batch, one priority per event and seat for the narration and the digest, one message
per seat and language); this holds it to the plain way over many seeded bot games of both
games, with members in several languages and spectators, so that no speed-up changes a byte a
client reads or lets a seat hear another's secret.
"""

from __future__ import annotations

import importlib
import time
from collections import Counter
from typing import Any

import pytest

from cardroom.bots import make_bot
from cardroom.drive.virtual import VirtualDriver
from cardroom.games import find_game
from cardroom.i18n import elide, use_language
from cardroom.narrate.speech import Digest, Fold, Priority, answers_first
from cardroom.protocol import JSON, Event
from cardroom.server.connection import Connection, Player
from cardroom.server.lobby import Lobby
from cardroom.server.room import Room, Seat
from cardroom.server.wire import encode

SEAT_LANGUAGES = ["en", "fr", "it", "de", "nl", "es"]
SPECTATORS = {"watcher-en": "en", "watcher-es": "es", "watcher-en-2": "en"}


class PlainBatches:
    """The messages of a batch built the plain way, member by member, with digests of its own."""

    def __init__(self, room: Room) -> None:
        self.room = room
        self.module: Any = importlib.import_module(f"cardroom.narrate.{room.game.name}")
        self.digests: dict[int | None, Digest] = {}

    def message(
        self, now: int, events: list[Event], pid: str, summaries: dict[int | None, Any]
    ) -> bytes | None:
        room, module = self.room, self.module
        assert room.table is not None
        seat = room.seat_of(pid)
        lang = room.lobby.players[pid].lang
        names = room.names()
        heard = [e for e in (ev.for_seat(seat) for ev in events) if e is not None]
        view = room.table.view(seat)
        if seat not in summaries:  # each seat's digest hears the batch once
            folds: list[Fold] = []
            for e in heard:
                if module.priority(e, seat, view) == Priority.BACKGROUND:
                    fold = module.fold(e, seat)
                    if fold is not None:
                        folds.append(fold)
            digest = self.digests.setdefault(seat, Digest(now))
            digest.add(folds)
            if any(e["event"] in getattr(module, "CLOSES_DIGEST", ()) for e in heard):
                digest.take(now)  # a burrito round's end: its background is news no more
                summaries[seat] = None
            else:  # a summary due while the seat fights or a countdown runs waits for play
                held = bool(heard) and getattr(module, "holds_summary", lambda *_: False)(seat, view)
                summaries[seat] = digest.take(now) if digest.due(now) and not held else None
        if not heard:
            return None
        said: list[tuple[Priority, list[str], JSON]] = []
        with use_language(lang):
            for e in heard:
                lines = [elide(line) for line in module.narrate(e, seat, names, view)]
                if lines:
                    said.append((module.priority(e, seat, view), lines, e))
            if hasattr(module, "arrange"):  # the game's order for a batch's lines
                said = module.arrange(said)
            texts = [line for _, lines, _ in said for line in lines]
            priority = [int(rank) for rank, lines, _ in said for _ in lines]
            if getattr(module, "ANSWERS_FIRST", False):
                texts, priority = answers_first(texts, priority)
            counts: Counter[Fold] | None = summaries[seat]
            said = elide(module.summary(counts, seat, names)) if counts else ""
        message: JSON = {
            "type": "events",
            "table": room.id,
            "v": room.version,
            "at": now,
            "events": heard,
            "texts": texts,
            "priority": priority,
            "urgent": [p == Priority.ANSWER for p in priority],
            "view": view,
        }
        if said:
            message["summary"] = said
        return encode(message)


def play(game_name: str, players: int, seed: int, options: JSON | None = None) -> Counter[str]:
    """One seeded bot game whose members are people in several languages and spectators; every
    batch each receives is checked against the plain way. What the game showed, counted."""
    game = find_game(game_name)
    lobby = Lobby()
    room = Room(lobby, game, players, options or {}, "p0", False, "normal", time.monotonic)
    room.table = table = game.new_table(players, options or {}, seed)
    members = {f"p{i}": SEAT_LANGUAGES[i % len(SEAT_LANGUAGES)] for i in range(players)} | SPECTATORS
    for pid, lang in members.items():
        lobby.players[pid] = Player(pid, pid, "token-" + pid, lang, connection=Connection(None))
    for i in range(players):
        room.seats[i] = Seat(name=f"Name{i}", player=f"p{i}")
    room.spectators.update(SPECTATORS)
    plain = PlainBatches(room)
    seen: Counter[str] = Counter()

    def listener(now: int, events: list[Event]) -> None:
        room._events(now, events)
        summaries: dict[int | None, Any] = {}
        for pid in room.members():
            connection = lobby.players[pid].connection
            assert connection is not None
            sent, connection.pending = connection.pending, []
            expected = plain.message(now, events, pid, summaries)
            assert sent == ([] if expected is None else [expected]), (pid, events)
            seen["messages"] += len(sent)
            seen["summaries"] += bool(sent) and b'"summary"' in sent[0]
        seen["secrets"] += any(ev.secret for ev in events)
        seen["hidden"] += any(not ev.public for ev in events)
        seen["behind_back"] += any(ev.kind == "behind_back" for ev in events)

    bots = {
        i: make_bot(game_name, i, ["normal", "hard", "easy"][i % 3], seed * 10 + i) for i in range(players)
    }
    VirtualDriver(table, bots, game.action_json, listener).run()
    assert table.over
    return seen


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_kittens_members_receive_what_the_plain_way_builds(players: int) -> None:
    seen: Counter[str] = Counter()
    for seed in range(6):
        seen += play("kittens", players, 500 + 10 * players + seed)
    assert seen["messages"] > 300 and seen["secrets"] > 10 and seen["hidden"] > 0, seen


@pytest.mark.parametrize("players", [2, 4, 6])
def test_burrito_members_receive_what_the_plain_way_builds(players: int) -> None:
    # Two players, or the small room: a first throw goes behind the back, seen by its thrower only.
    options = {"variants": ["small_room"]} if players == 4 else {}
    seen = play("burrito", players, 700 + players, options)
    assert seen["messages"] > 1000 and seen["secrets"] > 50 and seen["summaries"] > 0, seen
    assert seen["behind_back"] > 0 or players == 6, seen
