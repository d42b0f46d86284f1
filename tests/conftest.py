"""The test session: its own PostgreSQL and Redis, and the browser test files first.

The throwaway servers of tests/services.py start when a test first asks for one; whatever a
killed session left behind is cleaned up at the start, and this session's servers are stopped
at the end, on Ctrl+C and SIGTERM too. `make test` runs the files on several workers
(pytest-xdist, `--dist loadfile`): each worker is a session of its own, with its own servers.

Playwright's sync API keeps its event loop bound to the test thread while it runs, and
`asyncio.run` in that thread then fails; so Playwright lives for one module (tests/web/
conftest.py), and within a module the browser tests (and any test marked `browser`) go after
the others. Which worker runs which file, and when, is tests/schedule.py's: the longest first.
"""

from __future__ import annotations

import re
import signal
from pathlib import Path
from types import FrameType
from typing import Any

import pytest
from playwright.sync_api import Frame, Page
from xdist.remote import Producer

from tests import services
from tests.schedule import LongestFirst


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
    files: dict[Path, int] = {}
    for item in items:
        files.setdefault(item.path, len(files))
    items.sort(key=lambda item: (files[item.path], item.get_closest_marker("browser") is not None))


def pytest_xdist_make_scheduler(config: pytest.Config, log: Producer) -> LongestFirst | None:
    """`make test`'s `--dist loadfile`, longest file first (tests/schedule.py)."""
    return LongestFirst(config, log) if config.getvalue("dist") == "loadfile" else None


FUNCTION = re.compile(r"(async\s+)?(function\b|\([^()]*\)\s*=>|[A-Za-z_$][\w$]*\s*=>)")
"""How a JavaScript function starts (an expression may hold arrows of its own further on)."""


POLL_MS = 50
"""How often a waited-for function is tried in the page."""


def _compiled_once(wait: Any) -> Any:
    """The page's Content-Security-Policy grants no 'unsafe-eval' (docs/security.md), and
    Playwright evaluates a bare expression given to `wait_for_function` with eval at each poll,
    which that policy refuses; an arrow function it compiles once. So every test's bare
    expression goes as `() => (expression)`, and every browser test runs under the real policy.

    And it is tried every POLL_MS, not at every animation frame (Playwright's default, "raf"):
    a frame asked for makes the page draw one, so a test waiting made its page draw 60 frames a
    second, as the page itself no longer does when nothing moves (tests/web/test_frames.py)."""

    def wait_for_function(self: Any, expression: str, *args: Any, **kwargs: Any) -> Any:
        text = expression.strip()
        if not FUNCTION.match(text):
            expression = f"() => ({text})"
        kwargs.setdefault("polling", POLL_MS)
        return wait(self, expression, *args, **kwargs)

    return wait_for_function


Page.wait_for_function = _compiled_once(Page.wait_for_function)  # type: ignore[method-assign]
Frame.wait_for_function = _compiled_once(Frame.wait_for_function)  # type: ignore[method-assign]
