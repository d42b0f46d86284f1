"""rooms.fence, games.fence and moves.fence: the fencing numbers of a cluster's table owners

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("rooms", sa.Column("fence", sa.BigInteger(), server_default="0", nullable=False))
    op.add_column("games", sa.Column("fence", sa.BigInteger(), server_default="0", nullable=False))
    op.add_column("moves", sa.Column("fence", sa.BigInteger(), server_default="0", nullable=False))


def downgrade() -> None:
    with op.batch_alter_table("moves") as batch_op:
        batch_op.drop_column("fence")
    with op.batch_alter_table("games") as batch_op:
        batch_op.drop_column("fence")
    with op.batch_alter_table("rooms") as batch_op:
        batch_op.drop_column("fence")
