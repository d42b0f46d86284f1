"""The `expert` Exploding Kittens bot: it searches over what its seat cannot see.

At each decision that matters (what to play on its turn, whether to Nope, where to put back a
kitten) the bot tries every move it has, many times, each time on a table dealt again from
what its seat knows (`games.kittens.determinize`: its view, plus the cards it knows others
hold) and played out to the end by `hard` players for every seat (flat Monte Carlo). The move with the best mean result is played. Cards to give
and the order of a few cards seen are the `hard` bot's choices.

Budget: in virtual time (simulate, tournament, tests) a fixed number of playouts per decision,
so that a game is reproducible from its seed; at a live table (`live=True`) a time budget per
decision (`THINK_MS`, 200 ms of one core by default), and the search runs in the search worker
(`search_worker`, shared fairly by the tables), so the server's event loop never waits for it:
the bot looks again every `POLL_MS` until the answer is there, and plays the `hard` bot's move
if it is not there `IN_TIME_MS` before the decision's timer.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Hashable
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from cardroom.bots.kittens import VALUE, HeuristicBot
from cardroom.bots.search_worker import SearchWorker, Ticket
from cardroom.games.kittens.actions import DRAW, NOPE, PASS, Action, Defuse, Give, Insert, Play, Reorder
from cardroom.games.kittens.cards import DEFUSE, EXPLODING_KITTEN
from cardroom.games.kittens.determinize import Known, determinize
from cardroom.games.kittens.legal import legal_moves
from cardroom.games.kittens.state import DEFUSING, GAME_OVER, NOPE_WINDOW, TURN
from cardroom.games.kittens.table import KittensTable
from cardroom.protocol import JSON, Rejected
from cardroom.protocol.table import ViewFn

PLAYOUTS = 96
"""Playouts per decision in virtual time."""
THINK_MS = 200
"""Processor time per decision at a live table."""
POLL_MS = 40
"""How often a live bot looks whether its search is done."""
IN_TIME_MS = 100
"""A live search not back this long before the decision's timer (the turn timer, the Nope
window's end, the defuse or choice timer) gives way to the `hard` bot's move: the bot's own
move, never the timer's."""
PLAYOUT_STEPS = 600
"""A playout that has not ended after this many moves counts as a draw for everybody."""


def _policies(players: int) -> list[HeuristicBot]:
    return [HeuristicBot(seat, 0, 1.0, (0, 0)) for seat in range(players)]


def playout(table: KittensTable, policies: list[HeuristicBot], skip_nope: int | None = None) -> None:
    """Play `table` to its end, every seat a `hard` player with no reaction time; `skip_nope`
    does not Nope in the Nope window open now (the move "let it pass" being tried)."""
    s = table.s
    view = table.view
    players = s.players
    for _ in range(PLAYOUT_STEPS):
        phase = s.phase
        if phase == GAME_OVER:
            return
        action: Action | None = None
        seat = s.turn
        if phase == TURN:
            action = policies[seat]._turn_action(partial(view, seat, plays=False))
        elif phase == NOPE_WINDOW:
            last = s.last_actor
            for k in range(1, players + 1):
                p = (last + k) % players
                if p in (last, skip_nope) or not s.alive[p] or "nope" not in s.hands[p]:
                    continue
                if policies[p]._wants_nope(view(p)):
                    seat, action = p, NOPE
                    break
            if action is None:
                skip_nope = None
                assert s.deadline is not None
                table.advance(s.deadline)
                continue
        elif phase == DEFUSING:
            if DEFUSE not in s.hands[seat]:
                assert s.deadline is not None
                table.advance(s.deadline)
                continue
            action = Defuse(policies[seat]._kitten_position(view(seat)))
        else:
            seat = s.chooser
            v = view(seat)
            kind = s.choice_kind
            if kind == "give":
                action = Give(policies[seat]._give(v))
            elif kind == "reorder":
                action = Reorder(policies[seat]._reorder(v, list(s.choice_cards)))
            else:
                action = Insert(policies[seat]._insert(v, s.choice_cards[0]))
        if isinstance(table.apply(seat, action, s.now), Rejected):
            if phase == TURN:
                table.apply(seat, DRAW, s.now)
            else:
                assert s.deadline is not None
                table.advance(s.deadline)


