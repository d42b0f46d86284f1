"""A server whose disk fills up, for real: the kernel's file size limit on the server process
(RLIMIT_FSIZE), so that every write past it fails as on a full disk (docs/security.md: the table
pauses until the store can write again)."""

from __future__ import annotations

import contextlib
import resource
from collections.abc import Iterator

from tests.server.live import Client, LiveServer

PAUSED = "The server cannot save the game right now: the table is paused until it can."
RESUMED = "The game is saved again: play goes on."
SLOW_TURNS = {"turn_ms": 120_000, "bot_think_ms": 0}
"""Kittens where nothing moves while the person in the first seat thinks, and bots act at once."""


@contextlib.contextmanager
def disk(server: LiveServer) -> Iterator[None]:
    """The server's disk can be filled (RLIMIT_FSIZE, as in tests/server/test_store_fault.py);
    it has room again at the end."""
    try:
        yield
    finally:
        free_the_disk(server)


def fill_the_disk(server: LiveServer) -> None:
    _soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    resource.prlimit(server.process.pid, resource.RLIMIT_FSIZE, (1, hard))


def free_the_disk(server: LiveServer) -> None:
    resource.prlimit(server.process.pid, resource.RLIMIT_FSIZE, resource.getrlimit(resource.RLIMIT_FSIZE))


async def pause_a_table(server: LiveServer) -> tuple[Client, str]:
    """Anna plays kittens against a bot; once it is her turn the server's disk is full and her
    draw cannot be saved: the table pauses and she is told."""
    anna = await Client.connect(server.ws_url, "Anna")
    table = (await anna.create_table("kittens", 2, bots=1, options=SLOW_TURNS))["table"]
    await anna.start_to_my_turn(table)
    fill_the_disk(server)
    await anna.send({"type": "act", "table": table, "action": {"do": "draw"}, "ref": 1})
    await anna.expect("notice", timeout=30, code="table_paused")
    return anna, table
