"""The connection of `cardroom connect`: the websocket, hello, reconnecting and resuming.

The connection comes back by itself when it drops: `hello` with the token, then `resume` from the
last version seen of every table. `Connection` holds the client's state and sends and receives;
the lobby, the account commands and the game are layers on top of it (lobby.py, signin.py,
tableplay.py), joined in connect.py.
"""

from __future__ import annotations

import asyncio
import codecs
import contextlib
import json
import time
from typing import Any, TextIO
from urllib.parse import urljoin, urlsplit, urlunsplit

import websockets

from cardroom.clients.terminal import account as accounts
from cardroom.clients.terminal.keys import KeyReader
from cardroom.clients.terminal.loop import Terminal
from cardroom.clients.terminal.speaker import Speaker
from cardroom.clients.terminal.tablestate import TableState
from cardroom.i18n import _, current_language
from cardroom.narrate.speech import DEFAULT_VERBOSITY
from cardroom.protocol import JSON, CardroomError

DEFAULT_URL = "ws://127.0.0.1:8000/ws"
PROTOCOL = 2
RECONNECT_FOR_S = 150.0
"""How long to keep trying after a drop (the server keeps a seat for two minutes)."""


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


CONNECT_ERRORS = (OSError, TimeoutError, websockets.InvalidHandshake, websockets.InvalidURI)
"""What opening a connection raises when the server cannot be reached."""


async def _open(url: str) -> Any:
    """A websocket to `url`, with this client's limits (one way, for a first connection, a
    reconnection and a move to the table's node)."""
    return await websockets.connect(url, max_size=2**22, open_timeout=10, close_timeout=2)


def server_messages(raw: str | bytes) -> list[JSON]:
    """The messages of one server frame, in order: a JSON object is one message, a JSON array
    (protocol 2) holds several. What is not a message object is left out."""
    try:
        frame = json.loads(raw)
    except ValueError:
        return []
    return [m for m in (frame if isinstance(frame, list) else [frame]) if isinstance(m, dict)]


class Connection:
    """One person on one server: the state of the client, the websocket and what keeps it up."""

    def __init__(
        self,
        url: str,
        name: str | None,
        stdin: TextIO,
        out: TextIO,
        session: str | None = None,
        lang_given: bool = True,
        verbosity: str = DEFAULT_VERBOSITY,
        plain: bool = False,
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
        self.speaker = Speaker(out, verbosity, plain=plain)
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
        self.asking_secret: accounts.SecretPrompts | None = None
        """Passwords being asked for (change the password, delete the account): lines go there."""
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
        self.held: dict[str, list[JSON]] = {}
        """A table's `events` that came while resuming it: taken in order of `v` at `resumed`."""
        self.dropped_at: float | None = None
        self.quitting = False
        self.hush: set[str] = set()
        self.printed: dict[str, str] = {}
        self.moving = False
        """Connecting to the node of the table, as the server asked (`move`): nothing to say."""
        self.left: Any = None
        """The connection a move left, closed once the new one is welcome (closed sooner, the
        node left could tell the table the player was gone before the new one had them)."""

    # ---- output -------------------------------------------------------------------------------

    def say(self, line: str) -> None:
        self.speaker.say(line)

    def _end_typing(self) -> None:
        """A typed line is done: in a game, the keys are the game's again."""
        self.typing = False
        if self.keys_mode:
            self.term.keys()

    # ---- the connection -----------------------------------------------------------------------

    def _connect_soon(self, first: bool) -> None:
        if self.connecting is None or self.connecting.done():
            self.connecting = asyncio.create_task(self._connect(first))

    async def _connect(self, first: bool) -> None:
        delay = 0.25
        while not self.done:
            try:
                ws = await _open(self.url)
            except CONNECT_ERRORS as exc:
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
        hello["moves"] = True  # this client goes to its table's node when asked (`_on_move`)
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
        accounts.apply_profile(m.get("profile"), self.lang_given)
        if again:
            self.hush = {"tables", "lobby_chat"}  # the listing and chat we saw before the drop
            if not self.moving:
                self.say(_("Reconnected."))
            self.moving = False
            if self.left is not None:
                left, self.left = self.left, None
                with contextlib.suppress(websockets.ConnectionClosed):
                    await left.close()
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

    async def _on_move(self, m: JSON) -> None:
        """The server asks this client to play from the node that owns its table (a cluster's,
        docs/deploy.md): connect there with the token, resume the tables, close the connection
        here. If that node cannot be reached, play goes on here, through the relay."""
        try:
            target = ws_url(urljoin(self.url, str(m.get("url", ""))))
        except CardroomError:
            return
        if target == self.url or self.moving:
            return
        try:
            ws = await _open(target)
        except CONNECT_ERRORS:
            return
        self.left, self.ws, self.url, self.moving = self.ws, ws, target, True
        self.resuming = {tid: t.v for tid, t in self.mine.items() if t.v is not None}
        self.reader_task = asyncio.create_task(self._read(ws))
        await self._hello()

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

    async def _on_resumed(self, m: JSON) -> None:
        tid = str(m.get("table"))
        self.resuming.pop(tid, None)
        # A live batch can overtake the missed ones (and comes again among them): each once, in order.
        for batch in sorted(
            self.held.pop(tid, []), key=lambda b: b["v"] if isinstance(b.get("v"), int) else 0
        ):
            await self._message(batch)
        state = self.mine.get(tid)
        if state is not None and isinstance(m.get("v"), int):
            state.v = max(state.v or 0, m["v"])
        if not self.resuming:
            self.say(_("Caught up with the game."))

    def _ask_name(self, prompt: str) -> None:
        self.asking_name = True
        self.say(prompt)

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

    def _update_mode(self) -> None:
        """Typed lines or single keys, for the table in focus (the game layer decides)."""
