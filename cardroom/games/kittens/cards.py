"""The cards of Exploding Kittens: one record per card (`REGISTRY`), and the tables derived from it.

A `Card` says everything the project knows of one card: its identifier, its copies at every
player count, what it does as data (`Effect` and its number `n`), whether it names a player or
is a cat, its English name, name with article and short text (marked with `N_` for the
catalogs; the narration translates them with `_()`), the bots' value and its picture. Adding a
card is one record here, one picture (`clients/web/static/art/<id>.svg`) and the catalog
entries of its words (CONTRIBUTING.md); the engine dispatches on the effect, and the
narration, the bots, the page's card properties and the checks of the docs read the registry.

Identifiers are the public contract of scenario files and the wire (rules/CARDS.md); they are
never translated. The order of `REGISTRY` is the order of the deck before its shuffle
(`deck_counts`): a seeded game deals the same cards only as long as it stays.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType
from typing import Final

from cardroom.protocol.words import N_


class Effect(StrEnum):
    """What a card does when it is played alone (or drawn, for the kitten); its number `n` is
    the card's own (turns, cards)."""

    EXPLODE = "explode"
    """Drawn: you explode unless you play a Defuse (never played)."""
    DEFUSE = "defuse"
    """Played only on an Exploding Kitten you drew."""
    NOPE = "nope"
    """Played only while a Nope window is open: cancels the last play."""
    COMBO = "combo"
    """Nothing alone: a cat, played in a combo."""
    ATTACK = "attack"
    """Ends your turn without drawing; the next player (or the one you choose) plays `n` turns,
    plus those you still owe when attacked yourself (docs/rules/kittens.md#attack-stacking)."""
    MORE_TURNS = "more_turns"
    """Your turn goes on, and `n` more turns of yours follow it."""
    END_TURNS = "end_turns"
    """Ends `n` of your turns without drawing (`ALL_TURNS`: every turn you owe)."""
    REVERSE = "reverse"
    """Reverses the order of play and ends one turn without drawing."""
    FAVOR = "favor"
    """The player you choose gives you a card of their choice."""
    SHUFFLE = "shuffle"
    """Shuffles the deck."""
    DRAW_BOTTOM = "draw_bottom"
    """You draw the bottom card of the deck instead of the top one."""
    SWAP_TOP_BOTTOM = "swap_top_bottom"
    """The top and the bottom card of the deck change places."""
    LOOK = "look"
    """You look at the top `n` cards of the deck."""
    REORDER = "reorder"
    """You look at the top `n` cards of the deck and put them back in the order you like."""
    SNEAK_DRAW = "sneak_draw"
    """You take the top card and put it back wherever you like."""


ALL_TURNS: Final = 0
"""`n` of `Effect.END_TURNS` that ends every turn you owe (Super Skip)."""

NOT_PLAYED_ALONE: Final = frozenset((Effect.EXPLODE, Effect.DEFUSE, Effect.NOPE, Effect.COMBO))
"""Effects of cards that are not played on a turn by themselves (every other card is an action,
which can be Noped)."""

MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 10
PLAYER_COUNTS: Final = range(MIN_PLAYERS, MAX_PLAYERS + 1)

SPARE_DEFUSES: Final = (2, 2, 2, 2, 3, 3, 3, 4, 4)
"""Defuses in the deck besides the one each player is dealt, for 2..10 players."""
HAND_SIZE: Final = 7
"""Cards dealt to each player besides their Defuse."""


def per_players(copies: Callable[[int], int]) -> tuple[int, ...]:
    """The copies of a card at each player count 2..10, from a rule on the player count."""
    return tuple(copies(n) for n in PLAYER_COUNTS)


CAT_TEXT: Final = N_("Does nothing alone; play two or three alike, or five different cards, as a combo.")
CAT_COPIES: Final = (3, 3, 3, 4, 5, 5, 6, 6, 7)


