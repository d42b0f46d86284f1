from collections.abc import Iterator

import pytest

from tests.server.live import LiveServer, run_server


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    with run_server() as live:
        yield live
