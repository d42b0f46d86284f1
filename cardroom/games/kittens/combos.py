"""Which sets of cards make a combo (rules 003 "Combo", DIGITAL.md; docs/rules/kittens.md#combos).

Two or three identical cards make a pair or a triple, cats or not. The Feral Cat stands in for
a cat of any colour but never joins non-cat cards; Feral Cats alone are identical to each
other. Five different cards take a card from the discard pile; one Feral Cat may stand in for
the missing colour when all five are cats.
"""

from __future__ import annotations

from cardroom.games.kittens.cards import ANY_CAT, EXPLODING_KITTEN, FERAL_CAT

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
