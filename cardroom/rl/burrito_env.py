"""Throw Throw Burrito as a PettingZoo Parallel environment: play time runs in fixed ticks.

Every agent answers every tick (default 100 ms of play time) with one move of a fixed
catalogue, `wait` included. The moves of one tick are made at the tick's first moment, in an
order drawn from the environment's generator (simultaneous play: nobody is always first);
then play time runs to the next tick and every timer due in between runs, so the real-time
rules stand as they are: flights take their time, the catch window opens 300 ms before
landing, stalling loses. The mask marks the moves the engine's own check accepts that are no
mistake (legal.py); any other move still goes to the table as a player's key would: the
table refuses it (nothing changes; `info["refused"]` says why) or, for a mistake such as a
bystander's grab, accepts it with its penalty.

Seats are counted from the observer (offset 1 = the next seat), so one policy serves every
seat. Reward: +1 to the winner and -1 to the others when the game ends, and each round's
score change as it happens scaled by `score_weight` (0 by default).
"""

from __future__ import annotations

import secrets
from itertools import combinations
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import ParallelEnv  # type: ignore[import-untyped]

from cardroom.games.burrito import GAME
from cardroom.games.burrito.actions import Action, Call, Catch, Discard, Dodge, Draw, Grab, Set, Throw
from cardroom.games.burrito.cards import BATTLE, CARDS, FIGHT_OF, FIGHTS, is_battle
from cardroom.games.burrito.legal import legal_actions
from cardroom.games.burrito.table import BurritoTable
from cardroom.protocol import JSON
from cardroom.rl.spaces import seat_spaces

Move = tuple[Any, ...]
PHASES = ("countdown", "play", "fight", "round_over", "game_over")
_CARD = {card: i for i, card in enumerate(CARDS)}
_K = len(CARDS)
HORIZON_MS = 2000.0  # times ahead are seen up to two seconds, scaled to [0, 1]


def catalogue(players: int) -> list[Move]:
    """Every move an agent may name each tick at a table of `players`, in a fixed order."""
    moves: list[Move] = [("wait",), ("draw",), ("draw_community", 0), ("draw_community", 1)]
    moves += [("discard", card) for card in CARDS]
    moves += [("set", card) for card in CARDS if not is_battle(card)]
    moves += [("call", card) for card in BATTLE if FIGHT_OF[card] != "duel"]
    moves += [("duel", a, b) for a, b in combinations(range(players), 2)]
    moves += [("grab",), ("dodge",), ("catch",)]
    moves += [("throw", k) for k in range(1, players)]
    return moves


def action_for(move: Move, seat: int, players: int) -> Action | None:
    """The engine's action for `move` by `seat`; None for `wait`."""
    kind = move[0]
    if kind == "wait":
        return None
    if kind == "draw":
        return Draw()
    if kind == "draw_community":
        return Draw("community", move[1])
    if kind == "discard":
        return Discard(move[1])
    if kind == "set":
        return Set(move[1])
    if kind == "call":
        return Call(FIGHT_OF[move[1]], move[1])
    if kind == "duel":
        pair = sorted(((seat + move[1]) % players, (seat + move[2]) % players))
        return Call("duel", "duel", (pair[0], pair[1]))
    if kind == "grab":
        return Grab()
    if kind == "dodge":
        return Dodge()
    if kind == "catch":
        return Catch()
    return Throw((seat + move[1]) % players)


def move_of(action: Action, seat: int, players: int) -> Move:
    """The catalogue entry of an engine action (the inverse of action_for)."""
    if isinstance(action, Draw):
        return ("draw",) if action.source == "own" else ("draw_community", action.pile)
    if isinstance(action, Discard):
        return ("discard", action.card)
    if isinstance(action, Set):
        return ("set", action.card)
    if isinstance(action, Call):
        if action.fight == "duel":
            assert action.targets is not None
            a, b = sorted((t - seat) % players for t in action.targets)
            return ("duel", a, b)
        return ("call", action.card)
    if isinstance(action, Grab):
        return ("grab",)
    if isinstance(action, Dodge):
        return ("dodge",)
    if isinstance(action, Catch):
        return ("catch",)
    assert isinstance(action, Throw)
    return ("throw", (action.target - seat) % players)


