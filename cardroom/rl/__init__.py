"""The games as environments for learning agents (PettingZoo and Gymnasium): docs/ai.md."""

from __future__ import annotations

from cardroom.rl.burrito_env import BurritoEnv, burrito_env
from cardroom.rl.kittens_env import KittensEnv, KittensSeat, kittens_env

__all__ = ["BurritoEnv", "KittensEnv", "KittensSeat", "burrito_env", "kittens_env"]