def score(table: KittensTable, seat: int) -> float:
    """A playout's result for `seat`: 1 for a win; else a little for outlasting others."""
    s = table.s
    if s.winner == seat:
        return 1.0
    if s.winner is None or seat not in s.exploded:
        return 0.5 / s.players
    outlasted = s.exploded.index(seat)
    return 0.25 * outlasted / max(1, s.players - 2)


# -- the moves worth trying ------------------------------------------------------------------------


def turn_moves(v: JSON) -> list[Action]:
    """Every distinct thing worth doing on this seat's turn, of the engine's `legal_moves`: draw,
    each action card (each target for a targeted one, a Favor only at a seat holding cards),
    the cheapest pair and the cheapest triple naming a Defuse at each seat holding cards, the
    cheapest five cards taking the best card of the discard pile."""
    seat: int = v["seat"]
    hand: list[str] = v["hand"]
    sizes: list[int] = v["hand_sizes"]
    discard: list[str] = v["discard"]
    combos = (HeuristicBot._combo(hand, 2), HeuristicBot._combo(hand, 3), HeuristicBot._five(hand))
    sets = [(card,) for card in dict.fromkeys(hand)] + [c for c in combos if c is not None]
    take = max(discard, key=lambda c: (VALUE.get(c, 5), c)) if discard else None
    moves: list[Action] = []
    for move in legal_moves(v, seat, sets):
        if isinstance(move, Play):
            size = len(move.cards)
            if (size == 3 and move.name != DEFUSE) or (size == 5 and move.take != take):
                continue
            if move.target is not None and not sizes[move.target] and (size > 1 or move.cards[0] == "favor"):
                continue
        elif move != DRAW:
            continue
        moves.append(move)
    return moves


