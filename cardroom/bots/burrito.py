"""Throw Throw Burrito bots: they play like people, at three speeds, so that people can win.

A bot hears only its seat's filtered events and reads only its seat's view; it plays through
the same actions as a person. It keeps three intentions, each with the moment it will act:

- *card*: the next card action (set, call, draw, pass a card), a reaction time after the
  last thing that changed its hand or reopened play;
- *arm*: grab a free burrito or throw the one it holds, when it is a fighter;
- *defence*: catch or dodge a burrito thrown at it, planned the moment the `throw` is
  announced (the target is told at once), aimed by a person's timing, with a person's errors.

`due()` is the earliest of the three. `notice` is cheap: it tracks a few facts from events
(the burritos flying at it, dodge cooldowns, the cards scored) and never builds the view;
`act` reads the view at most once, then decides from what is true at that moment.

Reaction times are a person's (`burrito_levels`). Card play: a simple reaction (about 200 to
300 ms by level) plus a few milliseconds per bit of choice (Hick-Hyman), so a card action among
the four or five a hand offers takes about 650 ms for easy, 420 for normal and 260 for hard.
The bot keeps its own hand from its events to count its choices without building the view.
Fights answer another player's move, so every fight decision is a person's choice reaction,
never under 400 ms: a grab answers the fight's start, a throw chooses among the targets, the
first sight of a burrito chooses between dodge and catch. They come from a random stream of
their own, so that when a bot acts in a fight never depends on its cards.

A catch answers the catch window's opening a reaction time later (too late is a hit), never
before the bot has seen the throw; a duelist throws a reaction time after "Burrito!". Waiting rules, so
that cards keep moving without handing the same card back and forth: a bot with nothing to
draw waits for cards (`RESTLESS_MS` at most), notices a card put on its waiting pile up to two
reaction times late, and with two players lets the other dig into a bigger pile (`PATIENCE`).
Card choices are in `burrito_hand`. A bot with tactics (hard) also keeps a `Watch` on its
neighbours, joins a fight it is in with a call of its own while calls still merge, and in a
fight weighs a catch against a dodge by its own odds and throws at the rival it most needs to
bruise.
"""

from __future__ import annotations

import random

from cardroom.bots.burrito_hand import call_now, card_action
from cardroom.bots.burrito_levels import Level, level
from cardroom.bots.burrito_tactics import holds_battle_set, merge_call, prefer_catch, target
from cardroom.bots.burrito_watch import Watch
from cardroom.games.burrito.actions import Action, Catch, Dodge, Grab, Throw
from cardroom.games.burrito.cards import DECK_SIZE, SET_SIZE
from cardroom.games.burrito.options import Options
from cardroom.protocol import JSON, Rejected
from cardroom.protocol.rng import KeyedRandom
from cardroom.protocol.table import ViewFn

CATCH = Catch()
DODGE = Dodge()
GRAB = Grab()

_CARD, _ARM, _DEFENCE = 0, 1, 2
PATIENCE = (0.2, 1.6)
"""Two players, no community card: wait while one's pile is under this share of the other's."""
BORED_SWAPS = 12
"""After this many cards passed on without scoring, a bot may break a pair."""
FIRST_FLIGHT_MS = Options().flight_ms
"""How long a throw flies, until the bot has seen one at its table."""
RESTLESS_MS = 3000
"""How long a bot with nothing to draw waits before passing a card on all the same."""
HOLD_MS = 20000
"""How long a bot with tactics holds the last bruise's call while it would leave somebody else
ahead (`call_now`) before calling all the same: a person waits a while for a better moment,
not all round. Held for good, four hard bots each sat on a battle set for five minutes, none
ever far enough in front to call (docs/bots.md)."""


