"""The coach: runs a `Script` on a real table, one step at a time, and holds the clock for the player.

A step waits for its moment (`CONDITIONS`: the player's turn, a Nope window, a burrito coming at
them, its catch window); from then the play clock stands still (`Guide.holding`) until the
player sends the step's action, so no window or timer runs out on someone reading the coach's
line. Anything else the player sends is refused with the line again. The bots are `ScriptedBot`s
playing the step's `then` moves in order (a move the table refuses yet, too early, is tried
again shortly), and the player's seat has a `Watch` that wakes the driver when a moment that
comes by time (a catch window opening) arrives. The engine is untouched: this is a driver's
helper, like the bots.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from cardroom.games import find_game
from cardroom.i18n import _
from cardroom.protocol import JSON, Bot, GameDef, Rejected, Table
from cardroom.protocol.table import ViewFn

from .steps import BOT_PAUSE_MS, SCRIPTS, Script, Step

RETRY_MS = 300
"""A scripted move the table refused (too early: a window still open) is tried again this soon."""

YOU = 0
"""The player's seat in every script."""

Moment = tuple[bool, int | None]
"""Whether a step's moment has come, else when it will by time alone (None: not by time)."""


def _ready(view: JSON, now: int) -> Moment:
    return True, None


def _my_turn(view: JSON, now: int) -> Moment:
    return view.get("phase") == "turn" and view.get("turn") == view.get("seat"), None


def _nope_window(view: JSON, now: int) -> Moment:
    return view.get("phase") == "nope_window", None


def _defusing(view: JSON, now: int) -> Moment:
    return view.get("phase") == "defusing" and view.get("turn") == view.get("seat"), None


def _in_fight(view: JSON, now: int) -> Moment:
    fight = view.get("fight")
    if not fight or fight.get("decided") or view.get("seat") not in fight.get("fighters", ()):
        return False, None
    go = max(fight.get("go_at") or 0, fight.get("call_until") or 0)
    return (True, None) if now >= go else (False, go)


def _flights_at_me(view: JSON) -> list[JSON]:
    fight = view.get("fight") or {}
    return [f for f in fight.get("flights", ()) if f["target"] == view.get("seat") and not f["dodged"]]


def _incoming(view: JSON, now: int) -> Moment:
    if any(f["lands_at"] > now for f in _flights_at_me(view)):
        return True, None
    behind = [b["leaves_at"] for b in (view.get("fight") or {}).get("behind_back", ())]
    return False, (min(behind) if behind else None)


def _catchable(view: JSON, now: int) -> Moment:
    flights = [f for f in _flights_at_me(view) if f["lands_at"] > now]
    if any(f["catch_from"] <= now for f in flights):
        return True, None
    later = [f["catch_from"] for f in flights]
    if later:
        return False, min(later)
    return False, _incoming(view, now)[1]


CONDITIONS: dict[str, Callable[[JSON, int], Moment]] = {
    "ready": _ready,
    "my_turn": _my_turn,
    "nope_window": _nope_window,
    "defusing": _defusing,
    "in_fight": _in_fight,
    "incoming": _incoming,
    "catchable": _catchable,
}
"""The moments a step may wait for (`Step.when`), each read from the player's view."""


def matches(expect: JSON, action: JSON) -> bool:
    """Whether `action` is the one expected: every field the step names is equal."""
    return all(action.get(key) == value for key, value in expect.items())


@dataclass(slots=True)
class _Move:
    seat: int
    action: JSON
    after_ms: int


