"""Slowloris against a real server (issue 22): 1,100 partial requests from 127.0.0.1 to a server
allowed 1,024 file descriptors; then how long a new client from 127.0.0.2 waits for /healthz
(20 s at most), how many descriptors the server holds, and its log's size once it stops.
The server believes no proxy here, as a server facing the internet. `python -m bench.slowloris`.
"""

from __future__ import annotations

import os
import resource
import socket
import time

from cardroom.server.process import run_server

PARTIAL = b"GET / HTTP/1.1\r\nHost: cards\r\n"


def main() -> None:
    with run_server({"FORWARDED_ALLOW_IPS": "192.0.2.1"}) as server:
        port, pid = int(server.url.rsplit(":", 1)[1]), server.process.pid
        resource.prlimit(pid, resource.RLIMIT_NOFILE, (1024, 1024))
        held = []
        for _ in range(1100):
            try:
                sock = socket.create_connection(
                    ("127.0.0.1", port), timeout=5, source_address=("127.0.0.1", 0)
                )
                sock.sendall(PARTIAL)
                held.append(sock)
            except OSError:
                pass  # refused or reset: the server let go of it
        started = time.monotonic()
        try:
            with socket.create_connection(
                ("127.0.0.1", port), timeout=20, source_address=("127.0.0.2", 0)
            ) as c:
                c.sendall(b"GET /healthz HTTP/1.1\r\nHost: cards\r\nConnection: close\r\n\r\n")
                answer = c.recv(100).split(b"\r\n")[0].decode()
        except OSError as exc:
            answer = str(exc)
        print(f"a new client: {answer} after {time.monotonic() - started:.2f} s", flush=True)
        print(f"the server's descriptors: {len(os.listdir(f'/proc/{pid}/fd'))}", flush=True)
        time.sleep(max(0.0, 20 - (time.monotonic() - started)))
        for sock in held:
            sock.close()
    print(f"the server's log: {len(server.log):,} characters")


if __name__ == "__main__":
    main()
