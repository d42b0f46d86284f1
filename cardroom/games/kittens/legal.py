"""Every action a seat may take now (issue 25): the one list of moves that bots, the learning
environment and tests read, instead of each listing moves its own way.

The list is made by asking the table itself (`KittensTable.check`) about candidates, so it can
never disagree with what `apply` accepts. Candidates stay few: a combo is listed once per
multiset of cards (its cards in one order: the kind, then the Feral Cats that complete it), a
kitten or a sneak-drawn card goes back at each place 0..deck size, a triple names each card,
five different cards take each kind of card in the discard pile. The only accepted actions
left out are the same combos with their cards in another order (`same_move` compares them).

A seat's moves depend only on what that seat may know (its hand, the public table), so they can
be listed from its view too (`seat_state`): bots, which see only their view, list the same moves
the table would.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from itertools import combinations, permutations
from typing import Any

from cardroom.games.kittens.actions import (
    DRAW,
    NOPE,
    PASS,
    Action,
    AlwaysPass,
    Defuse,
    Give,
    Insert,
    Play,
    Reorder,
)
from cardroom.games.kittens.cards import ACTION_SET, CARDS, CAT_SET, EXPLODING_KITTEN, FERAL_CAT, TARGETED
from cardroom.games.kittens.options import Options
from cardroom.games.kittens.state import (
    CHOOSING,
    DEFUSING,
    GAME_OVER,
    GIVE,
    NOPE_WINDOW,
    REORDER,
    TURN,
    State,
)
from cardroom.games.kittens.table import KittensTable
from cardroom.protocol.rng import KeyedRandom

Source = State | KittensTable | Mapping[str, Any] | Callable[[str], Any]
"""Where the moves are read from: a state or table (everything), or one seat's view (a JSON
view, or a function giving one field of it by name, like `glance`)."""

_OPTIONS = Options()
_RNG = KeyedRandom(0)
"""The generator of every state made from a view: no check draws from it (made once: a bot
lists its moves at every turn)."""
_HIDDEN = "?"
"""Stands in for a card the seat cannot see, in a state made from its view (no check reads it)."""


def seat_state(field: Callable[[str], Any], seat: int) -> State:
    """A state that answers every check about `seat`, whose view `field` reads, exactly as the
    real table would: its hand, whose turn, the Nope window, the choice, the deck's size and the
    discard pile are the view's; the cards it cannot see are stand-ins no check reads."""
    alive: list[bool] = field("alive")
    players = len(alive)
    hands: list[list[str]] = [[] for _ in range(players)]
    hands[seat] = list(field("hand"))
    deck = [_HIDDEN] * field("deck_size")
    s = State(players, _OPTIONS, _RNG, hands, deck, list(reversed(field("discard"))))
    s.phase = field("phase")
    s.turn = field("turn")
    s.alive = list(alive)
    window = field("window")
    if window is not None:
        s.last_actor = window["last"]
        for p in window["passed"]:
            s.passed[p] = True
    choosing = field("choosing")
    if choosing is not None:
        s.chooser = choosing["player"]
        s.choice_kind = choosing["kind"]
        s.choice_cards = list(choosing.get("cards") or [])
    return s


def _state(source: Source, seat: int) -> State:
    if isinstance(source, KittensTable):
        return source.s
    if isinstance(source, State):
        return source
    if isinstance(source, Mapping):
        return seat_state(source.__getitem__, seat)
    return seat_state(source, seat)


def _combos(hand: list[str], size: int) -> list[tuple[str, ...]]:
    """Each multiset of `size` cards of `hand` that may make a pair or a triple: identical cards,
    or a cat completed by Feral Cats (the kind first); the table's check decides."""
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


def card_sets(hand: list[str]) -> list[tuple[str, ...]]:
    """Every set of cards of `hand` that may be played together, each multiset once: each kind
    alone (in the order first held), pairs, triples, five different cards."""
    kinds = list(dict.fromkeys(c for c in hand if c != EXPLODING_KITTEN))
    out: list[tuple[str, ...]] = [(card,) for card in kinds]
    out += _combos(hand, 2)
    out += _combos(hand, 3)
    if len(kinds) >= 5:
        out += combinations(kinds, 5)
    return out


