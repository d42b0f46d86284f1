"""Issue 22: a long game's replay comes in pages. Its whole frames as one answer were 278 MB,
built and encoded on the event loop, and kept up to 64 times over: a few readers took the server
past a gigabyte and stalled every table for seconds. Here a real server reads a twelve-seat game
of over 7,000 moves (stored with `bruises: 60`, more than a table may now ask for: a stored game
keeps its options) from its database, with a replay cache of 3 MB. docs/api.md."""

from __future__ import annotations

import asyncio
import json
import math
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from bench.replay import GAME_ID, long_game, store_game
from cardroom.server.replays import PAGE_FRAMES
from tests.server.live import Client, LiveServer, run_server
from tests.server.test_api import call

CACHE_BYTES = 3_000_000


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    path: Path = tmp_path_factory.mktemp("long") / "long.sqlite3"
    url = f"sqlite:///{path}"
    record, end_at, winner = long_game(12, 60)
    assert len(record.moves) > 7000
    asyncio.run(store_game(url, record, end_at, winner))
    with run_server({"CARDROOM_DB": url, "CARDROOM_REPLAY_CACHE_BYTES": str(CACHE_BYTES)}) as live:
        yield live


def frames(server: LiveServer, query: str, headers: dict[str, str] | None = None) -> dict[str, Any]:
    status, answer = call(server, "GET", f"/api/records/{GAME_ID}/frames?{query}", headers=headers)
    assert status == 200, answer
    return answer


def cache(server: LiveServer) -> dict[str, int]:
    found: dict[str, int] = server.health()["replays"]
    return found


def test_a_long_games_frames_come_in_pages_of_a_bounded_size(server: LiveServer) -> None:
    first = frames(server, "seat=all")
    count = first["count"]
    assert count > 100 * PAGE_FRAMES  # a long game indeed
    assert first["page_size"] == PAGE_FRAMES and first["pages"] == math.ceil(count / PAGE_FRAMES)
    assert [f["i"] for f in first["frames"]] == list(range(PAGE_FRAMES))
    assert all(len(f["view"]["seats"]) == 12 for f in first["frames"])  # every hand shown
    last = frames(server, f"seat=all&page={first['pages'] - 1}")
    assert [f["i"] for f in last["frames"]] == list(range(last["first"], count))
    assert last["frames"][-1]["view"]["table"]["phase"] == "game_over"
    # One seat's replay is paged the same way, with that seat's eyes only.
    mine = frames(server, "seat=3&page=2")
    assert mine["seat"] == 3 and [f["i"] for f in mine["frames"]] == list(range(100, 150))
    assert all("seats" not in f["view"] for f in mine["frames"])


def test_a_page_past_the_end_or_a_bad_page_is_refused(server: LiveServer) -> None:
    pages = frames(server, "seat=1")["pages"]
    for query in (f"seat=1&page={pages}", "seat=1&page=-1", "seat=1&page=x", "seat=1&page=1e3"):
        status, answer = call(server, "GET", f"/api/records/{GAME_ID}/frames?{query}")
        assert (status, answer["error"]) == (400, "bad_page"), query
    for query in ("seat=12", "seat=-0", "seat=%D9%A3", "seat=1.0"):
        status, answer = call(server, "GET", f"/api/records/{GAME_ID}/frames?{query}")
        assert (status, answer["error"]) == (400, "bad_seat"), query


def test_a_seat_or_a_language_written_two_ways_is_one_page_in_the_cache(server: LiveServer) -> None:
    before = cache(server)["pages"]
    plain = frames(server, "seat=0&page=7&lang=fr")
    assert cache(server)["pages"] == before + 1
    for query, headers in (
        ("seat=00&page=7&lang=fr", None),
        ("seat=000&page=07&lang=fr-BE", None),
        ("seat=0&page=7", {"Accept-Language": "fr-FR,fr;q=0.9"}),
    ):
        assert frames(server, query, headers) == plain
        assert cache(server)["pages"] == before + 1, query


def test_the_cache_stays_within_its_bytes(server: LiveServer) -> None:
    pages = frames(server, "seat=all")["pages"]
    read = 0
    for number in range(pages - 6, pages):  # the end of the game: the biggest pages
        for lang in ("en", "de"):
            read += len(json.dumps(frames(server, f"seat=all&page={number}&lang={lang}")))
            kept = cache(server)
            assert 0 < kept["bytes"] <= kept["limit"] == CACHE_BYTES
    assert read > 3 * CACHE_BYTES  # the cache had to let pages go


