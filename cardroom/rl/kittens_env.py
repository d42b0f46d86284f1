"""Exploding Kittens as a PettingZoo AEC environment, and one seat of it as a Gymnasium
environment against cardroom's bots.

Agents are `player_0` ... `player_{N-1}`. Each observation is a dict: `observation`, a vector
built from that seat's view only (observe()), and `action_mask` over the fixed catalogue of
moves (catalogue()). Rewards come when they are earned: -1 to a player when they explode, +1
to the winner at the end; an exploded player is terminated at once.
"""

from __future__ import annotations

import secrets
from typing import Any, ClassVar

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped]

from cardroom.bots import check_level, make_bot
from cardroom.games.kittens import KittensTable
from cardroom.protocol import JSON, Bot
from cardroom.rl.kittens_match import KittensMatch, catalogue, observation_size, observe
from cardroom.rl.spaces import seat_spaces


def _seed_from(seed: int | None, rng: np.random.Generator | None) -> int:
    if seed is not None:
        return int(seed)
    if rng is not None:
        return int(rng.integers(0, 2**31 - 1))
    return secrets.randbelow(2**31)


class KittensEnv(AECEnv[str, dict[str, npt.NDArray[Any]], int]):  # type: ignore[misc]
    """Every seat an agent; one decision at a time (the match says whose)."""

    metadata: ClassVar[dict[str, Any]] = {
        "name": "cardroom_kittens_v0",
        "render_modes": ["ansi"],
        "is_parallelizable": False,
    }

    def __init__(self, players: int = 4, options: JSON | None = None, render_mode: str | None = None) -> None:
        super().__init__()
        if not 2 <= players <= 10:
            raise ValueError(f"Exploding Kittens is played by 2 to 10 players, not {players}")
        self.players = players
        self.options = dict(options or {})
        self.render_mode = render_mode
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self.moves = catalogue(players)
        self.observation_spaces, self.action_spaces = seat_spaces(
            self.possible_agents, observation_size(players), len(self.moves)
        )
        self._rng: np.random.Generator | None = None
        self.match: KittensMatch | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        self.match = KittensMatch(self.players, _seed_from(seed, self._rng), self.options)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._select()

    def _seat(self, agent: str) -> int:
        return self.possible_agents.index(agent)

    def _select(self) -> None:
        assert self.match is not None
        decision = self.match.decision
        if decision is not None:
            self.agent_selection = self.possible_agents[decision.seat]

    def observe(self, agent: str) -> dict[str, npt.NDArray[Any]]:
        assert self.match is not None
        seat = self._seat(agent)
        return {
            "observation": observe(self.match.view(seat), self.players),
            "action_mask": self.match.legal(seat),
        }

    def step(self, action: int | None) -> None:
        assert self.match is not None
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} must choose a move")
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {a: 0.0 for a in self.agents}
        alive_before = list(self.match.table.s.alive)
        self.match.play(self._seat(agent), int(action))
        alive = self.match.table.s.alive
        for seat, was in enumerate(alive_before):
            name = self.possible_agents[seat]
            if was and not alive[seat] and name in self.agents:
                self.rewards[name] = -1.0
                self.terminations[name] = True
        if self.match.over:
            winner = self.match.table.winner
            for name in self.agents:
                self.terminations[name] = True
                if winner is not None and self._seat(name) == winner:
                    self.rewards[name] = 1.0
        self._accumulate_rewards()
        self._select()
        self._deads_step_first()

    def render(self) -> str | None:
        if self.render_mode != "ansi" or self.match is None:
            return None
        v = self.match.view(None)
        return (
            f"phase {v['phase']}, turn of player_{v['turn']} ({v['turns_left']} to play), "
            f"deck {v['deck_size']}, hands {v['hand_sizes']}, alive {v['alive']}"
        )

    def close(self) -> None:
        self.match = None


