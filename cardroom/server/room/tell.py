"""What each member of a table is told: the fan-out of a batch of events to every seat (each
hears what it may know, narrated in each member's language), resyncs, resumes, recaps and cues.
It reads the seats and the state, never the driver: the driver hands it what happened.
"""

from __future__ import annotations

import heapq
from typing import TYPE_CHECKING

from cardroom.i18n import _
from cardroom.narrate.speech import Digest
from cardroom.protocol import JSON, Event
from cardroom.server.absence import Away, while_away
from cardroom.server.room.fanout import batch_message, fan_out, hear
from cardroom.server.room.seats import Seats, not_member
from cardroom.server.room.state import OVER, Cue
from cardroom.server.wire import encode

if TYPE_CHECKING:
    from cardroom.server.connection import Player


class Telling(Seats):
    """A table's messages to its members, one build per seat and language."""

    def snapshot(self, player_id: str | None) -> JSON:
        """The full state of the room for one member: a resync."""
        seat = self.seat_of(player_id) if player_id else None
        out: JSON = {
            "type": "table",
            "table": self.id,
            **self.summary(),
            "code": self.code if player_id in self.members() else None,
            "you": seat,
            "is_host": player_id == self.host,
            "v": self.version,
            "chat": self.chat_log[-50:],
            "view": self.table.view(seat) if self.table is not None else None,
            "paused": self.paused_at is not None,
            "ready": [i for i, seat in enumerate(self.seats) if seat.player in self.ready],
            "starts_in_ms": self._starts_in_ms(),
            "coach": self._coach_message(self.guide.announced)
            if self.guide is not None and self.guide.announced >= 0
            else None,
            # Each seat's final place (1 = first) once the game is over, for the scoreboard.
            "places": self.game.standings(self.table)
            if self.state == OVER and self.table is not None
            else None,
        }
        return out

    def send_to(self, player_id: str, message: JSON) -> None:
        if not self._sure():
            return
        player = self.lobby.players.get(player_id)
        if player and player.connection:
            player.connection.send(message)

    def send_all(self, message: JSON) -> None:
        if not self._sure():
            return
        data = encode(message)
        for pid in self.members():
            player = self.lobby.players.get(pid)
            if player and player.connection:
                player.connection.send_raw(data)

    def changed(self) -> None:
        """Seats or state changed: members get a resync, the lobby an update, the store the room."""
        for pid in self.members():
            self.send_to(pid, self.snapshot(pid))
        self.lobby.table_changed(self)
        self.persist()

    def _coach_message(self, index: int) -> JSON:
        """The coach's line of step `index` for the player (docs/guide.md), in their language."""
        guide = self.guide
        assert guide is not None
        names = self.names()
        out: JSON = {
            "type": "coach",
            "table": self.id,
            "step": index,
            "steps": len(guide.steps),
            "done": index >= len(guide.steps),
            "text": guide.text(index, names),
            "progress": guide.progress(index),
            "held": self.held_ms,
        }
        if index <= 0:
            out["intro"] = guide.opening(names)
        return out

    def fan_out(self, now: int, events: list[Event]) -> None:
        """Send a batch (version `self.version`, kept in history by the driver) to each member
        (`fanout.fan_out`: one build per seat and language)."""
        fan_out(self, now, events)

    def recap(self, player: Player) -> JSON:
        """The background since `player` last asked (the recap key), as one sentence."""
        now = self.now_ms()
        counts = self.recaps.setdefault(player.id, Digest(now)).take(now)
        text = self.narrator.summary(counts, self.seat_of(player.id), self.names(), player.lang)
        if not text:  # the edge answers in the asker's language
            text = _("Nothing else happened since you last asked.")
        return {"type": "answer", "table": self.id, "what": "recap", "text": text}

    def _cue_for_throw(self, event: Event) -> None:
        target = event.data.get("target")
        catch_from = event.data.get("catch_from")
        ident = event.data.get("id")
        if isinstance(target, int) and isinstance(catch_from, int) and isinstance(ident, int):
            seat = self.seats[target] if 0 <= target < len(self.seats) else None
            if seat is not None and seat.player is not None:
                heapq.heappush(self.cues, Cue(catch_from, target, "catch_window", ident))

    def _send_cues(self, now: int) -> None:
        while self.cues and self.cues[0].at <= now:
            due = heapq.heappop(self.cues)
            pid = self.seats[due.target].player
            if pid is not None and self._catchable(due.target, due.flight):
                player = self.lobby.players.get(pid)
                lang = player.lang if player else "en"
                self.send_to(
                    pid,
                    {
                        "type": "cue",
                        "table": self.id,
                        "cue": due.cue,
                        "flight": due.flight,
                        "at": due.at,
                        "text": self.narrator.cue(due.cue, lang),
                    },
                )

    def _catchable(self, target: int, ident: int) -> bool:
        """Whether flight `ident` can still be caught by `target`: in the air, not dodged, in a
        fight not yet decided. A cue for anything else would ask for a catch that fumbles."""
        view = self.table.view(target) if self.table is not None else None
        fight = view.get("fight") if view else None
        if not fight or fight.get("decided") or target not in fight.get("fighters", ()):
            return False
        return any(fl["id"] == ident and not fl["dodged"] for fl in fight.get("flights", ()))

    def resume(self, player: Player, since: int) -> JSON | None:
        """Send the batches a member missed, or a full resync when they are too old."""
        if player.id not in self.members():
            return not_member()
        seat = self.seat_of(player.id)
        missed = self.history.since(since, self.version)
        connection = player.connection
        room_left = connection.queue_size // 2 if connection is not None else 0
        if missed is None or len(missed) > room_left:
            # Too old, or more than the connection's queue should take at once: resync in full
            # (and `resumed` all the same, so a client waiting for it knows it is caught up).
            self.send_to(player.id, {**self.snapshot(player.id), "resync": True})
        else:
            names = self.names()
            for batch in missed:
                heard = hear(self, batch.events, [seat])[seat]
                message = batch_message(
                    self.narrator, self.id, batch.v, batch.at, heard, seat, player.lang, names
                )
                if message is not None:
                    self.send_to(player.id, message)
        self.send_to(player.id, {"type": "resumed", "table": self.id, "v": self.version})
        return None

    def _welcome_back(self, player: Player, index: int, away: Away) -> None:
        """One line for a person back at their seat: what happened to them while away."""
        table, driver = self.table, self.driver
        if table is None or driver is None:
            return
        hand = table.view(index).get("hand")
        cards = [c for c in hand if isinstance(c, str)] if isinstance(hand, list) else []
        moves = sum(1 for m in driver.run_info.moves[away.moves :] if m.player == index)
        winner = table.winner if table.over else None
        names = self.names()
        text = while_away(
            away,
            cards,
            moves,
            names[winner] if winner is not None and winner != index else None,
            winner == index,
            player.lang,
        )
        self.send_to(player.id, {"type": "away", "table": self.id, "text": text})
