"""Alembic's environment: migrations run on the connection the store hands over."""

from __future__ import annotations

from alembic import context

from cardroom.store.schema import metadata

connection = context.config.attributes.get("connection")
if connection is None:
    raise SystemExit("cardroom's migrations run from the store (cardroom serve), not from alembic's command")
context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
