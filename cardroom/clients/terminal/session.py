"""A real-time game in the terminal: one person, bots in the other seats, line by line.

Every event is printed as one plain line so that a screen reader follows the game (on a
terminal, a status line is kept at the bottom: speaker.py; `--plain` leaves it out). The wall clock gives "now"; the table and bots run on the same
driver as `simulate`, stepped up to the wall clock. Lines are marked as the server marks them
(`narrator`: each line's priority for this seat) and said through the same `Speaker` as
`cardroom connect`; the session keeps the background's digests as the server's room does (the
periodic summary of the "normal" verbosity, and the recap key's), so the verbosity, the recap
and the bell work alike in both.
"""

from __future__ import annotations

import asyncio
import codecs
import sys
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TextIO

from cardroom.clients.terminal.keys import KeyReader
from cardroom.clients.terminal.loop import cbreak, stop_watching, watch_input
from cardroom.clients.terminal.speaker import BELL_KEY, Line, Speaker, bell_help, rings
from cardroom.clients.terminal.ui import Ask, GameUI, Say
from cardroom.drive.virtual import VirtualDriver
from cardroom.i18n import _, current_language
from cardroom.narrate.speech import DEFAULT_VERBOSITY, Digest, Fold, Priority
from cardroom.protocol import JSON, Bot, Event, Rejected, Table

if TYPE_CHECKING:
    from cardroom.guide.coach import Guide
    from cardroom.narrate.narrator import Narrator


