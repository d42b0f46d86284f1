"""`cardroom serve`: run the server with uvicorn."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import socket
import threading
from collections.abc import Mapping

import uvicorn
from sqlalchemy.engine import make_url
from sqlalchemy.exc import SQLAlchemyError

from cardroom.bots.kittens_expert import WORKER
from cardroom.protocol import CardroomError
from cardroom.server import collector
from cardroom.server.app import create_app
from cardroom.server.limits import Limits
from cardroom.server.lobby import Lobby
from cardroom.server.logs import Repeats, quiet
from cardroom.server.reading import ReadAheadProtocol
from cardroom.server.room import GRACE_MS
from cardroom.server.sockets import Door, raise_fd_limit
from cardroom.server.wire import MAX_MESSAGE_BYTES
from cardroom.server.workers import STOP_S
from cardroom.store import BadDatabase, Store
from cardroom.store.accounts import LIFETIME_DAYS


def check_database(db: str) -> None:
    """Open and migrate the database once before serving, so a bad URL or an unreachable
    server is one clear line (CardroomError), not a traceback from inside the server."""

    async def check() -> None:
        store = await Store.open(db)
        await store.close()

    try:
        asyncio.run(check())
    except CardroomError:
        raise
    except (OSError, SQLAlchemyError) as exc:
        raise BadDatabase(f"cannot open the database {_safe(db)}: {exc.__class__.__name__}: {exc}") from None


def _safe(db: str) -> str:
    """The URL without its password, for messages and logs."""
    try:
        return make_url(db).render_as_string(hide_password=True)
    except Exception:
        return "(unreadable URL)"


def clock_rate(env: Mapping[str, str]) -> float:
    """CARDROOM_CLOCK_RATE: seconds of play time a second makes (default 1; `Lobby.rate`)."""
    raw = env.get("CARDROOM_CLOCK_RATE", "1")
    try:
        rate = float(raw)
    except ValueError:
        raise CardroomError(f"CARDROOM_CLOCK_RATE must be a number, not {raw!r}") from None
    if not 0 < rate <= 100:
        raise CardroomError(f"CARDROOM_CLOCK_RATE must be above 0 and at most 100, not {raw!r}")
    return rate


def serve(
    host: str,
    port: int,
    db: str,
    log_level: str = "info",
    origins: frozenset[str] = frozenset(),
    forwarded_allow_ips: str | None = None,
    grace_s: float = GRACE_MS / 1000,
    redis: str | None = None,
    listen_fd: int | None = None,
    session_days: float = LIFETIME_DAYS,
    node_url: str | None = None,
) -> None:
    """Serve the web page and the websocket until interrupted.

    `origins`: the addresses the page is served from, when a proxy changes the Host header;
    `forwarded_allow_ips`: the proxies whose X-Forwarded-For and X-Forwarded-Proto are believed
    (the client's address for the limits, https for the Secure cookie): docs/security.md;
    `grace_s`: how long a player who went away keeps their seat, and a guest their token;
    `redis`: join the cluster of nodes on that Redis (docs/deploy.md);
    `listen_fd`: accept on this inherited listening socket instead of binding `host:port`
    (a worker of `cardroom serve --workers`, cardroom/server/workers.py);
    `session_days`: an account's session ends this long after it was opened, however used;
    `node_url`: where a client reaches this node of a cluster itself (`{port}`: its port), to
    which a player playing here through another node is sent (docs/deploy.md)."""
    collector.tune()  # the lobby collects the old generations itself (collector.py says why)
    logging.basicConfig(level=getattr(logging, log_level.upper(), logging.INFO), format="%(message)s")
    print(f"games and accounts are kept in {_safe(db)}", flush=True)
    if redis:
        print(f"a node of the cluster on {_safe(redis)}", flush=True)
    if listen_fd is None:
        print(f"cardroom is running: open http://{host}:{port}/ in a browser (Ctrl+C stops it)", flush=True)
    raise_fd_limit()  # many systems start a process at 1,024 descriptors: a busy lobby holds more
    limits = Limits.from_env()
    lobby = Lobby(grace_s=grace_s, limits=limits, rate=clock_rate(os.environ))
    if node_url is not None and redis:
        lobby.relay.url = node_url.replace("{port}", str(port))
    config = uvicorn.Config(
        create_app(lobby, db=db, origins=origins, redis=redis, session_days=session_days),
        host=host,
        port=port,
        log_level=log_level,
        ws=ReadAheadProtocol,
        ws_max_size=4 * MAX_MESSAGE_BYTES,
        ws_ping_interval=20,
        ws_ping_timeout=20,
        ws_per_message_deflate=False,
        lifespan="on",
        proxy_headers=True,
        forwarded_allow_ips=forwarded_allow_ips,
        # Once the lobby is drained, a connection that does not finish closing (a peer that
        # stopped reading holds our close behind its full buffer) does not hold the exit.
        timeout_graceful_shutdown=SHUTDOWN_S,
    )
    # Slow or too many connections from one address are closed (server/sockets.py); the
    # proxies whose X-Forwarded-For is believed are not counted, as uvicorn reads them.
    config.http = Door(limits, config.forwarded_allow_ips).protocol()
    repeats = quiet()  # after uvicorn.Config, which sets up its loggers' handlers
    sockets = [socket.socket(fileno=listen_fd)] if listen_fd is not None else None
    # A node of `--workers` (listen_fd) ends with the process that started it.
    Node(config, lobby, repeats, parent=os.getppid() if listen_fd is not None else None).run(sockets=sockets)


SHUTDOWN_S = 10
"""The longest a stopping server waits for its connections to finish, after its lobby drained."""


class Node(uvicorn.Server):
    """The server, which drains its lobby (a cluster node hands its tables over) when told to
    stop, before its websockets close."""

    def __init__(
        self,
        config: uvicorn.Config,
        lobby: Lobby,
        repeats: Repeats | None = None,
        parent: int | None = None,
    ) -> None:
        super().__init__(config)
        self.lobby = lobby
        self.repeats = repeats
        self.parent = parent
        """The pid of the `--workers` process this node is a worker of: when it is gone (killed,
        SIGKILL, so that it could not pass a SIGTERM on), the node stops as if told to."""

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets)
        # `kill -USR1` logs what each table waits for (docs/deploy.md), without stopping anything.
        asyncio.get_running_loop().add_signal_handler(signal.SIGUSR1, self.lobby.tell_tables)

    async def on_tick(self, counter: int) -> bool:
        """uvicorn's tick (every 0.1 s): twice a second, whether the parent is still there."""
        if self.parent is not None and counter % 5 == 0 and os.getppid() != self.parent:
            self.parent = None
            self.should_exit = True
            # What the parent does to a worker that has not stopped STOP_S after being told to
            # (a drain waiting on a cluster that went away with it): end it.
            ending = threading.Timer(STOP_S, os._exit, (1,))
            ending.daemon = True  # a node that stops in time exits without waiting for it
            ending.start()
        return await super().on_tick(counter)

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        await self.lobby.drain()
        await super().shutdown(sockets)
        if self.repeats is not None:
            self.repeats.flush(logging.getLogger("cardroom.server"))
        # The tables are gone: so is the expert bots' search worker. Not left to the exit, which
        # a SIGTERM cuts short (uvicorn raises it again once shut down); the worker would still
        # end when it finds its server gone, but this way it is gone, and reaped, first.
        WORKER.stop()
