"""reserved_names: a deleted account's name, kept from everyone for a while

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "reserved_names",
        sa.Column("name_key", sa.String(length=96), nullable=False),
        sa.Column("until_ms", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("name_key", name=op.f("pk_reserved_names")),
    )


def downgrade() -> None:
    op.drop_table("reserved_names")
