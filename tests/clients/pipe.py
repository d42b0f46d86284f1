"""A `cardroom play` command on a pipe, for the terminal tests: keys in, stdout lines out."""

from __future__ import annotations

import contextlib
import os
import queue
import re
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


class Player:
    """The command on a pipe: keys in, stdout lines out, read by a thread with timeouts."""

    def __init__(self, *args: str) -> None:
        env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "cardroom", "play", *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=ROOT,
            env=env,
        )
        self.lines: list[str] = []
        self._queue: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for raw in self.proc.stdout:
            self._queue.put(raw.decode("utf-8").rstrip("\n"))
        self._queue.put(None)

    def send(self, keys: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(keys.encode())
        self.proc.stdin.flush()

    def expect(self, pattern: str, timeout: float = 5.0) -> str:
        """The first line from now on that matches `pattern` (a regex searched in the line)."""
        end = time.monotonic() + timeout
        while True:
            try:
                line = self._queue.get(timeout=max(end - time.monotonic(), 0.001))
            except queue.Empty:
                raise AssertionError(
                    f"no line matching {pattern!r}; last lines:\n" + "\n".join(self.lines[-15:])
                ) from None
            if line is None:
                raise AssertionError(f"output ended before {pattern!r}:\n" + "\n".join(self.lines[-15:]))
            self.lines.append(line)
            if re.search(pattern, line):
                return line

    def close(self) -> int:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        try:
            code = self.proc.wait(timeout=5)
            while (line := self._queue.get(timeout=5)) is not None:
                self.lines.append(line)
            return code
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
            for stream in (self.proc.stdout, self.proc.stderr):
                if stream is not None:
                    stream.close()


@contextlib.contextmanager
def playing(*args: str) -> Iterator[Player]:
    """`cardroom play ARGS` on a pipe, killed at the end if the test left it running (a failed
    test must not leave a game waiting for keys)."""
    player = Player(*args)
    yield player
    if player.proc.poll() is None:
        player.proc.kill()
        player.proc.wait()