def kittens_env(players: int = 4, options: JSON | None = None, render_mode: str | None = None) -> KittensEnv:
    """The PettingZoo AEC environment of Exploding Kittens for `players` seats."""
    return KittensEnv(players, options, render_mode)


class KittensSeat(gymnasium.Env[npt.NDArray[np.float32], np.int64]):
    """One seat of Exploding Kittens against cardroom's bots, as a Gymnasium environment.

    The observation is the seat's vector; the legal moves are in `info["action_mask"]` (and
    `action_masks()`, the name maskable learners look for). Reward: +1 for a win, -1 for a loss,
    at the end of the game. A move outside the mask changes nothing, costs `illegal_reward` and
    says so in `info["illegal"]` (so that unmasked learners and Gymnasium's checker can run).
    """

    metadata: dict[str, Any] = {"render_modes": []}  # noqa: RUF012 (Gymnasium declares it so)

    def __init__(
        self,
        players: int = 2,
        level: str = "hard",
        seat: int = 0,
        options: JSON | None = None,
        illegal_reward: float = -0.1,
    ) -> None:
        check_level("kittens", level)
        self.illegal_reward = illegal_reward
        if not 0 <= seat < players:
            raise ValueError(f"no seat {seat} at a table of {players}")
        self.players, self.level, self.seat = players, level, seat
        self.options = dict(options or {})
        self.moves = catalogue(players)
        self.observation_space = spaces.Box(0.0, 1.0, (observation_size(players),), dtype=np.float32)
        self.action_space = spaces.Discrete(len(self.moves))
        self.match: KittensMatch | None = None
        self._bots: dict[int, Bot[Any]] = {}
        self._heard: dict[int, int] = {}

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[npt.NDArray[np.float32], dict[str, Any]]:
        super().reset(seed=seed)
        game_seed = _seed_from(seed, self.np_random)
        self.match = KittensMatch(self.players, game_seed, self.options)
        self._bots = {
            s: make_bot("kittens", s, self.level, game_seed * 1_000 + s)
            for s in range(self.players)
            if s != self.seat
        }
        self._heard = {s: 0 for s in self._bots}
        self._bots_play()
        return self._obs(), self._info()

    def action_masks(self) -> npt.NDArray[np.int8]:
        assert self.match is not None
        return self.match.legal(self.seat)

    def _obs(self) -> npt.NDArray[np.float32]:
        assert self.match is not None
        return observe(self.match.view(self.seat), self.players)

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.action_masks()}

    def _bots_play(self) -> None:
        """Let the bots decide until the seat has a decision or the game is over."""
        match = self.match
        assert match is not None
        while match.decision is not None and match.decision.seat != self.seat:
            seat = match.decision.seat
            bot = self._bots[seat]
            heard = [e for e in (ev.for_seat(seat) for ev in match.log[self._heard[seat] :]) if e is not None]
            self._heard[seat] = len(match.log)
            table = match.table

            def view(seat: int = seat, table: KittensTable = table) -> JSON:
                return table.view(seat)

            now = table.now
            bot.notice(heard, view, now)
            action = bot.act(view, now)
            try:
                if action is None:
                    raise ValueError("the bot lets it pass")
                match.act(seat, action)
            except ValueError:
                # A bot that declines (or errs) makes the first legal move: in a Nope window, pass.
                match.play(seat, int(np.flatnonzero(match.legal(seat))[0]))

    def step(
        self, action: np.int64 | int
    ) -> tuple[npt.NDArray[np.float32], float, bool, bool, dict[str, Any]]:
        match = self.match
        assert match is not None
        if not 0 <= int(action) < len(self.moves) or not match.legal(self.seat)[int(action)]:
            return self._obs(), self.illegal_reward, False, False, {**self._info(), "illegal": True}
        match.play(self.seat, int(action))
        self._bots_play()
        reward = 0.0
        done = match.over or not match.table.s.alive[self.seat]
        if done:
            reward = 1.0 if match.table.winner == self.seat else -1.0
        return self._obs(), reward, done, False, self._info()
