"""Random legal play at random times never breaks the table's invariants (hypothesis)."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from cardroom.games.burrito import GAME, BurritoTable, legal_actions
from cardroom.games.burrito.actions import Action, Discard, Draw
from cardroom.games.burrito.cards import CARD_SET, DECK_SIZE, is_battle
from cardroom.protocol import Event, Rejected

_CARD_KEYS = frozenset({"card", "cards", "hand", "hands", "piles", "community", "deck"})


def _cards_in(value: Any) -> list[str]:
    """Card names anywhere under a key that could hold cards (fight kinds share names with cards)."""
    if isinstance(value, dict):
        found: list[str] = []
        for key, inner in value.items():
            if key in _CARD_KEYS:
                found += _names(inner)
            else:
                found += _cards_in(inner)
        return found
    if isinstance(value, list | tuple):
        return [c for v in value for c in _cards_in(v)]
    return []


def _names(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value] if value in CARD_SET else []
    if isinstance(value, list | tuple):
        return [c for v in value for c in _names(v)]
    return ["?"] if value is not None else []


class RandomPlay(RuleBasedStateMachine):
    """DIGITAL.md and 000: card count, hand limit, bruises, scores and hidden cards hold at every step."""

    table: BurritoTable

    @initialize(
        players=st.integers(2, 6),
        two_decks=st.booleans(),
        small_room=st.booleans(),
        seed=st.integers(0, 2**32),
    )
    def start(self, players: int, two_decks: bool, small_room: bool, seed: int) -> None:
        if two_decks:
            players = players * 2
        variants = [v for v, on in (("two_decks", two_decks), ("small_room", small_room)) if on]
        # Short durations so that random play reaches fights, round ends and the game's end.
        self.options: dict[str, Any] = {
            "variants": variants,
            "countdown_ms": 300,
            "between_rounds_ms": 500,
            "fight_timeout_ms": 4000,
        }
        self.seed = seed
        self.players = players
        self.total = DECK_SIZE * (2 if two_decks else 1)
        self.table = GAME.new_table(players, self.options, seed)
        self.moves: list[tuple[int, int, Action]] = []
        self.now = 0
        self.round = 1
        self.bruising_fights = 0
        self.events: list[Event] = []
        self._hear(self.table.advance(0))

    def _hear(self, events: list[Event]) -> None:
        for e in events:
            if e.kind == "round_start":
                self.bruising_fights = 0
            if e.kind == "fight_over" and e.data["bruise"]:
                self.bruising_fights += 1
            for seat in range(self.players):
                seen = e.for_seat(seat)
                if seen is None or e.kind in ("set", "call"):
                    continue
                if seat not in e.knowers:
                    assert not _cards_in(seen), (seat, seen)

    @rule(wait=st.integers(0, 900), seat=st.integers(0, 11), pick=st.integers(0, 10_000), slip=st.booleans())
    def act(self, wait: int, seat: int, pick: int, slip: bool) -> None:
        """One legal action (a mistake now and then) after `wait` ms."""
        t = self.table
        seat %= self.players
        self.now += wait
        self._hear(t.advance(self.now))
        actions = legal_actions(t, seat, mistakes=slip and pick % 20 == 0)
        if not actions:
            return
        self._play(seat, actions[pick % len(actions)])

    @rule(seed=st.integers(0, 2**32), steps=st.integers(1, 400))
    def burst(self, seed: int, steps: int) -> None:
        """Many actions at once, keen on sets, calls and fights, so that rounds and games end."""
        rng = random.Random(seed)
        t = self.table
        for _ in range(steps):
            self.now += rng.choice((0, 1, 20, 50, 150, 400)) if t.fight is not None else rng.randint(0, 600)
            self._hear(t.advance(self.now))
            seat = rng.randrange(self.players)
            actions = legal_actions(t, seat, mistakes=rng.random() < 0.01)
            if not actions:
                continue
            keen: list[Action] = [a for a in actions if not isinstance(a, Draw | Discard)]
            if keen and rng.random() < 0.7:
                actions = keen
            elif rng.random() < 0.8:
                actions = self._collector(seat, actions)
            self._play(seat, rng.choice(actions))
            self.check_all()

    def _collector(self, seat: int, actions: list[Action]) -> list[Action]:
        """Play like someone collecting sets: draw up to five, pass on the loneliest card."""
        hand = self.table.hands[seat]
        draws: list[Action] = [a for a in actions if isinstance(a, Draw)]
        if draws and len(hand) < 5:
            return draws
        discards = [a for a in actions if isinstance(a, Discard)]
        if not discards:
            return actions
        fewest = min(hand.count(a.card) for a in discards)
        return [a for a in discards if hand.count(a.card) == fewest] or actions

    def _play(self, seat: int, action: Action) -> None:
        result = self.table.apply(seat, action, self.now)
        assert not isinstance(result, Rejected), (action, result)
        self.moves.append((self.now, seat, action))
        self._hear(result)

    @rule(seat=st.integers(0, 11), raw=st.sampled_from([{"do": "draw"}, {"do": "grab"}, {"do": "dodge"}]))
    def anything(self, seat: int, raw: dict[str, Any]) -> None:
        """Any action at all: accepted, or refused with nothing changed."""
        t = self.table
        seat %= self.players
        self._hear(t.advance(self.now))
        before = t.snapshot()
        result = t.apply(seat, GAME.parse_action(raw, self.players), self.now)
        if isinstance(result, Rejected):
            assert t.snapshot() == before
        else:
            self.moves.append((self.now, seat, GAME.parse_action(raw, self.players)))
            self._hear(result)

    @invariant()
    def check_all(self) -> None:
        self.cards_are_never_lost_or_made()
        self.no_hand_holds_more_than_five()
        self.bruises_given_and_left_make_the_total()
        self.scores_are_sets_battle_sets_and_bruises()
        self.burritos_are_never_lost_or_made()
        self.no_view_shows_a_hidden_card()

    def cards_are_never_lost_or_made(self) -> None:
        t = self.table
        groups = (t.hands, t.piles, t.community, t.score_piles)
        assert sum(len(cards) for group in groups for cards in group) == self.total

    def no_hand_holds_more_than_five(self) -> None:
        assert all(len(h) <= 5 for h in self.table.hands)

    def bruises_given_and_left_make_the_total(self) -> None:
        t = self.table
        assert sum(t.bruises) + t.bruises_left == t.opts.bruises
        assert sum(t.bruises) == self.bruising_fights

    def scores_are_sets_battle_sets_and_bruises(self) -> None:
        t = self.table
        for p in range(self.players):
            pile = t.score_piles[p]
            battle = sum(1 for c in pile if is_battle(c)) // 3
            normal = sum(1 for c in pile if not is_battle(c)) // 3
            assert t.scores()[p] == normal + 2 * battle - t.bruises[p]

    def burritos_are_never_lost_or_made(self) -> None:
        f = self.table.fight
        if f is not None:
            flying = sum(1 for fl in f.flights if fl.left)
            assert sum(f.holding) + f.free + flying == self.table.opts.burritos
            assert all(h >= 0 for h in f.holding) and f.free >= 0

    def no_view_shows_a_hidden_card(self) -> None:
        t = self.table
        for seat in (*range(self.players), None):
            view = t.view(seat)
            public = {k: v for k, v in view.items() if k not in ("hand", "score_piles")}
            assert not _cards_in(public)
            if seat is not None:
                assert view["hand"] == t.hands[seat]

    def teardown(self) -> None:
        if not hasattr(self, "table"):
            return
        t = self.table
        event(f"phase {t.phase}, round {t.round}")
        event(f"fights {min(sum(t.fight_counts.values()), 3)}+, mistakes {min(t.mistakes, 1)}+")
        again = GAME.new_table(self.players, self.options, self.seed)
        for at, seat, action in self.moves:
            again.advance(at)
            again.apply(seat, action, at)
        again.advance(self.now)
        self.table.advance(self.now)
        assert again.snapshot() == self.table.snapshot()


RandomPlay.TestCase.settings = settings(
    max_examples=50,
    stateful_step_count=50,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
test_random_play = RandomPlay.TestCase
