"""Relaxed timing and extra time (docs/rules/burrito.md#time-to-react)."""

from __future__ import annotations

import pytest

from cardroom.games.burrito import GAME
from cardroom.protocol import InvalidSetup

from .helpers import in_brawl, kinds, ok, only


def test_relaxed_timing_doubles_the_flight_and_the_catch_window() -> None:
    """docs/rules/burrito.md#time-to-react: relaxed timing: 1600 ms flights, 600 ms catch windows."""
    t = in_brawl(4, options={"timing": "relaxed"})
    ok(t, 1, {"do": "grab"}, 100)
    throw = only(ok(t, 1, {"do": "throw", "target": 3}, 200), "throw")
    assert (throw["lands_at"], throw["catch_from"], throw["flight_ms"]) == (1800, 1200, 1600)
    # 1250 is past a standard flight's landing (1000): under relaxed timing it is a clean catch.
    events = ok(t, 3, {"do": "catch"}, 1250)
    assert kinds(events) == ["catch", "fight_over"] and only(events, "fight_over")["loser"] == 1


def test_relaxed_timing_doubles_the_setting_given_and_the_fastest_flight() -> None:
    """docs/rules/burrito.md#time-to-react: each reaction window is twice its setting, the floor too."""
    GAME.new_table(4, {"timing": "relaxed"}, 1)
    t = in_brawl(4, options={"timing": "relaxed", "flight_ms": 1000, "flight_min_ms": 900})
    ok(t, 1, {"do": "grab"}, 0)
    assert only(ok(t, 1, {"do": "throw", "target": 0}, 0), "throw")["lands_at"] == 2000
    ok(t, 1, {"do": "grab"}, 2000)
    # 85 % of 1000 is 850, under the floor of 900; doubled: 1800.
    assert only(ok(t, 1, {"do": "throw", "target": 0}, 2000), "throw")["lands_at"] == 2000 + 1800


def test_a_burrito_thrown_at_a_player_with_extra_time_flies_twice_as_long() -> None:
    """docs/rules/burrito.md#time-to-react: extra time doubles the flight and catch window at that player."""
    t = in_brawl(4, options={"extra_time": [3]})
    ok(t, 1, {"do": "grab"}, 100)
    ok(t, 3, {"do": "grab"}, 100)
    at_three = only(ok(t, 1, {"do": "throw", "target": 3}, 200), "throw")
    assert (at_three["lands_at"], at_three["catch_from"]) == (200 + 1600, 1800 - 600)
    at_one = only(ok(t, 3, {"do": "throw", "target": 1}, 300), "throw")
    assert (at_one["lands_at"], at_one["catch_from"]) == (1100, 800), "nobody else's burrito slows down"


def test_extra_time_keeps_the_throwers_speed_up_and_adds_to_relaxed_timing() -> None:
    """docs/rules/burrito.md#time-to-react: the nth throw's time doubled, on top of relaxed timing."""
    t = in_brawl(4, options={"extra_time": [0]})
    ok(t, 1, {"do": "grab"}, 0)
    ok(t, 1, {"do": "throw", "target": 0}, 0)
    ok(t, 1, {"do": "grab"}, 1600)
    assert only(ok(t, 1, {"do": "throw", "target": 0}, 1600), "throw")["lands_at"] == 1600 + 2 * 680
    both = in_brawl(4, options={"extra_time": [3], "timing": "relaxed"})
    ok(both, 1, {"do": "grab"}, 0)
    throw = only(ok(both, 1, {"do": "throw", "target": 3}, 0), "throw")
    assert (throw["lands_at"], throw["catch_from"]) == (3200, 3200 - 1200)


def test_everyone_sees_who_has_extra_time() -> None:
    """docs/rules/burrito.md#time-to-react: who has extra time is public, spectators included."""
    t = GAME.new_table(4, {"extra_time": [2, 0, 2]}, 1)
    for seat in (0, 1, 2, 3, None):
        assert t.view(seat)["extra_time"] == [0, 2]
    assert GAME.new_table(4, {}, 1).view(None)["extra_time"] == []


@pytest.mark.parametrize(
    "options",
    [
        {"extra_time": [4]},
        {"extra_time": [-1]},
        {"extra_time": ["1"]},
        {"extra_time": [True]},
        {"extra_time": 1},
        {"timing": "fast"},
        {"timing": 2},
    ],
)
def test_a_bad_extra_time_or_timing_is_refused(options: dict[str, object]) -> None:
    """docs/rules/burrito.md#time-to-react: extra time names seats of the table; timing is standard or relaxed."""
    with pytest.raises(InvalidSetup):
        GAME.new_table(4, options, 1)
