"""`cardroom play` as a sighted player sees it in a real terminal (issue 24): seats from 1,
lines wrapped at word boundaries to the terminal's width, the hand kept in a status line at the
bottom; and with `--plain`, or on a pipe, no escape sequence at all."""

from __future__ import annotations

import re
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.clients.pipe import ROOT, Player

WIDTH, HEIGHT = 55, 20  # 55: the welcome line reaches the edge inside "Press"
WELCOME = r"Throw Throw Burrito\. Seats: 1 you, 2 \w+, 3 \w+\. Press \? for the keys\."


class Pane:
    """`cardroom play burrito` in a tmux pane of WIDTH x HEIGHT; what the program writes is
    copied raw to `raw` (tmux pipe-pane), escape sequences included. Each pane has a tmux server
    of its own (-L): on the shared default server, another test's last session closing ended it
    under this one's start ("server exited unexpectedly")."""

    def __init__(self, raw: Path, *flags: str) -> None:
        self.name = f"cardroom-{uuid.uuid4().hex[:8]}"
        self.raw = raw
        play = f"{sys.executable} -m cardroom play burrito --seed 3 --bots 2 {' '.join(flags)}"
        command = f"sleep 0.5; {play}; sleep 30"  # the pause: pipe-pane is on before the first line
        subprocess.run(
            [
                "tmux",
                "-L",
                self.name,
                "new-session",
                "-d",
                "-s",
                self.name,
                "-x",
                str(WIDTH),
                "-y",
                str(HEIGHT),
                "-c",
                str(ROOT),
                command,
            ],
            check=True,
        )
        subprocess.run(
            ["tmux", "-L", self.name, "pipe-pane", "-o", "-t", self.name, f"cat > {raw}"], check=True
        )

    def rows(self) -> list[str]:
        """The visible rows, top to bottom, as the person sees them."""
        screen = subprocess.run(
            ["tmux", "-L", self.name, "capture-pane", "-p", "-t", self.name],
            capture_output=True,
            text=True,
            check=False,
        ).stdout
        return (screen.split("\n") + [""] * HEIGHT)[:HEIGHT]

    def keys(self, keys: str) -> None:
        subprocess.run(["tmux", "-L", self.name, "send-keys", "-t", self.name, "-l", keys], check=True)

    def wait_for(self, text: str, timeout: float = 10.0) -> list[str]:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            rows = self.rows()
            if text in "\n".join(rows):
                return rows
            time.sleep(0.05)
        raise AssertionError(f"{text!r} not on the screen:\n" + "\n".join(self.rows()))

    def close(self) -> None:
        subprocess.run(["tmux", "-L", self.name, "kill-server"], check=False, capture_output=True)


@pytest.fixture
def pane(tmp_path: Path) -> Iterator[Pane]:
    screen = Pane(tmp_path / "raw")
    yield screen
    screen.close()


def test_seats_count_from_1_and_lines_wrap_between_words(pane: Pane) -> None:
    rows = pane.wait_for("Burrito!")
    assert all(len(row) <= WIDTH for row in rows)
    # Joined by spaces, the rows give the sentence back whole: every break fell between words
    # (the terminal's own wrapping would leave "fo r the keys").
    text = " ".join(row.strip() for row in rows if row.strip())
    assert re.search(WELCOME, text), "\n".join(rows)


def test_the_status_line_keeps_the_hand_at_the_bottom(pane: Pane) -> None:
    rows = pane.wait_for("Burrito!")
    assert rows[-1].startswith("Your hand: 1: "), "\n".join(rows)
    first = rows[-1].removeprefix("Your hand: 1: ").split(",")[0]
    pane.keys("?")  # more lines than the screen has rows: they scroll above the status line
    rows = pane.wait_for("? this help, q quit.")
    assert rows[-1].startswith("Your hand: 1: "), "\n".join(rows)
    assert [row for row in rows[:-1] if row][-1] == "? this help, q quit.", "\n".join(rows)
    before = rows[-1]
    pane.keys("1")  # a card passed: the status line shows the hand as it is now
    rows = pane.wait_for("Passed ")
    passed = re.search(r"Passed (.+)\.", "\n".join(rows))
    assert passed is not None and passed.group(1) == first
    # The status line is drawn again just after the line above it (a look between the two sees
    # the old one). Changed, rather than without "1: {first}": a hand with two alike keeps
    # that card first (cc34c: two Nacho Llamas).
    end = time.monotonic() + 10
    while rows[-1] == before and time.monotonic() < end:
        time.sleep(0.05)
        rows = pane.rows()
    assert rows[-1].startswith("Your hand: 1: ") and rows[-1] != before, "\n".join(rows)
    pane.keys("q")
    rows = pane.wait_for("You leave the table. Goodbye!")
    assert not any(row.startswith("Your hand: 1: ") for row in rows[-2:]), (
        "the status line stays after the game"
    )


def test_plain_writes_no_escape_sequence_on_a_terminal(tmp_path: Path) -> None:
    screen = Pane(tmp_path / "raw", "--plain")
    try:
        screen.wait_for("Burrito!")
        screen.keys("h")
        screen.wait_for("Your hand: 1: ")
    finally:
        screen.close()
    raw = (tmp_path / "raw").read_bytes()
    assert b"Burrito!" in raw
    assert b"\x1b" not in raw


def test_a_terminal_gets_the_scroll_region_that_plain_leaves_out(pane: Pane) -> None:
    """The other side of the test above: the raw copy does show escape sequences when there are some."""
    pane.wait_for("Burrito!")
    assert f"\x1b[1;{HEIGHT - 1}r".encode() in (pane.raw).read_bytes()


def test_a_pipe_gets_no_escape_sequence() -> None:
    player = Player("burrito", "--seed", "3", "--bots", "2")
    try:
        player.expect(r"^Burrito!$", timeout=10)
        player.send("h?")
        player.expect(r"^\? this help, q quit\.$")
        player.send("q")
        player.expect(r"^You leave the table\. Goodbye!$")
    finally:
        player.close()
    assert not [line for line in player.lines if "\x1b" in line]
    assert re.search(WELCOME, player.lines[0])
