"""What both terminal games share, `cardroom play` and `cardroom connect`: the keyboard.

Keys are read from the terminal's file descriptor without blocking the event loop (a reader on
the loop; a thread for input the loop cannot watch, such as a regular file or /dev/null), and the
terminal is switched between cooked lines (typed commands) and cbreak single keys (a game), and
restored at the end.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import termios
import threading
import tty
from collections.abc import Callable, Iterator
from typing import Any, TextIO


def watch_input(loop: asyncio.AbstractEventLoop, fd: int, deliver: Callable[[bytes], None]) -> None:
    """Call `deliver` in the loop with each chunk read from `fd`; with b"" once input ends."""

    def read() -> bytes:
        try:
            return os.read(fd, 4096)
        except OSError:
            return b""

    def readable() -> None:
        data = read()
        if not data:
            loop.remove_reader(fd)
        deliver(data)

    def pump() -> None:
        while True:
            data = read()
            loop.call_soon_threadsafe(deliver, data)
            if not data:
                return

    try:
        loop.add_reader(fd, readable)
    except (PermissionError, ValueError, OSError):
        threading.Thread(target=pump, name="cardroom-keys", daemon=True).start()


def stop_watching(loop: asyncio.AbstractEventLoop, fd: int) -> None:
    with contextlib.suppress(ValueError, OSError):
        loop.remove_reader(fd)


class Terminal:
    """Cooked lines for commands, cbreak single keys for a game; restored at the end."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.saved: list[Any] | None = None
        with contextlib.suppress(termios.error, OSError):
            if os.isatty(fd):
                self.saved = termios.tcgetattr(fd)

    def keys(self) -> None:
        if self.saved is not None:
            with contextlib.suppress(termios.error, OSError):
                tty.setcbreak(self.fd, termios.TCSANOW)

    def hidden(self) -> None:
        """Cooked lines without echo: a password typed in the lobby."""
        if self.saved is not None:
            with contextlib.suppress(termios.error, OSError):
                attrs = list(self.saved)
                attrs[3] = attrs[3] & ~termios.ECHO
                termios.tcsetattr(self.fd, termios.TCSANOW, attrs)

    def lines(self) -> None:
        if self.saved is not None:
            with contextlib.suppress(termios.error, OSError):
                termios.tcsetattr(self.fd, termios.TCSANOW, self.saved)

    def restore(self) -> None:
        if self.saved is not None:
            with contextlib.suppress(termios.error, OSError):
                termios.tcsetattr(self.fd, termios.TCSADRAIN, self.saved)


@contextlib.contextmanager
def cbreak(stream: TextIO) -> Iterator[int]:
    """Single keys without Enter when `stream` is a terminal; plain reading otherwise."""
    term = Terminal(stream.fileno())
    try:
        term.keys()
        yield term.fd
    finally:
        term.restore()
