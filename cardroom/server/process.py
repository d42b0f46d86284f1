"""The real server as a child process on a free port: for the tests and the load run."""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class LiveServer:
    """A running `cardroom serve`: its addresses, its process, and (once stopped) its log."""

    url: str
    ws_url: str
    process: subprocess.Popen[bytes]
    log: str = ""

    def health(self) -> dict[str, Any]:
        """The server's `/healthz` answer."""
        with urllib.request.urlopen(self.url + "/healthz", timeout=5) as reply:
            data: dict[str, Any] = json.loads(reply.read())
            return data


@contextlib.contextmanager
def run_server(
    extra_env: dict[str, str] | None = None,
    start_s: float = 60,
    log_level: str = "warning",
    extra_args: tuple[str, ...] = (),
) -> Iterator[LiveServer]:
    """Start `cardroom serve` on a free port, wait for `/healthz`; stop it afterwards.

    The server gets a database of its own in a temporary folder, unless `extra_env` names one
    (`CARDROOM_DATA` for a folder to reuse, as a restart does; `CARDROOM_DB` for a URL).
    `extra_args`: more options of `cardroom serve` (e.g. `--workers 2`).
    """
    port = free_port()
    data = tempfile.TemporaryDirectory()
    inherited = {k: v for k, v in os.environ.items() if k not in ("CARDROOM_DB", "CARDROOM_REDIS")}
    env = {**inherited, "CARDROOM_DATA": data.name, **(extra_env or {})}
    # The server's output and log go to a file: a pipe nobody reads would fill up and stall the server.
    log = tempfile.TemporaryFile()  # noqa: SIM115  (closed in the finally below, after the server)
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "cardroom",
            "serve",
            "--port",
            str(port),
            "--log-level",
            log_level,
            *extra_args,
        ],
        stdout=log,
        stderr=log,
        env=env,
    )
    server = LiveServer(f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}/ws", process)
    deadline = time.monotonic() + start_s
    while True:
        try:
            server.health()
            break
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                process.kill()
                process.wait()
                log.seek(0)
                err = log.read().decode(errors="replace")
                log.close()
                data.cleanup()
                raise RuntimeError(f"server did not start: {err}") from None
            time.sleep(0.1)
    try:
        yield server
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        log.seek(0)
        server.log = log.read().decode(errors="replace")
        log.close()
        data.cleanup()
