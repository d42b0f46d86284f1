"""A table one seat could be sitting at: every card hidden from it dealt again at random.

Search bots cannot look at hidden cards; they sample tables consistent with what their seat
knows and play those out. `determinize` builds one from the seat's view (its hand, everyone's
hand size, the discard pile, the deck's size, the kittens still in play, the top cards it saw
and the place of the kitten it put back) and from what it remembers (`Known`: cards it knows
other players hold, e.g. a card it gave them). The unseen cards are the game's deck
(`deck_counts`) less every card the seat can place; they are shuffled into the other hands and
the unknown places of the deck, kittens only into the deck. Nothing else changes: whose turn,
the open Nope window, a pending choice, the timers.

What the others know of the deck: the seat knows how many top cards each saw (that is public),
not which; in the sample each knows that many of the cards lying there. A table dealt from a scenario may hold other cards than the game's deck; then
the sample fills what is missing with cats, so that every hand and the deck keep their sizes.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field

from cardroom.games.kittens.cards import CATS, DEFUSE, EXPLODING_KITTEN, deck_counts
from cardroom.games.kittens.options import Options
from cardroom.games.kittens.state import (
    CHOOSING,
    DEFUSING,
    GIVE,
    INSERT,
    NOPE_WINDOW,
    REORDER,
    Pending,
    State,
)
from cardroom.games.kittens.table import KittensTable
from cardroom.protocol import JSON
from cardroom.protocol.rng import KeyedRandom


@dataclass(slots=True)
class Known:
    """What a seat remembers that its view does not show."""

    held: dict[int, list[str]] = field(default_factory=dict)
    """Cards it knows another seat holds (it gave them, saw them drawn from a top it knew)."""
    reorder_count: int | None = None
    """How many cards another seat is putting back in order (the `future` event's count)."""
    kittens: list[int] = field(default_factory=list)
    """Where it believes kittens others put back lie (0 = top): a guess, not knowledge (most
    players put a kitten on top when the next turn is someone else's), so each sample puts a
    kitten there with probability `belief` only."""
    belief: float = 0.8
    futures: dict[int, int] = field(default_factory=dict)
    """How many top cards of the deck each other seat saw and still knows (which cards they
    are is hidden: in the sample, whichever lie there)."""


def determinize(view: JSON, known: Known, rng: random.Random, options: Options | None = None) -> KittensTable:
    """A table consistent with `view` (one seat's) and `known`, hidden cards dealt by `rng`."""
    seat: int = view["seat"]
    players: int = view["players"]
    alive: list[bool] = view["alive"]
    sizes: list[int] = view["hand_sizes"]
    phase: str = view["phase"]
    deck_size: int = view["deck_size"]
    mine: list[str] = list(view["hand"])
    discard = list(reversed(view["discard"]))
    future: list[str] = list(view["future"])[:deck_size]
    kitten_at: int | None = view["kitten_at"]

    # Cards that lie somewhere this seat cannot see.
    unseen = Counter(deck_counts(players))
    unseen.subtract(mine)
    unseen.subtract(discard)
    kittens_left: int = view["kittens_left"]
    unseen[EXPLODING_KITTEN] = 0

    hands: list[list[str]] = [[] for _ in range(players)]
    hands[seat] = mine
    for other, cards in known.held.items():
        if other != seat and alive[other]:
            room = sizes[other]
            for card in cards[:room]:
                hands[other].append(card)
                unseen[card] -= 1
    # The kitten in the hand of whoever is defusing it now (drawing one is public).
    in_hand = 0
    if phase == DEFUSING and view["turn"] != seat:
        hands[view["turn"]].append(EXPLODING_KITTEN)
        in_hand = 1
    elif phase == DEFUSING:
        in_hand = mine.count(EXPLODING_KITTEN)

    # The deck, top first while building it: known places first.
    deck: list[str | None] = [None] * deck_size
    for i, card in enumerate(future):
        deck[i] = card
        if card != EXPLODING_KITTEN:
            unseen[card] -= 1
    if kitten_at is not None and kitten_at < deck_size and deck[kitten_at] is None:
        deck[kitten_at] = EXPLODING_KITTEN
    kittens_placed = sum(1 for c in deck if c == EXPLODING_KITTEN)
    for at in known.kittens:
        if (
            0 <= at < deck_size
            and deck[at] is None
            and kittens_placed < kittens_left - in_hand
            and rng.random() < known.belief
        ):
            deck[at] = EXPLODING_KITTEN
            kittens_placed += 1
    free = [i for i, c in enumerate(deck) if c is None]
    to_place = max(0, min(len(free), kittens_left - in_hand - kittens_placed))
    for i in rng.sample(free, to_place):
        deck[i] = EXPLODING_KITTEN

    pool = [card for card, n in unseen.items() if card != EXPLODING_KITTEN for _ in range(max(0, n))]
    rng.shuffle(pool)
    holes = sum(sizes[p] - len(hands[p]) for p in range(players) if p != seat) + sum(
        1 for c in deck if c is None
    )
    while len(pool) < holes:
        pool.append(CATS[rng.randrange(len(CATS))])
    for p in range(players):
        if p != seat:
            need = sizes[p] - len(hands[p])
            if need > 0:
                hands[p].extend(pool[-need:])
                del pool[-need:]
    for i in range(deck_size):
        if deck[i] is None:
            deck[i] = pool.pop()

    state = State(
        players,
        options or Options(),
        KeyedRandom(rng.getrandbits(64)),
        hands,
        [c for c in reversed(deck) if c is not None],
        discard,
    )
    _restore(state, view, known, seat)
    return KittensTable(state)


def _restore(state: State, view: JSON, known: Known, seat: int) -> None:
    """Everything public in `view` (whose turn, the window, a choice, the clock) onto `state`."""
    state.alive = list(view["alive"])
    state.exploded = [p for p in range(state.players) if not state.alive[p]]
    state.kittens = view["kittens_left"]
    state.out = [EXPLODING_KITTEN] * max(0, state.players - 1 - state.kittens)
    state.turn = view["turn"]
    state.turns_left = view["turns_left"]
    state.attacked = state.turns_left > 1
    state.direction = view["direction"]
    state.phase = view["phase"]
    state.winner = view["winner"]
    state.now = view["now"]
    state.deadline = view["deadline"]
    state.future[seat] = list(view["future"])
    for other, count in known.futures.items():
        if other != seat and state.alive[other] and count > 0:
            state.future[other] = state.deck[: -count - 1 : -1]
    state.kitten_at[seat] = view["kitten_at"]
    window = view["window"]
    if state.phase == NOPE_WINDOW and window is not None:
        state.pending = Pending(
            player=window["player"],
            cards=tuple(window["cards"]),
            combo=window["combo"],
            target=window["target"],
            name=window["name"],
            take=window["take"],
        )
        state.nopes = window["nopes"]
        state.last_actor = window["last"]
    choosing = view["choosing"]
    if state.phase == CHOOSING and choosing is not None:
        chooser = choosing["player"]
        kind = choosing["kind"]
        state.chooser = chooser
        state.choice_kind = kind
        state.receiver = choosing["for"] if kind == GIVE else chooser
        if "cards" in choosing:
            state.choice_cards = list(choosing["cards"])
        elif kind == REORDER:
            count = known.reorder_count or min(3, len(state.deck))
            state.choice_cards = state.deck[: -count - 1 : -1]
        elif kind == INSERT:
            hand = state.hands[chooser]
            state.choice_cards = [hand[-1]] if hand else [DEFUSE]
