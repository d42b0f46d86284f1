"""`cardroom connect`: the line-by-line terminal client, over the network.

The lobby is typed: one command a line (`tables`, `create kittens 4 --bots 3`, `join 2`,
`say hello`, `help`, ...). Once a game runs at your table the keyboard switches to single keys,
exactly the keys of `cardroom play` for that game (the game's `GameUI` turns them into actions),
plus `?` help, `/` a command line (chat with `say TEXT`), `L` your lag and `q` leave and quit.

Every server message becomes one plain line (no cursor movement, no redraws) so that a screen
reader follows it. Events are printed as the server narrated them (`texts`); the game UI only
adds the hints about its own keys ("Nope? Press n."). The connection comes back by itself when
it drops: `hello` with the token, then `resume` from the last version seen.

Accounts (cardroom/clients/terminal/account.py): `--login NAME` / `--register NAME` sign in over
the HTTP API before entering and send the session in `hello`; the session is kept per server
address in the user's config folder, so `cardroom connect URL` enters as the account next time;
`logout` forgets it. `leaderboard GAME` and `games` read the API.
"""

from __future__ import annotations

import asyncio
import codecs
import contextlib
import importlib
import json
import os
import sys
import termios
import threading
import time
import tty
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, TextIO
from urllib.parse import urlsplit, urlunsplit

import websockets

from cardroom.bots import levels
from cardroom.clients.terminal import account as accounts
from cardroom.clients.terminal.keys import KeyReader
from cardroom.clients.terminal.ui import GameUI, Say
from cardroom.games import GAMES, find_game
from cardroom.i18n import N_, _, current_language, format_decimal, ngettext, normalize, set_default_language
from cardroom.protocol import JSON, CardroomError

DEFAULT_URL = "ws://127.0.0.1:8000/ws"
PROTOCOL = 2
MAX_CHAT = 500
RECONNECT_FOR_S = 150.0
"""How long to keep trying after a drop (the server keeps a seat for two minutes)."""
LOCAL_TICKS = frozenset({"kittens"})
"""Games whose timed warnings ("10 seconds left") the UI tells from the view; burrito's catch
window comes from the server as a `cue`."""

EXIT_REFUSED = 2
"""The exit status when the server refuses the name or password given on the command line."""

COMMANDS: tuple[tuple[str, str], ...] = (
    ("tables [PAGE]", N_("list the tables: number, game, seats, state, spectators")),
    (
        "create GAME [SEATS] [--bots N] [--level LEVEL] [--variant V] [--private] [--set NAME=VALUE]",
        N_("create a table and sit at seat 1 as its host, e.g. create burrito 4 --bots 3 --level hard"),
    ),
    ("join N [CODE]", N_("sit at table N (CODE for a private table)")),
    ("watch N [CODE]", N_("watch table N")),
    ("who", N_("the seats at your table")),
    ("start", N_("start the game (host; empty seats get bots)")),
    ("leave", N_("leave your table (during a game a bot takes your seat)")),
    ("kick SEAT", N_("remove whoever sits at SEAT (host)")),
    ("bot [SEAT] [LEVEL]", N_("seat a bot before the start (host)")),
    ("rematch", N_("play again with the same seats once the game is over")),
    ("say TEXT", N_("chat at your table, or in the lobby when you are at no table")),
    ("leaderboard GAME", N_("the ratings of a game: rank, name, rating, games played and won")),
    ("games", N_("the finished games (yours when you are logged in), to watch with cardroom replay ID")),
    ("logout", N_("log out of your account, forget the saved session and quit")),
    ("lag", N_("measure your lag to the server")),
    ("help", N_("this list")),
    ("quit", N_("leave your tables and quit")),
)
OFFLINE_COMMANDS = frozenset({"help", "quit", "exit", "lag", "leaderboard", "ratings", "games", "logout"})
"""Commands that need no welcome from the websocket (they are local, or go through the HTTP API)."""
GAME_KEYS: tuple[tuple[str, str], ...] = (
    ("/", N_("type a command line, then Enter (say TEXT chats; an empty line cancels)")),
    ("L", N_("your lag to the server")),
    ("q", N_("leave the table and quit")),
)


def command_help() -> list[str]:
    return [_("{key}: {what}").format(key=k, what=_(what)) for k, what in COMMANDS]


def game_key_help() -> list[str]:
    return [_("{key}: {what}").format(key=k, what=_(what)) for k, what in GAME_KEYS]


def ws_url(text: str) -> str:
    """The websocket address for what the person typed: ws(s)://, http(s)://, or host:port."""
    raw = text.strip()
    if "://" not in raw:
        raw = "ws://" + raw
    parts = urlsplit(raw)
    scheme = {"ws": "ws", "wss": "wss", "http": "ws", "https": "wss"}.get(parts.scheme.lower())
    if scheme is None or not parts.netloc:
        raise CardroomError(
            f"not a server address: {text!r} (expected e.g. {DEFAULT_URL} or http://host:8000)"
        )
    try:
        parts.port  # noqa: B018 - raises ValueError for a bad port
    except ValueError:
        raise CardroomError(f"not a server address: {text!r} (bad port)") from None
    path = parts.path if parts.path not in ("", "/") else "/ws"
    return urlunsplit((scheme, parts.netloc, path, parts.query, ""))


def server_messages(raw: str | bytes) -> list[JSON]:
    """The messages of one server frame, in order: a JSON object is one message, a JSON array
    (protocol 2) holds several. What is not a message object is left out."""
    try:
        frame = json.loads(raw)
    except ValueError:
        return []
    return [m for m in (frame if isinstance(frame, list) else [frame]) if isinstance(m, dict)]


# ---- commands ------------------------------------------------------------------------------------


class BadCommand(Exception):
    """A typed line that cannot be sent: its message is the one line the person reads."""


