"""What the terminal says and when it rings, in `cardroom play` and `cardroom connect` alike:
`--verbosity brief|normal|verbose` and the terminal bell (clients/terminal/speaker.py)."""

from __future__ import annotations

import io
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from cardroom.clients.terminal.burrito import make_ui
from cardroom.clients.terminal.session import Session
from cardroom.games.burrito import GAME, Call, Grab, Throw
from tests.clients.pipe import ROOT, Player
from tests.server.live import LiveServer, run_server

BEL = "\a"
BELL_OFF = r"^Bell off: Ctrl\+G turns it on again\.$"
needs_tmux = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed (CI installs it)")


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    with run_server() as live:
        yield live


def play_kittens(verbosity: str) -> list[str]:
    """`cardroom play kittens` (seed 1, two quick bots) on a pipe: the lines until Marco, after our
    draw, plays a pair against us."""
    player = Player(
        "kittens", "--seed", "1", "--bots", "2", "--set", "bot_think_ms=0", "--verbosity", verbosity
    )
    try:
        player.expect(r"^Your turn\.$")
        player.send("d")
        player.expect(r"^You drew ")
        player.expect(r"^Marco: an? .* pair against you\.$")
        player.send("q")
        player.expect(r"^You leave the table\. Goodbye!$")
    finally:
        player.close()
    return player.lines


def test_brief_says_what_needs_your_answer_or_concerns_you_and_verbose_says_all() -> None:
    """--verbosity brief (cardroom/narrate/speech.py): others' turns are not said; the game's
    start (a milestone), your turn, your draw and a card played against you are; verbose and
    normal say every line (the terminal has no background summaries yet)."""
    verbose = play_kittens("verbose")
    brief = play_kittens("brief")
    assert "Marco's turn." in verbose and "Marco's turn." not in brief
    assert any(line.startswith("The deck: ") for line in brief)
    for line in ("Your turn.", *[x for x in verbose if x.startswith("You drew ") or "pair against you" in x]):
        assert line in brief
    assert play_kittens("normal") == verbose


def test_the_bell_rings_at_the_catch_window_of_a_burrito_thrown_at_you() -> None:
    """The catch window is the moment to act: the bell comes just before CATCH NOW!, not at the throw."""
    deal = {"hands": [["goth_sloth"], [], ["brawl_a"] * 3], "piles": [["war"], ["war"], ["war"]]}
    table = GAME.from_deal(3, {}, deal, 1)
    clock = [0]
    out = io.StringIO()
    session = Session(table, 0, make_ui(0, ["You", "Anna", "Marco"], table), {}, out, lambda: clock[0])
    session.speaker.bell = True  # as in a terminal
    session.catch_up()
    session.driver.submit(2, Call("brawl", "brawl_a"), 0)
    session.driver.submit(1, Grab(), 100)
    session.driver.submit(1, Throw(0), 200)
    assert BEL not in out.getvalue()
    clock[0] = 710
    session.catch_up()
    assert out.getvalue().endswith(BEL + "CATCH NOW! Anna's burrito.\n")
    session.key("ctrl+g")
    assert out.getvalue().endswith("Bell off: Ctrl+G turns it on again.\n")


class Tmux:
    """A command in a tmux pane of its own tmux server: a real terminal, whose bells tmux counts
    (its alert-bell hook writes one line per bell)."""

    def __init__(self, command: str) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="cardroom-bell-"))
        self.socket = self.folder / "tmux"
        self.bells = self.folder / "bells"
        self.bells.touch()
        self.tmux("-f", "/dev/null", "new-session", "-d", "-s", "s", "-x", "200", "-y", "50", "-c", str(ROOT),
                  f"sleep 0.5; exec {command}")  # fmt: skip
        self.tmux("set-hook", "-g", "alert-bell", f"run-shell 'echo bell >> {self.bells}'")

    def tmux(self, *args: str) -> str:
        return subprocess.run(
            ["tmux", "-S", str(self.socket), *args], capture_output=True, text=True, check=False
        ).stdout

    def screen(self) -> str:
        return self.tmux("capture-pane", "-p", "-t", "s", "-S", "-300")

    def rung(self) -> int:
        return len(self.bells.read_text().splitlines())

    def wait_for(self, pattern: str, count: int = 1, timeout: float = 15.0) -> None:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if len(re.findall(pattern, self.screen(), re.MULTILINE)) >= count:
                return
            time.sleep(0.05)
        raise AssertionError(f"{pattern!r} ({count}) not on the screen:\n{self.screen()}")

    def bells_by(self, pattern: str, count: int = 1) -> int:
        """The bells rung once `pattern` is on the screen `count` times (and a moment more)."""
        self.wait_for(pattern, count)
        time.sleep(0.3)
        return self.rung()

    def ctrl_g(self, answer: str) -> None:
        self.keys("C-g")
        self.wait_for(answer)

    def keys(self, *keys: str) -> None:
        self.tmux("send-keys", "-t", "s", *keys)

    def close(self) -> None:
        self.tmux("kill-server")
        shutil.rmtree(self.folder, ignore_errors=True)


@needs_tmux
def test_the_bell_rings_at_your_turn_in_a_real_terminal_and_ctrl_g_turns_it_off() -> None:
    """cardroom play, in tmux: one bell when your turn comes; none after Ctrl+G; again after Ctrl+G."""
    term = Tmux(f"{sys.executable} -m cardroom play kittens --seed 3 --bots 1 --set bot_think_ms=0")
    try:
        assert term.bells_by(r"^Your turn\.$") == 1
        term.ctrl_g(BELL_OFF)
        term.keys("d")
        assert term.bells_by(r"^Your turn\.$", count=2) == 1, "the bell is off"
        term.ctrl_g(r"^Bell on\.$")
        term.keys("d")
        assert term.bells_by(r"^Your turn\.$", count=3) == 2
        term.keys("q")
        term.wait_for(r"^You leave the table\. Goodbye!$")
    finally:
        term.close()


@needs_tmux
def test_cardroom_connect_rings_at_your_turn_in_a_real_terminal(server: LiveServer) -> None:
    """cardroom connect, in tmux: the same bell at your turn, and Ctrl+G silences it."""
    term = Tmux(f"{sys.executable} -m cardroom connect {server.ws_url} --name Bel")
    try:
        term.wait_for(r"Type help for the commands\.")
        term.keys("create kittens 2 --bots 1 --set bot_think_ms=0 --set turn_ms=60000", "Enter")
        term.wait_for(r"^Bot \w+ \(normal\) sits at seat 2\.$")
        assert term.rung() == 0
        term.keys("start", "Enter")
        assert term.bells_by(r"^Your turn\.$") == 1
        term.ctrl_g(BELL_OFF)
        term.keys("d")
        next_call = r"^(Your turn|DEFUSE NOW!|Game over|.* asks you for |.* against you)"
        assert term.bells_by(next_call, count=2) == 1, "the bell is off"
        term.keys("q")
        term.wait_for(r"You leave the table\. Goodbye!")
    finally:
        term.close()