def positions(deck_size: int) -> list[int]:
    """Places worth trying to put a kitten back: the top few, the middle, the bottom."""
    return sorted({min(p, deck_size) for p in (0, 1, 2, 3, deck_size // 2, deck_size)})


def places(v: JSON, kind: type[Defuse] | type[Insert]) -> list[Defuse | Insert]:
    """The engine's `legal_moves` that put a kitten back (`kind`: by a Defuse, or after a Sneak
    Draw) at the `positions` worth trying."""
    worth = positions(v["deck_size"])
    return [m for m in legal_moves(v, v["seat"]) if isinstance(m, kind) and m.position in worth]


@dataclass(slots=True)
class Decision:
    """One search: the seat's view and memory, and the moves to choose from."""

    view: JSON
    known: Known
    moves: list[Action | None]
    """None: let the open Nope window pass."""
    seed: int
    playouts: int = PLAYOUTS
    think_ms: int | None = None
    visits: list[int] = field(default_factory=list)
    means: list[float] = field(default_factory=list)


def search(d: Decision) -> Action | None:
    """The best move by playouts (`Search`), searched here to its end."""
    s = Search(d)
    while s.step():
        pass
    return s.answer()


class Search:
    """The best move by playouts, a sample at a time (the search worker interleaves the
    searches of every table: cardroom/bots/search_worker.py). Every move is tried on the same
    sampled tables (common random numbers: a difference between two moves is then the moves',
    not the deals'); moves clearly behind the best are dropped as samples come in. The first
    move is the `hard` bot's own choice: another is played only when its lead over it, sample
    by sample, is more than `CONFIDENCE` standard errors, so that noise alone never makes the
    bot play worse."""

    def __init__(self, d: Decision) -> None:
        self.d = d
        self.rng = random.Random(d.seed)
        self.policies = _policies(d.view["players"])
        self.results: list[list[float]] = [[] for _ in d.moves]
        self.alive = list(range(len(d.moves)))
        self.done = self.samples = 0
        self.spent = 0.0
        """Processor seconds this search has run (its budget at a live table)."""

    def step(self) -> bool:
        """Play every move still in play on one more sampled table; False once the search is
        over (one move left, or the budget spent)."""
        d, alive, results = self.d, self.alive, self.results
        if len(alive) <= 1:
            return False
        if d.think_ms is None:
            if self.done + len(alive) > d.playouts and self.samples:
                return False
        elif self.spent * 1000 >= d.think_ms and self.samples:
            return False
        started = time.process_time()
        self.samples += 1
        v = d.view
        seat: int = v["seat"]
        sample = determinize(v, d.known, self.rng)
        for arm in list(alive):
            table = sample.copy()
            move = d.moves[arm]
            if move is not None and isinstance(table.apply(seat, move, table.now), Rejected):
                alive.remove(arm)
                results[arm] = []
                continue
            playout(table, self.policies, seat if move is None else None)
            results[arm].append(score(table, seat))
            self.done += 1
        if len(results[0]) >= 8:
            # Moves clearly worse than the `hard` choice get no more playouts; when none is
            # left beside it, the search is over early.
            self.alive = [a for a in alive if a == 0 or _lead(results[a], results[0]) > -CONFIDENCE]
        self.spent += time.process_time() - started
        return len(self.alive) > 1

    def answer(self) -> Action | None:
        """The move to play from the samples so far (the `hard` choice before any)."""
        d, alive, results = self.d, self.alive, self.results
        moves = d.moves
        d.visits = [len(r) for r in results]
        d.means = [sum(r) / len(r) if r else 0.0 for r in results]
        if 0 not in alive:  # the `hard` choice was refused: the best other move then
            return moves[max(alive, key=lambda a: d.means[a])] if alive else moves[0]
        best, best_lead = 0, CONFIDENCE
        for arm in alive:
            if arm:
                lead = _lead(results[arm], results[0])
                if lead > best_lead:
                    best, best_lead = arm, lead
        return moves[best]


CONFIDENCE = 1.0
"""Standard errors by which a move must beat the `hard` choice to be played instead."""


def _lead(these: list[float], base: list[float]) -> float:
    """How many standard errors `these` results lead `base`, sample by sample (paired)."""
    k = min(len(these), len(base))
    if k < 2:
        return 0.0
    diffs = [these[i] - base[i] for i in range(k)]
    mean = sum(diffs) / k
    var = sum((x - mean) ** 2 for x in diffs) / (k - 1)
    return mean / math.sqrt((var + 1e-9) / k)


WORKER = SearchWorker()
"""One search worker for every live expert bot of this process (the server's tables)."""


class ExpertBot(HeuristicBot):
    """Searches its turn moves, Nopes and kitten placements; the rest as `hard`."""

    hears_secrets = True
    """Its memory follows the cards it gave and where it put kittens back (`_remember`)."""

    def __init__(
        self,
        seat: int,
        seed: int,
        delay: tuple[int, int],
        playouts: int = PLAYOUTS,
        think_ms: int | None = None,
        table: Hashable = None,
    ) -> None:
        super().__init__(seat, seed, 1.0, delay)
        self.playouts = playouts
        self.search_ms = think_ms
        self.table: Hashable = table if table is not None else ("bot", id(self))
        """Whose share of the search worker this bot's searches take: its table's."""
        self.known = Known()
        self._future: list[str] = []
        self._turns_left = 1
        self._deck = 0
        self._thinking: Ticket | None = None
        self._thinking_about: Any = None
        self._hard: Action | None = None
        """The `hard` bot's move for the search under way: played if the search is late."""
        self._give_up: int | None = None
        """Play time at which the search under way is late."""
        self.last: Decision | None = None
        """The last search made in this process (tests and tuning read it)."""
        self.late = 0
        """Searches that were late, so that the `hard` move was played (tests read it)."""
        self.passes = think_ms is not None
        self._pass_wait: Any = None
        """The Nope window it waits a search's time in before passing without one."""
        if think_ms is not None:
            WORKER.start()  # now, not at the first decision

    # -- memory ------------------------------------------------------------------------------------

    def notice(self, events: list[JSON], view: ViewFn, now: int) -> None:
        self._remember(events)
        super().notice(events, view, now)
        if events:
            v = view()
            self._future = list(v["future"])
            self._turns_left = v["turns_left"]
            self._deck = v["deck_size"]

    def _remember(self, events: list[JSON]) -> None:
        held = self.known.held
        futures = self.known.futures
        seat = self.seat
        for e in events:
            kind = e["event"]
            if kind == "given" and not e["empty"]:
                giver, to = e["player"], e["to"]
                card = e.get("card")
                if giver == seat and card is not None:
                    held.setdefault(to, []).append(card)
                elif card is not None and card in held.get(giver, []):
                    held[giver].remove(card)
                elif giver != seat:
                    held.pop(giver, None)
            elif kind == "played":
                mine = held.get(e["player"])
                if mine:
                    for card in e["cards"]:
                        if card in mine:
                            mine.remove(card)
            elif kind == "asked" and e["given"]:
                held.setdefault(e["player"], []).append(e["name"])
                lost = held.get(e["target"])
                if lost and e["name"] in lost:
                    lost.remove(e["name"])
            elif kind == "took":
                held.setdefault(e["player"], []).append(e["card"])
            elif kind == "exploded":
                held.pop(e["player"], None)
                futures.pop(e["player"], None)
            if kind in _MOVES_KITTENS:
                self._follow_kittens(e)
            if kind == "drew" or kind == "sneaked":
                if kind == "drew" and e["player"] != seat and e["from"] == "top" and self._future:
                    card = self._future[0]
                    if card != EXPLODING_KITTEN:
                        held.setdefault(e["player"], []).append(card)
                if kind == "sneaked" or e["from"] == "top":
                    for other in futures:
                        futures[other] = max(0, futures[other] - 1)
            elif kind == "future" and e["player"] != seat:
                self.known.reorder_count = e["count"]
                futures[e["player"]] = max(futures.get(e["player"], 0), e["count"])
            elif kind == "reordered":
                for other in futures:
                    if other != e["player"]:
                        futures[other] = 0
            elif kind == "defused" or kind == "inserted":
                # Cards put back: what others knew below that place is gone; the place is
                # known only when it was this seat's.
                at = e.get("position", 0)
                for other in futures:
                    if other != e["player"]:
                        futures[other] = min(futures[other], at)
            elif kind == "shuffled" or kind == "swapped":
                futures.clear()

    def _follow_kittens(self, e: JSON) -> None:
        """Keep the guessed places of kittens others put back as the deck changes."""
        kind = e["event"]
        guessed = self.known.kittens
        if kind == "drew":
            if e["from"] == "top":
                guessed[:] = [k - 1 for k in guessed if k > 0]
        elif kind == "sneaked":
            guessed[:] = [k - 1 for k in guessed if k > 0]
        elif kind in ("defused", "inserted"):
            if e["player"] == self.seat:
                at = e["position"]
            elif kind == "defused":
                # Put back by another: on top when their turn ends with it, else at the bottom.
                at = 0 if self._turns_left <= 1 else self._deck
            else:
                at = 0
            guessed[:] = [k + 1 if k >= at else k for k in guessed]
            if kind == "defused" and e["player"] != self.seat:
                guessed.append(at)
        elif kind == "reordered":
            guessed[:] = [k for k in guessed if k >= e["count"]]
        else:
            guessed.clear()

    # -- deciding ------------------------------------------------------------------------------------

    def _plans_nope(self, view: ViewFn) -> bool:
        v = view()
        w = v["window"]
        return "nope" in v["hand"] and w is not None and w["last"] != self.seat

    def _decision(self, v: JSON) -> Decision | None:
        """The search this situation calls for, if any (else the `hard` bot's choice holds)."""
        seat = self.seat
        phase = v["phase"]
        moves: list[Action | None]
        hard: Action | None
        if phase == "turn" and v["turn"] == seat and not self._fallback:
            moves = list(turn_moves(v))
            hard = HeuristicBot._turn_action(self, lambda: v)
        elif phase == "nope_window" and self._nope_planned and self._plans_nope(lambda: v):
            moves = [None, NOPE]
            hard = NOPE if HeuristicBot._wants_nope(self, v) else None
        elif phase == "defusing" and v["turn"] == seat and DEFUSE in v["hand"]:
            moves = list(places(v, Defuse))
            hard = Defuse(HeuristicBot._kitten_position(self, v))
        elif (
            phase == "choosing"
            and v["choosing"]["player"] == seat
            and v["choosing"]["kind"] == "insert"
            and v["choosing"]["cards"][0] == EXPLODING_KITTEN
        ):
            moves = list(places(v, Insert))
            hard = Insert(HeuristicBot._insert(self, v, EXPLODING_KITTEN))
        else:
            return None
        # The `hard` bot's choice first: ties go to it.
        if hard in moves:
            moves.remove(hard)
        moves.insert(0, hard)
        known = Known(
            {p: list(c) for p, c in self.known.held.items()},
            self.known.reorder_count,
            list(self.known.kittens),
            self.known.belief,
            dict(self.known.futures),
        )
        return Decision(v, known, moves, self.rng.getrandbits(62), self.playouts, self.search_ms)

    def act(self, view: ViewFn, now: int) -> Action | None:
        v = view()
        key = _situation(v)
        thinking = self._thinking
        if thinking is not None:
            # Live: the worker is searching; its answer counts only for the same situation.
            self._thinking = None
            if self._thinking_about != key:
                thinking.cancel()
            elif thinking.done():
                self._due = None
                return self._answer(v, thinking.result(self._hard))
            elif self._give_up is not None and now >= self._give_up:
                # Late (a busy worker): the `hard` move, before the timer plays for the bot.
                thinking.cancel()
                self.late += 1
                self._due = None
                return self._answer(v, self._hard)
            else:
                self._thinking = thinking
                self._look_again(now)
                return None
        d = self._decision(v)
        if d is None:
            if self.passes and v["phase"] == "nope_window" and self._pass_wait != key:
                # Searching whether to Nope takes its time: passing without a Nope in hand takes
                # the same, so that when it answers says nothing about what it holds.
                self._pass_wait = key
                self._due = now + (self.search_ms or 0) + POLL_MS
                return None
            return super().act(view, now)
        self._due = None
        self._turn = v["turn"]
        if self.search_ms is None:
            self.last = d
            return self._answer(v, search(d))
        deadline: int | None = v["deadline"]
        self._hard = d.moves[0]
        self._give_up = None if deadline is None else deadline - IN_TIME_MS
        room = None if self._give_up is None else self._give_up - now - POLL_MS
        if room is not None and room < POLL_MS:
            return self._answer(v, self._hard)  # no time left to search: the `hard` move at once
        wall_s = 3600.0 if room is None else room / 1000
        self._thinking = WORKER.submit(self.table, wall_s, Search, d)
        self._thinking_about = key
        self._look_again(now)
        return None

    def _look_again(self, now: int) -> None:
        """Look whether the search is done in `POLL_MS`, and at the latest when it is late."""
        at = now + POLL_MS
        self._due = at if self._give_up is None else max(now, min(at, self._give_up))

    def _answer(self, v: JSON, action: Action | None) -> Action | None:
        """A search's move; at a live table, a pass for "let the Nope window run out"."""
        if action is None and self.passes and v["phase"] == "nope_window":
            return PASS
        return action


_MOVES_KITTENS = frozenset(("drew", "sneaked", "defused", "inserted", "reordered", "shuffled", "swapped"))
"""Events that move the cards of the deck, hence the kittens whose place the bot guesses."""


def _situation(v: JSON) -> Any:
    """What identifies a decision: the worker's answer is played only in the same situation."""
    return (
        v["phase"],
        v["turn"],
        v["turns_left"],
        tuple(v["hand"]),
        v["deck_size"],
        len(v["discard"]),
        repr(v["window"]),
        repr(v["choosing"]),
    )
