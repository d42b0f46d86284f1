"""Run a table on a timeline of due moments: timers and bot reactions.

In virtual time (`run`) nothing sleeps: the driver jumps from one due moment to the next, so
thousands of games run a second. In real time (the terminal game) the caller calls `step` with
the wall clock's "now" and `submit` for the person's actions: the same object, the same order.
At each moment the table's due timers run first, then the actions due then.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from cardroom.protocol import JSON, Bot, Event, Rejected, Table
from cardroom.protocol.record import Move

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
        """Each seat's view of the table as it is now; emptied whenever the table is touched."""
        self._viewers: dict[int, Callable[[], JSON]] = {}
        for seat in range(table.players):
            self._viewer(seat)

    def _record(self, move: Move) -> None:
        self.run_info.moves.append(move)
        if self.recorder is not None:
            self.recorder(move)

    def _viewer(self, seat: int) -> Callable[[], JSON]:
        """A function giving `seat`'s view of the table as it is when called, built at most once
        per state of the table (a bot may ask for it several times, or not at all)."""
        viewer = self._viewers.get(seat)
        if viewer is None:
            views = self._views
            view_of = self.table.view

            def viewer() -> JSON:
                view = views.get(seat)
                if view is None:
                    view = views[seat] = view_of(seat)
                return view

            self._viewers[seat] = viewer
        return viewer

    def _tell(self, events: list[Event], now: int) -> None:
        """Each bot hears the events as its seat may (`Event.for_seat`), filtered once per batch:
        a public event's form is built once and the same dict (and, when no event of the batch
        is secret, the same list) handed to every seat that hears it: bots read events, they
        never change them."""
        if not events:
            return
        if self.listener is not None:
            self.listener(now, events)
        shared: list[JSON | None] = []
        secrets: list[tuple[int, frozenset[int], JSON]] = []
        unheard = False  # an event only its knowers hear of
        for i, ev in enumerate(events):
            if ev.public:
                shared.append(ev.data_for_all())
            else:
                shared.append(None)
                unheard = True
            if ev.knowers:
                secrets.append((i, ev.knowers, ev.full()))
        viewers = self._viewers
        if not secrets and not unheard:
            same: list[JSON] = shared  # type: ignore[assignment]
            for seat, bot in list(self.bots.items()):
                bot.notice(same, viewers.get(seat) or self._viewer(seat), now)
            return
        # Some are secret: each seat's list is the shared one with the full form of those it
        # knows in their place (built once per event), less those it does not hear of.
        for seat, bot in list(self.bots.items()):
            heard = shared.copy()
            for i, knowers, full in secrets:
                if seat in knowers:
                    heard[i] = full
            said = [e for e in heard if e is not None] if unheard else heard
            if said:
                bot.notice(said, viewers.get(seat) or self._viewer(seat), now)  # type: ignore[arg-type]

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
            info.refused += 1
        else:
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
        view = self._viewers.get(bot_seat) or self._viewer(bot_seat)
        action = bot.act(view, now)
        if action is None:
            return True
        result = table.apply(bot_seat, action, now)
        self._views.clear()
        info = self.run_info
        if isinstance(result, Rejected):
            info.refused += 1
            bot.refused(result, view, now)
        else:
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
