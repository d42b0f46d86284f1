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

from cardroom.i18n import _
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
    hello_s: float = 10.0
    """How long a websocket may stay open without its hello: past it, it is closed (4011), so
    that an idle socket holds no descriptor and no place in its address's count."""
    hello_lookups: int = 2
    """Hellos that may wait on the database at once: the rest queue behind them, so the
    database's connections stay free for the games' writes."""
    hello_wait_s: float = 10.0
    """How long a hello waits for its turn at the database before it is told to try again."""
    replay_cache_bytes: int = 32 * 1024 * 1024
    """Bytes of replay pages kept for the next reader (cardroom/server/replays.py): a game that is
    over never changes, and a page costs a replay of the game up to it to build again."""
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


OPTION_LIMITS: dict[str, dict[str, tuple[int, int]]] = {
    "burrito": {"bruises": (1, 30), "burritos": (2, 12)},
}
"""Per game, the options a table created here may set only within a range (low, high): a round
of Throw Throw Burrito lasts until its last bruise, so a table's bruises bound how long its
game and its replay grow (docs/rules/burrito.md#option-limits). The engines play any value:
a stored game and a scenario file keep their own."""


LONGEST_MS = 600_000
"""The longest any duration of a table created here may be (every option named `..._ms`):
ten minutes. A turn timer of 2^70 ms is a table where a player who does nothing holds everyone
for ever; no window of either game needs more (docs/rules/burrito.md#option-limits,
docs/rules/kittens.md#timers)."""


def beyond_limits(game: str, options: Mapping[str, Any]) -> str | None:
    """Why a new table's `options` (in their own form) are refused here, or None."""
    bounds = {
        **{name: (0, LONGEST_MS) for name, value in options.items() if name.endswith("_ms")},
        **OPTION_LIMITS.get(game, {}),
    }
    for name, (low, high) in bounds.items():
        value = options.get(name)
        if isinstance(value, int) and not low <= value <= high:
            return _("The option {name} must be from {low} to {high}.").format(name=name, low=low, high=high)
    return None
