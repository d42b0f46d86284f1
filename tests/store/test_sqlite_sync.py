"""Issue 22, low: a host chooses how SQLite commits (docs/deploy.md).

NORMAL (the default) keeps an acknowledged action through the server being killed; FULL
(`cardroom serve --sqlite-sync full`, `CARDROOM_SQLITE_SYNC=full`) through a power cut too.
SQLite only: PostgreSQL's own settings decide there.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from sqlalchemy import text

from cardroom.server.process import run_server
from cardroom.store import Store

SYNCHRONOUS = {1: "NORMAL", 2: "FULL"}  # what `PRAGMA synchronous` answers


def _modes(url: str) -> tuple[str, str]:
    """The setting of the store's readers and of its journal's own connection."""

    async def go() -> tuple[str, str]:
        store = await Store.open(url)
        try:
            async with store.engine.connect() as conn:
                readers = (await conn.execute(text("PRAGMA synchronous"))).scalar_one()
            assert store.journal.file_engine is not None
            with store.journal.file_engine.connect() as sync:
                journal = sync.execute(text("PRAGMA synchronous")).scalar_one()
            return SYNCHRONOUS[readers], SYNCHRONOUS[journal]
        finally:
            await store.close()

    return asyncio.run(go())


@pytest.mark.parametrize(("setting", "mode"), [(None, "NORMAL"), ("full", "FULL"), ("Normal", "NORMAL")])
def test_sqlite_commits_as_the_host_chose(
    setting: str | None, mode: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    if setting is None:
        monkeypatch.delenv("CARDROOM_SQLITE_SYNC", raising=False)
    else:
        monkeypatch.setenv("CARDROOM_SQLITE_SYNC", setting)
    assert _modes(f"sqlite:///{tmp_path / 'store.sqlite3'}") == (mode, mode)


def test_serve_takes_full_and_refuses_a_setting_it_does_not_know() -> None:
    with run_server(extra_args=("--sqlite-sync", "full")) as server:
        assert server.health()["ok"] is True
    with pytest.raises(RuntimeError) as refused, run_server({"CARDROOM_SQLITE_SYNC": "off"}):
        pass
    assert "CARDROOM_SQLITE_SYNC is 'off': use one of normal, full" in str(refused.value)
