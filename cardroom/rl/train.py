"""A small learning agent for one seat of Exploding Kittens: a linear softmax policy over the
legal moves, trained by REINFORCE with a running baseline, in NumPy on the CPU.

It is the example of docs/ai.md: short enough to read, and it learns. Run it with
`python -m cardroom.rl.train --games 3000` (a few minutes on one core).
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import numpy.typing as npt

from cardroom.rl.kittens_env import KittensSeat


class LinearPolicy:
    """logits = observation . W + b; illegal moves masked out before the softmax."""

    def __init__(self, inputs: int, moves: int, seed: int = 0) -> None:
        self.rng = np.random.default_rng(seed)
        self.w = np.zeros((inputs, moves), dtype=np.float64)
        self.b = np.zeros(moves, dtype=np.float64)

    def probabilities(
        self, obs: npt.NDArray[np.float32], mask: npt.NDArray[np.int8]
    ) -> npt.NDArray[np.float64]:
        logits = obs @ self.w + self.b
        logits = np.where(mask > 0, logits, -np.inf)
        logits -= logits.max()
        p = np.exp(logits)
        return np.asarray(p / p.sum())

    def choose(self, obs: npt.NDArray[np.float32], mask: npt.NDArray[np.int8], greedy: bool = False) -> int:
        p = self.probabilities(obs, mask)
        return int(np.argmax(p)) if greedy else int(self.rng.choice(len(p), p=p))


def play(
    env: KittensSeat, policy: LinearPolicy, seed: int, learn: float = 0.0, baseline: float = 0.0
) -> float:
    """One game; with `learn` > 0, a REINFORCE step on it. Returns the game's reward (+1/-1)."""
    obs, info = env.reset(seed=seed)
    steps = []
    reward, done = 0.0, False
    while not done:
        mask = info["action_mask"]
        move = policy.choose(obs, mask, greedy=learn == 0.0)
        steps.append((obs, mask, move))
        obs, reward, done, _, info = env.step(move)
    if learn:
        advantage = reward - baseline
        for o, m, a in steps:
            grad = -policy.probabilities(o, m)
            grad[a] += 1.0
            policy.w += learn * advantage * np.outer(o, grad)
            policy.b += learn * advantage * grad
    return float(reward)


def win_rate(policy: LinearPolicy, level: str, games: int, seed: int) -> float:
    env = KittensSeat(players=2, level=level)
    return sum(play(env, policy, seed + g) > 0 for g in range(games)) / games


def train(games: int, opponent: str = "random", lr: float = 0.02, seed: int = 0) -> LinearPolicy:
    env = KittensSeat(players=2, level=opponent)
    obs, _ = env.reset(seed=seed)
    policy = LinearPolicy(obs.shape[0], len(env.moves), seed)
    baseline = 0.0
    for g in range(games):
        reward = play(env, policy, seed + g, learn=lr, baseline=baseline)
        baseline += 0.02 * (reward - baseline)
    return policy


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description="Train a linear REINFORCE agent for one Exploding Kittens seat."
    )
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--opponent", default="random")
    parser.add_argument("--eval", type=int, default=500, help="games against each level to measure")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    policy = train(args.games, args.opponent)
    spent = time.perf_counter() - started
    print(f"trained on {args.games} games against {args.opponent} in {spent:.0f} s")
    for level in ("random", "hard"):
        print(f"  wins against {level}: {100 * win_rate(policy, level, args.eval, 1_000_000):.1f} %")


if __name__ == "__main__":
    main()
