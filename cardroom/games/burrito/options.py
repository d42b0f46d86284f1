"""Table options: every duration of the digital rules, the token counts, and the variants.

Options arrive as a mapping (a lobby form, a scenario file); anything unknown is refused at
once so that a typo never silently plays with a default. Two options are about time to react
(docs/rules/burrito.md#time-to-react): `timing: "relaxed"` doubles every reaction window of the
table, and `extra_time` lists the seats whose own reaction windows are doubled.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from cardroom.games.burrito.cards import DECK_SIZE, HAND_LIMIT
from cardroom.protocol import InvalidSetup

VARIANTS = ("small_room", "two_decks")
TIMINGS = ("standard", "relaxed")
RELAXED = ("flight_ms", "flight_min_ms", "catch_window_ms")
"""The reaction windows the relaxed timing doubles: a burrito's flight (the fastest one too) and
its catch window."""
EXTRA_TIME = 2
"""How many times longer a reaction window is for a seat granted extra time."""
MIN_PLAYERS = 2
MAX_ONE_DECK = 6
MAX_PLAYERS = 12


@dataclass(frozen=True, slots=True)
class Options:
    """All options with their defaults. `burritos` and `bruises` default by deck count (None).

    The fight's clock is made for people on a phone (docs/rules/burrito.md#a-fights-clock): a
    flight outlasts a person's reaction plus the network both ways, the catch window is a
    gamble for anyone, and hits a phone's jitter apart are simultaneous."""

    countdown_ms: int = 3000
    simultaneous_call_ms: int = 500
    flight_ms: int = 2000
    flight_speedup_pct: int = 15
    flight_min_ms: int = 1400
    dodge_cooldown_ms: int = 1500
    catch_window_ms: int = 600
    tie_ms: int = 200
    duel_beat_ms: int = 1000
    fight_timeout_ms: int = 15000
    behind_back_ms: int = 700
    between_rounds_ms: int = 5000
    idle_round_ms: int = 60000
    """Play in which no card moves for this long ends the round as it stands
    (docs/rules/burrito.md#play-that-stands-still)."""
    seat_grace_ms: int = 30000
    """No rule: how long the server holds an absent person's seat before a stand-in plays it
    (0: at once; docs/rules/burrito.md#stand-ins)."""
    pile_size: int = 15
    burritos: int = 2
    bruises: int = 6
    variants: tuple[str, ...] = ()
    extra_time: tuple[int, ...] = ()
    timing: str = "standard"
    """The preset the durations in force came from ("relaxed": RELAXED windows doubled)."""

    @property
    def small_room(self) -> bool:
        return "small_room" in self.variants

    @property
    def two_decks(self) -> bool:
        return "two_decks" in self.variants

    @property
    def decks(self) -> int:
        return 2 if self.two_decks else 1

    def time_factor(self, seat: int) -> int:
        """How many times longer the windows that ask `seat` to react are (extra time)."""
        return EXTRA_TIME if seat in self.extra_time else 1

    def listening_factor(self, game_start: bool = False) -> int:
        """How many times longer a round's first countdown and the pause between rounds are:
        EXTRA_TIME when a seat has extra time, else 1; one more for the game's first countdown,
        when every page takes its player from the table's buttons to their hand and a screen
        reader says where they landed before the round's lines. A round starts for everyone at
        once, so the table waits for the player who hears their hand and the scores rather than
        reads them (docs/rules/burrito.md#extra-time-and-a-rounds-start)."""
        if not self.extra_time:
            return 1
        return EXTRA_TIME + (1 if game_start else 0)

    def to_json(self) -> dict[str, Any]:
        """The options as a table is created with them: the timing preset and the durations
        before it (so the preset stays visible to everyone), which parsing stretches again."""
        out: dict[str, Any] = {f.name: getattr(self, f.name) for f in fields(self)}
        out["variants"] = list(self.variants)
        out["extra_time"] = list(self.extra_time)
        if self.timing == "relaxed":
            for name in RELAXED:
                out[name] //= 2
        return out

    def changes(self) -> dict[str, Any]:
        """The variants, and the options that differ from a plain table's with those variants
        (token counts default by deck count): the short form tables are listed with."""
        plain = Options(variants=self.variants, burritos=2 * self.decks, bruises=6 * self.decks).to_json()
        return {
            name: value
            for name, value in self.to_json().items()
            if value != plain[name] or (name == "variants" and value)
        }


