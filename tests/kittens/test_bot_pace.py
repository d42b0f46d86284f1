"""Bots think like people over their own decisions (docs/rules/kittens.md#bots)."""

from __future__ import annotations

from typing import Any

from cardroom.bots import make_bot
from cardroom.drive.virtual import VirtualDriver
from cardroom.games.kittens import GAME
from cardroom.protocol import Event


def decision_times(options: dict[str, Any], seed: int = 4, level: str = "normal") -> list[int]:
    """A whole game of four bots of `level`: how long each took over each decision of its own (a
    turn's card or draw, a choice, a defuse), from the moment it was theirs to their action."""
    table = GAME.new_table(4, options, seed)
    opened: dict[int, int] = {}
    decider: int | None = None

    def heard(now: int, events: list[Event]) -> None:
        nonlocal decider
        v = table.view(None)
        who = {"turn": v["turn"], "defusing": v["turn"]}.get(v["phase"])
        if v["phase"] == "choosing":
            who = v["choosing"]["player"]
        if who != decider and who is not None:
            opened[who] = now
        decider = who

    bots = {s: make_bot("kittens", s, level, seed * 100 + s, options=options) for s in range(4)}
    times: list[int] = []
    decided: dict[int, int] = {}

    def record(move: Any) -> None:
        if move.action.get("do") not in ("nope", "pass"):  # answers to a window, not decisions
            start = opened.get(move.player)
            if start is not None and decided.get(move.player) != start:
                times.append(move.at - start)
                decided[move.player] = start

    VirtualDriver(table, bots, GAME.action_json, heard, record).run()
    assert table.over
    return times


def test_bots_take_a_person_s_time_over_their_own_decisions_at_a_table() -> None:
    """docs/rules/kittens.md#bots: by default each decision of a bot takes 1.5 to 3 s."""
    times = [t for seed in range(1, 6) for t in decision_times({}, seed)]
    assert len(times) > 100
    assert min(times) >= 1500 and max(times) <= 3000
    assert max(times) - min(times) > 500, "not one fixed delay"


def test_the_random_bot_too_takes_a_person_s_time() -> None:
    """docs/rules/kittens.md#bots: the `random` bot, woken only when it may act (issue 16), takes
    1.5 to 3 s over each decision of its own too, and its own 300 to 900 ms at bot_think_ms 0."""
    times = [t for seed in range(1, 6) for t in decision_times({}, seed, "random")]
    assert len(times) > 100
    assert min(times) >= 1500 and max(times) <= 3000
    assert max(times) - min(times) > 500, "not one fixed delay"
    quick = [t for seed in range(1, 4) for t in decision_times({"bot_think_ms": 0}, seed, "random")]
    assert len(quick) > 50 and min(quick) >= 300 and max(quick) <= 900


def test_bot_think_ms_zero_keeps_the_levels_quick_reactions() -> None:
    """docs/rules/kittens.md#bots: bot_think_ms 0: a normal bot's 320 to 650 ms."""
    times = decision_times({"bot_think_ms": 0})
    assert len(times) > 20 and max(times) <= 650


def test_a_thinking_bot_still_decides_within_a_short_window() -> None:
    """docs/rules/kittens.md#bots: thinking stays within three quarters of the time left."""
    times = decision_times({"choose_ms": 1200, "defuse_ms": 1200})
    assert len(times) > 20 and max(times) <= 3000
