"""The Throw Throw Burrito engine: one table, pure and synchronous.

Time only ever comes in as an argument. Every timer is a deadline computed from the state
(a flight leaving or landing, a hit's tie window closing, a countdown beat, a fight's stalling
limit, the pause between rounds); `advance` runs them in time order and, at the same moment,
in a fixed order: flights leaving, tie windows closing, flights landing, duel beats, stalling,
play countdown beats, the next round. Events are described in `events.py`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any, Final, NamedTuple

from cardroom.games.burrito import checks
from cardroom.games.burrito.actions import (
    ACTION_TYPES,
    Action,
    Call,
    Discard,
    Dodge,
    Draw,
    Grab,
    Set,
    Throw,
)
from cardroom.games.burrito.cards import (
    BATTLE,
    HAND_LIMIT,
    SET_SIZE,
    deck,
)
from cardroom.games.burrito.fight import BEATS, NO_BEAT, Fight, Flight, flight_time
from cardroom.games.burrito.options import Options
from cardroom.protocol import JSON, Event, InvalidAction, Rejected
from cardroom.protocol.rng import KeyedRandom

PHASES = ("play", "fight", "countdown", "round_over", "game_over")


# What a timer does when due, in the order timers due at the same moment fire.
LEAVES: Final = 0  # a thrown burrito leaves its thrower's hand
DECIDES: Final = 1  # a fight's winner is decided
LANDS: Final = 2  # a burrito in flight lands
DUEL_BEAT: Final = 3  # a duel's countdown says its next word
STALLS: Final = 4  # a fight with no hit for too long
COUNTDOWN: Final = 5  # the round's countdown says its next word
NEXT_ROUND: Final = 6  # the next round is dealt
IDLE: Final = 7  # nobody moved a card for too long: the round ends


class Timer(NamedTuple):
    """The next timer of a table: when, what it does (the order at the same moment), and the
    flight it is about (LEAVES and LANDS; else 0). Compared as a tuple: soonest first."""

    at: int
    does: int
    flight: int


class BurritoTable:
    """One game in progress. Seats 0..n-1 clockwise; seat i's left neighbour is i+1."""

    def __init__(self, players: int, options: Options, seed: int) -> None:
        self.n = players
        self.opts = options
        self.seed = seed
        self.rng = KeyedRandom(seed)
        self._now = 0
        self.round = 1
        self.phase = "countdown"
        self.hands: list[list[str]] = [[] for _ in range(players)]
        self.piles: list[list[str]] = [[] for _ in range(players)]  # top card last
        self.community: list[list[str]] = [[], []]  # top card last
        self.score_piles: list[list[str]] = [[] for _ in range(players)]
        self.sets = [0] * players
        self.battle_sets = [0] * players
        self.bruises = [0] * players
        self.bruises_left = options.bruises
        self.badge: int | None = None
        self._winner: int | None = None
        self.fight: Fight | None = None
        self.cd_beat = NO_BEAT
        self.cd_start = 0
        self.cd_ms = options.countdown_ms
        """How long the countdown under way lasts (a round's first is longer with extra time)."""
        self.cd_caller: int | None = None
        self.next_round_at: int | None = None
        self.moved_at = 0
        """When a card last moved in play (an accepted action, or play starting again): play
        standing still `idle_round_ms` after it ends the round (`_fire`)."""
        self.dodge_until = [0] * players
        self.flight_seq = 0
        self.fight_counts = {"brawl": 0, "war": 0, "duel": 0}
        self.mistakes = 0
        self.tiebreaks = 0
        self.round_scores: list[list[int]] = []
        self.round_winners: list[int] = []
        self.tied: list[int] = []  # the players tied at the end of the current round, if any
        self._out: list[Event] = []

    # ---- the Table protocol -------------------------------------------------------------

    @property
    def players(self) -> int:
        return self.n

    @property
    def now(self) -> int:
        return self._now

    @property
    def over(self) -> bool:
        return self.phase == "game_over"

    @property
    def winner(self) -> int | None:
        return self._winner

    def scores(self) -> list[int]:
        return [self.sets[p] + 2 * self.battle_sets[p] - self.bruises[p] for p in range(self.n)]

    def advance(self, to_ms: int) -> list[Event]:
        self._run_timers(to_ms)
        out, self._out = self._out, []
        return out

    def apply(self, player: int, action: Action, at_ms: int) -> list[Event] | Rejected:
        if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < self.n:
            raise InvalidAction(f"player {player!r} is not a seat at this table (0 to {self.n - 1})")
        if not isinstance(action, ACTION_TYPES):
            raise InvalidAction(f"not a burrito action: {action!r}")
        # Drivers run the timers first; should one not have, its events wait for the next answer.
        self._run_timers(at_ms)
        refused = self.check(player, action)
        if refused is not None:
            return refused
        self._do(player, action)
        self.moved_at = at_ms
        out, self._out = self._out, []
        return out

    def next_deadline(self) -> int | None:
        due = self._next_timer()
        return None if due is None else due.at

    def actors(self) -> range:
        """Every seat: a real-time game, in which anyone may pass, throw or dodge at any moment."""
        return range(self.n)

    def view(self, seat: int | None) -> JSON:
        from cardroom.games.burrito.view import view

        return view(self, seat)

    def views(self, seats: Iterable[int | None]) -> dict[int | None, JSON]:
        from cardroom.games.burrito.view import views

        return views(self, seats)

    def peek(self, seat: int) -> Callable[[str], Any]:
        return lambda key: self.view(seat)[key]

    def summary(self) -> JSON:
        from cardroom.games.burrito.view import summary

        return summary(self)

    def snapshot(self) -> Any:
        return (
            self.n,
            self.rng.getstate(),
            self._now,
            self.round,
            self.phase,
            tuple(tuple(h) for h in self.hands),
            tuple(tuple(p) for p in self.piles),
            tuple(tuple(c) for c in self.community),
            tuple(tuple(s) for s in self.score_piles),
            tuple(self.sets),
            tuple(self.battle_sets),
            tuple(self.bruises),
            self.bruises_left,
            self.badge,
            self._winner,
            None if self.fight is None else self.fight.key(),
            (self.cd_beat, self.cd_start, self.cd_ms, self.cd_caller, self.next_round_at, self.moved_at),
            tuple(self.dodge_until),
            self.flight_seq,
            tuple(sorted(self.fight_counts.items())),
            self.mistakes,
            self.tiebreaks,
            tuple(tuple(s) for s in self.round_scores),
            tuple(self.round_winners),
            tuple(self.tied),
        )

    # ---- checking an action (the rules of what is allowed live in `checks.py`) -------------

    def check(self, p: int, action: Action) -> Rejected | None:
        """Why `p` may not do `action` now, or None when it would be accepted."""
        return checks.check(self, p, action)

    def is_mistake(self, p: int, action: Action) -> bool:
        """Whether an accepted `action` would lose `p` the fight (wrong call, bystander, false start)."""
        return checks.is_mistake(self, p, action)

    # ---- doing an accepted action -----------------------------------------------------------

    def _emit(self, kind: str, data: JSON, secret: JSON | None = None, knowers: tuple[int, ...] = ()) -> None:
        data["at"] = self._now
        self._out.append(Event(kind, data, secret, frozenset(knowers)))

    def _private(self, kind: str, seat: int, data: JSON, secret: JSON) -> None:
        data["at"] = self._now
        self._out.append(Event(kind, data, secret, frozenset((seat,)), public=False))

    def _do(self, p: int, action: Action) -> None:
        if isinstance(action, Draw):
            self._draw(p, action)
        elif isinstance(action, Discard):
            self.hands[p].remove(action.card)
            left = (p + 1) % self.n
            self.piles[left].append(action.card)
            self._emit("discard", {"player": p, "to": left}, {"card": action.card}, (p,))
        elif isinstance(action, Set):
            hand = self.hands[p]
            for _ in range(SET_SIZE):
                hand.remove(action.card)
            self.score_piles[p].extend([action.card] * SET_SIZE)
            self.sets[p] += 1
            self._emit("set", {"player": p, "card": action.card, "score": self.scores()[p]})
        elif isinstance(action, Call):
            self._call(p, action)
        elif isinstance(action, Grab):
            self._grab(p)
        elif isinstance(action, Throw):
            self._throw(p, action.target)
        elif isinstance(action, Dodge):
            self._dodge(p)
        else:
            self._catch(p)

    def _draw(self, p: int, action: Draw) -> None:
        source, k = "own", -1
        if action.source == "community" and action.pile is not None:
            source, k = "community", action.pile
        elif action.source == "community" or not self.piles[p]:
            source, k = "community", 0 if self.community[0] else 1
        pile = self.piles[p] if source == "own" else self.community[k]
        card = pile.pop()
        self.hands[p].append(card)
        data: JSON = {"player": p, "from": source}
        if source == "community":
            data["pile"] = k
        self._emit("draw", data, {"card": card}, (p,))

    def _call(self, p: int, action: Call) -> None:
        card = checks.call_card(self, p, action)
        f = self.fight
        if card is None:
            self.mistakes += 1
            self._emit("mistake", {"player": p, "what": "call", "fight": action.fight})
            if f is None:
                self._end_fight(p, "mistake", action.fight, p)
            else:
                self._lose(p, "mistake")
            return
        hand = self.hands[p]
        for _ in range(SET_SIZE):
            hand.remove(card)
        self.score_piles[p].extend([card] * SET_SIZE)
        self.battle_sets[p] += 1
        data: JSON = {"player": p, "fight": action.fight, "card": card, "score": self.scores()[p]}
        if action.targets is not None:
            data["targets"] = list(action.targets)
        self._emit("call", data)
        if f is not None:  # within the simultaneous-call window: one War of everybody
            self.fight_counts[f.kind] -= 1
            self.fight_counts["war"] += 1
            f.kind = "war"
            f.fighters = list(range(self.n))
            f.callers.append(p)
            f.go_at = None
            f.beat = NO_BEAT
            self._emit_fight_start(f, merged=True)
            return
        n = self.n
        if n == 2:
            fighters = [0, 1]
        elif action.fight == "brawl":
            fighters = sorted({(p - 1) % n, (p + 1) % n})
        elif action.fight == "war":
            fighters = [q for q in range(n) if q != p]
        else:
            assert action.targets is not None
            fighters = sorted(action.targets)
        kind = "duel" if action.fight == "duel" else action.fight
        self._start_fight(kind, fighters, p, None)

    def _start_fight(self, kind: str, fighters: list[int], caller: int | None, tiebreak: str | None) -> None:
        now, n, o = self._now, self.n, self.opts
        f = Fight(
            kind=kind,
            fighters=list(fighters),
            caller=caller,
            callers=[] if caller is None else [caller],
            tiebreak=tiebreak,
            started_at=now,
            timeout_at=now + o.fight_timeout_ms,
            call_until=now + o.simultaneous_call_ms if caller is not None else now,
            holding=[0] * n,
            free=o.burritos,
            throws=[0] * n,
            last_act=[-1] * n,
        )
        self.fight = f
        self.phase = "fight"
        if tiebreak is None:
            self.fight_counts[kind] += 1
        else:
            self.tiebreaks += 1
        self._arm(f, kind, f.fighters)
        self._emit_fight_start(f)

    def _arm(self, f: Fight, kind: str, fighters: list[int]) -> None:
        """Burritos back on the table; a duel starts with one in each duelist's hand."""
        f.kind = kind
        f.fighters = list(fighters)
        f.flights = []
        f.holding = [0] * self.n
        f.free = self.opts.burritos
        f.throws = [0] * self.n
        f.last_act = [-1] * self.n
        f.started_at = self._now
        f.timeout_at = self._now + self.opts.fight_timeout_ms
        f.hits = []
        f.decide_at = None
        f.go_at = None
        f.beat = NO_BEAT
        if kind == "duel":
            for q in fighters:
                f.holding[q] = 1
            f.free -= len(fighters)
            f.beat = 0
            f.beat_start = self._now
            f.go_at = self._now + 3 * self.opts.duel_beat_ms

    def _emit_fight_start(self, f: Fight, merged: bool = False) -> None:
        data: JSON = {
            "kind": f.kind,
            "fighters": list(f.fighters),
            "caller": f.caller,
            "tiebreak": f.tiebreak,
            "timeout_at": f.timeout_at,
        }
        if merged:
            data["merged"] = True
            data["callers"] = list(f.callers)
        if f.go_at is not None:
            data["go_at"] = f.go_at
        self._emit("fight_start", data)

    def _grab(self, p: int) -> None:
        f = self.fight
        assert f is not None
        if p not in f.fighters:
            self.mistakes += 1
            self._emit("mistake", {"player": p, "what": "grab"})
            self._lose(p, "mistake")
            return
        f.holding[p] += 1
        f.free -= 1
        f.last_act[p] = self._now
        self._emit("grab", {"player": p, "free": f.free})

    def _throw(self, p: int, target: int) -> None:
        f = self.fight
        assert f is not None
        now, o = self._now, self.opts
        if f.go_at is not None and now < f.go_at:
            self._emit("false_start", {"player": p, "go_at": f.go_at})
            self._lose(p, "false_start")
            return
        nth = f.throws[p]
        f.throws[p] += 1
        f.last_act[p] = now
        # Extra time (docs/rules/burrito.md#time-to-react): a burrito thrown at a seat granted it
        # flies longer, and its catch window is longer.
        stretch = o.time_factor(target)
        ms = flight_time(nth, o.flight_ms, o.flight_speedup_pct, o.flight_min_ms) * stretch
        behind = (
            nth == 0
            and f.kind != "duel"
            and (o.small_room or (self.n == 2 and p in f.callers and f.tiebreak is None))
        )
        leaves = now + o.behind_back_ms if behind else now
        lands = leaves + ms
        self.flight_seq += 1
        catch_from = lands - o.catch_window_ms * stretch
        fl = Flight(self.flight_seq, p, target, now, leaves, lands, catch_from, not behind)
        f.flights.append(fl)
        if behind:
            self._emit("behind_back", {"player": p, "leaves_at": leaves}, {"target": target}, (p,))
        else:
            f.holding[p] -= 1
            self._emit_throw(fl)

    def _emit_throw(self, fl: Flight) -> None:
        self._emit(
            "throw",
            {
                "thrower": fl.thrower,
                "target": fl.target,
                "id": fl.id,
                "lands_at": fl.lands_at,
                "catch_from": fl.catch_from,
                "flight_ms": fl.lands_at - fl.leaves_at,
            },
        )

    def _dodge(self, p: int) -> None:
        f = self.fight
        assert f is not None
        ids = []
        for fl in f.flights:
            if fl.left and not fl.dodged and fl.target == p:
                fl.dodged = True
                ids.append(fl.id)
        self.dodge_until[p] = self._now + self.opts.dodge_cooldown_ms
        f.last_act[p] = self._now
        self._emit("dodge", {"player": p, "ids": ids, "until": self.dodge_until[p]})

    def _catch(self, p: int) -> None:
        f = self.fight
        assert f is not None
        if p not in f.fighters:
            self.mistakes += 1
            self._emit("mistake", {"player": p, "what": "catch"})
            self._lose(p, "mistake")
            return
        f.last_act[p] = self._now
        flying = [fl for fl in f.flights if fl.left and not fl.dodged and fl.target == p]
        fl = min(flying, key=lambda x: (x.lands_at, x.id))
        f.flights.remove(fl)
        if self._now >= fl.catch_from:
            f.holding[p] += 1
            self._emit("catch", {"player": p, "thrower": fl.thrower, "id": fl.id})
            if fl.thrower in f.fighters:  # a thrower already out of a tie-break is out once
                self._lose(fl.thrower, "caught")
        else:
            f.free += 1
            self._emit("fumble", {"player": p, "thrower": fl.thrower, "id": fl.id})
            self._hit(p)

    def _hit(self, p: int) -> None:
        f = self.fight
        assert f is not None
        if p not in f.hits:
            f.hits.append(p)
        if f.decide_at is None:
            f.decide_at = self._now + self.opts.tie_ms

    # ---- ending fights, rounds and the game ---------------------------------------------------

    def _lose(self, loser: int, reason: str) -> None:
        """`loser` lost the fight in progress (in a tie-break: is out of it)."""
        f = self.fight
        assert f is not None
        if f.tiebreak is None:
            f.hits = []
            f.decide_at = None
            self._end_fight(loser, reason, f.kind, f.caller)
            return
        self._eliminate([loser], reason)

    def _eliminate(self, out: list[int], reason: str) -> None:
        f = self.fight
        assert f is not None
        for q in out:
            f.fighters.remove(q)
            if q in f.hits:  # caught out while their own hit waited for its tie window
                f.hits.remove(q)
            f.flights = [fl for fl in f.flights if fl.left or fl.thrower != q]
            f.free += f.holding[q]
            f.holding[q] = 0
            self._emit("eliminated", {"player": q, "reason": reason})
        if not f.hits:
            f.decide_at = None
        if len(f.fighters) == 1:
            won = f.fighters[0]
            self._emit(
                "fight_over",
                {
                    "loser": out[-1],
                    "winner": won,
                    "bruise": False,
                    "reason": reason,
                    "kind": f.kind,
                    "tiebreak": f.tiebreak,
                },
            )
            self.fight = None
            if f.tiebreak == "badge":
                self._game_won(won)
            else:
                self._round_won(won)
            return
        f.timeout_at = self._now + self.opts.fight_timeout_ms
        f.last_act = [-1] * self.n

    def _end_fight(self, loser: int, reason: str, kind: str, caller: int | None) -> None:
        """A fight called with cards is over: one bruise, burritos back, then countdown or round end."""
        self.bruises[loser] += 1
        self.bruises_left -= 1
        self.fight = None
        self._emit(
            "fight_over",
            {
                "loser": loser,
                "bruise": True,
                "reason": reason,
                "kind": kind,
                "bruises_left": self.bruises_left,
            },
        )
        if self.bruises_left <= 0:
            self._end_round("bruises")
        elif not self.battle_set_possible():
            self._end_round("no_battle_sets")
        else:
            self._start_countdown(caller, self.opts.countdown_ms)

    def battle_set_possible(self) -> bool:
        """Whether three cards of one battle kind are still outside the score piles."""
        counts: Counter[str] = Counter()
        for group in (self.hands, self.piles, self.community):
            for cards in group:
                counts.update(cards)
        return any(counts[c] >= SET_SIZE for c in BATTLE)

    def _start_countdown(self, caller: int | None, ms: int) -> None:
        self.phase = "countdown"
        self.cd_start = self._now
        self.cd_ms = ms
        self.cd_beat = 0
        self.cd_caller = caller

    def _end_round(self, reason: str) -> None:
        scores = self.scores()
        self.round_scores.append(scores)
        top = max(scores)
        tied = [p for p in range(self.n) if scores[p] == top]
        data: JSON = {"round": self.round, "scores": scores, "reason": reason, "winner": None}
        if len(tied) == 1:
            data["winner"] = tied[0]
            self._emit("round_over", data)
            self._round_won(tied[0])
            return
        data["tied"] = list(tied)
        self.tied = list(tied)
        self._emit("round_over", data)
        self._start_fight("duel" if len(tied) == 2 else "war", tied, None, "round_tie")

    def _round_won(self, p: int) -> None:
        self.round_winners.append(p)
        self._emit("round_won", {"round": self.round, "player": p})
        if self.round == 1:
            self.badge = p
            self._emit("badge", {"player": p})
            self.phase = "round_over"
            self.next_round_at = self._now + self.opts.between_rounds_ms * self.opts.listening_factor()
            return
        if self.badge is None or self.badge == p or sorted(self.tied) == sorted((p, self.badge)):
            # A round-2 tie duel against the badge holder already was the badge duel.
            self._game_won(p)
            return
        self.phase = "fight"
        self._start_fight("duel", sorted((p, self.badge)), None, "badge")

    def _game_won(self, p: int) -> None:
        self.badge = p
        self._winner = p
        self.phase = "game_over"
        self._emit("game_over", {"winner": p, "badge": p})

    # ---- rounds ---------------------------------------------------------------------------------

    def setup_round(self) -> None:
        """A fresh setup: shuffle every card, deal the personal piles and hands, count down."""
        o, n = self.opts, self.n
        cards = deck(o.decks)
        self.rng.shuffle(cards)
        size = o.pile_size
        self.piles = [cards[i * size : (i + 1) * size] for i in range(n)]
        rest = cards[n * size :]
        half = (len(rest) + 1) // 2
        self.community = [rest[:half], rest[half:]]
        self.hands = []
        for pile in self.piles:
            self.hands.append([pile.pop() for _ in range(HAND_LIMIT)])
        self.score_piles = [[] for _ in range(n)]
        self.sets = [0] * n
        self.battle_sets = [0] * n
        self.bruises = [0] * n
        self.bruises_left = o.bruises
        self.dodge_until = [0] * n
        self.fight = None
        self.next_round_at = None
        self.tied = []
        self._emit(
            "round_start",
            {
                "round": self.round,
                "hand_sizes": [len(h) for h in self.hands],
                "pile_sizes": [len(p) for p in self.piles],
                "community_sizes": [len(c) for c in self.community],
            },
        )
        for p in range(n):
            self._private("hand", p, {"player": p}, {"cards": list(self.hands[p])})
        self._start_countdown(None, self.opts.countdown_ms * self.opts.listening_factor(self.round == 1))

    # ---- timers ---------------------------------------------------------------------------------

    def _next_timer(self) -> Timer | None:
        """The next timer to fire (`Timer`)."""
        best: Timer | None = None
        f = self.fight
        if f is not None:
            for fl in f.flights:
                cand = Timer(fl.leaves_at, LEAVES, fl.id) if not fl.left else Timer(fl.lands_at, LANDS, fl.id)
                if best is None or cand < best:
                    best = cand
            if f.decide_at is not None:
                cand = Timer(f.decide_at, DECIDES, 0)
                if best is None or cand < best:
                    best = cand
            if f.beat < NO_BEAT:
                cand = Timer(f.beat_start + f.beat * self.opts.duel_beat_ms, DUEL_BEAT, 0)
                if best is None or cand < best:
                    best = cand
            if not f.hits:
                cand = Timer(f.timeout_at, STALLS, 0)
                if best is None or cand < best:
                    best = cand
        if self.cd_beat < NO_BEAT:
            cand = Timer(self._countdown_beat_at(self.cd_beat), COUNTDOWN, 0)
            if best is None or cand < best:
                best = cand
        if self.next_round_at is not None:
            cand = Timer(self.next_round_at, NEXT_ROUND, 0)
            if best is None or cand < best:
                best = cand
        if self.phase == "play":
            cand = Timer(self.moved_at + self.opts.idle_round_ms, IDLE, 0)
            if best is None or cand < best:
                best = cand
        return best

    def _countdown_beat_at(self, beat: int) -> int:
        return self.cd_start + self.cd_ms * beat // 3

    def _run_timers(self, to_ms: int) -> None:
        while True:
            due = self._next_timer()
            if due is None or due.at > to_ms:
                break
            if due.at > self._now:
                self._now = due.at
            self._fire(due.does, due.flight)
        if to_ms > self._now:
            self._now = to_ms

    def _fire(self, does: int, ident: int) -> None:
        f = self.fight
        if does in (LEAVES, LANDS):
            assert f is not None
            fl = next(x for x in f.flights if x.id == ident)
            if does == LEAVES:
                fl.left = True
                f.holding[fl.thrower] -= 1
                self._emit_throw(fl)
            else:
                self._land(f, fl)
        elif does == DECIDES:
            assert f is not None
            self._decide(f)
        elif does == DUEL_BEAT:
            assert f is not None
            self._emit("duel_beat", {"beat": BEATS[f.beat], "fighters": list(f.fighters)})
            f.beat += 1
        elif does == STALLS:
            assert f is not None
            self._stalling(f)
        elif does == COUNTDOWN:
            beat = BEATS[self.cd_beat]
            self._emit("countdown", {"beat": beat, "caller": self.cd_caller, "round": self.round})
            self.cd_beat += 1
            if self.cd_beat == NO_BEAT:
                self.phase = "play"
                self.moved_at = self._now
        elif does == IDLE:
            # docs/rules/burrito.md#play-that-stands-still: nobody moved a card for that long.
            self._end_round("idle")
        else:  # NEXT_ROUND
            self.next_round_at = None
            self.round += 1
            self.setup_round()

    def _land(self, f: Fight, fl: Flight) -> None:
        f.flights.remove(fl)
        f.free += 1
        if fl.dodged or fl.target not in f.fighters:
            reason = "dodged" if fl.dodged else "not_fighting"
            self._emit(
                "miss",
                {"thrower": fl.thrower, "target": fl.target, "id": fl.id, "reason": reason, "free": f.free},
            )
            return
        self._emit("hit", {"player": fl.target, "thrower": fl.thrower, "id": fl.id})
        self._hit(fl.target)

    def _decide(self, f: Fight) -> None:
        hits = list(f.hits)
        f.hits = []
        f.decide_at = None
        if len(hits) == 1:
            self._lose(hits[0], "hit")
            return
        if f.tiebreak is not None and len(hits) < len(f.fighters):
            self._eliminate(hits, "hit")
            return
        kind = "duel" if len(hits) == 2 else "war"
        self._emit("fight_tie", {"players": sorted(hits), "kind": kind})
        self._arm(f, kind, sorted(hits))
        f.call_until = self._now
        self._emit_fight_start(f)

    def _stalling(self, f: Fight) -> None:
        n = self.n
        start = 0 if f.caller is None else (f.caller + 1) % n
        order = {(start + k) % n: k for k in range(n)}
        loser = min(f.fighters, key=lambda q: (f.last_act[q], order[q]))
        self._emit("stalling", {"player": loser})
        self._lose(loser, "stalling")
