"""accounts, players, rooms, games and their moves, ratings

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("name", sa.String(length=24), nullable=False),
        sa.Column("name_key", sa.String(length=96), nullable=False),
        sa.Column("password_hash", sa.String(length=200), nullable=False),
        sa.Column("profile", sa.JSON(), nullable=False),
        sa.Column("created_ms", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_accounts")),
        sa.UniqueConstraint("name_key", name=op.f("uq_accounts_name_key")),
    )
    op.create_table(
        "games",
        sa.Column("id", sa.String(length=16), nullable=False),
        sa.Column("room_id", sa.String(length=16), nullable=False),
        sa.Column("game", sa.String(length=16), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("deal", sa.JSON(), nullable=True),
        sa.Column("state", sa.String(length=12), nullable=False),
        sa.Column("started_ms", sa.BigInteger(), nullable=False),
        sa.Column("finished_ms", sa.BigInteger(), nullable=True),
        sa.Column("end_at", sa.BigInteger(), nullable=True),
        sa.Column("winner", sa.Integer(), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_games")),
    )
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_games_room_id"), ["room_id"], unique=False)

    op.create_table(
        "rating_history",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("subject", sa.String(length=48), nullable=False),
        sa.Column("game", sa.String(length=16), nullable=False),
        sa.Column("game_id", sa.String(length=16), nullable=False),
        sa.Column("at_ms", sa.BigInteger(), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_rating_history")),
    )
    with op.batch_alter_table("rating_history", schema=None) as batch_op:
        batch_op.create_index("ix_rating_history_subject_game", ["subject", "game"], unique=False)

    op.create_table(
        "ratings",
        sa.Column("subject", sa.String(length=48), nullable=False),
        sa.Column("game", sa.String(length=16), nullable=False),
        sa.Column("name", sa.String(length=24), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("played", sa.Integer(), nullable=False),
        sa.Column("won", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("subject", "game", name=op.f("pk_ratings")),
    )
    op.create_table(
        "rooms",
        sa.Column("id", sa.String(length=16), nullable=False),
        sa.Column("game", sa.String(length=16), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("seats", sa.JSON(), nullable=False),
        sa.Column("host", sa.String(length=32), nullable=False),
        sa.Column("private", sa.Boolean(), nullable=False),
        sa.Column("code", sa.String(length=16), nullable=True),
        sa.Column("bot_level", sa.String(length=16), nullable=False),
        sa.Column("state", sa.String(length=8), nullable=False),
        sa.Column("game_id", sa.String(length=16), nullable=True),
        sa.Column("games_played", sa.Integer(), nullable=False),
        sa.Column("updated_ms", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_rooms")),
    )
    op.create_table(
        "game_seats",
        sa.Column("game_id", sa.String(length=16), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=24), nullable=False),
        sa.Column("player_id", sa.String(length=32), nullable=True),
        sa.Column("account_id", sa.Integer(), nullable=True),
        sa.Column("bot_level", sa.String(length=16), nullable=True),
        sa.Column("place", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(
            ["account_id"],
            ["accounts.id"],
            name=op.f("fk_game_seats_account_id_accounts"),
            ondelete="SET NULL",
        ),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_game_seats_game_id_games"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("game_id", "seat", name=op.f("pk_game_seats")),
    )
    with op.batch_alter_table("game_seats", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_game_seats_account_id"), ["account_id"], unique=False)

    op.create_table(
        "moves",
        sa.Column("game_id", sa.String(length=16), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("at", sa.BigInteger(), nullable=False),
        sa.Column("player", sa.Integer(), nullable=False),
        sa.Column("action", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_moves_game_id_games"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("game_id", "seq", name=op.f("pk_moves")),
    )
    op.create_table(
        "players",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("name", sa.String(length=24), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=True),
        sa.Column("lang", sa.String(length=8), nullable=False),
        sa.Column("seen_ms", sa.BigInteger(), nullable=False),
        sa.ForeignKeyConstraint(
            ["account_id"], ["accounts.id"], name=op.f("fk_players_account_id_accounts"), ondelete="SET NULL"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_players")),
        sa.UniqueConstraint("token_hash", name=op.f("uq_players_token_hash")),
    )
    op.create_table(
        "sessions",
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("created_ms", sa.BigInteger(), nullable=False),
        sa.Column("expires_ms", sa.BigInteger(), nullable=False),
        sa.ForeignKeyConstraint(
            ["account_id"], ["accounts.id"], name=op.f("fk_sessions_account_id_accounts"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("token_hash", name=op.f("pk_sessions")),
    )
    with op.batch_alter_table("sessions", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_sessions_account_id"), ["account_id"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("sessions", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_sessions_account_id"))

    op.drop_table("sessions")
    op.drop_table("players")
    op.drop_table("moves")
    with op.batch_alter_table("game_seats", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_game_seats_account_id"))

    op.drop_table("game_seats")
    op.drop_table("rooms")
    op.drop_table("ratings")
    with op.batch_alter_table("rating_history", schema=None) as batch_op:
        batch_op.drop_index("ix_rating_history_subject_game")

    op.drop_table("rating_history")
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_games_room_id"))

    op.drop_table("games")
    op.drop_table("accounts")
