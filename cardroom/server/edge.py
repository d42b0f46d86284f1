"""The websocket edge: parse each message once, check who may do what, hand it on.

The edge never runs rules. Bad input gets an `error` message with a stable code (or a close
with a named code) and changes nothing.
"""

from __future__ import annotations

import logging

import msgspec
from starlette.websockets import WebSocket, WebSocketDisconnect

from cardroom.i18n import LANGUAGES, _, use_language
from cardroom.protocol import JSON
from cardroom.server import api, closes, wire
from cardroom.server.connection import Connection, Player
from cardroom.server.lobby import Lobby
from cardroom.server.room import Room
from cardroom.store import Account, StoreError
from cardroom.store.accounts import token_hash

log = logging.getLogger("cardroom.server")
FLOOD_STRIKES = 200


async def serve_socket(websocket: WebSocket, lobby: Lobby) -> None:
    """One client, from hello to goodbye."""
    await websocket.accept()
    connection = Connection(websocket, lobby.send_queue)
    # A connection the server drops (a slow consumer) leaves the lobby at once, though its
    # socket may linger until the peer reads: its seats get stand-in bots now.
    connection.on_close = lambda: lobby.gone(connection)
    connection.start()
    try:
        while True:
            data = await websocket.receive_text()
            if connection.closed:
                break
            if len(data.encode()) > wire.MAX_MESSAGE_BYTES:
                connection.send(wire.error("too_big", _("That message is too large.")))
                continue
            if not connection.limit.allow():
                if connection.limit.strikes > FLOOD_STRIKES:
                    connection.close(closes.FLOOD)
                    break
                connection.send(wire.error("rate_limited", _("Slow down: too many messages.")))
                continue
            try:
                message = wire.decode(data)
            except msgspec.DecodeError as exc:
                connection.send(
                    wire.error("bad_message", _("That message could not be read: {why}").format(why=exc))
                )
                continue
            if connection.player is None:
                if not isinstance(message, wire.Hello):
                    connection.close(closes.NOT_HELLO)
                    break
                if not await _hello(connection, message, lobby, websocket.cookies.get(api.COOKIE)):
                    break
                continue
            with use_language(connection.player.lang):  # errors and answers in the sender's language
                handle(connection, connection.player, message, lobby)
            if connection.closed:
                break
    except WebSocketDisconnect:
        pass
    except Exception:
        log.exception("connection handler failed")
    finally:
        if not connection.closed:
            connection.close(closes.GOING_AWAY)
        lobby.gone(connection)
        if connection.writer is not None:
            await connection.writer


async def _account(hello: wire.Hello, lobby: Lobby, cookie: str | None) -> Account | JSON | None:
    """The account of the hello's session (or the page's cookie); None for a guest.

    A session named in the hello that is no longer valid is refused (the client said it was
    someone); an old cookie is simply ignored: the page offers to log in again."""
    store = lobby.store
    token = hello.session or cookie
    if store is None or not token:
        return None
    try:
        return await store.accounts.session(token)
    except StoreError as exc:
        if hello.session:
            return wire.error(exc.code, str(exc))
        return None


async def _hello(connection: Connection, hello: wire.Hello, lobby: Lobby, cookie: str | None) -> bool:
    if hello.protocol != wire.PROTOCOL_VERSION:
        connection.send(
            wire.error(
                "protocol",
                _("This server speaks protocol {version}: please reload.").format(
                    version=wire.PROTOCOL_VERSION
                ),
            )
        )
        connection.close(closes.PROTOCOL_MISMATCH)
        return False
    with use_language(hello.lang if hello.lang in LANGUAGES else "en"):
        account = await _account(hello, lobby, cookie)
        if isinstance(account, dict):
            connection.send(account)
            return True
        if (
            account is None
            and not hello.token
            and lobby.store is not None
            and await lobby.store.accounts.exists(hello.name)
        ):
            connection.send(
                wire.error(
                    "name_reserved",
                    _("That name belongs to an account: log in, or choose another nickname."),
                )
            )
            return True
        result = lobby.hello(connection, hello.name, hello.token, hello.lang, account)
    if account is not None and isinstance(result, Player):
        connection.session = token_hash(hello.session or cookie or "")
    if not isinstance(result, Player):
        connection.send(result)
        if result["code"] == "bad_token":
            connection.close(closes.BAD_TOKEN)
            return False
        return True
    connection.send(
        {
            "type": "welcome",
            "protocol": wire.PROTOCOL_VERSION,
            "player": result.id,
            "name": result.name,
            "token": result.token,
            "tables": sorted(result.tables),
            "account": {"id": account.id, "name": account.name} if account is not None else None,
            "profile": account.profile if account is not None else None,
        }
    )
    connection.send(lobby.listing())
    connection.send({"type": "lobby_chat", "chat": lobby.chat_log[-50:]})
    lobby.rejoin(result)
    return True


