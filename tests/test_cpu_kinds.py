"""`python -m bench.cpu_kinds -- COMMAND` (CONTRIBUTING.md, where `make test`'s time goes): the
CPU a command's processes use, by kind, and how busy the cores were."""

from __future__ import annotations

import re
import subprocess
import sys

from bench.cpu_kinds import kind


def test_a_busy_process_is_counted_under_its_kind() -> None:
    # Five seconds of its own CPU, however long the machine's other work makes them take (a
    # loop of five seconds by the clock got one of them on cores busy with the whole suite).
    busy = "import time\nwhile time.process_time() < 5: pass"
    done = subprocess.run(
        [sys.executable, "-m", "bench.cpu_kinds", "--", sys.executable, "-c", busy],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    counted = re.search(r"^\s+(\d+)  other: python \((\d+)\)$", done.stderr, re.MULTILINE)
    # Five seconds busy, its first sample's two seconds not counted: at least two.
    assert counted and int(counted.group(1)) >= 2, done.stderr
    assert int(counted.group(2)) >= 1, done.stderr
    assert re.search(r"^\s+\d+ s  [01]\.\d\d$", done.stderr, re.MULTILINE), done.stderr


def test_the_kinds_of_a_test_run() -> None:
    assert kind("/usr/lib/chromium/chromium --type=renderer --lang=en") == "chromium renderer"
    assert kind("/usr/lib/chromium/chromium --type=gpu-process") == "chromium gpu"
    assert kind(".venv/bin/python -m cardroom serve --port 1") == "cardroom server"
    assert kind(".venv/bin/python -u -c import sys;exec(eval(sys.stdin.readline()))") == "test worker"
