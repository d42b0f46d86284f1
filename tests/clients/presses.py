"""Keys pressed in a terminal session, each checked against the line it says last: most of
the terminal tests are such a list."""

from __future__ import annotations

import io

from cardroom.clients.terminal.session import Session


def press(session: Session, out: io.StringIO, keys: list[tuple[str, str]]) -> None:
    """Press each key in turn; the line said last must be the one given with it."""
    for key, line in keys:
        session.key(key)
        assert out.getvalue().splitlines()[-1] == line, key
