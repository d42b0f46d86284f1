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

from cardroom.bots import make_bot
from cardroom.clients.terminal.burrito import make_ui
from cardroom.clients.terminal.session import Session
from cardroom.games.burrito import GAME, Call, Grab, Throw
from cardroom.games.burrito.options import Options
from cardroom.narrate.narrator import Narrator
from tests.clients.pipe import ROOT, Player
from tests.server.live import LiveServer, run_server

DEFAULTS = Options()
BEL = "\a"
BELL_OFF = r"^Bell off: Ctrl\+G turns it on again\.$"
needs_tmux = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed (CI installs it)")


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    with run_server() as live:
        yield live


DEALS = Path(__file__).with_name("deals")
"""The tables of these tests, set up by scenario files (`cardroom play --deal`): a new card in
the game's deck re-deals no seed under them (issue 25)."""


def play_kittens(verbosity: str) -> list[str]:
    """`cardroom play kittens` on a pipe, dealt by kittens_pair_against_you.json (two quick
    bots): the lines until Marco, after our draw, plays a pair against us."""
    player = Player(
        "kittens", "--deal", str(DEALS / "kittens_pair_against_you.json"), "--verbosity", verbosity
    )
    try:
        # The first line waits for the program to start too (several seconds on a busy machine).
        player.expect(r"^Your turn\.$", timeout=30)
        player.send("d")
        player.expect(r"^You drew a Skip\.$")
        player.expect(r"^Marco: a Black Cat pair against you\.$")
        player.send("q")
        player.expect(r"^You leave the table\. Goodbye!$")
    finally:
        player.close()
    return player.lines


def test_brief_says_what_needs_your_answer_or_concerns_you_and_verbose_says_all() -> None:
    """--verbosity brief (cardroom/narrate/speech.py): others' turns are not said; an explosion
    (a milestone), your turn, your draw and a card played against you are; verbose says
    every line; normal says what brief says and, every 30 s of play, a summary of the rest,
    which this short game never reaches."""
    verbose = play_kittens("verbose")
    brief = play_kittens("brief")
    assert "Marco's turn." in verbose and "Marco's turn." not in brief
    assert "BOOM! Chloé is out." in brief
    for line in ("Your turn.", "You drew a Skip.", "Marco: a Black Cat pair against you."):
        assert line in brief and line in verbose
    assert play_kittens("normal") == brief


def play_burrito(verbosity: str, seconds: int) -> tuple[Session, io.StringIO]:
    """`cardroom play burrito` with three normal bots, `seconds` of play on a clock of its own,
    nobody at our seat pressing a key."""
    table = GAME.new_table(4, {}, 7)
    names = ["You", "Anna", "Marco", "Sanne"]
    bots = {s: make_bot("burrito", s, "normal", 7_000 + s, True, {}) for s in (1, 2, 3)}
    clock = [0]
    out = io.StringIO()
    session = Session(
        table, 0, make_ui(0, names, table), bots, out, lambda: clock[0],
        narrator=Narrator("burrito"), names=names, verbosity=verbosity,
    )  # fmt: skip
    while clock[0] < seconds * 1000 and not table.over:
        clock[0] += 250
        session.catch_up()
    return session, out


BACKGROUND_LINE = re.compile(r"^(Anna|Marco|Sanne) (draws|passes a card to)", re.MULTILINE)
SUMMARY_LINE = re.compile(r"^Meanwhile: .*(\d+ pass(es)? to you|scored \d+ sets?).*\.$", re.MULTILINE)
"""Burrito's summary: the passes to you and the sets others scored (their draws are left out)."""
RECAP = r"^(Meanwhile: .*|Nothing else happened since you last asked\.)$"


