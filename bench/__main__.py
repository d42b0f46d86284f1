"""Engine throughput on one core, printed with the target and as a ratio to a baseline.

The baseline is a fixed piece of plain Python (shuffling and dealing a 120-card deck) timed in
the same run, so that figures from different machines or busy moments can be compared: the
ratio moves only when the engine does.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import random
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from cardroom.drive.simulate import simulate
from cardroom.games import find_game


def _pin_to_one_core() -> str:
    if hasattr(os, "sched_setaffinity"):
        core = min(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {core})
        return f"pinned to core {core}"
    return "not pinned"


def _best_of(runs: int, work: Callable[[], float]) -> float:
    return max(work() for _ in range(runs))


def baseline_ops_per_s() -> float:
    """Deals of a shuffled 120-card deck into 6 hands of 5, per second."""

    def once() -> float:
        rng = random.Random(1)
        deck = [f"card{i % 11}" for i in range(120)]
        n = 20_000
        started = time.perf_counter()
        for _ in range(n):
            rng.shuffle(deck)
            hands = [deck[i * 5 : i * 5 + 5] for i in range(6)]
            counts: dict[str, int] = {}
            for hand in hands:
                for card in hand:
                    counts[card] = counts.get(card, 0) + 1
        return n / (time.perf_counter() - started)

    return _best_of(3, once)


KITTENS_RUN = """
import json, time
from cardroom.drive.simulate import simulate
from cardroom.games import find_game
started = time.process_time()
t = simulate(find_game("kittens"), 4, {games}, seed=1, levels=["random"])
cpu = time.process_time() - started
try:
    from cardroom.native import active
except ImportError:  # a revision from before the compiled hot path
    active = list
print(json.dumps([t.games / cpu, t.actions / cpu, len(active())]))
"""
"""One kittens measurement, run by a fresh interpreter in the folder whose `cardroom` it times.
It counts the processor time this process used, not the wall clock, so that other programs
running meanwhile change the figures less."""

ROOT = Path(__file__).resolve().parent.parent


def _checkout(revision: str, into: Path) -> None:
    """The files of `revision` (a git commit of this repository) written into `into`."""
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", "--format=tar", revision, "cardroom"],
        check=True,
        capture_output=True,
    ).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")


def _kittens_in(folder: Path, games: int) -> tuple[float, float, int]:
    """Games and actions per second of processor time, and how many modules ran compiled
    (`cardroom.native`)."""
    out = subprocess.run(
        [sys.executable, "-c", KITTENS_RUN.format(games=games)],
        cwd=folder,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    gps, aps, compiled = json.loads(out.strip().splitlines()[-1])
    return float(gps), float(aps), int(compiled)


def compare_kittens(revision: str, games: int, rounds: int = 3) -> tuple[float, float, int, int]:
    """Random four-player games per second of processor time, of this tree and of `revision`,
    measured in turns (best of `rounds` each, same core, same interpreter): a ratio that holds on
    a busy machine. Then how many modules ran compiled in each (`cardroom.native`)."""
    with tempfile.TemporaryDirectory(prefix="cardroom-bench-") as tmp:
        old = Path(tmp)
        _checkout(revision, old)
        ours: list[float] = []
        theirs: list[float] = []
        for _ in range(rounds):
            gps, _, old_compiled = _kittens_in(old, games)
            theirs.append(gps)
            gps, _, compiled = _kittens_in(ROOT, games)
            ours.append(gps)
    return max(ours), max(theirs), compiled, old_compiled


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m bench")
    parser.add_argument("--quick", action="store_true", help="fewer games (for a smoke run)")
    parser.add_argument("--json", action="store_true", help="print one JSON object at the end")
    parser.add_argument(
        "--against",
        metavar="REV",
        help="also time the kittens engine of git revision REV (checked out into a temporary "
        "folder), in turns with this tree's, and print the speed-up",
    )
    args = parser.parse_args()
    scale = 0.1 if args.quick else 1.0
    print(f"cardroom bench: {_pin_to_one_core()}")
    base = baseline_ops_per_s()
    print(f"baseline: {base:,.0f} deals/s")
    results: dict[str, float] = {"baseline_deals_per_s": base}

    burrito = find_game("burrito")
    games = max(2, int(40 * scale))
    t = simulate(burrito, 4, games, seed=1, levels=["normal"])
    aps = t.actions / t.seconds
    results["burrito_actions_per_s"] = aps
    results["burrito_games_per_s"] = t.games / t.seconds
    print(
        f"burrito, 4 normal bots, {t.games} games: {aps:,.0f} actions/s, {t.games / t.seconds:.2f} games/s "
        f"(target >= 20,000 actions/s: {'met' if aps >= 20_000 else 'NOT MET'}; "
        f"ratio to baseline {aps / base:.3f})"
    )

    kittens = find_game("kittens")
    games = max(20, int(2000 * scale))
    t = simulate(kittens, 4, games, seed=1, levels=["random"])
    gps = t.games / t.seconds
    results["kittens_random_4p_games_per_s"] = gps
    results["kittens_actions_per_s"] = t.actions / t.seconds
    print(
        f"kittens, 4 random bots, {t.games} games: {gps:,.0f} games/s, {t.actions / t.seconds:,.0f} actions/s "
        f"(target >= 500 games/s: {'met' if gps >= 500 else 'NOT MET'}; ratio to baseline {gps / base:.4f})"
    )
    if args.against:
        ours, theirs, compiled, old_compiled = compare_kittens(args.against, games)
        results["kittens_speedup"] = ours / theirs
        print(
            f"kittens, 4 random bots, {games} games, best of 3 in turns, per second of processor time: this tree {ours:,.0f} games/s, "
            f"{args.against} {theirs:,.0f} games/s: {ours / theirs:.2f} times as fast "
            f"(modules compiled: {compiled} here, {old_compiled} there; CARDROOM_PURE=1 for none)"
        )
    if args.json:
        print(json.dumps({k: round(v, 2) for k, v in results.items()}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
