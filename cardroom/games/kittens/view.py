"""What one seat may know: the single place where hidden cards are filtered out.

A seat sees its own hand, everyone's hand size, the deck's size, the whole discard pile (it is
face up), the top cards it saw and still knows, and where its last put-back kitten lies while
that is known. Spectators (`seat=None`) see the public part only.
"""

from __future__ import annotations

from typing import Any

from cardroom.games.kittens.state import CHOOSING, GIVE, NOPE_WINDOW, State
from cardroom.protocol import JSON


def _window(s: State) -> JSON | None:
    """The open Nope window's card, as the view says it."""
    pending = s.pending
    if s.phase != NOPE_WINDOW or pending is None:
        return None
    player, cards, combo, target, name, take = pending
    return {
        "player": player,
        "cards": list(cards),
        "combo": combo,
        "target": target,
        "name": name,
        "take": take,
        "nopes": s.nopes,
        "last": s.last_actor,
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


def view(s: State, seat: int | None) -> JSON:
    """The JSON view of `s` for `seat` (fields listed in docs/rules/kittens.md#what-players-know)."""
    mine = seat is not None and 0 <= seat < s.players
    window = _window(s)
    choosing = _choosing(s, seat)
    return {
        "seat": seat,
        "players": s.players,
        "phase": s.phase,
        "turn": s.turn,
        "turns_left": s.turns_left,
        "direction": s.direction,
        "alive": list(s.alive),
        "winner": s.winner,
        "now": s.now,
        "deadline": s.deadline,
        "hand": list(s.hands[seat]) if mine and seat is not None else [],
        "hand_sizes": list(map(len, s.hands)),
        "deck_size": len(s.deck),
        "discard": s.discard[::-1],
        "kittens_left": s.kittens,
        "future": list(s.future[seat]) if mine and seat is not None else [],
        "kitten_at": s.kitten_at[seat] if mine and seat is not None else None,
        "window": window,
        "choosing": choosing,
        "extra_time": list(s.options.extra_time),
    }


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