@dataclass(frozen=True, slots=True)
class Card:
    """One card of Exploding Kittens, as the registry holds it."""

    id: str
    copies: tuple[int, ...]
    """Copies in the game at 2, 3, ... 10 players (docs/rules/kittens.md#the-deck); the
    Exploding Kittens and Defuses are all of them, in hands and deck."""
    effect: Effect
    name: str
    a_name: str
    """The name with its indefinite article ("an Attack")."""
    text: str
    """What it does, short: the tip beside the card and Shift+D."""
    n: int = 0
    """The effect's number: turns of an attack or turns ended, cards seen or reordered."""
    targets: bool = False
    """Played alone, it names another player."""
    cat: bool = False
    """It goes into cat combos."""
    wild: bool = False
    """A cat that stands in for a cat of any colour (the Feral Cat)."""
    value: int = 5
    """How much the heuristic bots want to keep it (bots/kittens.py)."""
    art: str = ""
    """The picture's file under clients/web/static/art (`<id>.svg` when not given)."""
    help: tuple[str, ...] = ()
    """What the rules page says of it, sentence by sentence (one msgid each: a changed sentence
    is one entry to translate again), in the page's "The cards" (cardroom/help/kittens.py);
    empty when another card's sentences say it too (Super See the Future with See the Future; the
    cats of one colour, which the page names together)."""

    def __post_init__(self) -> None:
        if not self.art:
            object.__setattr__(self, "art", f"{self.id}.svg")
        if len(self.copies) != len(PLAYER_COUNTS):
            raise ValueError(f"{self.id}: copies for {len(PLAYER_COUNTS)} player counts")

    def copies_for(self, players: int) -> int:
        """Copies of this card in a game of `players`."""
        return self.copies[players - MIN_PLAYERS]

    @property
    def action(self) -> bool:
        """Played alone on a turn, and can be Noped."""
        return self.effect not in NOT_PLAYED_ALONE


def _cat(card: str, name: str, a_name: str) -> Card:
    return Card(card, CAT_COPIES, Effect.COMBO, name, a_name, CAT_TEXT, cat=True)


