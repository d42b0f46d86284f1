"""Accounts for `cardroom connect`: the HTTP API calls, the stored session, the password prompt.

The server's HTTP address is derived from its websocket address (ws -> http, wss -> https, the
API beside `/ws`). A session token is kept in `$XDG_CONFIG_HOME/cardroom/session.json` (else
`~/.config/cardroom/session.json`), one entry per server address, readable by its owner only
(mode 0600). The password is never an argument, never echoed, never printed, never stored:
`getpass` reads it from the terminal; when standard input is not a terminal (a pipe, a test, a
script), one line is read from standard input instead, byte by byte so that nothing after it is
taken away from the client.
"""

from __future__ import annotations

import contextlib
import getpass
import json
import os
import urllib.error
import urllib.request
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlsplit, urlunsplit

from cardroom.i18n import _, current_language, normalize, set_default_language
from cardroom.protocol import JSON

TIMEOUT_S = 15.0


class ApiError(Exception):
    """A refusal of the API (`code`, and `message`, the one line a person reads)."""

    def __init__(self, code: str, message: str, status: int = 0) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status


def http_base(ws_url: str) -> str:
    """The server's HTTP address for its websocket address: ws://h:p/ws -> http://h:p."""
    parts = urlsplit(ws_url)
    scheme = {"ws": "http", "wss": "https"}.get(parts.scheme.lower(), parts.scheme.lower())
    path = parts.path
    if path.endswith("/ws"):
        path = path[: -len("/ws")]
    return urlunsplit((scheme, parts.netloc, path.rstrip("/"), "", ""))


def call(
    base: str,
    method: str,
    path: str,
    body: JSON | None = None,
    token: str | None = None,
    player: str | None = None,
) -> Any:
    """One API request; its JSON answer, or ApiError with the server's sentence. `token`: the
    account's session; `player`: the websocket's player token, by which a guest sees the private
    games they played (docs/api.md)."""
    separator = "&" if "?" in path else "?"
    url = f"{base}{path}{separator}lang={current_language()}"
    # Every change is JSON, even one without a body (the server refuses any other kind).
    data = (
        json.dumps(body if body is not None else {}).encode() if body is not None or method != "GET" else None
    )
    request = urllib.request.Request(url, data=data, method=method)
    request.add_header("Accept", "application/json")
    request.add_header("Accept-Language", current_language())
    if data is not None:
        request.add_header("Content-Type", "application/json")
    if token is not None:
        request.add_header("Authorization", f"Bearer {token}")
    if player is not None:
        request.add_header("X-Cardroom-Player", player)
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT_S) as reply:
            return json.loads(reply.read() or b"null")
    except urllib.error.HTTPError as exc:
        status = exc.code
        try:
            answer = json.loads(exc.read())
        except ValueError:
            answer = None
        finally:
            exc.close()
        if isinstance(answer, dict) and isinstance(answer.get("error"), str):
            message = answer.get("message")
            text = message if isinstance(message, str) and message else answer["error"]
            raise ApiError(answer["error"], text, status) from None
        raise ApiError(
            "http", _("The server answered {status} to {path}.").format(status=status, path=path), status
        ) from None
    except (urllib.error.URLError, OSError, ValueError) as exc:
        why = getattr(exc, "reason", None) or exc
        raise ApiError("unreachable", _("Cannot reach {url}: {why}").format(url=base, why=why)) from None


def leaderboard_path(game: str) -> str:
    return "/api/leaderboard/" + quote(game, safe="")


# ---- the stored session --------------------------------------------------------------------------


def config_dir() -> Path:
    """`$XDG_CONFIG_HOME/cardroom`, else `~/.config/cardroom`."""
    xdg = os.environ.get("XDG_CONFIG_HOME", "")
    root = Path(xdg) if xdg and os.path.isabs(xdg) else Path.home() / ".config"
    return root / "cardroom"


def session_file() -> Path:
    return config_dir() / "session.json"


def _read_sessions() -> dict[str, Any]:
    try:
        data = json.loads(session_file().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    servers = data.get("servers") if isinstance(data, dict) else None
    return dict(servers) if isinstance(servers, dict) else {}


def _write_sessions(servers: dict[str, Any]) -> None:
    path = session_file()
    if not servers:
        with contextlib.suppress(FileNotFoundError):
            path.unlink()
        return
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    temp = path.with_name(path.name + ".tmp")
    with contextlib.suppress(FileNotFoundError):
        temp.unlink()
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        json.dump({"servers": servers}, out, indent=1, sort_keys=True)
    os.chmod(temp, 0o600)
    os.replace(temp, path)


def stored_session(server: str) -> tuple[str, str] | None:
    """The (name, token) kept for this server address, if any."""
    entry = _read_sessions().get(server)
    if isinstance(entry, dict) and isinstance(entry.get("token"), str) and isinstance(entry.get("name"), str):
        return entry["name"], entry["token"]
    return None


def store_session(server: str, name: str, token: str) -> None:
    servers = _read_sessions()
    servers[server] = {"name": name, "token": token}
    _write_sessions(servers)


def forget_session(server: str) -> None:
    servers = _read_sessions()
    if servers.pop(server, None) is not None:
        _write_sessions(servers)


# ---- the password -------------------------------------------------------------------------------


def read_password(prompt: str, fd: int, out: Any) -> str:
    """The password, without echo on a terminal; one line of standard input otherwise."""
    if os.isatty(fd):
        return getpass.getpass(prompt)
    out.write(prompt + "\n")
    out.flush()
    data = bytearray()
    while True:
        try:
            byte = os.read(fd, 1)
        except OSError:
            break
        if not byte or byte == b"\n":
            break
        data += byte
    return data.decode("utf-8", errors="replace").rstrip("\r")


@dataclass
class SecretPrompts:
    """Passwords asked for in the lobby, one line each, unechoed; `then` gets the answers."""

    prompts: list[str]
    then: Callable[[list[str]], Awaitable[None]]
    answers: list[str] = field(default_factory=list)


def write_private(path: str, text: str) -> None:
    """A new file only its owner can read (an export holds a person's data); an existing one is
    never overwritten (FileExistsError)."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        out.write(text)


__all__ = [
    "ApiError",
    "SecretPrompts",
    "call",
    "config_dir",
    "forget_session",
    "http_base",
    "leaderboard_path",
    "read_password",
    "session_file",
    "store_session",
    "stored_session",
    "write_private",
]


def apply_profile(profile: object, lang_given: bool) -> None:
    """The account's language, unless the person chose one with --lang."""
    if isinstance(profile, dict) and not lang_given:
        lang = normalize(str(profile.get("lang") or ""))
        if lang is not None:
            set_default_language(lang)
