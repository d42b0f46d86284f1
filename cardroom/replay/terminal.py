"""`cardroom replay`: a stored game read back in this terminal, one plain line per sentence.

Reading a record never writes: the database is opened without the migrations `Store.open`
runs (they may create or change a schema), and a SQLite file that is not there is refused
rather than created. A game that is not over is refused as a whole, since replaying it would
show cards that are still hidden at a table.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import sys
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from cardroom.i18n import _
from cardroom.protocol import CardroomError
from cardroom.replay.export import end_of, game_title, played_on, to_scenario
from cardroom.replay.frames import Frame, each_frame

if TYPE_CHECKING:
    from cardroom.store import GameRecord


class ReplayRefused(CardroomError):
    """Nothing can be replayed: the message says why, in the reader's language."""


def speed(text: str) -> float:
    """`--speed`: 0 prints at once, 1 is real time, 4 four times faster."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(_("not a number: {text}").format(text=text)) from None
    if not math.isfinite(value) or value < 0:
        raise argparse.ArgumentTypeError(_("must be 0 or more: {text}").format(text=text))
    return value


def _shown(url: str) -> str:
    """The URL as it may be printed: a password never is."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    try:
        return make_url(url).render_as_string(hide_password=True)
    except ArgumentError:
        return url


def _missing_sqlite_file(url: str) -> Path | None:
    """The SQLite file `url` names when it does not exist (opening it would create it)."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    try:
        parsed = make_url(url)
    except ArgumentError:
        return None  # the store says what is wrong with it
    if parsed.get_backend_name() != "sqlite" or parsed.database in (None, "", ":memory:"):
        return None
    path = Path(parsed.database or "")
    return None if path.is_file() else path


async def load(url: str, game_id: str) -> GameRecord:
    """The stored game `game_id`, read without writing anything to the database."""
    from sqlalchemy.exc import SQLAlchemyError

    from cardroom.store import BadDatabase, Store
    from cardroom.store.db import create_engine

    missing = _missing_sqlite_file(url)
    if missing is not None:
        raise ReplayRefused(_("There is no database at {path}.").format(path=missing))
    try:
        engine = create_engine(url)
    except BadDatabase as exc:
        raise ReplayRefused(
            _("Cannot use the database {url}: {reason}").format(url=_shown(url), reason=exc)
        ) from None
    store = Store(engine, url)  # not Store.open: no migration, no journal, nothing written
    try:
        return await store.records.get(game_id)
    except (SQLAlchemyError, OSError) as exc:
        reason = str(getattr(exc, "orig", None) or exc).strip().splitlines()
        raise ReplayRefused(
            _("Cannot read the database {url}: {reason}").format(
                url=_shown(url), reason=reason[0] if reason else type(exc).__name__
            )
        ) from None
    finally:
        await store.close()


def check_over(game: GameRecord) -> None:
    """Refuse a game that is not over: its hidden cards must stay hidden."""
    if game.state == "over":
        return
    if game.state == "abandoned":
        raise ReplayRefused(
            _("Game {id} was abandoned before its end: its hidden cards stay hidden.").format(id=game.id)
        )
    raise ReplayRefused(
        _("Game {id} is still being played: its hidden cards stay hidden.").format(id=game.id)
    )


def stamp(at_ms: int) -> str:
    """Play time as minutes, seconds and tenths: [0:12.4]."""
    tenths = max(at_ms, 0) // 100
    return f"[{tenths // 600}:{tenths % 600 // 10:02d}.{tenths % 10}]"


def header(game: GameRecord, seat: int | None) -> list[str]:
    """Which game, when, who sat where and how they ended, and whose eyes the replay uses."""
    lines = [
        _("{game}, game {id}, played on {date}.").format(
            game=game_title(game.record.game), id=game.id, date=played_on(game.started_ms)
        )
    ]
    for index, sat in enumerate(game.seats):
        if sat.place is None:
            lines.append(_("Seat {seat}: {name}.").format(seat=index, name=sat.name))
        else:
            lines.append(
                _("Seat {seat}: {name}, place {place}.").format(seat=index, name=sat.name, place=sat.place)
            )
    if game.winner is not None and 0 <= game.winner < len(game.seats):
        lines.append(_("Winner: {name}.").format(name=game.seats[game.winner].name))
    if seat is None:
        lines.append(_("Every card is shown: the game is over."))
    else:
        lines.append(
            _("As {name} saw it: only their own cards are shown.").format(name=_seat_name(game, seat))
        )
    return lines


def _seat_name(game: GameRecord, seat: int) -> str:
    if 0 <= seat < len(game.seats):
        return game.seats[seat].name
    return _("seat {seat}").format(seat=seat)


def play_frames(
    shots: Iterable[Frame], out: TextIO, pace: float, wait: Callable[[float], None] = time.sleep
) -> None:
    """Each frame's sentences after its time; with `pace` > 0 the gaps of play time are waited
    out, `pace` times faster than they were played."""
    last_at: int | None = None
    for shot in shots:
        if not shot["texts"]:
            continue
        if pace > 0 and last_at is not None and shot["at"] > last_at:
            wait((shot["at"] - last_at) / 1000 / pace)
        last_at = shot["at"]
        for text in shot["texts"]:
            out.write(f"{stamp(shot['at'])} {text}\n")
        out.flush()


def run_replay(
    game_id: str,
    url: str,
    seat: int | None,
    pace: float,
    lang: str,
    export: str | None,
    out: TextIO = sys.stdout,
) -> int:
    """`cardroom replay`: print the game (or write its scenario file); 0 when done."""
    game = asyncio.run(load(url, game_id))
    check_over(game)
    if seat is not None and not 0 <= seat < game.record.players:
        raise ReplayRefused(
            _("There is no seat {seat} in game {id}: the seats are 0 to {last}.").format(
                seat=seat, id=game.id, last=game.record.players - 1
            )
        )
    if export is not None:
        text = json.dumps(to_scenario(game), indent=2, ensure_ascii=False) + "\n"
        if export == "-":
            out.write(text)
            return 0
        try:
            Path(export).write_text(text, encoding="utf-8")
        except OSError as exc:
            raise ReplayRefused(
                _("Cannot write {path}: {reason}").format(path=export, reason=exc.strerror or exc)
            ) from None
        out.write(_("The scenario of game {id} is in {path}.").format(id=game.id, path=export) + "\n")
        return 0
    names = [_seat_name(game, i) for i in range(game.record.players)]
    # One frame at a time: a long game's frames, every hand shown, run to hundreds of megabytes.
    shots = each_frame(game.record, seat, names, lang, everything=seat is None, end_at=end_of(game))
    try:
        for line in header(game, seat):
            out.write(line + "\n")
        out.flush()
        play_frames(shots, out, pace)
        out.write(_("End of the replay.") + "\n")
        out.flush()
    except BrokenPipeError:  # read through `head` or a pager that was closed: that is fine
        if out is sys.stdout:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 0
