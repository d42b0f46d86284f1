"""The Starlette application: the web page, the health check, the catalogs, rules pages and
keys for the page (`/i18n/{lang}.json`, `/help/{game}.json`, `/keys.json`) and the websocket
endpoint."""

from __future__ import annotations

import contextlib
import os
from collections.abc import AsyncIterator
from pathlib import Path

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.gzip import GZipMiddleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import Scope
from starlette.websockets import WebSocket

from cardroom import __version__
from cardroom.help import GAMES as HELP_GAMES
from cardroom.help import render as render_help
from cardroom.help.keys import as_json as keys_json
from cardroom.i18n import LANGUAGES, client_catalog
from cardroom.narrate.narrator import card_catalog
from cardroom.server import api
from cardroom.server.edge import handle, serve_socket
from cardroom.server.limits import Limits
from cardroom.server.lobby import Lobby
from cardroom.server.replays import Replays
from cardroom.server.security import Guard
from cardroom.server.wire import PROTOCOL_VERSION
from cardroom.store import Store
from cardroom.store.accounts import DAY_MS, LIFETIME_DAYS

WEB = Path(__file__).resolve().parent.parent / "clients" / "web"

REVALIDATE = {"Cache-Control": "no-cache"}
"""The page and its files are asked for again each time they are used, and answered 304 when
unchanged (their ETag): with only a Last-Modified, a browser keeps a file it guesses is fresh
for a while, and after an update a returning player could run an old script beside new ones."""


class PageFiles(StaticFiles):
    """The page's scripts, styles and card art, each revalidated (`REVALIDATE`)."""

    def file_response(
        self,
        full_path: os.PathLike[str] | str,
        stat_result: os.stat_result,
        scope: Scope,
        status_code: int = 200,
    ) -> Response:
        response = super().file_response(full_path, stat_result, scope, status_code)
        response.headers.update(REVALIDATE)
        return response


def create_app(
    lobby: Lobby | None = None,
    db: str = "memory",
    origins: frozenset[str] = frozenset(),
    redis: str | None = None,
    session_days: float = LIFETIME_DAYS,
) -> Starlette:
    """An app around one lobby (by default a fresh one, with the limits the environment sets:
    `Limits.from_env`) and the store at `db`; `origins`: the addresses its page is served from
    (default: whatever address a request was made to); with `redis`, a node of the cluster on
    that Redis (cardroom/cluster), else the whole server alone; `session_days`: the absolute
    lifetime of an account's session, however much it is used.

    The default store, `memory`, ends with the process (a scratch file, nothing kept): tests and
    embedders choose; `cardroom serve` passes the SQLite file of the data folder or `--db`.
    """
    the_lobby = lobby or Lobby(limits=Limits.from_env())
    the_lobby.relay.dispatch = lambda connection, player, message: handle(
        connection, player, message, the_lobby
    )
    stores: list[Store] = []
    replays = Replays(the_lobby.limits.replay_cache_bytes)

    def store_of() -> Store:
        return stores[0]

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        bus = None
        if redis:
            # Imported only for a cluster: the Redis client is a tenth of a server's start.
            from cardroom.cluster.redis_bus import RedisBus

            bus = RedisBus(redis)
        if bus is not None:
            await the_lobby.join(bus)
        store = await Store.open(db)
        store.accounts.lifetime_ms = int(session_days * DAY_MS)
        stores.append(store)
        await the_lobby.attach(store)
        the_lobby.start()
        yield
        await the_lobby.stop()
        await store.close()  # the last moves are in before the leases go to another node
        if bus is not None:
            await bus.close()

    async def healthz(request: Request) -> Response:
        health = {
            "ok": True,
            "version": __version__,
            "protocol": PROTOCOL_VERSION,
            "tables": len(the_lobby.rooms),
            "players_online": len(the_lobby.online()),
            "replays": replays.stats(),
            "latency": the_lobby.latency.health(),
        }
        if the_lobby.bus.clustered:
            bus = the_lobby.bus
            try:
                health["cluster"] = {
                    "node": bus.node,
                    "nodes": await bus.nodes(),
                    "tables": len(await bus.tables()),
                    "players_online": len(await bus.online()),
                }
            except Exception as exc:  # the bus away: this node's own tables still play
                health["cluster"] = {"node": bus.node, "unreachable": exc.__class__.__name__}
        return JSONResponse(health)

    files = PageFiles(directory=WEB / "static")

    async def index(request: Request) -> Response:
        page = WEB / "index.html"  # served as the page's files are: revalidated, 304 when unchanged
        return files.file_response(page, page.stat(), request.scope)

    async def catalog(request: Request) -> Response:
        lang = request.path_params["lang"]
        if lang not in LANGUAGES:
            return JSONResponse({"error": "unknown language"}, status_code=404)
        return JSONResponse({"lang": lang, "messages": client_catalog(lang), "cards": card_catalog(lang)})

    async def help_page(request: Request) -> Response:
        game = request.path_params["game"]
        lang = request.query_params.get("lang", "en")
        if game not in HELP_GAMES:
            return JSONResponse({"error": f"no rules for {game!r}"}, status_code=404)
        if lang not in LANGUAGES:
            return JSONResponse({"error": f"unknown language {lang!r}"}, status_code=404)
        return JSONResponse(render_help(game, lang))

    async def keys_table(request: Request) -> Response:
        return JSONResponse(keys_json())

    async def socket(websocket: WebSocket) -> None:
        await serve_socket(websocket, the_lobby)

    app = Starlette(
        routes=[
            Route("/", index),
            Route("/t/{table}", index),  # a table's own address (an invitation): the page reads it
            Route("/healthz", healthz),
            Route("/i18n/{lang}.json", catalog),
            Route("/help/{game}.json", help_page),
            Route("/keys.json", keys_table),
            *api.routes(
                store_of, the_lobby.logged_out, the_lobby.name_in_use, the_lobby.account_deleted, replays
            ),
            WebSocketRoute("/ws", socket),
            Mount("/static", files, name="static"),
        ],
        lifespan=lifespan,
        # Security headers on every answer; the page, its scripts, styles and card art compressed (issue 13).
        middleware=[Middleware(Guard, origins=origins), Middleware(GZipMiddleware, minimum_size=512)],
    )
    app.state.lobby = the_lobby
    return app
