"""Relaxed timing and extra time (docs/rules/kittens.md#time-to-react)."""

from __future__ import annotations

import pytest

from cardroom.games.kittens import GAME
from cardroom.protocol import InvalidSetup

from .helpers import kinds, ok, table, wait

EK = "exploding_kitten"


def test_relaxed_timing_doubles_the_nope_defuse_and_choice_windows_not_the_turn() -> None:
    """docs/rules/kittens.md#time-to-react: relaxed: 6 s Nope, 20 s defuse, 30 s choice; the turn timer as set."""
    t = table([["favor", "defuse"], ["skip"], ["skip"]], [EK, "skip"], options={"timing": "relaxed"})
    assert t.view(0)["deadline"] == 60000
    assert ok(t, 0, "play", cards=["favor"], target=1)[0]["until"] == 6000
    choosing = [e for e in wait(t, 6000) if e["event"] == "choosing"]
    assert choosing[0]["until"] == 6000 + 30000
    ok(t, 1, "give", card="skip")
    events = ok(t, 0, "draw")
    assert [e["until"] for e in events if e["event"] == "defusing"] == [t.now + 20000]


def test_a_shared_nope_window_lasts_as_long_as_the_longest_of_those_who_may_nope() -> None:
    """docs/rules/kittens.md#time-to-react: a seat with extra time among those who may Nope doubles the window."""
    t = table([["skip", "nope"], ["nope"], []], ["favor"], options={"extra_time": [2]})
    events = ok(t, 0, "play", cards=["skip"])
    assert events[0]["until"] == 6000, "seat 2 may Nope (it holds none: that stays hidden)"
    assert ok(t, 1, "nope", at=1000)[0]["until"] == 7000
    assert wait(t, 5999) == []
    assert kinds(wait(t, 1))[0] == "window_closed"


def test_the_nope_window_of_a_card_played_by_the_player_with_extra_time_is_not_longer() -> None:
    """docs/rules/kittens.md#time-to-react: nobody who may Nope the card has extra time: the usual window."""
    t = table([["skip"], ["nope"], []], ["favor", "favor"], options={"extra_time": [0]})
    assert ok(t, 0, "play", cards=["skip"])[0]["until"] == 3000
    # The Nope answers seat 1, and seat 0 (extra time) may Nope it back: doubled.
    assert ok(t, 1, "nope", at=100)[0]["until"] == 100 + 6000


def test_extra_time_doubles_only_that_players_defuse_and_choice() -> None:
    """docs/rules/kittens.md#time-to-react: their defuse timer and choice timer, nobody else's."""
    t = table([["favor", "defuse"], ["skip", "defuse"]], [EK, "skip"], options={"extra_time": [1]})
    ok(t, 0, "play", cards=["favor"], target=1)
    choosing = [e for e in wait(t, 6000) if e["event"] == "choosing"]
    assert choosing[0]["until"] == 6000 + 2 * 15000
    ok(t, 1, "give", card="skip")
    defusing = [e for e in ok(t, 0, "draw") if e["event"] == "defusing"]
    assert defusing[0]["player"] == 0 and defusing[0]["until"] == t.now + 10000
    other = table([["skip"], ["defuse"]], [EK], options={"extra_time": [1]})
    ok(other, 0, "play", cards=["skip"])
    wait(other, 6000)
    defusing = [e for e in ok(other, 1, "draw") if e["event"] == "defusing"]
    assert defusing[0]["until"] == other.now + 20000


def test_everyone_sees_who_has_extra_time() -> None:
    """docs/rules/kittens.md#time-to-react: who has extra time is public, spectators included."""
    t = GAME.new_table(3, {"extra_time": [1]}, 1)
    assert [t.view(seat)["extra_time"] for seat in (0, 1, 2, None)] == [[1]] * 4


@pytest.mark.parametrize(
    "options",
    [
        {"extra_time": [3]},
        {"extra_time": [-1]},
        {"extra_time": ["0"]},
        {"extra_time": 0},
        {"timing": "slow"},
        {"bot_think_ms": -1},
    ],
)
def test_a_bad_extra_time_timing_or_bot_pace_is_refused(options: dict[str, object]) -> None:
    """docs/rules/kittens.md#time-to-react: extra time names seats of the table; timing is standard or relaxed."""
    with pytest.raises(InvalidSetup):
        GAME.new_table(3, options, 1)
