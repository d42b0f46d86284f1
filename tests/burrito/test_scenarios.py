"""The timing rules pinned as scenario files (tests/burrito/scenarios/*.json, SCENARIOS.md format)."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardroom.drive.scenario import load_scenario, mismatches, run_scenario

FILES = sorted((Path(__file__).parent / "scenarios").glob("*.json"))


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_scenario_file(path: Path) -> None:
    """Each file cites its rule in `description`; its `expect` and `expect_events` must hold."""
    data = load_scenario(path.read_text(encoding="utf-8"))
    assert data.get("description"), "every scenario says which rule it pins"
    result = run_scenario(data)
    assert mismatches(data, result) == []
    assert run_scenario(data).lines() == result.lines()


def test_there_are_scenario_files() -> None:
    """SCENARIOS.md: the timing rules are pinned as files anyone can run with `cardroom scenario`."""
    assert len(FILES) >= 10
