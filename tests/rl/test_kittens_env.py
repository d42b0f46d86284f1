"""The Exploding Kittens environments (issue 16): PettingZoo's own API and seed tests, masks
that are exactly the engine's rules, observations built from the seat's view alone, and one
seat against our bots through Gymnasium."""

from __future__ import annotations

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

from cardroom.games.kittens.cards import EXPLODING_KITTEN
from cardroom.games.kittens.state import NOPE_WINDOW
from cardroom.rl import KittensSeat, kittens_env
from cardroom.rl.kittens_match import KittensMatch, observe
from cardroom.rl.train import main as train_main
from tests.rl.checks import quietly


@pytest.mark.parametrize("players", [2, 4, 10])
def test_pettingzoo_api_test_passes(players: int) -> None:
    quietly(api_test, kittens_env(players=players), num_cycles=500)


def test_pettingzoo_seed_test_passes() -> None:
    quietly(seed_test, lambda: kittens_env(players=3), num_cycles=300)


def test_every_masked_move_is_one_the_engine_accepts_and_games_end() -> None:
    rng = np.random.default_rng(3)
    decisions = 0
    for game in range(60):
        match = KittensMatch(players=2 + game % 4, seed=game)
        while not match.over:
            assert match.decision is not None
            seat = match.decision.seat
            legal = np.flatnonzero(match.legal(seat))
            assert legal.size, f"seat {seat} must decide but has no legal move"
            match.play(seat, int(rng.choice(legal)))  # raises if the engine refuses it
            decisions += 1
        assert match.table.winner is not None
    assert decisions > 1000


def test_whom_a_nope_window_selects_does_not_tell_who_holds_a_nope() -> None:
    """Issue 22: the environment selected only Nope holders in a Nope window (219 times of
    219), which told every agent who held one. Now each window asks every other live seat in
    seat order after the player, whatever their hands: the order is a function of what all
    can see, and holders and non-holders alike are selected."""
    rng = np.random.default_rng(5)
    env = kittens_env(players=4)
    holders = others = windows = 0
    for game in range(40):
        env.reset(seed=game)
        window: object = None
        while env.agents:
            agent = env.agent_selection
            assert env.match is not None
            s = env.match.table.s
            if env.terminations[agent] or env.truncations[agent]:
                env.step(None)
                continue
            if s.phase != NOPE_WINDOW:
                window = None
            else:
                key = (s.pending, s.nopes, s.last_actor)
                if key != window:
                    window, windows = key, windows + 1
                    asked = [(s.last_actor + k) % 4 for k in range(1, 4)]
                    expected = [f"player_{p}" for p in asked if s.alive[p]]
                assert agent == expected.pop(0), "the window asked out of its public order"
                holders += "nope" in s.hands[env.possible_agents.index(agent)]
                others += "nope" not in s.hands[env.possible_agents.index(agent)]
            env.step(int(rng.choice(np.flatnonzero(env.observe(agent)["action_mask"]))))
    assert windows > 100
    assert holders > 20 and others > 100, (holders, others)


def test_an_illegal_move_is_refused_and_changes_nothing() -> None:
    env = kittens_env(players=2)
    env.reset(seed=4)
    agent = env.agent_selection
    mask = env.observe(agent)["action_mask"]
    before = env.match.table.summary() if env.match else None
    with pytest.raises(ValueError, match="not legal"):
        env.step(int(np.flatnonzero(mask == 0)[0]))
    assert env.match is not None and env.match.table.summary() == before
    assert env.agent_selection == agent


def test_an_observation_is_the_same_whatever_cards_the_others_hold() -> None:
    """Only the seat's view goes in: swapping a card between another hand and the deck (both
    hidden from seat 0) changes nothing seat 0 observes."""
    match = KittensMatch(players=3, seed=11)
    before = observe(match.view(0), 3)
    s = match.table.s
    other = s.hands[1]
    i = next(i for i, card in enumerate(s.deck) if card != EXPLODING_KITTEN and card not in other)
    other[0], s.deck[i] = s.deck[i], other[0]
    assert np.array_equal(observe(match.view(0), 3), before)
    assert not np.array_equal(observe(match.view(1), 3), before)


def test_gymnasium_checker_passes_for_one_seat_against_bots() -> None:
    check_env(KittensSeat(players=2, level="hard"), skip_render_check=True)


def test_hard_bots_beat_a_random_seat_that_random_bots_only_match() -> None:
    rng = np.random.default_rng(0)
    rates = {}
    for level in ("random", "hard"):
        env = KittensSeat(players=2, level=level)
        wins = 0
        for game in range(150):
            _, info = env.reset(seed=game)
            done, reward = False, 0.0
            while not done:
                _, reward, done, _, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
            wins += reward > 0
        rates[level] = wins / 150
    assert 0.35 < rates["random"] < 0.65
    assert rates["hard"] < 0.1


def test_the_training_example_runs_and_reports_both_win_rates(capsys: pytest.CaptureFixture[str]) -> None:
    train_main(["--games", "20", "--eval", "20"])
    out = capsys.readouterr().out
    assert "trained on 20 games against random" in out
    assert "wins against random:" in out and "wins against hard:" in out
