"""The people of a node: connections per address, players entering (a nickname, a token, an
account), kept in the store, known from another node, and what everyone online is sent.
"""

from __future__ import annotations

import secrets

from cardroom.i18n import _
from cardroom.protocol import JSON
from cardroom.server import closes
from cardroom.server.connection import Connection, Player
from cardroom.server.lobby.state import LobbyState
from cardroom.server.wire import encode, error
from cardroom.store import Account, StoreError
from cardroom.store.accounts import DELETED_NAME, token_hash
from cardroom.store.names import checked_name, name_keys


class Players(LobbyState):
    """Who is here, and the one message to all of them."""

    def connected(self, address: str) -> bool:
        """Count a new connection from `address`; False (not counted) when it has too many."""
        if self.connections[address] >= self.limits.connections_per_address:
            return False
        self.connections[address] += 1
        return True

    def disconnected(self, address: str) -> None:
        self.collector.closed()
        self.connections[address] -= 1
        if self.connections[address] <= 0:
            del self.connections[address]

    def player_name(self, player_id: str) -> str | None:
        player = self.players.get(player_id)
        return player.name if player else None

    def name_in_use(self, name: str) -> bool:
        """Whether a player of this node, connected or at one of its tables, goes by that name
        or one that looks like it (store/names.py): a guest holds a name while there."""
        keys = name_keys(name)
        return any(
            not keys.isdisjoint(name_keys(p.name))
            for p in self.players.values()
            if p.tables or (p.connection is not None and not p.connection.closed)
        )

    def online(self) -> list[Player]:
        """The players connected to this node (not those of other nodes at its tables)."""
        return [p for p in self.players.values() if p.here]

    async def recall(self, token: str | None, account: Account | None) -> None:
        """In a cluster, a player another node met enters here: known from the store by their
        token or account, so that `hello` finds them (the same id, their seats anywhere)."""
        store = self.store
        if not self.bus.clustered or store is None:
            return
        if token:
            digest = token_hash(token)
            row = None if digest in self.by_token else await store.records.player_by(token_hash=digest)
        elif account is not None:
            row = (
                None
                if account.id in self.by_account
                else await store.records.player_by(account_id=account.id)
            )
        else:
            return
        if row is None:
            return
        player = self.players.get(row.id)
        if player is None:
            player = self.players[row.id] = Player(row.id, row.name, "", row.lang, row.account_id, kept=True)
        self.by_token[row.token_hash] = player
        if row.account_id is not None:
            self.by_account[row.account_id] = player

    def hello(
        self, connection: Connection, name: str, token: str | None, lang: str, account: Account | None = None
    ) -> Player | JSON:
        """Enter with a nickname or an account, or come back with the token of an earlier connection."""
        player: Player | None = None
        if token:
            player = self.by_token.get(token_hash(token))
            # An account's player token is good only with a live session of that account (the
            # page's cookie or hello.session): a logout ends it with the session.
            if player is None or (
                player.account_id is not None and (account is None or account.id != player.account_id)
            ):
                return error("bad_token", _("That session has expired: enter with a nickname again."))
            player.token = token
        elif account is not None:
            player = self.by_account.get(account.id)
        if player is not None:
            old = player.connection
            if old is not None and old is not connection and not old.closed:
                old.close(closes.REPLACED)
            player.connection = connection
            player.gone_at = None
            player.lang = lang or player.lang
            connection.player = player
            self._remember(player)
            self.bus.here(player.id, player.name)
            return player
        if account is not None:
            cleaned = account.name
        else:
            try:
                cleaned = checked_name(name, _("Choose a nickname of 1 to 24 printable characters."))
            except StoreError as exc:
                return error(exc.code, str(exc))
            if self.name_in_use(cleaned):
                return error("name_taken", _("Someone here already uses that nickname: choose another."))
        player = Player(secrets.token_urlsafe(8), cleaned, secrets.token_urlsafe(24), lang or "en")
        if account is not None:
            player.account_id = account.id
            self.by_account[account.id] = player
        player.connection = connection
        connection.player = player
        self.players[player.id] = player
        self.by_token[token_hash(player.token)] = player
        self._remember(player)
        self.bus.here(player.id, player.name)
        return player

    def _remember(self, player: Player, seated: bool = False) -> None:
        """Keep the player in the store, so that their seats find them again after a restart.
        A guest gets a row only once `seated` (or hosting): one who never sat at a table needs
        none, as a restart forgets guests at no table, and reconnecting as ever new guests
        must not fill the database. In a cluster every guest has one: another node may have to
        find them by their token (`recall`)."""
        if self.store is None:
            return
        if player.account_id is None and not (player.kept or seated or self.bus.clustered):
            return
        player.kept = True
        player.saving = self.store.records.save_player(
            player.id, player.name, token_hash(player.token), player.account_id, player.lang
        )

    def logged_out(self, session_hash: str) -> None:
        """A session ended: the connections that entered with it close as with a stale token."""
        for player in self.online():
            assert player.connection is not None
            if player.connection.session == session_hash:
                player.connection.close(closes.BAD_TOKEN)

    def account_deleted(self, account_id: int) -> None:
        """An account was deleted (its sessions ended first): its player is no one's any more.
        Its token finds nothing, and a new account that gets the same id is not taken for it;
        a seat it still holds is a stranger's until the player is forgotten as an idle guest."""
        player = self.by_account.pop(account_id, None)
        if player is None:
            return
        player.account_id = None
        player.name = DELETED_NAME
        self.by_token = {key: p for key, p in self.by_token.items() if p is not player}

    def broadcast(self, message: JSON, lobby_only: bool = False) -> None:
        """Send to everyone online; `lobby_only`: to those at no table (table lists are for them,
        and a table list update per seat change, sent to every player at every table, would
        cost more than all the games)."""
        # One pass over the players, the cheap test first, and nothing encoded for nobody: a table
        # changes with every game's start and end, and at 200 busy tables the lobby is empty
        # while `online()` listed all 1,200 players for each change (issue 26's profile: 7 %).
        data: bytes | None = None
        for player in self.players.values():
            if (lobby_only and (player.tables or player.away)) or not player.here:
                continue
            if data is None:
                data = encode(message)
            assert player.connection is not None
            player.connection.send_raw(data)
