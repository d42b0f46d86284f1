"""The HTTP API beside the websocket: accounts, profiles, records, replays, leaderboards.

Documented in docs/api.md. Sessions travel in an HttpOnly cookie for the page (so a script
cannot read them, and they survive a browser restart; named `__Host-cardroom_session` over
https, which a browser keeps to this exact host, Secure and for every path) or as
`Authorization: Bearer TOKEN` for the terminal. Every refusal is `{"error": code, "message": sentence}` in the caller's
language, with a 4xx status; nothing is changed by a refused request. Request bodies, the
password and the token are never logged.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, NamedTuple

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from cardroom.bots.names import level_bot_name
from cardroom.games import GAMES
from cardroom.i18n import LANGUAGES, _, normalize, use_language
from cardroom.replay import to_scenario
from cardroom.server.buckets import SIZE, Windows
from cardroom.server.limits import Limits
from cardroom.server.replays import Replays, no_page
from cardroom.store import Account, GameRecord, Store, StoreError
from cardroom.store.accounts import SESSION_MS, name_key, now_ms, token_hash
from cardroom.store.errors import STORE_DOWN, store_unavailable
from cardroom.store.names import clean_name

log = logging.getLogger("cardroom.api")

COOKIE = "cardroom_session"
SECURE_COOKIE = "__Host-" + COOKIE
"""The session cookie's name over https: a browser takes it only Secure, with Path=/ and no
Domain, so no sibling subdomain or plain-http page can set or shadow it. Both names are read
while sessions opened under the old one last."""
MAX_BODY = 16 * 1024
ATTEMPTS_PER_MINUTE = 20
ATTEMPTS_PER_ADDRESS = 200
"""Logins a minute from one address whatever the names: a flood, not someone's typing."""

STATUS = {
    "wrong_login": 401,
    "wrong_password": 403,
    "session_expired": 401,
    "not_logged_in": 401,
    "name_taken": 409,
    "name_reserved": 409,
    "no_record": 404,
    "no_player": 404,
    "not_over": 409,
    "no_game": 404,
    "too_many": 429,
    "store_unavailable": 503,
    "busy": 503,
    "too_big": 413,
}

Handler = Callable[[Request], Awaitable[Response]]

PLAYER_HEADER = "x-cardroom-player"
"""A guest's websocket token (`welcome.token`), for the records of the private games they played."""


class Viewer(NamedTuple):
    """Who reads the records: an account (its id) and a guest (their player id), either may be None."""

    account: int | None
    guest: str | None


def request_language(request: Request) -> str:
    """`?lang=`, else the first language of Accept-Language we speak, else English."""
    asked = normalize(request.query_params.get("lang"))
    if asked:
        return asked
    for part in request.headers.get("accept-language", "").split(","):
        lang = normalize(part.split(";")[0].strip())
        if lang:
            return lang
    return "en"


def refusal(code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": code, "message": message}, status_code=STATUS.get(code, 400))


def cookie_token(cookies: Mapping[str, str]) -> str | None:
    """The session in the page's cookie, under either of its names."""
    return cookies.get(SECURE_COOKIE) or cookies.get(COOKIE) or None


def session_token(request: Request) -> str | None:
    header = request.headers.get("authorization", "")
    if header.lower().startswith("bearer "):
        return header[7:].strip() or None
    return cookie_token(request.cookies)


def forget_cookies(request: Request, response: Response) -> None:
    """Clear the session cookie under both its names."""
    https = request.url.scheme == "https"
    response.delete_cookie(COOKIE, path="/", secure=https, httponly=True, samesite="strict")
    if https:
        response.delete_cookie(SECURE_COOKIE, path="/", secure=True, httponly=True, samesite="strict")


class Attempts:
    """A limit on attempts per key: logins per (address, name), so that nobody's failed
    attempts at another name lock you out; registrations per address (docs/security.md).

    Counted per minute in tables of fixed size (server/buckets.py): a refused login with a
    new name costs one entry at most, and an attempt costs the same however many keys are held."""

    def __init__(self, size: int = SIZE) -> None:
        self.size = size
        self.limits: dict[int, Windows] = {}

    def __len__(self) -> int:
        return sum(len(buckets) for buckets in self.limits.values())

    def allow(self, who: tuple[str, ...], limit: int = ATTEMPTS_PER_MINUTE) -> bool:
        """One more attempt of `who` (the key's parts), at `limit` a minute."""
        buckets = self.limits.get(limit)
        if buckets is None:
            buckets = self.limits[limit] = Windows(limit, 60, self.size)
        return buckets.allow(*who)


def parse_seat(asked: str, players: int) -> int | None:
    """`seat=all` (None: everything) or a seat of the table by its number, written any way
    (`0`, `00`): the page is the same one, kept once."""
    if asked == "all":
        return None
    if not (asked.isascii() and asked.isdigit() and len(asked) <= 6) or int(asked) >= players:
        raise StoreError("bad_seat", _("That seat does not exist."))
    return int(asked)


def parse_page(asked: str) -> int:
    """`page=N`: a page's number from 0 (`bad_page` for anything else)."""
    if not (asked.isascii() and asked.isdigit() and len(asked) <= 9):
        raise no_page()
    return int(asked)


async def limited_body(request: Request, limit: int = MAX_BODY) -> bytes:
    """The request's body, refused (413) by its declared length before any of it is read, or
    as soon as what arrives passes `limit` (a chunked body declares none): a client cannot
    make the server hold more than `limit` bytes of it."""
    too_big = StoreError("too_big", _("That message is too large."))
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > limit):
        raise too_big
    raw = bytearray()
    async for chunk in request.stream():
        raw += chunk
        if len(raw) > limit:
            raise too_big
    return bytes(raw)


