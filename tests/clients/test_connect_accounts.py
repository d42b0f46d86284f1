"""`cardroom connect` with accounts, against a real server: --register / --login, the session kept
in the config folder and used again, logout, a guest asking for an account's name, the
leaderboard and the finished games. The password is typed on standard input (not a terminal
here, so the client reads one line of it instead of calling getpass); XDG_CONFIG_HOME and HOME
point at a temporary folder, so no real configuration is touched. Neither a password nor a
session token may appear in what the client prints or in the server's log."""

from __future__ import annotations

import json
import os
import re
import stat
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from cardroom.clients.terminal.account import config_dir, http_base
from tests.clients.test_connect import Terminal
from tests.server.live import LiveServer, run_server

PASSWORDS: list[str] = []
"""Every password the tests type: none may be printed or logged."""


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    with run_server() as live:
        yield live
    for secret in PASSWORDS + tokens_seen:
        assert secret not in live.log, "a password or session token is in the server's log"


tokens_seen: list[str] = []
STARTED_S = 30
"""Seconds a client started is given to be in the lobby."""


class Client(Terminal):
    """`cardroom connect URL ARGS...` with its own config folder; stdin is a pipe."""

    def __init__(self, url: str, args: list[str], home: Path) -> None:
        env = {**os.environ, "XDG_CONFIG_HOME": str(home / "config"), "HOME": str(home), "LANGUAGE": "en"}
        super().__init__(url, None, args, env)

    def output(self) -> str:
        return "\n".join(self.lines + self.errors)

    def entered(self, name: str) -> str:
        """The line that says the client is in the lobby as `name`. A new process, its imports
        and a password's hash: over 10 s once in a CI run on two cores busy with Orca's test."""
        return self.expect(rf"as {re.escape(name)}\. Type help for the commands\.$", timeout=STARTED_S)


@pytest.fixture
def clients() -> Iterator[list[Client]]:
    made: list[Client] = []
    yield made
    for client in made:
        client.kill()
        for secret in PASSWORDS + tokens_seen:
            assert secret not in client.output(), "a password or session token was printed"


@pytest.fixture
def home(tmp_path: Path) -> Path:
    return tmp_path


def start(clients: list[Client], server: LiveServer, home: Path, *args: str) -> Client:
    client = Client(server.ws_url, list(args), home)
    clients.append(client)
    return client


def session_file(home: Path) -> Path:
    return home / "config" / "cardroom" / "session.json"


def saved(home: Path) -> dict[str, dict[str, str]]:
    servers: dict[str, dict[str, str]] = json.loads(session_file(home).read_text())["servers"]
    for entry in servers.values():
        tokens_seen.append(entry["token"])
    return servers


def password(text: str) -> str:
    PASSWORDS.append(text)
    return text


def register_over_http(server: LiveServer, name: str, secret: str, lang: str = "en") -> None:
    request = urllib.request.Request(
        server.url + "/api/register",
        data=json.dumps({"name": name, "password": secret, "lang": lang}).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=10) as reply:
        tokens_seen.append(json.loads(reply.read())["token"])


