"""`cardroom tournament` (issue 16): every level against every other in balanced seatings,
ratings and win rates with intervals, a chart, reproducible from its seed on any number of cores."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from cardroom.drive.tournament import seatings, tournament, wilson


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("levels", [["easy", "hard"], ["random", "normal", "hard"]])
def test_seatings_give_each_level_every_seat_equally_often(players: int, levels: list[str]) -> None:
    plan = seatings(levels, players)
    for a in levels:
        for b in levels:
            if a == b:
                continue
            meeting = [s for s in plan if set(s) == {a, b}]
            assert meeting, f"{a} never meets {b}"
            seats = Counter((seat, level) for s in meeting for seat, level in enumerate(s))
            assert len({seats[(seat, a)] for seat in range(players)}) == 1, "a's seats are uneven"
            assert sum(seats[(seat, a)] for seat in range(players)) == sum(
                seats[(seat, b)] for seat in range(players)
            ), "one level holds more seats than the other"


def test_the_stronger_level_is_rated_first_with_a_win_rate_above_even() -> None:
    result = tournament("kittens", ["random", "hard"], players=2, games=60, seed=5)

    first, second = result.standings
    assert first.level == "hard" and second.level == "random"
    assert wilson(first.wins, first.games)[0] > 0.5
    assert first.games == second.games == 60


def test_the_same_seed_gives_the_same_tournament_on_any_number_of_processes() -> None:
    one = tournament("burrito", ["easy", "hard"], players=3, games=12, seed=9, jobs=1).to_json()
    two = tournament("burrito", ["easy", "hard"], players=3, games=12, seed=9, jobs=2).to_json()
    other = tournament("burrito", ["easy", "hard"], players=3, games=12, seed=10, jobs=1).to_json()

    for data in (one, two, other):
        data.pop("seconds")
    assert one == two
    assert one != other


def cardroom(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "cardroom", *args], capture_output=True, text=True, cwd=cwd, timeout=300
    )


def test_the_command_prints_the_table_writes_the_chart_and_ends_with_json(tmp_path: Path) -> None:
    done = cardroom(
        "tournament", "kittens", "--levels", "random,normal,hard", "--players", "3", "--games", "30",
        "--jobs", "2", "--chart", "out/chart.svg", "--json", cwd=tmp_path,
    )  # fmt: skip

    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout.strip().splitlines()[-1])
    assert data["games"] == 30 and [s["level"] for s in data["standings"]][-1] == "random"
    for level in ("random", "normal", "hard"):
        assert any(line.startswith(level) for line in done.stdout.splitlines())
    chart = (tmp_path / "out" / "chart.svg").read_text()
    assert "<svg" in chart and "kittens: 30 games, 3 players, seed 1" in chart
    for level in ("random", "normal", "hard"):
        assert f">{level}<" in chart, f"{level} is not named on the chart"


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--levels", "hard"], "at least two different levels"),
        (["--levels", "hard,hard"], "at least two different levels"),
        (["--levels", "hard,wizard"], "unknown bot level 'wizard'"),
        (["--levels", "easy,hard", "--players", "11"], "played by 2 to 10 players"),
        (["--levels", "easy,hard", "--chart", "chart.txt"], ".svg or .png"),
    ],
)
def test_bad_settings_get_one_line_and_exit_2(tmp_path: Path, args: list[str], says: str) -> None:
    done = cardroom("tournament", "kittens", "--games", "2", *args, cwd=tmp_path)

    assert done.returncode == 2
    assert says in done.stderr and len(done.stderr.strip().splitlines()) == 1
    assert not list(tmp_path.iterdir()), "a refused tournament wrote nothing"
