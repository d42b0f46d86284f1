"""Test session order: the browser tests run last.

Playwright's sync API leaves its event loop bound to the test thread for the whole session,
after which `asyncio.run` in the same thread fails. Every other test is free to use
`asyncio.run`, so the browser tests (tests/web, and any test marked `browser`) go at the end,
whatever order the paths were given in.
"""

from __future__ import annotations

from pathlib import Path

import pytest

WEB = Path(__file__).parent / "web"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    def in_browser(item: pytest.Item) -> bool:
        return WEB in Path(item.fspath).parents or item.get_closest_marker("browser") is not None

    items.sort(key=in_browser)  # stable: the order within each group is kept
