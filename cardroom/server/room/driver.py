"""Driving a table's game: its start and rematch, each action, the timers and bots, the stand-ins
for people away, and the end. It hands what happened to the telling below it and the moves to
the journal; nothing below imports it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import secrets
import time
from typing import TYPE_CHECKING

from cardroom.bots.stand_in import make_stand_in
from cardroom.drive.virtual import VirtualDriver
from cardroom.i18n import _, use_language
from cardroom.protocol import JSON, CardroomError, Event, Rejected
from cardroom.protocol.record import Record
from cardroom.protocol.record import act as act_at
from cardroom.protocol.record import start as start_table
from cardroom.server.absence import seat_grace_ms
from cardroom.server.history import Batch
from cardroom.server.room.journal import Journaling
from cardroom.server.room.state import OVER, PLAYING, SEED_BITS, UNSURE_WAIT_S, WAITING, Seat
from cardroom.server.wire import error
from cardroom.store import GameRecord
from cardroom.store.errors import store_unavailable

if TYPE_CHECKING:
    from cardroom.server.connection import Player

log = logging.getLogger("cardroom.server")


class Driving(Journaling):
    """A table's game in play, on the event loop's thread."""

    def _resume(self, stored: GameRecord) -> None:
        game, record = self.game, stored.record
        table = start_table(game, record)
        for move in record.moves:
            act_at(table, move.player, game.parse_action(move.action, record.players), move.at)
        self.seed, self.game_id = record.seed, stored.id
        self.table = table
        bots = self._seated_bots(salt=len(record.moves))
        self.driver = VirtualDriver(table, bots, game.action_json, self._events, self._record)
        self.driver.run_info.moves = list(record.moves)
        self.t0 = self.clock() - table.now / 1000
        self.state = PLAYING
        self.version = 1
        for i, seat in enumerate(self.seats):
            if seat.player is not None:
                self._hold(i)
        for bot in bots.values():
            bot.notice([], self._viewer(bot.seat), table.now)
        self._watch_store()
        self._run_timers()
        if table.over:
            self._finish()

    def _run_timers(self) -> None:
        """Start the table's clock task. Its end is watched: a task that fails stops the table's
        timers and bots without a word (nothing awaits it), so its error goes to the log."""
        self.task = asyncio.create_task(self._timers())
        self.task.add_done_callback(self._timers_ended)

    def _timers_ended(self, task: asyncio.Task[None]) -> None:
        if not task.cancelled() and (error := task.exception()) is not None:
            log.error("table %s: its clock stopped", self.id, exc_info=error)

    def _sure_again(self) -> None:
        """The node knows the table is still its own: the actions held meanwhile are handled,
        in order, and members who were sent nothing meanwhile get the table afresh."""
        if self.unsent:
            self.unsent = False
            log.warning(
                "table %s goes on: its lease is this node's; %d actions held meanwhile",
                self.id,
                len(self.held),
            )
            for pid in self.members():
                self.send_to(pid, self.snapshot(pid))
        held, self.held = self.held, []
        for again in held:
            again()

    def reclaim(self, player: Player, index: int) -> JSON | None:
        """A seated player comes back (reconnect or re-join): the stand-in bot leaves."""
        seat = self.seats[index]
        seat.dropped_at = None
        if seat.standing_in and seat.player == player.id:
            seat.standing_in = False
            seat.level = None
            if self.driver is not None:
                self.driver.bots.pop(index, None)
        player.tables.add(self.id)
        away = self.absences.back(index) if seat.player == player.id else None
        if away is not None:  # before the resync, which stays the last word of a welcome
            self._welcome_back(player, index, away)
        self.changed()
        return None

    def start(self, player: Player | None) -> JSON | None:
        if player is not None and player.id != self.host:
            return error("not_host", _("Only the host can start the game."))
        if self.state == PLAYING:
            return error("already_started", _("The game has already started."))
        if self.lobby.store is not None and self.lobby.store.journal.failing:
            return error("store_unavailable", str(store_unavailable()))
        rematch, ready = self.state == OVER, {*self.ready, *([player.id] if player else [])}
        for i, seat in enumerate(self.seats):
            if seat.empty:
                self.seats[i] = Seat(name=self._bot_name(i), level=self.bot_level)
            elif rematch and seat.standing_in and seat.dropped_at is None:
                seat.standing_in = False
        self._keep_extra_time()
        self.seed = secrets.randbits(SEED_BITS)  # secret until the game is over (cardroom/protocol/rng.py)
        if self.guide is not None:
            if rematch:  # a guided game is played once: its end offers a real game instead
                return error("guide_over", _("The guided game is over: leave it for a real game."))
            table, bots = self.guide.table, self.guide.bots()
        else:
            try:
                table = self.game.new_table(len(self.seats), self.options, self.seed)
            except CardroomError as exc:
                return error("bad_options", str(exc))
            bots = self._seated_bots(salt=0)
        self.table = table
        self.game_id = secrets.token_urlsafe(9)
        self.last_write = None
        store = self.lobby.store
        if store is not None and self.guide is None:
            store.records.start_game(
                self.game_id,
                self.id,
                Record(self.game.name, len(self.seats), self.options, self.seed),
                [self._seat_record(i) for i in range(len(self.seats))],
                private=self.private,
            )
        self.driver = VirtualDriver(table, bots, self.game.action_json, self._events, self._record)
        self.t0 = self.clock()
        self.state = PLAYING
        self.ready.clear()
        if self.countdown is not None:
            self.countdown.cancel()
            self.countdown = None
        self.version += 1
        self.history.clear()
        self.refusals.clear()
        self.cues.clear()
        self.digests.clear()
        self.recaps.clear()
        self.absences.clear()
        for i, seat in enumerate(self.seats):
            if seat.player is None:
                continue
            if seat.dropped_at is not None:
                self._hold(i)
            elif rematch and seat.player not in ready:
                self._stand_in(i, permanent=False)  # the host started without them: back with `join`
        self.changed()
        for bot in bots.values():
            bot.notice([], self._viewer(bot.seat), 0)
        self._coach()
        self._watch_store()
        self.wake.set()
        if self.task is None or self.task.done():
            self._run_timers()
        return None

    def _rematch_if_ready(self) -> JSON | None:
        """The rematch starts when every player here voted for it; else everyone sees who did."""
        waiting = [
            s
            for s in self.seats
            if s.player is not None and s.dropped_at is None and s.player not in self.ready
        ]
        if self.state == OVER and self.ready and not waiting:
            return self.start(None)
        self.changed()
        return None

    def count_down(self, seconds: float) -> None:
        """A Play now table starts by itself after `seconds`, bots in the empty seats."""
        self.countdown = asyncio.get_running_loop().call_later(seconds, self._counted_down)
        self.changed()

    def _counted_down(self) -> None:
        self.countdown = None
        if self.state == WAITING and self.lobby.rooms.get(self.id) is self:
            refused = self.start(None)
            if refused is not None:  # the store away: the host starts it once it is back
                self.changed()

    def act(self, player: Player, raw: JSON, ref: int | None, began: float | None = None) -> None:
        """A person's action, stamped with the room's clock as it arrives (or, while this node is
        unsure of the table, held until it knows: `_sure`). `began`: when it was first taken up
        (a held action's), from which its acknowledgement is timed (`Lobby.latency`)."""
        if began is None:
            began = time.perf_counter()
        if self.state == PLAYING and not self._sure():
            self.held.append(lambda: self.act(player, raw, ref, began))
            return
        index = self.seat_of(player.id)
        reply: JSON
        if self.state != PLAYING or self.table is None or self.driver is None:
            reply = error("not_playing", _("No game is being played at this table."), ref=ref)
            self.send_to(player.id, reply)
            return
        if index is None:
            self.send_to(player.id, error("not_seated", _("Spectators cannot play."), ref=ref))
            return
        if self.paused_at is not None:
            message = _("The table is paused until the server can save the game again.")
            self.send_to(player.id, error("table_paused", message, ref=ref))
            return
        if self.seats[index].standing_in:
            self.reclaim(player, index)
        throttled = self.refusals.blocked(index, ref)
        if throttled is not None:
            self.send_to(player.id, throttled)
            return
        try:
            action = self.game.parse_action(raw, len(self.seats))
        except CardroomError as exc:
            self.refusals.refused(self.id, index)
            self.send_to(player.id, error("bad_action", str(exc), ref=ref))
            return
        now = self.now_ms()
        self._catch_up(now)
        if self.state != PLAYING:
            self.send_to(player.id, error("not_playing", _("The game is over."), ref=ref))
            return
        if self.guide is not None:
            with use_language(player.lang):
                why = self.guide.refusal(self.game.action_json(action), self.names())
            if why is not None:
                self.send_to(player.id, error("guide_step", why, ref=ref))
                return
        result = self.driver.submit(index, action, now)
        if isinstance(result, Rejected):
            self.refusals.refused(self.id, index)
            # After any answer still waiting for the disk: answers keep the order of the actions.
            self._when_saved(
                player.id,
                {
                    "type": "rejected",
                    "table": self.id,
                    "ref": ref,
                    "code": result.code,
                    "message": self.narrator.rejection(result, player.lang),
                },
            )
        else:
            ack = {"type": "ack", "table": self.id, "ref": ref, "v": self.version, "game": self.game_id}
            ack["seq"] = self._logged() - 1
            self._when_saved(player.id, ack, began)
            if self.guide is not None:
                self.guide.accepted(now)
                self.held_ms = None  # the clock goes on from the held moment
                self.t0 = self.clock() - now / 1000
                self._catch_up(now)
        self._after_change()

    def _catch_up(self, now: int) -> None:
        driver = self.driver
        table = self.table
        if driver is None or table is None:
            return
        held = self.absences.next_due()
        while held is not None and held <= now and not table.over:
            while not table.over and driver.step(held):  # what came first, before the stand-in
                pass
            for index in self.absences.due(held):
                self._stand_in(index, permanent=False)
            self.changed()  # everyone sees who plays the seat now
            held = self.absences.next_due()
        guide = self.guide
        if guide is None:
            while not table.over and driver.step(now):
                pass
        else:
            while not table.over and not guide.holding() and driver.step(now):
                pass
            if guide.holding() and self.held_ms is None:
                self.held_ms = guide.hold_at()
            self._coach()
        self._send_cues(now)

    def _coach(self) -> None:
        """Say the coach's next line to the player once the coach waits for them (or is done)."""
        guide = self.guide
        if guide is None:
            return
        index = guide.announce()
        pid = self.seats[0].player
        if index is None or pid is None:
            return
        player = self.lobby.players.get(pid)
        with use_language(player.lang if player else "en"):
            self.send_to(pid, self._coach_message(index))

    def _after_change(self) -> None:
        table = self.table
        if table is not None and table.over and self.state == PLAYING:
            self._finish()
        until = self.sleeping_until
        due = self._next_due()
        if self.state != PLAYING or until is None or (due is not None and due < until):
            self.wake.set()

    def _next_due(self) -> int | None:
        """The next moment something is due at the table: a timer, a bot's reaction, a cue."""
        if self.held_ms is not None:  # the coach waits for the player: nothing runs meanwhile
            return None
        due = self.driver.next_due() if self.driver is not None else None
        if self.cues and (due is None or self.cues[0].at < due):
            due = self.cues[0].at
        held = self.absences.next_due()
        if held is not None and (due is None or held < due):
            due = held
        return due

    def _finish(self) -> None:
        self.state = OVER
        self.games_played += 1
        store, table = self.lobby.store, self.table
        if store is not None and self.game_id is not None and table is not None and self.guide is None:
            places = self.game.standings(table)
            store.records.finish_game(self.game_id, table.now, table.winner, places, self.fence)
        self.changed()

    def _events(self, now: int, events: list[Event]) -> None:
        """The driver's listener: a new version, kept in history, sent to each member (`fan_out`)."""
        self.version += 1
        self.history.add(Batch.of(self.version, now, events))
        for event in events:
            if event.kind == "throw":
                self._cue_for_throw(event)
        if not self._sure():
            return
        self.fan_out(now, events)

    async def _timers(self) -> None:
        """Wake for the next deadline: a timer, a bot's reaction, a cue."""
        while self.state == PLAYING and self.driver is not None:
            if self.paused_at is not None:  # frozen: no timer, no bot, until the store writes
                self.wake.clear()
                await self.wake.wait()
                continue
            if not self._sure():  # maybe another node's table by now: nothing runs here
                await asyncio.sleep(UNSURE_WAIT_S)
                continue
            if self.unsent or self.held:
                self._sure_again()
            due = self._next_due()
            timeout = None if due is None else max(0.0, (due - self.now_ms()) / 1000 / self.lobby.rate)
            self.wake.clear()
            self.sleeping_until = math.inf if due is None else due
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(timeout):  # no task per wait, as wait_for makes
                    await self.wake.wait()
            self.sleeping_until = None
            if self.paused_at is not None or not self._sure():  # paused while waiting: nothing runs
                continue
            self._catch_up(self.now_ms())
            self._after_change()

    def clock_state(self) -> str:
        """One line on what this table waits for, for the operator's `kill -USR1` (docs/deploy.md):
        a table that stands still says why (paused, unsure, nothing due, a stopped clock task)."""
        due = self._next_due() if self.state == PLAYING else None
        task = "none" if self.task is None else "ended" if self.task.done() else "running"
        moves = self._logged()
        return (
            f"table {self.id}: {self.state}, version {self.version}, {moves} moves, play time "
            f"{self.now_ms()} ms, next due {due}, sleeping until {self.sleeping_until}, clock task "
            f"{task}, paused {self.paused_at is not None}, sure {self.lobby.sure()}, unsent "
            f"{self.unsent}, {len(self.held)} held, wake {'set' if self.wake.is_set() else 'clear'}"
        )

    def _hold(self, index: int) -> None:
        """Hold `index` for its absent person: a stand-in is due after the grace period."""
        table, driver = self.table, self.driver
        if table is None or driver is None or table.over:
            return
        hand = table.view(index).get("hand")
        cards = [c for c in hand if isinstance(c, str)] if isinstance(hand, list) else []
        grace = seat_grace_ms(self.options)
        self.absences.left(index, self.now_ms(), grace, cards, len(driver.run_info.moves))
        for held in self.absences.due(self.now_ms()):  # no grace: the stand-in plays at once
            self._stand_in(held, permanent=False)
        self.wake.set()

    def _stand_in(self, index: int, permanent: bool) -> None:
        seat = self.seats[index]
        if permanent:
            self.seats[index] = seat = Seat(name=seat.name, level=self.bot_level)
        else:
            seat.standing_in = True
            seat.level = self.bot_level
        if self.driver is not None and self.table is not None and index not in self.driver.bots:
            bot = make_stand_in(
                self.game.name, index, self.bot_level, self.seed * 1000 + index + 500, self.options
            )
            self.driver.bots[index] = bot
            bot.notice([], self._viewer(index), self.table.now)
            self.wake.set()

    def stop(self) -> None:
        self.state = OVER if self.state == PLAYING else self.state
        self.held.clear()
        if self.countdown is not None:
            self.countdown.cancel()
            self.countdown = None
        if self.lobby.store is not None:
            self.lobby.store.journal.watchers.discard(self._store_failing)
        self.wake.set()
        if self.task is not None:
            self.task.cancel()
