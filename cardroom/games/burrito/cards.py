"""The Throw Throw Burrito deck: one record per card (`REGISTRY`), and the tables derived from it.

A `Card` says everything the project knows of one card: its identifier, its copies in one deck
(the two-deck variant doubles every count), the fight it calls (None for the normal
kinds, which score as a set), the points of its set, its English name and what it is for
(marked with `N_` for the catalogs; the narration translates them with `_()`), the words at a
table of two for a battle card, and its picture. Adding a card is one record here, one picture
(`clients/web/static/art/<id>.svg`) and the catalog entries of its words (CONTRIBUTING.md).

Identifiers are the snake_case names of the project's card list; they never change and are
never translated. The order of `REGISTRY` is the order of the deck before its shuffle (`deck`).
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import Final

from cardroom.protocol.words import N_

FIGHTS: Final = ("brawl", "war", "duel")

NORMAL_TEXT: Final = N_("Three alike make a set: 1 point.")


@dataclass(frozen=True, slots=True)
class Card:
    """One card of Throw Throw Burrito, as the registry holds it."""

    id: str
    copies: int
    """Copies in one deck."""
    name: str
    text: str
    """What it is for, short: the tip beside the card and Shift+D."""
    fight: str | None = None
    """The fight three of them call (one of `FIGHTS`); None: three of them score as a set."""
    two_players: str = ""
    """What it is for at a table of two, where every fight is between the two players
    (docs/rules/burrito.md#two-players); "" when the words of `text` hold there too."""
    art: str = ""
    """The picture's file under clients/web/static/art (`<id>.svg` when not given)."""

    def __post_init__(self) -> None:
        if not self.art:
            object.__setattr__(self, "art", f"{self.id}.svg")
        if self.fight is not None and self.fight not in FIGHTS:
            raise ValueError(f"{self.id}: no fight {self.fight!r}")

    @property
    def battle(self) -> bool:
        """A battle card: three of them are called, never set (docs/rules/burrito.md)."""
        return self.fight is not None

    @property
    def points(self) -> int:
        """Points of a set of three: 2 for battle cards, 1 for the others."""
        return 2 if self.fight is not None else 1


def _normal(card: str, name: str) -> Card:
    return Card(card, 12, name, NORMAL_TEXT)


REGISTRY: Final = (
    _normal("barky_sharky", N_("Barky Sharky")),
    _normal("logger_dogger", N_("Logger Dogger")),
    _normal("goth_sloth", N_("Goth Sloth")),
    _normal("nacho_llama", N_("Nacho Llama")),
    _normal("salsa_yeti", N_("Salsa Yeti")),
    _normal("guac_gator", N_("Guac Gator")),
    _normal("churro_bat", N_("Churro Bat")),
    Card(
        "brawl_a",
        9,
        N_("Brawl A"),
        N_(
            "Call three Brawl A (never mixed with Brawl B): 2 points, and your left and right neighbours "
            "fight a Brawl."
        ),
        fight="brawl",
        two_players=N_(
            "Call three Brawl A (never mixed with Brawl B): 2 points, and a Brawl between you and the other player."
        ),
    ),
    Card(
        "brawl_b",
        9,
        N_("Brawl B"),
        N_(
            "Call three Brawl B (never mixed with Brawl A): 2 points, and your left and right neighbours "
            "fight a Brawl."
        ),
        fight="brawl",
        two_players=N_(
            "Call three Brawl B (never mixed with Brawl A): 2 points, and a Brawl between you and the other player."
        ),
    ),
    Card(
        "war",
        9,
        N_("War"),
        N_("Call three: 2 points, and everyone but you fights a War."),
        fight="war",
        two_players=N_("Call three: 2 points, and a War between you and the other player."),
    ),
    Card(
        "duel",
        9,
        N_("Duel"),
        N_(
            "Call three: 2 points, and the two players you name (you may be one) fight a Duel, each with a "
            "burrito in hand, after a countdown."
        ),
        fight="duel",
        two_players=N_(
            "Call three: 2 points, and a Duel with the other player, each with a burrito in hand, after a countdown."
        ),
    ),
)
"""Every card of Throw Throw Burrito, in the order of the deck before its shuffle."""

CARD: Final = MappingProxyType({card.id: card for card in REGISTRY})
"""The record of each card, by identifier."""

# -- Tables derived from the registry ----------------------------------------------------------

NORMAL: tuple[str, ...] = tuple(card.id for card in REGISTRY if not card.battle)
BATTLE: tuple[str, ...] = tuple(card.id for card in REGISTRY if card.battle)
BRAWL_COLOURS: tuple[str, ...] = tuple(card.id for card in REGISTRY if card.fight == "brawl")
CARDS: tuple[str, ...] = tuple(card.id for card in REGISTRY)
CARD_SET = frozenset(CARDS)
BATTLE_SET = frozenset(BATTLE)

COPIES: dict[str, int] = {card.id: card.copies for card in REGISTRY}
DECK_SIZE = sum(COPIES.values())

# Which fight a battle card calls (the two brawl colours both call a Brawl).
FIGHT_OF: dict[str, str] = {card.id: card.fight for card in REGISTRY if card.fight is not None}

SET_SIZE = 3
HAND_LIMIT = 5


def is_battle(card: str) -> bool:
    return card in BATTLE_SET


def set_worth(card: str) -> int:
    """Points a set of three of `card` is worth: 2 for battle cards, 1 for the others."""
    return CARD[card].points


def deck(decks: int = 1) -> list[str]:
    """Every card of `decks` decks, in a fixed order (shuffle it with the table's generator)."""
    return [card for card in CARDS for _ in range(COPIES[card] * decks)]
