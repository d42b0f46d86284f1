"""How a node's background loops are stopped, so that stopping never hangs.

A loop that talks to Redis catches Redis's errors and goes on (Redis away is not the end of
the node). But a cancel can come back from inside redis-py as one of those errors: Python
3.11's `asyncio.timeout` around a connect can turn an outside cancel into a timeout, which
redis-py raises as its own TimeoutError. A loop that caught it would go on, and whoever
awaited its end would wait for ever (a test hung 900 s this way). So each loop also looks at
a flag its owner sets before cancelling (`while not self.closing`), and `stop_all` cancels
again until every task has ended, for at most `within` seconds.
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
