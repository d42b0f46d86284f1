"""A real server whose next games are dealt as a scenario file the test chose says, and people
at one table (two at an Exploding Kittens table, or any number at either game), for the browser
tests of exact moments (a See the Future in hand, a kitten on top of the deck, a Duel in hand).

The server runs in this process (its own thread and event loop), so that the room's seed (from
`secrets.randbits`, secret in play) can be the file's and its game's table the file's deal
(docs/scenarios.md: `players`, `seed`, `deal`; its options are the table's, chosen on the page):
the moment is then known, and a card added to the game re-deals nothing under it (issue 25).
Everything else is the real thing: the app, its websocket, the page in Chromium.
"""

from __future__ import annotations

import asyncio
import secrets
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page

import cardroom.server.room.driver as room_module
from cardroom.drive.scenario import load_scenario, scenario_record
from cardroom.games import find_game
from cardroom.games.kittens.table import KittensTable
from cardroom.protocol import Table
from cardroom.protocol.record import Record
from cardroom.server.lobby import Lobby
from tests.server.live import in_process
from tests.web.conftest import COLLECT
from tests.web.pointer import Finger, create_table, enter_lobby, start

SLOW = {
    "turn_ms": 600_000,
    "choose_ms": 600_000,
    "defuse_ms": 600_000,
    "nope_window_ms": 500,
    "bot_think_ms": 0,
}
"""No clock runs out while a test looks; a Nope window short enough not to wait on."""


class _Seeded:
    """`secrets` for the room module, but every game's seed is `seed`."""

    def __init__(self, seed: int) -> None:
        self.seed = seed

    def randbits(self, _bits: int) -> int:
        return self.seed

    def __getattr__(self, name: str) -> Any:
        return getattr(secrets, name)


DEALS = Path(__file__).with_name("deals")


def scenario(name: str) -> Record:
    """The table that tests/web/deals/`name` sets up (docs/scenarios.md)."""
    return scenario_record(load_scenario((DEALS / name).read_text()))


def deal_of(name: str) -> Mapping[str, Any]:
    """The `deal` of tests/web/deals/`name`, for a test to read what it dealt."""
    found: Mapping[str, Any] = scenario(name).deal or {}
    return found


@contextmanager
def dealt_server(name: str) -> Iterator[str]:
    """A real server in this process whose games of the file's game and number of players are
    dealt as tests/web/deals/`name` says, from its seed; its address. A kittens table says its
    deal as a shuffled one does (the game's start, each hand, the first turn)."""
    record = scenario(name)
    game = find_game(record.game)
    shuffled = game.new_table

    def new_table(players: int, options: Mapping[str, Any], seed: int) -> Table[Any]:
        if players != record.players:
            return shuffled(players, options, seed)
        table = game.from_deal(players, options, record.deal or {}, seed)
        if isinstance(table, KittensTable):
            table.deal()
        return table

    game.new_table = new_table  # type: ignore[method-assign]
    try:
        with _serving(record.seed) as url:
            yield url
    finally:
        del game.new_table  # type: ignore[attr-defined]


@contextmanager
def _serving(seed: int) -> Iterator[str]:
    """A real server in this process whose games are dealt from `seed`; its address."""
    ready = threading.Event()
    port: list[int] = []
    state: dict[str, Any] = {}

    async def serve() -> None:
        state["loop"] = asyncio.get_running_loop()
        state["stop"] = asyncio.Event()
        async with in_process(Lobby()) as p:
            port.append(p)
            ready.set()
            await state["stop"].wait()

    thread = threading.Thread(target=asyncio.run, args=(serve(),), daemon=True)
    before = room_module.secrets
    room_module.secrets = _Seeded(seed)  # type: ignore[assignment]
    thread.start()
    try:
        assert ready.wait(30), "the server did not start"
        yield f"http://127.0.0.1:{port[0]}"
    finally:
        room_module.secrets = before
        if "loop" in state:
            state["loop"].call_soon_threadsafe(state["stop"].set)
        thread.join(30)


def person(browser: Browser, url: str, **options: Any) -> Page:
    """A fresh browser context of its own on the page (closed with the browser's module)."""
    context = browser.new_context(**options)
    page = context.new_page()
    page.add_init_script(COLLECT)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.set_default_timeout(15_000)
    page.goto(url + "/")
    page.wait_for_function("window.cardroom && window.cardroom.ready")
    page.errors = errors  # type: ignore[attr-defined]
    return page


def two_at_a_table(host: Page, guest: Page, options: dict[str, int] | None = None) -> None:
    """`host` (seat 1) creates a two-seat kittens table, `guest` joins it (seat 2), it starts."""
    at_a_table(host, [guest], "kittens", options if options is not None else SLOW)


GUESTS = ("Gus", "Ivy", "Jon", "Kai", "Lea")


def at_a_table(host: Page, guests: list[Page], game: str, options: dict[str, int]) -> None:
    """`host` (seat 1, Hana) creates a table of `game` for everyone, each of `guests` joins it
    (seats 2, 3...: Gus, Ivy...), no bot, and it starts."""
    finger = Finger(host)
    enter_lobby(host, finger, "Hana")
    create_table(host, finger, game, seats=1 + len(guests), bots=0, options=options)
    table = host.evaluate("window.cardroom.state.current")
    for guest, name in zip(guests, GUESTS, strict=False):
        other = Finger(guest)
        enter_lobby(guest, other, name)
        other.tap(f"#join-{table}")
        guest.wait_for_function("window.cardroom.state.current !== null && window.cardroom.state.room")
    host.wait_for_function("window.cardroom.state.room.seats.every(s => s.name)")
    start(host, finger)
    for guest in guests:
        guest.wait_for_selector("#hand [role=option][data-index]")


def view(page: Page) -> dict[str, Any]:
    found: dict[str, Any] = page.evaluate("window.cardroom.state.room.view")
    return found


def version(page: Page) -> int:
    found: int = page.evaluate("window.cardroom.state.lastV[window.cardroom.state.current] || 0")
    return found
