"""`cardroom connect` against a real server: typed lobby commands, game keys, chat, two clients."""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from cardroom.clients.terminal.lobby import BadCommand, parse_create
from cardroom.clients.terminal.wire import server_messages, ws_url
from cardroom.narrate.burrito import card_names
from tests.server.disk import PAUSED, RESUMED, disk, free_the_disk, pause_a_table
from tests.server.live import LiveServer, run_server


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    with run_server() as live:
        yield live


class Terminal:
    """`cardroom connect` in a subprocess: we type into its stdin (a pipe) and read its lines."""

    def __init__(
        self, url: str, name: str | None, args: list[str] | None = None, env: dict[str, str] | None = None
    ) -> None:
        command = [sys.executable, "-m", "cardroom", "connect", url, *(args or [])]
        if name is not None:
            command += ["--name", name]
        self.process = subprocess.Popen(
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            encoding="utf-8",
            env=env,
        )
        self.lines: list[str] = []
        self.errors: list[str] = []
        self.seen = 0
        self.changed = threading.Condition()
        self.readers = [
            threading.Thread(target=self._pump, args=(self.process.stdout, self.lines), daemon=True),
            threading.Thread(target=self._pump, args=(self.process.stderr, self.errors), daemon=True),
        ]
        for reader in self.readers:
            reader.start()

    def _pump(self, stream: object, into: list[str]) -> None:
        assert stream is not None
        for line in stream:  # type: ignore[attr-defined]
            with self.changed:
                into.append(line.rstrip("\n"))
                self.changed.notify_all()
        with self.changed:
            self.changed.notify_all()

    def type(self, text: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(text)
        self.process.stdin.flush()

    def expect(self, pattern: str, timeout: float = 10) -> str:
        """The next line (after those already matched) matching `pattern`."""
        regex = re.compile(pattern)
        deadline = time.monotonic() + timeout
        with self.changed:
            while True:
                for i in range(self.seen, len(self.lines)):
                    if regex.search(self.lines[i]):
                        self.seen = i + 1
                        return self.lines[i]
                left = deadline - time.monotonic()
                if left <= 0 or (self.process.poll() is not None and not self._more()):
                    raise AssertionError(
                        f"no line matching {pattern!r}; output:\n"
                        + "\n".join(self.lines[-60:])
                        + "\nstderr:\n"
                        + "\n".join(self.errors[-20:])
                    )
                self.changed.wait(min(left, 0.2))

    def _more(self) -> bool:
        return any(r.is_alive() for r in self.readers)

    def new_lines(self, wait: float) -> list[str]:
        """Every line printed from now until `wait` seconds have passed."""
        start = len(self.lines)
        time.sleep(wait)
        with self.changed:
            self.seen = len(self.lines)
            return self.lines[start:]

    def finish(self, timeout: float = 10) -> int:
        try:
            code = self.process.wait(timeout)
        finally:
            self.kill()
        return code

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        for reader in self.readers:
            reader.join(5)
        for stream in (self.process.stdin, self.process.stdout, self.process.stderr):
            if stream is not None:
                with contextlib.suppress(BrokenPipeError):
                    stream.close()


@pytest.fixture
def terminals() -> Iterator[list[Terminal]]:
    made: list[Terminal] = []
    yield made
    for term in made:
        term.kill()


def open_terminal(terminals: list[Terminal], url: str, name: str | None) -> Terminal:
    term = Terminal(url, name)
    terminals.append(term)
    if name is not None:
        term.expect(rf"Connected to .* as {name}\.")
    return term


class Proxy:
    """A TCP relay to the server whose connections can be cut, to drop a client's connection."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.url = f"ws://127.0.0.1:{self.listener.getsockname()[1]}/ws"
        self.sockets: list[socket.socket] = []
        self.lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                near, _addr = self.listener.accept()
            except OSError:
                return
            far = socket.create_connection(("127.0.0.1", self.port))
            with self.lock:
                self.sockets += [near, far]
            threading.Thread(target=self._relay, args=(near, far), daemon=True).start()
            threading.Thread(target=self._relay, args=(far, near), daemon=True).start()

    def _relay(self, source: socket.socket, sink: socket.socket) -> None:
        with contextlib.suppress(OSError):
            while data := source.recv(65536):
                sink.sendall(data)
        for sock in (source, sink):
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)

    def cut(self) -> None:
        with self.lock:
            cut, self.sockets = self.sockets, []
        for sock in cut:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
            sock.close()

    def close(self) -> None:
        self.listener.close()
        self.cut()


def test_addresses() -> None:
    assert ws_url("ws://127.0.0.1:8000/ws") == "ws://127.0.0.1:8000/ws"
    assert ws_url("http://example.org:8123") == "ws://example.org:8123/ws"
    assert ws_url("https://example.org") == "wss://example.org/ws"
    assert ws_url("localhost:9000") == "ws://localhost:9000/ws"


def test_a_server_frame_is_one_message_or_an_array_of_them() -> None:
    """Protocol 2: a frame holds one message object, or several in a JSON array, in order."""
    assert server_messages('{"type": "pong", "id": 1}') == [{"type": "pong", "id": 1}]
    both = '[{"type": "events", "v": 3}, {"type": "ack", "ref": 7, "v": 3}]'
    assert server_messages(both) == [{"type": "events", "v": 3}, {"type": "ack", "ref": 7, "v": 3}]
    assert server_messages(both.encode()) == server_messages(both)
    assert server_messages("{not json") == []
    assert server_messages('[1, {"type": "lag", "ms": 4}]') == [{"type": "lag", "ms": 4}]


def test_create_lines() -> None:
    typed = "burrito 4 --bots 3 --level hard --variant small_room --private --set flight_ms=1200"
    message = parse_create(typed.split(" "))
    assert message == {
        "type": "create_table",
        "game": "burrito",
        "seats": 4,
        "options": {"flight_ms": 1200, "variants": ["small_room"]},
        "bots": 3,
        "private": True,
        "bot_level": "hard",
    }
    relaxed = parse_create(["kittens", "3", "--relaxed"])
    assert relaxed["options"] == {"timing": "relaxed"}
    for bad in (
        "chess 4",
        "kittens four",
        "kittens 4 --bots",
        "kittens 4 --bogus",
        "kittens 4 --bots 4",
        "kittens 4 --relaxed=yes",
    ):
        with pytest.raises(BadCommand):
            parse_create(bad.split())


def test_kittens_lobby_play_chat_quit(server: LiveServer, terminals: list[Terminal]) -> None:
    ann = open_terminal(terminals, server.ws_url, "Ann")
    ann.type("tables\n")
    ann.expect(r"No tables yet|tables?:")
    ann.type("create kittens 2 --bots 1 --level easy --set turn_ms=60000\n")
    ann.expect(r"You sit at table (\d+) \(kittens\), seat 1\. You are the host")
    ann.expect(r"^Seats: seat 1 Ann; seat 2 free\.$")
    ann.expect(r"^Bot \w+ \(easy\) sits at seat 2\.$")
    ann.type("tables\n")
    ann.expect(r"Table \d+: kittens, 2 of 2 seats taken, 0 free, waiting, 0 watching")
    ann.type("start\n")
    ann.expect(r"Exploding Kittens\. Seats: 1 you, 2 ")
    ann.expect(r"Game keys on: press \?")
    ann.expect(r"^Your turn\.|It is your turn", timeout=20)
    ann.type("d")
    ann.expect(r"You drew |DEFUSE NOW!", timeout=10)  # the first draw can be the kitten
    ann.type("/say hello table\n")
    ann.expect(r"^Ann: hello table$")
    ann.type("?")
    ann.expect(r"^D: Draw a card \(ends your turn\)$")
    ann.expect(r"^/: type a command line")
    ann.type("q")
    ann.expect(r"You leave the table\. Goodbye!")
    assert ann.finish() == 0


def test_burrito_countdown_and_draw(server: LiveServer, terminals: list[Terminal]) -> None:
    bea = open_terminal(terminals, server.ws_url, "Bea")
    bea.type("create burrito 2 --bots 1 --level easy\n")
    bea.expect(r"You sit at table \d+ \(burrito\), seat 1")
    bea.type("start\n")
    bea.expect(r"Throw Throw Burrito\. Seats: 1 you, 2 ")
    bea.expect(r"^Round 1 begins\.$", timeout=10)
    bea.expect(r"^Burrito!$", timeout=10)  # the beats before it are not said to a player
    # The card drawn, alone ("Drew War." for a battle card: docs/speech.md).
    drew = re.compile("^(Drew )?(" + "|".join(map(re.escape, card_names().values())) + r")\.$")
    bea.type("d")  # five cards in hand: refused until one is passed
    assert not any(drew.match(line) for line in bea.new_lines(0.5))
    # A fight holds the cards, and may end the round: the next countdown holds them too (the
    # easy bot's Brawl, its fight and the next round's countdown took 9 s on a busy machine).
    deadline = time.monotonic() + 40
    while True:
        bea.type("1")
        bea.type("d")
        if any(drew.match(line) for line in bea.new_lines(1.5)):
            break
        if time.monotonic() > deadline:
            raise AssertionError("never drew a card: " + "\n".join(bea.lines[-30:]))
    bea.type("L")
    bea.expect(r"^Lag: \d+ ms\.$")
    bea.type("/leave\n")
    bea.expect(r"You leave table \d+\.")
    bea.expect(r"Typed commands again")
    bea.type("quit\n")
    bea.expect(r"Goodbye!")
    assert bea.finish() == 0


def test_two_clients_at_one_table(server: LiveServer, terminals: list[Terminal]) -> None:
    cy = open_terminal(terminals, server.ws_url, "Cy")
    cy.type("create kittens 3\n")
    line = cy.expect(r"You sit at table (\d+) \(kittens\), seat 1")
    number = re.search(r"table (\d+)", line)
    assert number is not None
    dee = open_terminal(terminals, server.ws_url, "Dee")
    table = dee.expect(r"Table (\d+): kittens, 1 of 3 seats taken, 2 free, waiting.*host Cy")
    dee_number = re.match(r"Table (\d+)", table)
    assert dee_number is not None
    dee.type(f"join {dee_number.group(1)}\n")
    dee.expect(r"You sit at table \d+ \(kittens\), seat 2\.")
    cy.expect(r"^Dee sits at seat 2\.$")
    dee.type("say hi Cy\n")
    cy.expect(r"^Dee: hi Cy$")
    dee.expect(r"^Dee: hi Cy$")
    cy.type("say hello everyone\n")
    cy.expect(r"^Cy: hello everyone$")
    dee.expect(r"^Cy: hello everyone$")
    dee.type("leave\n")
    cy.expect(r"^Dee left seat 2\.$")
    dee.type("quit\n")
    cy.type("quit\n")
    assert dee.finish() == 0
    assert cy.finish() == 0


def test_relaxed_timing_and_extra_time_are_told_to_everyone(
    server: LiveServer, terminals: list[Terminal]
) -> None:
    """docs/rules/kittens.md#time-to-react: the host grants extra time; everyone at the table hears
    it when it changes and when the game starts, with the relaxed timing."""
    fay = open_terminal(terminals, server.ws_url, "Fay")
    fay.type("create kittens 2 --relaxed --set turn_ms=60000\n")
    line = fay.expect(r"You sit at table (\d+) \(kittens\), seat 1")
    number = re.search(r"table (\d+)", line)
    assert number is not None
    gus = open_terminal(terminals, server.ws_url, "Gus")
    listed = gus.expect(
        r"Table \d+: kittens, 1 of 2 seats taken, 1 free, waiting, .*host Fay, relaxed timing"
    )
    # Each terminal numbers the tables as it learns of them: Fay's number may be another table
    # here (a test's table left playing was Fay's "1" and Gus's "2"). The host's name is the
    # same for both (the page's "the table of Fay").
    gus.type("join fay\n")
    seated = gus.expect(r"You sit at table \d+ \(kittens\), seat 2\.")
    assert re.findall(r"table (\d+)", seated, re.I) == re.findall(r"Table (\d+)", listed)
    fay.expect(r"Gus sits at seat 2|seat 2 Gus")
    gus.type("extra 1\n")
    gus.expect(r"^Only the host can do that\.$")
    fay.type("extra 3\n")
    fay.expect(r"^Extra time is for a player seated at this table\.$")
    fay.type("extra 2\n")
    for who in (fay, gus):
        who.expect(r"^Gus has extra time: the windows that ask them to react are twice as long\.$")
    gus.type("who\n")
    gus.expect(r"^Seats: seat 1 Fay; seat 2 Gus \(extra time\)\.$")
    fay.type("start\n")
    for who in (fay, gus):
        who.expect(r"^Relaxed timing: every window to react in is twice as long\.$")
    # Everyone but Gus, who heard it when it was granted (a game's start has the most to hear).
    fay.expect(r"^Extra time for Gus: the windows that ask them to react are twice as long\.$")
    gus.type("q")
    assert gus.finish() == 0
    assert not any(line.startswith("Extra time for Gus") for line in gus.lines)
    fay.type("q")
    assert fay.finish() == 0


def test_bad_lines_get_one_clear_line(server: LiveServer, terminals: list[Terminal]) -> None:
    eve = open_terminal(terminals, server.ws_url, "Eve")
    eve.new_lines(0.5)
    for typed, answer in (
        ("dance", r"^Unknown command dance: type help for the commands\.$"),
        ("join x", r"^No table has a host named x: type tables for the list\.$"),
        ("watch #x", r"^The table number must be a whole number, not x\.$"),
        ("join 999", r"^There is no table 999: type tables for the list\.$"),
        ("create chess 4", r"^Unknown game chess: choose burrito or kittens\.$"),
        ("create kittens 4 --colour red", r"^Unknown option --colour: create knows"),
        ("create kittens 40", r"^kittens is played by \d+ to \d+ players\.$"),
        ("start", r"^You are at no table: join or create one first\.$"),
        ("say", r"^Say what\?"),
    ):
        eve.type(typed + "\n")
        eve.expect(answer)
        assert eve.new_lines(0.3) == [], typed
    eve.type("create kittens 2 --set turn_ms=oops\n")
    eve.expect(r"^--set turn_ms: not a whole number: oops\.$")
    eve.type("create kittens 2 --set turn_ms=1\n")
    eve.expect(r".")  # the server's own sentence for a bad option
    eve.type("help\n")
    eve.expect(r"^create GAME")
    eve.type("quit\n")
    assert eve.finish() == 0


def test_asks_for_a_nickname(server: LiveServer, terminals: list[Terminal]) -> None:
    term = open_terminal(terminals, server.url, None)
    term.expect(r"^Your nickname\?$")
    term.type("Hal\n")
    term.expect(r"Connected to ws://127\.0\.0\.1:\d+/ws as Hal\.")
    term.type("say hi lobby\n")
    term.expect(r"^Hal: hi lobby$")
    term.process.stdin.close()  # type: ignore[union-attr]
    term.expect(r"Input closed: goodbye\.")
    assert term.finish() == 0


def test_reconnects_and_resumes(server: LiveServer, terminals: list[Terminal]) -> None:
    port = int(server.url.rsplit(":", 1)[1])
    proxy = Proxy(port)
    try:
        gil = open_terminal(terminals, proxy.url, "Gil")
        gil.type("create kittens 2 --bots 1 --set turn_ms=60000\n")
        gil.expect(r"You sit at table \d+ \(kittens\), seat 1")
        gil.type("start\n")
        gil.expect(r"Game keys on")
        proxy.cut()
        gil.expect(r"^Connection lost: reconnecting\.\.\.$")
        gil.expect(r"^Reconnected\.$")
        gil.expect(r"^Caught up with the game\.$")
        gil.type("/say still here\n")
        gil.expect(r"^Gil: still here$")
        gil.type("q")
        assert gil.finish() == 0
    finally:
        proxy.close()


def test_key_hints_join_the_servers_words() -> None:
    from cardroom.clients.terminal.tableplay import _hinted

    assert _hinted(["Bo plays Attack."], ["Bo plays Attack. Nope? Press n."], ["Bo plays Attack!"]) == [
        "Bo plays Attack! Nope? Press n."
    ]
    assert _hinted(["Fight!"], ["Fight!", "Keys: g grab."], ["Fight!"]) == ["Fight!", "Keys: g grab."]
    assert _hinted(["Same."], ["Same."], ["Same."]) == ["Same."]


def test_tables_comes_in_pages_and_tables_n_shows_page_n(terminals: list[Terminal]) -> None:
    """Issue 12, 6: the server sends the table list a page at a time (docs/protocol.md)."""
    with run_server({"CARDROOM_TABLE_PAGE": "1"}) as paged:
        host = open_terminal(terminals, paged.ws_url, "Pager")
        host.type("create kittens 3\n")
        host.expect(r"You sit at table (\d+) \(kittens\), seat 1")
        second = open_terminal(terminals, paged.ws_url, "Second")
        second.type("create burrito 3\n")
        second.expect(r"You sit at table (\d+) \(burrito\), seat 1")
        reader = open_terminal(terminals, paged.ws_url, "Reader")
        reader.expect(r"^Table \d+: burrito, 1 of 3 seats taken")
        reader.expect(r"^Page 1 of 2, 2 tables in all: tables 2 shows the next page\.$")
        reader.type("tables 2\n")
        reader.expect(r"^Table \d+: kittens, 1 of 3 seats taken")
        reader.expect(r"^Page 2 of 2, 2 tables in all: tables 1 shows the next page\.$")
        reader.type("tables zero\n")
        reader.expect(r"^tables takes a page number, e\.g\. tables 2\.$")


def test_players_of_two_languages_each_read_the_bot_level_in_their_own(
    server: LiveServer, terminals: list[Terminal]
) -> None:
    """Issue 14 ("Bot normal" in Italian): the server sends a bot's level as its code, and each
    terminal names it in its own language, at one table."""
    ivo = open_terminal(terminals, server.ws_url, "Ivo")
    ivo.type("create kittens 3 --bots 1 --level hard\n")
    line = ivo.expect(r"You sit at table (\d+) \(kittens\), seat 1")
    number = re.search(r"table (\d+)", line)
    assert number is not None
    ivo.expect(r"^Bot \w+ \(hard\) sits at seat 2\.$")
    gina = Terminal(server.ws_url, "Gina", ["--lang", "it"])
    terminals.append(gina)
    gina.expect(r"^Connesso a .* come Gina\.")
    table = gina.expect(r"^Tavolo (\d+): kittens, .*Ivo")
    gina_number = re.match(r"Tavolo (\d+)", table)
    assert gina_number is not None
    gina.type(f"join {gina_number.group(1)}\n")
    gina.expect(r"^Sei seduto al tavolo \d+ \(kittens\), posto 3\.$")
    gina.type("who\n")
    gina.expect(r"^Posti: posto 1 Ivo; posto 2 \w+ \(bot, difficile\); posto 3 Gina\.$")
    ivo.expect(r"^Gina sits at seat 3\.$")  # `who` answers from what this terminal has heard
    ivo.type("who\n")
    ivo.expect(r"^Seats: seat 1 Ivo; seat 2 \w+ \(bot, hard\); seat 3 Gina\.$")
    for who in (gina, ivo):
        who.type("quit\n")
        assert who.finish() == 0


def test_a_watcher_arriving_at_a_paused_table_hears_it_is_paused(
    tmp_path: Path, terminals: list[Terminal]
) -> None:
    """docs/security.md: a table pauses while the server cannot save its game. The notice says so
    when it happens; whoever learns it from a resync (here a watcher arriving) hears it too, and
    hears once that play goes on."""
    with run_server({"CARDROOM_DATA": str(tmp_path)}) as live, disk(live):

        async def pause() -> str:
            anna, table = await pause_a_table(live)
            await anna.close()  # a bot stands in; the table stays paused
            return table

        asyncio.run(pause())
        wanda = open_terminal(terminals, live.ws_url, "Wanda")
        listed = wanda.expect(r"^Table (\d+): kittens, .*host Anna")
        number = re.match(r"Table (\d+)", listed)
        assert number is not None
        wanda.type(f"watch {number.group(1)}\n")
        wanda.expect("^" + re.escape(PAUSED) + "$")
        free_the_disk(live)
        wanda.expect("^" + re.escape(RESUMED) + "$", timeout=30)
        wanda.type("quit\n")
        assert wanda.finish() == 0
        assert wanda.lines.count(PAUSED) == wanda.lines.count(RESUMED) == 1


def games(term: Terminal) -> dict[str, str]:
    """`games`: the finished games it lists, by id."""
    term.type("games\n")
    if term.expect(r"^(Finished games, newest first:|No finished games yet\.)$").startswith("No "):
        return {}
    first = term.seen
    term.expect(r"^To watch one again: ")
    found = (re.match(r"^Game (\S+): ", line) for line in term.lines[first : term.seen - 1])
    return {m.group(1): m.string for m in found if m}


def test_a_guest_lists_the_private_game_they_played(server: LiveServer, terminals: list[Terminal]) -> None:
    """docs/security.md, "Guests and records": `games` shows a guest the private games they played
    (the terminal sends its player token, as the page does); another guest does not see them."""
    gwen = open_terminal(terminals, server.ws_url, "Gwen")
    quick = "--set turn_ms=300 --set defuse_ms=300 --set choose_ms=300 --set nope_window_ms=100 --set bot_think_ms=0"
    gwen.type(f"create kittens 2 --bots 1 --private {quick}\n")
    gwen.expect(r"^Bot \w+ \(normal\) sits at seat 2\.$")
    gwen.type("start\n")
    gwen.expect(r"^The game is over\. Type rematch to play again, or leave\.$", timeout=120)
    deadline = time.monotonic() + 15
    while True:  # the record is written a moment after the end; other tests' games are public
        listed = games(gwen)
        with urllib.request.urlopen(server.url + "/api/records", timeout=10) as reply:
            public = {r["id"] for r in json.loads(reply.read())["records"]}
        private = {i: line for i, line in listed.items() if i not in public}
        if private:
            break
        assert time.monotonic() < deadline, "the guest's private game is never listed for them"
        time.sleep(0.3)
    ((game, played),) = private.items()
    assert re.match(r"^Game \S+: kittens, \d{4}-\d\d-\d\d \d\d:\d\d", played), played
    otto = open_terminal(terminals, server.ws_url, "Otto")
    assert game not in games(otto)
    for who in (gwen, otto):
        who.type("quit\n")
        assert who.finish() == 0