class BurritoBot:
    """A Throw Throw Burrito player at one level, deterministic from its seed."""

    hears_secrets = True
    """It follows its own hand from the events (the card it drew, the one it passed)."""
    listens = True

    def __init__(self, seat: int, lvl: Level, seed: int) -> None:
        self.seat = seat
        self.level = lvl
        self.rng: random.Random = KeyedRandom(seed)
        self.timing: random.Random = KeyedRandom(-1 - seed)
        """Its fight reactions (when, and whether it catches or dodges): a stream of their own,
        so that they never depend on its cards (what it drew, chose or holds changes nothing in
        when it dodges)."""
        self._due: int | None = None
        self._card_at: int | None = None
        self._arm_at: int | None = None
        self._def_at: int | None = None
        self._def_do: Action = DODGE
        self._def_id = -1
        self._last = _CARD
        self._refusals = 0
        self._play = False
        self._waiting = False
        self._patience = 0.5
        self._held_at: int | None = None
        """Since when it holds a battle set it would rather not call yet (`HOLD_MS`)."""
        self._swaps = 0
        self._fighting = False
        self._false_start = False
        self._incoming: dict[int, tuple[int, int, int]] = {}  # id: (lands_at, catch_from, thrower)
        self._fighters = 0
        self._scores: list[int] = []
        self._dodge_until = 0
        self._others_dodge: dict[int, int] = {}
        self._scored: dict[str, int] = {}
        self._decks = 1
        self._hand: list[str] = []
        self._first_flight: int | None = None
        self.watch: Watch | None = None

    def __repr__(self) -> str:
        return f"BurritoBot(seat={self.seat}, level={self.level.name!r})"

    # ---- the Bot protocol -------------------------------------------------------------------

    def due(self) -> int | None:
        return self._due

    def notice(self, events: list[JSON], view: ViewFn, now: int) -> None:
        if not events:
            self._look(view(), now)
            return
        seat = self.seat
        hand = self._hand
        for e in events:
            kind = e["event"]
            if self.watch is not None:
                self.watch.notice(e)
            if kind == "draw":
                if e["player"] == seat:
                    hand.append(e["card"])
                    self._mine(now)
            elif kind == "discard":
                if e["player"] == seat:
                    _remove(hand, e["card"], 1)
                    self._swaps += 1
                    self._mine(now)
                elif e["to"] == seat and (self._waiting or self._card_at is None):
                    # A card came to the pile it was waiting on; a person glancing at a waiting
                    # pile now and then sees it up to two reaction times late.
                    glance = 2 * self.level.mean_ms(self._choices())
                    self._plan_card(now + int(self.rng.random() * glance))
            elif kind == "set":
                self._scored[e["card"]] = self._scored.get(e["card"], 0) + 3
                self._score(e["player"], e["score"])
                if e["player"] == seat:
                    _remove(hand, e["card"], SET_SIZE)
                    self._swaps = 0
                    self._mine(now)
            elif kind == "hand":
                hand[:] = e["cards"]
            elif kind == "countdown":
                if e["beat"] == "burrito":
                    self._play = True
                    self._plan_card(now)
                else:
                    self._play = False
            elif kind == "call":
                self._scored[e["card"]] = self._scored.get(e["card"], 0) + 3
                self._score(e["player"], e["score"])
                self._play = False
                self._card_at = None
                if e["player"] == seat:
                    _remove(hand, e["card"], SET_SIZE)
                    self._refusals = 0
                    self._swaps = 0
            elif kind == "fight_start":
                self._fight_start(e, now)
            elif kind == "throw":
                self._throw(e, now)
            elif kind == "grab":
                if e["player"] == seat:
                    self._refusals = 0
                    self._plan_arm(now, max(1, self._fighters - 1))  # whom to throw at
            elif kind == "dodge":
                self._dodged(e, now)
            elif kind == "miss":
                self._incoming.pop(e["id"], None)
                if self._fighting and self._arm_at is None:
                    self._plan_arm(now)  # a burrito is free again
            elif kind == "catch" or kind == "fumble" or kind == "hit":
                self._incoming.pop(e["id"], None)
            elif kind == "eliminated":
                if e["player"] == seat:
                    self._leave_fight()
                elif self._fighting:
                    self._plan_arm(now)
            elif kind == "fight_over" or kind == "fight_tie":
                if e.get("bruise"):
                    self._score(e["loser"], None)
                self._leave_fight()
            elif kind == "round_start":
                self._new_round(e)
            elif kind == "round_over":
                self._play = False
                self._card_at = None
            elif kind == "game_over":
                self._play = False
                self._leave_fight()
                self._card_at = None
        self._refresh()

    def act(self, view: ViewFn, now: int) -> Action | None:
        which = self._next_intent()
        if which == _DEFENCE:
            self._def_at = None
            self._last = _DEFENCE
            action = self._defend(now)
        elif which == _ARM:
            self._arm_at = None
            self._last = _ARM
            action = self._arm(view(), now)
        else:
            self._card_at = None
            self._last = _CARD
            action = self._card(view(), now)
        self._refresh()
        return action

    def refused(self, rejection: Rejected, view: ViewFn, now: int) -> None:
        # A refusal changes nothing: look again after a reaction time that grows with every
        # refusal in a row, never at the same instant.
        self._refusals += 1
        wait = self.level.reaction(self.rng) * min(1 << self._refusals, 16)
        if self._last == _DEFENCE:
            if rejection.code == "dodge_cooldown":
                self._dodge_until = int(rejection.params.get("until", now + 1))
                self._def_id = -1
                self._plan_defence(now)
        elif self._last == _ARM:
            if self._fighting:
                self._arm_at = now + wait
        elif self._play:
            self._card_at = now + wait
        self._refresh()

    # ---- scheduling ---------------------------------------------------------------------------

    def _refresh(self) -> None:
        due = self._card_at
        for at in (self._arm_at, self._def_at):
            if at is not None and (due is None or at < due):
                due = at
        self._due = due

    def _next_intent(self) -> int:
        best, which = None, _CARD
        for at, intent in ((self._def_at, _DEFENCE), (self._arm_at, _ARM), (self._card_at, _CARD)):
            if at is not None and (best is None or at < best):
                best, which = at, intent
        return which

    def _mine(self, now: int) -> None:
        """One of its own card actions went through: the next one after a reaction time."""
        self._refusals = 0
        self._plan_card(now)

    def _look(self, v: JSON, now: int) -> None:
        """Sitting down mid-game (a stand-in, a restart): take the table as it is."""
        cards = sum(v["hand_sizes"]) + sum(v["pile_sizes"]) + sum(v["community_sizes"])
        self._decks = 2 if cards + 3 * sum(len(p) for p in v["score_piles"]) > DECK_SIZE else 1
        self._hand = list(v["hand"])
        self._scores = list(v["scores"])
        if self.level.tactics:
            self.watch = Watch(self.seat, v["players"])  # what it saw before sitting down is lost
        f = v.get("fight")
        if v["phase"] == "play":
            self._play = True
            self._plan_card(now)
        elif f is not None and not f["decided"]:
            # (a fight already on when this bot looks: it starts as the event would have)
            self._fight_start({"fighters": f["fighters"], "go_at": f["go_at"], "caller": f["caller"]}, now)
        self._refresh()

    def _plan_card(self, now: int) -> None:
        self._waiting = False
        if not self._play:
            return
        lvl = self.level
        ms = lvl.reaction(self.rng, self._choices())
        if lvl.hesitate and self.rng.random() < lvl.hesitate:
            ms *= 2
        self._card_at = now + ms

    def _score(self, player: int, score: int | None) -> None:
        """Keep the scores from events (None: a bruise), for decisions made without the view."""
        scores = self._scores
        if player < len(scores):
            scores[player] = scores[player] - 1 if score is None else score

    def _choices(self) -> int:
        """What a card action chooses among: pass one of the kinds held, or draw (or set)."""
        return len(set(self._hand)) + 1

    def _plan_arm(self, now: int, choices: int = 1) -> None:
        """A grab answers one cue; a throw chooses among the other fighters."""
        self._arm_at = now + self.level.fight_reaction(self.timing, choices)

    # ---- card play ----------------------------------------------------------------------------

    def _new_round(self, e: JSON) -> None:
        self._play = False
        self._card_at = None
        self._leave_fight()
        self._scored = {}
        self._held_at = None
        self._swaps = 0
        self._others_dodge = {}
        self._dodge_until = 0
        cards = sum(e["hand_sizes"]) + sum(e["pile_sizes"]) + sum(e["community_sizes"])
        self._decks = 2 if cards > DECK_SIZE else 1
        self._hand = []
        self._scores = [0] * len(e["hand_sizes"])
        if self.level.tactics:
            self.watch = Watch(self.seat, len(e["hand_sizes"]))

    def _card(self, v: JSON, now: int) -> Action | None:
        if v["phase"] == "fight":
            return merge_call(v, self.seat, self.level, self.rng, now)
        if v["phase"] != "play":
            return None
        restless, self._waiting = self._waiting, False
        holding = self.level.tactics and holds_battle_set(v["hand"]) and not call_now(v, self.seat)
        if not holding:
            self._held_at = None
        elif self._held_at is None:
            self._held_at = now
        action = card_action(
            v,
            self.seat,
            self.level,
            self.rng,
            self._scored,
            self._decks,
            restless,
            self._patience,
            self._swaps >= BORED_SWAPS,
            self.watch,
            holding and self._held_at is not None and now - self._held_at >= HOLD_MS,
        )
        if action is not None:
            self._patience = PATIENCE[0] + self.rng.random() * (PATIENCE[1] - PATIENCE[0])
        elif v["hand"] and not restless:
            self._waiting = True
            self._card_at = now + RESTLESS_MS + self.level.reaction(self.rng, self._choices())
        return action

    # ---- fights -------------------------------------------------------------------------------

    def _leave_fight(self) -> None:
        self._fighting = False
        self._false_start = False
        self._arm_at = None
        self._def_at = None
        self._def_id = -1
        self._incoming.clear()

    def _fight_start(self, e: JSON, now: int) -> None:
        self._play = False
        self._card_at = None
        if not e.get("merged"):
            self._incoming.clear()
            self._def_at = None
            self._def_id = -1
        self._fighting = self.seat in e["fighters"]
        self._fighters = len(e["fighters"])
        self._false_start = False
        if not self._fighting:
            self._leave_fight()
            return
        lvl, rng = self.level, self.rng
        if lvl.tactics and e["caller"] not in (None, self.seat) and holds_battle_set(self._hand):
            # A fighter with a battle set joins in with a call while calls still merge.
            self._card_at = now + lvl.fight_reaction(rng, 2)
        go_at = e.get("go_at")
        if go_at is None:
            self._plan_arm(now)
            self._refresh()
            return
        # A duel: both hold a burrito; throw on "Burrito!", a reaction time after it.
        timing = self.timing
        if lvl.false_start and timing.random() < lvl.false_start:
            self._false_start = True
            self._arm_at = max(now, go_at - 40 - int(timing.random() * 260))
        else:
            self._arm_at = go_at + lvl.fight_reaction(timing)
        self._refresh()

    def _arm(self, v: JSON, now: int) -> Action | None:
        f = v["fight"]
        seat = self.seat
        if f is None or f["decided"] or seat not in f["fighters"]:
            return None
        if f["holding"][seat] > 0:
            for b in f["behind_back"]:
                if b["thrower"] == seat:
                    self._arm_at = b["leaves_at"] + self.level.fight_reaction(self.timing)
                    return None
            go_at = f["go_at"]
            if go_at is not None and now < go_at and not self._false_start:
                self._arm_at = go_at + self.level.fight_reaction(self.timing)
                return None
            return Throw(self._target(v, f, now, self._flight_ms(f)))
        if f["free"] > 0:
            return GRAB
        return None

    def _flight_ms(self, f: JSON) -> int:
        """How long its next throw will fly at most: its shortest throw in the air, else the
        table's first flight (its last one seen, the default flight before any)."""
        mine = [fl["flight_ms"] for fl in f["flights"] if fl["thrower"] == self.seat]
        return min(mine) if mine else self._first_flight or FIRST_FLIGHT_MS

    def _target(self, v: JSON, f: JSON, now: int, lands_in: int) -> int:
        """Another fighter (`burrito_tactics.target`), or now and then a blunder."""
        seat, rng, lvl = self.seat, self.rng, self.level
        others = [q for q in f["fighters"] if q != seat]
        if len(others) == 1:
            return int(others[0])
        if lvl.blunder and rng.random() < lvl.blunder * 2:
            return int(rng.choice(others))
        cooling = self._others_dodge if lvl.tactics else None
        return target(v, f, seat, rng, cooling, now + lands_in)

    def _throw(self, e: JSON, now: int) -> None:
        seat = self.seat
        if e["thrower"] == seat:
            self._refusals = 0
            self._false_start = False
            if self._fighting:
                self._plan_arm(now)  # another burrito may be free
        self._first_flight = max(self._first_flight or 0, e["flight_ms"])
        if e["target"] == seat and self._fighting:
            self._incoming[e["id"]] = (e["lands_at"], e["catch_from"], e["thrower"])
            self._plan_defence(now)

    def _dodged(self, e: JSON, now: int) -> None:
        if e["player"] != self.seat:
            self._others_dodge[e["player"]] = e["until"]
            return
        self._refusals = 0
        self._dodge_until = e["until"]
        for fid in e["ids"]:
            self._incoming.pop(fid, None)
        self._def_id = -1
        self._plan_defence(now)

    def _plan_defence(self, now: int) -> None:
        """React to the burrito that lands first: a catch timed into its window, or a dodge."""
        incoming = self._incoming
        if not incoming:
            self._def_at = None
            self._def_id = -1
            return
        fid = min(incoming, key=lambda k: incoming[k])
        if fid == self._def_id and self._def_at is not None:
            return
        lands, catch_from, thrower = incoming[fid]
        lvl, timing = self.level, self.timing
        seen = now + lvl.fight_reaction(timing, 2)  # dodge or catch
        dodge_at = max(seen, self._dodge_until)
        # Without tactics a bot catches now and then; with them, when a catch pays.
        window = lands - catch_from
        catch = self._catch_pays(thrower, window) if lvl.tactics else timing.random() < lvl.catch_pref
        if dodge_at >= lands or catch:
            # A catch answers the window's opening, a reaction time later, as a person's does;
            # a newcomer now and then presses it at first sight instead (a fumble if early).
            early = lvl.early_catch and timing.random() < lvl.early_catch
            at = seen if early else catch_from + lvl.fight_reaction(timing)
            self._def_do, self._def_at = CATCH, max(at, seen)
        else:
            self._def_do, self._def_at = DODGE, dodge_at
        self._def_id = fid

    def _catch_pays(self, thrower: int, window_ms: int) -> bool:
        scores = self._scores
        leads = bool(scores) and scores[thrower] == max(scores) and scores[thrower] > scores[self.seat]
        return prefer_catch(self.level, self._fighters, leads, window_ms)

    def _defend(self, now: int) -> Action | None:
        if self._def_id not in self._incoming:
            self._def_id = -1
            self._plan_defence(now)
            return None
        return self._def_do


def _remove(hand: list[str], card: str, count: int) -> None:
    for _ in range(count):
        if card in hand:
            hand.remove(card)


def make_bot(seat: int, level_name: str, seed: int) -> BurritoBot:
    """A bot for `seat` at level `easy`, `normal` or `hard`; InvalidSetup for any other level."""
    return BurritoBot(seat, level(level_name), seed)