def test_a_player_is_answered_while_a_long_replay_is_built(server: LiveServer) -> None:
    """The pages are built off the event loop: a websocket player's pings are answered while
    the replay's answers are still on their way (the stall is measured by `python -m bench.replay`)."""
    pages = frames(server, "seat=all")["pages"]

    def read_the_end() -> None:
        for lang in ("it", "es", "nl"):  # pages nobody read yet: each is built
            request = urllib.request.Request(
                f"{server.url}/api/records/{GAME_ID}/frames?seat=all&page={pages - 1}&lang={lang}"
            )
            with urllib.request.urlopen(request, timeout=120) as reply:
                assert reply.status == 200

    async def go() -> int:
        player = await Client.connect(server.ws_url, "Pia")
        try:
            reading = asyncio.create_task(asyncio.to_thread(read_the_end))
            answered = 0
            while not reading.done():
                answered += 1
                await player.send({"type": "ping", "id": answered})
                await player.expect("pong", timeout=60, id=answered)
                await asyncio.sleep(0.05)  # within the websocket's message rate
            await reading
            return answered - 1  # the last pong may have come after the answers
        finally:
            await player.close()

    assert asyncio.run(go()) >= 1


def test_a_table_cannot_ask_for_a_game_longer_than_the_limits(server: LiveServer) -> None:
    """docs/rules/burrito.md#option-limits: the bruises (a round lasts until the last one) and
    the burritos of a new table are bounded; past a bound the table is refused, and nothing is
    created; at the bound it is made."""

    async def go() -> tuple[list[dict[str, Any]], dict[str, Any]]:
        host = await Client.connect(server.ws_url, "Hugo")
        try:
            refused = []
            for options in ({"bruises": 31}, {"bruises": 60}, {"burritos": 13}, {"bruises": 0}):
                await host.send({"type": "create_table", "game": "burrito", "seats": 12, "options": options})
                refused.append(await host.expect("error"))
            assert server.health()["tables"] == 0
            await host.send(
                {
                    "type": "create_table",
                    "game": "burrito",
                    "seats": 12,
                    "options": {"bruises": 30, "burritos": 12},
                }
            )
            return refused, await host.expect("table")
        finally:
            await host.close()

    refused, made = asyncio.run(go())
    assert [e["code"] for e in refused] == ["bad_options"] * 4
    assert refused[0]["message"] == "The option bruises must be from 1 to 30."
    assert refused[2]["message"] == "The option burritos must be from 2 to 12."
    assert made["options"]["bruises"] == 30 and made["options"]["burritos"] == 12


def test_a_crowd_of_replay_requests_is_told_the_server_is_busy(server: LiveServer) -> None:
    """Each page waiting to be built holds its game's record: past a few waiting, a request for
    yet another page is answered `busy` (503) at once, and every other one is served."""
    pages = frames(server, "seat=all")["pages"]
    # The game's last pages with every hand (the longest builds of this game), in French, which
    # no other test reads, and Spanish: all are asked for at once.
    asked = [f"seat=all&page={n}&lang={lang}" for n in range(pages - 10, pages) for lang in ("fr", "es")]
    at_once = threading.Barrier(len(asked))

    def get(query: str) -> tuple[int, dict[str, Any]]:
        """The answer, however long the builds before it take on a busy machine."""
        at_once.wait()
        try:
            with urllib.request.urlopen(
                f"{server.url}/api/records/{GAME_ID}/frames?{query}", timeout=300
            ) as reply:
                return reply.status, json.loads(reply.read())
        except urllib.error.HTTPError as exc:
            return exc.code, json.loads(exc.read())

    with ThreadPoolExecutor(len(asked)) as crowd:
        answers = list(crowd.map(get, asked))
    busy = [answer for status, answer in answers if status == 503]
    assert busy and all(answer["error"] == "busy" for answer in busy)
    assert all(status == 200 and answer["frames"] for status, answer in answers if status != 503)
    assert len(busy) < len(asked)


def test_no_duration_of_a_new_table_passes_ten_minutes(server: LiveServer) -> None:
    """docs/rules/kittens.md#timers: a turn timer of 2^70 ms would let a player who does nothing
    hold the table for ever; every `..._ms` option of a new table is at most ten minutes, in
    both games. At the bound the table is made."""

    async def go() -> tuple[list[dict[str, Any]], dict[str, Any]]:
        host = await Client.connect(server.ws_url, "Tess")
        try:
            tables = server.health()["tables"]
            refused = []
            for game, options in (
                ("kittens", {"turn_ms": 2**70}),
                ("kittens", {"defuse_ms": 600_001}),
                ("burrito", {"fight_timeout_ms": 10**9}),
            ):
                await host.send({"type": "create_table", "game": game, "seats": 4, "options": options})
                refused.append(await host.expect("error"))
            assert server.health()["tables"] == tables
            await host.send(
                {"type": "create_table", "game": "kittens", "seats": 4, "options": {"turn_ms": 600_000}}
            )
            return refused, await host.expect("table")
        finally:
            await host.close()

    refused, made = asyncio.run(go())
    assert [e["code"] for e in refused] == ["bad_options"] * 3
    assert refused[0]["message"] == "The option turn_ms must be from 0 to 600000."
    assert made["options"]["turn_ms"] == 600_000
