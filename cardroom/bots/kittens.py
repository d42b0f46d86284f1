"""Bots for Exploding Kittens: a heuristic player at three strengths (the random one is in
`kittens_random`).

Bots see only what their seat sees (filtered events and the seat's view) and play through the
same actions as people, after a human-like reaction delay. Each is deterministic from its seed.
`notice` only plans *when* to look again; `act` decides from the view of that moment, so a bot
never acts on a stale picture of the table.
"""

from __future__ import annotations

import random
from collections.abc import Hashable

from cardroom.bots.kittens_random import (
    ANSWER_MS,
    RandomBot,
    answer_choice,
    answer_pace,
    may_pass,
    opponents,
    pace,
)
from cardroom.games.kittens.actions import DRAW, NOPE, PASS, Action, Defuse, Play
from cardroom.games.kittens.cards import (
    ANY_CAT,
    ATTACK_TURNS,
    CATS,
    DEFUSE,
    EXPLODING_KITTEN,
    REGISTRY,
)
from cardroom.protocol import JSON, Rejected
from cardroom.protocol.rng import KeyedRandom
from cardroom.protocol.table import ViewFn, glance

ESCAPES = ("super_skip", "attack", "targeted_attack", "triple_attack", "skip", "reverse")
"""Cards that end a turn without drawing, best first."""

VALUE = {card.id: card.value for card in REGISTRY}
"""How much the heuristic bot wants to keep a card (each card's `value` in the registry,
`games/kittens/cards.py`; 5 unless it says otherwise, as for the cats)."""


