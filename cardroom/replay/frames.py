"""A stored game rebuilt step by step, as the frames one viewer sees.

The table is rebuilt from the record with the same stepping every driver uses (timers due by
a move's time first, then the move), so a replay is the game that was played, not a log of
it. Each step that a viewer hears of becomes a frame: its time, the sentences the server's
`Narrator` says for it, the events as that viewer may see them, and the view after it.

A seat's frames are filtered in the one place filtering happens (`Event.for_seat`), so a
replay for a seat never shows more than that seat knew at the table. `everything=True` is for
a game that is over: every event whole, every hand in the view, and each hidden event
narrated as the seat that knew it heard it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypedDict

from cardroom.games import find_game
from cardroom.i18n import _, use_language
from cardroom.narrate.narrator import Narrator
from cardroom.protocol import JSON, Event, Rejected, Table
from cardroom.protocol.record import Record, start


class Frame(TypedDict):
    """One step as the viewer saw it; JSON-ready (the web page and the terminal read the same)."""

    i: int
    at: int
    texts: list[str]
    events: list[JSON]
    view: JSON


class _Camera:
    """Turns the events of one step into a frame for one viewer (or for everyone)."""

    def __init__(
        self,
        table: Table[Any],
        game: str,
        seat: int | None,
        names: Sequence[str],
        lang: str,
        everything: bool,
    ) -> None:
        self.table = table
        self.seat = seat
        self.names = list(names)
        self.lang = lang
        self.everything = everything
        self.narrator = Narrator(game)
        self.frames: list[Frame] = []

    def shoot(self, at: int, events: list[Event], always: bool = False) -> None:
        """Add the frame of `events` at `at`, unless the viewer hears nothing of them."""
        if self.everything:
            heard = [e.full() for e in events]
        else:
            heard = [e for e in (ev.for_seat(self.seat) for ev in events) if e is not None]
        if not heard and not always:
            return
        if self.everything:
            table_view = self.table.view(None)
            seat_views = [self.table.view(i) for i in range(self.table.players)]
            texts = self._everything_texts(events, table_view, seat_views)
            view: JSON = {"table": table_view, "seats": seat_views}
        else:
            view = self.table.view(self.seat)
            texts, _priority = self.narrator.lines(heard, self.seat, self.names, view, self.lang)
        self.frames.append({"i": len(self.frames), "at": at, "texts": texts, "events": heard, "view": view})

    def _everything_texts(self, events: list[Event], table_view: JSON, seat_views: list[JSON]) -> list[str]:
        """Public events as a spectator hears them; a hidden one as the seat that knew it heard it
        (its actor when they knew, else the first who did), named, so every card is said."""
        texts: list[str] = []
        for event in events:
            knowers = sorted(event.knowers)
            if (event.secret or not event.public) and knowers:
                actor = event.data.get("player")
                knower = actor if actor in knowers else knowers[0]
                heard = event.for_seat(knower)
                assert heard is not None  # a knower always hears
                lines, _priority = self.narrator.lines(
                    [heard], knower, self.names, seat_views[knower], self.lang
                )
                with use_language(self.lang):
                    name = self._name(knower)
                    texts.extend(_("To {name}: {text}").format(name=name, text=line) for line in lines)
                continue
            public = event.for_seat(None)
            if public is not None:
                lines, _priority = self.narrator.lines([public], None, self.names, table_view, self.lang)
                texts.extend(lines)
        return texts

    def _name(self, seat: int) -> str:
        if 0 <= seat < len(self.names):
            return self.names[seat]
        return _("seat {seat}").format(seat=seat)


def _run_timers(table: Table[Any], to_ms: int, camera: _Camera) -> None:
    """Every timer due by `to_ms`, each at its own moment (its own frame), as a driver runs them."""
    while True:
        due = table.next_deadline()
        if due is None or due > to_ms:
            break
        due = max(due, table.now)
        events = table.advance(due)
        camera.shoot(due, events)
        if not events and table.next_deadline() == due:
            break  # a deadline that does not move on: let the last advance settle it
    if to_ms >= table.now:
        camera.shoot(to_ms, table.advance(to_ms))


def frames(
    record: Record,
    seat: int | None,
    names: list[str],
    lang: str,
    everything: bool = False,
    end_at: int | None = None,
) -> list[Frame]:
    """The game of `record` as `seat` saw it (None: a spectator), or, with `everything`, whole.

    Frame 0 is the table before any move (the deal as the viewer heard it); then one frame per
    timer moment and per accepted move the viewer heard of; refused moves change nothing and
    make no frame. Timers keep running up to `end_at` after the last move.
    """
    game = find_game(record.game)
    if seat is not None and not 0 <= seat < record.players:
        raise ValueError(f"no seat {seat} at a table of {record.players}")
    table = start(game, record)
    camera = _Camera(table, game.name, seat, names, lang, everything)
    camera.shoot(0, table.advance(0), always=True)
    for move in record.moves:
        _run_timers(table, move.at, camera)
        result = table.apply(move.player, game.parse_action(move.action, record.players), move.at)
        if not isinstance(result, Rejected):
            camera.shoot(move.at, result)
    if end_at is not None:
        _run_timers(table, end_at, camera)
    return camera.frames
