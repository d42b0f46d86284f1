"""Where a command's CPU goes, by kind of process: `python -m bench.cpu_kinds -- make test`.

Every 2 s it reads /proc: how busy the machine's cores were, and each process's CPU time, counted
under a kind (Chromium's renderers, its GPU process, the test servers, the test processes, Orca,
PostgreSQL...). At the end it prints the CPU seconds of each kind and the cores' busy share per
half minute. A process's last two seconds before it ends are not counted, nor its life before it
was first seen (at most two seconds). Linux only.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

TICK = os.sysconf("SC_CLK_TCK")
EVERY_S = 2.0

KINDS: list[tuple[str, str]] = [
    ("--type=renderer", "chromium renderer"),
    ("--type=gpu-process", "chromium gpu"),
    ("chromium --type=", "chromium other"),
    ("chromium", "chromium browser"),
    ("cardroom serve", "cardroom server"),
    ("cardroom connect", "terminal client"),
    ("cardroom play", "terminal client"),
    ("exec(eval(sys.stdin.readline()))", "test worker"),
    ("pytest", "pytest"),
    ("orca_speak", "orca's voice"),
    ("orca", "orca"),
    ("speech-dispatcher", "orca's voice"),
    ("playwright/driver", "playwright driver"),
    ("postgres", "postgres"),
    ("redis-server", "redis"),
    ("nginx", "nginx"),
    ("Xvfb", "xvfb"),
    ("mypy", "lint"),
    ("ruff", "lint"),
]
"""A text in the command line, and the kind it makes a process (the first that matches)."""


def kind(command: str) -> str:
    for text, name in KINDS:
        if text in command:
            return name
    words = command.split()
    return f"other: {Path(words[0]).name}" if words else "other"


def command_of(pid: str) -> str | None:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return None


def cpu_ticks(pid: str) -> int | None:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return int(fields[11]) + int(fields[12])


def busy_and_total() -> tuple[int, int]:
    values = [int(v) for v in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    idle = values[3] + values[4]
    return sum(values) - idle, sum(values)


def watch(
    process: subprocess.Popen[bytes],
) -> tuple[Counter[str], Counter[str], list[tuple[float, float]]]:
    """Sample until `process` ends: CPU ticks per kind, processes seen per kind, and (seconds,
    busy share) per sample."""
    kinds: dict[str, str] = {}
    last: dict[str, int] = {}
    per_kind: Counter[str] = Counter()
    shares: list[tuple[float, float]] = []
    busy0, total0 = busy_and_total()
    start = time.monotonic()
    while process.poll() is None:
        time.sleep(EVERY_S)
        for pid in (p for p in os.listdir("/proc") if p.isdigit()):
            ticks = cpu_ticks(pid)
            if ticks is None:
                continue
            if pid not in kinds:
                command = command_of(pid)
                if command is None:
                    continue
                kinds[pid], last[pid] = kind(command), ticks
                continue
            per_kind[kinds[pid]] += ticks - last[pid]
            last[pid] = ticks
        busy1, total1 = busy_and_total()
        shares.append((time.monotonic() - start, (busy1 - busy0) / max(1, total1 - total0)))
        busy0, total0 = busy1, total1
    return per_kind, Counter(kinds.values()), shares


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.cpu_kinds", description=__doc__.splitlines()[0])
    parser.add_argument("command", nargs=argparse.REMAINDER, help="the command to run (after --)")
    args = parser.parse_args(argv)
    command = [c for c in args.command if c != "--"] if args.command[:1] == ["--"] else args.command
    if not command:
        parser.error("give the command to run after --")
    process = subprocess.Popen(command)
    per_kind, seen, shares = watch(process)
    print("CPU seconds by kind of process (and how many processes of it were seen):", file=sys.stderr)
    for name, ticks in per_kind.most_common():
        if ticks >= TICK:
            print(f"{ticks / TICK:8.0f}  {name} ({seen[name]})", file=sys.stderr)
    print("the cores' busy share, per half minute:", file=sys.stderr)
    per = max(1, round(30 / EVERY_S))
    for i in range(0, len(shares), per):
        chunk = shares[i : i + per]
        print(f"{chunk[0][0]:6.0f} s  {sum(s for _, s in chunk) / len(chunk):.2f}", file=sys.stderr)
    return process.returncode


if __name__ == "__main__":
    sys.exit(main())
