"""The lobby chat and the rate of every chat line (lobby and tables share it), counted here or,
in a cluster, once for every node in Redis.
"""

from __future__ import annotations

from cardroom.i18n import _, use_language
from cardroom.protocol import JSON
from cardroom.server.connection import Connection, Player, RateLimit
from cardroom.server.limits import client_key
from cardroom.server.lobby.players import Players
from cardroom.server.room import Room
from cardroom.server.wire import error


class Chat(Players):
    """Chat lines: counted, then said in the lobby or at a table."""

    def may_chat(self, player: Player, address: str | None) -> bool:
        """Whether `player` may say one more line now, by this node's own count (lobby and
        tables share the rate), and their address (None: a player of another node's edge)."""
        if player.chat_limit is None:
            player.chat_limit = RateLimit(self.limits.chat_per_s, self.limits.chat_burst)
        return player.chat_limit.allow() and (address is None or self.chat_from.allow(client_key(address)))

    def said(self, connection: Connection, player: Player, table_id: str | None, text: str) -> None:
        """A chat line of `player` (at a table of this node, or in the lobby), counted against
        their rate and their address's first. In a cluster the counts are one for every node,
        in Redis: a player chatting in the lobby at one node and at another node's table, or
        connecting again elsewhere, gets no fresh rate. The lines are counted in the order they
        came. (A line relayed from another node's edge is counted per player only: the address
        stays at that edge.)"""
        address = connection.address if connection.node is None else None
        if not self.bus.clustered:
            self._chat_counted(connection, player, table_id, text, self.may_chat(player, address))
            return
        self._in_background(self._count_chat(connection, player, table_id, text, address))

    async def _count_chat(
        self, connection: Connection, player: Player, table_id: str | None, text: str, address: str | None
    ) -> None:
        limits = self.limits
        async with self._chat_turn:
            try:
                allowed = await self.bus.allow(f"chat:{player.id}", limits.chat_per_s, limits.chat_burst)
                if allowed and address is not None:
                    allowed = await self.bus.allow(
                        f"chat-from:{client_key(address)}",
                        limits.chat_per_address_per_s,
                        limits.chat_address_burst,
                    )
            except Exception:  # Redis away: this node's own count meanwhile
                allowed = self.may_chat(player, address)
        with use_language(player.lang):
            self._chat_counted(connection, player, table_id, text, allowed)

    def _chat_counted(
        self, connection: Connection, player: Player, table_id: str | None, text: str, allowed: bool
    ) -> None:
        reply: JSON | None = None
        if not allowed:
            reply = error("chat_rate", _("You are chatting too fast: wait a moment."))
        elif table_id is None:
            self.chat(player, text)
        else:
            room = self.room(table_id)
            reply = room.chat(player, text) if isinstance(room, Room) else room
        if reply is not None:
            connection.send(reply)

    def chat(self, player: Player, text: str) -> None:
        """A lobby line: to everyone online, but to players at a table only at a calm rate
        (in a busy lobby they get the recent lines when they come back to it). Its id, one in
        the cluster, lets a node that missed it (Redis away) add it once from the bus's log."""
        self._lines_said += 1
        line = {
            "type": "chat",
            "table": None,
            "from": player.name,
            "text": text,
            "id": f"{self.bus.node}.{self._lines_said}",
        }
        self.bus.say(line)
        self._chat_line(line)

    def _chat_line(self, line: JSON) -> None:
        if "id" in line and any(said.get("id") == line["id"] for said in self.chat_log):
            return  # heard already
        self.chat_log.append(line)
        del self.chat_log[:-200]
        self.broadcast(line, lobby_only=not self.seated_chat.allow())
