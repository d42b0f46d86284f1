"""What every request passes through before the app: where a browser's request comes from, what
kind of body a change carries, and the headers that keep the page from being framed, sniffed or
made to run a script it did not load itself. The reasons are in docs/security.md.

The session cookie is SameSite=Strict, which does not stop a page of the same site (another
port of the same host, a sibling subdomain) from sending requests that carry it. So:

- A websocket handshake and every request that changes something (any method but GET and
  HEAD) from a browser must come from one of the server's own origins. A browser always says
  where such a request comes from (`Origin`); a program without one (the terminal client, a
  bot, curl) carries no browser's cookie, and proves who it is with its own token.
- Every request that changes something says `Content-Type: application/json`: a page of
  another origin cannot send that without asking first (a CORS preflight this server never
  grants), and a plain HTML form cannot send it at all.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import NamedTuple

from starlette.datastructures import Headers
from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from cardroom.i18n import _, use_language
from cardroom.server.api import request_language

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})

CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",  # data: for the empty favicon
        "connect-src 'self'",  # the API and the websocket of this origin only
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)
HEADERS: list[tuple[bytes, bytes]] = [
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),  # frame-ancestors for browsers that predate it
    # Same-origin requests keep their full Referer (and so their Origin); nothing leaves the site.
    (b"referrer-policy", b"same-origin"),
]


def parse_origins(raw: str | Iterable[str] | None) -> frozenset[str]:
    """Origins from a comma-separated list (or several): scheme://host[:port], lower case,
    without a trailing slash."""
    if raw is None:
        return frozenset()
    parts = raw.split(",") if isinstance(raw, str) else [p for item in raw for p in item.split(",")]
    return frozenset(p.strip().rstrip("/").lower() for p in parts if p.strip())


def own_origin(scope: Scope) -> str | None:
    """The origin this request was addressed to: its scheme (as the trusted proxy said, if any)
    and its Host header."""
    host = Headers(scope=scope).get("host")
    if not host:
        return None
    scheme = {"ws": "http", "wss": "https"}.get(scope.get("scheme", "http"), scope.get("scheme", "http"))
    return f"{scheme}://{host}".lower()


class Refusal(NamedTuple):
    """Why a request that changes something is refused: its status, code and sentence (in the
    caller's language)."""

    status: int
    code: str
    message: str


class Guard:
    """ASGI middleware: the origin and body-type checks, and the security headers.

    `origins`: the origins the page is served from, as a deployment names them; when empty,
    the origin the request was addressed to (scheme and Host).
    """

    def __init__(self, app: ASGIApp, origins: frozenset[str] = frozenset()) -> None:
        self.app = app
        self.origins = origins

    def allowed(self, scope: Scope) -> bool:
        origin = Headers(scope=scope).get("origin")
        if origin is None:
            return True  # not a browser: it carries no browser's cookie
        origin = origin.rstrip("/").lower()
        if self.origins:
            return origin in self.origins
        return origin == own_origin(scope)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            if not self.allowed(scope):
                await send({"type": "websocket.close", "code": 1008})  # the handshake gets a 403
                return
            await self.app(scope, receive, send)
            return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []), *HEADERS]}
            await send(message)

        if scope["method"] not in SAFE_METHODS:
            refused = self.refusal(scope)
            if refused is not None:
                body = json.dumps({"error": refused.code, "message": refused.message}).encode()
                await send_with_headers(
                    {
                        "type": "http.response.start",
                        "status": refused.status,
                        "headers": [
                            (b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode()),
                        ],
                    }
                )
                await send_with_headers({"type": "http.response.body", "body": body})
                return
        await self.app(scope, receive, send_with_headers)

    def refusal(self, scope: Scope) -> Refusal | None:
        """Why this change is refused (status, code, sentence in the caller's language), or None."""
        with use_language(request_language(Request(scope))):
            if not self.allowed(scope):
                return Refusal(403, "bad_origin", _("This request came from another site: it was refused."))
            kind = Headers(scope=scope).get("content-type", "").split(";")[0].strip().lower()
            if kind != "application/json":
                return Refusal(
                    415, "not_json", _("Send the request as JSON (Content-Type: application/json).")
                )
        return None
