"""The test servers' start (cardroom/server/process.py) when another process takes the free
port first: a CI run's cluster test once talked to another test's server, whose /healthz
answered at the address its own node had failed to bind. The start now checks that the
process it started holds the port, and tries another."""

from __future__ import annotations

import http.server
import json
import threading
from collections.abc import Iterator

import pytest

import cardroom.server.process as process_module
from cardroom.server.process import free_port, run_server


class _Impostor(http.server.BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        body = json.dumps({"ok": True, "impostor": True}).encode()
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def impostor() -> Iterator[int]:
    """Another server answering /healthz on a port of its own: the port, while it runs."""
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Impostor)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield int(httpd.server_address[1])
    finally:
        httpd.shutdown()
        httpd.server_close()


def test_a_server_whose_port_another_took_starts_on_another(
    impostor: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    ports = [impostor]
    monkeypatch.setattr(process_module, "free_port", lambda: ports.pop(0) if ports else free_port())
    with run_server() as server:
        assert not server.url.endswith(f":{impostor}")
        health = server.health()
        assert "impostor" not in health and health["ok"] is True and "protocol" in health
