"""A stored game rebuilt step by step, as the frames one viewer sees.

The table is rebuilt from the record with the same stepping every driver uses (timers due by
a move's time first, then the move), so a replay is the game that was played, not a log of
it. Each step that a viewer hears of becomes a frame: its time, the sentences the server's
`Narrator` says for it, the events as that viewer may see them, and the view after it.

A seat's frames are filtered in the one place filtering happens (`Event.for_seat`), so a
replay for a seat never shows more than that seat knew at the table. `everything=True` is for
a game that is over: every event whole, every hand in the view, and each hidden event
narrated as the seat that knew it heard it.

A long game's frames run to hundreds of megabytes (every seat's view at every step), so they
are made one at a time (`each_frame`) or a page at a time (`page`): the frames outside the page
are counted, not drawn.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any, NamedTuple, TypedDict

from cardroom.games import find_game
from cardroom.i18n import _, use_language
from cardroom.narrate.narrator import Narrator
from cardroom.protocol import JSON, Event, GameDef, Rejected, Table
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

    def heard(self, events: list[Event]) -> list[JSON]:
        """The events as the viewer may see them (none: the viewer hears nothing of this step)."""
        if self.everything:
            return [e.full() for e in events]
        return [e for e in (ev.for_seat(self.seat) for ev in events) if e is not None]

    def shoot(self, i: int, at: int, events: list[Event], heard: list[JSON]) -> Frame:
        """Frame `i`: the step of `events` at `at`, with the table as it is now."""
        if self.everything:
            table_view = self.table.view(None)
            seat_views = [self.table.view(i) for i in range(self.table.players)]
            texts = self._everything_texts(events, table_view, seat_views)
            view: JSON = {"table": table_view, "seats": seat_views}
        else:
            view = self.table.view(self.seat)
            texts, _priority = self.narrator.lines(heard, self.seat, self.names, view, self.lang)
        return {"i": i, "at": at, "texts": texts, "events": heard, "view": view}

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


Step = tuple[int, list[Event], bool]
"""A moment of the game: its time, the events the table said then, and whether it makes a
frame even when the viewer hears nothing of it (the deal)."""


def _timers(table: Table[Any], to_ms: int) -> Iterator[Step]:
    """Every timer due by `to_ms`, each at its own moment (its own step), as a driver runs them."""
    while True:
        due = table.next_deadline()
        if due is None or due > to_ms:
            break
        due = max(due, table.now)
        events = table.advance(due)
        yield due, events, False
        if not events and table.next_deadline() == due:
            break  # a deadline that does not move on: let the last advance settle it
    if to_ms >= table.now:
        yield to_ms, table.advance(to_ms), False


def _steps(game: GameDef[Any], table: Table[Any], record: Record, end_at: int | None) -> Iterator[Step]:
    """The game played again, step by step: the table is the one after each step when it is
    yielded (a generator, so only the frames a caller keeps are ever held)."""
    yield 0, table.advance(0), True
    for move in record.moves:
        yield from _timers(table, move.at)
        result = table.apply(move.player, game.parse_action(move.action, record.players), move.at)
        if not isinstance(result, Rejected):
            yield move.at, result, False
    if end_at is not None:
        yield from _timers(table, end_at)


def _shots(
    record: Record,
    seat: int | None,
    names: Sequence[str],
    lang: str,
    everything: bool,
    end_at: int | None,
    keep: Callable[[int], bool],
) -> Iterator[tuple[int, Frame | None]]:
    """Each frame's number, with the frame itself when `keep(number)` (else None: the frames
    nobody asked for are counted, never drawn, which is most of a replay's cost)."""
    game = find_game(record.game)
    if seat is not None and not 0 <= seat < record.players:
        raise ValueError(f"no seat {seat} at a table of {record.players}")
    table = start(game, record)
    camera = _Camera(table, game.name, seat, names, lang, everything)
    count = 0
    for at, events, always in _steps(game, table, record, end_at):
        heard = camera.heard(events)
        if not heard and not always:
            continue
        yield count, camera.shoot(count, at, events, heard) if keep(count) else None
        count += 1


def each_frame(
    record: Record,
    seat: int | None,
    names: Sequence[str],
    lang: str,
    everything: bool = False,
    end_at: int | None = None,
) -> Iterator[Frame]:
    """The game of `record` as `seat` saw it (None: a spectator), or, with `everything`, whole,
    one frame at a time: a long game is never held whole.

    Frame 0 is the table before any move (the deal as the viewer heard it); then one frame per
    timer moment and per accepted move the viewer heard of; refused moves change nothing and
    make no frame. Timers keep running up to `end_at` after the last move.
    """
    for _i, frame in _shots(record, seat, names, lang, everything, end_at, lambda i: True):
        assert frame is not None
        yield frame


def frames(
    record: Record,
    seat: int | None,
    names: list[str],
    lang: str,
    everything: bool = False,
    end_at: int | None = None,
) -> list[Frame]:
    """Every frame of `each_frame` in one list (a short game's, or a test's)."""
    return list(each_frame(record, seat, names, lang, everything, end_at))


class Page(NamedTuple):
    """Frames `first` to `first + len(frames) - 1` of a replay, and how many it has in all."""

    first: int
    frames: list[Frame]
    total: int


def page(
    record: Record,
    seat: int | None,
    names: Sequence[str],
    lang: str,
    first: int,
    size: int,
    everything: bool = False,
    end_at: int | None = None,
) -> Page:
    """Frames `first` to `first + size - 1` (fewer at the end), drawn alone; the others are
    only counted, so a page costs one page of views and sentences whatever the game's length."""
    kept: list[Frame] = []
    count = 0
    window = range(first, first + size)
    for number, frame in _shots(record, seat, names, lang, everything, end_at, window.__contains__):
        count = number + 1
        if frame is not None:
            kept.append(frame)
    return Page(first, kept, count)
