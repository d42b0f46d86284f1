"""A table's log in the store: each move's write, what happens while the store cannot write
(the table pauses, its members are told in their language) and when a write fails for good
(the table closes). A table never runs ahead of its log; this layer is the driver's recorder,
below the driver so that the driver can wait for it.
"""

from __future__ import annotations

import asyncio

from cardroom.i18n import _, use_language
from cardroom.protocol import JSON
from cardroom.protocol.record import Move
from cardroom.server.room.state import PLAYING
from cardroom.server.room.tell import Telling
from cardroom.server.wire import error


class Journaling(Telling):
    """The store's side of a table in play: its writes, its pauses, its answers after the disk."""

    def forget(self) -> asyncio.Future[None] | None:
        """The table closes: a game left unfinished is marked abandoned. The removal of its row,
        to await before the table is let go in a cluster (None: nothing stored)."""
        store = self.lobby.store
        if store is None or self.guide is not None:  # a guided game is never stored
            return None
        if self.game_id is not None and self.table is not None and not self.table.over:
            store.records.abandon_game(self.game_id, self.table.now, self.fence)
        return store.records.drop_room(self.id, self.fence)

    def _logged(self) -> int:
        """How many moves this game's log holds: the next move's place in it."""
        return len(self.driver.run_info.moves) if self.driver is not None else 0

    def _record(self, move: Move) -> None:
        """The driver's recorder, told of each move just after adding it to the log."""
        store = self.lobby.store
        if store is not None and self.game_id is not None and self.guide is None:
            seq = self._logged() - 1
            self.last_write = store.journal.move(
                self.game_id, seq, move.at, move.player, move.action, self.fence
            )
            self.last_write.add_done_callback(self._written)

    def _written(self, done: asyncio.Future[None]) -> None:
        """A move's write ended: one the store refused for good leaves a log that cannot be
        made whole, so the table closes (the game is marked abandoned)."""
        if done.cancelled() or done.exception() is None or self.id not in self.lobby.rooms:
            return
        for pid in self.members():
            self._notify(pid, "game_not_saved")
            self.send_to(pid, {"type": "table_closed", "table": self.id})
            player = self.lobby.players.get(pid)
            if player is not None:
                player.tables.discard(self.id)  # back in the lobby, where table lists go
        self.lobby.close_room(self)

    def _watch_store(self) -> None:
        store = self.lobby.store
        if store is not None:
            store.journal.watchers.add(self._store_failing)
            if store.journal.failing:
                self._store_failing(True)

    def _store_failing(self, failing: bool) -> None:
        """The journal's watcher: pause while it cannot write, go on when it has caught up."""
        if failing and self.paused_at is None and self.state == PLAYING:
            self.paused_at = self.clock()
            for pid in self.members():
                self._notify(pid, "table_paused")
        elif not failing and self.paused_at is not None:
            self.t0 += self.clock() - self.paused_at  # the pause was no play time
            self.paused_at = None
            if self.state == PLAYING:
                for pid in self.members():
                    self._notify(pid, "table_resumed")
        self.wake.set()

    def _notify(self, player_id: str, code: str) -> None:
        """Tell one member what happens to the table, in their language."""
        player = self.lobby.players.get(player_id)
        if player is None or player.connection is None or not self._sure():
            return
        with use_language(player.lang):
            text = {
                "table_paused": _(
                    "The server cannot save the game right now: the table is paused until it can."
                ),
                "table_resumed": _("The game is saved again: play goes on."),
                "game_not_saved": _("This game could not be saved: the table is closed."),
            }[code]
        player.connection.send({"type": "notice", "table": self.id, "code": code, "message": text})

    def _when_saved(self, player_id: str, message: JSON, began: float | None = None) -> None:
        """Send `message` once the newest move is on disk; say so if it could not be saved.
        `began`: when the action it acknowledges was taken up (`time.perf_counter()`), for
        the server's own measure of its acknowledgements (`Lobby.latency`)."""
        store = self.lobby.store
        pending = self.last_write
        if store is None or not store.durable or pending is None:
            self.send_to(player_id, message)
            if began is not None:
                self.lobby.latency.acknowledged(began)
            return

        def saved(done: asyncio.Future[None]) -> None:
            self.answers_due -= 1
            if done.cancelled() or done.exception() is not None:
                self.send_to(
                    player_id,
                    error("not_saved", _("The server could not save that action."), ref=message.get("ref")),
                )
            else:
                self.send_to(player_id, message)
                if began is not None:
                    self.lobby.latency.acknowledged(began)

        self.answers_due += 1
        if pending.done() and self.answers_due == 1:
            saved(pending)
        else:  # a done future's callback comes after those its result scheduled: in order
            pending.add_done_callback(saved)
