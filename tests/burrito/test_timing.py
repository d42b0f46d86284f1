"""A round's start with extra time (docs/rules/burrito.md#extra-time-and-a-rounds-start): when a
seat has extra time, the pause between rounds and a round's first countdown are twice as long
for the whole table, and the game's first countdown three times; the countdown after a fight is
not longer."""

from __future__ import annotations

import pytest

from cardroom.games.burrito import GAME, BurritoTable

from .helpers import ok, refused, run, table


def _round_one_won(extra: list[int]) -> BurritoTable:
    """Seat 1 of three loses the round's last bruise at 0 ms: round 1 is over, seat 0 won it."""
    t = table(
        3, bruises=[1, 2, 2], options={"between_rounds_ms": 5000, "countdown_ms": 3000, "extra_time": extra}
    )
    ok(t, 1, {"do": "call", "fight": "war"}, 0)  # a call without the cards: a bruise
    assert t.phase == "round_over"
    return t


@pytest.mark.parametrize(("extra", "factor"), [([], 1), ([2], 2)])
def test_the_pause_between_rounds_and_the_rounds_countdown_wait_for_a_player_with_extra_time(
    extra: list[int], factor: int
) -> None:
    t = _round_one_won(extra)
    assert refused(t, 0, {"do": "draw"}, 5000 * factor - 1) == "round_over"
    started = run(t, 5000 * factor)
    assert t.round == 2 and t.phase == "countdown"
    countdown_ends = t.view(2)["countdown_ends_at"]
    assert countdown_ends == 5000 * factor + 3000 * factor  # what every page counts down to
    beats = [e["beat"] for e in started + run(t, countdown_ends - 1) if e["event"] == "countdown"]
    assert beats == ["3", "2", "1"]
    assert refused(t, 0, {"do": "draw"}, countdown_ends - 1) == "countdown"
    assert [e["beat"] for e in run(t, countdown_ends) if e["event"] == "countdown"] == ["burrito"]
    assert t.phase == "play"


@pytest.mark.parametrize(("extra", "factor"), [([], 1), ([1], 3)])
def test_the_games_first_countdown_also_waits_while_a_screen_reader_says_where_the_hand_is(
    extra: list[int], factor: int
) -> None:
    """Start takes every player from the table's buttons to their hand, which a screen reader
    announces before the round's first line: with extra time, one countdown more."""
    t = GAME.new_table(2, {"countdown_ms": 3000, "extra_time": extra}, seed=7)
    assert t.round == 1 and t.phase == "countdown"
    countdown_ends = t.view(0)["countdown_ends_at"]
    assert countdown_ends == 3000 * factor
    assert refused(t, 0, {"do": "draw"}, countdown_ends - 1) == "countdown"
    assert [e["beat"] for e in run(t, countdown_ends) if e["event"] == "countdown"] == ["burrito"]
    assert t.phase == "play"


def test_the_countdown_after_a_fight_is_not_longer_with_extra_time() -> None:
    """Play resumes after a fight as fast as ever: that countdown has nothing new to hear."""
    t = table(3, bruises=[0, 0, 0], options={"countdown_ms": 3000, "extra_time": [2]})
    ok(t, 1, {"do": "call", "fight": "war"}, 0)  # a mistaken call: a bruise, and a countdown
    assert t.phase == "countdown" and t.view(2)["countdown_ends_at"] == 3000
    run(t, 3000)
    assert t.phase == "play"
