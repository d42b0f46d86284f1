"""The cards of Exploding Kittens as data: identifiers, effects, cats, and the deck table.

Identifiers are the public contract of scenario files and the wire (rules/CARDS.md); they are
never translated. What a card does is named by an *effect key* that clients translate; the
English text here is the fallback and the source of `describe`.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Final

EXPLODING_KITTEN: Final = "exploding_kitten"
DEFUSE: Final = "defuse"
NOPE: Final = "nope"
FERAL_CAT: Final = "feral_cat"

CATS: Final = ("black_cat", "white_cat", "grey_cat", "red_cat", "tabby_cat")
"""The five coloured cats; the Feral Cat stands in for any of them."""

ACTIONS: Final = (
    "attack",
    "targeted_attack",
    "personal_attack",
    "triple_attack",
    "skip",
    "super_skip",
    "reverse",
    "favor",
    "shuffle",
    "draw_from_the_bottom",
    "swap_top_and_bottom",
    "see_the_future",
    "super_see_the_future",
    "alter_the_future",
    "super_alter_the_future",
    "sneak_draw",
)
"""Cards that do something when played alone (each of them can be Noped)."""

CARDS: Final = (EXPLODING_KITTEN, DEFUSE, NOPE, *ACTIONS, *CATS, FERAL_CAT)
CARD_SET: Final = frozenset(CARDS)
CAT_SET: Final = frozenset(CATS)
ANY_CAT: Final = frozenset((*CATS, FERAL_CAT))
ACTION_SET: Final = frozenset(ACTIONS)

TARGETED: Final = frozenset(("targeted_attack", "favor"))
"""Single cards that name another player."""

ATTACK_TURNS: Final = MappingProxyType({"attack": 2, "targeted_attack": 2, "triple_attack": 3})
"""Attacks aimed at another player, and the turns each adds (docs/rules/kittens.md#attack-stacking)."""

FUTURE_DEPTH: Final = MappingProxyType(
    {"see_the_future": 3, "super_see_the_future": 5, "alter_the_future": 3, "super_alter_the_future": 5}
)

TEXT: Final = MappingProxyType(
    {
        EXPLODING_KITTEN: "Drawing it makes you explode unless you play a Defuse in time; then you "
        "put it back in the deck wherever you like.",
        DEFUSE: "Saves you from an Exploding Kitten you drew; you put the kitten back anywhere in the deck. "
        "It counts as your draw.",
        NOPE: "Cancels the last card or combo another player played; a Nope can be Noped too. "
        "Play it at any time while a Nope window is open.",
        "attack": "Ends your turn without drawing; the next player plays two turns.",
        "targeted_attack": "Ends your turn without drawing; the player you choose plays two turns.",
        "personal_attack": "Your turn goes on, and two more turns of yours follow it.",
        "triple_attack": "Ends your turn without drawing; the next player plays three turns.",
        "skip": "Ends one turn without drawing.",
        "super_skip": "Ends all your turns without drawing.",
        "reverse": "Ends one turn without drawing and reverses the order of play.",
        "favor": "The player you choose gives you a card of their choice; you still draw.",
        "shuffle": "Shuffles the deck; you still draw.",
        "draw_from_the_bottom": "You draw the bottom card of the deck instead of the top one.",
        "swap_top_and_bottom": "The top and the bottom card of the deck change places; you still draw.",
        "see_the_future": "You look at the top three cards of the deck.",
        "super_see_the_future": "You look at the top five cards of the deck.",
        "alter_the_future": "You look at the top three cards of the deck and put them back in the order you like.",
        "super_alter_the_future": "You look at the top five cards of the deck and put them back in the order "
        "you like.",
        "sneak_draw": "You take the top card of the deck and put it back wherever you like; you still draw.",
        FERAL_CAT: "A wild cat: stands in for a cat of any colour in a cat combo, never with other cards.",
    }
)
CAT_TEXT: Final = "Does nothing alone; play two or three alike, or five different cards, as a combo."
COMBO_TEXT: Final = MappingProxyType(
    {
        "pair": "Two identical cards: the player you choose gives you a card of their choice.",
        "triple": "Three identical cards: name a card; if the player you choose holds one, they give it to you.",
        "five": "Five different cards: take any card you like from the discard pile.",
    }
)


def effect_key(card: str) -> str:
    """The translatable key of what `card` does (`kittens.card.<id>`)."""
    return f"kittens.card.{card}"


def text(card: str) -> str:
    """English text of what `card` does."""
    return CAT_TEXT if card in CAT_SET else TEXT[card]


# The deck table: copies of each card for 2..10 players (index 0 is two players).
# Exploding Kittens are always players - 1; Defuses are one per player plus the spares listed.
# Reasons and the printed table: docs/rules/kittens.md#the-deck
COPIES: Final = MappingProxyType(
    {
        NOPE: (4, 4, 5, 5, 6, 7, 8, 9, 10),
        "attack": (3, 3, 4, 4, 5, 5, 6, 6, 7),
        "targeted_attack": (1, 1, 2, 2, 2, 3, 3, 3, 4),
        "personal_attack": (1, 1, 1, 1, 2, 2, 2, 3, 3),
        "triple_attack": (1, 1, 1, 1, 1, 2, 2, 2, 2),
        "skip": (3, 3, 4, 4, 5, 5, 6, 6, 7),
        "super_skip": (1, 1, 1, 1, 2, 2, 2, 2, 3),
        "reverse": (1, 1, 2, 2, 2, 3, 3, 3, 4),
        "favor": (2, 3, 3, 4, 5, 5, 6, 6, 7),
        "shuffle": (2, 3, 3, 4, 4, 5, 5, 6, 6),
        "draw_from_the_bottom": (1, 2, 2, 2, 3, 3, 3, 4, 4),
        "swap_top_and_bottom": (1, 1, 1, 2, 2, 2, 3, 3, 3),
        "see_the_future": (3, 4, 4, 5, 6, 6, 7, 8, 8),
        "super_see_the_future": (1, 1, 1, 1, 2, 2, 2, 2, 3),
        "alter_the_future": (1, 1, 2, 2, 2, 3, 3, 3, 4),
        "super_alter_the_future": (1, 1, 1, 1, 1, 2, 2, 2, 2),
        "sneak_draw": (1, 1, 1, 2, 2, 2, 3, 3, 3),
        **{cat: (3, 3, 3, 4, 5, 5, 6, 6, 7) for cat in CATS},
        FERAL_CAT: (1, 1, 2, 2, 2, 3, 3, 3, 4),
    }
)
SPARE_DEFUSES: Final = (2, 2, 2, 2, 3, 3, 3, 4, 4)
HAND_SIZE: Final = 7
"""Cards dealt to each player besides their Defuse."""


def deck_counts(players: int) -> dict[str, int]:
    """Every card of a game of `players` and its copies, kittens and all Defuses included."""
    i = players - 2
    counts = {EXPLODING_KITTEN: players - 1, DEFUSE: players + SPARE_DEFUSES[i]}
    counts.update((card, copies[i]) for card, copies in COPIES.items())
    return counts
