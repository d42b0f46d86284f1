"""The tables of the store, as SQLAlchemy Core: one schema for SQLite and PostgreSQL.

Times are whole milliseconds: wall-clock ones (`*_ms`, since the Unix epoch) and play-time
ones (`at`, since the game started). Alembic migrations (`migrations/versions`) build exactly
this schema; a test compares the two on both databases.
"""

from __future__ import annotations

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Column,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    false,
)

metadata = MetaData(
    naming_convention={
        "ix": "ix_%(table_name)s_%(column_0_name)s",
        "uq": "uq_%(table_name)s_%(column_0_name)s",
        "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
        "pk": "pk_%(table_name)s",
    }
)

accounts = Table(
    "accounts",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("name", String(24), nullable=False),
    Column("name_key", String(96), nullable=False, unique=True),  # casefolded: "Anna" = "anna"
    Column("password_hash", String(200), nullable=False),
    Column("profile", JSON, nullable=False),
    Column("created_ms", BigInteger, nullable=False),
)

account_names = Table(
    "account_names",
    metadata,
    # What each account's name looks like (store/names.py: its keys, sha256 digests): a name
    # whose key is here belongs to that account, so that no look-alike can be registered.
    Column("key", String(64), primary_key=True),
    Column("account_id", Integer, ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False, index=True),
)

sessions = Table(
    "sessions",
    metadata,
    Column("token_hash", String(64), primary_key=True),  # sha256 of the token: a leak gives no session
    Column("account_id", Integer, ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False, index=True),
    Column("created_ms", BigInteger, nullable=False),
    Column("expires_ms", BigInteger, nullable=False),
)

reserved_names = Table(
    "reserved_names",
    metadata,
    # The name of a deleted account, kept from everyone (accounts and guests) until `until_ms`,
    # so that nobody can pass for the person who had it (docs/api.md, "Your account").
    Column("name_key", String(96), primary_key=True),
    Column("until_ms", BigInteger, nullable=False),
)

players = Table(
    "players",
    metadata,
    # Everyone who entered this server (guest or account), so that a seat finds its player again
    # after a restart: the player comes back with the token of their earlier connection.
    Column("id", String(32), primary_key=True),
    Column("name", String(24), nullable=False),
    Column("token_hash", String(64), nullable=False, unique=True),
    Column("account_id", Integer, ForeignKey("accounts.id", ondelete="SET NULL"), nullable=True),
    Column("lang", String(8), nullable=False),
    Column("seen_ms", BigInteger, nullable=False),
)

rooms = Table(
    "rooms",
    metadata,
    # A table of the lobby, waiting or in play: what a restart needs to open it again.
    Column("id", String(16), primary_key=True),
    Column("game", String(16), nullable=False),
    Column("options", JSON, nullable=False),
    Column("seats", JSON, nullable=False),
    Column("host", String(32), nullable=False),
    Column("private", Boolean, nullable=False),
    Column("code", String(16), nullable=True),
    Column("bot_level", String(16), nullable=False),
    Column("state", String(8), nullable=False),
    Column("game_id", String(16), nullable=True),
    Column("games_played", Integer, nullable=False),
    Column("updated_ms", BigInteger, nullable=False),
    Column("fence", BigInteger, nullable=False, server_default="0"),  # its owner's (store/fencing.py)
)

games = Table(
    "games",
    metadata,
    # One game: its record. `state` is playing, over or abandoned (its table closed mid-game).
    Column("id", String(16), primary_key=True),
    Column("room_id", String(16), nullable=False, index=True),
    Column("game", String(16), nullable=False),
    Column("players", Integer, nullable=False),
    Column("options", JSON, nullable=False),
    # Decimal text: a live table's seed has 256 bits (cardroom/protocol/rng.py), more than BIGINT.
    Column("seed", String(80), nullable=False),
    Column("deal", JSON, nullable=True),
    Column("state", String(12), nullable=False),
    Column("started_ms", BigInteger, nullable=False),
    Column("finished_ms", BigInteger, nullable=True),
    Column("end_at", BigInteger, nullable=True),
    Column("winner", Integer, nullable=True),
    # Played at a private table: its record is for the accounts seated in it (docs/security.md).
    Column("private", Boolean, nullable=False, server_default=false()),
    # The newest fencing number of the node owning the table (store/fencing.py); 0 on one node.
    Column("fence", BigInteger, nullable=False, server_default="0"),
)

game_seats = Table(
    "game_seats",
    metadata,
    Column("game_id", String(16), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("name", String(24), nullable=False),
    Column("player_id", String(32), nullable=True),
    Column("account_id", Integer, ForeignKey("accounts.id", ondelete="SET NULL"), nullable=True, index=True),
    Column("bot_level", String(16), nullable=True),
    Column("place", Integer, nullable=True),
)

moves = Table(
    "moves",
    metadata,
    # The action log: every accepted action, in order (refused ones change nothing: not kept).
    Column("game_id", String(16), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("at", BigInteger, nullable=False),
    Column("player", Integer, nullable=False),
    Column("action", JSON, nullable=False),
    Column("fence", BigInteger, nullable=False, server_default="0"),  # its writer's fencing number
)

ratings = Table(
    "ratings",
    metadata,
    # Per game and subject: an account ("a:ID") or a bot level ("bot:LEVEL").
    Column("subject", String(48), primary_key=True),
    Column("game", String(16), primary_key=True),
    Column("name", String(24), nullable=False),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("played", Integer, nullable=False),
    Column("won", Integer, nullable=False),
)

rating_history = Table(
    "rating_history",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("subject", String(48), nullable=False),
    Column("game", String(16), nullable=False),
    Column("game_id", String(16), nullable=False),
    Column("at_ms", BigInteger, nullable=False),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Index("ix_rating_history_subject_game", "subject", "game"),
)
