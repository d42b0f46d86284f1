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
from pathlib import Path
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


PORT_TRIES = 3
"""Ports tried in turn when another process takes the free one first."""


def _wait_healthy(server: LiveServer, deadline: float) -> bool:
    """Until something answers `/healthz` at the server's address (True), or its process ends
    or `deadline` passes (False)."""
    while True:
        try:
            server.health()
            return True
        except OSError:
            if server.process.poll() is not None or time.monotonic() > deadline:
                return False
            time.sleep(0.1)


def listens(pid: int, port: int) -> bool:
    """Whether process `pid` or a child of it holds the socket listening on `port` (from /proc;
    True where there is no /proc to read)."""
    try:
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        return True
    inodes: set[str] = set()
    for each in [str(pid), *children]:
        with contextlib.suppress(OSError):
            for fd in os.listdir(f"/proc/{each}/fd"):
                with contextlib.suppress(OSError):
                    link = os.readlink(f"/proc/{each}/fd/{fd}")
                    if link.startswith("socket:["):
                        inodes.add(link[8:-1])
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with contextlib.suppress(OSError):
            for row in Path(table).read_text().splitlines()[1:]:
                fields = row.split()
                if fields[3] == "0A" and int(fields[1].rsplit(":", 1)[1], 16) == port and fields[9] in inodes:
                    return True
    return False


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
    data = tempfile.TemporaryDirectory()
    inherited = {k: v for k, v in os.environ.items() if k not in ("CARDROOM_DB", "CARDROOM_REDIS")}
    env = {**inherited, "CARDROOM_DATA": data.name, **(extra_env or {})}
    # The server's output and log go to a file: a pipe nobody reads would fill up and stall the server.
    log = tempfile.TemporaryFile()  # noqa: SIM115  (closed in the finally below, after the server)
    deadline = time.monotonic() + start_s
    for attempt in range(PORT_TRIES):
        port = free_port()
        begun = log.seek(0, os.SEEK_END)  # where this attempt's output starts
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
        answered = _wait_healthy(server, deadline)
        if answered and listens(process.pid, port):
            break
        process.kill()
        process.wait()
        log.seek(0)
        raw = log.read()
        err = raw.decode(errors="replace")
        # Another process took the port between `free_port` and the bind (and if it answered,
        # the answer was its own: a CI run's cluster test talked to another test's server): try
        # another port. A server that refused to start (a bad setting) is not started again.
        taken = answered or b"address already in use" in raw[begun:].lower()
        if taken and attempt + 1 < PORT_TRIES and time.monotonic() < deadline:
            continue
        log.close()
        data.cleanup()
        raise RuntimeError(f"server did not start: {err}")
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
