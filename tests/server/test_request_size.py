"""Issue 12, 5: a request body is refused (413) by its declared length, or as soon as it passes
the limit, instead of being read whole first (four 300 MiB POSTs took the server to 1.7 GB)."""

from __future__ import annotations

import select
import socket
import time

from tests.server.live import LiveServer

CHUNK = b"x" * 65536


def _connect(server: LiveServer) -> socket.socket:
    host, port = server.url.removeprefix("http://").split(":")
    sock = socket.create_connection((host, int(port)), timeout=10)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 65536)
    return sock


def _answer(sock: socket.socket, wait_s: float) -> bytes:
    """What the server answered within `wait_s` (all of it once it starts: up to its close)."""
    answer = b""
    while select.select([sock], [], [], wait_s)[0]:
        try:
            data = sock.recv(65536)
        except OSError:
            break
        if not data:
            break
        answer += data
        wait_s = 1.0
    return answer


def test_a_body_declared_too_big_is_refused_before_it_is_sent(server: LiveServer) -> None:
    with _connect(server) as sock:
        sock.sendall(
            b"POST /api/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Content-Length: 314572800\r\n\r\n" + CHUNK[:100]
        )
        answer = _answer(sock, 5)
    assert answer.startswith(b"HTTP/1.1 413"), answer[:80]
    assert b"too_big" in answer


def test_a_chunked_body_is_refused_once_it_passes_the_limit(server: LiveServer) -> None:
    total = 64 * 1024 * 1024
    sent = 0
    answer = b""
    started = time.monotonic()
    with _connect(server) as sock:
        sock.sendall(
            b"POST /api/register HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Transfer-Encoding: chunked\r\n\r\n"
        )
        try:
            while sent < total and not answer and time.monotonic() - started < 60:
                sock.sendall(b"%x\r\n" % len(CHUNK) + CHUNK + b"\r\n")
                sent += len(CHUNK)
                answer = _answer(sock, 0)
        except OSError:
            pass  # the server closed the connection after its answer
        answer = answer or _answer(sock, 5)
    assert answer.startswith(b"HTTP/1.1 413"), answer[:80]
    assert sent < total // 4, f"the server read {sent} bytes before it refused"