def observation_size(players: int) -> int:
    return _K + 4 * players + players * _K + len(PHASES) + 3 + len(FIGHTS) + 4 * players + 1 + 2 * players + 4


def observe(v: JSON, players: int) -> npt.NDArray[np.float32]:
    """A seat's observation from its view alone: its hand, the table's public part, the fight."""
    seat: int = v["seat"]
    now: int = v["now"]
    out = np.zeros(observation_size(players), dtype=np.float32)
    at = 0

    def ahead(moment: int | None) -> float:
        return 0.0 if moment is None else max(0.0, min(1.0, (moment - now) / HORIZON_MS))

    for card in v.get("hand", []):
        out[at + _CARD[card]] += 1.0 / 5
    at += _K
    for r in range(players):
        p = (seat + r) % players
        out[at : at + 4] = [
            v["hand_sizes"][p] / 5,
            v["pile_sizes"][p] / 20,
            v["bruises"][p] / 5,
            (v["scores"][p] + 10) / 30,
        ]
        at += 4
    for r in range(players):
        for card in v["score_piles"][(seat + r) % players]:
            out[at + _CARD[card]] += 1.0 / 9
        at += _K
    out[at + PHASES.index(v["phase"])] = 1.0
    at += len(PHASES)
    community = v["community_sizes"] + [0, 0]
    out[at : at + 3] = [community[0] / 20, community[1] / 20, ahead(v["countdown_ends_at"])]
    at += 3
    fight = v["fight"]
    if fight is None:
        at += len(FIGHTS) + 4 * players + 1 + 2 * players
    else:
        out[at + FIGHTS.index(fight["kind"])] = 1.0
        at += len(FIGHTS)
        for r in range(players):
            p = (seat + r) % players
            out[at + 4 * r] = p in fight["fighters"]
            out[at + 4 * r + 1] = p in fight["holding"]
            out[at + 4 * r + 2] = p in fight["callers"]
            out[at + 4 * r + 3] = any(f["thrower"] == p for f in fight["flights"])
        at += 4 * players
        out[at] = fight["free"] / 4
        at += 1
        # Burritos flying at each seat: when the first one's catch window opens, when it lands.
        for r in range(players):
            p = (seat + r) % players
            coming = [f for f in fight["flights"] if f["target"] == p and not f["dodged"]]
            first = min(coming, key=lambda f: f["lands_at"]) if coming else None
            out[at + 2 * r] = 0.0 if first is None else 1.0 - ahead(first["catch_from"])
            out[at + 2 * r + 1] = 0.0 if first is None else 1.0 - ahead(first["lands_at"])
        at += 2 * players
    out[at : at + 4] = [
        v["round"] / 3,
        v["badge"] == seat,
        v["bruises_left"] / 10 if v["bruises_left"] is not None else 0.0,
        ahead(v.get("dodge_until")),
    ]
    at += 4
    assert at == len(out), (at, len(out))
    return np.clip(out, 0.0, 1.0, out=out)


