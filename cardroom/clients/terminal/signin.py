"""Accounts in `cardroom connect`: signing in before entering, and the account's commands.

`--login NAME` / `--register NAME` sign in over the HTTP API before entering and send the session
in `hello`; the session is kept per server address (account.py), so `cardroom connect URL` enters
as the account next time; `logout` forgets it. `leaderboard GAME` and `games` read the API.
`password`, `logout-all`, `delete-account` and `export FILE` manage the account; a password is
asked for on a line of its own, not echoed (the terminal's echo is off while it is typed).
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Awaitable, Callable
from typing import Any, TextIO

from cardroom.clients.terminal import account as accounts
from cardroom.clients.terminal.plain import plain
from cardroom.clients.terminal.wire import Connection
from cardroom.i18n import _, current_language, format_decimal, ngettext
from cardroom.protocol import JSON


class AccountCommands(Connection):
    """The commands that go through the HTTP API: ratings, records, logging out."""

    async def _api(self, method: str, path: str, token: str | None = None, body: JSON | None = None) -> Any:
        """One API request in a thread (the games go on meanwhile); None after saying why it failed."""
        try:
            return await asyncio.to_thread(accounts.call, self.base, method, path, body, token, self.token)
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
            self.say(record_line(r))
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

    # ---- managing the account ---------------------------------------------------------------

    def _ask_secrets(self, prompts: list[str], then: Callable[[list[str]], Awaitable[None]]) -> None:
        """Ask for passwords, one unechoed line each, then call `then(answers)`; a line saying
        why not when nobody is logged in."""
        if self.session is None:
            self.say(_("You are not logged in."))
            return
        self.asking_secret = accounts.SecretPrompts(prompts, then)
        self._next_secret()

    def _next_secret(self) -> None:
        asking = self.asking_secret
        assert asking is not None
        if self.keys_mode:
            self.typing = True  # in a game: the line goes to the prompt, not to the game keys
        self.say(asking.prompts[len(asking.answers)])
        self.term.hidden()

    async def _secret_line(self, line: str) -> None:
        asking = self.asking_secret
        assert asking is not None
        self.term.lines()
        if self.typing:
            self._end_typing()
        if not line:
            self.asking_secret = None
            self.say(_("No password given: nothing was done."))
            return
        asking.answers.append(line)
        if len(asking.answers) < len(asking.prompts):
            self._next_secret()
            return
        self.asking_secret = None
        await asking.then(asking.answers)

    async def _change_password(self) -> None:
        async def then(answers: list[str]) -> None:
            old, new, again = answers
            if new != again:
                self.say(_("The two new passwords differ: nothing was changed."))
                return
            body: JSON = {"old": old, "new": new}
            if await self._api("POST", "/api/password", self.session, body) is not None:
                self.say(_("Your password is changed, and your other sessions have ended."))

        self._ask_secrets(
            [
                _("Your current password:"),
                _("Your new password (8 to 256 characters):"),
                _("The same new password again:"),
            ],
            then,
        )

    async def _logout_all(self) -> None:
        if self.session is None:
            self.say(_("You are not logged in."))
            return
        if await self._api("POST", "/api/logout-all", self.session) is None:
            return
        self.session = None
        accounts.forget_session(self.base)
        self.say(_("Logged out everywhere: every session of your account has ended, this one too. Goodbye!"))
        await self._quit()

    async def _delete_account(self) -> None:
        name = self.account or ""

        async def then(answers: list[str]) -> None:
            body: JSON = {"password": answers[0]}
            if await self._api("DELETE", "/api/me", self.session, body) is None:
                return
            self.session = None
            accounts.forget_session(self.base)
            self.say(
                _(
                    "The account {name} is deleted: its games stay in the records as those of a "
                    "deleted player. Goodbye!"
                ).format(name=name)
            )
            await self._quit()

        self._ask_secrets(
            [_("To delete the account {name} for good, type its password:").format(name=name)], then
        )

    async def _export(self, path: str) -> None:
        if self.session is None:
            self.say(_("You are not logged in."))
            return
        data = await self._api("GET", "/api/me/export", self.session)
        if data is None:
            return
        try:
            accounts.write_private(path, json.dumps(data, indent=1, ensure_ascii=False) + "\n")
        except FileExistsError:
            self.say(_("{file} already exists: choose another file name.").format(file=path))
            return
        except OSError as exc:
            self.say(_("Cannot write {file}: {why}").format(file=path, why=exc.strerror or exc))
            return
        self.say(_("Your account's data is saved in {file}.").format(file=path))


def record_line(r: JSON) -> str:
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
        out.write(plain(exc.message) + "\n")
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
        out.write(plain(_("Account {name} created.").format(name=account.get("name") or name)) + "\n")
        out.flush()
    accounts.apply_profile(answer.get("profile"), lang_given)
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
                plain(
                    _(
                        "The saved session of {name} has expired: enter as a guest, or use --login {name}."
                    ).format(name=name)
                )
                + "\n"
            )
            out.flush()
            return None
        return token  # the server is unreachable, or speaks no API: the websocket says more
    if isinstance(answer, dict):
        accounts.apply_profile(answer.get("profile"), lang_given)
    return token
