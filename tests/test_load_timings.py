"""What `python -m bench.load` reports as the fan-out (from an action sent to each member's
events for it, whichever of the events and the ack comes first) and its system calls (issue 26)."""

from __future__ import annotations

import os
from pathlib import Path

from bench.load import per, system_calls
from cardroom.clients.botclient import Timings


def test_events_that_come_before_their_actions_ack_are_counted_when_it_comes() -> None:
    # On a durable store the ack waits for the disk and the members' events do not: counting
    # only the events that came after the ack reported 46 ms at the median against an ack's 18.
    timings = Timings()
    timings.received("t", 5, 100.0)  # a member's events for version 5, its ack not in yet
    timings.received("t", 5, 104.0)
    assert timings.fanout == []
    timings.acknowledged("t", 5, 90.0)  # the action that made version 5 was sent at 90 ms
    timings.received("t", 5, 130.0)  # a member who hears of it after the ack
    assert sorted(timings.fanout) == [10.0, 14.0, 40.0]


def test_versions_no_ack_names_are_let_go() -> None:
    # A timer's batch (a countdown's beat) has a version and no action: once a later action's
    # ack comes, its receipts are dropped instead of kept for the whole run.
    timings = Timings()
    timings.received("t", 6, 200.0)
    timings.received("u", 6, 200.0)
    timings.acknowledged("t", 7, 195.0)
    assert timings.early["t"] == {} and timings.early["u"] == {6: [200.0]}
    assert timings.fanout == []


def test_the_system_calls_counted_are_the_ones_a_process_made(tmp_path: Path) -> None:
    # `bench.load` prints the server's reads and writes of files per action: a count that,
    # unlike processor time, does not move with the machine's speed.
    before = system_calls([os.getpid()])
    fd = os.open(tmp_path / "f", os.O_CREAT | os.O_RDWR)
    try:
        for _ in range(200):
            os.write(fd, b"x")
        os.lseek(fd, 0, os.SEEK_SET)
        for _ in range(100):
            os.read(fd, 1)
    finally:
        os.close(fd)
    reads, writes = per(before, system_calls([os.getpid()]), 100) or [0.0, 0.0]
    assert 1.0 <= reads < 1.5 and 2.0 <= writes < 2.5, (reads, writes)
