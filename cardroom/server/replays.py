"""The replay pages the HTTP API serves (`/api/records/ID/frames`): built off the event loop,
kept in a cache bounded by bytes.

A long game's frames as one answer ran to hundreds of megabytes, and building and encoding
them on the event loop stalled every table for seconds. So a replay comes in pages of
`PAGE_FRAMES` frames; each page is drawn and encoded in a thread, one build at a time (the
tables' event loop keeps the processor between them), and every request for a page being
built waits for that one build. A finished game's pages never change, so they are kept, the
least recently read dropped first once the cache would pass its size in bytes
(`Limits.replay_cache_bytes`). The key is canonical (the seat as a number, the language as one
of ours), so `seat=0` and `seat=00` are one page, not two.
"""

from __future__ import annotations

import asyncio
import json
from collections import OrderedDict
from typing import NamedTuple

from cardroom.i18n import _
from cardroom.protocol import JSON
from cardroom.replay import page
from cardroom.store import GameRecord, StoreError

PAGE_FRAMES = 50
"""Frames per page: 50 steps of a 12-seat game seen whole are at most about 3 MB."""
WAITING = 8
"""Pages waiting to be built at most; a request for yet another is told the server is busy
(each waiting request holds its game's whole record)."""
COUNTS_KEPT = 4096
"""Frame counts remembered (a few bytes each), so a page past a game's end is refused unbuilt."""


class PageKey(NamedTuple):
    """One page of one replay: the game, the seat (None: everything), the language, the page."""

    game: str
    seat: int | None
    lang: str
    page: int


class ReplayCache:
    """Encoded pages, least recently read first out; never more than `limit` bytes of them."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.pages: OrderedDict[PageKey, bytes] = OrderedDict()
        self.bytes = 0

    def get(self, key: PageKey) -> bytes | None:
        body = self.pages.get(key)
        if body is not None:
            self.pages.move_to_end(key)
        return body

    def put(self, key: PageKey, body: bytes) -> None:
        """Keep `body`, dropping the least recently read pages to make room (a page bigger
        than the whole cache is served and not kept)."""
        if len(body) > self.limit or key in self.pages:
            return
        self.pages[key] = body
        self.bytes += len(body)
        while self.bytes > self.limit:
            _key, dropped = self.pages.popitem(last=False)
            self.bytes -= len(dropped)

    def stats(self) -> JSON:
        return {"pages": len(self.pages), "bytes": self.bytes, "limit": self.limit}


def no_page() -> StoreError:
    """The refusal of a page the replay does not have."""
    return StoreError("bad_page", _("That page of the replay does not exist."))


def pages_of(count: int) -> int:
    """How many pages `count` frames make."""
    return max(1, -(-count // PAGE_FRAMES))


def _build(found: GameRecord, seat: int | None, lang: str, number: int) -> tuple[bytes | None, int]:
    """Page `number` of the replay encoded (None when the replay has fewer pages), and the
    replay's frame count. Runs in a thread."""
    names = [s.name for s in found.seats]
    built = page(
        found.record, seat, names, lang, number * PAGE_FRAMES, PAGE_FRAMES, seat is None, found.end_at
    )
    if number >= pages_of(built.total):
        return None, built.total
    head = {
        "id": found.id,
        "seat": seat,
        "page": number,
        "pages": pages_of(built.total),
        "page_size": PAGE_FRAMES,
        "first": built.first,
        "count": built.total,
    }
    # Frame by frame: encoding holds the interpreter's lock, a whole page at once for tens of ms.
    frames = b",".join(json.dumps(frame, ensure_ascii=False).encode() for frame in built.frames)
    body = json.dumps(head, ensure_ascii=False).encode()[:-1] + b', "frames": [' + frames + b"]}"
    return body, built.total


class Replays:
    """The replay pages of finished games, for the API (one per server process)."""

    def __init__(self, cache_bytes: int) -> None:
        self.cache = ReplayCache(cache_bytes)
        self.counts: OrderedDict[tuple[str, int | None], int] = OrderedDict()
        self.building: dict[PageKey, asyncio.Future[bytes | None]] = {}
        self.turn = asyncio.Lock()
        """One build at a time: the event loop keeps the rest of the processor."""

    async def page(self, found: GameRecord, seat: int | None, lang: str, number: int) -> bytes:
        """Page `number` of `found` as `seat` saw it (None: everything) in `lang`, as JSON;
        `bad_page` when the replay has no such page, `busy` when `WAITING` other pages wait to
        be built. `found` must be over."""
        count = self.counts.get((found.id, seat))
        if count is not None and number >= pages_of(count):
            raise no_page()
        key = PageKey(found.id, seat, lang, number)
        body = self.cache.get(key)
        if body is None:
            waiting = self.building.get(key)
            if waiting is None and len(self.building) >= WAITING:
                raise StoreError("busy", _("The server is busy: try again in a moment."))
            if waiting is None:
                waiting = asyncio.ensure_future(self._built(key, found))
                self.building[key] = waiting
                waiting.add_done_callback(lambda _done: self.building.pop(key, None))
            body = await asyncio.shield(waiting)  # one asker leaving does not end the others' build
        if body is None:
            raise no_page()
        return body

    async def _built(self, key: PageKey, found: GameRecord) -> bytes | None:
        async with self.turn:
            body, count = await asyncio.to_thread(_build, found, key.seat, key.lang, key.page)
        self.counts[(key.game, key.seat)] = count
        while len(self.counts) > COUNTS_KEPT:
            self.counts.popitem(last=False)
        if body is not None:
            self.cache.put(key, body)
        return body

    def stats(self) -> JSON:
        """What `/healthz` says of the cache: its pages, its bytes and its bound."""
        return self.cache.stats()
