"""`cardroom serve --workers N`: N cluster nodes behind one port, so one machine uses its cores.

One Python process runs on one core. Here the parent binds the port once and starts N
`cardroom serve` processes that inherit that listening socket and each accept connections on
it (the kernel hands each new connection to one of them); each is a node of the cluster on the
Redis given (cardroom/server/lobby/, relay.py), so a player may land on any worker and still
play at any table: the relay takes their messages to the table's owner. The parent passes
SIGTERM and Ctrl+C on (each worker drains: its tables move to the others while they still
run), and starts a worker again when one dies (its tables are taken over by the others). A
parent killed outright passes nothing on: each worker then sees its parent gone and stops as on
a SIGTERM (`Node.on_tick` in serve.py).

The workers share a PostgreSQL: SQLite is one file with one writer at a time, and the nodes'
journals would queue on its lock (and take turns failing with "database is locked") instead
of writing side by side, so a cluster on SQLite is refused.
"""

from __future__ import annotations

import signal
import socket
import subprocess
import sys
import time
from types import FrameType

from cardroom.protocol import CardroomError

RESTART_PAUSE_S = 1.0
"""A worker that dies is started again after this pause (a worker that cannot start at all,
a bad setting, would otherwise be restarted in a tight loop)."""
STOP_S = 30.0
"""How long the workers have to drain and exit once told to stop."""


def check_workers(workers: int, db: str, redis: str | None) -> None:
    """Refuse what N workers cannot share: no Redis, or a SQLite database."""
    if not redis:
        raise CardroomError(
            "--workers needs --redis (or CARDROOM_REDIS): the workers are nodes of one cluster "
            "and share their lobby and tables through Redis"
        )
    if not db.startswith(("postgresql:", "postgresql+")):
        raise CardroomError(
            "--workers needs a PostgreSQL --db (or CARDROOM_DB): SQLite takes one writer at a "
            "time, so several processes cannot keep their games in one SQLite file side by side"
        )
    if workers < 1:
        raise CardroomError("--workers: at least 1")


def listen(host: str, port: int) -> socket.socket:
    """The one listening socket every worker accepts on (inherited by them)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        raise CardroomError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    sock.listen(2048)
    sock.set_inheritable(True)
    return sock


def run_workers(workers: int, host: str, port: int, worker_args: list[str]) -> int:
    """Start `workers` processes of `cardroom serve <worker_args>` on one socket; keep them
    running until told to stop; the exit status is 0 once all have stopped."""
    sock = listen(host, port)
    fd = sock.fileno()
    stopping = False

    def start(index: int) -> subprocess.Popen[bytes]:
        command = [sys.executable, "-m", "cardroom", "serve", "--listen-fd", str(fd), *worker_args]
        return subprocess.Popen(command, pass_fds=(fd,))

    def stop(signum: int, frame: FrameType | None) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    print(f"cardroom: {workers} workers on http://{host}:{port}/ (Ctrl+C stops them)", flush=True)
    running = [start(i) for i in range(workers)]
    try:
        while not stopping:
            time.sleep(0.2)
            for index, process in enumerate(running):
                if process.poll() is not None and not stopping:
                    print(
                        f"cardroom: worker {index} stopped ({process.returncode}); starting it again",
                        flush=True,
                    )
                    time.sleep(RESTART_PAUSE_S)
                    running[index] = start(index)
    finally:
        for process in running:
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + STOP_S
        for process in running:
            try:
                process.wait(max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        sock.close()
    return 0
