"""Relaxed timing and extra time (docs/rules/burrito.md#time-to-react)."""

from __future__ import annotations

import pytest

from cardroom.games.burrito import GAME, BurritoTable
from cardroom.protocol import JSON, InvalidSetup

from .helpers import SPARE, in_brawl, kinds, ok, only, run


def _deal(card: str) -> JSON:
    """Seat 0 of four holds three `card`s; the table's own options (the defaults) apply."""
    return {"hands": [[card] * 3, [], [], []], "piles": [[], [], [], []], "community": SPARE}


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


def _fastest_throw_at(t: BurritoTable, target: int) -> JSON:
    """Seat 1 throws at `target` until its throws fly no faster; the last throw's event."""
    at = 0
    while True:
        ok(t, 1, {"do": "grab"}, at)
        throw = only(ok(t, 1, {"do": "throw", "target": target}, at), "throw")
        if throw["flight_ms"] == t.opts.flight_min_ms:
            return throw
        ok(t, target, {"do": "dodge"}, at)
        at = throw["lands_at"]


def test_a_person_on_a_phone_has_time_to_dodge_even_the_fastest_throw() -> None:
    """docs/rules/burrito.md#a-fights-clock: a person whose reaction is slow but ordinary (1,000 ms,
    the 90th percentile of a visual choice) on a phone (160 ms each way) dodges in time, also
    when the thrower's burritos fly their fastest; so does a screen-reader user on the relaxed
    preset, who first hears the cue said."""
    for options, spoken in (({}, 0), ({"timing": "relaxed"}, 3 * 300)):  # "Incoming, Chloé! Marco." said
        t = GAME.from_deal(4, options, _deal("brawl_a"), seed=1)
        ok(t, 0, {"do": "call", "fight": "brawl"}, 0)
        throw = _fastest_throw_at(t, 3)
        late = throw["at"] + 160 + spoken + 1000 + 160
        assert kinds(ok(t, 3, {"do": "dodge"}, late)) == ["dodge"], options


def test_hits_a_phones_jitter_apart_are_simultaneous() -> None:
    """docs/rules/burrito.md#a-fights-clock: two hits 150 ms apart (less than a phone's network
    jitter can shift them) are one tie, settled by a duel, not a win for the earlier thrower."""
    t = GAME.from_deal(4, {}, _deal("war"), seed=1)
    ok(t, 0, {"do": "call", "fight": "war"}, 0)
    ok(t, 1, {"do": "grab"}, 0)
    ok(t, 2, {"do": "grab"}, 0)
    first = only(ok(t, 1, {"do": "throw", "target": 2}, 100), "throw")
    ok(t, 2, {"do": "throw", "target": 3}, 250)
    tie = only(run(t, first["lands_at"] + 1000), "fight_tie")
    assert tie["players"] == [2, 3]
