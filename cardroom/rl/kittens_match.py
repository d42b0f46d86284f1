"""Exploding Kittens as a sequence of decisions, for learning agents: who decides now, what
each may do (a fixed catalogue of moves), and what each seat sees (a vector from its view).

The live game runs in time (Nope windows, timers). Here time passes only when nobody has a
decision left: every other live player is asked once per Nope window, in seat order from the
player after the one who played ("pass", or "nope" when they hold one), whether or not they
hold a Nope, so that whom it asks tells nobody who holds one; when all have answered, the
window runs out. A kitten drawn without a Defuse explodes at once. No turn or choice timer ever runs
out: an agent takes as long as it needs. Everything else is the engine's own rules: a move is
legal exactly when the engine's `check` accepts it.

The catalogue is fixed for a number of players. Targets are counted from the deciding seat
(1 = the next seat in seat order), so one policy serves every seat. Combos name only what
matters to their effect (a pair: the target; a triple: the target and the card asked for;
five different cards: the card taken), and the match spends the cheapest cards that make it:
plain cats first, then a Feral Cat with a cat, then identical action cards.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import permutations
from typing import Any

import numpy as np
import numpy.typing as npt

from cardroom.games.kittens import GAME, KittensTable
from cardroom.games.kittens.actions import (
    DRAW,
    NOPE,
    Action,
    Defuse,
    Draw,
    Give,
    Insert,
    Nope,
    Pass,
    Play,
    Reorder,
)
from cardroom.games.kittens.cards import ACTIONS, CARDS, CATS, DEFUSE, EXPLODING_KITTEN, FERAL_CAT, TARGETED
from cardroom.games.kittens.combos import FIVE, classify
from cardroom.games.kittens.legal import legal_moves
from cardroom.games.kittens.state import CHOOSING, DEFUSING, GAME_OVER, NOPE_WINDOW, TURN
from cardroom.protocol import JSON, Event

Move = tuple[Any, ...]
"""One entry of the catalogue, e.g. ("play", "attack"), ("pair", 2), ("defuse", "bottom")."""

PHASES = (TURN, NOPE_WINDOW, DEFUSING, CHOOSING, GAME_OVER)
CHOICES = ("give", "reorder", "insert")
SLOTS = ("top", "second", "third", "fourth", "fifth", "middle", "bottom")
"""Where a Defuse or a Sneak Draw puts a card back, clipped to the deck's size."""
NAMEABLE = tuple(c for c in CARDS if c != EXPLODING_KITTEN)

# Cheapest first: what a combo spends when several sets of cards would make it.
_COST = {card: i for i, card in enumerate((*CATS, FERAL_CAT, *reversed(ACTIONS), "nope", DEFUSE))}


def catalogue(players: int) -> list[Move]:
    """Every move an agent may name at a table of `players`, in a fixed order."""
    offsets = range(1, players)
    moves: list[Move] = [("draw",), ("pass",), ("nope",)]
    for card in ACTIONS:
        if card in TARGETED:
            moves += [("play", card, k) for k in offsets]
        else:
            moves.append(("play", card))
    moves += [("pair", k) for k in offsets]
    moves += [("triple", name, k) for name in NAMEABLE for k in offsets]
    moves += [("five", take) for take in NAMEABLE]
    moves += [("give", card) for card in CARDS]
    moves += [("defuse", slot) for slot in SLOTS]
    moves += [("insert", slot) for slot in SLOTS]
    for size in range(1, 6):
        moves += [("reorder", order) for order in permutations(range(size))]
    return moves


def _position(slot: str, deck: int) -> int:
    if slot == "bottom":
        return deck
    if slot == "middle":
        return deck // 2
    return min(SLOTS.index(slot), deck)


