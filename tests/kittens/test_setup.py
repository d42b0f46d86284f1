"""Setup, the deck table, options and deals (003 "Distribuzione"; docs/rules/kittens.md#the-deck)."""

from __future__ import annotations

from typing import Any

import pytest

from cardroom.games.kittens import GAME
from cardroom.games.kittens.cards import ACTIONS, CARDS, CATS, deck_counts
from cardroom.protocol import InvalidSetup, Rejected

from .helpers import table

EK = "exploding_kitten"


@pytest.mark.parametrize("players", range(2, 11))
def test_each_player_gets_a_defuse_and_seven_cards(players: int) -> None:
    """003 "Distribuzione": each player receives a Defuse and 7 random cards."""
    final = GAME.new_table(players, {}, seed=players).summary()
    for hand in final["hands"]:
        assert len(hand) == 8 and "defuse" in hand and EK not in hand


@pytest.mark.parametrize("players", range(2, 11))
def test_exploding_kittens_are_players_minus_one(players: int) -> None:
    """003 "Distribuzione": as many Exploding Kittens as players minus one, all in the deck."""
    final = GAME.new_table(players, {}, seed=7).summary()
    assert final["deck"].count(EK) == players - 1
    counts = deck_counts(players)
    everything = [c for h in final["hands"] for c in h] + final["deck"]
    assert {card: everything.count(card) for card in counts} == counts
    assert counts["defuse"] > players, "spare Defuses lie in the deck"


def test_the_deck_table_has_every_card_of_003_at_every_count() -> None:
    """docs/rules/kittens.md#the-deck: every card of 003 is in every game, the base game as model."""
    for players in range(2, 11):
        counts = deck_counts(players)
        assert set(counts) == set(CARDS) and all(counts[c] >= 1 for c in CARDS)
    four = deck_counts(4)
    assert all(four[c] >= 3 for c in CATS) and four["nope"] == 5 and four["see_the_future"] >= 4
    assert set(ACTIONS) >= RULEBOOK_ACTIONS  # a card of our own (a branch's Peek) adds to these


RULEBOOK_ACTIONS = {
    "attack",
    "targeted_attack",
    "personal_attack",
    "triple_attack",
    "skip",
    "super_skip",
    "reverse",
    "favor",
    "shuffle",
    "draw_from_the_bottom",
    "swap_top_and_bottom",
    "see_the_future",
    "super_see_the_future",
    "alter_the_future",
    "super_alter_the_future",
    "sneak_draw",
}
"""The 16 action cards of 003 (rules/CARDS.md), named: each is in every game."""


def test_the_deal_is_deterministic_from_the_seed() -> None:
    """A game is its seed: the same seed deals the same table."""
    assert GAME.new_table(4, {}, 11).snapshot() == GAME.new_table(4, {}, 11).snapshot()
    assert GAME.new_table(4, {}, 11).snapshot() != GAME.new_table(4, {}, 12).snapshot()


def test_player_count_is_two_to_ten() -> None:
    """DIGITAL.md: one deck table for each player count from 2 to 10."""
    for players in (1, 11):
        with pytest.raises(InvalidSetup):
            GAME.new_table(players, {}, 1)


def test_options_default_and_unknown() -> None:
    """DIGITAL.md: every duration is a table option with its default."""
    from cardroom.games.kittens.options import Options

    assert Options.parse({}).to_json() == {
        "nope_window_ms": 3000,
        "nope_early_close": True,
        "defuse_ms": 10000,
        "explode_ms": 2500,
        "turn_ms": 60000,
        "choose_ms": 15000,
        "bot_think_ms": 1500,
        "expert_think_ms": 200,
        "seat_grace_ms": 30000,
        "extra_time": [],
        "timing": "standard",
    }
    assert Options.parse({"nope_window_ms": 1500}).nope_window_ms == 1500
    for bad in ({"flight_ms": 800}, {"turn_ms": -1}, {"turn_ms": "x"}, {"variants": ["small_room"]}):
        with pytest.raises(InvalidSetup):
            GAME.new_table(2, bad, 1)


