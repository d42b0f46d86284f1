"""Random legal play keeps the game's invariants (hypothesis state machine).

Cards are conserved; exactly players - 1 Exploding Kittens exist until they explode; the player
to move owes at least one turn; a finished game has one winner; no view or event shows a seat
a card it may not know; what a seat "knows" of the deck is true; replaying the seed and the
actions gives the same state; a refused action changes nothing.
"""

from __future__ import annotations

from collections import Counter
from itertools import permutations
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from cardroom.games.kittens import GAME, KittensTable
from cardroom.games.kittens.cards import ACTION_SET, CARDS, TARGETED
from cardroom.games.kittens.combos import classify
from cardroom.protocol import Event, Rejected
from cardroom.protocol.record import Move, Record, replay

EK = "exploding_kitten"


def candidates(t: KittensTable) -> list[tuple[int, dict[str, Any]]]:
    """Actions worth trying now: mostly legal ones, a few that must be refused."""
    s = t.s
    out: list[tuple[int, dict[str, Any]]] = []
    p = s.turn
    others = [i for i in range(s.players) if s.alive[i] and i != p]
    if s.phase == "turn":
        hand = s.hands[p]
        out.append((p, {"do": "draw"}))
        for card in sorted(set(hand)):
            if card in ACTION_SET:
                if card in TARGETED:
                    out.extend((p, {"do": "play", "cards": [card], "target": o}) for o in others)
                else:
                    out.append((p, {"do": "play", "cards": [card]}))
            if hand.count(card) >= 2:
                out.append((p, {"do": "play", "cards": [card, card], "target": others[0]}))
            if hand.count(card) >= 3:
                out.append((p, {"do": "play", "cards": [card] * 3, "target": others[-1], "name": "defuse"}))
        kinds = sorted(set(hand))
        if len(kinds) >= 5 and s.discard and classify(tuple(kinds[:5])):
            out.append((p, {"do": "play", "cards": kinds[:5], "take": s.discard[-1]}))
        out.append((others[0], {"do": "draw"}))
    elif s.phase == "nope_window":
        out.extend((i, {"do": "nope"}) for i in range(s.players) if s.alive[i] and "nope" in s.hands[i])
        out.append((p, {"do": "draw"}))
    elif s.phase == "defusing":
        out.extend((p, {"do": "defuse", "position": k}) for k in {0, len(s.deck) // 2, len(s.deck)})
    elif s.phase == "choosing":
        c = s.chooser
        if s.choice_kind == "give":
            out.extend((c, {"do": "give", "card": card}) for card in sorted(set(s.hands[c])))
        elif s.choice_kind == "reorder":
            n = len(s.choice_cards)
            out.extend((c, {"do": "reorder", "order": list(o)}) for o in list(permutations(range(n)))[:4])
        else:
            out.extend((c, {"do": "insert", "position": k}) for k in {0, 1, len(s.deck)} if k <= len(s.deck))
    return out


class RandomPlay(RuleBasedStateMachine):
    table: KittensTable
    record: Record
    cards: Counter[str]
    events: list[Event]

    @initialize(players=st.integers(2, 6), seed=st.integers(0, 10_000))
    def start(self, players: int, seed: int) -> None:
        self.table = GAME.new_table(players, {}, seed)
        self.record = Record("kittens", players, {}, seed)
        s = self.table.s
        self.cards = Counter(s.deck) + sum((Counter(h) for h in s.hands), Counter())
        self.events = []

    @rule(data=st.data(), pause=st.sampled_from([0, 200, 2999, 3000, 10_000, 60_000]))
    def act(self, data: st.DataObject, pause: int) -> None:
        t = self.table
        if t.over:
            return
        at = t.now + pause
        self.events.extend(t.advance(at))
        if t.over:
            return
        options = candidates(t)
        if not options:
            return
        player, raw = data.draw(st.sampled_from(options))
        before = t.snapshot()
        result = t.apply(player, GAME.parse_action(raw, t.players), at)
        self.record.moves.append(Move(at, player, raw))
        if isinstance(result, Rejected):
            assert t.snapshot() == before, raw
        else:
            self.events.extend(result)

    @invariant()
    def cards_are_conserved(self) -> None:
        s = self.table.s
        now = (
            Counter(s.deck)
            + Counter(s.discard)
            + Counter(s.out)
            + sum((Counter(h) for h in s.hands), Counter())
        )
        assert now == self.cards
        assert set(now) <= set(CARDS)

    @invariant()
    def kittens_are_players_minus_one_minus_explosions(self) -> None:
        s = self.table.s
        live = s.deck.count(EK) + sum(h.count(EK) for h in s.hands)
        assert live == s.players - 1 - len(s.out)
        assert len(s.out) == s.alive.count(False)

    @invariant()
    def the_player_to_move_owes_a_turn(self) -> None:
        s = self.table.s
        if s.phase == "game_over":
            assert s.alive.count(True) == 1 and s.winner == s.alive.index(True)
        else:
            assert s.turns_left >= 1 and s.alive[s.turn] and s.winner is None
            assert s.deadline is not None and s.deadline >= s.now

    @invariant()
    def no_view_shows_a_hidden_card(self) -> None:
        t = self.table
        s = t.s
        top_first = s.deck[::-1]
        for seat in range(s.players):
            v = t.view(seat)
            assert v["hand"] == s.hands[seat] and "deck" not in v
            assert v["kittens_left"] == s.deck.count(EK) + sum(h.count(EK) for h in s.hands)
            assert v["future"] == top_first[: len(v["future"])], "a seat only knows what is true"
            if v["kitten_at"] is not None:
                assert top_first[v["kitten_at"]] == EK
            choosing = v["choosing"]
            if choosing and choosing["player"] != seat:
                assert "cards" not in choosing
        for event in self.events:
            if event.secret:
                assert not set(event.secret) & set(event.data)
                for seat in range(s.players):
                    heard = event.for_seat(seat)
                    if seat not in event.knowers:
                        assert heard is None or not set(event.secret) & set(heard)
        self.events.clear()

    def teardown(self) -> None:
        if not hasattr(self, "table"):
            return
        again = replay(GAME, self.record, until=self.table.now)
        assert again.snapshot() == self.table.snapshot()


RandomPlay.TestCase.settings = settings(
    max_examples=40, stateful_step_count=150, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
test_random_play = RandomPlay.TestCase
