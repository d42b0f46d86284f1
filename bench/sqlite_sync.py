"""What SQLite's `synchronous=FULL` costs a commit, next to NORMAL (docs/deploy.md).

`python -m bench.sqlite_sync [COMMITS]`: one-row commits through the journal's own kind of
connection (`sqlite_file_engine`, the server's pragmas), on a file in the current folder (a
temporary folder may be a tmpfs, where a sync costs nothing), the two settings taking turns.
A load run (`python -m bench.load`) hides the difference under its group commits and the
machine's load; this shows the price of one commit, which an idle server's ack pays whole.
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from sqlalchemy import text

from cardroom.store.db import SYNC_MODES, sqlite_file_engine


def commit_ms(folder: Path, mode: str, commits: int) -> list[float]:
    """The time of each of `commits` one-row commits with `synchronous=mode`, sorted."""
    os.environ["CARDROOM_SQLITE_SYNC"] = mode  # read by each new connection's pragmas
    engine = sqlite_file_engine(f"sqlite:///{folder / mode}.sqlite3")
    assert engine is not None
    try:
        with engine.begin() as conn:
            conn.execute(text("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)"))
        times = []
        for _ in range(commits):
            start = time.perf_counter()
            with engine.begin() as conn:
                conn.execute(text("INSERT INTO t (v) VALUES (:v)"), {"v": "x" * 100})
            times.append((time.perf_counter() - start) * 1000)
        return sorted(times)
    finally:
        engine.dispose()


def main(argv: list[str]) -> int:
    commits = int(argv[0]) if argv else 400
    with tempfile.TemporaryDirectory(dir=".") as folder:
        for _round in range(2):
            for mode in SYNC_MODES:
                times = commit_ms(Path(folder), mode, commits)
                p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
                print(
                    f"{mode}: {commits} commits, p50 {statistics.median(times):.2f} ms, "
                    f"p99 {p99:.2f} ms, mean {statistics.mean(times):.2f} ms (load {os.getloadavg()[0]:.1f})"
                )
                for stale in Path(folder).iterdir():
                    stale.unlink()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
