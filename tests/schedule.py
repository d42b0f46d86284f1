"""How `make test` hands its files to the workers: the longest first, and none behind another.

A run lasts as long as its busiest worker. pytest-xdist's `--dist loadfile` hands out whole
files, the files with the most tests first, and gives a worker its next file while it is still
on its last test or two (a worker must know its next test before it finishes one). So a file
of one ten-minute test could start last, or have another long file waiting behind it.

Here the files go longest first, by the seconds each took in a measured run (`SECONDS`); a
worker that takes its next file while still deep in a long one gets the shortest file left,
so no long file waits; and the files in `APART` hand out each test on its own, so their long
tests run side by side. A file not listed counts as short. When a file grows past a minute,
measure it (`pytest FILE --durations=0`, or the whole suite with `--junitxml`) and list it.
"""

from __future__ import annotations

import pytest
from xdist.remote import Producer
from xdist.scheduler import LoadFileScheduling
from xdist.workermanage import WorkerController

SECONDS: dict[str, float] = {
    # One run of the whole suite on 2 cores, five workers, load 4 to 7 (each file's tests'
    # seconds, set-up included; only the relative sizes matter). Files under 45 s are left out.
    # These also set what runs beside Orca's two games, in the suite's first six minutes: the
    # cluster's and the whole games' files, which mostly wait, and leave the cores half idle then.
    # Session 38 listed every file by one clean run (the browser files, busier, came first):
    # the one run after it took 16 min 20 s, not 14 to 15, and Orca heard the burrito round's
    # fight lines 0.8 to 1.1 s late (failed). Measure such a change twice before keeping it.
    "tests/web/test_layouts_game_over.py": 60,  # 300 until its games played at a clock rate of 4: 33 + 25 s alone
    "tests/web/test_layouts_fit.py": 130,  # -n 2 at load 6 to 3: its tests 21 s and less each, twelve of them
    "tests/bots/test_fairness.py": 100,  # 69 alone, load 2 (four tables at once since session 17); 256 in CI
    "tests/server/test_games_over_the_network.py": 45,  # 234 until a clock rate of 4: 33 to 45 s alone, -n 2
    "tests/web/test_pointer.py": 170,  # the burrito rounds stop once every move was made: 56 + 33 + 75 s
    "tests/cluster/test_relay.py": 204,
    "tests/cluster/test_three_nodes.py": 141,
    "tests/cluster/test_workers.py": 116,  # 72, and 44 for the parent killed (issue 22)
    "tests/web/test_pointer_moves.py": 96,
    "tests/web/test_node_move.py": 75,  # 71 in a full run (cc27b): two nodes, nginx, a kittens game
    "tests/server/test_speech_budget.py": 84,
    "tests/web/test_play.py": 83,
    "tests/server/test_crash.py": 77,
    "tests/clients/test_terminal_speech.py": 69,
    "tests/server/test_expert_share.py": 66,  # issue 22: the whole file alone, -n 0, load 12
    "tests/bots/test_kittens_expert.py": 70,  # 57 alone for its strength test (30 games each order), load 1
    "tests/web/test_security.py": 60,
    "tests/cluster/test_paused_owner.py": 55,  # alone, load 12 (`--durations=0`): a 15 s pause
    "tests/web/test_accounts.py": 53,
    "tests/server/test_store_fault.py": 53,
    "tests/server/test_limits.py": 51,
    "tests/web/test_accessibility.py": 50,
    "tests/web/test_records.py": 50,
    "tests/i18n/test_announced_languages.py": 50,
    "tests/cluster/test_nodes.py": 46,
}
"""Seconds per file in the last measured run; files not named here count as short."""

APART = {
    "tests/web/test_layouts_game_over.py",
    "tests/web/test_layouts_fit.py",
    "tests/web/test_pointer.py",
    "tests/server/test_games_over_the_network.py",
    "tests/cluster/test_relay.py",
}
"""Files whose tests are handed out one by one: each is long and needs nothing of the others
(a worker that gets two of them shares the file's set-up, as always)."""

HEAVY_S = 60.0
"""A worker with more than this left of its file takes the shortest file next, not the longest."""


def _file(nodeid: str) -> str:
    return nodeid.split("::", 1)[0]


class LongestFirst(LoadFileScheduling):
    """xdist's file scheduling, with each unit handed out by its weight rather than in order:
    the longest left, or the shortest left to a worker still busy with a long one; `APART`
    files are split by test. Ties go in the collection's order."""

    def __init__(self, config: pytest.Config, log: Producer | None = None) -> None:
        super().__init__(config, log)
        self._tests: dict[str, int] = {}

    def _split_scope(self, nodeid: str) -> str:
        return nodeid if _file(nodeid) in APART else _file(nodeid)

    def _weight(self, scope: str) -> float:
        """The seconds a unit is expected to take: its file's, shared by its tests if apart."""
        path = _file(scope)
        if path not in APART:
            return SECONDS.get(path, 0.0)
        if not self._tests:
            for nodeid in self.collection or []:
                self._tests[_file(nodeid)] = self._tests.get(_file(nodeid), 0) + 1
        return SECONDS.get(path, 0.0) / max(1, self._tests.get(path, 1))

    def _left(self, node: WorkerController) -> float:
        """The seconds of work a worker still has: each unit's share of tests not yet run."""
        left = 0.0
        for scope, tests in self.assigned_work.get(node, {}).items():
            pending = list(tests.values()).count(False)
            left += self._weight(scope) * pending / len(tests)
        return left

    def _assign_work_unit(self, node: WorkerController) -> None:
        assert self.workqueue
        pick = min if self._left(node) > HEAVY_S else max
        scope = pick(self.workqueue, key=self._weight)
        unit = self.workqueue.pop(scope)
        self.assigned_work.setdefault(node, {})[scope] = unit
        collection = self.registered_collections[node]
        node.send_runtest_some([collection.index(nodeid) for nodeid, done in unit.items() if not done])
