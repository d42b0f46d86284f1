"""What the terminal client knows of a table it sits at or watches, and the game UI fed from it.

The server sends summaries, views and events; the game's own `GameUI` (the one `cardroom play`
uses) reads the view through a stand-in for the local table, so both clients share the game's
keys and hints.
"""

from __future__ import annotations

import importlib
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from cardroom.clients.terminal.ui import GameUI
from cardroom.i18n import _
from cardroom.protocol import JSON


class _Opts:
    def __init__(self, options: JSON) -> None:
        self._options = options

    def to_json(self) -> JSON:
        return dict(self._options)


class _RemoteTable:
    """What `make_ui` reads of a table, from the server's view: no local engine."""

    def __init__(self, players: int, view: JSON, options: JSON) -> None:
        self.players = players
        self.opts = _Opts(options)
        self._view = view

    def view(self, seat: int | None) -> JSON:
        return self._view


def make_game_ui(game: str, seat: int, names: Sequence[str], view: JSON, options: JSON) -> GameUI:
    """The game's own terminal UI for `seat`, fed with the server's view instead of a table."""
    module: Any = importlib.import_module(f"cardroom.clients.terminal.{game}")
    ui: GameUI = module.make_ui(seat, list(names), _RemoteTable(len(names), view, options))
    return ui


@dataclass
class TableState:
    """A table this client belongs to (seated or watching)."""

    id: str
    summary: JSON
    you: int | None = None
    is_host: bool = False
    code: str | None = None
    v: int | None = None
    view: JSON | None = None
    offset_ms: float | None = None
    ui: GameUI | None = None
    wakeups: list[int] = field(default_factory=list)
    paused: bool = False
    """Paused while the server cannot save the game (a notice says so, and every resync)."""
    ready: list[int] = field(default_factory=list)
    """Once the game is over: the seats ready for a rematch (docs/protocol.md)."""
    counting: bool = False
    """A Play now table counting down to its start by itself (said once)."""

    @property
    def game(self) -> str:
        return str(self.summary.get("game", ""))

    @property
    def state(self) -> str:
        return str(self.summary.get("state", ""))

    def names(self) -> list[str]:
        return [s.get("name") or _("Empty seat") for s in self.summary.get("seats", [])]

    def heard(self, at: int, reset: bool = False) -> None:
        """The server's play clock read `at` (ms) no later than now: the smallest offset is the truest
        (a batch resent after a reconnect arrives late); a new game restarts the clock."""
        offset = time.monotonic() * 1000 - at
        if reset or self.offset_ms is None or offset < self.offset_ms:
            self.offset_ms = offset

    def play_now(self) -> int:
        if self.offset_ms is None:
            return int(self.view.get("now", 0)) if self.view else 0
        return int(time.monotonic() * 1000 - self.offset_ms)
