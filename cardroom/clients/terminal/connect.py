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
`logout` forgets it. `leaderboard GAME` and `games` read the API; `password`, `logout-all`,
`delete-account` and `export FILE` manage the account (signin.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
from typing import TextIO

from cardroom.clients.terminal import account as accounts
from cardroom.clients.terminal.loop import stop_watching, watch_input
from cardroom.clients.terminal.signin import saved_session, sign_in
from cardroom.clients.terminal.tableplay import TablePlay
from cardroom.clients.terminal.wire import ws_url
from cardroom.i18n import _, set_default_language
from cardroom.narrate.speech import DEFAULT_VERBOSITY

EXIT_REFUSED = 2
"""The exit status when the server refuses the name or password given on the command line."""


class ConnectClient(TablePlay):
    """One person on one server: the lobby as typed commands, a running game as single keys."""

    async def run(self) -> int:
        loop = asyncio.get_running_loop()
        watch_input(loop, self.fd, self._deliver)
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
            stop_watching(loop, self.fd)
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

    def _deliver(self, data: bytes) -> None:
        if not data:
            self.queue.put_nowait(("eof", None))
        else:
            self.queue.put_nowait(("input", self.decoder.decode(data)))

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
                self.asking_secret = None  # a password asked for in a game: Escape drops the question
                self._end_typing()
                self.say(_("Cancelled."))
            elif key == "tab":
                self.line += " "
            elif len(key) == 1:
                self.line += key
        if not text and self.line:
            line, self.line = self.line, ""
            await self._line(line)

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
        if self.asking_secret is not None:
            await self._secret_line(line)
            return
        if self.typing:
            self._end_typing()
            if not line.strip():
                self.say(_("Cancelled."))
                return
        await self.command(line)


def run_connect(
    url: str,
    name: str | None,
    stdin: TextIO | None = None,
    out: TextIO | None = None,
    lang: str | None = None,
    login: str | None = None,
    register: str | None = None,
    lang_given: bool | None = None,
    verbosity: str = DEFAULT_VERBOSITY,
    plain: bool = False,
) -> int:
    """Run the client until the person quits; the exit status. `lang`: the language of
    everything the client says and asks the server for (default: the current one); without
    `lang_given` (--lang), the account's profile chooses it. `login`/`register`: the account to
    enter as (the password is asked for); without them and without `name`, the session saved
    for this server, if any. `verbosity`: which lines of the games are said (speaker.py); `plain`: no wrapping, no escape sequence."""
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
    client = ConnectClient(
        address, name, stdin, out, session=session, lang_given=given, verbosity=verbosity, plain=plain
    )
    try:
        return asyncio.run(client.run())
    finally:
        client.term.restore()
