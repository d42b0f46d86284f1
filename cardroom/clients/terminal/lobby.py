"""The lobby of `cardroom connect`: typed commands, one a line, and the tables as lines.

`tables`, `create kittens 4 --bots 3`, `join 2`, `say hello`, `help`, ...: each typed line is a
message to the server, a line printed, or one clear error line. In the lobby each change of a
table is one line; at a table, the seats' comings and goings are.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cardroom.bots import levels
from cardroom.bots.names import level_name
from cardroom.clients.terminal.signin import AccountCommands
from cardroom.clients.terminal.tablestate import TableState
from cardroom.games import GAMES, find_game
from cardroom.i18n import N_, _, ngettext
from cardroom.protocol import JSON

MAX_CHAT = 500

COMMANDS: tuple[tuple[str, str], ...] = (
    ("tables [PAGE]", N_("list the tables: number, game, seats, state, spectators")),
    (
        "create GAME [SEATS] [--bots N] [--level LEVEL] [--variant V] [--relaxed] [--private] [--set NAME=VALUE]",
        N_("create a table and sit at seat 1 as its host, e.g. create burrito 4 --bots 3 --level hard"),
    ),
    ("  --relaxed", N_("relaxed timing: every window to react in is twice as long")),
    ("join N [CODE]", N_("sit at table N, or at the table of the host named N (CODE for a private table)")),
    ("watch N [CODE]", N_("watch table N, or the table of the host named N")),
    ("who", N_("the seats at your table")),
    ("start", N_("start the game (host; empty seats get bots)")),
    ("leave", N_("leave your table (during a game a bot takes your seat)")),
    ("kick SEAT", N_("remove whoever sits at SEAT (host)")),
    ("bot [SEAT] [LEVEL]", N_("seat a bot before the start (host)")),
    (
        "extra SEAT [off]",
        N_(
            "give the player at SEAT extra time: the windows that ask them to react are twice as long (host, before the start; off takes it back)"
        ),
    ),
    (
        "play GAME",
        N_("Play now: a seat at the fullest open table of GAME, or a new one that starts by itself"),
    ),
    (
        "rematch [off]",
        N_(
            "once the game is over, say you are ready to play again with the same seats (off takes it back): it starts when every player is; the host's start starts it now, bots for the others"
        ),
    ),
    ("say TEXT", N_("chat at your table, or in the lobby when you are at no table")),
    ("recap", N_("what happened at your table since you last asked (R in a game)")),
    ("leaderboard GAME", N_("the ratings of a game: rank, name, rating, games played and won")),
    ("games", N_("the finished games (yours when you are logged in), to watch with cardroom replay ID")),
    ("logout", N_("log out of your account, forget the saved session and quit")),
    ("password", N_("change your account's password (your other sessions end)")),
    ("logout-all", N_("log out of your account everywhere, this terminal too, and quit")),
    ("delete-account", N_("delete your account for good (asks its password) and quit")),
    ("export FILE", N_("save everything the server keeps about your account in FILE, as JSON")),
    ("lag", N_("measure your lag to the server")),
    ("help", N_("this list")),
    ("quit", N_("leave your tables and quit")),
)
OFFLINE_COMMANDS = frozenset(
    {
        "help",
        "quit",
        "exit",
        "lag",
        "leaderboard",
        "ratings",
        "games",
        "logout",
        "password",
        "logout-all",
        "delete-account",
        "export",
    }
)


def command_help() -> list[str]:
    return [_("{key}: {what}").format(key=k, what=_(what)) for k, what in COMMANDS]


def recap_query(table: str) -> JSON:
    """The recap question (the recap key, R, and the `recap` command): the server answers with
    what happened at `table` since this player last asked."""
    return {"type": "query", "table": table, "what": "recap"}


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
        elif flag == "--relaxed" and not eq:
            options["timing"] = "relaxed"
        else:
            raise BadCommand(
                _(
                    "Unknown option {word}: create knows --bots, --level, --variant, --relaxed, --private and --set."
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


def _seat_text(seat: JSON) -> str:
    name = seat.get("name")
    if not name:
        return _("seat {n} free").format(n=seat["seat"] + 1)
    if seat.get("bot"):
        return _("seat {n} {name} (bot, {level})").format(
            n=seat["seat"] + 1, name=name, level=level_name(str(seat.get("level") or ""))
        )
    extra = []
    if seat.get("standing_in"):
        extra.append(_("a bot stands in"))
    elif not seat.get("connected", True):
        extra.append(_("away"))
    if seat.get("extra_time"):
        extra.append(_("extra time"))
    if extra:
        return _("seat {n} {name} ({extra})").format(n=seat["seat"] + 1, name=name, extra=_(", ").join(extra))
    return _("seat {n} {name}").format(n=seat["seat"] + 1, name=name)


def time_to_react_lines(options: JSON, seats: list[JSON], you: int | None = None) -> list[str]:
    """What a table's relaxed timing and extra time mean, said to everyone at it as the game
    starts; `you`'s own extra time is left out (they heard it when it was granted, and a game's
    start is when a listener has the most to hear, as the page does)."""
    lines = []
    if options.get("timing") == "relaxed":
        lines.append(_("Relaxed timing: every window to react in is twice as long."))
    names = [
        str(s.get("name")) for i, s in enumerate(seats) if s.get("extra_time") and s.get("name") and i != you
    ]
    if names:
        lines.append(
            _("Extra time for {names}: the windows that ask them to react are twice as long.").format(
                names=_(", ").join(names)
            )
        )
    return lines


def rematch_line(seats: list[JSON], ready: list[int]) -> str:
    """Who is ready for a rematch, and whom the table waits for (the page says the same)."""
    people = [s for s in seats if s.get("name") and not s.get("bot")]
    yes = [str(s["name"]) for s in people if s.get("seat") in ready]
    waiting = [str(s["name"]) for s in people if s.get("seat") not in ready and s.get("connected")]
    text = _("Ready for a rematch: {names}.").format(names=_(", ").join(yes))
    if waiting:
        text += " " + _("Waiting for {names}.").format(names=_(", ").join(waiting))
    return text


def _state_text(state: str) -> str:
    return {"waiting": _("waiting"), "playing": _("playing"), "over": _("game over")}.get(state, state)


class Lobby(AccountCommands):
    """Typed commands, the lobby's messages, and the lines that describe tables and seats."""

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
                ngettext(
                    "Page {page} of {pages}, {total} table in all: tables {next} shows the next page.",
                    "Page {page} of {pages}, {total} tables in all: tables {next} shows the next page.",
                    total,
                ).format(page=page + 1, pages=pages, total=total, next=page + 2 if page + 1 < pages else 1)
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

    async def _on_notice(self, m: JSON) -> None:
        """What happens to a table: paused while the server cannot save, going on, or closed."""
        state = self.mine.get(str(m.get("table")))
        if state is not None and m.get("code") in ("table_paused", "table_resumed"):
            state.paused = m.get("code") == "table_paused"  # a resync saying the same is not said again
        self.say(str(m.get("message") or m.get("code")))

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
            ngettext(
                "{taken} of {total} seat taken, {free} free",
                "{taken} of {total} seats taken, {free} free",
                len(seats),
            ).format(taken=taken, total=len(seats), free=t.get("free", len(seats) - taken)),
            _state_text(str(t.get("state"))),
            ngettext("{n} watching", "{n} watching", t.get("spectators", 0)).format(n=t.get("spectators", 0)),
        ]
        if t.get("private"):
            parts.append(_("private"))
        if t.get("host"):
            parts.append(_("host {name}").format(name=t["host"]))
        options = {k: v for k, v in (t.get("options") or {}).items() if k not in ("timing", "extra_time")}
        if (t.get("options") or {}).get("timing") == "relaxed":
            parts.append(_("relaxed timing"))
        extra = [str(s.get("name")) for s in seats if s.get("extra_time") and s.get("name")]
        if extra:
            parts.append(_("extra time for {names}").format(names=_(", ").join(extra)))
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
        self.say(ngettext("{n} table:", "{n} tables:", len(self.tables)).format(n=len(self.tables)))
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
                            name=name, level=level_name(str(seat.get("level") or "")), n=n
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
            if seat.get("extra_time") and not prev.get("extra_time"):
                self.say(
                    _("{name} has extra time: the windows that ask them to react are twice as long.").format(
                        name=name
                    )
                )
            elif prev.get("extra_time") and not seat.get("extra_time"):
                self.say(_("{name} no longer has extra time.").format(name=name))
        if before.get("host") != state.summary.get("host") and state.summary.get("host"):
            self.say(_("{name} is the host now.").format(name=state.summary["host"]))
        if before.get("spectators") != state.summary.get("spectators"):
            watching = state.summary.get("spectators", 0)
            self.say(ngettext("{n} watching.", "{n} watching.", watching).format(n=watching))

    def _table_arg(self, word: str) -> str:
        """A table by its number here, or by its host's name: each terminal numbers the tables
        as it learns of them, so a friend's "table 2" may be another table here, while the
        host's name is the same for everyone (the page says "the table of Fay")."""
        if word in self.tables:
            return word
        if not word.startswith("#") and not word.isdigit():
            hosted = sorted(
                (
                    tid
                    for tid, t in self.tables.items()
                    if str(t.get("host", "")).casefold() == word.casefold()
                ),
                key=lambda tid: self.numbers.get(tid, 0),
            )
            if len(hosted) == 1:
                return hosted[0]
            if hosted:
                numbers = _(", ").join(str(self.numbers.get(t, "?")) for t in hosted)
                raise BadCommand(
                    ngettext(
                        "{name} hosts {n} table: give its number ({numbers}).",
                        "{name} hosts {n} tables: give one of their numbers ({numbers}).",
                        len(hosted),
                    ).format(name=word, n=len(hosted), numbers=numbers)
                )
            raise BadCommand(
                _("No table has a host named {name}: type tables for the list.").format(name=word)
            )
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
        local = {  # the commands the client answers itself, without an argument
            "_lag": self._measure_lag,
            "_games": self._games,
            "_logout": self._logout,
            "_password": self._change_password,
            "_logout-all": self._logout_all,
            "_delete-account": self._delete_account,
        }
        if message["type"] in local:
            await local[message["type"]]()
            return
        if message.get("type") == "_leaderboard":
            await self._leaderboard(str(message["game"]))
            return
        if message.get("type") == "_export":
            await self._export(str(message["file"]))
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
        if word == "export":
            if not rest:
                raise BadCommand(_("Into which file? export FILE, e.g. export my-account.json."))
            return {"type": "_export", "file": rest}
        if word in ("games", "logout", "password", "logout-all", "delete-account"):
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
        if word == "recap":
            if words:
                raise BadCommand(_("{word} takes nothing after it.").format(word=word))
            return recap_query(self._here().id)
        if word == "play":
            if len(words) != 1 or words[0] not in GAMES:
                raise BadCommand(_("Play which game? play {games}.").format(games=_(" or ").join(GAMES)))
            return {"type": "play_now", "game": words[0]}
        if word == "rematch":
            if words not in ([], ["off"]):
                raise BadCommand(_("rematch says you are ready; rematch off takes it back."))
            return {"type": "rematch", "table": self._here().id, "ready": not words}
        if word in ("start", "leave"):
            if words:
                raise BadCommand(_("{word} takes nothing after it.").format(word=word))
            return {"type": word, "table": self._here().id}
        if word == "kick":
            if len(words) != 1:
                raise BadCommand(_("Whom? kick SEAT, e.g. kick 2 (type who for the seats)."))
            state = self._here()
            return {"type": "kick", "table": state.id, "seat": _int(words[0], _("The seat")) - 1}
        if word == "extra":
            if not words or len(words) > 2 or (len(words) == 2 and words[1].lower() != "off"):
                raise BadCommand(
                    _("Whom? extra SEAT, or extra SEAT off, e.g. extra 2 (type who for the seats).")
                )
            state = self._here()
            seat = _int(words[0], _("The seat")) - 1
            return {"type": "extra_time", "table": state.id, "seat": seat, "on": len(words) == 1}
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
