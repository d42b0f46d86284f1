"""Fencing: a game's log takes moves only from the node that owns its table now.

In a cluster a table is owned through a lease in Redis (cardroom/cluster/lease.py); each time a
node takes a table's lease it gets the next fencing number of that table (Redis INCR: it only
grows). A node may lose its lease without knowing it yet (a long pause, a network cut), and a
lease alone cannot stop it from writing. So the log itself keeps the highest fencing number it
has seen for each game (`games.fence`), every move carries its writer's number (`moves.fence`),
and the store refuses a move whose number is lower than the game's: once the new owner has
written its number (`claim`, before it reads the log to resume), the old owner's writes fail.

One process without a cluster writes fence 0, which nothing checks: a single node owns
everything, and its writes cost no extra statement.
"""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.engine import Connection

from cardroom.store.schema import games, rooms


class StaleOwner(RuntimeError):
    """A write from a node that no longer owns the table: a newer fencing number is in the log."""


def claim(conn: Connection, game_id: str, fence: int) -> None:
    """Raise the game's fencing number to `fence`; refused (StaleOwner) if it is higher already."""
    done = conn.execute(
        update(games).where(games.c.id == game_id, games.c.fence <= fence).values(fence=fence)
    )
    if done.rowcount == 0:
        raise StaleOwner(f"game {game_id}: fencing number {fence} is older than the log's")


def claim_room(conn: Connection, room_id: str, fence: int) -> None:
    """The same for the table's own row (`rooms.fence`): its seats, its state, its closing. A row
    not there yet takes the number when it is inserted; 0 is never checked."""
    if fence <= 0:
        return
    done = conn.execute(
        update(rooms).where(rooms.c.id == room_id, rooms.c.fence <= fence).values(fence=fence)
    )
    if done.rowcount == 0 and conn.execute(select(rooms.c.id).where(rooms.c.id == room_id)).first():
        raise StaleOwner(f"table {room_id}: fencing number {fence} is older than the store's")


_CHECK_SQL = {
    # SQLite: the pairs as one JSON array of [game, number] (UPDATE ... FROM: SQLite 3.33).
    "qmark": "UPDATE games SET fence = v.fence FROM (SELECT json_extract(value, '$[0]') AS id,"
    " json_extract(value, '$[1]') AS fence FROM json_each(?)) AS v"
    " WHERE games.id = v.id AND games.fence <= v.fence",
    # asyncpg: the games and their numbers as two arrays.
    "numeric_dollar": "UPDATE games SET fence = v.fence FROM unnest($1::varchar[], $2::bigint[])"
    " AS v(id, fence) WHERE games.id = v.id AND games.fence <= v.fence",
}
"""One statement of the same text whatever the batch, handed to the driver as it is: built with
SQLAlchemy (a CASE of one branch per game) it was built and compiled again for each commit, and
that was half of the check's time, 3 % of a cluster node's processor (py-spy over
`python -m bench.load --nodes 2`, issue 26)."""


def check_moves(conn: Connection, rows: list[dict[str, Any]]) -> None:
    """Before move rows go in: each fenced writer must hold the newest number of its game.

    One statement for all the games of a batch: a busy node's commit holds moves of dozens of
    games, and a statement each was about 40 % of a cluster node's journal time (py-spy over
    `python -m bench.load --nodes 2`, issue 26). Only when it misses one is each claimed alone,
    which says which."""
    pairs = sorted({(row["game_id"], row["fence"]) for row in rows if row["fence"] > 0})
    fences = dict(pairs)
    if len(fences) > 1 and len(fences) == len(pairs):
        style = conn.dialect.paramstyle
        params = (json.dumps(pairs),) if style == "qmark" else (list(fences), list(fences.values()))
        done = conn.exec_driver_sql(_CHECK_SQL[style], params)
        if done.rowcount == len(fences):
            return
    for game_id, fence in pairs:  # a game with two numbers in one batch is claimed in order
        claim(conn, game_id, fence)
