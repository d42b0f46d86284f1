"""The Throw Throw Burrito deck: card identifiers, counts, and which cards call which fight.

Identifiers are the snake_case names of the project's card list; they never change and are
never translated. A deck holds 120 cards; the two-deck variant doubles every count.
"""

from __future__ import annotations

NORMAL: tuple[str, ...] = (
    "barky_sharky",
    "logger_dogger",
    "goth_sloth",
    "nacho_llama",
    "salsa_yeti",
    "guac_gator",
    "churro_bat",
)
BRAWL_COLOURS: tuple[str, ...] = ("brawl_a", "brawl_b")
BATTLE: tuple[str, ...] = ("brawl_a", "brawl_b", "war", "duel")
CARDS: tuple[str, ...] = NORMAL + BATTLE
CARD_SET = frozenset(CARDS)
BATTLE_SET = frozenset(BATTLE)

COPIES: dict[str, int] = {**{c: 12 for c in NORMAL}, **{c: 9 for c in BATTLE}}
DECK_SIZE = sum(COPIES.values())

FIGHTS: tuple[str, ...] = ("brawl", "war", "duel")
# Which fight a battle card calls (the two brawl colours both call a Brawl).
FIGHT_OF: dict[str, str] = {"brawl_a": "brawl", "brawl_b": "brawl", "war": "war", "duel": "duel"}

SET_SIZE = 3
HAND_LIMIT = 5


def is_battle(card: str) -> bool:
    return card in BATTLE_SET


def set_worth(card: str) -> int:
    """Points a set of three of `card` is worth: 2 for battle cards, 1 for the others."""
    return 2 if card in BATTLE_SET else 1


def deck(decks: int = 1) -> list[str]:
    """Every card of `decks` decks, in a fixed order (shuffle it with the table's generator)."""
    return [card for card in CARDS for _ in range(COPIES[card] * decks)]
