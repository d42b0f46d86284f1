"""Processes as /proc shows them: whether a server left any of its own running (issue 22)."""

from __future__ import annotations

import time
from pathlib import Path


def _stat(pid: int) -> list[str]:
    """The fields of /proc/PID/stat after the command's name: state, parent pid, ..."""
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()


def children(pid: int) -> dict[int, str]:
    """The processes whose parent is `pid`, with their command lines."""
    out: dict[int, str] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            parent = int(_stat(int(entry.name))[1])
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except (OSError, IndexError, ValueError):
            continue
        if parent == pid:
            out[int(entry.name)] = command
    return out


def descendants(pid: int) -> dict[int, str]:
    """The processes `pid` started, and those they started, and so on."""
    out: dict[int, str] = {}
    todo = [pid]
    while todo:
        found = children(todo.pop())
        out.update(found)
        todo.extend(found)
    return out


def alive(pid: int) -> bool:
    """Whether `pid` runs (a zombie, which only waits for its exit status to be collected, does not)."""
    try:
        return _stat(pid)[0] != "Z"
    except (OSError, IndexError):
        return False


def still_running(processes: dict[int, str], within_s: float) -> dict[int, str]:
    """Those of `processes` still running after at most `within_s` seconds."""
    deadline = time.monotonic() + within_s
    while True:
        left = {pid: command for pid, command in processes.items() if alive(pid)}
        if not left or time.monotonic() > deadline:
            return left
        time.sleep(0.1)