def _combo(hand: Sequence[str], size: int) -> tuple[str, ...] | None:
    """The cheapest `size` cards of `hand` that make a pair or a triple."""
    kinds = sorted(set(hand) - {EXPLODING_KITTEN}, key=_COST.__getitem__)
    ferals = hand.count(FERAL_CAT)
    for kind in kinds:
        have = hand.count(kind)
        if kind != FERAL_CAT and have >= size:
            return (kind,) * size
        if kind in CATS and have + ferals >= size:
            return (kind,) * have + (FERAL_CAT,) * (size - have)
    if ferals >= size:
        return (FERAL_CAT,) * size
    return None


def _five(hand: Sequence[str]) -> tuple[str, ...] | None:
    """The cheapest five different cards of `hand` that make a combo."""
    kinds = sorted(set(hand) - {EXPLODING_KITTEN}, key=_COST.__getitem__)
    for pool in (kinds, [k for k in kinds if k != FERAL_CAT]):
        if len(pool) >= 5 and classify(tuple(pool[:5])) == FIVE:
            return tuple(pool[:5])
    return None


def card_sets(hand: Sequence[str]) -> list[tuple[str, ...]]:
    """The sets of cards the catalogue can name from `hand`: each card alone, the cheapest pair,
    triple and five different cards (what `action_for` plays)."""
    sets: list[tuple[str, ...]] = [(card,) for card in dict.fromkeys(hand)]
    sets += [c for c in (_combo(hand, 2), _combo(hand, 3), _five(hand)) if c is not None]
    return sets


def moves_of(action: Action, seat: int, players: int, deck: int) -> list[Move]:
    """The catalogue's moves that play `action` (the inverse of `action_for`): none for an action
    it cannot name, several for a place in the deck that several slots give."""
    if isinstance(action, Draw):
        return [("draw",)]
    if isinstance(action, Nope):
        return [("nope",)]
    if isinstance(action, Pass):
        return [("pass",)]
    if isinstance(action, Play):
        size = len(action.cards)
        off = None if action.target is None else (action.target - seat) % players
        if size == 1:
            return [("play", action.cards[0]) if off is None else ("play", action.cards[0], off)]
        if size == 2:
            return [("pair", off)]
        if size == 3:
            return [("triple", action.name, off)] if action.name in NAMEABLE else []
        return [("five", action.take)] if action.take in NAMEABLE else []
    if isinstance(action, Give):
        return [("give", action.card)]
    if isinstance(action, Reorder):
        return [("reorder", action.order)]
    if isinstance(action, Defuse | Insert):
        kind = "defuse" if isinstance(action, Defuse) else "insert"
        return [(kind, slot) for slot in SLOTS if _position(slot, deck) == action.position]
    return []  # the always-pass setting: the match asks every window itself


@dataclass(slots=True)
class Decision:
    """Who decides now and why (the phase)."""

    seat: int
    phase: str


