"""The test session: its own PostgreSQL and Redis, and the browser tests last.

The throwaway servers of tests/services.py start when a test first asks for one; whatever a
killed session left behind is cleaned up at the start, and this session's servers are stopped
at the end, on Ctrl+C and SIGTERM too.

Playwright's sync API leaves its event loop bound to the test thread for the whole session,
after which `asyncio.run` in the same thread fails. Every other test is free to use
`asyncio.run`, so the browser tests (tests/web, and any test marked `browser`) go at the end,
whatever order the paths were given in.
"""

from __future__ import annotations

import re
import signal
from pathlib import Path
from types import FrameType
from typing import Any

import pytest
from playwright.sync_api import Frame, Page

from tests import services

WEB = Path(__file__).parent / "web"


def _interrupt(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt(f"signal {signum}")


def pytest_sessionstart(session: pytest.Session) -> None:
    services.clean_leftovers()
    # SIGTERM (a CI time-out, `kill`) ends the session the way Ctrl+C does, through the
    # finish hook below, so the throwaway servers go with it.
    signal.signal(signal.SIGTERM, _interrupt)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    services.stop_all()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    def in_browser(item: pytest.Item) -> bool:
        return WEB in Path(item.fspath).parents or item.get_closest_marker("browser") is not None

    items.sort(key=in_browser)  # stable: the order within each group is kept


FUNCTION = re.compile(r"(async\s+)?(function\b|\([^()]*\)\s*=>|[A-Za-z_$][\w$]*\s*=>)")
"""How a JavaScript function starts (an expression may hold arrows of its own further on)."""


def _compiled_once(wait: Any) -> Any:
    """The page's Content-Security-Policy grants no 'unsafe-eval' (docs/security.md), and
    Playwright evaluates a bare expression given to `wait_for_function` with eval at each poll,
    which that policy refuses; an arrow function it compiles once. So every test's bare
    expression goes as `() => (expression)`, and every browser test runs under the real policy."""

    def wait_for_function(self: Any, expression: str, *args: Any, **kwargs: Any) -> Any:
        text = expression.strip()
        if not FUNCTION.match(text):
            expression = f"() => ({text})"
        return wait(self, expression, *args, **kwargs)

    return wait_for_function


Page.wait_for_function = _compiled_once(Page.wait_for_function)  # type: ignore[method-assign]
Frame.wait_for_function = _compiled_once(Frame.wait_for_function)  # type: ignore[method-assign]
