"""`cardroom replay` as a user runs it: a stored game printed line by line, one seat's eyes,
a scenario file out, and one clear line with exit status 2 for whatever cannot be replayed."""

from __future__ import annotations

import json
import os
import re
import sqlite3
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest

from cardroom.i18n import _, use_language
from cardroom.replay import Frame, frames
from cardroom.replay.terminal import play_frames
from tests.replay.conftest import NAMES, Stored

STAMP = re.compile(r"^\[\d+:\d\d\.\d\] ")


def cardroom(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "cardroom", *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env={**os.environ, "LANGUAGE": "en", **(env or {})},
    )


def dump(path: Path) -> list[str]:
    """Everything in the database, as SQL: equal before and after means nothing was written."""
    with sqlite3.connect(path) as conn:
        return list(conn.iterdump())


def test_a_whole_game_prints_line_by_line_after_a_header(stored: Stored) -> None:
    done = cardroom("replay", "b1", "--db", stored.url)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    lines = done.stdout.splitlines()
    assert lines[0].startswith("Throw Throw Burrito, game b1, played on ")
    places = {line.split(",")[0]: line for line in lines[1:5]}
    assert list(places) == [f"Seat {i}: {name}" for i, name in enumerate(NAMES)]
    assert all("place " in line for line in places.values())
    winner = NAMES[stored.burrito.table.winner]
    assert f"Winner: {winner}." in lines
    assert "Every card is shown: the game is over." in lines
    assert lines[-1] == "End of the replay."

    played = [line for line in lines if STAMP.match(line)]
    shots = frames(stored.burrito.record, None, NAMES, "en", everything=True, end_at=stored.burrito.end_at)
    assert [STAMP.sub("", line) for line in played] == [text for shot in shots for text in shot["texts"]]
    times = [line.split("]")[0] for line in played]
    assert times[0] == "[0:00.0"
    assert f"Game over: {winner} wins the game." in played[-1]


def test_one_seat_sees_its_own_cards_and_no_one_elses(stored: Stored) -> None:
    everything = cardroom("replay", "b1", "--db", stored.url, "--all").stdout.splitlines()
    dealt = {
        name: STAMP.sub("", line).removeprefix(f"To {name}: ")
        for line in everything
        for name in NAMES
        if STAMP.sub("", line).startswith(f"To {name}: Your hand")
    }
    assert set(dealt) == set(NAMES) and len(set(dealt.values())) == 4

    done = cardroom("replay", "b1", "--db", stored.url, "--seat", "1")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert "As Bruno saw it: only their own cards are shown." in lines
    said = [STAMP.sub("", line) for line in lines if STAMP.match(line)]
    assert dealt["Bruno"] in said
    for other in ("Anna", "Chiara", "Dario"):
        assert dealt[other] not in said
    assert not [line for line in said if line.startswith(tuple(f"To {n}:" for n in NAMES))]
    assert len(said) < len([line for line in everything if STAMP.match(line)])


def test_an_unknown_game_is_one_clear_line_exit_2_and_changes_nothing(stored: Stored) -> None:
    before = dump(stored.path)
    done = cardroom("replay", "no-such-game", "--db", stored.url)
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.splitlines() == ["cardroom: There is no game record no-such-game."]
    assert dump(stored.path) == before


@pytest.mark.parametrize("seat", ["4", "-1"])
def test_a_seat_that_was_not_at_the_table_is_refused(stored: Stored, seat: str) -> None:
    done = cardroom("replay", "b1", "--db", stored.url, "--seat", seat)
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.splitlines() == [
        f"cardroom: There is no seat {seat} in game b1: the seats are 0 to 3."
    ]


def test_a_seat_that_is_not_a_number_is_refused(stored: Stored) -> None:
    done = cardroom("replay", "b1", "--db", stored.url, "--seat", "Anna")
    assert done.returncode == 2
    assert done.stdout == ""


def test_a_database_that_is_not_there_is_refused_and_not_created(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere" / "x.sqlite3"
    done = cardroom("replay", "b1", "--db", f"sqlite:///{missing}")
    assert done.returncode == 2
    assert done.stderr.splitlines() == [f"cardroom: There is no database at {missing}."]
    assert not missing.parent.exists()


@pytest.mark.parametrize(
    "url", ["nonsense://somewhere", "postgresql://cardroom:s3cret@127.0.0.1:9/cardroom", "not a url"]
)
def test_a_database_that_cannot_be_used_is_one_line_without_its_password(url: str) -> None:
    done = cardroom("replay", "b1", "--db", url)
    assert done.returncode == 2
    assert done.stdout == ""
    assert len(done.stderr.splitlines()) == 1
    assert done.stderr.startswith("cardroom: Cannot ")
    assert "s3cret" not in done.stderr


@pytest.mark.parametrize("game_id", ["live1", "gone1"])
@pytest.mark.parametrize("extra", [[], ["--seat", "0"], ["--export", "-"]])
def test_a_game_that_is_not_over_is_refused(stored: Stored, game_id: str, extra: list[str]) -> None:
    done = cardroom("replay", game_id, "--db", stored.url, *extra)
    assert done.returncode == 2
    assert done.stdout == ""
    [line] = done.stderr.splitlines()
    assert line.startswith(f"cardroom: Game {game_id} ")
    assert line.endswith("its hidden cards stay hidden.")


@pytest.mark.parametrize("game_id", ["b1", "k1"])
def test_an_exported_game_runs_with_cardroom_scenario(stored: Stored, game_id: str, tmp_path: Path) -> None:
    path = tmp_path / f"{game_id}.json"
    done = cardroom("replay", game_id, "--db", stored.url, "--export", str(path))
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"The scenario of game {game_id} is in {path}."
    scenario = json.loads(path.read_text(encoding="utf-8"))

    run = cardroom("scenario", str(path))
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout.splitlines()[-1]) == {"final": scenario["expect"]}

    to_stdout = cardroom("replay", game_id, "--db", stored.url, "--export", "-")
    assert to_stdout.returncode == 0
    assert json.loads(to_stdout.stdout) == scenario


def test_the_replay_speaks_the_chosen_language(stored: Stored) -> None:
    done = cardroom("replay", "k1", "--db", stored.url, "--lang", "it")
    assert done.returncode == 0, done.stderr
    with use_language("it"):
        assert done.stdout.splitlines()[-1] == _("End of the replay.")
        assert _("End of the replay.") != "End of the replay."


def test_speed_waits_out_the_play_time_faster() -> None:
    shots: list[Frame] = [
        {"i": 0, "at": 0, "texts": ["a"], "events": [{}], "view": {}},
        {"i": 1, "at": 2_000, "texts": [], "events": [{}], "view": {}},
        {"i": 2, "at": 4_000, "texts": ["b", "c"], "events": [{}], "view": {}},
        {"i": 3, "at": 12_400, "texts": ["d"], "events": [{}], "view": {}},
    ]
    waits: list[float] = []
    out = StringIO()
    play_frames(shots, out, 4, waits.append)
    assert waits == [1.0, 2.1]
    assert out.getvalue().splitlines() == ["[0:00.0] a", "[0:04.0] b", "[0:04.0] c", "[0:12.4] d"]
    at_once: list[float] = []
    play_frames(shots, StringIO(), 0, at_once.append)
    assert at_once == []


@pytest.mark.parametrize("speed", ["-1", "fast", "nan"])
def test_a_speed_that_is_not_a_pace_is_refused(stored: Stored, speed: str) -> None:
    done = cardroom("replay", "b1", "--db", stored.url, "--speed", speed)
    assert done.returncode == 2
    assert done.stdout == ""
