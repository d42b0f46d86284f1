"""The compiled hot path (`cardroom.native`, issue 16): the same games as the sources, and never
a build of other sources than today's."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from cardroom import native
from cardroom.native_build import build

ROOT = Path(__file__).resolve().parents[1]

GAMES = """
import json
from cardroom import native
from cardroom.drive.simulate import simulate
from cardroom.games import find_game
from cardroom.games.kittens import GAME
kittens = simulate(find_game("kittens"), 4, 40, seed=3, levels=["random"]).to_json()
mixed = simulate(find_game("kittens"), 5, 10, seed=8, levels=["random", "easy", "normal", "hard", "random"]).to_json()
table = GAME.new_table(3, {}, 11)
copy = table.copy()
for t in (kittens, mixed):
    for key in ("seconds", "games_per_s", "actions_per_s"):
        del t[key]
burrito = narrated_burrito()
sent = fanned_out()
print(json.dumps([native.active(), kittens, mixed, copy.snapshot() == table.snapshot(), burrito, sent]))
"""

BURRITO = """
from cardroom.bots import make_bot
from cardroom.drive.virtual import VirtualDriver
from cardroom.games.burrito import GAME as BURRITO_GAME
from cardroom.narrate.narrator import Narrator
from cardroom.narrate.speech import Digest


def narrated_burrito():
    # What a server's table of five sends its members: each seat's view, each event narrated for
    # each seat in two languages with its priority, the background folded into digests.
    table = BURRITO_GAME.new_table(5, {}, 21)
    narrator, names, out = Narrator("burrito"), [f"N{i}" for i in range(5)], []
    digests = {seat: Digest(0) for seat in [*range(5), None]}

    def listener(now, events):
        said, seats = {}, [*range(5), None]
        views = table.views(seats)
        for seat in seats:
            heard = [e for e in (ev.for_seat(seat) for ev in events) if e is not None]
            ranks = narrator.priorities(heard, seat, views[seat])
            folds = narrator.folds(heard, seat, views[seat], ranks)
            digests[seat].add(folds)
            summary = digests[seat].take(now) if digests[seat].due(now) else None
            for lang in ("en", "fr"):
                lines = narrator.lines(heard, seat, names, views[seat], lang, ranks, said)
                said_of = narrator.summary(summary, seat, names, lang) if summary else ""
                out.append([seat, lang, heard, views[seat], lines, said_of])

    bots = {i: make_bot("burrito", i, "normal", 30 + i) for i in range(5)}
    VirtualDriver(table, bots, BURRITO_GAME.action_json, listener).run()
    return out


def fanned_out():
    # What a server's table of four players (two languages) and a spectator is sent, byte for byte.
    import time
    from cardroom.server.connection import Connection, Player
    from cardroom.server.lobby import Lobby
    from cardroom.server.room import Room, Seat

    lobby = Lobby()
    room = Room(lobby, BURRITO_GAME, 4, {}, "p0", False, "normal", time.monotonic)
    room.id = "table"  # a new room's is random
    room.table = table = BURRITO_GAME.new_table(4, {}, 17)
    for pid, lang in (("p0", "en"), ("p1", "it"), ("p2", "en"), ("p3", "it"), ("w", "nl")):
        lobby.players[pid] = Player(pid, pid, "t-" + pid, lang, connection=Connection(None))
    for i in range(4):
        room.seats[i] = Seat(name=f"N{i}", player=f"p{i}")
    room.spectators.add("w")
    out = []

    def listener(now, events):
        room._events(now, events)
        for pid in room.members():
            connection = lobby.players[pid].connection
            out.extend(data.decode() for data in connection.pending)
            connection.pending = []

    bots = {i: make_bot("burrito", i, "normal", 40 + i) for i in range(4)}
    VirtualDriver(table, bots, BURRITO_GAME.action_json, listener).run()
    return out
"""


def _play(pure: bool) -> list[object]:
    env = {k: v for k, v in os.environ.items() if k != "CARDROOM_PURE"}
    if pure:
        env["CARDROOM_PURE"] = "1"
    out = subprocess.run(
        [sys.executable, "-c", BURRITO + GAMES], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    ).stdout
    result: list[object] = json.loads(out.strip().splitlines()[-1])
    return result


def test_compiled_modules_play_the_same_games_as_the_sources() -> None:
    """`make setup` compiles; built here too when it has not been. The same random and heuristic
    games, statistics and all, compiled and from the sources; the same burrito game told to
    each seat of a server's table (views, narration, priorities, summaries); and the same bytes
    sent to each member of one (the fan-out)."""
    assert build(), "mypyc could not compile the hot path (see stderr)"
    compiled, pure = _play(pure=False), _play(pure=True)
    assert compiled[0] == list(native.MODULES) and pure[0] == []
    assert compiled[1:] == pure[1:]
    assert compiled[3] is True
    assert len(compiled[5]) > 1000


def test_a_build_of_other_sources_is_never_loaded(tmp_path: Path) -> None:
    """An edited source (here: a manifest that records another digest), a module missing from
    the build or a build for another interpreter: the sources run."""
    assert build()
    folder = tmp_path / "native"
    shutil.copytree(native.BUILD, folder)
    assert native.current(folder) is not None
    manifest = json.loads((folder / "manifest.json").read_text())

    def with_manifest(change: dict[str, object]) -> dict[str, Path] | None:
        (folder / "manifest.json").write_text(json.dumps({**manifest, **change}))
        return native.current(folder)

    edited = dict(manifest["modules"])
    edited["cardroom.games.kittens.table"] = "0" * 64
    assert with_manifest({"modules": edited}) is None
    fewer = dict(manifest["modules"])
    del fewer["cardroom.drive.virtual"]
    assert with_manifest({"modules": fewer}) is None
    assert with_manifest({"suffix": ".cpython-312-x86_64-linux-gnu.so"}) is None
    assert with_manifest({}) is not None
    (folder / ("cardroom.games.kittens.view" + manifest["suffix"])).unlink()
    assert native.current(folder) is None