@pytest.mark.parametrize(
    ("deal", "message"),
    [
        ({"hands": [[], []], "deck": ["kitty"]}, "unknown card 'kitty'"),
        ({"hands": [[]]}, "'hands' must be a list of 2 hands"),
        ({"hands": [[], []], "extra": 1}, "unknown field 'extra'"),
        ({"hands": [["exploding_kitten"], []]}, "holds an Exploding Kitten"),
        ({"hands": [[], []], "deck": [EK, EK]}, "at most players - 1"),
        ({"hands": [[], []], "turn": 2}, "'turn' must be a player"),
        ({"hands": [[], []], "turns_left": 0}, "'turns_left' must be at least 1"),
        ({"hands": [[], []], "direction": 2}, "'direction' must be 1 or -1"),
        ({"hands": [[], []], "alive": [True, False]}, "at least two players"),
        ({"hands": [[], []], "alive": [True]}, "'alive' must be a list"),
        ({"hands": [[], []], "discard": "skip"}, "must be a list of cards"),
        ({"hands": [[], []], "discard": [EK]}, "cannot lie in the discard"),
    ],
)
def test_a_malformed_deal_is_invalid_setup(deal: dict[str, Any], message: str) -> None:
    """SCENARIOS.md: a deal that breaks a rule or has a bad shape is refused with one line."""
    with pytest.raises(InvalidSetup, match=message) as info:
        GAME.from_deal(2, {}, deal, 1)
    assert "\n" not in str(info.value)


def test_a_deal_is_exactly_the_table() -> None:
    """SCENARIOS.md: with a deal nothing is shuffled; deck and discard are top first."""
    t = table(
        [["skip"], ["nope"], []], ["favor", EK], ["shuffle", "attack"], turn=1, turns_left=2, direction=-1
    )
    assert t.summary() == {
        "phase": "turn",
        "turn": 1,
        "turns_left": 2,
        "direction": -1,
        "alive": [True, True, True],
        "hands": [["skip"], ["nope"], []],
        "deck": ["favor", EK],
        "discard": ["shuffle", "attack"],
        "winner": None,
        "out": [],
    }


def test_stats_count_what_happened() -> None:
    """`stats` counts what a finished table did, for simulations."""
    t = table([[], []], [EK, "skip"])
    t.advance(60000)
    t.advance(80000)
    stats = GAME.stats(t)
    assert stats["explosions"] == 1 and stats["draws"] == 1 and t.over


def test_a_fresh_deal_is_told_first_sizes_to_all_each_hand_to_its_owner_then_the_first_turn() -> None:
    """003 "Distribuzione", as events: `deal` (public), each seat's `hand` (only to that seat),
    then the first `turn`; they are due at once, with the first advance."""
    t = GAME.new_table(3, {}, seed=4)
    assert t.next_deadline() == 0
    events = t.advance(0)
    assert [e.kind for e in events] == ["deal", "hand", "hand", "hand", "turn"]
    deal, hands, turn = events[0], events[1:4], events[4]
    s = t.s
    assert deal.for_seat(None) == {
        "event": "deal",
        "hand_sizes": [8, 8, 8],
        "deck_size": len(s.deck),
        "kittens": 2,
    }
    for p, hand in enumerate(hands):
        assert hand.for_seat(p) == {"event": "hand", "player": p, "cards": s.hands[p]}
        assert all(hand.for_seat(q) is None for q in (None, *range(3)) if q != p)
    assert turn.full() == {"event": "turn", "player": 0, "turns_left": 1, "direction": 1}
    assert t.advance(0) == [] and t.next_deadline() == s.options.turn_ms


def test_the_deal_comes_before_the_first_action_when_no_timer_ran() -> None:
    """The first accepted action carries the deal ahead of its own events; a refusal keeps it."""
    t = GAME.new_table(2, {}, seed=9)
    assert isinstance(t.apply(1, GAME.parse_action({"do": "draw"}, 2), 10), Rejected)
    events = t.apply(0, GAME.parse_action({"do": "draw"}, 2), 20)
    assert not isinstance(events, Rejected)
    assert [e.kind for e in events][:4] == ["deal", "hand", "hand", "turn"]
    assert events[4].kind in ("drew", "empty_deck")


def test_a_table_from_a_scenario_deal_starts_in_silence() -> None:
    """rules/SCENARIOS.md: a deal is a table in the middle of things; nothing is announced."""
    t = table([["skip"], ["nope"]], ["favor", EK])
    assert t.advance(0) == [] and t.next_deadline() == t.s.options.turn_ms
