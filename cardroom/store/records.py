"""Game records (options, seed, seats, action log), the tables a restart reopens, and players.

Writes of a running server go through the journal, in order; reads are direct.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

from sqlalchemy import ColumnElement, delete, desc, false, not_, or_, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncEngine

from cardroom.i18n import _
from cardroom.protocol import JSON
from cardroom.protocol.record import Move, Record
from cardroom.store import fencing
from cardroom.store.accounts import now_ms
from cardroom.store.errors import StoreError
from cardroom.store.journal import Journal
from cardroom.store.ratings import rate
from cardroom.store.schema import game_seats, games, moves, players, rooms

PLAYING, OVER, ABANDONED = "playing", "over", "abandoned"


@dataclass(frozen=True, slots=True)
class SeatRecord:
    """Who sat at a seat in one game: a person (player id, maybe an account) or a bot level."""

    name: str
    player_id: str | None = None
    account_id: int | None = None
    bot_level: str | None = None
    place: int | None = None

    def to_json(self) -> JSON:
        return {
            "name": self.name,
            "account": self.account_id is not None,
            "bot": self.bot_level,
            "place": self.place,
        }


@dataclass(frozen=True, slots=True)
class GameRecord:
    """A stored game: enough to replay it (`record`) and to show who played (`seats`)."""

    id: str
    room_id: str
    state: str
    started_ms: int
    finished_ms: int | None
    end_at: int | None
    winner: int | None
    seats: list[SeatRecord]
    record: Record
    private: bool = False
    whole: bool = True
    """Whether the moves are numbered 0, 1, 2... without a gap (a restart replays only such a log)."""

    def visible_to(self, account_id: int | None, guest: str | None = None) -> bool:
        """A private table's game is for those who played it: the accounts seated, and a guest
        seated (`guest`, their player id) as long as the server knows them; any other game is
        for everyone."""
        return not self.private or any(
            (account_id is not None and s.account_id == account_id)
            or (guest is not None and s.account_id is None and s.player_id == guest)
            for s in self.seats
        )

    def summary(self) -> JSON:
        return {
            "id": self.id,
            "game": self.record.game,
            "players": self.record.players,
            "state": self.state,
            "started_ms": self.started_ms,
            "finished_ms": self.finished_ms,
            "winner": self.winner,
            "seats": [s.to_json() for s in self.seats],
        }


def _visible(viewer: int | None, guest: str | None) -> ColumnElement[bool]:
    """The games `viewer` (an account id) and `guest` (a guest's player id) may see, as a
    condition on `games`: the public ones and the private ones they played (`GameRecord.visible_to`)."""
    played = []
    if viewer is not None:
        played.append(game_seats.c.account_id == viewer)
    if guest is not None:
        played.append((game_seats.c.player_id == guest) & game_seats.c.account_id.is_(None))
    if not played:
        return games.c.private == false()
    return or_(games.c.private == false(), games.c.id.in_(select(game_seats.c.game_id).where(or_(*played))))


def _upsert(conn: Connection, table: Any, key: str, values: dict[str, Any]) -> None:
    result = conn.execute(update(table).where(table.c[key] == values[key]).values(**values))
    if not result.rowcount:
        conn.execute(table.insert().values(**values))


class Records:
    """Reads and journaled writes of rooms, players and games."""

    def __init__(self, engine: AsyncEngine, journal: Journal) -> None:
        self.engine = engine
        self.journal = journal

    # -- players and rooms (journaled) -----------------------------------------------------
    def save_player(
        self, player_id: str, name: str, token_hash: str, account_id: int | None, lang: str
    ) -> asyncio.Future[None]:
        """Keep a player's row; done once it is written."""
        values = {
            "id": player_id,
            "name": name,
            "token_hash": token_hash,
            "account_id": account_id,
            "lang": lang,
            "seen_ms": now_ms(),
        }
        return self.journal.write(
            lambda conn: _upsert(conn, players, "id", values), f"the row of player {player_id}"
        )

    def forget_guests(self, only: set[str] | None = None, keep: set[str] | None = None) -> None:
        """Delete the rows of guests (players without an account): those of `only`, or every one
        but those of `keep`. Game records keep the names of their seats in their own rows."""
        guests = players.c.account_id.is_(None)

        def op(conn: Connection) -> None:
            if only is not None:
                ids = sorted(only)
                for start in range(0, len(ids), 500):  # within every database's parameter limit
                    conn.execute(delete(players).where(guests, players.c.id.in_(ids[start : start + 500])))
            else:
                conn.execute(delete(players).where(guests, players.c.id.not_in(sorted(keep or set()))))

        self.journal.write(op, "the removal of guest rows")

    def save_room(self, values: dict[str, Any]) -> None:
        """Keep a table's row; its `fence` (a cluster node's number, else 0) is checked first."""
        values = {**values, "updated_ms": now_ms()}

        def op(conn: Connection) -> None:
            fencing.claim_room(conn, values["id"], values.get("fence", 0))
            _upsert(conn, rooms, "id", values)

        self.journal.write(op, f"the row of table {values['id']}")

    def drop_room(self, room_id: str, fence: int = 0) -> asyncio.Future[None]:
        def op(conn: Connection) -> None:
            fencing.claim_room(conn, room_id, fence)
            conn.execute(delete(rooms).where(rooms.c.id == room_id))

        return self.journal.write(op, f"the removal of table {room_id}")

    async def open_rooms(self) -> list[Any]:
        async with self.engine.connect() as conn:
            return list((await conn.execute(select(rooms).order_by(rooms.c.updated_ms))).all())

    async def rooms_by_id(self, ids: list[str]) -> list[Any]:
        """The open tables among `ids` (a cluster node takes over those no node holds)."""
        if not ids:
            return []
        async with self.engine.connect() as conn:
            return list((await conn.execute(select(rooms).where(rooms.c.id.in_(ids)))).all())

    async def guest(self, token_hash: str) -> str | None:
        """The player id of the guest (a player without an account) whose websocket token has
        this hash, while the server knows them (forgotten guests have no row)."""
        query = select(players.c.id).where(players.c.token_hash == token_hash, players.c.account_id.is_(None))
        async with self.engine.connect() as conn:
            found = (await conn.execute(query)).first()
        return None if found is None else str(found.id)

    async def players_by_id(self, ids: list[str]) -> list[Any]:
        if not ids:
            return []
        async with self.engine.connect() as conn:
            return list((await conn.execute(select(players).where(players.c.id.in_(ids)))).all())

    async def player_by(self, token_hash: str | None = None, account_id: int | None = None) -> Any:
        """The player who entered with this token (its digest), or with this account: in a
        cluster, a player another node met comes back through this one. None if unknown."""
        if token_hash is not None:
            where = players.c.token_hash == token_hash
        elif account_id is not None:
            where = players.c.account_id == account_id
        else:
            return None
        async with self.engine.connect() as conn:
            return (await conn.execute(select(players).where(where).limit(1))).first()

    # -- games (journaled) ------------------------------------------------------------------
    def start_game(
        self, game_id: str, room_id: str, record: Record, seats: list[SeatRecord], private: bool = False
    ) -> None:
        game_row = {
            "private": private,
            "id": game_id,
            "room_id": room_id,
            "game": record.game,
            "players": record.players,
            "options": record.options,
            "seed": str(record.seed),
            "deal": record.deal,
            "state": PLAYING,
            "started_ms": now_ms(),
        }
        seat_rows = [
            {
                "game_id": game_id,
                "seat": i,
                "name": s.name,
                "player_id": s.player_id,
                "account_id": s.account_id,
                "bot_level": s.bot_level,
            }
            for i, s in enumerate(seats)
        ]

        def op(conn: Connection) -> None:
            conn.execute(games.insert().values(**game_row))
            conn.execute(game_seats.insert(), seat_rows)

        self.journal.write(op, f"the start of game {game_id}")

    def finish_game(
        self, game_id: str, end_at: int, winner: int | None, places: list[int], fence: int = 0
    ) -> asyncio.Future[None]:
        """The end of a game, in one transaction: its record says it is over, with each seat's
        place, and it is rated (store/ratings.py). Only its table's owner ends it (the fencing
        number is checked first), and only once: a game no longer in play is left as it is, so a
        stale owner's end, or a second one, neither changes the record nor rates again."""

        def op(conn: Connection) -> None:
            if fence:
                fencing.claim(conn, game_id, fence)
            ended = conn.execute(
                update(games)
                .where(games.c.id == game_id, games.c.state == PLAYING)
                .values(state=OVER, finished_ms=now_ms(), end_at=end_at, winner=winner)
            )
            if not ended.rowcount:
                return
            for seat, place in enumerate(places):
                conn.execute(
                    update(game_seats)
                    .where(game_seats.c.game_id == game_id, game_seats.c.seat == seat)
                    .values(place=place)
                )
            rate(conn, game_id)

        return self.journal.write(op, f"the end of game {game_id}")

    def abandon_game(self, game_id: str, end_at: int, fence: int = 0) -> None:
        def op(conn: Connection) -> None:
            if fence:
                fencing.claim(conn, game_id, fence)
            conn.execute(
                update(games)
                .where(games.c.id == game_id, games.c.state == PLAYING)
                .values(state=ABANDONED, finished_ms=now_ms(), end_at=end_at)
            )

        self.journal.write(op, f"the abandoning of game {game_id}")

    def claim_table(self, room_id: str, game_id: str | None, fence: int) -> asyncio.Future[None]:
        """A node taking over a table (and its game in play): from this commit on, the store
        refuses every write of an earlier owner (store/fencing.py). Await it before reading."""

        def op(conn: Connection) -> None:
            fencing.claim_room(conn, room_id, fence)
            if game_id is not None:
                fencing.claim(conn, game_id, fence)

        return self.journal.write(op, f"the claim on table {room_id}")

    async def fence_of(self, game_id: str) -> int:
        """The newest fencing number the game's log has seen (0: none, or no such game)."""
        async with self.engine.connect() as conn:
            found = (await conn.execute(select(games.c.fence).where(games.c.id == game_id))).scalar()
        return int(found or 0)

    # -- reading records ----------------------------------------------------------------------
    async def get(self, game_id: str) -> GameRecord:
        """One game with its whole action log; an unknown id is refused (one no id can be, such as
        one holding a NUL byte, which PostgreSQL refuses even to compare, at once)."""
        if not isinstance(game_id, str) or not 1 <= len(game_id) <= 16 or not game_id.isprintable():
            raise StoreError("no_record", _("There is no game record {id}.").format(id=str(game_id)[:32]))
        async with self.engine.connect() as conn:
            row = (await conn.execute(select(games).where(games.c.id == game_id))).first()
            if row is None:
                raise StoreError("no_record", _("There is no game record {id}.").format(id=game_id))
            seat_rows = (
                await conn.execute(
                    select(game_seats).where(game_seats.c.game_id == game_id).order_by(game_seats.c.seat)
                )
            ).all()
            move_rows = (
                await conn.execute(select(moves).where(moves.c.game_id == game_id).order_by(moves.c.seq))
            ).all()
        record = Record(
            game=row.game,
            players=row.players,
            options=dict(row.options),
            seed=int(row.seed),
            deal=row.deal,
            moves=[Move(int(m.at), int(m.player), dict(m.action)) for m in move_rows],
        )
        seats = [SeatRecord(s.name, s.player_id, s.account_id, s.bot_level, s.place) for s in seat_rows]
        return GameRecord(
            row.id,
            row.room_id,
            row.state,
            int(row.started_ms),
            row.finished_ms,
            row.end_at,
            row.winner,
            seats,
            record,
            bool(row.private),
            all(int(m.seq) == i for i, m in enumerate(move_rows)),
        )

    async def unseen(self, account_id: int, viewer: int | None = None, guest: str | None = None) -> set[str]:
        """The games account `account_id` played that `viewer` and `guest` may not see: its
        private ones they did not play (its page leaves out their ratings' points too)."""
        query = select(games.c.id).where(
            games.c.id.in_(select(game_seats.c.game_id).where(game_seats.c.account_id == account_id)),
            not_(_visible(viewer, guest)),
        )
        async with self.engine.connect() as conn:
            return {str(r.id) for r in (await conn.execute(query)).all()}

    async def recent(
        self,
        account_id: int | None = None,
        limit: int = 50,
        viewer: int | None = None,
        guest: str | None = None,
    ) -> list[JSON]:
        """The newest finished games (of one account when given), newest first: those `viewer`
        (an account id, or None for anyone) and `guest` (a guest's player id) may see
        (`GameRecord.visible_to`)."""
        query = select(games.c.id).where(games.c.state == OVER, _visible(viewer, guest))
        if account_id is not None:
            query = query.where(
                games.c.id.in_(select(game_seats.c.game_id).where(game_seats.c.account_id == account_id))
            )
        query = query.order_by(desc(games.c.finished_ms)).limit(limit)
        async with self.engine.connect() as conn:
            ids = [r.id for r in (await conn.execute(query)).all()]
            if not ids:
                return []
            rows = {r.id: r for r in (await conn.execute(select(games).where(games.c.id.in_(ids)))).all()}
            seat_rows = (
                await conn.execute(
                    select(game_seats).where(game_seats.c.game_id.in_(ids)).order_by(game_seats.c.seat)
                )
            ).all()
        seats: dict[str, list[JSON]] = {}
        for s in seat_rows:
            seats.setdefault(s.game_id, []).append(
                SeatRecord(s.name, s.player_id, s.account_id, s.bot_level, s.place).to_json()
            )
        return [
            {
                "id": i,
                "game": rows[i].game,
                "players": rows[i].players,
                "finished_ms": rows[i].finished_ms,
                "winner": rows[i].winner,
                "seats": seats.get(i, []),
            }
            for i in ids
        ]

    async def played_by(self, account_id: int) -> list[JSON]:
        """Every game the account sat in, oldest first: the record's id, the game, its state and
        times, and the account's own seat and place (nothing of the other seats: an export of
        one person's data, docs/api.md)."""
        query = (
            select(games, game_seats.c.seat, game_seats.c.name.label("seat_name"), game_seats.c.place)
            .join(game_seats, game_seats.c.game_id == games.c.id)
            .where(game_seats.c.account_id == account_id)
            .order_by(games.c.started_ms, games.c.id, game_seats.c.seat)
        )
        async with self.engine.connect() as conn:
            rows = (await conn.execute(query)).all()
        return [
            {
                "id": r.id,
                "game": r.game,
                "state": r.state,
                "private": bool(r.private),
                "started_ms": r.started_ms,
                "finished_ms": r.finished_ms,
                "seat": r.seat,
                "name": r.seat_name,
                "place": r.place,
            }
            for r in rows
        ]