def test_addresses_and_config_folder(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    assert http_base("ws://127.0.0.1:8000/ws") == "http://127.0.0.1:8000"
    assert http_base("wss://cards.example.org/ws") == "https://cards.example.org"
    assert http_base("wss://example.org/room/ws") == "https://example.org/room"
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    assert config_dir() == tmp_path / "xdg" / "cardroom"
    monkeypatch.delenv("XDG_CONFIG_HOME")
    monkeypatch.setenv("HOME", str(tmp_path))
    assert config_dir() == tmp_path / ".config" / "cardroom"


def test_register_stored_session_logout(server: LiveServer, clients: list[Client], home: Path) -> None:
    secret = password("correct horse 1")
    ann = start(clients, server, home, "--register", "Annika")
    ann.type(secret + "\n" + secret + "\n")
    ann.expect(r"^Choose a password for Annika \(8 to 256 characters\):$")
    ann.expect(r"^The same password again:$")
    ann.expect(r"^Account Annika created\.$")
    ann.expect(r"^Logged in as Annika\.$")
    ann.expect(r"^Connected to ws://127\.0\.0\.1:\d+/ws as Annika\. Type help for the commands\.$")
    ann.type("quit\n")
    ann.expect(r"^Goodbye!$")
    assert ann.finish() == 0

    path = session_file(home)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    entries = saved(home)
    assert list(entries) == [server.url]
    assert entries[server.url]["name"] == "Annika"

    again = start(clients, server, home)  # no name: the stored session
    again.expect(r"^Logged in as Annika\.$")
    again.entered("Annika")
    again.type("help\n")
    again.expect(r"^leaderboard GAME: ")
    again.expect(r"^games: ")
    again.expect(r"^logout: ")
    again.type("logout\n")
    again.expect(r"^Logged out: this computer no longer keeps your session\. Goodbye!$")
    assert again.finish() == 0
    assert not path.exists()

    guest = start(clients, server, home)  # logged out: a nickname again, and Annika is taken
    guest.expect(r"^Your nickname\?$")
    guest.type("annika\n")
    guest.expect(r"^That name belongs to an account: log in, or choose another nickname\.$")
    guest.expect(r"^Choose another nickname:$")
    guest.type("Anni\n")
    guest.entered("Anni")
    guest.type("logout\n")
    guest.expect(r"^You are not logged in\.$")
    guest.type("quit\n")
    assert guest.finish() == 0


def test_guest_asking_for_an_accounts_name(server: LiveServer, clients: list[Client], home: Path) -> None:
    register_over_http(server, "Bertha", password("bertha's secret"))
    bea = start(clients, server, home, "--name", "Bertha")
    bea.expect(r"^That name belongs to an account: log in, or choose another nickname\.$")
    bea.expect(r"^Choose another nickname:$")
    bea.type("Bert\n")
    bea.entered("Bert")
    bea.type("quit\n")
    assert bea.finish() == 0
    assert not session_file(home).exists()


def test_refusals_are_one_line_and_exit_2(server: LiveServer, clients: list[Client], home: Path) -> None:
    register_over_http(server, "Cosima", password("cosima's secret"))
    taken = password("another secret")
    first, second = password("first one!"), password("second one")
    for args, typed, answer in (
        (["--login", "Cosima"], password("not her password") + "\n", r"^Wrong name or password\.$"),
        (["--login", "Nobody"], password("whatever pass") + "\n", r"^Wrong name or password\.$"),
        (["--register", "cosima"], f"{taken}\n{taken}\n", r"^That name is taken: choose another\.$"),
        (["--register", "Dora"], "Sh0rt!x\nSh0rt!x\n", r"^A password has 8 to 256 characters\.$"),
        (
            ["--register", "Dora"],
            f"{first}\n{second}\n",
            r"^The two passwords differ: no account was created\.$",
        ),
    ):
        client = start(clients, server, home, *args)
        client.type(typed)
        assert client.finish() == 2, client.output()
        prompts = [line for line in client.lines if line.endswith(":")]
        assert len(prompts) == (2 if args[0] == "--register" else 1), client.output()
        assert client.lines == [*prompts, client.lines[-1]], client.output()
        assert re.search(answer, client.lines[-1]), client.output()
        assert client.errors == []
        assert "Sh0rt!x" not in client.output()
        assert not session_file(home).exists()


def test_a_stored_session_the_server_refuses(server: LiveServer, clients: list[Client], home: Path) -> None:
    path = session_file(home)
    path.parent.mkdir(parents=True)
    stale = "x" * 40
    tokens_seen.append(stale)
    other = {"token": "y" * 40, "name": "Elsewhere"}
    path.write_text(
        json.dumps({"servers": {server.url: {"token": stale, "name": "Emil"}, "http://other:1": other}})
    )
    emil = start(clients, server, home)
    emil.expect(r"^The saved session of Emil has expired: enter as a guest, or use --login Emil\.$")
    emil.expect(r"^Your nickname\?$")
    emil.type("Emil\n")
    emil.entered("Emil")
    emil.type("quit\n")
    assert emil.finish() == 0
    assert json.loads(path.read_text())["servers"] == {"http://other:1": other}


def test_leaderboard_and_games(server: LiveServer, clients: list[Client], home: Path) -> None:
    secret = password("fenna plays kittens")
    fen = start(clients, server, home, "--register", "Fenna")
    fen.type(secret + "\n" + secret + "\n")
    fen.expect(r"^Logged in as Fenna\.$")
    fen.entered("Fenna")
    fen.type("games\n")
    fen.expect(r"^You have no finished games yet\.$")
    fen.type("leaderboard burrito\n")
    fen.expect(r"^Nobody is on the burrito leaderboard yet: finish a game to be rated\.$")
    fen.type("leaderboard chess\n")
    fen.expect(r"^Unknown game chess: choose burrito or kittens\.$")
    # A short game: every timer tiny, so Fenna (who presses nothing) draws until she explodes.
    fen.type(
        "create kittens 2 --bots 1 --level hard --set nope_window_ms=50 --set turn_ms=300 "
        "--set choose_ms=200 --set defuse_ms=100\n"
    )
    fen.expect(r"You sit at table \d+ \(kittens\), seat 1")
    fen.type("start\n")
    fen.expect(r"Game keys on")
    fen.expect(r"^The game is over\. Type rematch", timeout=90)
    fen.expect(r"^Typed commands again")
    for _attempt in range(20):  # the record is written a moment after the last move
        fen.type("games\n")
        if fen.expect(r"^(Your finished games, newest first:|You have no finished games yet\.)$").startswith(
            "Your"
        ):
            break
        time.sleep(0.25)
    else:
        raise AssertionError("the finished game never appeared:\n" + fen.output())
    game = fen.expect(r"^Game \S+: kittens, \d{4}-\d\d-\d\d \d\d:\d\d, (won by .+|no winner)\.$")
    fen.expect(r"^To watch one again: cardroom replay ID, on the machine that runs the server\.$")
    fen.type("leaderboard kittens\n")
    fen.expect(r"^kittens leaderboard:$")
    fen.expect(r"^1\. .+: rating -?\d+(\.\d+)?, 1 game, 1 won\.$")
    fen.expect(r"^2\. .+: rating -?\d+(\.\d+)?, 1 game, 0 won\.$")
    fen.type("quit\n")
    assert fen.finish() == 0

    guest = start(clients, server, home, "--name", "Gus")  # a guest sees every finished game
    guest.entered("Gus")
    guest.type("games\n")
    guest.expect(r"^Finished games, newest first:$")
    guest.expect("^" + re.escape(game) + "$")
    guest.type("quit\n")
    assert guest.finish() == 0


def test_the_profile_language_unless_lang_is_given(
    server: LiveServer, clients: list[Client], home: Path
) -> None:
    secret = password("hanna parle français")
    register_over_http(server, "Hanna", secret, lang="fr")
    hanna = start(clients, server, home, "--login", "Hanna")
    hanna.type(secret + "\n")
    hanna.expect(r"^Password for Hanna:$")  # asked in the terminal's language, before the login
    hanna.expect(r"^Connecté en tant que Hanna\.$")
    hanna.expect(r"^Connecté à ws://\S+ sous le nom Hanna\. Tape help pour les commandes\.$")
    hanna.type("quit\n")
    hanna.expect(r"^Au revoir !$")
    assert hanna.finish() == 0
    saved(home)

    german = start(clients, server, home, "--lang", "de")  # the stored session, in German
    german.expect(r"^Angemeldet als Hanna\.$")
    german.type("leaderboard burrito\n")
    german.expect(r"^Noch niemand steht auf der Rangliste von burrito")
    german.type("quit\n")
    assert german.finish() == 0


def _me(server: LiveServer, token: str) -> int:
    request = urllib.request.Request(server.url + "/api/me", headers={"Authorization": f"Bearer {token}"})
    try:
        with urllib.request.urlopen(request, timeout=10) as reply:
            return int(reply.status)
    except urllib.error.HTTPError as exc:
        exc.close()
        return int(exc.code)


def _login_over_http(server: LiveServer, name: str, secret: str) -> str:
    request = urllib.request.Request(
        server.url + "/api/login",
        data=json.dumps({"name": name, "password": secret}).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=10) as reply:
        token: str = json.loads(reply.read())["token"]
    tokens_seen.append(token)
    return token


def test_managing_the_account_from_the_lobby(
    server: LiveServer, clients: list[Client], home: Path, tmp_path: Path
) -> None:
    """password, export FILE, logout-all and delete-account: each password asked on a line of
    its own, the other sessions ending, the export written for its owner only."""
    old, new = password("ines' first secret"), password("ines' second secret")
    register_over_http(server, "Ines", old)
    elsewhere = _login_over_http(server, "Ines", old)
    ines = start(clients, server, home, "--login", "Ines")
    ines.type(old + "\n")
    ines.entered("Ines")
    ines.type("password\n" + "wrong secret!\n" + new + "\n" + new + "\n")
    ines.expect(r"^Your current password:$")
    ines.expect(r"^Your new password \(8 to 256 characters\):$")
    ines.expect(r"^The same new password again:$")
    ines.expect(r"^That is not your current password\.$")
    assert _me(server, elsewhere) == 200  # refused: nothing changed
    ines.type("password\n" + old + "\n" + new + "\n" + new + "\n")
    ines.expect(r"^Your password is changed, and your other sessions have ended\.$")
    assert _me(server, elsewhere) == 401

    export = tmp_path / "ines.json"
    ines.type(f"export {export}\n")
    ines.expect(r"^Your account's data is saved in .+ines\.json\.$")
    data = json.loads(export.read_text())
    assert data["account"]["name"] == "Ines" and len(data["sessions"]) == 1
    assert stat.S_IMODE(export.stat().st_mode) == 0o600
    ines.type(f"export {export}\n")
    ines.expect(r"^.+ines\.json already exists: choose another file name\.$")

    again = _login_over_http(server, "Ines", new)
    ines.type("logout-all\n")
    ines.expect(r"^Logged out everywhere: every session of your account has ended, this one too\. Goodbye!$")
    assert ines.finish() == 0
    assert _me(server, again) == 401 and not session_file(home).exists()

    gone = start(clients, server, home, "--login", "Ines")
    gone.type(new + "\n")
    gone.entered("Ines")
    gone.type("delete-account\n" + old + "\n")
    gone.expect(r"^To delete the account Ines for good, type its password:$")
    gone.expect(r"^That is not your current password\.$")
    gone.type("delete-account\n" + new + "\n")
    gone.expect(r"^The account Ines is deleted: its games stay in the records as those of a deleted player\.")
    assert gone.finish() == 0
    assert not session_file(home).exists()

    guest = start(clients, server, home, "--name", "Ines")  # the name is kept from everyone
    guest.expect(r"^That name belongs to an account: log in, or choose another nickname\.$")
    guest.type("Ina\n")
    guest.entered("Ina")
    guest.type("password\n")
    guest.expect(r"^You are not logged in\.$")
    guest.type("quit\n")
    assert guest.finish() == 0
