"""The `random` Exploding Kittens player, in a module of its own: it plays the random
four-player games search and `make bench` time, and is compiled with the engine where it can be
(`cardroom.native`; the heuristic bots, which the expert extends, are not)."""

from __future__ import annotations

import random
from collections.abc import Callable

from cardroom.games.kittens.actions import DRAW, NOPE, PASS, Action, Defuse, Give, Insert, Play, Reorder
from cardroom.games.kittens.cards import DEFUSE
from cardroom.games.kittens.legal import legal_moves
from cardroom.games.kittens.state import CHOOSING, DEFUSING, NOPE_WINDOW, TURN
from cardroom.protocol import JSON, Rejected
from cardroom.protocol.rng import KeyedRandom
from cardroom.protocol.table import ViewFn, fields, glance


def pace(delay: tuple[int, int], think_ms: int, now: int, deadline: int | None) -> tuple[int, int]:
    """How long a decision of a bot's own takes: its level's reaction time (`delay`), or a
    person's thinking time (`think_ms` to twice that) kept within three quarters of the time
    left before `deadline`."""
    lo, hi = delay
    if think_ms <= 0:
        return lo, hi
    room = (deadline - now) * 3 // 4 if deadline is not None else 2 * think_ms
    hi = max(hi, min(2 * think_ms, room))
    return min(max(lo, think_ms), hi), hi


ANSWER_MS = (250, 800)
"""How long a bot at a live table takes to answer a Nope window, Nope or pass: the same for
every bot whatever it holds, so that when it answers tells nothing of its hand."""


