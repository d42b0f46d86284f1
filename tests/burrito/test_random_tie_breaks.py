"""Bots fight the elimination Wars of big tables to the end without breaking them (hypothesis).

Whole games reach a round-tie War among three or more players only a few times in two hundred,
so each example deals the tie straight away and lets bots of random levels fight it out, at 7
to 12 players: their quick catches and dodges reach the corners random keys rarely reach.
"""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardroom.bots import levels, make_bot
from cardroom.drive.virtual import VirtualDriver
from cardroom.games.burrito import GAME, BurritoTable
from cardroom.protocol import JSON, Event


def _tied_table(players: int, tied: int, options: dict[str, Any], seed: int) -> BurritoTable:
    """A table at time 0 where a mistaken call is about to end round 1 with seats 0 to tied-1
    level on top (the last seat calls; no battle set is left, so the round ends after it)."""
    caller = players - 1
    bruises = [0] * tied + [1] * (players - tied)
    bruises[caller] = 0
    score_piles: list[list[str]] = [[] for _ in range(players)]
    if tied == players:  # the caller's set makes up for the bruise their mistake costs them
        score_piles[caller] = ["goth_sloth"] * 3
    deal = {"community": [[], []], "bruises": bruises, "score_piles": score_piles}
    return GAME.from_deal(players, options, deal, seed=seed)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.integers(7, 12),
    tied=st.integers(3, 12),
    bot_levels=st.lists(st.sampled_from(levels("burrito")), min_size=12, max_size=12),
    small_room=st.booleans(),
    tie_ms=st.sampled_from([50, 50, 400]),
    seed=st.integers(0, 2**32),
)
def test_an_elimination_war_at_7_to_12_players_ends_with_one_winner_each_out_once(
    players: int, tied: int, bot_levels: list[str], small_room: bool, tie_ms: int, seed: int
) -> None:
    """docs/rules/burrito.md#out-once and #round-ties: whatever the fighters do, nobody is put out
    twice, burritos are never lost or made, and the War ends with one winner among the tied."""
    tied = min(tied, players)
    variants = ["small_room"] if small_room else []  # two decks come by themselves at 7 to 12
    t = _tied_table(players, tied, {"variants": variants, "tie_ms": tie_ms}, seed)
    bots = {s: make_bot("burrito", s, bot_levels[s], seed + s) for s in range(players)}
    heard: list[Event] = []
    driver = VirtualDriver(t, bots, listener=lambda _now, events: heard.extend(events))
    driver.submit(players - 1, GAME.parse_action({"do": "call", "fight": "war"}, players), 0)
    assert t.fight is not None and t.fight.fighters == list(range(tied)) and t.fight.tiebreak == "round_tie"
    while t.fight is not None and driver.step(t.now + 10 * t.opts.fight_timeout_ms):
        f = t.fight
        if f is not None:
            flying = sum(1 for fl in f.flights if fl.left)
            assert sum(f.holding) + f.free + flying == t.opts.burritos
            assert min(f.holding) >= 0 and f.free >= 0
    events: list[JSON] = [e.full() for e in heard]
    out = [e["player"] for e in events if e["event"] == "eliminated"]
    assert len(out) == len(set(out)) and set(out) <= set(range(tied))
    won = [e["player"] for e in events if e["event"] == "round_won"]
    assert len(won) == 1 and won[0] in range(tied) and won[0] not in out
    assert sorted([*out, *won]) == list(range(tied)) and t.badge == won[0]