class _Bot:
    """Scheduling shared by every kittens bot: when to look at the table again."""

    delay: tuple[int, int] = (300, 900)
    hears_secrets = False
    """Events only say when to look again (whose turn, a window opening): it reads its cards
    from the view, so the driver hands it what everybody hears (issue 16)."""
    listens = True

    def __init__(self, seat: int, seed: int, delay: tuple[int, int] = (300, 900), think_ms: int = 0) -> None:
        self.seat = seat
        self.rng: random.Random = KeyedRandom(seed)
        self.delay = delay
        self.think_ms = think_ms
        """A decision of its own (a turn's card or draw, a choice, a defuse) takes from `think_ms`
        to twice that, as a person's would (0: the level's reaction time), within the time left."""
        # A first look at the table, a decision's time after the game starts.
        lo, hi = self._pace(0, None)
        self._due: int | None = lo + int(self.rng.random() * (hi - lo))
        self._turn = -1
        self._nope_at: int | None = None
        self.passes = think_ms > 0
        """At a live table (paced like a person) it answers every Nope window it may, with a
        Nope or a pass, so that windows close early; in simulations windows run out."""

    def due(self) -> int | None:
        return self._due

    def _later(self, now: int, lo: int | None = None, hi: int | None = None) -> None:
        if lo is None or hi is None:
            lo, hi = self.delay
        at = now + lo + int(self.rng.random() * (hi - lo))
        if self._due is None or at < self._due:
            self._due = at

    def notice(self, events: list[JSON], view: ViewFn, now: int) -> None:
        seat = self.seat
        opened = by_other = mine = False
        until = now
        if not events:
            # Sitting down mid-game (a stand-in, a restart): take the table as it is.
            v = view()
            if v.get("phase") == "game_over":
                return
            self._turn = int(v.get("turn", -1))
            window, choosing = v.get("window"), v.get("choosing")
            if window is not None:
                opened, by_other = True, window["player"] != seat
                until = int(v.get("deadline") or now)
            mine = (choosing or {}).get("player") == seat or (
                v.get("phase") == "defusing" and self._turn == seat
            )
        kind = ""
        for e in events:
            kind = e["event"]
            if kind == "turn":
                self._turn = e["player"]
            elif kind == "played" or kind == "noped":
                opened = True
                until = e["until"]
                by_other = e["player"] != seat
            elif kind == "window_closed":
                opened = False
            elif kind == "choosing" or kind == "defusing":
                mine = e["player"] == seat
            elif kind == "game_over":
                self._due = None
                return
        if opened:
            # A Nope window is open: only a Nope can be played until it closes.
            self._nope_planned = by_other and self._plans_nope(view)
            if self.passes:
                # Nope or pass after the same pause, whatever it holds (docs/rules/kittens.md#bots).
                self._due = None
                if by_other and may_pass(view, seat):
                    lo, hi = ANSWER_MS[0], answer_pace(now, until)
                    self._due = now + lo + int(self.rng.random() * (hi - lo))
            elif self._nope_planned:
                # Decide well within the window, however long the table set it.
                self._later(now, 100, max(110, min(2200, (until - now) * 3 // 4)))
            return
        # The last event says someone else is choosing or defusing: nothing to think over yet.
        others = (kind == "choosing" or kind == "defusing") and not mine
        if mine or (self._turn == seat and not others):
            if self.think_ms > 0:
                # A person starts thinking when the decision becomes theirs: an earlier look
                # (the first one of the game) does not cut that short.
                lo, hi = self._pace(now, glance(view, "deadline"))
                self._due = now + lo + int(self.rng.random() * (hi - lo))
            else:
                self._later(now)

    def _pace(self, now: int, deadline: int | None) -> tuple[int, int]:
        return pace(self.delay, self.think_ms, now, deadline)

    def act(self, view: ViewFn, now: int) -> Action | None:
        self._due = None
        phase = glance(view, "phase")
        seat = self.seat
        self._turn = turn = glance(view, "turn")
        if phase == "turn":
            # Most looks end here: the whole view is built only if the decision needs it.
            return self._turn_action(view) if turn == seat else None
        if phase == "nope_window":
            if not self._nope_planned:
                return PASS if self.passes and may_pass(view, seat) else None
            v = view()
            if v["window"]["last"] != seat and "nope" in v["hand"] and self._wants_nope(v):
                return NOPE
            return PASS if self.passes and may_pass(view, seat) else None
        if phase == "defusing":
            if turn == seat and DEFUSE in glance(view, "hand"):
                return Defuse(self._kitten_position(view()))
            return None
        if phase == "choosing":
            return answer_choice(view(), seat, self._give, self._reorder, self._insert)
        return None

    def refused(self, rejection: Rejected, view: ViewFn, now: int) -> None:
        v = view()
        if (
            v["phase"] == "turn"
            and v["turn"] == self.seat
            and rejection.code not in ("nothing_to_nope", "nothing_to_pass")
        ):
            # A move of mine was refused on my own turn: look again and simply draw.
            self._fallback = True
            self._later(now)

    # -- decisions, filled in by each bot ---------------------------------------------------------

    _fallback = False
    _nope_planned = False

    def _plans_nope(self, view: ViewFn) -> bool:
        """Whether to look at the table again during this Nope window."""
        return self._wants_nope(view())

    def _wants_nope(self, v: JSON) -> bool:
        raise NotImplementedError

    def _turn_action(self, view: ViewFn) -> Action:
        raise NotImplementedError

    def _kitten_position(self, v: JSON) -> int:
        raise NotImplementedError

    def _give(self, v: JSON) -> str:
        raise NotImplementedError

    def _reorder(self, v: JSON, cards: list[str]) -> tuple[int, ...]:
        raise NotImplementedError

    def _insert(self, v: JSON, card: str) -> int:
        raise NotImplementedError


def _next_of(v: JSON, player: int) -> int:
    alive = v["alive"]
    n = len(alive)
    step: int = v["direction"]
    q = (player + step) % n
    while not alive[q]:
        q = (q + step) % n
    return q


class HeuristicBot(_Bot):
    """Keeps its Defuse, uses what it saw, dodges kittens, Nopes what hurts it, steals well.

    `skill` is the chance of thinking a decision through; otherwise it plays like RandomBot.
    """

    def __init__(self, seat: int, seed: int, skill: float, delay: tuple[int, int], think_ms: int = 0) -> None:
        super().__init__(seat, seed, delay, think_ms)
        self.skill = skill
        self._random = RandomBot(seat, seed + 1)
        """Its sloppy moves. A random bot used to draw the time of its first look when made: that
        draw is made still, so that a heuristic bot's games stay the same (issue 16)."""
        self._random.rng.random()

    def _sloppy(self) -> bool:
        return self.skill < 1.0 and self.rng.random() > self.skill

    # -- what is on top of the deck ---------------------------------------------------------------

    @staticmethod
    def _risk(v: JSON) -> float:
        future = v["future"]
        if future:
            return 1.0 if future[0] == EXPLODING_KITTEN else 0.0
        size: int = v["deck_size"]
        if not size:
            return 0.0
        kittens: int = v["kittens_left"]
        return min(1.0, kittens / size)

    def _wants_nope(self, v: JSON) -> bool:
        hand = v["hand"]
        if "nope" not in hand:
            return False
        w = v["window"]
        if w is None or w["last"] == self.seat:
            return False
        if self._sloppy():
            return self.rng.random() < 0.3
        seat = self.seat
        cards = w["cards"]
        card = cards[0]
        effective = w["nopes"] % 2 == 0
        if w["player"] == seat:
            # Someone Noped my card: Nope back when the card was keeping me away from a kitten.
            return not effective and (card in ESCAPES or card in ATTACK_TURNS) and self._risk(v) >= 0.25
        if not effective:
            return False
        if w["combo"] is None and card in ATTACK_TURNS:
            victim = w["target"] if card == "targeted_attack" else _next_of(v, w["player"])
            return bool(victim == seat)
        if w["target"] == seat:
            if w["combo"] == "triple":
                return w["name"] in hand and (w["name"] == DEFUSE or hand.count("nope") > 1)
            return DEFUSE in hand or hand.count("nope") > 1
        return False

    def _turn_action(self, view: ViewFn) -> Action:
        if self._fallback:
            self._fallback = False
            return DRAW
        if self._sloppy():
            return self._random._turn_action(view)
        v = view()
        hand: list[str] = v["hand"]
        seat = self.seat
        future: list[str] = v["future"]
        risk = self._risk(v)
        has_defuse = DEFUSE in hand
        others = opponents(v["alive"], seat)
        sizes = v["hand_sizes"]
        richest = max(others, key=lambda i: sizes[i])
        nxt = _next_of(v, seat)

        def escape() -> Action | None:
            for card in ESCAPES:
                if card in hand:
                    if card == "super_skip" and v["turns_left"] == 1 and "skip" in hand:
                        card = "skip"
                    target = nxt if card == "targeted_attack" else None
                    return Play((card,), target=target)
            return None

        if risk == 1.0:
            for card in ("super_alter_the_future", "alter_the_future"):
                if card in hand:
                    return Play((card,))
            out = escape()
            if out is not None:
                return out
            size = v["deck_size"]
            if "draw_from_the_bottom" in hand and not (
                len(future) >= size and future[-1] == EXPLODING_KITTEN
            ):
                return Play(("draw_from_the_bottom",))
            for card in ("shuffle", "swap_top_and_bottom"):
                if card in hand and size > 1:
                    return Play((card,))
            return DRAW
        # Take a Defuse back when there is none in hand.
        if not has_defuse:
            if DEFUSE in v["discard"]:
                five = self._five(hand)
                if five is not None:
                    return Play(five, take=DEFUSE)
            combo = self._combo(hand, 3)
            if combo is not None:
                holder = max(others, key=lambda i: sizes[i])
                return Play(combo, target=holder, name=DEFUSE)
        combo = self._combo(hand, 2)
        if combo is not None and sizes[richest] > 0:
            return Play(combo, target=richest)
        if not has_defuse and "favor" in hand and sizes[richest] > 0:
            return Play(("favor",), target=richest)
        if not future and risk > 0.0:
            for card in ("super_see_the_future", "see_the_future", "sneak_draw"):
                if card in hand and (risk >= 0.15 or not has_defuse):
                    return Play((card,))
        if risk >= 0.34 or (not has_defuse and risk > 0.0):
            out = escape()
            if out is not None:
                return out
        return DRAW

    @staticmethod
    def _combo(hand: list[str], size: int) -> tuple[str, ...] | None:
        """A cat pair or triple (plain cats first, Feral Cats to complete)."""
        ferals = hand.count("feral_cat")
        best: tuple[str, ...] | None = None
        for cat in CATS:
            have = hand.count(cat)
            if have >= size:
                return (cat,) * size
            if have and have + ferals >= size and best is None:
                best = (cat,) * have + ("feral_cat",) * (size - have)
        if best is None and ferals >= size:
            best = ("feral_cat",) * size
        return best

    @staticmethod
    def _five(hand: list[str]) -> tuple[str, ...] | None:
        """Five different cards, cheapest first, never the Defuse."""
        kinds = sorted(
            (k for k in dict.fromkeys(hand) if k != DEFUSE and k != EXPLODING_KITTEN),
            key=lambda k: (VALUE.get(k, 5), k),
        )
        plain = [k for k in kinds if k != "feral_cat"]
        if len(plain) >= 5:
            return tuple(plain[:5])
        cats = [k for k in kinds if k in ANY_CAT]
        if len(cats) == 5:
            return tuple(cats)
        return None

    def _kitten_position(self, v: JSON) -> int:
        if self._sloppy():
            return self._random._kitten_position(v)
        if v["turns_left"] > 1:
            return int(v["deck_size"])
        return 0

    def _give(self, v: JSON) -> str:
        hand: list[str] = v["hand"]
        return min(hand, key=lambda c: VALUE.get(c, 5))

    def _reorder(self, v: JSON, cards: list[str]) -> tuple[int, ...]:
        safe = [i for i, c in enumerate(cards) if c != EXPLODING_KITTEN]
        kittens = [i for i, c in enumerate(cards) if c == EXPLODING_KITTEN]
        if v["turns_left"] == 1 and kittens and safe:
            # I draw the first card; the next player meets the kitten.
            return (safe[0], *kittens, *safe[1:])
        return (*safe, *kittens)

    def _insert(self, v: JSON, card: str) -> int:
        if card != EXPLODING_KITTEN:
            return 0
        if v["turns_left"] == 1 and v["deck_size"] >= 1:
            return 1
        return int(v["deck_size"])


LEVELS = {"easy": (0.55, (550, 950)), "normal": (0.85, (320, 650)), "hard": (1.0, (200, 450))}


def make_bot(
    seat: int,
    level: str,
    seed: int,
    live: bool = False,
    think_ms: int = 0,
    expert_ms: int | None = None,
    table: Hashable = None,
) -> _Bot | RandomBot:
    """A bot of `level`: `random`; `easy`, `normal`, `hard` heuristic players, taking `think_ms`
    to twice that over each decision of their own (0: the level's reaction time); `expert`,
    which searches (`kittens_expert`; `live`: for `expert_ms`, default `THINK_MS`, per
    decision, off the caller's thread, in `table`'s share of the search worker)."""
    if level == "random":
        return RandomBot(seat, seed, think_ms=think_ms)
    if level == "expert":
        from cardroom.bots.kittens_expert import THINK_MS, ExpertBot

        budget = (expert_ms or THINK_MS) if live else None
        return ExpertBot(seat, seed, LEVELS["hard"][1], think_ms=budget, table=table)
    skill, delay = LEVELS[level]
    return HeuristicBot(seat, seed, skill, delay, think_ms)
