"""Issue 12: the protocol fuzzer (bench/fuzz.py), bounded, against a real server process: no
crash, no state change from a refused message, the other tables untouched."""

from __future__ import annotations

from bench import fuzz

EXAMPLES = 250


def test_fuzzed_frames_crash_nothing_and_refused_ones_change_nothing() -> None:
    counts = fuzz.run(EXAMPLES)
    print(counts.line())
    assert counts.problems == []
    assert (counts.crashes, counts.changed_by_refused) == (0, 0)
    assert sum(counts.frames.values()) == EXAMPLES
    assert counts.refused > EXAMPLES // 4 and counts.accepted > 10, "both kinds were tried"
