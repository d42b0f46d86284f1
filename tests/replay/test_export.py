"""Any stored game exports as a scenario file that plays the same game again and ends the
same way: a bug report or a puzzle from a game that was really played."""

from __future__ import annotations

import asyncio
import json

import pytest

from cardroom.drive.scenario import CORE_FIELDS, EXTRA_FIELDS, load_scenario, mismatches, run_scenario
from cardroom.replay import to_scenario
from cardroom.store import GameRecord, Store
from tests.replay.conftest import Stored


def _get(url: str, game_id: str) -> GameRecord:
    async def go() -> GameRecord:
        store = await Store.open(url)
        try:
            return await store.records.get(game_id)
        finally:
            await store.close()

    return asyncio.run(go())


@pytest.mark.parametrize("game_id", ["b1", "k1"])
def test_an_exported_game_runs_as_a_scenario_to_the_same_end(stored: Stored, game_id: str) -> None:
    played = stored.burrito if game_id == "b1" else stored.kittens
    scenario = to_scenario(_get(stored.url, game_id))
    assert set(scenario) <= CORE_FIELDS | EXTRA_FIELDS
    assert scenario["expect"] == played.table.summary()
    assert scenario["until"] == played.end_at
    assert len(scenario["actions"]) == len(played.record.moves)

    assert scenario["seed"] == played.record.seed
    data = load_scenario(json.dumps(scenario))  # through a file's text, as a reader gets it
    result = run_scenario(data)
    assert mismatches(data, result) == []
    assert result.final == played.table.summary()
    assert result.final["winner"] is not None


def test_the_exported_file_names_the_players_and_the_day(stored: Stored) -> None:
    scenario = to_scenario(_get(stored.url, "k1"))
    assert scenario["title"] == "Exploding Kittens: Anna, Bruno and Chiara"
    assert "k1" in scenario["description"] and "Anna, Bruno and Chiara" in scenario["description"]
