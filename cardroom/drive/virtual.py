"""Run a table on a timeline of due moments: timers and bot reactions.

In virtual time (`run`) nothing sleeps: the driver jumps from one due moment to the next, so
thousands of games run a second. In real time (the terminal game) the caller calls `step` with
the wall clock's "now" and `submit` for the person's actions: the same object, the same order.
At each moment the table's due timers run first, then the actions due then.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from typing import Any

from cardroom.protocol import JSON, Bot, Event, Rejected, Table
from cardroom.protocol.record import Move
from cardroom.protocol.table import Sight

Listener = Callable[[int, list[Event]], None]


@dataclass(slots=True)
class Run:
    """What a driven game did."""

    actions: int = 0
    refused: int = 0
    moves: list[Move] = field(default_factory=list)
    end_ms: int = 0


class VirtualDriver:
    """Drives one table and its bots as fast as the engine can."""

    def __init__(
        self,
        table: Table[Any],
        bots: Mapping[int, Bot[Any]],
        action_json: Callable[[Any], JSON] | None = None,
        listener: Listener | None = None,
        recorder: Callable[[Move], None] | None = None,
    ) -> None:
        self.table = table
        self.bots = dict(bots)
        self.action_json = action_json
        self.listener = listener
        self.recorder = recorder
        """Told of each move as it reaches the rules (the server writes it to its journal)."""
        self.run_info = Run()
        self._views: dict[int, JSON] = {}
        """The views built since the table last changed (by the sights), emptied at each change."""
        self._sights = [Sight(table, seat, self._views) for seat in range(table.players)]
        """What each seat's bot is handed to see the table."""

    def _record(self, move: Move) -> None:
        """Log an accepted move. Refused ones are only counted (`Run.refused`): a refusal changes
        nothing in the table, so a replay needs none of them, and logging them let one seat grow
        the database by a whole message per refusal (issue 22)."""
        self.run_info.moves.append(move)
        if self.recorder is not None:
            self.recorder(move)

    def _tell(self, events: list[Event], now: int) -> None:
        """Each bot hears the events as its seat may (`Event.for_seat`), filtered once per batch.

        What everybody hears (the public form of each public event) is built once, when a bot
        first needs it, and the same list handed to every bot that does not hear secrets
        (`Bot.hears_secrets`) and to every bot when the batch holds no secret: bots read events,
        they never change them. Only a bot that hears secrets, in a batch that has some, gets a
        list of its own: the shared one with the full form of the events it knows (built once
        per event), and the events only their knowers hear of when it is one. A bot that does
        not listen (`Bot.listens`) is told of the batch, with no events, only when its seat may
        act after it (`Table.actors`, asked once)."""
        if not events:
            return
        if self.listener is not None:
            self.listener(now, events)
        said: list[JSON] | None = None
        secret = False  # an event with a hidden part, or one only its knowers hear of
        actors: Collection[int] | None = None
        sights = self._sights
        for seat, bot in list(self.bots.items()):
            if not bot.listens:
                if actors is None:
                    actors = self.table.actors()
                if seat in actors:
                    bot.notice([], sights[seat], now)
                continue
            if said is None:
                said = []
                for ev in events:
                    if ev.public:
                        said.append(ev.data_for_all())
                    if ev.knowers:
                        secret = True
            if secret and bot.hears_secrets:
                heard = self._heard_by(seat, events)
                if heard:
                    bot.notice(heard, sights[seat], now)
            elif said:
                bot.notice(said, sights[seat], now)

    def _heard_by(self, seat: int, events: list[Event]) -> list[JSON]:
        """The events of a batch as `seat` hears them, secrets it knows included."""
        return [e for e in (ev.for_seat(seat) for ev in events) if e is not None]

    def next_due(self) -> int | None:
        """The next moment something is due: a table timer or a bot's reaction."""
        due = self.table.next_deadline()
        for bot in self.bots.values():
            at = bot.due()
            if at is not None and (due is None or at < due):
                due = at
        return due

    def submit(self, seat: int, action: Any, at: int) -> list[Event] | Rejected:
        """A person's action at `at`: timers due by then run first; everyone hears the result."""
        self._views.clear()
        self._tell(self.table.advance(at), at)
        self._views.clear()
        result = self.table.apply(seat, action, at)
        self._views.clear()
        info = self.run_info
        if isinstance(result, Rejected):
            info.refused += 1  # counted, not logged: a refusal changes nothing (`_record`)
            return result
        info.actions += 1
        self._tell(result, at)
        if self.action_json is not None:
            self._record(Move(at, seat, self.action_json(action)))
        return result

    def step(self, limit_ms: int) -> bool:
        """Run the next due moment not after `limit_ms`; False when nothing is due by then."""
        table = self.table
        deadline = table.next_deadline()
        bot_at: int | None = None
        bot_seat = -1
        for seat, bot in self.bots.items():
            due = bot.due()
            if due is not None and (bot_at is None or due < bot_at):
                bot_at, bot_seat = due, seat
        if deadline is not None and (bot_at is None or deadline <= bot_at):
            if deadline > limit_ms:
                return False
            self._views.clear()
            self._tell(table.advance(deadline), deadline)
            return True
        if bot_at is None or bot_at > limit_ms:
            return False
        now = table.now
        if bot_at > now:
            now = bot_at
        bot = self.bots[bot_seat]
        view = self._sights[bot_seat]
        action = bot.act(view, now)
        if action is None:
            return True
        result = table.apply(bot_seat, action, now)
        self._views.clear()
        info = self.run_info
        if isinstance(result, Rejected):
            info.refused += 1
            bot.refused(result, view, now)
            return True
        info.actions += 1
        self._tell(result, now)
        if self.action_json is not None:
            self._record(Move(now, bot_seat, self.action_json(action)))
        return True

    def run(self, limit_ms: int = 3_600_000, max_steps: int = 2_000_000) -> Run:
        """Run until the game is over, nothing is due, or `limit_ms` of play time."""
        table = self.table
        step = self.step
        steps = 0
        while not table.over and steps < max_steps and step(limit_ms):
            steps += 1
        self.run_info.end_ms = table.now
        return self.run_info