REGISTRY: Final = (
    Card(
        "exploding_kitten",
        per_players(lambda n: n - 1),  # exactly one player is left when all have gone off (003)
        Effect.EXPLODE,
        N_("Exploding Kitten"),
        N_("an Exploding Kitten"),
        N_(
            "Drawing it makes you explode unless you play a Defuse in time; then you "
            "put it back in the deck wherever you like."
        ),
        help=(
            N_(
                "Exploding Kitten: when you draw it, everybody sees it, and you have a few seconds to "
                "play a Defuse, or you explode."
            ),
        ),
    ),
    Card(
        "defuse",
        per_players(lambda n: n + SPARE_DEFUSES[n - MIN_PLAYERS]),  # one dealt to each player
        Effect.DEFUSE,
        N_("Defuse"),
        N_("a Defuse"),
        N_(
            "Saves you from an Exploding Kitten you drew; you put the kitten back anywhere in the deck. "
            "It counts as your draw."
        ),
        value=100,
        help=(
            N_("Defuse: played only on a kitten you have just drawn."),
            N_("You put the kitten back in the deck wherever you like, secretly; this counts as your draw."),
        ),
    ),
    Card(
        "nope",
        (4, 4, 5, 5, 6, 7, 8, 9, 10),
        Effect.NOPE,
        N_("Nope"),
        N_("a Nope"),
        N_(
            "Cancels the last card or combo another player played; a Nope can be Noped too. "
            "Play it at any time while a Nope window is open."
        ),
        value=40,
        help=(N_("Nope: cancels the card just played (see the Nope window below)."),),
    ),
    Card(
        "attack",
        (3, 3, 4, 4, 5, 5, 6, 6, 7),
        Effect.ATTACK,
        N_("Attack"),
        N_("an Attack"),
        N_("Ends your turn without drawing; the next player plays two turns."),
        n=2,
        value=32,
        help=(N_("Attack: ends your turn without drawing; the next player must play two turns."),),
    ),
    Card(
        "targeted_attack",
        (1, 1, 2, 2, 2, 3, 3, 3, 4),
        Effect.ATTACK,
        N_("Targeted Attack"),
        N_("a Targeted Attack"),
        N_("Ends your turn without drawing; the player you choose plays two turns."),
        n=2,
        targets=True,
        value=32,
        help=(N_("Targeted Attack does the same to the player you choose."),),
    ),
    Card(
        "personal_attack",
        (1, 1, 1, 1, 2, 2, 2, 3, 3),
        Effect.MORE_TURNS,
        N_("Personal Attack"),
        N_("a Personal Attack"),
        N_("Your turn goes on, and two more turns of yours follow it."),
        n=2,
        value=3,
        help=(N_("Personal Attack: your turn goes on, and you owe two more turns."),),
    ),
    Card(
        "triple_attack",
        (1, 1, 1, 1, 1, 2, 2, 2, 2),
        Effect.ATTACK,
        N_("Triple Attack"),
        N_("a Triple Attack"),
        N_("Ends your turn without drawing; the next player plays three turns."),
        n=3,
        value=33,
        help=(N_("Triple Attack gives the next player three turns."),),
    ),
    Card(
        "skip",
        (3, 3, 4, 4, 5, 5, 6, 6, 7),
        Effect.END_TURNS,
        N_("Skip"),
        N_("a Skip"),
        N_("Ends one turn without drawing."),
        n=1,
        value=30,
        help=(N_("Skip: ends one turn without drawing."),),
    ),
    Card(
        "super_skip",
        (1, 1, 1, 1, 2, 2, 2, 2, 3),
        Effect.END_TURNS,
        N_("Super Skip"),
        N_("a Super Skip"),
        N_("Ends all your turns without drawing."),
        n=ALL_TURNS,
        value=35,
        help=(N_("Super Skip: ends all the turns you owe without drawing."),),
    ),
    Card(
        "reverse",
        (1, 1, 2, 2, 2, 3, 3, 3, 4),
        Effect.REVERSE,
        N_("Reverse"),
        N_("a Reverse"),
        N_("Ends one turn without drawing and reverses the order of play."),
        value=25,
        help=(N_("Reverse: play changes direction and one of your turns ends."),),
    ),
    Card(
        "favor",
        (2, 3, 3, 4, 5, 5, 6, 6, 7),
        Effect.FAVOR,
        N_("Favor"),
        N_("a Favor"),
        N_("The player you choose gives you a card of their choice; you still draw."),
        targets=True,
        value=12,
        help=(
            N_("Favor: the player you choose gives you a card of their choice."),
            N_("You still draw."),
        ),
    ),
    Card(
        "shuffle",
        (2, 3, 3, 4, 4, 5, 5, 6, 6),
        Effect.SHUFFLE,
        N_("Shuffle"),
        N_("a Shuffle"),
        N_("Shuffles the deck; you still draw."),
        value=20,
        help=(
            N_("Shuffle: the deck is shuffled."),
            N_("You still draw."),
        ),
    ),
    Card(
        "draw_from_the_bottom",
        (1, 2, 2, 2, 3, 3, 3, 4, 4),
        Effect.DRAW_BOTTOM,
        N_("Draw from the Bottom"),
        N_("a Draw from the Bottom"),
        N_("You draw the bottom card of the deck instead of the top one."),
        value=21,
        help=(
            N_(
                "Draw from the Bottom: you draw the bottom card of the deck instead of the top one; "
                "this is your draw, and a kitten there explodes like any other."
            ),
        ),
    ),
    Card(
        "swap_top_and_bottom",
        (1, 1, 1, 2, 2, 2, 3, 3, 3),
        Effect.SWAP_TOP_BOTTOM,
        N_("Swap Top and Bottom"),
        N_("a Swap Top and Bottom"),
        N_("The top and the bottom card of the deck change places; you still draw."),
        value=18,
        help=(
            N_("Swap Top and Bottom: the top and bottom cards change places."),
            N_("You still draw."),
        ),
    ),
    Card(
        "see_the_future",
        (3, 4, 4, 5, 6, 6, 7, 8, 8),
        Effect.LOOK,
        N_("See the Future"),
        N_("a See the Future"),
        N_("You look at the top three cards of the deck."),
        n=3,
        value=22,
        help=(N_("See the Future: you alone look at the top three cards (Super See the Future: five)."),),
    ),
    Card(
        "super_see_the_future",
        (1, 1, 1, 1, 2, 2, 2, 2, 3),
        Effect.LOOK,
        N_("Super See the Future"),
        N_("a Super See the Future"),
        N_("You look at the top five cards of the deck."),
        n=5,
        value=24,
    ),
    Card(
        "alter_the_future",
        (1, 1, 2, 2, 2, 3, 3, 3, 4),
        Effect.REORDER,
        N_("Alter the Future"),
        N_("an Alter the Future"),
        N_("You look at the top three cards of the deck and put them back in the order you like."),
        n=3,
        value=28,
        help=(
            N_(
                "Alter the Future: you look at the top three cards and put them back in the order you "
                "choose (Super Alter the Future: five)."
            ),
        ),
    ),
    Card(
        "super_alter_the_future",
        (1, 1, 1, 1, 1, 2, 2, 2, 2),
        Effect.REORDER,
        N_("Super Alter the Future"),
        N_("a Super Alter the Future"),
        N_("You look at the top five cards of the deck and put them back in the order you like."),
        n=5,
        value=29,
    ),
    Card(
        "sneak_draw",
        (1, 1, 1, 2, 2, 2, 3, 3, 3),
        Effect.SNEAK_DRAW,
        N_("Sneak Draw"),
        N_("a Sneak Draw"),
        N_("You take the top card of the deck and put it back wherever you like; you still draw."),
        value=15,
        help=(
            N_(
                "Sneak Draw: you take the top card into your hand, then put it back anywhere in the "
                "deck; while it is in your hand it cannot explode."
            ),
            N_("You still draw afterwards."),
        ),
    ),
    _cat("black_cat", N_("Black Cat"), N_("a Black Cat")),
    _cat("white_cat", N_("White Cat"), N_("a White Cat")),
    _cat("grey_cat", N_("Grey Cat"), N_("a Grey Cat")),
    _cat("red_cat", N_("Red Cat"), N_("a Red Cat")),
    _cat("tabby_cat", N_("Tabby Cat"), N_("a Tabby Cat")),
    Card(
        "feral_cat",
        (1, 1, 2, 2, 2, 3, 3, 3, 4),
        Effect.COMBO,
        N_("Feral Cat"),
        N_("a Feral Cat"),
        N_("A wild cat: stands in for a cat of any colour in a cat combo, never with other cards."),
        cat=True,
        wild=True,
        value=8,
        help=(N_("The Feral Cat stands in for a cat of any colour."),),
    ),
)
"""Every card of Exploding Kittens, in the order of the deck before its shuffle."""