def routes(
    store_of: Callable[[], Store],
    logged_out: Callable[[str], None] = lambda session_hash: None,
    name_in_use: Callable[[str], bool] = lambda name: False,
    deleted: Callable[[int], None] = lambda account_id: None,
    replays: Replays | None = None,
) -> list[Route]:
    """The API's routes; `store_of()` gives the store once the app has started; `logged_out`
    hears of each session that ends (by its digest), to close the websockets that entered with it;
    `name_in_use` tells whether a guest here goes by a name (or a look-alike of it); `deleted`
    hears of each account deleted (its id), so that the lobby forgets its player; `replays`
    builds and keeps the replays' pages (cardroom/server/replays.py)."""
    attempts = Attempts()
    replays = replays or Replays(Limits().replay_cache_bytes)

    def endpoint(fn: Callable[[Request, Store], Awaitable[Response]]) -> Handler:
        async def run(request: Request) -> Response:
            with use_language(request_language(request)):
                try:
                    return await fn(request, store_of())
                except StoreError as exc:
                    return refusal(exc.code, str(exc))
                except STORE_DOWN:  # a full disk, a lost database: say so, not a bare 500
                    log.warning("the store could not answer %s", request.url.path, exc_info=True)
                    down = store_unavailable()
                    return refusal(down.code, str(down))

        return run

    async def body(request: Request) -> dict[str, Any]:
        raw = await limited_body(request)
        try:
            data = json.loads(raw or b"{}")
        except ValueError as exc:
            raise StoreError("bad_request", _("The request is not valid JSON.")) from exc
        if not isinstance(data, dict):
            raise StoreError("bad_request", _("The request is not valid JSON."))
        return data

    def credentials(data: dict[str, Any]) -> tuple[str, str]:
        name, password = data.get("name"), data.get("password")
        if not isinstance(name, str) or not isinstance(password, str):
            raise StoreError("bad_request", _("Give a name and a password."))
        return name, password

    def guard(request: Request, kind: str, name: str | None = None) -> None:
        """`request.client` is the real client: uvicorn takes it from X-Forwarded-For when a
        trusted proxy sent the request (`--forwarded-allow-ips`). Logins also have a wider
        limit per address, across names: each costs a password hash."""
        who = request.client.host if request.client else "?"
        if name is None:
            allowed = attempts.allow((kind, who))
        else:
            # The address's budget first: an attempt it refuses keeps no entry for its name.
            named = (kind, who, name_key(" ".join(name.split())))
            allowed = attempts.allow((kind, who), ATTEMPTS_PER_ADDRESS) and attempts.allow(named)
        if not allowed:
            raise StoreError("too_many", _("Too many attempts: wait a minute and try again."))

    async def me(request: Request, store: Store) -> Account:
        return (await my_session(request, store))[0]

    async def my_session(request: Request, store: Store) -> tuple[Account, str]:
        """The logged-in account and its session's digest."""
        token = session_token(request)
        if token is None:
            raise StoreError("not_logged_in", _("You are not logged in."))
        return await store.accounts.session(token), token_hash(token)

    def signed_in(request: Request, account: Account, token: str) -> Response:
        response = JSONResponse(
            {"account": {"id": account.id, "name": account.name}, "profile": account.profile, "token": token}
        )
        https = request.url.scheme == "https"  # https here or at the trusted proxy
        if https:
            response.delete_cookie(COOKIE, path="/", secure=True, httponly=True, samesite="strict")
        response.set_cookie(
            SECURE_COOKIE if https else COOKIE,
            token,
            max_age=min(SESSION_MS, store_of().accounts.lifetime_ms) // 1000,
            httponly=True,
            samesite="strict",
            path="/",
            secure=https,
        )
        return response

    def ended(hashes: list[str]) -> None:
        """Sessions that ended: the websockets that entered with them close."""
        for digest in hashes:
            logged_out(digest)

    @endpoint
    async def register(request: Request, store: Store) -> Response:
        guard(request, "register")
        data = await body(request)
        name, password = credentials(data)
        asked = data.get("lang")
        lang = asked if isinstance(asked, str) and asked in LANGUAGES else request_language(request)
        cleaned = clean_name(name)
        if cleaned is not None and name_in_use(cleaned):
            raise StoreError("name_taken", _("Someone here already uses that name: choose another."))
        await store.accounts.register(name, password, lang)
        account, token = await store.accounts.login(name, password)
        return signed_in(request, account, token)

    @endpoint
    async def login(request: Request, store: Store) -> Response:
        name, password = credentials(await body(request))
        guard(request, "login", name)
        account, token = await store.accounts.login(name, password)
        return signed_in(request, account, token)

    @endpoint
    async def logout(request: Request, store: Store) -> Response:
        token = session_token(request)
        if token is not None:
            await store.accounts.logout(token)
            logged_out(token_hash(token))
        response = JSONResponse({"ok": True})
        forget_cookies(request, response)
        return response

    @endpoint
    async def whoami(request: Request, store: Store) -> Response:
        account = await me(request, store)
        return JSONResponse({"account": {"id": account.id, "name": account.name}, "profile": account.profile})

    @endpoint
    async def profile(request: Request, store: Store) -> Response:
        account = await me(request, store)
        saved = await store.accounts.save_profile(account.id, await body(request))
        return JSONResponse({"profile": saved})

    def password_field(data: dict[str, Any], field: str) -> str:
        value = data.get(field)
        if not isinstance(value, str):
            raise StoreError("bad_request", _("Give your current password."))
        return value

    @endpoint
    async def change_password(request: Request, store: Store) -> Response:
        """A new password; the other sessions of the account end, the asking one stays."""
        account, current = await my_session(request, store)
        data = await body(request)
        old, new = password_field(data, "old"), data.get("new")
        if not isinstance(new, str):
            raise StoreError("bad_request", _("Give a new password."))
        guard(request, "login", account.name)  # each try costs a hash, and guesses the password
        hashes = await store.accounts.change_password(account.id, old, new, current)
        ended(hashes)
        return JSONResponse({"ok": True, "ended": len(hashes)})

    @endpoint
    async def logout_all(request: Request, store: Store) -> Response:
        """Log out everywhere, here too."""
        account = await me(request, store)
        hashes = await store.accounts.end_sessions(account.id)
        ended(hashes)
        response = JSONResponse({"ok": True, "ended": len(hashes)})
        forget_cookies(request, response)
        return response

    @endpoint
    async def delete_account(request: Request, store: Store) -> Response:
        account = await me(request, store)
        password = password_field(await body(request), "password")
        guard(request, "login", account.name)
        ended(await store.accounts.delete(account.id, password))
        deleted(account.id)
        response = JSONResponse({"ok": True})
        forget_cookies(request, response)
        return response

    @endpoint
    async def export(request: Request, store: Store) -> Response:
        """Everything the server keeps about the asking account, and nothing of anyone else's."""
        account, current = await my_session(request, store)
        data = await store.accounts.export(account.id, current)
        data["games"] = await store.records.played_by(account.id)
        data["ratings"] = await store.ratings.profile(account.id)
        data["exported_ms"] = now_ms()
        return JSONResponse(
            data, headers={"content-disposition": 'attachment; filename="cardroom-account.json"'}
        )

    async def viewer(request: Request, store: Store) -> Viewer:
        """Who asks, for a private table's records, which are for its players: the logged-in
        account, and a guest by their websocket token (`X-Cardroom-Player`) while the server
        knows them."""
        try:
            account: int | None = (await me(request, store)).id
        except StoreError:
            account = None
        token = request.headers.get(PLAYER_HEADER, "").strip()
        guest = await store.records.guest(token_hash(token)) if token else None
        return Viewer(account, guest)

    async def visible(request: Request, store: Store) -> GameRecord:
        """The record of the path's id; one the caller may not see is as unknown as a missing one."""
        found = await store.records.get(request.path_params["id"])
        if not found.visible_to(*await viewer(request, store)):
            raise StoreError("no_record", _("There is no game record {id}.").format(id=found.id))
        return found

    @endpoint
    async def records(request: Request, store: Store) -> Response:
        mine = request.query_params.get("mine") in ("1", "true")
        account_id = (await me(request, store)).id if mine else None
        seer = Viewer(account_id, None) if mine else await viewer(request, store)
        return JSONResponse(
            {"records": await store.records.recent(account_id, viewer=seer.account, guest=seer.guest)}
        )

    @endpoint
    async def record(request: Request, store: Store) -> Response:
        found = await visible(request, store)
        return JSONResponse({**found.summary(), "moves": len(found.record.moves), "end_at": found.end_at})

    async def finished(request: Request, store: Store) -> GameRecord:
        found = await visible(request, store)
        if found.state != "over":
            raise StoreError("not_over", _("That game is not over: its hidden cards stay hidden."))
        return found

    @endpoint
    async def record_frames(request: Request, store: Store) -> Response:
        found = await finished(request, store)
        seat = parse_seat(request.query_params.get("seat", "all"), found.record.players)
        number = parse_page(request.query_params.get("page", "0"))
        body = await replays.page(found, seat, request_language(request), number)
        return Response(body, media_type="application/json")

    @endpoint
    async def record_scenario(request: Request, store: Store) -> Response:
        found = await finished(request, store)
        return JSONResponse(
            to_scenario(found),
            headers={"content-disposition": f'attachment; filename="cardroom-{found.id}.json"'},
        )

    @endpoint
    async def leaderboard(request: Request, store: Store) -> Response:
        game = request.path_params["game"]
        if game not in GAMES:
            raise StoreError("no_game", _("Unknown game."))
        players = await store.ratings.leaderboard(game)
        for row in players:  # a bot level is named in the reader's language, whoever stored it
            if row["level"] is not None:
                row["name"] = level_bot_name(row["level"])
        return JSONResponse({"game": game, "players": players})

    @endpoint
    async def player(request: Request, store: Store) -> Response:
        found = await store.accounts.find(request.path_params["name"])
        if found is None:
            raise StoreError("no_player", _("Nobody has that name here."))
        seer = await viewer(request, store)
        games = await store.ratings.profile(found.id)
        unseen = await store.records.unseen(found.id, seer.account, seer.guest)
        for played in games.values():  # a private game's point would give away its time and id
            played["history"] = [p for p in played["history"] if p["game_id"] not in unseen]
        return JSONResponse(
            {
                "name": found.name,
                "games": games,
                "recent": await store.records.recent(
                    found.id, limit=20, viewer=seer.account, guest=seer.guest
                ),
            }
        )

    return [
        Route("/api/register", register, methods=["POST"]),
        Route("/api/login", login, methods=["POST"]),
        Route("/api/logout", logout, methods=["POST"]),
        Route("/api/me", whoami, methods=["GET"]),
        Route("/api/me", delete_account, methods=["DELETE"]),
        Route("/api/me/export", export, methods=["GET"]),
        Route("/api/password", change_password, methods=["POST"]),
        Route("/api/logout-all", logout_all, methods=["POST"]),
        Route("/api/profile", profile, methods=["PUT", "POST"]),
        Route("/api/records", records, methods=["GET"]),
        Route("/api/records/{id}", record, methods=["GET"]),
        Route("/api/records/{id}/frames", record_frames, methods=["GET"]),
        Route("/api/records/{id}/scenario", record_scenario, methods=["GET"]),
        Route("/api/leaderboard/{game}", leaderboard, methods=["GET"]),
        Route("/api/players/{name}", player, methods=["GET"]),
    ]
