"""The wire protocol: every message a client and the server exchange, typed and versioned.

Messages are JSON objects with a `type` field, parsed once at the edge into these structs
(unknown fields, wrong types and values out of bounds are refused). Every field is bounded
here as the store and the other nodes can hold it: a language is one of the six, a name or
a key is short plain text, a number fits every integer column and JavaScript's. A server
frame is one message, or (protocol 2) a JSON array of messages to be handled in order:
`messages` reads either. docs/protocol.md describes each one.
"""

from __future__ import annotations

from typing import Annotated, Any

import msgspec

from cardroom.i18n import Language

PROTOCOL_VERSION = 2
MAX_MESSAGE_BYTES = 16 * 1024
MAX_CHAT_CHARS = 500
MAX_NAME_CHARS = 24
MAX_KEY_CHARS = 32
MAX_TOKEN_CHARS = 128

Key = Annotated[str, msgspec.Meta(max_length=MAX_KEY_CHARS, pattern=r"^[A-Za-z0-9_.:-]*\Z")]
"""Something the server named (a table, a game, a bot level, a question, a card): short plain
ASCII. A name it does not know gets its own refusal further in (no_such_table, bad_level...)."""
Code = Annotated[str, msgspec.Meta(max_length=MAX_KEY_CHARS)]
"""A private table's code as a person typed it: a wrong one is refused by the table (bad_code)."""
Token = Annotated[str, msgspec.Meta(max_length=MAX_TOKEN_CHARS, pattern=r"^[A-Za-z0-9_-]*\Z")]
"""A token the server handed out (URL-safe base64); the empty one stands for none."""
Name = Annotated[str, msgspec.Meta(max_length=MAX_NAME_CHARS * 4)]
"""A nickname as typed: `clean_name` squeezes its spaces and refuses what is not printable."""
Text = Annotated[str, msgspec.Meta(max_length=MAX_CHAT_CHARS * 4)]
"""A chat line as typed: `clean_text` squeezes its spaces and refuses what is not printable."""
Int = Annotated[int, msgspec.Meta(ge=-(2**53 - 1), le=2**53 - 1)]
"""A number a browser can hold exactly (and a BIGINT column)."""


class _In(msgspec.Struct, tag_field="type", forbid_unknown_fields=True):
    """A message from a client."""


class Hello(_In, tag="hello"):
    protocol: Int
    name: Name = ""
    token: Token | None = None
    lang: Language = "en"
    session: Token | None = None  # an account's session token (the page sends its cookie instead)
    moves: bool = False  # the client follows a `move` to the node of its table (docs/deploy.md)


class Pong(_In, tag="pong"):
    id: Int


class Ping(_In, tag="ping"):
    id: Int


class ListTables(_In, tag="list_tables"):
    page: Annotated[int, msgspec.Meta(ge=0, le=2**31 - 1)] = 0
    """Which page of the table list (0: the first, as a newcomer gets it)."""


class CreateTable(_In, tag="create_table"):
    game: Key
    seats: Int
    options: dict[str, Any] = {}
    bots: Int = 0
    bot_level: Key | None = None
    private: bool = False


class Join(_In, tag="join"):
    table: Key
    code: Code | None = None
    seat: Int | None = None


class Spectate(_In, tag="spectate"):
    table: Key
    code: Code | None = None


class Leave(_In, tag="leave"):
    table: Key


class Start(_In, tag="start"):
    table: Key


class Kick(_In, tag="kick"):
    table: Key
    seat: Int


class AddBot(_In, tag="add_bot"):
    table: Key
    seat: Int | None = None
    level: Key | None = None


class ExtraTime(_In, tag="extra_time"):
    """The host grants (or takes back) extra time to the player at `seat` (docs/rules)."""

    table: Key
    seat: Int
    on: bool = True


class Rematch(_In, tag="rematch"):
    """A vote for a rematch (`ready: false` takes it back): docs/protocol.md."""

    table: Key
    ready: bool = True


class PlayNow(_In, tag="play_now"):
    """A seat at the fullest open public table of `game`, or a new one (docs/protocol.md)."""

    game: Key


class GuideMe(_In, tag="guide"):
    """A guided first game of `game` (docs/guide.md)."""

    game: Key


class Chat(_In, tag="chat"):
    text: Text
    table: Key | None = None


class Act(_In, tag="act"):
    table: Key
    action: dict[str, Any]
    ref: Int | None = None


class Resume(_In, tag="resume"):
    table: Key
    since: Int


class Query(_In, tag="query"):
    """A rules question the game answers for everyone alike (003: T, E, shift+D)."""

    table: Key
    what: Key
    card: Key | None = None


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
    | PlayNow
    | GuideMe
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