CARD: Final = MappingProxyType({card.id: card for card in REGISTRY})
"""The record of each card, by identifier."""

# -- Tables derived from the registry, for the engine's hot code and its readers ----------------

EXPLODING_KITTEN: Final = "exploding_kitten"
DEFUSE: Final = "defuse"
NOPE: Final = "nope"
FERAL_CAT: Final = "feral_cat"

CARDS: Final = tuple(card.id for card in REGISTRY)
CARD_SET: Final = frozenset(CARDS)

ACTIONS: Final = tuple(card.id for card in REGISTRY if card.action)
"""Cards that do something when played alone (each of them can be Noped)."""
ACTION_SET: Final = frozenset(ACTIONS)

CATS: Final = tuple(card.id for card in REGISTRY if card.cat and not card.wild)
"""The five coloured cats; the Feral Cat stands in for any of them."""
CAT_SET: Final = frozenset(CATS)
ANY_CAT: Final = frozenset(card.id for card in REGISTRY if card.cat)

TARGETED: Final = frozenset(card.id for card in REGISTRY if card.targets)
"""Single cards that name another player."""

ATTACK_TURNS: Final = MappingProxyType({c.id: c.n for c in REGISTRY if c.effect is Effect.ATTACK})
"""Attacks aimed at another player, and the turns each adds (docs/rules/kittens.md#attack-stacking)."""

FUTURE_DEPTH: Final = MappingProxyType(
    {c.id: c.n for c in REGISTRY if c.effect in (Effect.LOOK, Effect.REORDER)}
)
"""Cards that show the top of the deck, and how many cards they show."""

TEXT: Final = MappingProxyType({card.id: card.text for card in REGISTRY})
COMBO_TEXT: Final = MappingProxyType(
    {
        "pair": N_("Two identical cards: the player you choose gives you a card of their choice."),
        "triple": N_(
            "Three identical cards: name a card; if the player you choose holds one, they give it to you."
        ),
        "five": N_("Five different cards: take any card you like from the discard pile."),
    }
)

COPIES: Final = MappingProxyType({card.id: card.copies for card in REGISTRY})
"""Copies of each card for 2..10 players (index 0 is two players): docs/rules/kittens.md#the-deck."""


def effect_key(card: str) -> str:
    """The translatable key of what `card` does (`kittens.card.<id>`)."""
    return f"kittens.card.{card}"


def text(card: str) -> str:
    """English text of what `card` does."""
    return CARD[card].text


def deck_counts(players: int) -> dict[str, int]:
    """Every card of a game of `players` and its copies, kittens and all Defuses included, in
    the registry's order (the deal shuffles them from this order)."""
    return {card.id: card.copies_for(players) for card in REGISTRY}