_INT_FIELDS = tuple(f.name for f in fields(Options) if f.name not in ("variants", "extra_time", "timing"))
_DEFAULTS = Options()


def parse_timing(raw: Mapping[str, Any]) -> int:
    """How many times every reaction window is stretched by the `timing` option (1 or 2)."""
    timing = raw.get("timing", "standard")
    if timing not in TIMINGS:
        raise InvalidSetup(f"timing must be one of {', '.join(TIMINGS)}, not {timing!r}")
    return 2 if timing == "relaxed" else 1


def parse_extra_time(raw: Mapping[str, Any], players: int) -> tuple[int, ...]:
    """The seats granted extra time: distinct seat numbers of the table, in order."""
    seats = raw.get("extra_time", [])
    if not isinstance(seats, list | tuple) or not all(
        isinstance(s, int) and not isinstance(s, bool) and 0 <= s < players for s in seats
    ):
        raise InvalidSetup(f"extra_time must be a list of seats from 0 to {players - 1}")
    return tuple(sorted(set(seats)))


def parse_options(raw: Mapping[str, Any], players: int) -> Options:
    """Options for a table of `players`; InvalidSetup for anything unknown or out of range."""
    if isinstance(players, bool) or not isinstance(players, int):
        raise InvalidSetup("players must be a whole number")
    if not isinstance(raw, Mapping):
        raise InvalidSetup("options must be an object")
    unknown = sorted(set(raw) - set(_INT_FIELDS) - {"variants", "extra_time", "timing"})
    if unknown:
        raise InvalidSetup(f"unknown option {unknown[0]!r}")
    variants = raw.get("variants", [])
    if not isinstance(variants, list | tuple) or not all(isinstance(v, str) for v in variants):
        raise InvalidSetup("variants must be a list of variant names")
    for v in variants:
        if v not in VARIANTS:
            raise InvalidSetup(f"unknown variant {v!r}: expected one of {', '.join(VARIANTS)}")
    if players > MAX_ONE_DECK:
        # 7 to 12 players use two decks by themselves (docs/rules/burrito.md#two-decks-by-themselves).
        variants = [*variants, "two_decks"]
    two = "two_decks" in variants
    values: dict[str, int] = {"burritos": 4 if two else 2, "bruises": 12 if two else 6}
    for name in _INT_FIELDS:
        if name in raw:
            value = raw[name]
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise InvalidSetup(f"option {name!r} must be a whole number of at least 0")
            values[name] = value
    stretch = parse_timing(raw)
    for name in RELAXED:
        values[name] = values.get(name, getattr(_DEFAULTS, name)) * stretch
    opts = Options(
        variants=tuple(dict.fromkeys(variants)),
        extra_time=parse_extra_time(raw, players),
        timing="relaxed" if stretch == 2 else "standard",
        **values,
    )
    if players < MIN_PLAYERS or players > MAX_PLAYERS:
        raise InvalidSetup(
            f"Throw Throw Burrito is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players}"
        )
    if opts.burritos < 2:
        raise InvalidSetup("a table needs at least 2 burritos (a duel starts with one in each hand)")
    if opts.bruises < 1:
        raise InvalidSetup("a table needs at least 1 bruise token")
    if opts.flight_min_ms < 1 or opts.flight_ms < 1:
        raise InvalidSetup("flight times must be at least 1 ms")
    if opts.idle_round_ms < 1000:
        raise InvalidSetup("idle_round_ms must be at least 1000")
    if opts.flight_speedup_pct > 99:
        raise InvalidSetup("flight_speedup_pct must be below 100")
    if opts.pile_size < HAND_LIMIT or opts.pile_size * players > DECK_SIZE * opts.decks:
        raise InvalidSetup(
            f"pile_size must be between {HAND_LIMIT} and {DECK_SIZE * opts.decks // players} for {players} players"
        )
    return opts
