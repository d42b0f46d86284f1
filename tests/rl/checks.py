"""PettingZoo's checkers, run without the two notes its classic-games observation form earns."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

# PettingZoo's checker advises flat observations; a dict with an action mask is its own
# classic games' form, so these two notes are expected.
DICT_OBSERVATION = [
    "Observation space for each agent probably should be gymnasium.spaces.box or gymnasium.spaces.discrete",
    "Observation is not a NumPy array",
]


def quietly(check: Callable[..., Any], *args: Any, **kwargs: Any) -> None:
    with warnings.catch_warnings():
        for text in DICT_OBSERVATION:
            warnings.filterwarnings("ignore", message=text)
        check(*args, **kwargs)