class KittensMatch:
    """One game as decisions: `decider`, `legal`, `play`; time runs only between decisions."""

    def __init__(self, players: int, seed: int, options: JSON | None = None) -> None:
        self.players = players
        self.table: KittensTable = GAME.new_table(players, dict(options or {}), seed)
        self.moves = catalogue(players)
        self.index = {move: i for i, move in enumerate(self.moves)}
        self._mask_key: Any = None
        self._mask = np.zeros(len(self.moves), dtype=np.int8)
        self._asked: set[int] = set()
        self._window: Any = None
        self.log: list[Event] = []  # everything that happened, for each seat to hear its part
        self.decision: Decision | None = None
        self._settle()

    # -- whose decision ---------------------------------------------------------------------------

    def _nopers(self) -> list[int]:
        s = self.table.s
        key = (s.pending, s.nopes, s.last_actor)
        if key != self._window:
            self._window, self._asked = key, set()
        start = s.last_actor if s.last_actor is not None else 0
        order = [(start + k) % s.players for k in range(1, s.players + 1)]
        # Everyone who could answer, holding a Nope or not: whom the window asks (what a seat
        # learns from `agent_selection`) must not tell who holds one.
        return [p for p in order if p != s.last_actor and s.alive[p] and p not in self._asked]

    def _settle(self) -> None:
        """Let time run until somebody has a decision (or the game is over)."""
        table = self.table
        while True:
            s = table.s
            if s.phase == GAME_OVER:
                self.decision = None
                return
            if s.phase != NOPE_WINDOW:
                self._window = None  # the same card played again later opens a window anew
            if s.phase == NOPE_WINDOW:
                waiting = self._nopers()
                if waiting:
                    self.decision = Decision(waiting[0], NOPE_WINDOW)
                    return
            elif s.phase == DEFUSING:
                if DEFUSE in s.hands[s.turn]:
                    self.decision = Decision(s.turn, DEFUSING)
                    return
            elif s.phase == CHOOSING:
                assert s.chooser is not None
                self.decision = Decision(s.chooser, CHOOSING)
                return
            else:
                self.decision = Decision(s.turn, TURN)
                return
            deadline = table.next_deadline()
            assert deadline is not None, "a window or a defuse always has a deadline"
            self.log += table.advance(deadline)

    # -- what each may do ---------------------------------------------------------------------------

    def action_for(self, seat: int, move: Move) -> Action | None:
        """The engine's action for `move` by `seat` now, or None when the hand cannot make it."""
        s = self.table.s
        hand = s.hands[seat]
        kind = move[0]
        if kind == "draw":
            return DRAW
        if kind == "nope":
            return NOPE
        if kind == "play":
            target = None if len(move) == 2 else (seat + move[2]) % self.players
            return Play((move[1],), target)
        if kind in ("pair", "triple"):
            cards = _combo(hand, 2 if kind == "pair" else 3)
            if cards is None:
                return None
            if kind == "pair":
                return Play(cards, (seat + move[1]) % self.players)
            return Play(cards, (seat + move[2]) % self.players, name=move[1])
        if kind == "five":
            five = _five(hand)
            return None if five is None else Play(five, take=move[1])
        if kind == "give":
            return Give(move[1])
        if kind == "defuse":
            return Defuse(_position(move[1], len(s.deck)))
        if kind == "insert":
            return Insert(_position(move[1], len(s.deck)))
        if kind == "reorder":
            return Reorder(tuple(move[1]))
        return None

    def legal(self, seat: int) -> npt.NDArray[np.int8]:
        """1 for each move of the catalogue `seat` may make now, else 0: the engine's
        `legal_moves` for the sets of cards the catalogue names, each put in its place."""
        key = (
            seat,
            len(self.log),
            self.decision and self.decision.seat,
            self.table.s.phase,
            len(self._asked),
        )
        if key == self._mask_key:
            return self._mask.copy()
        mask = np.zeros(len(self.moves), dtype=np.int8)
        if self.decision is not None and self.decision.seat == seat:
            s = self.table.s
            index = self.index
            for action in legal_moves(self.table, seat, card_sets(s.hands[seat])):
                for move in moves_of(action, seat, self.players, len(s.deck)):
                    mask[index[move]] = 1
        self._mask_key, self._mask = key, mask
        return mask.copy()

    # -- playing ------------------------------------------------------------------------------------

    def play(self, seat: int, move_index: int) -> None:
        """Make move `move_index` for `seat`; ValueError (nothing changed) if it is not legal now."""
        if self.decision is None or self.decision.seat != seat:
            raise ValueError(f"seat {seat} has no decision to make now")
        if not 0 <= move_index < len(self.moves) or not self.legal(seat)[move_index]:
            raise ValueError(f"move {move_index} is not legal for seat {seat} now")
        move = self.moves[move_index]
        if move[0] == "pass":
            self._asked.add(seat)
        else:
            action = self.action_for(seat, move)
            assert action is not None
            self.act(seat, action)
            return
        self._settle()

    def act(self, seat: int, action: Action) -> None:
        """Play an engine action for `seat` (a bot's); ValueError (nothing changed) if refused."""
        if self.decision is not None and self.decision.phase == NOPE_WINDOW and action != NOPE:
            raise ValueError("only a Nope or a pass answers a Nope window")
        result = self.table.apply(seat, action, self.table.now)
        if not isinstance(result, list):
            raise ValueError(f"refused: {result.reason}")
        if self.decision is not None and self.decision.phase == NOPE_WINDOW:
            self._asked.add(seat)
        self.log += result
        self._settle()

    def pass_window(self, seat: int) -> None:
        """`seat` lets the Nope window it was asked about run out."""
        self.play(seat, self.index[("pass",)])

    @property
    def over(self) -> bool:
        return self.table.over

    def view(self, seat: int | None) -> JSON:
        return self.table.view(seat)

    def places(self) -> list[int]:
        return GAME.standings(self.table)


