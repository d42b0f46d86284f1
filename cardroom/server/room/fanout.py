"""The fan-out of a batch: what each member of a table is sent, built once per seat and language.

The hottest part of a busy server after the sockets (issue 26: a third of its processor time at
200 tables), so it is compiled with mypyc (`cardroom.native`) like the views and the narration
it calls; `Telling` (tell.py) calls these with the room, of which they read the seats' layer
(seats.py) and below. Plain functions on the room's fields, not methods: a compiled class
cannot be a base of the room's interpreted layers.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING

from cardroom.i18n import use_language
from cardroom.narrate.narrator import Narrator, Said
from cardroom.narrate.speech import Digest, Fold, Priority
from cardroom.protocol import JSON, Event
from cardroom.server.wire import encode

if TYPE_CHECKING:
    from cardroom.server.room.seats import Seats


class Heard:
    """A batch as one seat hears it: the events as it may know them, its view after them, and
    each event's priority for it (what its narration and its digest both read)."""

    def __init__(self, events: list[JSON], view: JSON | None, priorities: list[Priority]) -> None:
        self.events = events
        self.view = view
        self.priorities = priorities


def fan_out(room: Seats, now: int, events: list[Event]) -> None:
    """Send a batch (version `room.version`, kept in history by the driver) to each member.

    Members who share a seat (spectators share None) hear the batch alike (`hear`, once per
    seat); those who also share a language get the same message, built and encoded once.
    """
    seat_of: dict[str, int] = {}
    for i, sitting in enumerate(room.seats):
        player_id = sitting.player
        if player_id is not None and player_id not in seat_of:
            seat_of[player_id] = i
    members: list[str] = room.members()
    seats: list[int | None] = []
    for pid in members:
        seat = seat_of.get(pid)
        if seat not in seats:
            seats.append(seat)
    narrator: Narrator = room.narrator
    hearing = hear(room, events, seats)
    folded: dict[int | None, list[Fold]] = {}
    summaries: dict[int | None, Counter[Fold] | None] = {}
    digests: dict[int | None, Digest] = room.digests
    closes = narrator.closes_digest([event.kind for event in events])
    for seat, heard in hearing.items():
        folds: list[Fold] = (
            [] if heard is None else narrator.folds(heard.events, seat, heard.view, heard.priorities)
        )
        folded[seat] = folds
        digest = digests.get(seat)
        if digest is None:
            digest = Digest(now)
            digests[seat] = digest
        if folds:
            digest.add(folds)
        held = heard is not None and narrator.holds_summary(seat, heard.view)
        summaries[seat] = digest.summary_now(now, closes, held)
    names: list[str] = room.names()
    said: Said = {}
    built: dict[tuple[int | None, str], bytes | None] = {}
    players = room.lobby.players
    recaps: dict[str, Digest] = room.recaps
    version: int = room.version
    table_id: str = room.id
    language: AbstractContextManager[str] | None = None
    entered = ""
    """The language entered for the members so far: `Narrator.lines` need not enter it again
    for each (a table's members mostly share one)."""
    try:
        for pid in members:
            seat = seat_of.get(pid)
            folds = folded[seat]
            if folds or pid not in recaps:  # a Digest per member per batch costs
                recap = recaps.get(pid)
                if recap is None:
                    recap = Digest(now)
                    recaps[pid] = recap
                recap.add(folds)
            player = players.get(pid)
            if player is None:
                continue
            connection = player.connection
            if connection is None:
                continue
            lang: str = player.lang
            key = (seat, lang)
            if key in built:
                data = built[key]
            else:
                if lang != entered:
                    if language is not None:
                        language.__exit__(None, None, None)
                    language = use_language(lang)
                    entered = language.__enter__()
                message = batch_message(
                    narrator, table_id, version, now, hearing[seat], seat, lang, names, summaries[seat], said
                )
                data = None if message is None else encode(message)
                built[key] = data
            if data is not None:
                connection.send_raw(data)
    finally:
        if language is not None:
            language.__exit__(None, None, None)


def hear(room: Seats, events: Sequence[Event], seats: Sequence[int | None]) -> dict[int | None, Heard | None]:
    """The batch as each of `seats` hears it (None: a spectator), or None for a seat that
    hears nothing of it. The one place events are filtered for members (`Event.for_seat`
    for the events a seat knows the secret of, the public form, built once, for the
    others); the views are built together (`Table.views`). (The leak checker, tests/server/
    test_leaks.py, holds what this gives against what each seat may know.)"""
    said: list[JSON | None] = [ev.data_for_all() if ev.public else None for ev in events]
    secret = False
    for ev in events:
        if ev.knowers:
            secret = True
    table, narrator = room.table, room.narrator
    views: dict[int | None, JSON] = table.views(seats) if table is not None else {}
    out: dict[int | None, Heard | None] = {}
    everyones: list[JSON] | None = None
    for seat in seats:
        heard: list[JSON]
        if not secret or seat is None:
            if everyones is None:
                everyones = [e for e in said if e is not None]
            heard = everyones
        else:
            heard = []
            for ev, public in zip(events, said, strict=True):
                if seat in ev.knowers:
                    mine = ev.for_seat(seat)
                    assert mine is not None
                    heard.append(mine)
                elif public is not None:
                    heard.append(public)
        if not heard:
            out[seat] = None
            continue
        view = views.get(seat)
        out[seat] = Heard(heard, view, narrator.priorities(heard, seat, view))
    return out


def batch_message(
    narrator: Narrator,
    table_id: str,
    v: int,
    at: int,
    heard: Heard | None,
    seat: int | None,
    lang: str,
    names: list[str],
    summary: Counter[Fold] | None = None,
    said: Said | None = None,
) -> JSON | None:
    """The batch as `seat` hears it (`hear`), narrated in `lang`; None if it hears nothing
    of it. `summary` is the seat's digest of the background, due now (said by the "normal"
    verbosity); `said`, the batch's lines said so far (`Narrator.lines`)."""
    if heard is None:
        return None
    view = heard.view
    texts, priority = narrator.lines(heard.events, seat, names, view, lang, heard.priorities, said)
    message: JSON = {
        "type": "events",
        "table": table_id,
        "v": v,
        "at": at,
        "events": heard.events,
        "texts": texts,
        "priority": priority,
        "urgent": [p == Priority.ANSWER for p in priority],
        "view": view,
    }
    sentence = narrator.summary(summary, seat, names, lang) if summary else ""
    if sentence:
        message["summary"] = sentence
    return message