def test_cardroom_play_says_the_background_as_the_server_would_at_each_verbosity() -> None:
    """cardroom/narrate/speech.py: in `cardroom play` too, normal folds the bots' passes and sets
    into a summary every 60 s of play (one due while you fight or a countdown runs waits for
    play: here the one due at 60 s comes after the fight that runs then), brief says none of
    it, verbose every line; R (the recap key) tells what happened since you last asked, at
    every verbosity."""
    said = {}
    for verbosity in ("brief", "normal", "verbose"):
        session, out = play_burrito(verbosity, 90)
        said[verbosity] = out.getvalue()
        session.key("r")
        said[verbosity + " recap"] = out.getvalue()[len(said[verbosity]) :]
        session.key("r")
        said[verbosity + " again"] = out.getvalue()[len(said[verbosity]) + len(said[verbosity + " recap"]) :]
    assert BACKGROUND_LINE.search(said["verbose"]) and not SUMMARY_LINE.search(said["verbose"])
    assert SUMMARY_LINE.search(said["normal"]) and not BACKGROUND_LINE.search(said["normal"])
    assert not SUMMARY_LINE.search(said["brief"]) and not BACKGROUND_LINE.search(said["brief"])
    for verbosity in ("brief", "normal", "verbose"):
        assert SUMMARY_LINE.fullmatch(said[verbosity + " recap"].strip()), said[verbosity + " recap"]
        assert said[verbosity + " again"] == "Nothing else happened since you last asked.\n"


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
    clock[0] = 200 + DEFAULTS.flight_ms - DEFAULTS.catch_window_ms + 10  # the catch window is open
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
        self.tmux("set-option", "-g", "history-limit", "50000")
        # The pane stays when its command ends, with its last words ("Goodbye!"): a busy test
        # read the screen after the client had quit and found the pane, and its text, gone.
        self.tmux("set-option", "-g", "remain-on-exit", "on")

    def tmux(self, *args: str) -> str:
        return subprocess.run(
            ["tmux", "-S", str(self.socket), *args], capture_output=True, text=True, check=False
        ).stdout

    def screen(self) -> str:
        """Everything the pane showed (its whole history), wrapped lines joined."""
        return self.tmux("capture-pane", "-p", "-J", "-t", "s", "-S", "-")

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
    term = Tmux(f"{sys.executable} -m cardroom play kittens --deal {DEALS / 'kittens_your_turn.json'}")
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
        # "Your turn." may share its line with what made it yours: "Marco defuses it. Your turn."
        next_call = r"(^|[.!] )(Your turn|DEFUSE NOW!|Game over|.* asks you for |.* against you)"
        assert term.bells_by(next_call, count=2) == 1, "the bell is off"
        term.keys("q")
        term.wait_for(r"You leave the table\. Goodbye!")
    finally:
        term.close()


@needs_tmux
def test_cardroom_connect_says_what_the_page_says_at_each_verbosity(server: LiveServer) -> None:
    """cardroom/narrate/speech.py, in a real terminal: three players, each at a burrito table of
    their own with three normal bots, at the three verbosities. Verbose reads the bots' draws
    and passes as they come; normal none of them, but the server's summary once 30 s of play
    have gone by; brief neither. R, and the typed command recap, tell what happened since you
    last asked, at every verbosity."""
    terms = {
        v: Tmux(f"{sys.executable} -m cardroom connect {server.ws_url} --name {v.title()} --verbosity {v}")
        for v in ("brief", "normal", "verbose")
    }
    try:
        for term in terms.values():
            term.wait_for(r"Type help for the commands\.")
            term.keys("create burrito 4 --bots 3", "Enter")
            term.wait_for(r"^Bot \w+ \(normal\) sits at seat 4\.$")
            term.keys("start", "Enter")
        for term in terms.values():
            term.wait_for(r"^Game keys on: ")
        terms["normal"].wait_for(SUMMARY_LINE.pattern, timeout=120)
        terms["verbose"].wait_for(BACKGROUND_LINE.pattern)
        screens = {v: term.screen() for v, term in terms.items()}
        assert not SUMMARY_LINE.search(screens["verbose"])
        assert not BACKGROUND_LINE.search(screens["normal"])
        assert not SUMMARY_LINE.search(screens["brief"]) and not BACKGROUND_LINE.search(screens["brief"])
        # A recap says what was folded since you last asked, or that nothing was (in a fight
        # nobody passes): each press gets one answer.
        for term in terms.values():
            before = len(re.findall(RECAP, term.screen(), re.MULTILINE))
            term.keys("r")
            term.wait_for(RECAP, count=before + 1, timeout=30)
        brief = terms["brief"]
        before = len(re.findall(RECAP, brief.screen(), re.MULTILINE))
        brief.keys("/")
        brief.wait_for(r"^Command: type it")
        brief.keys("recap", "Enter")
        brief.wait_for(RECAP, count=before + 1, timeout=30)
        for term in terms.values():
            term.keys("q")
            term.wait_for(r"You leave the table\. Goodbye!")
    finally:
        for term in terms.values():
            term.close()