# -- observations -----------------------------------------------------------------------------------

_CARD = {card: i for i, card in enumerate(CARDS)}
_K = len(CARDS)


def observation_size(players: int) -> int:
    """The length of a seat's observation vector at a table of `players`."""
    return (
        2 * _K
        + 3 * players
        + 4
        + len(PHASES)
        + 5 * _K
        + 11
        + (3 + 3 * players + _K)
        + (len(CHOICES) + 1 + players + 5 * _K)
    )


def observe(v: JSON, players: int) -> npt.NDArray[np.float32]:
    """A seat's observation, built from its view alone (it holds no card the seat may not know).

    Seats are counted from the observer (0 = itself), like the catalogue's targets.
    """
    seat: int = v["seat"]
    out = np.zeros(observation_size(players), dtype=np.float32)
    at = 0

    def rel(p: int | None) -> int | None:
        return None if p is None else (p - seat) % players

    def one_hot(size: int, index: int | None) -> None:
        nonlocal at
        if index is not None and 0 <= index < size:
            out[at + index] = 1.0
        at += size

    def counts(cards: Sequence[str], scale: float) -> None:
        nonlocal at
        for card in cards:
            out[at + _CARD[card]] += 1.0 / scale
        at += _K

    counts(v["hand"], 4.0)
    counts(v["discard"], 4.0)
    for r in range(players):
        p = (seat + r) % players
        out[at + 3 * r] = v["hand_sizes"][p] / 10.0
        out[at + 3 * r + 1] = 1.0 if v["alive"][p] else 0.0
        out[at + 3 * r + 2] = 1.0 if v["turn"] == p else 0.0
    at += 3 * players
    out[at : at + 4] = [
        v["deck_size"] / 60.0,
        v["kittens_left"] / 10.0,
        v["turns_left"] / 6.0,
        v["direction"] > 0,
    ]
    at += 4
    one_hot(len(PHASES), PHASES.index(v["phase"]))
    future: list[str] = v["future"]
    for depth in range(5):
        one_hot(_K, _CARD[future[depth]] if depth < len(future) else None)
    kitten_at = v["kitten_at"]
    one_hot(11, 10 if kitten_at is None else min(kitten_at, 9))
    window = v["window"]
    if window is None:
        at += 3 + 3 * players + _K
    else:
        out[at] = 1.0
        out[at + 1] = window["nopes"] % 2
        out[at + 2] = 1.0 if window["combo"] else 0.0
        at += 3
        one_hot(players, rel(window["player"]))
        one_hot(players, rel(window["target"]))
        one_hot(players, rel(window["last"]))
        counts(window["cards"], 1.0)
    choosing = v["choosing"]
    if choosing is None:
        at += len(CHOICES) + 1 + players + 5 * _K
    else:
        one_hot(len(CHOICES), CHOICES.index(choosing["kind"]))
        out[at] = 1.0 if choosing["player"] == seat else 0.0
        at += 1
        one_hot(players, rel(choosing["for"]))
        cards = choosing.get("cards") or []
        for depth in range(5):
            one_hot(_K, _CARD[cards[depth]] if depth < len(cards) else None)
    assert at == len(out), (at, len(out))
    return np.clip(out, 0.0, 1.0, out=out)  # large counts saturate: the space is [0, 1]