class BurritoEnv(ParallelEnv):  # type: ignore[misc]
    """Every seat an agent; all agents move every tick."""

    metadata: ClassVar[dict[str, Any]] = {"name": "cardroom_burrito_v0", "render_modes": ["ansi"]}

    def __init__(
        self,
        players: int = 4,
        tick_ms: int = 100,
        options: JSON | None = None,
        max_ticks: int = 20_000,
        score_weight: float = 0.0,
        render_mode: str | None = None,
    ) -> None:
        if not 2 <= players <= 12:
            raise ValueError(f"Throw Throw Burrito is played by 2 to 12 players, not {players}")
        if tick_ms < 1:
            raise ValueError("a tick lasts at least 1 ms")
        self.players, self.tick_ms, self.max_ticks = players, tick_ms, max_ticks
        self.score_weight = score_weight
        self.options = dict(options or {})
        self.render_mode = render_mode
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self.agents: list[str] = []
        self.moves = catalogue(players)
        self.index = {move: i for i, move in enumerate(self.moves)}
        self.observation_spaces, self.action_spaces = seat_spaces(
            self.possible_agents, observation_size(players), len(self.moves)
        )
        self.table: BurritoTable | None = None
        self._rng = np.random.default_rng()
        self._ticks = 0

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def _mask(self, seat: int) -> npt.NDArray[np.int8]:
        assert self.table is not None
        mask = np.zeros(len(self.moves), dtype=np.int8)
        mask[0] = 1
        for action in legal_actions(self.table, seat):
            mask[self.index[move_of(action, seat, self.players)]] = 1
        return mask

    def _observations(self) -> dict[str, dict[str, npt.NDArray[Any]]]:
        assert self.table is not None
        return {
            a: {
                "observation": observe(self.table.view(seat), self.players),
                "action_mask": self._mask(seat),
            }
            for seat, a in enumerate(self.possible_agents)
            if a in self.agents
        }

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, dict[str, npt.NDArray[Any]]], dict[str, dict[str, Any]]]:
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        game_seed = int(self._rng.integers(0, 2**31 - 1)) if seed is not None else secrets.randbelow(2**31)
        self.table = GAME.new_table(self.players, self.options, game_seed)
        self.table.advance(0)
        self.agents = list(self.possible_agents)
        self._ticks = 0
        return self._observations(), {a: {} for a in self.agents}

    def step(
        self, actions: dict[str, int]
    ) -> tuple[
        dict[str, dict[str, npt.NDArray[Any]]],
        dict[str, float],
        dict[str, bool],
        dict[str, bool],
        dict[str, dict[str, Any]],
    ]:
        table = self.table
        assert table is not None
        unknown = sorted(set(actions) - set(self.agents))
        if unknown:
            raise ValueError(f"no agent {unknown[0]!r} is playing")
        chosen: list[tuple[int, Action]] = []
        for agent, index in actions.items():
            seat = self.possible_agents.index(agent)
            if not 0 <= int(index) < len(self.moves):
                raise ValueError(f"no move {index}: moves are 0 to {len(self.moves) - 1}")
            action = action_for(self.moves[int(index)], seat, self.players)
            if action is not None:
                chosen.append((seat, action))
        before = table.scores()
        now = table.now
        refused: dict[str, str] = {}
        for i in self._rng.permutation(len(chosen)):
            seat, action = chosen[int(i)]
            result = table.apply(seat, action, now)
            if not isinstance(result, list):
                refused[self.possible_agents[seat]] = result.code
        table.advance(now + self.tick_ms)
        self._ticks += 1
        after = table.scores()
        rewards = {a: self.score_weight * (after[s] - before[s]) for s, a in enumerate(self.possible_agents)}
        over = table.over
        if over:
            for seat, agent in enumerate(self.possible_agents):
                rewards[agent] += 1.0 if table.winner == seat else -1.0
        truncated = not over and self._ticks >= self.max_ticks
        agents = list(self.agents)
        observations = self._observations()
        infos = {a: ({"refused": refused[a]} if a in refused else {}) for a in agents}
        terminations = {a: over for a in agents}
        truncations = {a: truncated for a in agents}
        rewards = {a: rewards[a] for a in agents}
        if over or truncated:
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def render(self) -> str | None:
        if self.render_mode != "ansi" or self.table is None:
            return None
        v = self.table.view(None)
        return f"{v['now']} ms, {v['phase']}, scores {v['scores']}, bruises {v['bruises']}"

    def close(self) -> None:
        self.table = None


def burrito_env(
    players: int = 4, tick_ms: int = 100, options: JSON | None = None, **kwargs: Any
) -> BurritoEnv:
    """The PettingZoo Parallel environment of Throw Throw Burrito for `players` seats."""
    return BurritoEnv(players, tick_ms, options, **kwargs)