class Guide:
    """One guided game: its table, its bots, the step the player is at, the held clock's moment."""

    def __init__(self, game_name: str) -> None:
        self.script: Script = SCRIPTS[game_name]
        self.game: GameDef[Any] = find_game(game_name)
        script = self.script
        self.table: Table[Any] = self.game.from_deal(script.players, script.options, script.deal, 0)
        self.index = 0
        """The step the player is at (len(steps): the guide is over)."""
        self.moves: deque[_Move] = deque()
        self.move_due: int | None = None
        self.reached = 0
        """The latest play time the driver reached, a timed moment included (`Watch`)."""
        self.announced = -1
        """The last step whose line was handed out (`announce`)."""
        self._last: _Move | None = None

    @property
    def steps(self) -> Sequence[Step]:
        return self.script.steps

    @property
    def done(self) -> bool:
        return self.index >= len(self.steps)

    def bots(self) -> dict[int, Bot[Any]]:
        """The driver's bots: a scripted one in each other seat, the watch in the player's."""
        out: dict[int, Bot[Any]] = {YOU: Watch(self)}
        for seat in range(1, self.script.players):
            out[seat] = ScriptedBot(self, seat)
        return out

    def moment(self) -> Moment:
        """Whether the step's moment has come (never while bot moves are still to play)."""
        if self.done or self.moves:
            return False, None
        now = max(self.table.now, self.reached)
        return CONDITIONS[self.steps[self.index].when](self.table.view(YOU), now)

    def holding(self) -> bool:
        """Whether the coach waits for the player now (or is done: the table then rests until
        the player leaves for a real game): the play clock then stands still."""
        return not self.table.over and (self.done or self.moment()[0])

    def hold_at(self) -> int:
        """The play time the clock stands still at once `holding`."""
        return max(self.table.now, self.reached)

    def refusal(self, action: JSON, names: Sequence[str] = ()) -> str | None:
        """None when `action` is the step's; else, translated, why not (the step's line again)."""
        if self.done:
            return _("The guided game is over: leave it for a real game.")
        step = self.steps[self.index]
        if not self.holding():
            return _("Wait a moment: watch what the others do.")
        if matches(step.expect, action):
            return None
        return _("Not this one yet. {line}").format(line=self.line(step, names))

    def accepted(self, now: int) -> None:
        """The player's move was played at `now`: the next step, after the bots' scripted moves."""
        step = self.steps[self.index]
        self.index += 1
        for move in step.then:
            action = {k: v for k, v in move.items() if k not in ("seat", "after_ms")}
            self.moves.append(_Move(int(move["seat"]), action, int(move.get("after_ms", BOT_PAUSE_MS))))
        self.move_due = now + self.moves[0].after_ms if self.moves else None

    def line(self, step: Step, names: Sequence[str] = ()) -> str:
        """A step's line, translated, with the bots' names."""
        return self.say(step.line, names)

    def say(self, msgid: str, names: Sequence[str] = ()) -> str:
        seats = {f"seat{i}": (names[i] if i < len(names) else str(i + 1)) for i in range(self.script.players)}
        return _(msgid).format(**seats)

    def opening(self, names: Sequence[str] = ()) -> list[str]:
        """What the coach says before the first step: the game and the held clock."""
        return [self.say(self.script.welcome, names), self.say(self.script.timing_note, names)]

    def announce(self) -> int | None:
        """The step to say now (once each): the one the coach just started waiting for, or
        `len(steps)` for the farewell once the last step is done; else None."""
        if self.done and self.announced < len(self.steps):
            self.announced = len(self.steps)
            return self.announced
        if self.holding() and self.announced < self.index:
            self.announced = self.index
            return self.index
        return None

    def text(self, index: int, names: Sequence[str] = ()) -> str:
        """The line of step `index` (the farewell past the last), translated."""
        if index >= len(self.steps):
            return self.say(self.script.farewell, names)
        return self.line(self.steps[index], names)

    def progress(self, index: int) -> str:
        """ "Step 2 of 5", translated."""
        return _("Step {n} of {total}").format(n=min(index + 1, len(self.steps)), total=len(self.steps))

    # -- the bots' side --------------------------------------------------------------------
    def due_for(self, seat: int) -> int | None:
        if self.moves and self.moves[0].seat == seat:
            return self.move_due
        return None

    def take(self, seat: int, now: int) -> Any:
        move = self.moves.popleft()
        self.move_due = now + self.moves[0].after_ms if self.moves else None
        self._last = move
        return self.game.parse_action(move.action, self.script.players)

    def again(self, now: int) -> None:
        """The table refused the move just taken (too early): it is tried again shortly."""
        if self._last is not None:
            self.moves.appendleft(self._last)
        self.move_due = now + RETRY_MS


class ScriptedBot:
    """A bot seat that plays only the script's moves, when the guide says."""

    hears_secrets = False
    listens = False

    def __init__(self, guide: Guide, seat: int) -> None:
        self.guide = guide
        self.seat = seat

    def notice(self, events: list[JSON], view: ViewFn, now: int) -> None:
        return None

    def due(self) -> int | None:
        return self.guide.due_for(self.seat)

    def act(self, view: ViewFn, now: int) -> Any:
        return self.guide.take(self.seat, now)

    def refused(self, rejection: Rejected, view: ViewFn, now: int) -> None:
        self.guide.again(now)


class Watch:
    """In the player's seat: never acts; wakes the driver when a step's moment comes by time
    (a catch window opening), so that the clock is held right then."""

    hears_secrets = False
    listens = False

    def __init__(self, guide: Guide) -> None:
        self.guide = guide
        self.seat = YOU

    def notice(self, events: list[JSON], view: ViewFn, now: int) -> None:
        return None

    def due(self) -> int | None:
        holds, starts = self.guide.moment()
        return None if holds or starts is None or starts <= self.guide.reached else starts

    def act(self, view: ViewFn, now: int) -> None:
        self.guide.reached = max(self.guide.reached, now)

    def refused(self, rejection: Rejected, view: ViewFn, now: int) -> None:
        return None
