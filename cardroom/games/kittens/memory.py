"""What each seat knows of the deck's order, kept valid as the deck changes.

A seat knows the top cards it saw with (Super) See or Alter the Future, and where the last
kitten it put back lies. Knowledge is kept exactly while it stays true and dropped the moment
it no longer is (docs/rules/kittens.md#what-players-know):
- a draw from the top shifts everything up by one; a draw from the bottom shortens nothing
  above it;
- a card put back (Defuse, Sneak Draw) goes where only the seat that put it back knows: that
  seat knows the new order, every other seat forgets what it knew of the deck (its seen cards
  and its kitten's place may all have moved down by one, or not: telling which would tell where
  the card went);
- Shuffle forgets everything; Swap Top and Bottom forgets seen cards (a kitten's known place
  follows the swap);
- Alter the Future: the one who reorders knows the new order; the others forget.
"""

from __future__ import annotations

from cardroom.games.kittens.state import State


def top_removed(s: State) -> None:
    for f in s.future:
        if f:
            del f[0]
    at = s.kitten_at
    if at.count(None) == len(at):
        return  # nobody knows where a kitten lies: the common case, at every draw
    for seat, pos in enumerate(at):
        if pos is not None:
            at[seat] = pos - 1 if pos > 0 else None


def bottom_removed(s: State) -> None:
    size = len(s.deck)
    for f in s.future:
        if len(f) > size:
            del f[size:]
    at = s.kitten_at
    for seat, pos in enumerate(at):
        if pos is not None and pos >= size:
            at[seat] = None


def inserted(s: State, position: int, card: str, by: int, kitten: bool) -> None:
    """`by` put `card` back at the secret `position`: what the others knew is changed alike
    whatever the position (they forget it), so their views cannot tell where it went."""
    for seat, f in enumerate(s.future):
        if seat != by:
            f.clear()
        elif position <= len(f):
            f.insert(position, card)
    at = s.kitten_at
    own = at[by]
    s.kitten_at = [None] * s.players
    if kitten:
        s.kitten_at[by] = position
    elif own is not None:
        s.kitten_at[by] = own + 1 if own >= position else own


def forget_all(s: State) -> None:
    for f in s.future:
        f.clear()
    s.kitten_at = [None] * s.players


def swapped(s: State) -> None:
    last = len(s.deck) - 1
    for f in s.future:
        f.clear()
    at = s.kitten_at
    for seat, pos in enumerate(at):
        if pos == 0:
            at[seat] = last
        elif pos == last:
            at[seat] = 0


def seen(s: State, seat: int, cards: list[str]) -> None:
    if len(cards) >= len(s.future[seat]):
        s.future[seat] = list(cards)


def reordered(s: State, seat: int, cards: list[str]) -> None:
    count = len(cards)
    for other, f in enumerate(s.future):
        if other == seat:
            f[:count] = cards
        else:
            f.clear()
    at = s.kitten_at
    for other, pos in enumerate(at):
        if pos is not None and pos < count:
            at[other] = None


def dropped(s: State, seat: int) -> None:
    s.future[seat] = []
    s.kitten_at[seat] = None
