"""The shapes every game fills in: a game definition, its tables, and its bots.

A *game definition* (`GameDef`) is a factory: it checks options, deals tables, parses actions.
A *table* is one game in progress. It is pure: state in, events out. Time is only ever an
argument (`at_ms`, `to_ms`), in milliseconds of play time; timers are deadlines the table
reports through `next_deadline()` and a driver honours by calling `advance()`.

The contract drivers keep: before `apply(p, a, t)`, call `advance(t)`, so that every timer due
at or before `t` has run (a timer and an action at the same moment: the timer first).
`protocol.record.act` does both.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping
from functools import partial
from typing import Any, Protocol, TypeVar

from cardroom.protocol.event import JSON, Event, Rejected

A = TypeVar("A")
A_in = TypeVar("A_in", contravariant=True)
A_out = TypeVar("A_out", covariant=True)


class Table(Protocol[A_in]):
    """One game in progress."""

    @property
    def players(self) -> int: ...

    @property
    def now(self) -> int:
        """The play time, in ms, up to which this table has run."""
        ...

    @property
    def over(self) -> bool: ...

    @property
    def winner(self) -> int | None: ...

    def apply(self, player: int, action: A_in, at_ms: int) -> list[Event] | Rejected:
        """Play `action` for `player` at `at_ms`; a refusal changes nothing."""
        ...

    def advance(self, to_ms: int) -> list[Event]:
        """Run every timer due at or before `to_ms`, in order."""
        ...

    def next_deadline(self) -> int | None:
        """When the next timer is due, if any."""
        ...

    def view(self, seat: int | None) -> JSON:
        """All that `seat` may know (None: a spectator). JSON-ready."""
        ...

    def views(self, seats: Iterable[int | None]) -> dict[int | None, JSON]:
        """`view(seat)` for each of `seats`, the part everyone may know built once (the server
        sends a view to every member of a table with each batch). The views may share lists:
        read them, do not change them."""
        ...

    def actors(self) -> Collection[int]:
        """The seats that have an action the table would accept now (a turn, a Nope to play, a
        choice to make). A driver asks only the bots that do not listen (`Bot.listens`), so
        that they are woken only when they may act (issue 16)."""
        ...

    def peek(self, seat: int) -> Callable[[str], Any]:
        """A function giving one field of `view(seat)` by name, as the table is when it is
        called, without building the rest of the view where the table can: what bots ask at
        every turn (issue 16; `Sight.field`)."""
        ...

    def summary(self) -> JSON:
        """Everything, hidden cards included: the scenario file's `final` object."""
        ...

    def snapshot(self) -> Any:
        """A value equal for two tables in the same state (random generator included)."""
        ...


ViewFn = Callable[[], JSON]
"""What a bot is handed to see its seat's view: called, it gives the whole view as it is now."""


class Sight:
    """The view function the drivers hand their bots: one seat's view of a table, built at most
    once per state of the table (a bot may ask for it several times, or not at all), and each
    field of it on its own (`field`, the table's `peek`) without building the rest, which most
    decisions need no more of (issue 16)."""

    __slots__ = ("_seat", "_views", "_whole", "field")

    def __init__(self, table: Table[Any], seat: int, views: dict[int, JSON]) -> None:
        """`views`: the views built since the table last changed, by seat; shared by a driver's
        sights, which empties it whenever the table changes."""
        self._whole = table.view
        self._seat = seat
        self._views = views
        self.field = table.peek(seat)

    def __call__(self) -> JSON:
        view = self._views.get(self._seat)
        if view is None:
            view = self._views[self._seat] = self._whole(self._seat)
        return view


def glance(view: ViewFn, key: str) -> Any:
    """`view()[key]`: one field of a seat's view, without building the whole view when `view`
    is a `Sight` (bots are also handed plain functions: by the server, over the network, in
    tests)."""
    if type(view) is Sight:
        return view.field(key)
    return view()[key]


def fields(view: ViewFn) -> Callable[[str], Any]:
    """`glance` at `view` as a function of the field's name alone (what the kittens engine's
    `legal_moves` reads a seat's view by): a `Sight`'s own, else one that builds the view."""
    if type(view) is Sight:
        return view.field
    return partial(glance, view)


class Bot(Protocol[A_out]):
    """A player that is a program. It sees what its seat sees, nothing more.

    Bots keep their own schedule so that they react like people: `notice` tells them what
    their seat just heard (already filtered) and lets them plan; `due` says when they next want
    to act; at that moment the driver calls `act` with the then-current view. Events and views
    are read, never changed: a driver may hand the same public event to several bots.
    """

    seat: int
    hears_secrets: bool
    """Whether the bot reads the hidden parts of the events its seat knows (the card it drew).
    False: it reads only what everybody hears of each event, and its own cards from the view;
    a driver may then hand it the same public list as every other such bot, and skip the events
    only their knowers hear of (its own dealt hand), unfiltered per seat (issue 16)."""

    listens: bool
    """Whether the bot reads events. False: it decides from its seat's view alone, and a driver
    may tell it only of the batches after which its seat is among the table's `actors`, with
    no events (`notice([], ...)`: look at the table as it is); after other batches it keeps
    whatever it planned, and its `act` finds nothing to do if the moment passed (issue 16)."""

    def notice(self, events: list[JSON], view: ViewFn, now: int) -> None: ...

    def due(self) -> int | None: ...

    def act(self, view: ViewFn, now: int) -> A_out | None: ...

    def refused(self, rejection: Rejected, view: ViewFn, now: int) -> None: ...


class GameDef(Protocol[A]):
    """A game: its name, its options, how it deals, parses and describes (bots: `cardroom.bots`)."""

    name: str
    min_players: int
    max_players: int

    def new_table(self, players: int, options: Mapping[str, Any], seed: int) -> Table[A]:
        """A table shuffled and dealt from `seed`. Raises InvalidSetup."""
        ...

    def options_json(self, options: Mapping[str, Any], players: int) -> JSON:
        """The options of a table of `players`, checked and written back in their own form:
        each value of its type, only those that differ from a plain table's (`{}` for one).
        It means the same table as `options`; raises InvalidSetup as `new_table` would."""
        ...

    def from_deal(
        self, players: int, options: Mapping[str, Any], deal: Mapping[str, Any], seed: int
    ) -> Table[A]:
        """A table that is exactly `deal` (the scenario format). Raises InvalidSetup."""
        ...

    def parse_action(self, raw: Mapping[str, Any], players: int) -> A:
        """An action from its JSON form (`{"do": ...}`). Raises InvalidAction."""
        ...

    def action_json(self, action: A) -> JSON:
        """The JSON form of an action; `parse_action` of it gives it back."""
        ...

    def standings(self, table: Table[A]) -> list[int]:
        """Each seat's place in a finished game: 1 for the winner, equal places for ties."""
        ...

    def stats(self, table: Table[A]) -> JSON:
        """Counts a finished table adds to `simulate` statistics (e.g. fights by kind).

        Numbers and lists of numbers are added up over games (dicts recurse); keys that start
        with `mean_` (e.g. `mean_scores`, one per seat) are averaged over games instead.
        """
        ...
