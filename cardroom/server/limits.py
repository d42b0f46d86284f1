"""What one client may cost the server: every limit by name, with its default.

A server is shared: one person (or one address running a script) must not be able to fill the
lobby with tables, make every newcomer download megabytes, stall the games with list requests,
take the database's connections with hellos, or flood the chat. Each limit below is a named
setting; `cardroom serve` reads `CARDROOM_<NAME>` from the environment (e.g.
`CARDROOM_TABLES_PER_PLAYER=5`), so a deployment (or a test) can change any of them.
docs/protocol.md lists them and what a client sees when it meets one.
"""

from __future__ import annotations

import ipaddress
import os
from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from typing import Any

from cardroom.protocol import CardroomError


@dataclass(frozen=True, slots=True)
class Limits:
    """The server's limits; the defaults suit a public server on one machine."""

    messages_per_s: float = 40.0
    """Messages of any kind a connection may send per second, after a burst of
    `messages_burst`: past it each gets `rate_limited`, and after `flood_strikes` of those
    the connection is closed (4029)."""
    messages_burst: int = 80
    flood_strikes: int = 200
    tables_per_player: int = 3
    """Open tables one player has created (a person plays at one; hosting a few is plenty)."""
    tables_per_address: int = 20
    """Open tables created from one network address (a household or a classroom shares one)."""
    connections_per_address: int = 40
    """Websockets open at once from one address."""
    sockets_per_address: int = 100
    """TCP connections open at once from one address (IPv6: one /64 network), whatever they
    carry: past it a new one is closed as soon as it is accepted, before it holds a file
    descriptor for long. Trusted proxies (`--forwarded-allow-ips`) are not counted: behind
    one, every client comes from its address (server/sockets.py)."""
    request_s: float = 10.0
    """How long a client has to send a whole HTTP request (headers, body, or a websocket
    handshake) once its connection opens or its previous answer ends: a slow, partial
    request (Slowloris) is closed then, with a 408."""
    play_now_s: float = 30.0
    """Seconds a table opened by Play now waits for people before it starts by itself, bots
    in the seats nobody took (the host may start sooner)."""
    table_page: int = 50
    """Table summaries per `tables` message: the first page is what a newcomer downloads."""
    list_per_s: float = 1.0
    """`list_tables` requests a connection may make per second, after a burst of `list_burst`."""
    list_burst: int = 5
    chat_per_s: float = 0.5
    """Chat lines a player may send per second (lobby and tables together), after `chat_burst`."""
    chat_burst: int = 5
    chat_per_address_per_s: float = 1.0
    """Chat lines one address (IPv6: one /64 network) may send per second, all its players
    together, after `chat_address_burst`: new guests from one address share it."""
    chat_address_burst: int = 10
    lobby_chat_to_seated_per_s: float = 1.0
    """Lobby chat lines per second that also reach players seated at a table; the rest of a
    burst goes to the lobby only, so a busy lobby never floods a game."""
    refusals_per_s: float = 3.0
    """Refused actions one seat at a table may make per second, after `refusals_burst`: past
    it, that seat's actions are answered `too_many_refusals` without reaching the game until
    the budget refills (server/refusals.py). A person mashing a key stays well under it."""
    refusals_burst: int = 30
    hello_lookups: int = 2
    """Hellos that may wait on the database at once: the rest queue behind them, so the
    database's connections stay free for the games' writes."""
    hello_wait_s: float = 10.0
    """How long a hello waits for its turn at the database before it is told to try again."""
    behind_s: float = 10.0
    """How far behind (seconds since the oldest message still waiting to go out) a connection
    may fall before it is dropped as a slow consumer."""

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Limits:
        """The defaults, each replaced by `CARDROOM_<NAME>` when the environment sets it."""
        env = os.environ if env is None else env
        changes: dict[str, Any] = {}
        for field in fields(cls):
            raw = env.get(f"CARDROOM_{field.name.upper()}")
            if raw is None:
                continue
            kind = int if field.type in ("int", int) else float
            try:
                value = kind(raw)
            except ValueError:
                raise CardroomError(f"CARDROOM_{field.name.upper()} must be a number, not {raw!r}") from None
            if value <= 0:
                raise CardroomError(f"CARDROOM_{field.name.upper()} must be above 0, not {raw!r}")
            changes[field.name] = value
        return replace(cls(), **changes)


def client_key(host: str) -> str:
    """What counts as one client's address for the limits: the address itself, but for IPv6 its
    /64 network (one household or one server is given a whole /64, and picks any address in
    it), and for an IPv4 address written as IPv6 (`::ffff:192.0.2.1`) the IPv4 address."""
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return str(address)
