"""The kittens engine: a pure table that takes actions and timers and answers with events.

Every action is first checked (`checks.py`) without touching the state, so that a refusal is a
`Rejected` value that changes nothing; only then does the table change. Timers are deadlines:
one per phase (turn, Nope window, defuse, choice), run by `advance` in time order.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import partial
from typing import Any

from cardroom.games.kittens import memory
from cardroom.games.kittens.actions import (
    Action,
    AlwaysPass,
    Defuse,
    Draw,
    Give,
    Insert,
    Nope,
    Pass,
    Play,
    Reorder,
)
from cardroom.games.kittens.cards import (
    ALL_TURNS,
    CARD,
    DEFUSE,
    EXPLODING_KITTEN,
    NOPE,
    Effect,
)
from cardroom.games.kittens.checks import (
    check_choice,
    check_defuse,
    check_nope,
    check_pass,
    check_play,
    check_turn,
    may_nope,
    no,
)
from cardroom.games.kittens.combos import FIVE, PAIR, TRIPLE, classify
from cardroom.games.kittens.events import hidden, private, public
from cardroom.games.kittens.state import (
    CHOOSING,
    DEFUSING,
    GAME_OVER,
    GIVE,
    INSERT,
    NOPE_WINDOW,
    REORDER,
    TURN,
    Pending,
    State,
)
from cardroom.games.kittens.view import view, view_field, views
from cardroom.protocol import JSON, Event, Rejected


class KittensTable:
    """One game of Exploding Kittens in progress."""

    __slots__ = ("_out", "_waiting", "s")

    def __init__(self, state: State) -> None:
        self.s = state
        self._out: list[Event] = []
        self._waiting: list[Event] = []
        """Events said before any action (the deal), handed out by the next advance or apply."""

    def deal(self) -> None:
        """Say the deal of a fresh table: the sizes to all, each hand to its owner, the first turn."""
        s = self.s
        self._out = self._waiting
        self._out.append(
            public(
                "deal",
                {
                    "hand_sizes": [len(h) for h in s.hands],
                    "deck_size": len(s.deck),
                    "kittens": s.deck.count(EXPLODING_KITTEN),
                },
            )
        )
        for p, hand in enumerate(s.hands):
            self._out.append(private("hand", p, {"player": p}, {"cards": list(hand)}))
        self._announce_turn()

    def copy(self) -> KittensTable:
        """An independent table in the same state (`State.copy`), events not yet handed out
        included: playing one never changes the other."""
        table = KittensTable(self.s.copy())
        table._waiting = list(self._waiting)
        return table

    # -- the Table protocol ------------------------------------------------------------------

    @property
    def players(self) -> int:
        return self.s.players

    @property
    def now(self) -> int:
        return self.s.now

    @property
    def over(self) -> bool:
        return self.s.phase == GAME_OVER

    @property
    def winner(self) -> int | None:
        return self.s.winner

    def next_deadline(self) -> int | None:
        return self.s.now if self._waiting else self.s.deadline

    def view(self, seat: int | None, plays: bool = True) -> JSON:
        """`plays=False`: without the turn's `plays` and `fives` (kittens/view.py `view`)."""
        return view(self.s, seat, plays)

    def views(self, seats: Iterable[int | None]) -> dict[int | None, JSON]:
        return views(self.s, seats)

    def actors(self) -> tuple[int, ...]:
        """Who has a move `apply` would accept now: the player whose turn it is, in a Nope
        window each seat that may answer and has not passed yet or holds a Nope, the defuser
        holding a Defuse, the chooser. (Anyone still in may change their always-pass setting:
        that is no move the game waits for, so it makes nobody an actor.)"""
        s = self.s
        phase = s.phase
        if phase == TURN:
            return (s.turn,)
        if phase == NOPE_WINDOW:
            hands, passed = s.hands, s.passed
            return tuple(p for p in may_nope(s) if not passed[p] or NOPE in hands[p])
        if phase == DEFUSING:
            return (s.turn,) if DEFUSE in s.hands[s.turn] else ()
        if phase == CHOOSING:
            return (s.chooser,)
        return ()

    def peek(self, seat: int) -> Callable[[str], Any]:
        return partial(view_field, self.s, seat)

    def summary(self) -> JSON:
        return self.s.summary()

    def snapshot(self) -> Any:
        return self.s.snapshot()

    def check(self, player: int, action: Action) -> Rejected | None:
        """Why `player` may not play `action` now, or None: the checks `apply` makes, changing
        nothing (masks of legal moves are built from it)."""
        s = self.s
        if s.phase == GAME_OVER:
            return no("game_over", "The game is over.")
        if not 0 <= player < s.players:
            return no("no_such_player", f"There is no player {player} at this table.")
        if not s.alive[player]:
            return no("exploded", "You exploded: you are out of this game.")
        kind = type(action)
        if kind is Nope:
            refusal = check_nope(s, player)
        elif kind is Pass:
            refusal = check_pass(s, player)
        elif kind is AlwaysPass:
            refusal = None
        elif s.phase == NOPE_WINDOW:
            return no("nope_window_open", "Only a Nope can be played while a Nope window is open.")
        elif kind is Play:
            assert isinstance(action, Play)
            refusal = check_play(s, player, action)
        elif kind is Draw:
            refusal = check_turn(s, player)
        elif kind is Defuse:
            assert isinstance(action, Defuse)
            refusal = check_defuse(s, player, action)
        else:
            refusal = check_choice(s, player, action)
        return refusal

    def apply(self, player: int, action: Action, at_ms: int) -> list[Event] | Rejected:
        refusal = self.check(player, action)
        if refusal is not None:
            return refusal
        s = self.s
        if at_ms > s.now:
            s.now = at_ms
        out, self._waiting = self._waiting, []
        self._out = out
        kind = type(action)
        if kind is Nope:
            self._nope(player)
        elif kind is Pass:
            self._pass(player, standing=False)
        elif kind is AlwaysPass:
            assert isinstance(action, AlwaysPass)
            self._always_pass(player, action.on)
        elif kind is Play:
            assert isinstance(action, Play)
            self._play(player, action)
        elif kind is Draw:
            self._draw(player, bottom=False, forced=False)
        elif kind is Defuse:
            assert isinstance(action, Defuse)
            self._defuse(player, action.position)
        elif kind is Give:
            assert isinstance(action, Give)
            self._give(action.card, timeout=False)
        elif kind is Reorder:
            assert isinstance(action, Reorder)
            self._reorder(action.order, timeout=False)
        else:
            assert isinstance(action, Insert)
            self._insert(action.position, timeout=False)
        if s.phase == TURN:
            s.deadline = s.now + s.options.turn_ms
        return out

    def advance(self, to_ms: int) -> list[Event]:
        s = self.s
        out, self._waiting = self._waiting, []
        self._out = out
        while s.deadline is not None and s.deadline <= to_ms:
            s.now = at = s.deadline
            mark = len(out)
            phase = s.phase
            if phase == NOPE_WINDOW:
                self._close_window()
            elif phase == TURN:
                s.stats["timeouts"] += 1
                self._draw(s.turn, bottom=False, forced=True)
            elif phase == DEFUSING:
                s.stats["timeouts"] += 1
                self._explode(s.turn)
            else:
                s.stats["timeouts"] += 1
                self._choice_timeout()
            for event in out[mark:]:
                event.data["at"] = at
            if s.phase == TURN:
                s.deadline = s.now + s.options.turn_ms
        if to_ms > s.now:
            s.now = to_ms
        return out

    # -- turns -----------------------------------------------------------------------------------

    def _next(self, player: int) -> int:
        s = self.s
        alive = s.alive
        step = s.direction
        n = s.players
        q = (player + step) % n
        while not alive[q]:
            q = (q + step) % n
        return q

    def _announce_turn(self) -> None:
        s = self.s
        self._out.append(
            public("turn", {"player": s.turn, "turns_left": s.turns_left, "direction": s.direction})
        )

    def _pass_turn(self, player: int, turns: int, attacked: bool) -> None:
        s = self.s
        s.turn = player
        s.turns_left = turns
        s.attacked = attacked
        s.phase = TURN
        s.stats["turns"] += 1
        self._announce_turn()

    def _end_turn(self, turns: int = 1) -> None:
        """One turn is over (a draw, a Defuse, Skip, Reverse), or `turns` of them."""
        s = self.s
        s.phase = TURN
        s.turns_left -= turns
        if s.turns_left <= 0:
            self._pass_turn(self._next(s.turn), 1, False)
        else:
            s.stats["turns"] += 1
            self._announce_turn()

    # -- actions ---------------------------------------------------------------------------------

    def _play(self, player: int, a: Play) -> None:
        s = self.s
        hand = s.hands[player]
        cards = a.cards
        for card in cards:
            hand.remove(card)
        s.discard.extend(cards)
        combo = classify(cards) if len(cards) > 1 else None
        s.stats["plays"] += 1
        if combo is not None:
            s.stats["combos"] += 1
        s.pending = Pending(player, cards, combo, a.target, a.name, a.take)
        s.nopes = 0
        s.last_actor = player
        s.phase = NOPE_WINDOW
        s.deadline = until = self._nope_until()
        self._out.append(
            public(
                "played",
                {
                    "player": player,
                    "cards": list(cards),
                    "combo": combo,
                    "target": a.target,
                    "name": a.name,
                    "take": a.take,
                    "until": until,
                },
            )
        )
        self._window_opened()

    def _nope_until(self) -> int:
        """When the Nope window opened or extended now closes: longer when one of those who may
        Nope has extra time (asked only then: most tables grant none)."""
        s = self.s
        options = s.options
        if not options.extra_time:
            return s.now + options.nope_window_ms
        return s.now + options.window_ms(options.nope_window_ms, may_nope(s))

    def _nope(self, player: int) -> None:
        s = self.s
        s.hands[player].remove(NOPE)
        s.discard.append(NOPE)
        s.nopes += 1
        s.stats["nopes"] += 1
        s.last_actor = player
        s.deadline = until = self._nope_until()
        self._out.append(public("noped", {"player": player, "nopes": s.nopes, "until": until}))
        self._window_opened()

    def _window_opened(self) -> None:
        """A card or Nope now waits for answers: nobody has passed on it yet, but those whose
        standing choice is to pass pass at once (their choice is public, not their hand)."""
        s = self.s
        passed = s.passed
        for p in range(s.players):
            passed[p] = False
        if any(s.always):
            for p in may_nope(s):
                if s.always[p] and s.phase == NOPE_WINDOW:
                    self._pass(p, standing=True)

    def _pass(self, player: int, standing: bool) -> None:
        """`player` lets the card or Nope go; the last pass of those who may answer closes the
        window at once (unless the table keeps full windows)."""
        s = self.s
        s.passed[player] = True
        self._out.append(public("passed", {"player": player, "standing": standing}))
        if s.options.nope_early_close and all(s.passed[p] for p in may_nope(s)):
            s.deadline = None
            self._close_window()

    def _always_pass(self, player: int, on: bool) -> None:
        s = self.s
        s.always[player] = on
        self._out.append(public("always_pass", {"player": player, "on": on}))
        if on and s.phase == NOPE_WINDOW and player in may_nope(s) and not s.passed[player]:
            self._pass(player, standing=True)

    def _draw(self, player: int, bottom: bool, forced: bool) -> None:
        s = self.s
        deck = s.deck
        out = self._out
        if not deck:
            out.append(public("empty_deck", {"player": player}))
            self._end_turn()
            return
        s.stats["draws"] += 1
        if bottom:
            card = deck.pop(0)
            memory.bottom_removed(s)
        else:
            card = deck.pop()
            memory.top_removed(s)
        s.hands[player].append(card)
        where = "bottom" if bottom else "top"
        if card == EXPLODING_KITTEN:
            out.append(public("drew", {"player": player, "from": where, "card": card, "forced": forced}))
            s.phase = DEFUSING
            if DEFUSE in s.hands[player]:
                s.deadline = until = s.now + s.options.window_ms(s.options.defuse_ms, (player,))
            else:
                # Nothing can be done: the kitten goes off soon (docs/rules/kittens.md#exploding).
                s.deadline = until = s.now + s.options.explode_ms
            out.append(public("defusing", {"player": player, "until": until}))
            return
        out.append(
            hidden("drew", {"player": player, "from": where, "forced": forced}, {"card": card}, player)
        )
        self._end_turn()

    def _defuse(self, player: int, position: int) -> None:
        s = self.s
        hand = s.hands[player]
        hand.remove(DEFUSE)
        hand.remove(EXPLODING_KITTEN)
        s.discard.append(DEFUSE)
        s.deck.insert(len(s.deck) - position, EXPLODING_KITTEN)
        memory.inserted(s, position, EXPLODING_KITTEN, player, kitten=True)
        s.stats["defuses"] += 1
        self._out.append(hidden("defused", {"player": player}, {"position": position}, player))
        self._end_turn()

    def _explode(self, player: int) -> None:
        s = self.s
        hand = s.hands[player]
        hand.remove(EXPLODING_KITTEN)
        s.out.append(EXPLODING_KITTEN)
        s.kittens -= 1
        discarded = list(hand)
        s.discard.extend(hand)
        hand.clear()
        s.alive[player] = False
        s.exploded.append(player)
        memory.dropped(s, player)
        s.stats["explosions"] += 1
        self._out.append(public("exploded", {"player": player, "discarded": discarded}))
        alive = [i for i, a in enumerate(s.alive) if a]
        if len(alive) == 1:
            s.winner = alive[0]
            s.phase = GAME_OVER
            s.deadline = None
            self._out.append(public("game_over", {"winner": s.winner}))
            return
        self._pass_turn(self._next(player), 1, False)

    # -- the Nope window and what a card does ---------------------------------------------------

    def _close_window(self) -> None:
        s = self.s
        pending = s.pending
        assert pending is not None
        player, cards, combo, target = pending.player, pending.cards, pending.combo, pending.target
        cancelled = s.nopes % 2 == 1
        s.pending = None
        s.phase = TURN
        out = self._out
        out.append(
            public(
                "window_closed",
                {"player": player, "cards": list(cards), "nopes": s.nopes, "cancelled": cancelled},
            )
        )
        if not cancelled:
            self._resolve(pending)
            return
        s.stats["cancelled"] += 1
        record = CARD[cards[0]]
        if combo is None and record.effect is Effect.ATTACK:
            victim = target if target is not None else self._next(player)
            if s.last_actor == victim:
                # 003, on Nope: the attacker plays the turns the target avoided, in place of the
                # turn they were playing (docs/rules/kittens.md#a-noped-attack).
                turns = self._attack_turns(record.n)
                s.turns_left = turns
                s.attacked = True
                out.append(public("turns_returned", {"player": player, "target": victim, "turns": turns}))
                self._announce_turn()

    def _attack_turns(self, n: int) -> int:
        """The turns an attack played now gives its target: the new ones, plus those the attacker
        still owes when under attack themself (docs/rules/kittens.md#attack-stacking)."""
        s = self.s
        return (s.turns_left if s.attacked else 0) + n

    def _resolve(self, pending: Pending) -> None:
        player, cards, combo, target = pending.player, pending.cards, pending.combo, pending.target
        name, take = pending.name, pending.take
        s = self.s
        out = self._out
        if combo is not None:
            assert target is not None or combo == FIVE
            if combo == PAIR:
                assert target is not None
                self._ask_give(player, target)
            elif combo == TRIPLE:
                assert target is not None and name is not None
                victim_hand = s.hands[target]
                given = name in victim_hand
                if given:
                    victim_hand.remove(name)
                    s.hands[player].append(name)
                out.append(
                    public("asked", {"player": player, "target": target, "name": name, "given": given})
                )
            else:
                assert take is not None
                discard = s.discard
                # The topmost copy: the pile is public, so which copy does not matter.
                index = len(discard) - 1 - discard[::-1].index(take)
                del discard[index]
                s.hands[player].append(take)
                out.append(public("took", {"player": player, "card": take}))
            return
        # What the card does, as its record says (cards.py): the effect and its number.
        record = CARD[cards[0]]
        effect = record.effect
        n = record.n
        deck = s.deck
        if effect is Effect.ATTACK:
            victim = target if target is not None else self._next(player)
            turns = self._attack_turns(n)
            out.append(public("attacked", {"player": player, "target": victim, "turns": turns}))
            self._pass_turn(victim, turns, True)
        elif effect is Effect.END_TURNS:
            if n == ALL_TURNS:
                self._pass_turn(self._next(player), 1, False)
            else:
                self._end_turn(n)
        elif effect is Effect.REVERSE:
            s.direction = -s.direction
            self._end_turn()
        elif effect is Effect.MORE_TURNS:
            s.turns_left += n
            s.attacked = True
            self._announce_turn()
        elif effect is Effect.FAVOR:
            assert target is not None
            self._ask_give(player, target)
        elif effect is Effect.SHUFFLE:
            s.rng.shuffle(deck)
            memory.forget_all(s)
            out.append(public("shuffled", {"player": player}))
        elif effect is Effect.DRAW_BOTTOM:
            self._draw(player, bottom=True, forced=False)
        elif effect is Effect.SWAP_TOP_BOTTOM:
            if len(deck) > 1:
                deck[0], deck[-1] = deck[-1], deck[0]
            memory.swapped(s)
            out.append(public("swapped", {"player": player}))
        elif effect is Effect.LOOK or effect is Effect.REORDER:
            seen = deck[: -n - 1 : -1]
            memory.seen(s, player, seen)
            out.append(hidden("future", {"player": player, "count": len(seen)}, {"cards": seen}, player))
            if effect is Effect.REORDER and seen:
                self._choose(REORDER, player, player, seen)
        else:
            assert effect is Effect.SNEAK_DRAW, effect
            if not deck:
                out.append(public("empty_deck", {"player": player}))
                return
            drawn = deck.pop()
            memory.top_removed(s)
            s.hands[player].append(drawn)
            out.append(hidden("sneaked", {"player": player}, {"card": drawn}, player))
            self._choose(INSERT, player, player, [drawn])

    # -- choices ---------------------------------------------------------------------------------

    def _choose(self, kind: str, chooser: int, receiver: int, cards: list[str]) -> None:
        s = self.s
        s.phase = CHOOSING
        s.choice_kind = kind
        s.chooser = chooser
        s.receiver = receiver
        s.choice_cards = cards
        s.deadline = until = s.now + s.options.window_ms(s.options.choose_ms, (chooser,))
        data: JSON = {
            "player": chooser,
            "kind": kind,
            "for": receiver if kind == GIVE else None,
            "until": until,
        }
        if kind == GIVE:
            self._out.append(public("choosing", data))
        elif kind == REORDER:
            self._out.append(hidden("choosing", data, {"cards": list(cards)}, chooser))
        else:
            self._out.append(hidden("choosing", data, {"card": cards[0]}, chooser))

    def _ask_give(self, player: int, victim: int) -> None:
        if not self.s.hands[victim]:
            self._out.append(
                public("given", {"player": victim, "to": player, "empty": True, "timeout": False})
            )
            return
        self._choose(GIVE, victim, player, [])

    def _done_choosing(self) -> None:
        s = self.s
        s.phase = TURN
        s.choice_kind = ""
        s.chooser = s.receiver = -1
        s.choice_cards = []

    def _give(self, card: str, timeout: bool) -> None:
        s = self.s
        giver, receiver = s.chooser, s.receiver
        s.hands[giver].remove(card)
        s.hands[receiver].append(card)
        self._done_choosing()
        self._out.append(
            hidden(
                "given",
                {"player": giver, "to": receiver, "empty": False, "timeout": timeout},
                {"card": card},
                giver,
                receiver,
            )
        )

    def _reorder(self, order: tuple[int, ...], timeout: bool) -> None:
        s = self.s
        player = s.chooser
        seen = s.choice_cards
        cards = [seen[i] for i in order]
        deck = s.deck
        for j, card in enumerate(cards):
            deck[-1 - j] = card
        memory.reordered(s, player, cards)
        self._done_choosing()
        self._out.append(
            hidden(
                "reordered",
                {"player": player, "count": len(cards), "timeout": timeout},
                {"cards": cards},
                player,
            )
        )

    def _insert(self, position: int, timeout: bool) -> None:
        s = self.s
        player = s.chooser
        card = s.choice_cards[0]
        s.hands[player].remove(card)
        s.deck.insert(len(s.deck) - position, card)
        memory.inserted(s, position, card, player, kitten=card == EXPLODING_KITTEN)
        self._done_choosing()
        self._out.append(
            hidden(
                "inserted",
                {"player": player, "timeout": timeout},
                {"card": card, "position": position},
                player,
            )
        )

    def _choice_timeout(self) -> None:
        s = self.s
        kind = s.choice_kind
        if kind == GIVE:
            hand = s.hands[s.chooser]
            self._give(hand[s.rng.randrange(len(hand))], timeout=True)
        elif kind == REORDER:
            self._reorder(tuple(range(len(s.choice_cards))), timeout=True)
        else:
            self._insert(0, timeout=True)
