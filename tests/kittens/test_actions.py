"""Actions and their JSON form (SCENARIOS.md "Actions"): shape errors raise, never Rejected."""

from __future__ import annotations

from typing import Any

import pytest

from cardroom.games.kittens import GAME
from cardroom.protocol import InvalidAction

GOOD = [
    {"do": "play", "cards": ["skip"]},
    {"do": "play", "cards": ["favor"], "target": 1},
    {"do": "play", "cards": ["red_cat"] * 3, "target": 2, "name": "defuse"},
    {"do": "play", "cards": ["red_cat", "black_cat", "grey_cat", "white_cat", "tabby_cat"], "take": "nope"},
    {"do": "nope"},
    {"do": "draw"},
    {"do": "defuse", "position": 0},
    {"do": "give", "card": "skip"},
    {"do": "reorder", "order": [2, 0, 1]},
    {"do": "insert", "position": 4},
]


@pytest.mark.parametrize("raw", GOOD)
def test_action_json_round_trips(raw: dict[str, Any]) -> None:
    """SCENARIOS.md "Actions": the JSON form parses back to the same action."""
    action = GAME.parse_action(raw, 3)
    assert GAME.action_json(action) == raw
    assert GAME.parse_action(GAME.action_json(action), 3) == action


@pytest.mark.parametrize(
    "raw",
    [
        {"do": "jump"},
        {},
        {"do": "play", "cards": ["kitty"]},
        {"do": "play", "cards": []},
        {"do": "play", "cards": "skip"},
        {"do": "play", "cards": ["favor"], "target": 3},
        {"do": "play", "cards": ["favor"], "target": -1},
        {"do": "play", "cards": ["favor"], "target": True},
        {"do": "play", "cards": ["red_cat"] * 3, "target": 1, "name": "kitty"},
        {"do": "play", "cards": ["skip"], "speed": 3},
        {"do": "defuse"},
        {"do": "defuse", "position": -1},
        {"do": "defuse", "position": "top"},
        {"do": "give", "card": 3},
        {"do": "reorder", "order": "012"},
        {"do": "reorder", "order": [0, "1"]},
        {"do": "insert", "position": 1.5},
        {"do": "nope", "card": "nope"},
    ],
)
def test_bad_shapes_raise_invalid_action(raw: dict[str, Any]) -> None:
    """SCENARIOS.md: unknown action, card or field, or a seat that does not exist, is invalid."""
    with pytest.raises(InvalidAction):
        GAME.parse_action(raw, 3)
