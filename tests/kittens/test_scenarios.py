"""The timing rules as scenario files (SCENARIOS.md), run by the project's scenario runner."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from cardroom.drive.scenario import load_scenario, run_scenario

FILES = sorted((Path(__file__).parent / "scenarios").glob("*.json"))


def contains(actual: Any, expected: Any) -> bool:
    """`expected` is a part of `actual`: objects by their listed keys, everything else equal."""
    if isinstance(expected, dict):
        return isinstance(actual, dict) and all(
            k in actual and contains(actual[k], v) for k, v in expected.items()
        )
    return bool(actual == expected)


def test_there_are_scenarios() -> None:
    """The timing rules of DIGITAL.md are pinned as scenario files."""
    assert len(FILES) >= 10


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_scenario(path: Path) -> None:
    """Each scenario's final state and events contain what it expects."""
    data = load_scenario(path.read_text(encoding="utf-8"))
    assert data["game"] == "kittens"
    result = run_scenario(data)
    expect = data.get("expect", {})
    assert contains(result.final, expect), (result.final, expect)
    events = iter(result.events)
    for wanted in data.get("expect_events", []):
        assert any(contains(e, wanted) for e in events), (wanted, result.events)
