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
    # `make test` from a clean clone, five workers, `--junitxml` (session 38, cc38a): each
    # file's tests' seconds, set-up included, on cores busy most of the run, so about 1.5 times
    # a file's time alone; only the relative sizes matter. Files under 40 s are left out.
    "tests/web/test_pointer.py": 375,
    "tests/cluster/test_relay.py": 294,
    "tests/cluster/test_three_nodes.py": 140,
    "tests/cluster/test_nodes.py": 136,
    "tests/web/test_layouts_fit.py": 131,
    "tests/web/test_pointer_moves.py": 126,
    "tests/web/test_guide.py": 111,
    "tests/web/test_speech_queue.py": 102,
    "tests/web/test_play.py": 99,
    "tests/bots/test_fairness.py": 94,
    "tests/cluster/test_workers.py": 90,
    "tests/web/test_records.py": 85,
    "tests/web/test_layouts_game_over.py": 83,
    "tests/clients/test_terminal_speech.py": 83,
    "tests/web/test_keys.py": 82,
    "tests/web/test_layouts.py": 80,
    "tests/server/test_speech_budget.py": 77,
    "tests/web/test_safe_choices.py": 76,
    "tests/web/test_card_help.py": 74,
    "tests/web/test_node_move.py": 71,
    "tests/server/test_limits.py": 70,
    "tests/web/test_connection.py": 69,
    "tests/web/test_friends.py": 64,
    "tests/server/test_games_over_the_network.py": 61,
    "tests/server/test_store_fault.py": 58,
    "tests/cluster/test_relay_bytes.py": 55,
    "tests/web/test_fight_controls.py": 54,
    "tests/web/test_history.py": 51,
    "tests/server/test_expert_share.py": 48,
    "tests/web/test_accessibility.py": 47,
    "tests/server/test_crash.py": 44,
    "tests/server/test_private_records.py": 43,
    "tests/server/test_collector.py": 41,
    "tests/server/test_account_management.py": 40,
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
