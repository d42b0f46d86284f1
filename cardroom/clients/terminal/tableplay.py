"""A game at a table in `cardroom connect`: the server's words, the game's keys.

Once a game runs at your table the keyboard switches to single keys, exactly the keys of
`cardroom play` for that game (the game's `GameUI` turns them into actions), plus `?` help, `/` a
command line (chat with `say TEXT`), `L` your lag and `q` leave and quit. Events are printed as the
server narrated them (`texts`); the game UI only adds the hints about its own keys ("Nope? Press
n.").
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence

from cardroom.clients.terminal.keys import action_of
from cardroom.clients.terminal.lobby import Lobby, recap_query, rematch_line, time_to_react_lines
from cardroom.clients.terminal.speaker import BELL_KEY, Line, bell_help, rings
from cardroom.clients.terminal.tablestate import TableState, make_game_ui
from cardroom.clients.terminal.ui import Ask, Say
from cardroom.games import find_game
from cardroom.i18n import N_, _, ngettext
from cardroom.protocol import JSON

LOCAL_TICKS = frozenset({"kittens"})
"""Games whose timed warnings ("10 seconds left") the UI tells from the view; burrito's catch
window comes from the server as a `cue`."""
GAME_KEYS: tuple[tuple[str, str], ...] = (
    ("/", N_("type a command line, then Enter (say TEXT chats; an empty line cancels)")),
    ("L", N_("your lag to the server")),
    ("q", N_("leave the table and quit")),
)


def game_key_help() -> list[str]:
    return [_("{key}: {what}").format(key=k, what=_(what)) for k, what in GAME_KEYS]


def _hinted(base: list[str], mine: list[str], texts: list[str]) -> list[str]:
    """The server's `texts` for one event, with the UI's key hints (`mine` beyond `base`) added."""
    out = list(texts)
    extra: list[str] = []
    for j, line in enumerate(mine):
        if j < len(base) and line == base[j]:
            continue
        if j < len(base) and line.startswith(base[j]) and j < len(out):
            out[j] = out[j] + line[len(base[j]) :]
            continue
        if line not in base:
            extra.append(line)
    return out + extra


class TablePlay(Lobby):
    """The tables this client sits at: their state, their events and cues, the game's keys."""

    async def _on_table(self, m: JSON) -> None:
        tid = str(m.get("table") or m.get("id"))
        keys = ("id", "game", "options", "state", "private", "host", "seats", "free", "spectators")
        summary: JSON = {k: m[k] for k in keys if k in m}
        self._remember(summary)
        old = self.mine.get(tid)
        state = old or TableState(tid, summary)
        before = old.summary if old is not None else None
        state.summary = summary
        state.you = m.get("you")
        state.is_host = bool(m.get("is_host"))
        state.code = m.get("code")
        if tid not in self.resuming and isinstance(m.get("v"), int) and (state.v is None or m["v"] > state.v):
            state.v = m["v"]
        view = m.get("view")
        started = summary.get("state") == "playing" and (before is None or before.get("state") != "playing")
        if isinstance(view, dict):
            state.view = view
            if "now" in view:
                state.heard(int(view["now"]), reset=started)
        if state.you is None:
            state.ui = None
        self.mine[tid] = state
        if old is None:
            self.current = tid
            self._joined_line(state)
        else:
            self._diff_lines(state, before or {})
        if started or (summary.get("state") == "playing" and state.ui is None and state.you is not None):
            self._game_starts(state, announce=started)
        if summary.get("state") == "over" and before is not None and before.get("state") == "playing":
            self.say(_("The game is over. Type rematch to play again, or leave."))
        self._rematch_lines(state, [int(i) for i in m.get("ready") or []])
        self._countdown_line(state, m.get("starts_in_ms"))
        self._paused_line(state, bool(m.get("paused")))
        self._update_mode()

    def _rematch_lines(self, state: TableState, ready: list[int]) -> None:
        """Who is ready for a rematch, said each time it changes (a vote: docs/protocol.md)."""
        if ready == state.ready:
            return
        state.ready = ready
        if state.state == "over" and ready:
            self.say(rematch_line(state.summary.get("seats", []), ready))

    def _countdown_line(self, state: TableState, starts_in_ms: object) -> None:
        """A Play now table starts by itself: said once, when its countdown is first seen."""
        counting = isinstance(starts_in_ms, int) and state.state == "waiting"
        if counting and not state.counting:
            seconds = max(0, round(int(str(starts_in_ms)) / 1000))
            self.say(
                ngettext(
                    "The game starts by itself in {n} second; bots take the seats nobody takes.",
                    "The game starts by itself in {n} seconds; bots take the seats nobody takes.",
                    seconds,
                ).format(n=seconds)
            )
        state.counting = counting

    def _paused_line(self, state: TableState, paused: bool) -> None:
        """A resync says the table is paused (the server cannot save) or goes on again, when the
        notice that said it was missed: a player back after a reconnect, a watcher arriving."""
        if paused != state.paused and state.state == "playing":
            if paused:
                self.say(_("The server cannot save the game right now: the table is paused until it can."))
            else:
                self.say(_("The game is saved again: play goes on."))
        state.paused = paused

    async def _on_events(self, m: JSON) -> None:
        tid = str(m.get("table"))
        state = self.mine.get(tid)
        if state is None:
            return
        if tid in self.resuming:
            self.held.setdefault(tid, []).append(m)
            return
        v = m.get("v")
        if isinstance(v, int):
            if state.v is not None and v <= state.v:
                return
            state.v = v
        view = m.get("view")
        at = int(m.get("at", 0))
        if isinstance(view, dict):
            state.view = view
        state.heard(at)
        texts = [str(t) for t in m.get("texts", [])]
        priority = m.get("priority")
        if isinstance(priority, list) and len(priority) == len(texts):
            marked = [
                Line(t, p) if isinstance(p, int) else Line(t) for t, p in zip(texts, priority, strict=True)
            ]
        else:  # an older server: every line counts as the listener's
            marked = [Line(t) for t in texts]
        events = [e for e in m.get("events", []) if isinstance(e, dict)]
        lines = self._with_hints(state, events, marked, at)
        self.speaker.lines(lines, ring=state.you is not None and rings(state.game, lines))
        summary = m.get("summary")
        self.speaker.summary(summary if isinstance(summary, str) else None)
        if state.ui is not None and state.view is not None and state.game in LOCAL_TICKS:
            state.wakeups = sorted(set(state.ui.wakeups(state.view)))

    async def _on_cue(self, m: JSON) -> None:
        state = self.mine.get(str(m.get("table")))
        text = str(m.get("text") or "")
        rest = text[len("catch now") :].lstrip("!.: ") if text.lower().startswith("catch now") else text
        if not rest and state is not None and state.view is not None:
            fight = state.view.get("fight") or {}
            for flight in fight.get("flights", []):
                if flight.get("id") == m.get("flight"):
                    thrower = flight.get("thrower")
                    names = state.names()
                    if isinstance(thrower, int) and 0 <= thrower < len(names):
                        rest = _("{name}'s burrito.").format(name=names[thrower])
        self.speaker.cue([(_("CATCH NOW!") + " " + rest).strip()])

    def _game_starts(self, state: TableState, announce: bool) -> None:
        state.wakeups = []
        if state.you is None or state.view is None:
            state.ui = None
            if announce:
                self.say(_("The game starts at table {n}.").format(n=self.numbers.get(state.id, "?")))
        else:
            state.ui = make_game_ui(
                state.game, state.you, state.names(), state.view, state.summary.get("options") or {}
            )
            if announce:
                self.say(state.ui.welcome())
            if state.game in LOCAL_TICKS:
                state.wakeups = sorted(set(state.ui.wakeups(state.view)))
        if announce:
            for line in time_to_react_lines(
                state.summary.get("options") or {}, state.summary.get("seats", []), state.you
            ):
                self.say(line)

    def _with_hints(self, state: TableState, events: list[JSON], lines: list[Line], at: int) -> list[Line]:
        """The server's lines with the UI's key hints, each hint marked like its event's lines."""
        ui, view = state.ui, state.view
        if ui is None or view is None or state.you is None:
            return lines
        try:
            narrate: Callable[[JSON, int | None, Sequence[str], JSON], list[str]] = importlib.import_module(
                f"cardroom.narrate.{state.game}"
            ).narrate
            names = state.names()
            base = [narrate(e, state.you, names, view) for e in events]
            ours = [ui.narrate(e, view, at) for e in events]
        except Exception:  # the UI must never stop the server's words from being read
            return lines
        if sum(len(b) for b in base) != len(lines):
            extra = [Line(t) for b, u in zip(base, ours, strict=True) for t in _hinted(b, u, [])[len(b) :]]
            return lines + extra
        out: list[Line] = []
        i = 0
        for b, u in zip(base, ours, strict=True):
            chunk = lines[i : i + len(b)]
            i += len(b)
            if b and not u:
                continue  # the person asked for quiet (burrito's m)
            said = _hinted(b, u, [line.text for line in chunk])
            marks = [*chunk, *[chunk[0] if chunk else Line("")] * (len(said) - len(chunk))]
            out.extend(Line(text, m.priority) for text, m in zip(said, marks, strict=True))
        return out

    def _tick_timeout(self) -> float | None:
        soonest: float | None = None
        for state in self.mine.values():
            if state.wakeups and state.ui is not None and state.state == "playing":
                left = (state.wakeups[0] - state.play_now()) / 1000
                soonest = left if soonest is None else min(soonest, left)
        return None if soonest is None else max(0.0, soonest)

    def _tick(self) -> None:
        for state in self.mine.values():
            if state.ui is None or state.view is None or state.state != "playing":
                continue
            now = state.play_now()
            while state.wakeups and state.wakeups[0] <= now:
                wake = state.wakeups.pop(0)
                self.speaker.cue(state.ui.tick(state.view, wake))

    # ---- input ----------------------------------------------------------------------------------

    def _update_mode(self) -> None:
        state = self.mine.get(self.current) if self.current else None
        want = state is not None and state.state == "playing"
        if want == self.keys_mode:
            return
        self.keys_mode = want
        self.line = ""
        if want:
            if not self.typing:
                self.term.keys()
            self.say(
                _(
                    "Game keys on: press ? for the keys, / for a command line (say TEXT to chat), L for your lag."
                )
            )
        else:
            self.typing = False
            self.term.lines()
            self.say(_("Typed commands again: type help for the list."))

    async def _key(self, key: str) -> None:
        state = self.mine.get(self.current) if self.current else None
        if key == "/":
            self.typing = True
            self.line = ""
            self.term.lines()
            self.say(
                _(
                    "Command: type it, then Enter (say TEXT chats, help lists the commands; an empty line cancels)."
                )
            )
            return
        if key in ("?", "f1"):
            if state is not None and state.ui is not None:
                for line in state.ui.help():
                    self.say(line)
            for line in game_key_help():
                self.say(line)
            self.say(bell_help())
            self.say(_("?: this help."))
            return
        if key == "L":
            await self._measure_lag()
            return
        if key == BELL_KEY:
            self.speaker.toggle_bell()
            return
        if key == "q":
            self.say(_("You leave the table. Goodbye!"))
            await self._quit()
            return
        if state is not None and state.ui is None and action_of(state.game, key) == "recap":
            await self._send(recap_query(state.id))  # watchers may ask too
            return
        if state is None or state.ui is None or state.view is None:
            self.say(_("You are watching: press / for a command line, ? for help."))
            return
        result = state.ui.on_key(key, state.view, state.play_now())
        if result is None:
            return
        if isinstance(result, Say):
            self.say(result.text)
            return
        if isinstance(result, Ask):
            await self._send({"type": "query", "table": state.id, "what": result.what})
            return
        self.refs += 1
        action = find_game(state.game).action_json(result)
        await self._send({"type": "act", "table": state.id, "action": action, "ref": self.refs})
