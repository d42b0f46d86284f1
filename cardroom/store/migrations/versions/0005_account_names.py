"""account_names: the keys of what each account's name looks like (store/names.py)

Each existing account gets its name's keys; when two older accounts' names look alike, the
older one keeps the key (the other keeps its name and its login, and a new look-alike of
either is refused all the same).

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from cardroom.store.names import name_keys

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    table = op.create_table(
        "account_names",
        sa.Column("key", sa.String(length=64), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["account_id"],
            ["accounts.id"],
            name=op.f("fk_account_names_account_id_accounts"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("key", name=op.f("pk_account_names")),
    )
    op.create_index(op.f("ix_account_names_account_id"), "account_names", ["account_id"], unique=False)
    rows = op.get_bind().execute(sa.text("SELECT id, name FROM accounts ORDER BY id")).all()
    taken: set[str] = set()
    keys = []
    for account_id, name in rows:
        for key in sorted(name_keys(name) - taken):
            taken.add(key)
            keys.append({"key": key, "account_id": account_id})
    if keys:
        op.bulk_insert(table, keys)


def downgrade() -> None:
    op.drop_index(op.f("ix_account_names_account_id"), table_name="account_names")
    op.drop_table("account_names")
