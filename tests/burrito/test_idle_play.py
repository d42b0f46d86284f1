"""An idle player never freezes a game (issue 22; docs/rules/burrito.md#play-that-stands-still).

A 12-seat table with `bruises: 60` stood still for good: the one person who never drew nor
passed let every card pile up on their own pile (each neighbour passes to the left, and nobody
draws from a player's pile but its owner), until nobody else had a card to play, no fight could
be called and no timer was due. Play in which no card moves for `idle_round_ms` now ends the
round as it stands.
"""

from __future__ import annotations

import pytest

from cardroom.bots import make_bot
from cardroom.drive.virtual import VirtualDriver
from cardroom.protocol import Event, InvalidSetup

from .helpers import GAME, kinds, ok, only, refused, run, table

IDLE_MS = 60_000


def test_an_idle_player_holding_every_card_does_not_freeze_the_game() -> None:
    """docs/rules/burrito.md#play-that-stands-still: the issue's table, in virtual time. Seat 0
    is a person who never acts; eleven bots play. The cards end up on seat 0's pile, and the game
    still comes to its end, each round ending once no card has moved for `idle_round_ms`."""
    options = GAME.options_json({"bruises": 60}, 12)
    t = GAME.new_table(12, options, 7)
    bots = {s: make_bot("burrito", s, "normal", 100 + s, options=options) for s in range(1, 12)}
    ends: list[str] = []

    def heard(now: int, events: list[Event]) -> None:
        ends.extend(e.data["reason"] for e in events if e.kind == "round_over")

    VirtualDriver(t, bots, GAME.action_json, heard).run(limit_ms=4 * 3_600_000)
    assert t.over, f"the game stood still at {t.now} ms in phase {t.phase}"
    assert "idle" in ends
    assert len(t.piles[0]) > 40  # the idle player's pile held the cards nobody else could reach


def test_play_ends_the_round_once_no_card_moved_for_the_idle_time() -> None:
    """docs/rules/burrito.md#play-that-stands-still: nothing moves from 0 on, so the round ends at
    exactly `idle_round_ms`, scored as it stands."""
    t = table(3, hands=[["goth_sloth"] * 3, [], []], score_piles=[["salsa_yeti"] * 3, [], []])
    assert "round_over" not in kinds(run(t, IDLE_MS - 1))
    over = only(run(t, IDLE_MS), "round_over")
    assert over["reason"] == "idle" and over["winner"] == 0 and over["scores"] == [1, 0, 0]


def test_a_card_that_moves_keeps_the_round_going_and_a_refusal_does_not() -> None:
    """docs/rules/burrito.md#play-that-stands-still: an accepted card action starts the idle time
    again; a refused one changes nothing, the idle time included."""
    t = table(3, hands=[["goth_sloth", "war"], [], []], piles=[[], [], []], community=[[], []])
    ok(t, 0, {"do": "discard", "card": "war"}, 50_000)
    assert refused(t, 2, {"do": "draw"}, 100_000) == "pile_empty"  # no pile to draw from: refused
    assert "round_over" not in kinds(run(t, 50_000 + IDLE_MS - 1))
    assert only(run(t, 50_000 + IDLE_MS), "round_over")["reason"] == "idle"


def test_the_idle_time_is_a_table_option() -> None:
    """docs/rules/burrito.md#play-that-stands-still: `idle_round_ms`, at least a second."""
    t = table(2, options={"idle_round_ms": 5_000})
    assert only(run(t, 5_000), "round_over")["reason"] == "idle"
    with pytest.raises(InvalidSetup):
        table(2, options={"idle_round_ms": 999})
