"""The `cardroom` command as a user runs it: exit statuses, one-line errors, JSON output."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from cardroom.games.burrito.cards import DECK_SIZE


def cardroom(*args: str, stdin: str | None = None, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "cardroom", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


@pytest.mark.parametrize("game", ["burrito", "kittens"])
def test_scenario_prints_one_json_line_per_event_then_the_final_line(game: str, tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    path.write_text(json.dumps({"game": game, "players": 3, "seed": 5, "until": 20_000}))
    done = cardroom("scenario", str(path))
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    assert lines, "no output"
    assert all("event" in line for line in lines[:-1])
    assert set(lines[-1]) == {"final"}
    assert lines[-1]["final"]["winner"] is None


def test_scenario_reads_standard_input_with_a_dash() -> None:
    done = cardroom("scenario", "-", stdin=json.dumps({"game": "burrito", "players": 2, "seed": 1}))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.splitlines()[-1])["final"]["phase"] == "countdown"


@pytest.mark.parametrize(
    "content",
    [
        "{not json",
        json.dumps({"game": "burrito", "players": 3, "deal": {"hands": [["no_such_card"], [], []]}}),
        json.dumps({"game": "kittens", "players": 2, "actions": [{"at": 0, "player": 5, "do": "draw"}]}),
    ],
)
def test_an_invalid_scenario_exits_2_with_one_line_on_stderr(content: str, tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content)
    done = cardroom("scenario", str(path))
    assert done.returncode == 2
    assert done.stdout == ""
    assert len(done.stderr.strip().splitlines()) == 1
    assert done.stderr.startswith("cardroom: invalid scenario")


def test_a_missing_scenario_file_exits_2() -> None:
    done = cardroom("scenario", "/nonexistent/file.json")
    assert done.returncode == 2
    assert "cannot read" in done.stderr


@pytest.mark.parametrize(("game", "players"), [("burrito", 3), ("kittens", 4)])
def test_simulate_json_last_line_counts_every_game_once(game: str, players: int) -> None:
    done = cardroom("simulate", game, "--players", str(players), "--games", "5", "--seed", "3", "--json")
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout.splitlines()[-1])
    assert summary["games"] == 5
    assert len(summary["wins"]) == players
    assert sum(summary["wins"]) == 5
    assert summary["actions"] > 0
    assert summary["seconds"] > 0
    assert "[#" not in done.stderr, "no progress bar when stderr is not a terminal"


def test_simulate_refuses_an_unknown_bot_level() -> None:
    done = cardroom("simulate", "burrito", "--players", "3", "--games", "1", "--level", "godlike")
    assert done.returncode == 2
    assert "unknown bot level 'godlike'" in done.stderr


def test_seven_players_simulate_and_play_a_scenario_without_naming_two_decks() -> None:
    """docs/rules/burrito.md#two-decks-by-themselves: 7 to 12 players use two decks by themselves."""
    done = cardroom("simulate", "burrito", "--players", "7", "--games", "2", "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.splitlines()[-1])["games"] == 2
    scenario = {"game": "burrito", "players": 7, "seed": 3, "until": 3000}
    done = cardroom("scenario", "-", stdin=json.dumps(scenario))
    assert done.returncode == 0, done.stderr
    final = json.loads(done.stdout.splitlines()[-1])["final"]
    dealt = [card for group in ("hands", "piles", "community") for cards in final[group] for card in cards]
    assert len(dealt) == 2 * DECK_SIZE and final["phase"] == "play" and final["bruises_left"] == 12


@pytest.mark.parametrize("command", ["simulate", "play"])
def test_a_burrito_table_of_13_is_refused_with_one_line(command: str) -> None:
    """docs/rules/burrito.md#table-and-cards: 13 or more players are refused, whatever the variant."""
    if command == "simulate":
        args = ["simulate", "burrito", "--players", "13", "--games", "1", "--variant", "two_decks"]
    else:
        args = ["play", "burrito", "--bots", "12"]
    done = cardroom(*args, stdin="")
    assert done.returncode == 2
    assert done.stderr.splitlines() == [done.stderr.strip()] and "2 to 12 players" in done.stderr


def test_the_example_of_the_scenario_format_runs_as_written() -> None:
    """docs/scenarios.md's first example, exactly: an empty deal, a refused draw, timers to 20 s."""
    example = {
        "game": "burrito",
        "players": 3,
        "options": {"variants": ["small_room"], "flight_ms": 800},
        "seed": 7,
        "deal": {},
        "actions": [{"at": 0, "player": 0, "do": "draw"}],
        "until": 20000,
    }
    done = cardroom("scenario", "-", stdin=json.dumps(example))
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    assert lines[0]["event"] == "rejected" and lines[0]["player"] == 0 and lines[0]["do"] == "draw"
    assert lines[-1]["final"]["hands"] == [[], [], []]


@pytest.mark.parametrize(
    ("content", "says"),
    [
        ("{not json", "invalid scenario"),
        (
            json.dumps({"game": "kittens", "players": 2, "deal": {"hands": [["no_such_card"], []]}}),
            "invalid scenario",
        ),
        (
            json.dumps({"game": "burrito", "players": 3}),
            "sets up a burrito table: play it with `cardroom play burrito`",
        ),
        (None, "cannot read"),
    ],
)
def test_play_with_a_deal_that_is_no_kittens_table_is_refused_with_one_line(
    content: str | None, says: str, tmp_path: Path
) -> None:
    """`cardroom play kittens --deal FILE` (docs/scenarios.md): a file that cannot be read, is no
    scenario, or sets up the other game starts nothing and says why in one line."""
    path = tmp_path / "deal.json"
    if content is not None:
        path.write_text(content)
    done = cardroom("play", "kittens", "--deal", str(path), stdin="")
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.splitlines() == [done.stderr.strip()] and says in done.stderr


def test_play_with_a_deal_plays_the_scenario_table_with_its_players() -> None:
    """The table is the file's: its players (two bots for three seats, whatever --bots says), its
    deal (the hand as the file gives it) and its options; no seed line, the file is the deal."""
    deal = Path(__file__).parent / "clients" / "deals" / "kittens_on_a_pipe.json"
    done = cardroom("play", "kittens", "--deal", str(deal), "--bots", "5", "--plain", stdin="")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("Exploding Kittens. Seats: 1 you, 2 ") and ", 4 " not in lines[0]
    assert lines[1] == (
        "Your hand, 8 cards: 1 Defuse, 2 See the Future, 3 Feral Cat, 4 Skip, 5 Attack, 6 Favor, "
        "7 Tabby Cat, 8 White Cat."
    )
    assert not any(line.startswith("Seed ") for line in lines)
