"""`cardroom serve`: run the server with uvicorn."""

from __future__ import annotations

import gc
import logging

import uvicorn

from cardroom.server.app import create_app
from cardroom.server.wire import MAX_MESSAGE_BYTES


def serve(host: str, port: int, log_level: str = "info") -> None:
    """Serve the web page and the websocket until interrupted."""
    # A full collection of a big heap stalls every table for tens of milliseconds: collect the
    # young generations often and the old one rarely, and keep start-up objects out of it.
    gc.set_threshold(50_000, 50, 1_000)
    gc.freeze()
    logging.basicConfig(level=getattr(logging, log_level.upper(), logging.INFO), format="%(message)s")
    print(f"cardroom is running: open http://{host}:{port}/ in a browser (Ctrl+C stops it)", flush=True)
    uvicorn.run(
        create_app(),
        host=host,
        port=port,
        log_level=log_level,
        ws="websockets-sansio",
        ws_max_size=4 * MAX_MESSAGE_BYTES,
        ws_ping_interval=20,
        ws_ping_timeout=20,
        ws_per_message_deflate=False,
        lifespan="on",
    )
