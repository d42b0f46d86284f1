"""The spaces both games' environments share: a seat's observation vector with its move mask."""

from __future__ import annotations

import numpy as np
from gymnasium import spaces


def seat_spaces(
    agents: list[str], size: int, moves: int
) -> tuple[dict[str, spaces.Dict], dict[str, spaces.Discrete]]:
    """Per agent: the observation space (`observation` in [0, 1] of `size`, `action_mask` over
    `moves`, PettingZoo's classic-games form) and the action space (one of `moves`)."""
    observation = spaces.Dict(
        {
            "observation": spaces.Box(0.0, 1.0, (size,), dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (moves,), dtype=np.int8),
        }
    )
    return {a: observation for a in agents}, {a: spaces.Discrete(moves) for a in agents}