def _int(text: str, what: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise BadCommand(
            _("{what} must be a whole number, not {text}.").format(what=what, text=text)
        ) from None


def _setting(text: str) -> tuple[str, Any]:
    name, sep, raw = text.partition("=")
    name = name.strip()
    if not sep or not name:
        raise BadCommand(_("--set expects NAME=VALUE, not {text}.").format(text=text))
    if name == "variants":
        return name, [v.strip() for v in raw.split(",") if v.strip()]
    try:
        return name, int(raw)
    except ValueError:
        raise BadCommand(_("--set {name}: not a whole number: {raw}.").format(name=name, raw=raw)) from None


def parse_create(words: Sequence[str]) -> JSON:
    """`create GAME [SEATS] [options]` as a `create_table` message; BadCommand otherwise."""
    if not words:
        raise BadCommand(_("Which game? create burrito or create kittens, e.g. create kittens 4 --bots 3."))
    game_name = words[0].lower()
    if game_name not in GAMES:
        raise BadCommand(
            _("Unknown game {name}: choose {games}.").format(name=words[0], games=_(" or ").join(GAMES))
        )
    game = find_game(game_name)
    seats = 4
    bots = 0
    level: str | None = None
    private = False
    options: JSON = {}
    variants: list[str] = []
    rest = list(words[1:])
    if rest and not rest[0].startswith("-"):
        seats = _int(rest.pop(0), _("The number of seats"))
    while rest:
        word = rest.pop(0)
        flag, eq, inline = word.partition("=")
        needs_value = flag in ("--bots", "--level", "--variant", "--set", "--seats")
        value = ""
        if needs_value:
            if eq:
                value = inline
            elif rest:
                value = rest.pop(0)
            else:
                raise BadCommand(_("{flag} needs a value.").format(flag=flag))
        if flag == "--bots":
            bots = _int(value, "--bots")
        elif flag == "--seats":
            seats = _int(value, "--seats")
        elif flag == "--level":
            level = value
        elif flag == "--variant":
            variants.append(value)
        elif flag == "--set":
            name, setting = _setting(value)
            if name == "variants":
                variants.extend(setting)
            else:
                options[name] = setting
        elif flag == "--private" and not eq:
            private = True
        else:
            raise BadCommand(
                _(
                    "Unknown option {word}: create knows --bots, --level, --variant, --private and --set."
                ).format(word=word)
            )
    if not game.min_players <= seats <= game.max_players:
        raise BadCommand(
            _("{game} is played by {low} to {high} players.").format(
                game=game_name, low=game.min_players, high=game.max_players
            )
        )
    if not 0 <= bots < seats:
        raise BadCommand(_("--bots goes from 0 to {n}: leave a seat for yourself.").format(n=seats - 1))
    if level is not None and level not in levels(game_name):
        raise BadCommand(
            _("Unknown bot level {level}: choose {levels}.").format(
                level=level, levels=_(", ").join(levels(game_name))
            )
        )
    if variants:
        options["variants"] = sorted(set(variants))
    message: JSON = {"type": "create_table", "game": game_name, "seats": seats, "options": options}
    message["bots"] = bots
    message["private"] = private
    if level is not None:
        message["bot_level"] = level
    return message


# ---- what the client knows of a table ------------------------------------------------------------


class _Opts:
    def __init__(self, options: JSON) -> None:
        self._options = options

    def to_json(self) -> JSON:
        return dict(self._options)


class _RemoteTable:
    """What `make_ui` reads of a table, from the server's view: no local engine."""

    def __init__(self, players: int, view: JSON, options: JSON) -> None:
        self.players = players
        self.opts = _Opts(options)
        self._view = view

    def view(self, seat: int | None) -> JSON:
        return self._view


def make_game_ui(game: str, seat: int, names: Sequence[str], view: JSON, options: JSON) -> GameUI:
    """The game's own terminal UI for `seat`, fed with the server's view instead of a table."""
    module: Any = importlib.import_module(f"cardroom.clients.terminal.{game}")
    ui: GameUI = module.make_ui(seat, list(names), _RemoteTable(len(names), view, options))
    return ui


@dataclass
class TableState:
    """A table this client belongs to (seated or watching)."""

    id: str
    summary: JSON
    you: int | None = None
    is_host: bool = False
    code: str | None = None
    v: int | None = None
    view: JSON | None = None
    offset_ms: float | None = None
    ui: GameUI | None = None
    wakeups: list[int] = field(default_factory=list)

    @property
    def game(self) -> str:
        return str(self.summary.get("game", ""))

    @property
    def state(self) -> str:
        return str(self.summary.get("state", ""))

    def names(self) -> list[str]:
        return [s.get("name") or _("Empty seat") for s in self.summary.get("seats", [])]

    def heard(self, at: int, reset: bool = False) -> None:
        """The server's play clock read `at` (ms) no later than now: the smallest offset is the truest
        (a batch resent after a reconnect arrives late); a new game restarts the clock."""
        offset = time.monotonic() * 1000 - at
        if reset or self.offset_ms is None or offset < self.offset_ms:
            self.offset_ms = offset

    def play_now(self) -> int:
        if self.offset_ms is None:
            return int(self.view.get("now", 0)) if self.view else 0
        return int(time.monotonic() * 1000 - self.offset_ms)


def _seat_text(seat: JSON) -> str:
    name = seat.get("name")
    if not name:
        return _("seat {n} free").format(n=seat["seat"] + 1)
    if seat.get("bot"):
        return _("seat {n} {name} (bot, {level})").format(
            n=seat["seat"] + 1, name=name, level=seat.get("level")
        )
    extra = []
    if seat.get("standing_in"):
        extra.append(_("a bot stands in"))
    elif not seat.get("connected", True):
        extra.append(_("away"))
    if extra:
        return _("seat {n} {name} ({extra})").format(n=seat["seat"] + 1, name=name, extra=_(", ").join(extra))
    return _("seat {n} {name}").format(n=seat["seat"] + 1, name=name)


def _state_text(state: str) -> str:
    return {"waiting": _("waiting"), "playing": _("playing"), "over": _("game over")}.get(state, state)


def _hinted(base: list[str], mine: list[str], texts: list[str]) -> list[str]:
    """The server's `texts` for one event, with the UI's key hints (`mine` beyond `base`) added."""
    out = list(texts)
    extra: list[str] = []
    for j, line in enumerate(mine):
        if j < len(base) and line == base[j]:
            continue
        if j < len(base) and line.startswith(base[j]) and j < len(out):
            out[j] = out[j] + line[len(base[j]) :]
            continue
        if line not in base:
            extra.append(line)
    return out + extra


# ---- the client ----------------------------------------------------------------------------------


class Terminal:
    """Cooked lines for commands, cbreak single keys for a game; restored at the end."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.saved: list[Any] | None = None
        with contextlib.suppress(termios.error, OSError):
            if os.isatty(fd):
                self.saved = termios.tcgetattr(fd)

    def keys(self) -> None:
        if self.saved is not None:
            with contextlib.suppress(termios.error, OSError):
                tty.setcbreak(self.fd, termios.TCSANOW)

    def lines(self) -> None:
        if self.saved is not None:
            with contextlib.suppress(termios.error, OSError):
                termios.tcsetattr(self.fd, termios.TCSANOW, self.saved)

    def restore(self) -> None:
        if self.saved is not None:
            with contextlib.suppress(termios.error, OSError):
                termios.tcsetattr(self.fd, termios.TCSADRAIN, self.saved)


class ConnectClient:
    """One person on one server: the lobby as typed commands, a running game as single keys."""

    def __init__(
        self,
        url: str,
        name: str | None,
        stdin: TextIO,
        out: TextIO,
        session: str | None = None,
        lang_given: bool = True,
    ) -> None:
        self.url = url
        self.base = accounts.http_base(url)
        self.name = name
        self.session = session
        """The account's session token (sent in hello, and as Bearer to the API); never printed."""
        self.account: str | None = None
        self.lang_given = lang_given
        self.stdin = stdin
        self.out = out
        self.fd = stdin.fileno()
        self.term = Terminal(self.fd)
        self.queue: asyncio.Queue[tuple[str, Any]] = asyncio.Queue()
        self.ws: Any = None
        self.reader_task: asyncio.Task[None] | None = None
        self.connecting: asyncio.Task[None] | None = None
        self.token: str | None = None
        self.player: str | None = None
        self.welcomed = False
        self.asking_name = False
        self.done = False
        self.exit_code = 0
        self.tables: dict[str, JSON] = {}
        self.numbers: dict[str, int] = {}
        self.next_number = 1
        self.mine: dict[str, TableState] = {}
        self.current: str | None = None
        self.keys_mode = False
        self.typing = False
        self.line = ""
        self.keyreader = KeyReader()
        self.decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self.lag_ms: int | None = None
        self.pings: dict[int, float] = {}
        self.next_ping = 1
        self.refs = 0
        self.resuming: dict[str, int] = {}
        self.dropped_at: float | None = None
        self.quitting = False
        self.hush: set[str] = set()
        self.printed: dict[str, str] = {}

    # ---- output -------------------------------------------------------------------------------

    def say(self, line: str) -> None:
        for part in line.split("\n"):
            self.out.write(part + "\n")
        self.out.flush()

    # ---- running ------------------------------------------------------------------------------

    async def run(self) -> int:
        loop = asyncio.get_running_loop()
        self._start_input(loop)
        try:
            if self.name or self.session:
                self._connect_soon(first=True)
            else:
                self._ask_name(_("Your nickname?"))
            while not self.done:
                timeout = self._tick_timeout()
                try:
                    kind, payload = await asyncio.wait_for(self.queue.get(), timeout)
                except TimeoutError:
                    self._tick()
                    continue
                if kind == "input":
                    await self._input(payload)
                elif kind == "eof":
                    await self._input("")
                    if not self.done:
                        self.say(_("Input closed: goodbye."))
                        await self._quit()
                elif kind == "message":
                    await self._message(payload)
                elif kind == "closed":
                    await self._closed(*payload)
        finally:
            with contextlib.suppress(ValueError, OSError):
                loop.remove_reader(self.fd)
            self.term.restore()
            for task in (self.reader_task, self.connecting):
                if task is not None and not task.done():
                    task.cancel()
                    with contextlib.suppress(asyncio.CancelledError, Exception):
                        await task
            if self.ws is not None:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(self.ws.close(), 3)
        return self.exit_code

    def _start_input(self, loop: asyncio.AbstractEventLoop) -> None:
        def read() -> bytes:
            try:
                return os.read(self.fd, 4096)
            except OSError:
                return b""

        def deliver(data: bytes) -> None:
            if not data:
                self.queue.put_nowait(("eof", None))
            else:
                self.queue.put_nowait(("input", self.decoder.decode(data)))

        def readable() -> None:
            data = read()
            if not data:
                loop.remove_reader(self.fd)
            deliver(data)

        def pump() -> None:
            while True:
                data = read()
                loop.call_soon_threadsafe(deliver, data)
                if not data:
                    return

        try:
            loop.add_reader(self.fd, readable)
        except (PermissionError, ValueError, OSError):
            threading.Thread(target=pump, name="cardroom-connect-keys", daemon=True).start()

    # ---- the connection -----------------------------------------------------------------------

    def _connect_soon(self, first: bool) -> None:
        if self.connecting is None or self.connecting.done():
            self.connecting = asyncio.create_task(self._connect(first))

    async def _connect(self, first: bool) -> None:
        delay = 0.25
        while not self.done:
            try:
                ws = await websockets.connect(self.url, max_size=2**22, open_timeout=10, close_timeout=2)
            except (OSError, TimeoutError, websockets.InvalidHandshake, websockets.InvalidURI) as exc:
                why = str(exc) or type(exc).__name__
                if first:
                    self.say(_("Cannot connect to {url}: {why}").format(url=self.url, why=why))
                    self.exit_code = 1
                    self.done = True
                    self.queue.put_nowait(("message", {"type": "_wake"}))
                    return
                if self.dropped_at is not None and time.monotonic() - self.dropped_at > RECONNECT_FOR_S:
                    self.say(_("Could not reconnect to {url}: giving up.").format(url=self.url))
                    self.exit_code = 1
                    self.done = True
                    self.queue.put_nowait(("message", {"type": "_wake"}))
                    return
                await asyncio.sleep(delay)
                delay = min(delay * 2, 5.0)
                continue
            self.ws = ws
            self.reader_task = asyncio.create_task(self._read(ws))
            await self._hello()
            return

    async def _read(self, ws: Any) -> None:
        try:
            async for raw in ws:
                for message in server_messages(raw):
                    self.queue.put_nowait(("message", message))
        except websockets.ConnectionClosed:
            pass
        except Exception as exc:  # a broken socket: treat as closed
            self.queue.put_nowait(("closed", (ws, None, str(exc))))
            return
        self.queue.put_nowait(("closed", (ws, ws.close_code, ws.close_reason)))

    async def _hello(self) -> None:
        hello: JSON = {
            "type": "hello",
            "protocol": PROTOCOL,
            "name": self.name or "",
            "lang": current_language(),
        }
        if self.token:
            hello["token"] = self.token
        if self.session:
            hello["session"] = self.session
        await self._send(hello)

    async def _send(self, message: JSON) -> bool:
        if self.ws is None:
            self.say(_("Not connected: reconnecting, try again in a moment."))
            return False
        try:
            await self.ws.send(json.dumps(message))
        except websockets.ConnectionClosed:
            self.say(_("Not connected: reconnecting, try again in a moment."))
            return False
        return True

    async def _closed(self, ws: Any, code: int | None, reason: str) -> None:
        if ws is not self.ws:
            return
        self.ws = None
        self.welcomed = False
        if self.done or self.quitting:
            self.done = True
            return
        if code == 4003:
            self.say(_("You connected again elsewhere: this session ends."))
            self.done = True
            return
        if code == 4000:
            self.say(_("The server speaks another protocol version: update cardroom."))
            self.exit_code = 1
            self.done = True
            return
        if code == 4002:
            self.say(_("Your session expired: entering again as {name}.").format(name=self.name))
            self.token = None
            self.mine.clear()
            self.current = None
            self._update_mode()
        else:
            self.say(_("Connection lost: reconnecting..."))
        self.dropped_at = time.monotonic()
        self.resuming = {tid: t.v for tid, t in self.mine.items() if t.v is not None}
        self._connect_soon(first=False)

    # ---- messages from the server ---------------------------------------------------------------

    async def _message(self, m: JSON) -> None:
        kind = m.get("type")
        handler = getattr(self, "_on_" + str(kind), None)
        if handler is not None:
            await handler(m)

    async def _on__wake(self, m: JSON) -> None:
        return None

    async def _on_welcome(self, m: JSON) -> None:
        again = self.token is not None and self.token == m.get("token")
        self.token = m.get("token")
        self.player = m.get("player")
        self.name = m.get("name", self.name)
        self.welcomed = True
        self.asking_name = False
        account = m.get("account")
        self.account = str(account.get("name")) if isinstance(account, dict) else None
        _apply_profile(m.get("profile"), self.lang_given)
        if again:
            self.hush = {"tables", "lobby_chat"}  # the listing and chat we saw before the drop
            self.say(_("Reconnected."))
            self.dropped_at = None
            for tid, since in list(self.resuming.items()):
                if tid in self.mine:
                    await self._send({"type": "resume", "table": tid, "since": since})
            return
        if self.account is not None:
            self.say(_("Logged in as {name}.").format(name=self.account))
        self.say(
            _("Connected to {url} as {name}. Type help for the commands.").format(
                url=self.url, name=self.name
            )
        )

    async def _on_error(self, m: JSON) -> None:
        code = m.get("code")
        if not self.welcomed and code in ("name_taken", "bad_name", "name_reserved"):
            self.say(str(m.get("message", "")))
            self._ask_name(_("Choose another nickname:"))
            return
        if not self.welcomed and code == "session_expired" and self.session:
            self.session = None
            accounts.forget_session(self.base)
            self.say(str(m.get("message") or code))
            self.name = None
            self._ask_name(_("Enter as a guest: your nickname?"))
            return
        self.say(str(m.get("message") or code))

    async def _on_ping(self, m: JSON) -> None:
        await self._send({"type": "pong", "id": m.get("id")})

    async def _on_pong(self, m: JSON) -> None:
        ident = m.get("id")
        sent = self.pings.pop(ident, None) if isinstance(ident, int) else None
        if sent is not None:
            self.lag_ms = int((time.monotonic() - sent) * 1000)
            self.say(_("Lag: {ms} ms.").format(ms=self.lag_ms))

    async def _on_lag(self, m: JSON) -> None:
        if isinstance(m.get("ms"), int):
            self.lag_ms = m["ms"]

    async def _on_tables(self, m: JSON) -> None:
        """One page of the table list (the server sends the first on entry)."""
        listing = [t for t in m.get("tables", []) if isinstance(t, dict) and isinstance(t.get("id"), str)]
        self.tables = {}
        for summary in listing:
            self._remember(summary)
        if "tables" in self.hush:
            self.hush.discard("tables")
            return
        self._print_tables()
        page, pages, total = m.get("page"), m.get("pages"), m.get("total")
        if isinstance(page, int) and isinstance(pages, int) and isinstance(total, int) and pages > 1:
            self.say(
                _("Page {page} of {pages}, {total} tables in all: tables {next} shows the next page.").format(
                    page=page + 1, pages=pages, total=total, next=page + 2 if page + 1 < pages else 1
                )
            )

    async def _on_table_update(self, m: JSON) -> None:
        """In the lobby, each change of a table is one line; at a table, other tables stay quiet."""
        summary = m.get("table")
        if not isinstance(summary, dict) or not isinstance(summary.get("id"), str):
            return
        tid = summary["id"]
        new = tid not in self.tables
        self._remember(summary)
        if self.mine:
            return
        line = self._table_line(summary)
        if self.printed.get(tid) == line:
            return
        self.printed[tid] = line
        self.say(_("New table: {line}").format(line=line) if new else line)

    async def _on_table_closed(self, m: JSON) -> None:
        tid = m.get("table")
        if tid in self.tables:
            number = self.numbers.get(tid)
            self.tables.pop(tid, None)
            if tid in self.mine:
                self.mine.pop(tid, None)
                self._refocus()
            self.say(_("Table {n} closed.").format(n=number))

    async def _on_lobby_chat(self, m: JSON) -> None:
        chat = [c for c in m.get("chat", []) if isinstance(c, dict)]
        if "lobby_chat" in self.hush:
            self.hush.discard("lobby_chat")
            return
        if chat:
            self.say(_("Recent lobby chat:"))
            for line in chat[-5:]:
                self.say(_("{name}: {text}").format(name=line.get("from"), text=line.get("text")))

    async def _on_chat(self, m: JSON) -> None:
        if m.get("table") is None and self.current is not None:
            self.say(_("{name} (lobby): {text}").format(name=m.get("from"), text=m.get("text")))
        else:
            self.say(_("{name}: {text}").format(name=m.get("from"), text=m.get("text")))

    async def _on_kicked(self, m: JSON) -> None:
        number = self.numbers.get(str(m.get("table")), "?")
        self.say(_("The host removed you from table {n}; you are watching it now.").format(n=number))

    async def _on_answer(self, m: JSON) -> None:
        self.say(str(m.get("text", "")))

    async def _on_ack(self, m: JSON) -> None:
        return None

    async def _on_rejected(self, m: JSON) -> None:
        self.say(str(m.get("message") or m.get("code")))

    async def _on_resumed(self, m: JSON) -> None:
        tid = str(m.get("table"))
        self.resuming.pop(tid, None)
        state = self.mine.get(tid)
        if state is not None and isinstance(m.get("v"), int):
            state.v = m["v"]
        if not self.resuming:
            self.say(_("Caught up with the game."))

    async def _on_table(self, m: JSON) -> None:
        tid = str(m.get("table") or m.get("id"))
        keys = ("id", "game", "options", "state", "private", "host", "seats", "free", "spectators")
        summary: JSON = {k: m[k] for k in keys if k in m}
        self._remember(summary)
        old = self.mine.get(tid)
        state = old or TableState(tid, summary)
        before = old.summary if old is not None else None
        state.summary = summary
        state.you = m.get("you")
        state.is_host = bool(m.get("is_host"))
        state.code = m.get("code")
        if tid not in self.resuming and isinstance(m.get("v"), int) and (state.v is None or m["v"] > state.v):
            state.v = m["v"]
        view = m.get("view")
        started = summary.get("state") == "playing" and (before is None or before.get("state") != "playing")
        if isinstance(view, dict):
            state.view = view
            if "now" in view:
                state.heard(int(view["now"]), reset=started)
        if state.you is None:
            state.ui = None
        self.mine[tid] = state
        if old is None:
            self.current = tid
            self._joined_line(state)
        else:
            self._diff_lines(state, before or {})
        if started or (summary.get("state") == "playing" and state.ui is None and state.you is not None):
            self._game_starts(state, announce=started)
        if summary.get("state") == "over" and before is not None and before.get("state") == "playing":
            self.say(_("The game is over. Type rematch to play again, or leave."))
        self._update_mode()

    async def _on_events(self, m: JSON) -> None:
        tid = str(m.get("table"))
        state = self.mine.get(tid)
        if state is None:
            return
        v = m.get("v")
        if isinstance(v, int):
            if state.v is not None and v <= state.v:
                return
            state.v = v
        view = m.get("view")
        at = int(m.get("at", 0))
        if isinstance(view, dict):
            state.view = view
        state.heard(at)
        texts = [str(t) for t in m.get("texts", [])]
        events = [e for e in m.get("events", []) if isinstance(e, dict)]
        for line in self._with_hints(state, events, texts, at):
            self.say(line)
        if state.ui is not None and state.view is not None and state.game in LOCAL_TICKS:
            state.wakeups = sorted(set(state.ui.wakeups(state.view)))

    async def _on_cue(self, m: JSON) -> None:
        state = self.mine.get(str(m.get("table")))
        text = str(m.get("text") or "")
        rest = text[len("catch now") :].lstrip("!.: ") if text.lower().startswith("catch now") else text
        if not rest and state is not None and state.view is not None:
            fight = state.view.get("fight") or {}
            for flight in fight.get("flights", []):
                if flight.get("id") == m.get("flight"):
                    thrower = flight.get("thrower")
                    names = state.names()
                    if isinstance(thrower, int) and 0 <= thrower < len(names):
                        rest = _("{name}'s burrito.").format(name=names[thrower])
        self.say((_("CATCH NOW!") + " " + rest).strip())

    # ---- tables: lines a person reads ---------------------------------------------------------------

    def _remember(self, summary: JSON) -> None:
        tid = summary.get("id")
        if not isinstance(tid, str):
            return
        self.tables[tid] = summary
        if tid not in self.numbers:
            self.numbers[tid] = self.next_number
            self.next_number += 1

    def _table_line(self, t: JSON) -> str:
        seats = t.get("seats", [])
        taken = sum(1 for s in seats if s.get("name"))
        parts = [
            _("Table {n}: {game}").format(n=self.numbers.get(t["id"], "?"), game=t.get("game")),
            _("{taken} of {total} seats taken, {free} free").format(
                taken=taken, total=len(seats), free=t.get("free", len(seats) - taken)
            ),
            _state_text(str(t.get("state"))),
            _("{n} watching").format(n=t.get("spectators", 0)),
        ]
        if t.get("private"):
            parts.append(_("private"))
        if t.get("host"):
            parts.append(_("host {name}").format(name=t["host"]))
        options = t.get("options") or {}
        if options:
            parts.append(
                _("options {options}").format(
                    options=_(", ").join(
                        f"{k}={','.join(v) if isinstance(v, list) else v}" for k, v in sorted(options.items())
                    )
                )
            )
        return _(", ").join(parts) + "."

    def _print_tables(self) -> None:
        if not self.tables:
            self.say(_("No tables yet: create one, e.g. create kittens 4 --bots 3."))
            return
        self.say(_("{n} tables:").format(n=len(self.tables)) if len(self.tables) != 1 else _("1 table:"))
        for summary in sorted(self.tables.values(), key=lambda t: self.numbers.get(t["id"], 0)):
            line = self._table_line(summary)
            self.printed[summary["id"]] = line
            self.say(line)

    def _who_lines(self, state: TableState) -> list[str]:
        seats = state.summary.get("seats", [])
        lines = [_("Seats: {seats}.").format(seats=_("; ").join(_seat_text(s) for s in seats))]
        if state.you is not None:
            lines.append(_("You are seat {n}.").format(n=state.you + 1))
        if state.code:
            lines.append(_("Invitation code: {code}.").format(code=state.code))
        return lines

    def _joined_line(self, state: TableState) -> None:
        number = self.numbers.get(state.id, "?")
        if state.you is not None:
            text = _("You sit at table {n} ({game}), seat {seat}.").format(
                n=number, game=state.game, seat=state.you + 1
            )
            if state.is_host and state.state == "waiting":
                text += " " + _("You are the host: type start when ready.")
        else:
            text = _("You watch table {n} ({game}).").format(n=number, game=state.game)
        self.say(text)
        for line in self._who_lines(state):
            self.say(line)

    def _diff_lines(self, state: TableState, before: JSON) -> None:
        old = {s["seat"]: s for s in before.get("seats", [])}
        for seat in state.summary.get("seats", []):
            prev = old.get(seat["seat"], {})
            name, was = seat.get("name"), prev.get("name")
            n = seat["seat"] + 1  # people count seats from 1, as the page does
            if name != was:
                if name and seat.get("bot") and not was:
                    self.say(
                        _("Bot {name} ({level}) sits at seat {n}.").format(
                            name=name, level=seat.get("level"), n=n
                        )
                    )
                elif name and not was:
                    self.say(_("{name} sits at seat {n}.").format(name=name, n=n))
                elif was and not name:
                    self.say(_("{name} left seat {n}.").format(name=was, n=n))
                else:
                    self.say(_("Seat {n}: {name} instead of {was}.").format(n=n, name=name, was=was))
                continue
            if not name or seat.get("bot"):
                if seat.get("bot") and not prev.get("bot") and name:
                    self.say(_("A bot takes {name}'s seat {n} for good.").format(name=name, n=n))
                continue
            if seat.get("standing_in") and not prev.get("standing_in"):
                self.say(_("{name} is away: a bot stands in.").format(name=name))
            elif prev.get("standing_in") and not seat.get("standing_in"):
                self.say(_("{name} is back.").format(name=name))
            elif prev.get("connected", True) and not seat.get("connected", True):
                self.say(_("{name} is away.").format(name=name))
            elif not prev.get("connected", True) and seat.get("connected", True):
                self.say(_("{name} is back.").format(name=name))
        if before.get("host") != state.summary.get("host") and state.summary.get("host"):
            self.say(_("{name} is the host now.").format(name=state.summary["host"]))
        if before.get("spectators") != state.summary.get("spectators"):
            self.say(_("{n} watching.").format(n=state.summary.get("spectators", 0)))

    # ---- the game -------------------------------------------------------------------------------

    def _game_starts(self, state: TableState, announce: bool) -> None:
        state.wakeups = []
        if state.you is None or state.view is None:
            state.ui = None
            if announce:
                self.say(_("The game starts at table {n}.").format(n=self.numbers.get(state.id, "?")))
            return
        state.ui = make_game_ui(
            state.game, state.you, state.names(), state.view, state.summary.get("options") or {}
        )
        if announce:
            self.say(state.ui.welcome())
        if state.game in LOCAL_TICKS:
            state.wakeups = sorted(set(state.ui.wakeups(state.view)))

    def _with_hints(self, state: TableState, events: list[JSON], texts: list[str], at: int) -> list[str]:
        ui, view = state.ui, state.view
        if ui is None or view is None or state.you is None:
            return texts
        try:
            narrate: Callable[[JSON, int | None, Sequence[str], JSON], list[str]] = importlib.import_module(
                f"cardroom.narrate.{state.game}"
            ).narrate
            names = state.names()
            base = [narrate(e, state.you, names, view) for e in events]
            mine = [ui.narrate(e, view, at) for e in events]
        except Exception:  # the UI must never stop the server's words from being read
            return texts
        if sum(len(b) for b in base) != len(texts):
            extra = [line for b, u in zip(base, mine, strict=True) for line in _hinted(b, u, [])[len(b) :]]
            return texts + extra
        out: list[str] = []
        i = 0
        for b, u in zip(base, mine, strict=True):
            chunk = texts[i : i + len(b)]
            i += len(b)
            if b and not u:
                continue  # the person asked for quiet (burrito's m)
            out.extend(_hinted(b, u, chunk))
        return out

    def _tick_timeout(self) -> float | None:
        soonest: float | None = None
        for state in self.mine.values():
            if state.wakeups and state.ui is not None and state.state == "playing":
                left = (state.wakeups[0] - state.play_now()) / 1000
                soonest = left if soonest is None else min(soonest, left)
        return None if soonest is None else max(0.0, soonest)

    def _tick(self) -> None:
        for state in self.mine.values():
            if state.ui is None or state.view is None or state.state != "playing":
                continue
            now = state.play_now()
            while state.wakeups and state.wakeups[0] <= now:
                wake = state.wakeups.pop(0)
                for line in state.ui.tick(state.view, wake):
                    self.say(line)

    # ---- input ----------------------------------------------------------------------------------

    def _update_mode(self) -> None:
        state = self.mine.get(self.current) if self.current else None
        want = state is not None and state.state == "playing"
        if want == self.keys_mode:
            return
        self.keys_mode = want
        self.line = ""
        if want:
            if not self.typing:
                self.term.keys()
            self.say(
                _(
                    "Game keys on: press ? for the keys, / for a command line (say TEXT to chat), L for your lag."
                )
            )
        else:
            self.typing = False
            self.term.lines()
            self.say(_("Typed commands again: type help for the list."))

    async def _input(self, text: str) -> None:
        keys = self.keyreader.feed(text) if text else self.keyreader.flush()
        for key in keys:
            if self.done:
                return
            if self.keys_mode and not self.typing:
                await self._key(key)
                continue
            if key == "enter":
                line, self.line = self.line, ""
                await self._line(line)
            elif key == "backspace":
                self.line = self.line[:-1]
            elif key == "escape" and self.typing:
                self.line = ""
                self._end_typing()
                self.say(_("Cancelled."))
            elif key == "tab":
                self.line += " "
            elif len(key) == 1:
                self.line += key
        if not text and self.line:
            line, self.line = self.line, ""
            await self._line(line)

    def _end_typing(self) -> None:
        self.typing = False
        if self.keys_mode:
            self.term.keys()

    async def _line(self, line: str) -> None:
        if self.asking_name:
            self.asking_name = False
            name = " ".join(line.split())
            if not name:
                self._ask_name(_("A nickname has 1 to 24 printable characters. Your nickname?"))
                return
            self.name = name
            if self.ws is None:
                self._connect_soon(first=True)
            else:
                await self._hello()
            return
        if self.typing:
            self._end_typing()
            if not line.strip():
                self.say(_("Cancelled."))
                return
        await self.command(line)

    def _ask_name(self, prompt: str) -> None:
        self.asking_name = True
        self.say(prompt)

    async def _key(self, key: str) -> None:
        state = self.mine.get(self.current) if self.current else None
        if key == "/":
            self.typing = True
            self.line = ""
            self.term.lines()
            self.say(
                _(
                    "Command: type it, then Enter (say TEXT chats, help lists the commands; an empty line cancels)."
                )
            )
            return
        if key in ("?", "f1"):
            if state is not None and state.ui is not None:
                for line in state.ui.help():
                    self.say(line)
            for line in game_key_help():
                self.say(line)
            self.say(_("?: this help."))
            return
        if key == "L":
            await self._measure_lag()
            return
        if key == "q":
            self.say(_("You leave the table. Goodbye!"))
            await self._quit()
            return
        if state is None or state.ui is None or state.view is None:
            self.say(_("You are watching: press / for a command line, ? for help."))
            return
        result = state.ui.on_key(key, state.view, state.play_now())
        if result is None:
            return
        if isinstance(result, Say):
            self.say(result.text)
            return
        self.refs += 1
        action = find_game(state.game).action_json(result)
        await self._send({"type": "act", "table": state.id, "action": action, "ref": self.refs})

    async def _measure_lag(self) -> None:
        ident = self.next_ping
        self.next_ping += 1
        self.pings[ident] = time.monotonic()
        if not await self._send({"type": "ping", "id": ident}):
            self.pings.pop(ident, None)
            if self.lag_ms is not None:
                self.say(_("Last measured lag: {ms} ms.").format(ms=self.lag_ms))

    async def _quit(self) -> None:
        """Leave every table (a waiting seat frees up at once) and close; never hang on a bad link."""
        self.quitting = True
        ws = self.ws
        if ws is not None:

            async def goodbye() -> None:
                for tid in list(self.mine):
                    await ws.send(json.dumps({"type": "leave", "table": tid}))
                await ws.close()

            with contextlib.suppress(Exception):
                await asyncio.wait_for(goodbye(), 3)
        self.done = True

    # ---- the HTTP API: ratings, records, logging out ------------------------------------------------

    async def _api(self, method: str, path: str, token: str | None = None) -> Any:
        """One API request in a thread (the games go on meanwhile); None after saying why it failed."""
        try:
            return await asyncio.to_thread(accounts.call, self.base, method, path, None, token)
        except accounts.ApiError as exc:
            self.say(exc.message)
            return None

    async def _leaderboard(self, game: str) -> None:
        answer = await self._api("GET", accounts.leaderboard_path(game))
        if not isinstance(answer, dict):
            return
        players = [p for p in answer.get("players", []) if isinstance(p, dict)]
        if not players:
            self.say(
                _("Nobody is on the {game} leaderboard yet: finish a game to be rated.").format(game=game)
            )
            return
        self.say(_("{game} leaderboard:").format(game=game))
        for p in players:
            name = str(p.get("name"))
            played = int(p.get("played") or 0)
            self.say(
                ngettext(
                    "{rank}. {name}: rating {rating}, {games} game, {wins} won.",
                    "{rank}. {name}: rating {rating}, {games} games, {wins} won.",
                    played,
                ).format(
                    rank=p.get("rank"),
                    name=name,
                    rating=format_decimal(float(p.get("rating") or 0), 2),
                    games=played,
                    wins=int(p.get("won") or 0),
                )
            )

    async def _games(self) -> None:
        mine = self.session is not None
        answer = await self._api("GET", "/api/records?mine=1" if mine else "/api/records", self.session)
        if not isinstance(answer, dict):
            return
        records = [r for r in answer.get("records", []) if isinstance(r, dict)]
        if not records:
            self.say(_("You have no finished games yet.") if mine else _("No finished games yet."))
            return
        self.say(_("Your finished games, newest first:") if mine else _("Finished games, newest first:"))
        for r in records:
            self.say(_record_line(r))
        self.say(_("To watch one again: cardroom replay ID, on the machine that runs the server."))

    async def _logout(self) -> None:
        if self.session is None:
            self.say(_("You are not logged in."))
            return
        token, self.session = self.session, None
        accounts.forget_session(self.base)
        answer = await self._api("POST", "/api/logout", token)
        if answer is not None:
            self.say(_("Logged out: this computer no longer keeps your session. Goodbye!"))
        else:
            self.say(_("The saved session is forgotten here. Goodbye!"))
        await self._quit()

    # ---- commands -------------------------------------------------------------------------------

    def _table_arg(self, word: str) -> str:
        if word in self.tables:
            return word
        number = _int(word.lstrip("#"), _("The table number"))
        for tid, n in self.numbers.items():
            if n == number and tid in self.tables:
                return tid
        raise BadCommand(_("There is no table {n}: type tables for the list.").format(n=number))

    def _here(self) -> TableState:
        state = self.mine.get(self.current) if self.current else None
        if state is None:
            raise BadCommand(_("You are at no table: join or create one first."))
        return state

    def _refocus(self) -> None:
        if self.current not in self.mine:
            self.current = next(reversed(self.mine), None) if self.mine else None
        self._update_mode()

    async def command(self, line: str) -> None:
        """One typed line: a message to the server, a line printed, or one clear error line."""
        text = line.strip()
        if not text:
            return
        if text.startswith("/"):
            text = text[1:].lstrip()
        word, _sep, rest = text.partition(" ")
        word = word.lower()
        rest = rest.strip()
        try:
            if not self.welcomed and word not in OFFLINE_COMMANDS:
                raise BadCommand(_("Not connected yet: wait a moment."))
            message = self._parse(word, rest)
        except BadCommand as exc:
            self.say(str(exc))
            return
        if message is None:
            return
        if message.get("type") == "_quit":
            self.say(_("Goodbye!"))
            await self._quit()
            return
        if message.get("type") == "_lag":
            await self._measure_lag()
            return
        if message.get("type") == "_leaderboard":
            await self._leaderboard(str(message["game"]))
            return
        if message.get("type") == "_games":
            await self._games()
            return
        if message.get("type") == "_logout":
            await self._logout()
            return
        await self._send(message)
        if message["type"] == "leave":
            tid = message["table"]
            self.mine.pop(tid, None)
            self.say(_("You leave table {n}.").format(n=self.numbers.get(tid, "?")))
            self._refocus()

    def _parse(self, word: str, rest: str) -> JSON | None:
        words = rest.split()
        if word in ("help", "h", "?"):
            self.say(_("Commands:"))
            for line in command_help():
                self.say(line)
            if self.keys_mode:
                self.say(_("In a game: ? the game's keys, / a command line, L your lag, q leave and quit."))
            return None
        if word in ("quit", "exit"):
            return {"type": "_quit"}
        if word == "lag":
            return {"type": "_lag"}
        if word in ("leaderboard", "ratings"):
            if len(words) != 1:
                raise BadCommand(_("Which game? leaderboard burrito or leaderboard kittens."))
            game = words[0].lower()
            if game not in GAMES:
                raise BadCommand(
                    _("Unknown game {name}: choose {games}.").format(
                        name=words[0], games=_(" or ").join(GAMES)
                    )
                )
            return {"type": "_leaderboard", "game": game}
        if word in ("games", "logout"):
            if words:
                raise BadCommand(_("{word} takes nothing after it.").format(word=word))
            return {"type": "_" + word}
        if word in ("tables", "list", "ls"):
            if not words:
                return {"type": "list_tables"}
            if len(words) > 1 or not words[0].isdigit() or int(words[0]) < 1:
                raise BadCommand(_("{word} takes a page number, e.g. {word} 2.").format(word=word))
            return {"type": "list_tables", "page": int(words[0]) - 1}
        if word == "create":
            return parse_create(words)
        if word in ("join", "watch", "sit"):
            if not words:
                raise BadCommand(_("Which table? {word} N, e.g. {word} 1.").format(word=word))
            if len(words) > 2:
                raise BadCommand(
                    _("{word} takes a table number and, for a private table, its code.").format(word=word)
                )
            tid = self._table_arg(words[0])
            message: JSON = {"type": "spectate" if word == "watch" else "join", "table": tid}
            if len(words) > 1:
                message["code"] = words[1]
            return message
        if word == "who":
            for out in self._who_lines(self._here()):
                self.say(out)
            return None
        if word == "say":
            if not rest:
                raise BadCommand(_("Say what? say TEXT, e.g. say hello."))
            if len(rest) > MAX_CHAT:
                raise BadCommand(_("A chat line has at most 500 characters."))
            message = {"type": "chat", "text": rest}
            if self.current is not None:
                message["table"] = self.current
            return message
        if word in ("start", "leave", "rematch"):
            if words:
                raise BadCommand(_("{word} takes nothing after it.").format(word=word))
            return {"type": word, "table": self._here().id}
        if word == "kick":
            if len(words) != 1:
                raise BadCommand(_("Whom? kick SEAT, e.g. kick 2 (type who for the seats)."))
            state = self._here()
            return {"type": "kick", "table": state.id, "seat": _int(words[0], _("The seat")) - 1}
        if word == "bot":
            state = self._here()
            message = {"type": "add_bot", "table": state.id}
            for w in words:
                if w.isdigit():
                    if "seat" in message:
                        raise BadCommand(_("bot takes one seat number and one level."))
                    message["seat"] = int(w) - 1
                elif w in levels(state.game):
                    if "level" in message:
                        raise BadCommand(_("bot takes one seat number and one level."))
                    message["level"] = w
                else:
                    raise BadCommand(
                        _("Unknown bot level {level}: choose {levels}.").format(
                            level=w, levels=_(", ").join(levels(state.game))
                        )
                    )
            return message
        raise BadCommand(_("Unknown command {word}: type help for the commands.").format(word=word))


def _record_line(r: JSON) -> str:
    """One finished game: its id, game, date and who won."""
    finished = r.get("finished_ms")
    date = (
        time.strftime("%Y-%m-%d %H:%M", time.localtime(finished / 1000))
        if isinstance(finished, int | float)
        else "?"
    )
    seats = [s for s in r.get("seats", []) if isinstance(s, dict)]
    winner = r.get("winner")
    if isinstance(winner, int) and 0 <= winner < len(seats):
        return _("Game {id}: {game}, {date}, won by {name}.").format(
            id=r.get("id"), game=r.get("game"), date=date, name=seats[winner].get("name")
        )
    return _("Game {id}: {game}, {date}, no winner.").format(id=r.get("id"), game=r.get("game"), date=date)


def _apply_profile(profile: object, lang_given: bool) -> None:
    """The account's language, unless the person chose one with --lang."""
    if isinstance(profile, dict) and not lang_given:
        lang = normalize(str(profile.get("lang") or ""))
        if lang is not None:
            set_default_language(lang)


def sign_in(base: str, name: str, register: bool, stdin: TextIO, out: TextIO, lang_given: bool) -> str | None:
    """Log in (or create the account) with a password asked for now; the session token, kept
    for this server; None after one line saying why not (nothing kept)."""
    fd = stdin.fileno()
    if register:
        password = accounts.read_password(
            _("Choose a password for {name} (8 to 256 characters):").format(name=name), fd, out
        )
        again = accounts.read_password(_("The same password again:"), fd, out) if password else ""
        if password and password != again:
            out.write(_("The two passwords differ: no account was created.") + "\n")
            out.flush()
            return None
    else:
        password = accounts.read_password(_("Password for {name}:").format(name=name), fd, out)
    if not password:
        out.write(_("No password given: nothing was done.") + "\n")
        out.flush()
        return None
    body: JSON = {"name": name, "password": password}
    if register:
        body["lang"] = current_language()
    try:
        answer = accounts.call(base, "POST", "/api/register" if register else "/api/login", body)
    except accounts.ApiError as exc:
        out.write(exc.message + "\n")
        out.flush()
        return None
    token = answer.get("token") if isinstance(answer, dict) else None
    account = answer.get("account") if isinstance(answer, dict) else None
    if not isinstance(token, str) or not isinstance(account, dict):
        out.write(_("The server did not open a session.") + "\n")
        out.flush()
        return None
    accounts.store_session(base, str(account.get("name") or name), token)
    if register:
        out.write(_("Account {name} created.").format(name=account.get("name") or name) + "\n")
        out.flush()
    _apply_profile(answer.get("profile"), lang_given)
    return token


def saved_session(base: str, out: TextIO, lang_given: bool) -> str | None:
    """The session kept for this server, when the server still knows it; an expired one is
    forgotten, with a line saying so."""
    stored = accounts.stored_session(base)
    if stored is None:
        return None
    name, token = stored
    try:
        answer = accounts.call(base, "GET", "/api/me", token=token)
    except accounts.ApiError as exc:
        if exc.code in ("session_expired", "not_logged_in"):
            accounts.forget_session(base)
            out.write(
                _("The saved session of {name} has expired: enter as a guest, or use --login {name}.").format(
                    name=name
                )
                + "\n"
            )
            out.flush()
            return None
        return token  # the server is unreachable, or speaks no API: the websocket says more
    if isinstance(answer, dict):
        _apply_profile(answer.get("profile"), lang_given)
    return token


def run_connect(
    url: str,
    name: str | None,
    stdin: TextIO | None = None,
    out: TextIO | None = None,
    lang: str | None = None,
    login: str | None = None,
    register: str | None = None,
    lang_given: bool | None = None,
) -> int:
    """Run the client until the person quits; the exit status. `lang`: the language of
    everything the client says and asks the server for (default: the current one); without
    `lang_given` (--lang), the account's profile chooses it. `login`/`register`: the account to
    enter as (the password is asked for); without them and without `name`, the session saved
    for this server, if any."""
    if lang is not None:
        set_default_language(lang)
    given = lang is not None if lang_given is None else lang_given
    stdin = stdin or sys.stdin
    out = out or sys.stdout
    address = ws_url(url)
    base = accounts.http_base(address)
    session: str | None = None
    if login or register:
        session = sign_in(base, str(register or login), register is not None, stdin, out, given)
        if session is None:
            return EXIT_REFUSED
        name = None
    elif name is None:
        session = saved_session(base, out, given)
    client = ConnectClient(address, name, stdin, out, session=session, lang_given=given)
    try:
        return asyncio.run(client.run())
    finally:
        client.term.restore()


__all__ = [
    "DEFAULT_URL",
    "EXIT_REFUSED",
    "BadCommand",
    "ConnectClient",
    "command_help",
    "parse_create",
    "run_connect",
    "saved_session",
    "sign_in",
    "ws_url",
]
