"""The page and its files after an update: a returning player's browser asks for each again
(`Cache-Control: no-cache`) and is answered 304 while it is unchanged, so it never runs an old
script beside new ones, nor downloads what it already has (cardroom/server/app.py, REVALIDATE)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.server.live import LiveServer, run_server
from tests.server.test_security import raw_request


@pytest.fixture(scope="module")
def live() -> Iterator[LiveServer]:
    with run_server() as server:
        yield server


@pytest.mark.parametrize("path", ["/", "/t/AbCdEf12", "/static/app.js", "/static/style.css"])
def test_the_page_and_its_files_are_asked_for_again_and_answered_304_when_unchanged(
    live: LiveServer, path: str
) -> None:
    status, headers, body = raw_request(live, "GET", path)
    assert status == 200 and body
    assert headers["cache-control"] == "no-cache", path
    status, again, body = raw_request(live, "GET", path, headers={"If-None-Match": headers["etag"]})
    assert (status, body) == (304, b""), path
    assert again["cache-control"] == "no-cache"