def _holds(held: dict[str, int], cards: tuple[str, ...]) -> bool:
    """Whether a hand holding `held` (copies by card) holds every one of `cards`."""
    return all(held.get(card, 0) >= cards.count(card) for card in cards)


def _plays(s: State, cards: tuple[str, ...], others: list[int]) -> list[Action]:
    """The plays of `cards` worth asking about: each target a card or combo of that size may
    name (each card named, for a triple), each card of the discard pile to take (for five)."""
    size = len(cards)
    if size == 1:
        if cards[0] not in ACTION_SET:
            return []  # a cat, a Defuse, a Nope or a kitten does nothing alone
        return [Play(cards, target=p) for p in others] if cards[0] in TARGETED else [Play(cards)]
    if size == 2:
        return [Play(cards, target=p) for p in others]
    if size == 3:
        return [Play(cards, target=p, name=name) for p in others for name in CARDS]
    if size == 5:
        return [Play(cards, take=take) for take in dict.fromkeys(reversed(s.discard))]
    return [Play(cards)]


def candidates(s: State, seat: int, plays: Iterable[tuple[str, ...]] | None = None) -> list[Action]:
    """Every action worth asking the table about for `seat` now, in a fixed order: draw, the
    plays of each of `card_sets` (or of `plays` only), then Nope, pass, defuse, choices, and the
    standing always-pass choice. What the table would refuse whatever the state (a card that
    does nothing alone, a target for a card that names none, oneself or a seat out of the game
    as the target, cards not held) is left out, so that most candidates are accepted: bots list
    their moves at every turn."""
    out: list[Action] = []
    phase = s.phase
    if phase == GAME_OVER or not 0 <= seat < s.players:
        return out
    hand = s.hands[seat]
    if phase == TURN and s.turn == seat:
        out.append(DRAW)
        others = [p for p in range(s.players) if p != seat and s.alive[p]]
        if plays is None:
            for cards in card_sets(hand):
                out += _plays(s, cards, others)
        else:
            held: dict[str, int] = {}
            for card in hand:
                held[card] = held.get(card, 0) + 1
            for cards in plays:
                if _holds(held, cards):
                    out += _plays(s, cards, others)
    elif phase == NOPE_WINDOW:
        out += [NOPE, PASS]
    elif phase == DEFUSING and s.turn == seat:
        out += [Defuse(p) for p in range(len(s.deck) + 1)]
    elif phase == CHOOSING and s.chooser == seat:
        if s.choice_kind == GIVE:
            out += [Give(card) for card in dict.fromkeys(hand)]
        elif s.choice_kind == REORDER:
            out += [Reorder(order) for order in permutations(range(len(s.choice_cards)))]
        else:
            out += [Insert(p) for p in range(len(s.deck) + 1)]
    out += [AlwaysPass(True), AlwaysPass(False)]
    return out


def legal_moves(source: Source, seat: int, plays: Iterable[tuple[str, ...]] | None = None) -> list[Action]:
    """The actions `apply` would accept from `seat` now, in `candidates`' order (the
    always-pass setting, accepted at any time from anyone still in, last).

    `plays`: list the plays of these sets of cards only (each with every target, name or card
    to take the table accepts), for a bot that considers a few: a big hand makes hundreds of
    five-card combos, each taking any card of the discard pile."""
    s = _state(source, seat)
    table = source if isinstance(source, KittensTable) else KittensTable(s)
    check = table.check
    return [a for a in candidates(s, seat, plays) if check(seat, a) is None]


def same_move(a: Action) -> Action:
    """`a` with a combo's cards in a fixed order: two plays of the same cards in another order
    are the same move (`legal_moves` lists each once)."""
    if isinstance(a, Play) and len(a.cards) > 1:
        return Play(tuple(sorted(a.cards)), a.target, a.name, a.take)
    return a
