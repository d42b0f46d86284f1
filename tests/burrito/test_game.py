"""The game definition, whole games with bots, and the rules page the tests link to."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cardroom.bots import levels, make_bot
from cardroom.drive.virtual import VirtualDriver
from cardroom.games import find_game
from cardroom.games.burrito import GAME
from cardroom.protocol import InvalidSetup

DOCS = Path(__file__).resolve().parents[2] / "docs" / "rules" / "burrito.md"


def test_the_game_is_found_by_name_and_describes_itself() -> None:
    """DIGITAL.md: 2 to 12 players; bots at three levels."""
    game = find_game("burrito")
    assert game is GAME
    assert (GAME.name, GAME.min_players, GAME.max_players) == ("burrito", 2, 12)
    assert levels("burrito") == ("easy", "normal", "hard")


def test_an_unknown_bot_level_is_refused() -> None:
    """DIGITAL.md: bots play at a level: easy, normal or hard."""
    with pytest.raises(InvalidSetup, match="unknown bot level"):
        make_bot("burrito", 0, "godlike", 1)


@pytest.mark.parametrize(("players", "variants"), [(2, []), (4, ["small_room"]), (8, ["two_decks"])])
def test_bots_play_a_whole_game_to_its_winner(players: int, variants: list[str]) -> None:
    """000: the game is played in 2 rounds and has one winner; stats count its fights."""
    table = GAME.new_table(players, {"variants": variants}, seed=players)
    bots = {seat: make_bot("burrito", seat, "normal", seat + 100) for seat in range(players)}
    VirtualDriver(table, bots, GAME.action_json).run(limit_ms=3_600_000)
    assert table.over and table.winner is not None
    stats = GAME.stats(table)
    assert stats["rounds"] >= 2 and stats["mean_scores"] == table.scores()
    assert set(stats["fights"]) == {"brawl", "war", "duel"}
    assert table.summary()["phase"] == "game_over" and table.summary()["badge"] == table.winner


def test_every_reading_a_test_links_to_is_written_down() -> None:
    """README (rules): a rule the project reads its own way is written down with its reason."""
    headings = {
        re.sub(r"[^a-z0-9 -]", "", line.lstrip("#").strip().lower()).replace(" ", "-")
        for line in DOCS.read_text(encoding="utf-8").splitlines()
        if line.startswith("#")
    }
    cited: set[str] = set()
    for path in Path(__file__).parent.glob("*.py"):
        cited.update(re.findall(r"docs/rules/burrito\.md#([a-z0-9-]+)", path.read_text(encoding="utf-8")))
    for path in (Path(__file__).parent / "scenarios").glob("*.json"):
        cited.update(re.findall(r"docs/rules/burrito\.md#([a-z0-9-]+)", path.read_text(encoding="utf-8")))
    assert cited and cited <= headings, sorted(cited - headings)


def test_places_follow_the_scores_with_the_winner_first() -> None:
    """docs/rules/burrito.md#places: the winner first, then by score, equal scores sharing."""
    from cardroom.games.burrito.game import _places

    assert _places([5, 9, 5, 2], winner=1) == [2, 1, 2, 4]
    assert _places([7, 7, 3], winner=1) == [2, 1, 3]  # the tie-break decided between 0 and 1
