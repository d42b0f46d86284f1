"""The Throw Throw Burrito environment (issue 16): PettingZoo's own parallel API and seed
tests, play time in fixed ticks with the real-time rules intact, masks that are the engine's."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import parallel_api_test, parallel_seed_test

from cardroom.games.burrito.legal import legal_actions
from cardroom.rl import burrito_env
from cardroom.rl.burrito_env import action_for, move_of, observe
from tests.rl.checks import quietly


@pytest.mark.parametrize("players", [2, 4, 7])
def test_pettingzoo_parallel_api_test_passes(players: int) -> None:
    quietly(parallel_api_test, burrito_env(players=players), num_cycles=600)


def test_pettingzoo_parallel_seed_test_passes() -> None:
    quietly(parallel_seed_test, lambda: burrito_env(players=3), num_cycles=300)


def test_the_same_seed_and_moves_give_the_same_game() -> None:
    def play(seed: int) -> list[int]:
        env = burrito_env(players=3)
        obs, _ = env.reset(seed=seed)
        rng = np.random.default_rng(0)
        for _ in range(400):
            moves = {a: int(rng.choice(np.flatnonzero(obs[a]["action_mask"]))) for a in env.agents}
            obs, *_ = env.step(moves)
        assert env.table is not None
        return [*env.table.scores(), *env.table.bruises, len(env.table.hands[0])]

    assert play(5) == play(5)


def test_a_tick_is_play_time_and_the_countdown_runs_in_ticks() -> None:
    env = burrito_env(players=4, tick_ms=100)
    obs, _ = env.reset(seed=2)
    assert env.table is not None and env.table.phase == "countdown"
    mask = obs["player_0"]["action_mask"]
    assert list(np.flatnonzero(mask)) == [0], "only wait before Burrito!"
    ticks = 0
    while env.table.phase == "countdown":
        env.step({a: 0 for a in env.agents})
        ticks += 1
    assert env.table.now == ticks * 100
    assert 0 <= ticks * 100 - env.table.opts.countdown_ms < 100, "play starts in the tick Burrito! falls in"


def test_the_mask_is_the_engines_legal_moves_and_each_is_accepted() -> None:
    env = burrito_env(players=4)
    obs, _ = env.reset(seed=8)
    rng = np.random.default_rng(8)
    accepted = 0
    for _ in range(3000):
        assert env.table is not None
        moves = {}
        for seat, agent in enumerate(env.possible_agents):
            legal = set(np.flatnonzero(obs[agent]["action_mask"]).tolist()) - {0}
            engine = {env.index[move_of(a, seat, 4)] for a in legal_actions(env.table, seat)}
            assert legal == engine
            moves[agent] = int(rng.choice(sorted(legal))) if legal and rng.random() < 0.5 else 0
        # one mover per tick: a lone move accepted by the table is never refused
        mover = next((a for a, m in moves.items() if m), None)
        obs, _, _, _, infos = env.step({a: (moves[a] if a == mover else 0) for a in env.agents})
        if mover is not None:
            assert "refused" not in infos[mover]
            accepted += 1
        if not env.agents:
            break
    assert accepted > 500


def test_an_unmasked_move_goes_to_the_table_and_a_refused_one_changes_nothing() -> None:
    env = burrito_env(players=2)
    env.reset(seed=1)
    assert env.table is not None
    while env.table.phase == "countdown":
        env.step({a: 0 for a in env.agents})
    before = env.table.summary()
    dodge = env.index[("dodge",)]  # no fight: refused
    _, _, _, _, infos = env.step({"player_0": dodge, "player_1": 0})
    assert infos["player_0"]["refused"]
    after = env.table.summary()
    assert after["hands"] == before["hands"] and after["bruises"] == before["bruises"]
    with pytest.raises(ValueError, match="no move"):
        env.step({"player_0": 10_000, "player_1": 0})


def test_an_observation_is_built_from_the_seats_view_alone() -> None:
    env = burrito_env(players=3)
    env.reset(seed=4)
    assert env.table is not None
    mine = observe(env.table.view(0), 3)
    other = env.table.hands[1]
    pile = env.table.piles[2]
    other[0], pile[-1] = pile[-1], other[0]  # hidden from seat 0
    assert np.array_equal(observe(env.table.view(0), 3), mine)
    assert action_for(("wait",), 0, 3) is None
