"""The websocket edge: parse each message once, check who may do what, hand it on.

The edge never runs rules. Bad input gets an `error` message with a stable code (or a close
with a named code) and changes nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any, cast

import msgspec
from starlette.types import Receive
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from cardroom.i18n import _, use_language
from cardroom.protocol import JSON
from cardroom.server import api, closes, wire
from cardroom.server.connection import Connection, Player
from cardroom.server.lobby import Lobby
from cardroom.server.room import Room
from cardroom.store import Account, StoreError
from cardroom.store.accounts import clean_text, token_hash
from cardroom.store.names import clean_name

log = logging.getLogger("cardroom.server")


async def serve_socket(websocket: WebSocket, lobby: Lobby) -> None:
    """One client, from hello to goodbye."""
    await websocket.accept()
    connection = Connection(websocket, lobby.send_queue, lobby.limits)
    address = websocket.client.host if websocket.client else "?"
    if not lobby.connected(address):
        # One address holding hundreds of sockets would take what everyone shares.
        connection.start()
        connection.send(
            wire.error("too_many_connections", _("Too many connections from your address: close some first."))
        )
        connection.close(closes.TOO_MANY_CONNECTIONS)
        assert connection.writer is not None
        await connection.writer
        return
    connection.address = address
    # A connection the server drops (a slow consumer) leaves the lobby at once, though its
    # socket may linger until the peer reads: its seats get stand-in bots now.
    connection.on_close = lambda: lobby.gone(connection)
    connection.start()
    # Under the server's own protocol (server/reading.py) the messages come from its queue
    # straight: Starlette's receive adds layers to every message and nothing else here. Once
    # the hello is done and nothing waits in the queue, each text message is handled as the
    # protocol reads it (`on_text`): no queue, no task woken per message; the queue then
    # brings only the end (the disconnect, a binary frame, or `_STOP` from `on_text`).
    direct = connection.direct
    receive = websocket.receive if direct is None else cast(Receive, direct.receive)

    def on_text(text: str) -> None:
        try:
            message = _read(connection, lobby, text)
            if message is not None and connection.player is not None and not connection.closed:
                with use_language(connection.player.lang):
                    handle(connection, connection.player, message, lobby)
        except Exception:
            log.exception("connection handler failed")
            connection.close(closes.GOING_AWAY)
        if connection.closed and direct is not None and direct.on_text is not None:
            direct.on_text = None
            direct.queue.put_nowait(cast(Any, _STOP))

    try:
        while True:
            if direct is not None and connection.player is not None and direct.queue.empty():
                direct.on_text = on_text
            if connection.player is None:
                try:
                    async with asyncio.timeout(lobby.limits.hello_s):
                        received = await receive()
                except TimeoutError:
                    connection.close(closes.NO_HELLO)
                    break
            else:
                received = await receive()
            if received["type"] == "websocket.disconnect":
                websocket.client_state = WebSocketState.DISCONNECTED  # as Starlette's receive does
                break
            if connection.closed or received is _STOP:
                break
            data = received.get("text")
            if data is None:
                data = b"" if received.get("bytes") is None else received["bytes"]
            message = _read(connection, lobby, data)
            if connection.closed:
                break
            if message is None:
                continue
            if connection.player is None:
                if not isinstance(message, wire.Hello):
                    connection.close(closes.NOT_HELLO)
                    break
                if not await _hello(connection, message, lobby, api.cookie_token(websocket.cookies)):
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
        if direct is not None:
            direct.on_text = None
        if not connection.closed:
            connection.close(closes.GOING_AWAY)
        lobby.gone(connection)
        lobby.disconnected(address)
        if connection.writer is not None:
            await connection.writer


_STOP: dict[str, str] = {"type": "cardroom.stop"}
"""Put in a connection's queue by `on_text` once the connection closed: its reader stops."""


def _read(connection: Connection, lobby: Lobby, data: str | bytes) -> wire.ClientMessage | None:
    """One message from the client, parsed; None when it was refused (the client was told why,
    or a flood closed the connection)."""
    if not connection.limit.allow():
        if connection.limit.strikes > lobby.limits.flood_strikes:
            connection.close(closes.FLOOD)
            return None
        connection.send(wire.error("rate_limited", _("Slow down: too many messages.")))
        return None
    if isinstance(data, bytes):
        connection.send(_unreadable("a binary frame: messages are JSON text frames"))
        return None
    if len(data.encode()) > wire.MAX_MESSAGE_BYTES:
        connection.send(wire.error("too_big", _("That message is too large.")))
        return None
    try:
        return wire.decode(data)
    except msgspec.DecodeError as exc:
        connection.send(_unreadable(str(exc)))
    except RecursionError:
        connection.send(_unreadable("nested too deeply"))
    return None


