"""The state of one kittens table: plain lists and ints, so that play is fast.

Inside the state the deck and the discard pile keep their *top at the end of the list* (a draw
is `pop()`); every public form (summary, view, events) lists them top first.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from cardroom.games.kittens.options import Options
from cardroom.protocol import JSON
from cardroom.protocol.rng import KeyedRandom

TURN = "turn"
NOPE_WINDOW = "nope_window"
DEFUSING = "defusing"
CHOOSING = "choosing"
GAME_OVER = "game_over"

GIVE = "give"
REORDER = "reorder"
INSERT = "insert"

STAT_KEYS = ("turns", "draws", "plays", "combos", "nopes", "cancelled", "defuses", "explosions", "timeouts")


class Pending(NamedTuple):
    """A card or combo played, waiting for its Nope window to close (a tuple, so that states
    compare and hash as before)."""

    player: int
    cards: tuple[str, ...]
    combo: str | None
    """The combo's kind (combos.PAIR, TRIPLE, FIVE), None for a single card."""
    target: int | None
    name: str | None
    """The card a triple names."""
    take: str | None
    """The card a five takes from the discard pile."""


class State:
    """Everything that changes during a game."""

    __slots__ = (
        "alive",
        "always",
        "attacked",
        "choice_cards",
        "choice_kind",
        "chooser",
        "deadline",
        "deck",
        "direction",
        "discard",
        "exploded",
        "future",
        "hands",
        "kitten_at",
        "kittens",
        "last_actor",
        "nopes",
        "now",
        "options",
        "out",
        "passed",
        "pending",
        "phase",
        "players",
        "receiver",
        "rng",
        "stats",
        "turn",
        "turns_left",
        "winner",
    )

    def __init__(
        self,
        players: int,
        options: Options,
        rng: KeyedRandom,
        hands: list[list[str]],
        deck: list[str],
        discard: list[str],
    ) -> None:
        self.players = players
        self.options = options
        self.rng = rng
        self.hands = hands
        self.deck = deck
        self.discard = discard
        self.alive = [True] * players
        self.out: list[str] = []
        self.exploded: list[int] = []
        """Seats in the order they exploded: the game's places, last out first after the winner."""
        """Exploding Kittens that went off: out of the game, kept for counting."""
        self.kittens = deck.count("exploding_kitten") + sum(h.count("exploding_kitten") for h in hands)
        """Exploding Kittens still in play (public: everybody can count them)."""
        self.turn = 0
        self.turns_left = 1
        self.attacked = False
        """Whether the current turns come from an attack (they pass on with the next attack)."""
        self.direction = 1
        self.phase = TURN
        self.winner: int | None = None
        self.now = 0
        self.deadline: int | None = options.turn_ms
        self.pending: Pending | None = None
        self.nopes = 0
        self.last_actor = -1
        """Who played the card or Nope a new Nope would cancel: they may not Nope it."""
        self.passed = [False] * players
        """Per seat: passed in the open Nope window since it opened or was last Noped."""
        self.always = [False] * players
        """Per seat: passes in every Nope window at once (a standing, public choice)."""
        self.choice_kind = ""
        self.chooser = -1
        self.receiver = -1
        self.choice_cards: list[str] = []
        self.future: list[list[str]] = [[] for _ in range(players)]
        """Per seat: the top cards of the deck that seat knows, top first (docs: #what-players-know)."""
        self.kitten_at: list[int | None] = [None] * players
        """Per seat: where the last kitten that seat put back lies now (0 = top), while known."""
        self.stats = dict.fromkeys(STAT_KEYS, 0)

    def copy(self) -> State:
        """An independent copy: nothing mutable is shared, the random generator included, so
        that a search can play the copy on without touching this state."""
        rng = KeyedRandom(0)  # any seed: its state is replaced at once
        rng.setstate(self.rng.getstate())
        # Made through the constructor, which a compiled State requires (`cardroom.native`).
        new = State(self.players, self.options, rng, [list(h) for h in self.hands], list(self.deck), [])
        new.discard = list(self.discard)
        new.alive = list(self.alive)
        new.out = list(self.out)
        new.exploded = list(self.exploded)
        new.kittens = self.kittens
        new.turn = self.turn
        new.turns_left = self.turns_left
        new.attacked = self.attacked
        new.direction = self.direction
        new.phase = self.phase
        new.winner = self.winner
        new.now = self.now
        new.deadline = self.deadline
        new.pending = self.pending
        new.nopes = self.nopes
        new.last_actor = self.last_actor
        new.passed = list(self.passed)
        new.always = list(self.always)
        new.choice_kind = self.choice_kind
        new.chooser = self.chooser
        new.receiver = self.receiver
        new.choice_cards = list(self.choice_cards)
        new.future = [list(f) for f in self.future]
        new.kitten_at = list(self.kitten_at)
        new.stats = dict(self.stats)
        return new

    def summary(self) -> JSON:
        """The scenario file's `final` object (rules/SCENARIOS.md), plus `out`."""
        return {
            "phase": self.phase,
            "turn": self.turn,
            "turns_left": self.turns_left,
            "direction": self.direction,
            "alive": list(self.alive),
            "hands": [list(h) for h in self.hands],
            "deck": self.deck[::-1],
            "discard": self.discard[::-1],
            "winner": self.winner,
            "out": list(self.out),
        }

    def snapshot(self) -> Any:
        return (
            self.players,
            self.options,
            self.rng.getstate(),
            tuple(tuple(h) for h in self.hands),
            tuple(self.deck),
            tuple(self.discard),
            tuple(self.alive),
            tuple(self.out),
            tuple(self.exploded),
            self.kittens,
            self.turn,
            self.turns_left,
            self.attacked,
            self.direction,
            self.phase,
            self.winner,
            self.now,
            self.deadline,
            self.pending,
            self.nopes,
            self.last_actor,
            tuple(self.passed),
            tuple(self.always),
            self.choice_kind,
            self.chooser,
            self.receiver,
            tuple(self.choice_cards),
            tuple(tuple(f) for f in self.future),
            tuple(self.kitten_at),
            tuple(self.stats.items()),
        )
