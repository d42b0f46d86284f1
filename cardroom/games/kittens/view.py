"""What one seat may know: the single place where hidden cards are filtered out.

A seat sees its own hand, everyone's hand size, the deck's size, the whole discard pile (it is
face up), the top cards it saw and still knows, and where its last put-back kitten lies while
that is known. Spectators (`seat=None`) see the public part only.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from cardroom.games.kittens.combos import turn_plays
from cardroom.games.kittens.state import CHOOSING, GIVE, NOPE_WINDOW, TURN, State
from cardroom.protocol import JSON


def _window(s: State) -> JSON | None:
    """The open Nope window's card, as the view says it."""
    pending = s.pending
    if s.phase != NOPE_WINDOW or pending is None:
        return None
    return {
        "player": pending.player,
        "cards": list(pending.cards),
        "combo": pending.combo,
        "target": pending.target,
        "name": pending.name,
        "take": pending.take,
        "nopes": s.nopes,
        "last": s.last_actor,
        "passed": [p for p, done in enumerate(s.passed) if done],
    }


def _choosing(s: State, seat: int | None) -> JSON | None:
    """The choice being made, as `seat` sees it: the cards only to their chooser."""
    if s.phase != CHOOSING:
        return None
    choosing: JSON = {
        "player": s.chooser,
        "kind": s.choice_kind,
        "for": s.receiver if s.choice_kind == GIVE else None,
    }
    if seat is not None and 0 <= seat < s.players and seat == s.chooser and s.choice_kind != GIVE:
        choosing["cards"] = list(s.choice_cards)
    return choosing


def view(s: State, seat: int | None, plays: bool = True) -> JSON:
    """The JSON view of `s` for `seat` (fields listed in docs/rules/kittens.md#what-players-know).
    `plays=False` leaves the turn's `plays` and `fives` empty: only the page reads them, and the
    expert's playouts, which build a view at every turn, spent a third of their time on them."""
    out = _public(s)
    _personal(s, out, seat, plays)
    return out


def views(s: State, seats: Iterable[int | None]) -> dict[int | None, JSON]:
    """`view` of each of `seats`, the part everyone sees built once: a server sends every
    member of a table a view with each batch. The views share that part's lists: read them."""
    public = _public(s)
    out: dict[int | None, JSON] = {}
    for seat in seats:
        mine = dict(public)
        _personal(s, mine, seat)
        out[seat] = mine
    return out


def _public(s: State) -> JSON:
    """A spectator's view."""
    window = _window(s)
    choosing = _choosing(s, None)
    return {
        "seat": None,
        "players": s.players,
        "phase": s.phase,
        "turn": s.turn,
        "turns_left": s.turns_left,
        "direction": s.direction,
        "alive": list(s.alive),
        "winner": s.winner,
        "now": s.now,
        "deadline": s.deadline,
        "hand": [],
        "hand_sizes": list(map(len, s.hands)),
        "deck_size": len(s.deck),
        "discard": s.discard[::-1],
        "kittens_left": s.kittens,
        "future": [],
        "kitten_at": None,
        "window": window,
        "choosing": choosing,
        "extra_time": list(s.options.extra_time),
        "always_pass": [p for p, on in enumerate(s.always) if on],
        "plays": [],
        "fives": [],
    }


def _personal(s: State, out: JSON, seat: int | None, plays: bool = True) -> None:
    """`out`, a spectator's view (or a copy of one), made `seat`'s: its seat, its hand, what it
    knows of the deck, the cards it chooses from."""
    out["seat"] = seat
    if seat is None or not 0 <= seat < s.players:
        out["hand"] = []
        out["future"] = []
        return
    out["hand"] = list(s.hands[seat])
    out["future"] = list(s.future[seat])
    out["kitten_at"] = s.kitten_at[seat]
    if plays and s.phase == TURN and seat == s.turn and s.alive[seat]:
        out["plays"], out["fives"] = turn_plays(s.hands[seat], bool(s.discard))
    choosing = out["choosing"]
    if choosing is not None and seat == s.chooser and s.choice_kind != GIVE:
        out["choosing"] = {**choosing, "cards": list(s.choice_cards)}


def view_field(s: State, seat: int, key: str) -> Any:
    """`view(s, seat)[key]`, the fields bots read at every turn or window made alone (issue 16),
    the others taken from the whole view."""
    if key == "phase":
        return s.phase
    if key == "turn":
        return s.turn
    if key == "hand":
        return list(s.hands[seat]) if 0 <= seat < s.players else []
    if key == "deadline":
        return s.deadline
    if key == "alive":
        return list(s.alive)
    if key == "discard":
        return s.discard[::-1]
    if key == "deck_size":
        return len(s.deck)
    if key == "window":
        return _window(s)
    if key == "choosing":
        return _choosing(s, seat)
    return view(s, seat)[key]
