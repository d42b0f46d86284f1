"""Issue 23 in `cardroom connect`: `rematch` is a vote, and every player reads who is ready and
whom the table waits for; `play GAME` is the page's Play now."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from tests.clients.test_connect import Terminal, open_terminal
from tests.clients.test_connect import terminals as terminals  # the fixture
from tests.server.live import LiveServer, run_server

QUICK = (
    "--set turn_ms=300 --set defuse_ms=300 --set choose_ms=300 --set nope_window_ms=100 --set bot_think_ms=0"
)


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    with run_server() as live:
        yield live


def test_rematch_says_who_is_ready_and_starts_when_both_are(
    server: LiveServer, terminals: list[Terminal]
) -> None:
    tara = open_terminal(terminals, server.ws_url, "Tara")
    tara.type(f"create kittens 2 {QUICK}\n")
    tara.expect(r"You sit at table \d+ \(kittens\), seat 1")
    wim = open_terminal(terminals, server.ws_url, "Wim")
    listed = wim.expect(r"Table (\d+): kittens, 1 of 2 seats taken.*host Tara")
    number = re.match(r"Table (\d+)", listed)
    assert number is not None
    wim.type(f"join {number.group(1)}\n")
    tara.expect(r"^Wim sits at seat 2\.$")
    tara.type("start\n")
    for term in (tara, wim):
        term.expect(r"^The game is over\. Type rematch to play again, or leave\.$", timeout=120)
    wim.type("rematch\n")
    for term in (tara, wim):
        term.expect(r"^Ready for a rematch: Wim\. Waiting for Tara\.$")
    assert not any(line.startswith("Game keys on: ") for line in tara.new_lines(0.5))  # no game yet
    wim.type("rematch now\n")
    wim.expect(r"^rematch says you are ready; rematch off takes it back\.$")
    tara.type("rematch\n")
    for term in (tara, wim):
        term.expect(r"^Game keys on: ")
    tara.type("quit\n")
    wim.type("quit\n")
    assert tara.finish() == 0 and wim.finish() == 0


def test_play_now_seats_a_terminal_player(server: LiveServer, terminals: list[Terminal]) -> None:
    pia = open_terminal(terminals, server.ws_url, "Pia")
    pia.type("play burrito\n")
    pia.expect(r"You sit at table \d+ \(burrito\), seat 1")
    pia.expect(r"^The game starts by itself in \d+ seconds; bots take the seats nobody takes\.$")
    pia.type("play chess\n")
    pia.expect(r"^Play which game\? play burrito or kittens\.$")
    pia.type("quit\n")
    assert pia.finish() == 0