def _unreadable(why: str) -> JSON:
    return wire.error("bad_message", _("That message could not be read: {why}").format(why=why))


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


async def _reserved(hello: wire.Hello, lobby: Lobby) -> bool:
    """Whether a guest's nickname belongs to an account (a name that cannot be one never does)."""
    if lobby.store is None or hello.token or clean_name(hello.name) is None:
        return False
    return await lobby.store.accounts.exists(hello.name)


async def _lookups(hello: wire.Hello, lobby: Lobby, cookie: str | None) -> tuple[Account | JSON | None, bool]:
    """The hello's database questions (its account, whether its nickname is an account's), asked
    a few hellos at a time: a crowd of hellos waits its turn instead of taking every database
    connection from the games."""
    if lobby.store is None or (not (hello.session or cookie) and clean_name(hello.name) is None):
        return None, False
    async with asyncio.timeout(lobby.limits.hello_wait_s), lobby.hello_turns:
        account = await _account(hello, lobby, cookie)
        reserved = account is None and await _reserved(hello, lobby)
    return account, reserved


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
    with use_language(hello.lang):  # one of the six: wire.Lang refused any other
        try:
            account, reserved = await _lookups(hello, lobby, cookie)
        except TimeoutError:
            connection.send(wire.error("busy", _("The server is busy: try again in a moment.")))
            return True
        if isinstance(account, dict):
            connection.send(account)
            return True
        if reserved:
            connection.send(
                wire.error(
                    "name_reserved",
                    _("That name belongs to an account: log in, or choose another nickname."),
                )
            )
            return True
        await lobby.recall(hello.token, account)
        await lobby.settled()  # the table list it is shown next is the cluster's whole
        connection.hold()  # in the lobby from here, but answered first
        connection.moves = hello.moves
        result = lobby.hello(connection, hello.name, hello.token, hello.lang, account)
    if account is not None and isinstance(result, Player):
        connection.session = token_hash(hello.session or cookie or "")
    if not isinstance(result, Player):
        connection.first(result)
        if result["code"] == "bad_token":
            connection.close(closes.BAD_TOKEN)
            return False
        return True
    await _kept(result, lobby)
    connection.first(
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


ROW_WAIT_S = 3.0
"""The longest a cluster's welcome waits for the player's row (a store that is away does not
keep a player out: they are welcome, and their row is written once it is back)."""


async def _kept(player: Player, lobby: Lobby) -> None:
    """In a cluster, until the store has the player's row: a guest's edge may die the moment
    after their welcome, and another node finds them by their token only in the store (a CI
    run killed a node before its journal had written the row: the guest's seat was lost)."""
    saving = player.saving
    if not lobby.bus.clustered or saving is None or saving.done():
        return
    with contextlib.suppress(Exception):  # too slow, or refused: the journal says so in the log
        await asyncio.wait_for(asyncio.shield(saving), ROW_WAIT_S)


def handle(connection: Connection, player: Player, message: wire.ClientMessage, lobby: Lobby) -> None:
    """Dispatch one parsed message; errors go back to the sender only. A message for a table
    of another node of a cluster goes to that node (server/relay.py)."""
    table_id = getattr(message, "table", None)
    if (
        isinstance(table_id, str)
        and table_id not in lobby.rooms
        and lobby.relay.forward(player, table_id, message)
    ):
        return
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
        case wire.ListTables(page=page):
            lobby.list_for(connection, page)
        case wire.CreateTable():
            lobby.create_for(
                connection,
                lambda elsewhere: lobby.create(
                    player,
                    connection.address,
                    message.game,
                    message.seats,
                    message.options,
                    message.bots,
                    message.bot_level,
                    message.private,
                    elsewhere,
                ),
            )
        case wire.Chat(text=raw, table=table_id):
            text = clean_text(raw, wire.MAX_CHAT_CHARS)
            if text is None:
                reply = wire.error("bad_chat", _("A chat line has 1 to 500 printable characters."))
            else:
                lobby.said(connection, player, table_id, text)
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
        case wire.Rematch(table=table_id, ready=ready):
            reply = _in_room(lobby, table_id, lambda room: room.rematch(player, ready))
        case wire.PlayNow(game=game):
            lobby.create_for(
                connection, lambda elsewhere: lobby.play_now(player, connection.address, game, elsewhere)
            )
        case wire.GuideMe(game=game):
            lobby.create_for(
                connection, lambda elsewhere: lobby.guide(player, connection.address, game, elsewhere)
            )
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
