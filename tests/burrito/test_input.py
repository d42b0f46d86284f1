"""Bad input: wrong deals and actions are refused with a clear message, and change nothing."""

from __future__ import annotations

from typing import Any

import pytest

from cardroom.games.burrito import GAME, Call, Catch, Discard, Dodge, Draw, Grab, Set, Throw
from cardroom.protocol import InvalidAction, InvalidSetup, Rejected

from .helpers import table

EMPTY3: dict[str, Any] = {"hands": [[], [], []], "piles": [[], [], []], "community": [[], []]}


@pytest.mark.parametrize(
    ("deal", "says"),
    [
        ({**EMPTY3, "hands": [["pizza_cat"], [], []]}, "unknown card 'pizza_cat' in hands"),
        ({**EMPTY3, "hands": [["war"] * 6, [], []]}, "player 0 holds 6 cards: a hand holds at most 5"),
        ({**EMPTY3, "piles": [["war"] * 10, [], []]}, "10 copies of war: the deck holds 9"),
        ({**EMPTY3, "hands": [[], []]}, "'hands' must be a list of 3 card lists"),
        ({**EMPTY3, "piles": "war"}, "'piles' must be a list of 3 card lists"),
        ({**EMPTY3, "community": [[]]}, "'community' must be a list of 2 card lists"),
        ({**EMPTY3, "badge": 3}, "badge holder 3 is not a seat"),
        ({**EMPTY3, "round": 3}, "round must be 1 or 2"),
        ({**EMPTY3, "bruises": [1, 1]}, "'bruises' must be a list of 3 numbers"),
        ({**EMPTY3, "bruises": [3, 3, 0]}, "the round would already be over"),
        ({**EMPTY3, "bruises": [-1, 0, 0]}, "bruises\\[0\\] must be a whole number"),
        ({**EMPTY3, "score_piles": [["war", "war"], [], []]}, "a score pile holds whole sets"),
        ({**EMPTY3, "burritos": 3}, "unknown deal field 'burritos'"),
        ({**EMPTY3, "hands": [[1], [], []]}, "unknown card 1"),
    ],
)
def test_a_deal_that_breaks_a_rule_is_refused_with_a_clear_message(deal: dict[str, Any], says: str) -> None:
    """SCENARIOS.md: a deal that breaks a rule (unknown card, six cards in a hand...) is invalid."""
    with pytest.raises(InvalidSetup, match=says):
        GAME.from_deal(3, {}, deal, seed=1)


def test_what_a_deal_leaves_out_is_empty() -> None:
    """docs/scenarios.md: `"deal": {}` (the example of SCENARIOS.md) is a table with no cards."""
    final = GAME.from_deal(3, {"variants": ["small_room"], "flight_ms": 800}, {}, seed=7).summary()
    assert final["hands"] == [[], [], []] and final["piles"] == [[], [], []]
    assert final["community"] == [[], []] and final["phase"] == "play"


def test_a_deal_of_two_decks_may_hold_twice_the_copies() -> None:
    """000 (2 MAZZI): two decks shuffled together hold every card twice."""
    deal = {**EMPTY3, "piles": [["war"] * 10, [], []]}
    t = GAME.from_deal(3, {"variants": ["two_decks"]}, deal, seed=1)
    assert len(t.piles[0]) == 10


@pytest.mark.parametrize(
    ("raw", "says"),
    [
        ({"do": "juggle"}, "unknown action 'juggle'"),
        ({}, "unknown action None"),
        ({"do": "discard"}, "discard needs the field 'card'"),
        ({"do": "discard", "card": "pizza_cat"}, "unknown card 'pizza_cat'"),
        ({"do": "grab", "target": 1}, "grab takes no field 'target'"),
        ({"do": "throw", "target": 3}, "target 3 is not a seat"),
        ({"do": "throw", "target": True}, "target True is not a seat"),
        ({"do": "draw", "from": "deck"}, "draw from 'deck'"),
        ({"do": "draw", "from": "community", "pile": 2}, "community pile 2 does not exist"),
        ({"do": "draw", "pile": 0}, "a pile number goes with a draw from 'community'"),
        ({"do": "call", "fight": "tickle"}, "unknown fight 'tickle'"),
        ({"do": "call", "fight": "duel"}, "a duel names exactly two players"),
        ({"do": "call", "fight": "duel", "targets": [1, 1]}, "two different players"),
        ({"do": "call", "fight": "duel", "targets": [0, 5]}, "duel target 5 is not a seat"),
        ({"do": "call", "fight": "war", "targets": [0, 1]}, "a war takes no targets"),
        ({"do": "call", "fight": "war", "card": "duel"}, "duel does not call a war"),
        ({"do": "call", "fight": "brawl", "card": "goth_sloth"}, "goth_sloth does not call a brawl"),
        ("draw", "an action must be an object"),
    ],
)
def test_a_malformed_action_is_invalid(raw: Any, says: str) -> None:
    """SCENARIOS.md: an unknown action, card or field, or a player who does not exist, is invalid."""
    with pytest.raises(InvalidAction, match=says):
        GAME.parse_action(raw, 3)


def test_an_action_by_a_seat_that_does_not_exist_is_invalid() -> None:
    """SCENARIOS.md: a player who does not exist makes the input invalid."""
    t = table(3)
    before = t.snapshot()
    with pytest.raises(InvalidAction, match="player 3 is not a seat"):
        t.apply(3, Draw(), 0)
    assert t.snapshot() == before


@pytest.mark.parametrize(
    "action",
    [
        Draw(),
        Draw("community", 1),
        Discard("goth_sloth"),
        Set("goth_sloth"),
        Call("brawl"),
        Call("brawl", "brawl_b"),
        Call("war", "war"),
        Call("duel", "duel", (0, 2)),
        Grab(),
        Throw(2),
        Dodge(),
        Catch(),
    ],
)
def test_every_action_survives_its_json_form(action: Any) -> None:
    """SCENARIOS.md: actions have one JSON form, read back as the same action."""
    assert GAME.parse_action(GAME.action_json(action), 3) == action


def test_a_refused_action_changes_nothing() -> None:
    """SCENARIOS.md: a refused action changes nothing."""
    t = table(3, hands=[["goth_sloth"] * 5, [], []], piles=[["war"], [], []])
    before = t.snapshot()
    for raw in (
        {"do": "draw"},
        {"do": "set", "card": "war"},
        {"do": "discard", "card": "war"},
        {"do": "grab"},
        {"do": "throw", "target": 1},
        {"do": "dodge"},
        {"do": "catch"},
    ):
        result = t.apply(0, GAME.parse_action(raw, 3), 0)
        assert isinstance(result, Rejected) and result.code and result.reason
        assert t.snapshot() == before


def test_a_rejection_has_a_stable_code_and_an_english_reason() -> None:
    """docs/rules/burrito.md#refusals: refusals carry a snake_case code and a reason for people."""
    t = table(3, hands=[["goth_sloth"] * 5, [], []])
    result = t.apply(0, Draw(), 0)
    assert isinstance(result, Rejected)
    assert result.to_json() == {"code": "hand_full", "reason": "you hold 5 cards: discard before you draw"}
