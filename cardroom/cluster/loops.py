"""How a node's background loops are stopped, so that stopping never hangs.

A loop that talks to Redis catches Redis's errors and goes on (Redis away is not the end of
the node). But a cancel does not always come out of redis-py as a cancel: once in eight runs
of the bus's Redis-restart test under load, the heartbeat task was left "cancelling" yet
looping (its cancel caught as an error), and `close()`, awaiting it, waited for ever (a 900 s
hang in CI). So each loop also looks at a flag its owner sets before cancelling
(`while not self.closing`), and `stop_all` cancels again until every task has ended, for at
most `within` seconds.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable

log = logging.getLogger("cardroom.cluster")


async def stop_all(tasks: Iterable[asyncio.Task[None]], within: float) -> None:
    """Cancel `tasks` and wait for their end, cancelling again those that went on."""
    pending = {task for task in tasks if not task.done()}
    loop = asyncio.get_running_loop()
    deadline = loop.time() + within
    while pending:
        for task in pending:
            task.cancel()
        done, pending = await asyncio.wait(pending, timeout=0.1)
        for task in done:
            if not task.cancelled() and task.exception() is not None:
                log.warning("a background task had failed: %r", task.exception())
        if pending and loop.time() > deadline:
            log.warning("%d background tasks did not stop in %.0f s; left behind", len(pending), within)
            return
