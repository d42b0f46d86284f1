"""The wire protocol: every message a client and the server exchange, typed and versioned.

Messages are JSON objects with a `type` field, parsed once at the edge into these structs
(unknown fields and wrong types are refused). A server frame is one message, or (protocol 2)
a JSON array of messages to be handled in order: `messages` reads either. docs/protocol.md
describes each one.
"""

from __future__ import annotations

from typing import Annotated, Any

import msgspec

PROTOCOL_VERSION = 2
MAX_MESSAGE_BYTES = 16 * 1024
MAX_CHAT_CHARS = 500
MAX_NAME_CHARS = 24


class _In(msgspec.Struct, tag_field="type", forbid_unknown_fields=True):
    """A message from a client."""


class Hello(_In, tag="hello"):
    protocol: int
    name: str = ""
    token: str | None = None
    lang: str = "en"
    session: str | None = None  # an account's session token (the page sends its cookie instead)


class Pong(_In, tag="pong"):
    id: int


class Ping(_In, tag="ping"):
    id: int


class ListTables(_In, tag="list_tables"):
    page: Annotated[int, msgspec.Meta(ge=0)] = 0
    """Which page of the table list (0: the first, as a newcomer gets it)."""


class CreateTable(_In, tag="create_table"):
    game: str
    seats: int
    options: dict[str, Any] = {}
    bots: int = 0
    bot_level: str | None = None
    private: bool = False


class Join(_In, tag="join"):
    table: str
    code: str | None = None
    seat: int | None = None


class Spectate(_In, tag="spectate"):
    table: str
    code: str | None = None


class Leave(_In, tag="leave"):
    table: str


class Start(_In, tag="start"):
    table: str


class Kick(_In, tag="kick"):
    table: str
    seat: int


class AddBot(_In, tag="add_bot"):
    table: str
    seat: int | None = None
    level: str | None = None


class ExtraTime(_In, tag="extra_time"):
    """The host grants (or takes back) extra time to the player at `seat` (docs/rules)."""

    table: str
    seat: int
    on: bool = True


class Rematch(_In, tag="rematch"):
    table: str


class Chat(_In, tag="chat"):
    text: str
    table: str | None = None


class Act(_In, tag="act"):
    table: str
    action: dict[str, Any]
    ref: int | None = None


class Resume(_In, tag="resume"):
    table: str
    since: int


class Query(_In, tag="query"):
    """A rules question the game answers for everyone alike (003: T, E, shift+D)."""

    table: str
    what: str
    card: str | None = None


ClientMessage = (
    Hello
    | Pong
    | Ping
    | ListTables
    | CreateTable
    | Join
    | Spectate
    | Leave
    | Start
    | Kick
    | AddBot
    | ExtraTime
    | Rematch
    | Chat
    | Act
    | Resume
    | Query
)

decoder = msgspec.json.Decoder(ClientMessage)
encoder = msgspec.json.Encoder()


def decode(data: str | bytes) -> ClientMessage:
    """Parse one client message; raises msgspec.DecodeError / ValidationError."""
    return decoder.decode(data)


def encode(message: dict[str, Any]) -> bytes:
    """Serialize one server message (a plain dict with a `type`)."""
    return encoder.encode(message)


def messages(frame: str | bytes) -> list[dict[str, Any]]:
    """The server messages in one frame, in order: a JSON object is one message, a JSON array
    holds several (protocol 2)."""
    data = msgspec.json.decode(frame)
    if isinstance(data, list):
        return data
    return [data]


def error(code: str, message: str, **extra: Any) -> dict[str, Any]:
    """An error for the client: a stable `code` and a sentence for the person."""
    return {"type": "error", "code": code, "message": message, **extra}