def answer_pace(now: int, deadline: int | None) -> int:
    """When a live bot answers the Nope window open now (`ANSWER_MS`, kept within three
    quarters of the window), as an offset from `now` to draw from: returns the upper bound."""
    lo, hi = ANSWER_MS
    if deadline is None:
        return hi
    return max(lo + 1, min(hi, (deadline - now) * 3 // 4))


def may_pass(view: ViewFn, seat: int) -> bool:
    """Whether `seat` may still pass in the open Nope window: in the game, not the player of
    the card or Nope it answers, not passed yet."""
    window = glance(view, "window")
    return (
        window is not None
        and window["last"] != seat
        and seat not in window["passed"]
        and bool(glance(view, "alive")[seat])
    )


def answer_choice(
    v: JSON,
    seat: int,
    give: Callable[[JSON], str],
    reorder: Callable[[JSON, list[str]], tuple[int, ...]],
    insert: Callable[[JSON, str], int],
) -> Action | None:
    """A bot's answer to the choice in view `v` when it is `seat`'s to make, from its own way of
    choosing the card to give, the order of the cards seen, the place of the card put back."""
    c = v["choosing"]
    if c["player"] != seat:
        return None
    if c["kind"] == "give":
        return Give(give(v))
    if c["kind"] == "reorder":
        return Reorder(reorder(v, c["cards"]))
    return Insert(insert(v, c["cards"][0]))


def opponents(alive: list[bool], seat: int) -> list[int]:
    return [i for i, playing in enumerate(alive) if playing and i != seat]


class RandomBot:
    """Picks uniformly among legal moves; Nopes now and then.

    It keeps nothing from one decision to the next and reads no events (`listens` false): it is
    woken when its seat may act (its turn, a Nope window it could answer, a kitten to defuse, a
    choice), looks at the table then, and draws there whether to act and how long it takes, as
    a person would; the move itself is drawn when that time comes, from the table as it is.
    A driver tells it of nothing else, so a game of four of them costs little more than the
    engine (issue 16)."""

    hears_secrets = False
    listens = False
    nope_chance = 0.3

    def __init__(self, seat: int, seed: int, delay: tuple[int, int] = (300, 900), think_ms: int = 0) -> None:
        self.seat = seat
        self.rng: random.Random = KeyedRandom(seed)
        self.delay = delay
        self.think_ms = think_ms
        """A decision of its own (a turn's card or draw, a choice, a defuse) takes from `think_ms`
        to twice that, as a person's would (0: `delay`), within the time left."""
        self._due: int | None = None
        self._nope = False
        """Whether it chose to Nope the card of the window it was last woken for."""
        self._fallback = False

    def due(self) -> int | None:
        return self._due

    def notice(self, events: list[JSON], view: ViewFn, now: int) -> None:
        """Whatever it heard (nothing, from a driver): whether the table now waits on this seat,
        and if so when to act."""
        self._due = None
        self._nope = False
        seat = self.seat
        phase = glance(view, "phase")
        if phase == NOPE_WINDOW:
            rng = self.rng
            if self.think_ms > 0:
                # At a live table: answer, Nope or pass, after the same pause whatever it holds.
                if not may_pass(view, seat):
                    return  # its card, or it answered already
                self._nope = "nope" in glance(view, "hand") and rng.random() < self.nope_chance
                hi = answer_pace(now, glance(view, "deadline"))
                lo = ANSWER_MS[0]
                self._due = now + lo + int(rng.random() * (hi - lo))
                return
            if "nope" in glance(view, "hand") and rng.random() < self.nope_chance:
                if glance(view, "window")["last"] == seat:
                    return
                self._nope = True
                # Decide well within the window, however long the table set it.
                hi = max(110, min(2200, (glance(view, "deadline") - now) * 3 // 4))
                self._due = now + 100 + int(rng.random() * (hi - 100))
            return
        if phase in (TURN, DEFUSING):
            mine = glance(view, "turn") == seat
        elif phase == CHOOSING:
            mine = glance(view, "choosing")["player"] == seat
        else:
            return
        if mine:
            deadline = glance(view, "deadline") if self.think_ms > 0 else None
            lo, hi = pace(self.delay, self.think_ms, now, deadline)
            self._due = now + lo + int(self.rng.random() * (hi - lo))

    def act(self, view: ViewFn, now: int) -> Action | None:
        self._due = None
        seat = self.seat
        phase = glance(view, "phase")
        if phase == TURN:
            return self._turn_action(view) if glance(view, "turn") == seat else None
        if phase == NOPE_WINDOW:
            if self._nope and glance(view, "window")["last"] != seat and "nope" in glance(view, "hand"):
                self._nope = False
                return NOPE
            if self.think_ms > 0 and may_pass(view, seat):
                return PASS
            return None
        if phase == DEFUSING:
            if glance(view, "turn") == seat and DEFUSE in glance(view, "hand"):
                return Defuse(self._kitten_position(view()))
            return None
        if phase == CHOOSING:
            return answer_choice(view(), seat, self._give, self._reorder, self._insert)
        return None

    def refused(self, rejection: Rejected, view: ViewFn, now: int) -> None:
        if glance(view, "phase") == TURN and glance(view, "turn") == self.seat:
            # A move of mine was refused on my own turn: look again and simply draw.
            self._fallback = True
            lo, hi = self.delay
            self._due = now + lo + int(self.rng.random() * (hi - lo))

    def _turn_action(self, view: ViewFn) -> Action:
        """Uniformly among draw, each action card held, each pair of identical cards held and
        five different cards drawn at random, as the table's `legal_moves` allow them (triples
        and pairs with a Feral Cat are the other bots' business); then a random target, or a
        random card of the discard pile to take."""
        if self._fallback:
            self._fallback = False
            return DRAW
        rng = self.rng
        hand: list[str] = glance(view, "hand")
        kinds: dict[str, int] = {}  # how many of each card, in the order first held
        for card in hand:
            kinds[card] = kinds.get(card, 0) + 1
        wanted: list[tuple[str, ...]] = []
        for card, held in kinds.items():
            wanted.append((card,))
            if held >= 2:
                wanted.append((card, card))
        five: tuple[str, ...] = ()
        discard: list[str] = []
        if len(kinds) >= 5:
            discard = glance(view, "discard")
            if discard:
                five = tuple(rng.sample(list(kinds), 5))
                wanted.append(five)
        targets: dict[tuple[str, ...], list[int | None]] = {}  # of each set of cards legal_moves plays
        for move in legal_moves(fields(view), self.seat, wanted):
            if type(move) is Play:
                targets.setdefault(move.cards, []).append(move.target)
        moves: list[tuple[str, ...] | None] = [None]
        moves += [cards for cards in wanted if cards in targets]
        choice = moves[rng.randrange(len(moves))]
        if choice is None:
            return DRAW
        if len(choice) == 5:
            return Play(choice, take=rng.choice(discard))
        seats = targets[choice]
        return Play(choice, target=rng.choice(seats) if seats[0] is not None else None)

    def _kitten_position(self, v: JSON) -> int:
        return self.rng.randint(0, v["deck_size"])

    def _give(self, v: JSON) -> str:
        return str(self.rng.choice(v["hand"]))

    def _reorder(self, v: JSON, cards: list[str]) -> tuple[int, ...]:
        order = list(range(len(cards)))
        self.rng.shuffle(order)
        return tuple(order)

    def _insert(self, v: JSON, card: str) -> int:
        return self.rng.randint(0, v["deck_size"])
