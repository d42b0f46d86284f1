"""Every action a seat may take now (issue 25): the one list of moves that bots, the learning
environment and tests read, instead of each listing moves its own way.

The moves are made legal by construction, from the rules the table's checks (`KittensTable.check`,
`cardroom.games.kittens.checks`) apply: nothing is made only to be refused, since bots list their
moves at every turn. `tests/kittens/test_legal.py` is the proof that the two agree: over whole
random games, every move listed is accepted, and every action the table accepts, drawn from a broad
generator of actions right and wrong, is listed.

A combo is listed once per multiset of cards (its cards in one order: the kind, then the Feral Cats
that complete it), a kitten or a sneak-drawn card goes back at each place 0..deck size, a triple
names each card, five different cards take each kind of card in the discard pile. The only
accepted actions left out are the same combos with their cards in another order (`same_move`
compares them).

A seat's moves depend only on what that seat may know (its hand, the public table), so they are
read from its view (a few fields of it, by name): a bot, which sees only its view, lists the same
moves as the table.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from functools import partial
from itertools import permutations
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
from cardroom.games.kittens.cards import (
    ACTION_SET,
    CARDS,
    DEFUSE,
    TARGETED,
)
from cardroom.games.kittens.cards import (
    NOPE as NOPE_CARD,
)
from cardroom.games.kittens.combos import card_sets, classify
from cardroom.games.kittens.state import (
    CHOOSING,
    DEFUSING,
    GAME_OVER,
    GIVE,
    INSERT,
    NOPE_WINDOW,
    REORDER,
    TURN,
    State,
)
from cardroom.games.kittens.table import KittensTable
from cardroom.games.kittens.view import view_field

Source = State | KittensTable | Mapping[str, Any] | Callable[[str], Any]
"""Where the moves are read from: a state or table (the seat's view of it), or one seat's view (a
JSON view, or a function giving one field of it by name, like `glance`)."""

_ALWAYS_ON = AlwaysPass(True)
_ALWAYS_OFF = AlwaysPass(False)


def _turn_plays(
    out: list[Action],
    field: Callable[[str], Any],
    seat: int,
    alive: list[bool],
    hand: list[str] | None,
    sets: Iterable[tuple[str, ...]],
) -> None:
    """Add to `out` every play of each of `sets` that the table accepts from `seat` on its turn
    (`check_play`), of those `hand` holds (None: the sets are known held): an action card alone
    (at each other seat still in, `alive`, if it names a player), a pair at each of those, a
    triple at each of those naming each card, five different cards taking each kind of card of
    the discard pile (read from the view `field` only then)."""
    others: list[int] | None = None
    takes: list[str] | None = None
    for cards in sets:
        size = len(cards)
        if size == 1:
            card = cards[0]
            if card not in ACTION_SET or (hand is not None and card not in hand):
                continue
            if card not in TARGETED:
                out.append(Play(cards))
                continue
        elif (
            hand is not None
            and not (
                (hand.count(cards[0]) >= 2 if cards[0] == cards[1] else cards[0] in hand and cards[1] in hand)
                if size == 2
                else all(hand.count(card) >= cards.count(card) for card in cards)
            )
        ) or classify(cards) is None:
            continue
        elif size == 5:
            if takes is None:
                takes = list(dict.fromkeys(field("discard")))
            out += [Play(cards, take=take) for take in takes]
            continue
        if others is None:
            others = [p for p, playing in enumerate(alive) if playing and p != seat]
        if size == 3:
            out += [Play(cards, target=p, name=name) for p in others for name in CARDS]
        else:
            out += [Play(cards, target=p) for p in others]


def legal_moves(source: Source, seat: int, plays: Iterable[tuple[str, ...]] | None = None) -> list[Action]:
    """The actions `apply` would accept from `seat` now, in a fixed order: draw, the plays of each
    of `card_sets` (each with every target, name or card to take), then Nope, pass, defuse at each
    place, choices, and last the standing always-pass setting (accepted at any time from anyone
    still in).

    `plays`: list the plays of these sets of cards only (those the seat holds, that make a play),
    for a bot that considers a few: a big hand makes hundreds of five-card combos, each taking any
    card of the discard pile."""
    field: Callable[[str], Any]
    if isinstance(source, KittensTable):
        field = partial(view_field, source.s, seat)
    elif isinstance(source, State):
        field = partial(view_field, source, seat)
    elif callable(source):
        field = source
    else:
        field = source.__getitem__
    phase = field("phase")
    if phase == GAME_OVER:
        return []
    alive: list[bool] = field("alive")
    if not 0 <= seat < len(alive) or not alive[seat]:
        return []
    out: list[Action] = []
    if phase == TURN:
        if field("turn") == seat:
            out.append(DRAW)
            hand: list[str] = field("hand")
            if plays is None:
                _turn_plays(out, field, seat, alive, None, card_sets(hand))
            else:
                _turn_plays(out, field, seat, alive, hand, plays)
    elif phase == NOPE_WINDOW:
        window = field("window")
        if window is None or window["last"] != seat:
            if NOPE_CARD in field("hand"):
                out.append(NOPE)
            if window is None or seat not in window["passed"]:
                out.append(PASS)
    elif phase == DEFUSING:
        if field("turn") == seat and DEFUSE in field("hand"):
            out += [Defuse(p) for p in range(field("deck_size") + 1)]
    elif phase == CHOOSING:
        choosing = field("choosing")
        if choosing is not None and choosing["player"] == seat:
            kind = choosing["kind"]
            if kind == GIVE:
                out += [Give(card) for card in dict.fromkeys(field("hand"))]
            elif kind == REORDER:
                count = len(choosing.get("cards") or ())
                out += [Reorder(order) for order in permutations(range(count))]
            elif kind == INSERT:
                out += [Insert(p) for p in range(field("deck_size") + 1)]
    out += [_ALWAYS_ON, _ALWAYS_OFF]
    return out


def same_move(a: Action) -> Action:
    """`a` with a combo's cards in a fixed order: two plays of the same cards in another order
    are the same move (`legal_moves` lists each once)."""
    if isinstance(a, Play) and len(a.cards) > 1:
        return Play(tuple(sorted(a.cards)), a.target, a.name, a.take)
    return a