class Session:
    """One person at `seat`; `ui` turns their keys into actions and events into lines."""

    def __init__(
        self,
        table: Table[Any],
        seat: int,
        ui: GameUI,
        bots: Mapping[int, Bot[Any]],
        out: TextIO,
        clock: Callable[[], int],
        *,
        narrator: Narrator | None = None,
        names: Sequence[str] = (),
        verbosity: str = DEFAULT_VERBOSITY,
        plain: bool = False,
        guide: Guide | None = None,
    ) -> None:
        self.table = table
        self.seat = seat
        self.ui = ui
        self.out = out
        self.wall = clock
        self.guide = guide
        """A guided first game's coach (docs/guide.md): play time stands still at `held` while
        it waits for the person, and `shift` is the wall time that stood still so far."""
        self.held: int | None = None
        self.shift = 0
        self.real_game = False
        """Set when the person ends a finished guide with Enter: a real game comes next."""
        self.narrator = narrator
        """Marks each event's lines as the server would (without it, every line is the person's)."""
        self.names = list(names)
        self.speaker = Speaker(out, verbosity, plain=plain)
        self.speaker.status = lambda: self.ui.bar(self.table.view(self.seat))
        self.driver = VirtualDriver(table, bots, listener=self._heard)
        self.finished = False
        self.digest = Digest()
        """The background since the last summary (said at the "normal" verbosity)."""
        self.recaps = Digest()
        """The background since the person last pressed the recap key."""
        self._wakeups: list[int] = []
        """Moments (play time) the UI asked to be woken at, for cues no event marks (CATCH NOW!)."""

    def clock(self) -> int:
        """Play time: the wall clock's, less the time a guide's coach held it."""
        return self.held if self.held is not None else self.wall() - self.shift

    def say(self, line: str) -> None:
        self.speaker.say(line)

    def _coach(self) -> None:
        """A guide that waits for the person holds the clock and says its step's line, once."""
        guide = self.guide
        if guide is None:
            return
        if guide.holding() and self.held is None:
            self.held = guide.hold_at()
        index = guide.announce()
        if index is None:
            return
        if index == 0:
            for line in guide.opening(self.names):
                self.say(line)
        self.say(
            f"{guide.progress(index)}: {guide.text(index, self.names)}"
            if not guide.done
            else guide.text(index, self.names)
        )
        if guide.done:
            self.say(_("Press Enter for a real game with bots, or q to leave."))

    def _heard(self, now: int, events: list[Event]) -> None:
        heard = [e for e in (event.for_seat(self.seat) for event in events) if e is not None]
        if not heard:
            self._ask_wakeups()
            return
        view = self.table.view(self.seat)
        lines: list[Line] = []
        for event in heard:
            priority = self._priority(event, view)
            lines.extend(Line(text, priority) for text in self.ui.narrate(event, view, now))
        game = self.narrator.game if self.narrator is not None else ""
        self.speaker.lines(lines, ring=rings(game, lines))
        if self.narrator is not None:
            folds = self.narrator.folds(heard, self.seat, view)
            self.digest.add(folds)
            self.recaps.add(folds)
            closes = self.narrator.closes_digest(e["event"] for e in heard)
            counts = self.digest.summary_now(now, closes, self.narrator.holds_summary(self.seat, view))
            if counts is not None:
                self.speaker.summary(self._summary(counts))
        self._ask_wakeups(view)

    def _priority(self, event: JSON, view: JSON) -> int:
        """The priority of the event's lines for the person, as the server gives it."""
        if self.narrator is None:
            return Priority.YOU
        _texts, priority = self.narrator.lines([event], self.seat, self.names, view, current_language())
        return priority[0] if priority else Priority.YOU

    def _summary(self, counts: Counter[Fold]) -> str:
        assert self.narrator is not None
        return self.narrator.summary(counts, self.seat, self.names, current_language())

    def recap(self) -> str:
        """The recap key: the background since the person last asked, as the server says it."""
        now = self.clock()
        text = self._summary(self.recaps.take(now)) if self.narrator is not None else ""
        return text or _("Nothing else happened since you last asked.")

    def _ask_wakeups(self, view: dict[str, Any] | None = None) -> None:
        self._wakeups = sorted(set(self.ui.wakeups(view if view is not None else self.table.view(self.seat))))

    def _next_wakeup(self) -> int | None:
        return self._wakeups[0] if self._wakeups else None

    def catch_up(self) -> None:
        """Run everything due up to the wall clock's now, the UI's wake-ups in time order."""
        now = self.clock()
        while not self.table.over and not (self.guide is not None and self.guide.holding()):
            wake = self._next_wakeup()
            due = self.driver.next_due()
            if wake is not None and wake <= now and (due is None or wake <= due):
                self._wakeups.pop(0)
                self.speaker.cue(self.ui.tick(self.table.view(self.seat), wake))
                continue
            if not self.driver.step(now):
                break
        self._coach()

    def key(self, key: str) -> None:
        """Handle one key from the person."""
        self.catch_up()
        now = self.clock()
        if key in ("?", "f1"):
            for line in self.ui.help():
                self.say(line)
            self.say(bell_help())
            self.say(_("? this help, q quit."))
            return
        if key == BELL_KEY:
            self.speaker.toggle_bell()
            return
        if key == "q":
            self.speaker.close()  # the status line gone before the last line, not just after it
            self.speaker.status = None
            self.say(_("You leave the table. Goodbye!"))
            self.finished = True
            return
        if self.guide is not None and self.guide.done and key == "enter":
            self.real_game = self.finished = True
            return
        result = self.ui.on_key(key, self.table.view(self.seat), now)
        if result is None:
            return
        if isinstance(result, Say):
            self.say(result.text)
            return
        if isinstance(result, Ask):
            self.say(self.recap())
            return
        guide = self.guide
        if guide is not None:
            why = guide.refusal(guide.game.action_json(result), self.names)
            if why is not None:
                self.say(why)
                return
        outcome = self.driver.submit(self.seat, result, now)
        if isinstance(outcome, Rejected):
            self.say(self.ui.refused(outcome))
        elif guide is not None:
            guide.accepted(now)
            self.held = None  # play time goes on from the held moment
            self.shift = self.wall() - now
            self.catch_up()

    def wait_ms(self) -> float | None:
        """How long until something is due (None: nothing until the person acts)."""
        if self.held is not None:
            return None
        due = self.driver.next_due()
        wake = self._next_wakeup()
        if wake is not None and (due is None or wake < due):
            due = wake
        if due is None:
            return None
        return max(0.0, due - self.clock())


async def play(session: Session, fd: int) -> None:
    """Read keys from `fd` and run the table in real time until the game ends or the person quits."""
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue[str | None] = asyncio.Queue()
    reader = KeyReader()
    decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")

    def feed(data: bytes) -> None:
        keys = reader.feed(decoder.decode(data)) if data else reader.flush()
        for k in keys:
            queue.put_nowait(k)
        if not data:
            queue.put_nowait(None)

    watch_input(loop, fd, feed)
    try:
        while not session.finished and not session.table.over:
            session.catch_up()
            if session.table.over:
                break
            wait = session.wait_ms()
            try:
                key = await asyncio.wait_for(queue.get(), None if wait is None else wait / 1000)
            except TimeoutError:
                continue
            if key is None:
                session.say(_("Input closed: leaving the table."))
                break
            session.key(key)
        session.catch_up()
    finally:
        stop_watching(loop, fd)


def run_session(session: Session, stdin: TextIO | None = None) -> None:
    """Play `session` with the keyboard of `stdin` (the process's by default)."""
    try:
        with cbreak(stdin or sys.stdin) as fd:
            asyncio.run(play(session, fd))
    finally:
        session.speaker.close()
