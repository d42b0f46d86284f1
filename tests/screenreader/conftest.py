"""The page's fixtures for the screen reader's tests: the same Playwright and live server as
tests/web (a conftest there is not seen from here, since the tests moved to their own folder)."""

from tests.web.conftest import playwright, server

__all__ = ["playwright", "server"]
