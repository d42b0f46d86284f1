"""Which sets of cards make a combo (rules 003 "Combo", DIGITAL.md; docs/rules/kittens.md#combos).

Two or three identical cards make a pair or a triple, cats or not. The Feral Cat stands in for
a cat of any colour but never joins non-cat cards; Feral Cats alone are identical to each
other. Five different cards take a card from the discard pile; one Feral Cat may stand in for
the missing colour when all five are cats.
"""

from __future__ import annotations

from itertools import combinations
from math import comb

from cardroom.games.kittens.cards import ACTION_SET, ANY_CAT, CAT_SET, EXPLODING_KITTEN, FERAL_CAT

PAIR = "pair"
TRIPLE = "triple"
FIVE = "five"


def classify(cards: tuple[str, ...]) -> str | None:
    """`pair`, `triple` or `five` for a valid combo of these cards, else None."""
    size = len(cards)
    if EXPLODING_KITTEN in cards:
        return None
    if size in (2, 3):
        kinds = set(cards)
        if len(kinds) == 1:
            return PAIR if size == 2 else TRIPLE
        if len(kinds) == 2 and FERAL_CAT in kinds and kinds <= ANY_CAT:
            return PAIR if size == 2 else TRIPLE
        return None
    if size == 5:
        kinds = set(cards)
        if len(kinds) != 5:
            return None
        if FERAL_CAT in kinds and not kinds <= ANY_CAT:
            return None
        return FIVE
    return None


def _combos(hand: list[str], size: int) -> list[tuple[str, ...]]:
    """Each multiset of `size` cards of `hand` that makes a pair or a triple: identical cards,
    or a cat completed by Feral Cats (the kind first)."""
    held: dict[str, int] = {}
    for card in hand:
        if card != EXPLODING_KITTEN:
            held[card] = held.get(card, 0) + 1
    ferals = held.get(FERAL_CAT, 0)
    out: list[tuple[str, ...]] = []
    for card, have in held.items():
        if have >= size:
            out.append((card,) * size)
        if card in CAT_SET:
            for wild in range(max(1, size - have), min(ferals, size - 1) + 1):
                out.append((card,) * (size - wild) + (FERAL_CAT,) * wild)
    return out


def card_sets(hand: list[str], fives: bool = True) -> list[tuple[str, ...]]:
    """Every set of cards of `hand` that may be played together, each multiset once: each kind
    alone (in the order first held), pairs, triples, five different cards unless `fives` is
    False (the table decides which of these make a play: a cat alone makes none)."""
    kinds = list(dict.fromkeys(c for c in hand if c != EXPLODING_KITTEN))
    out: list[tuple[str, ...]] = [(card,) for card in kinds]
    out += _combos(hand, 2)
    out += _combos(hand, 3)
    if fives and len(kinds) >= 5:
        out += combinations(kinds, 5)
    return out


FIVES_LISTED = 126
"""The most five-card plays a view lists (all fives of nine kinds of card): a hand of more kinds
would make hundreds, so its view says only that fives may be played (`turn_plays`)."""


def turn_plays(hand: list[str], discard: bool) -> tuple[list[list[str]], list[list[str]] | None]:
    """The sets of cards of `hand` its holder may play on its turn, each sorted, for the page's
    Play button (issue 25: the page offers what `legal_moves` lists, and reads it from the seat's
    own view): the action cards alone and the pairs and triples; then the five-card plays (none
    while the discard pile is empty, which they take from), or None when there are more than
    FIVES_LISTED of them (any five different cards: the table judges)."""
    small: list[list[str]] = []
    fives: list[list[str]] = []
    for cards in card_sets(hand, fives=False):
        if (cards[0] in ACTION_SET) if len(cards) == 1 else classify(cards) is not None:
            small.append(sorted(cards))
    kinds = sorted({card for card in hand if card != EXPLODING_KITTEN})
    if not discard or len(kinds) < 5:
        return small, fives
    if comb(len(kinds), 5) > FIVES_LISTED:
        return small, None
    fives = [list(five) for five in combinations(kinds, 5) if classify(five) is not None]
    return small, fives