def handle(connection: Connection, player: Player, message: wire.ClientMessage, lobby: Lobby) -> None:
    """Dispatch one parsed message; errors go back to the sender only."""
    reply: JSON | None = None
    match message:
        case wire.Hello():
            reply = wire.error("already_hello", _("You have already said hello."))
        case wire.Ping(id=ident):
            connection.send({"type": "pong", "id": ident})
        case wire.Pong(id=ident):
            lag = connection.pong(ident)
            if lag is not None:
                player.lag_ms = lag
                connection.send({"type": "lag", "ms": lag})
        case wire.ListTables():
            connection.send(lobby.listing())
        case wire.CreateTable():
            created = lobby.create(
                player,
                message.game,
                message.seats,
                message.options,
                message.bots,
                message.bot_level,
                message.private,
            )
            if not isinstance(created, Room):
                reply = created
        case wire.Chat(text=text, table=table_id):
            text = text.strip()
            if not text or len(text) > wire.MAX_CHAT_CHARS:
                reply = wire.error("bad_chat", _("A chat line has 1 to 500 characters."))
            elif table_id is None:
                lobby.chat(player, text)
            else:
                reply = _in_room(lobby, table_id, lambda room: room.chat(player, text))
        case wire.Join(table=table_id, code=code, seat=seat):
            reply = _in_room(lobby, table_id, lambda room: room.join(player, seat, code))
        case wire.Spectate(table=table_id, code=code):
            reply = _in_room(lobby, table_id, lambda room: room.spectate(player, code))
        case wire.Leave(table=table_id):
            reply = _in_room(lobby, table_id, lambda room: room.leave(player))
        case wire.Start(table=table_id):
            reply = _in_room(lobby, table_id, lambda room: room.start(player))
        case wire.Kick(table=table_id, seat=seat):
            reply = _in_room(lobby, table_id, lambda room: room.kick(player, seat))
        case wire.AddBot(table=table_id, seat=seat, level=level):
            reply = _in_room(lobby, table_id, lambda room: room.add_bot(player, seat, level))
        case wire.ExtraTime(table=table_id, seat=seat, on=on):
            reply = _in_room(lobby, table_id, lambda room: room.grant_extra_time(player, seat, on))
        case wire.Rematch(table=table_id):
            reply = _in_room(lobby, table_id, lambda room: room.rematch(player))
        case wire.Act(table=table_id, action=action, ref=ref):
            reply = _in_room(lobby, table_id, lambda room: room.act(player, action, ref))
        case wire.Resume(table=table_id, since=since):
            reply = _in_room(lobby, table_id, lambda room: room.resume(player, since))
        case wire.Query(table=table_id, what=what, card=card):
            room = lobby.room(table_id)
            if isinstance(room, Room):
                connection.send({**room.query(player, what, card), "table": table_id})
            else:
                reply = room
    if reply is not None:
        connection.send(reply)


def _in_room(lobby: Lobby, table_id: str, do: object) -> JSON | None:
    room = lobby.room(table_id)
    if not isinstance(room, Room):
        return room
    assert callable(do)
    result = do(room)
    return result if isinstance(result, dict) else None
