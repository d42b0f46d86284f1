"""The guided first games (issue 24, docs/guide.md): each script plays to its end on the real
engine, the coach waits for each step with the play clock held, refuses any other move with its
line, and no timer runs out on a player who takes their time."""

from __future__ import annotations

import io

import pytest

from cardroom.clients.terminal.burrito import make_ui as burrito_ui
from cardroom.clients.terminal.kittens import make_ui as kittens_ui
from cardroom.clients.terminal.session import Session
from cardroom.guide.coach import CONDITIONS, Guide
from cardroom.guide.steps import SCRIPTS
from cardroom.i18n import use_language

NAMES = ["You", "Marco", "Bea"]
# The keys a person presses for each step (the terminal's, as docs/keys.md lists them).
KEYS = {
    "kittens": [["d"], ["n"], ["home", "down", "p"], ["d"], ["f", "2", "enter"]],
    "burrito": [["d"], ["s"], ["d"], ["3"], ["d"], ["b"], ["g"], ["x"], ["t"], ["space"]],
}
UI = {"kittens": kittens_ui, "burrito": burrito_ui}


def session(game: str) -> tuple[Session, io.StringIO, list[int]]:
    guide = Guide(game)
    out = io.StringIO()
    wall = [0]
    ui = UI[game](0, NAMES, guide.table)
    return (
        Session(guide.table, 0, ui, guide.bots(), out, lambda: wall[0], names=NAMES, guide=guide),
        out,
        wall,
    )


def run_until_held(s: Session, wall: list[int], limit_ms: int = 120_000) -> None:
    """Let wall time pass (in steps, as a person waits) until the coach holds the clock."""
    end = wall[0] + limit_ms
    while s.held is None and wall[0] < end:
        s.catch_up()
        if s.held is None:
            wall[0] += 100
    assert s.held is not None, "the coach never waited for the player"


def test_every_step_is_a_real_rule_moment_and_names_a_known_condition() -> None:
    for script in SCRIPTS.values():
        for step in script.steps:
            assert step.when in CONDITIONS
            assert "do" in step.expect


@pytest.mark.parametrize("game", ["kittens", "burrito"])
def test_the_guide_plays_to_its_end_with_a_person_who_takes_ten_minutes_per_step(game: str) -> None:
    """docs/guide.md: the play clock stands still while the coach waits, so the slowest
    first-timer loses nothing to a timer (a kitten's defuse, a burrito's flight)."""
    s, out, wall = session(game)
    guide = s.guide
    assert guide is not None
    for step, keys in enumerate(KEYS[game]):
        run_until_held(s, wall)
        assert guide.index == step
        assert f"Step {step + 1} of {len(guide.steps)}: {guide.text(step, NAMES)}" in out.getvalue()
        held = s.clock()
        wall[0] += 600_000  # ten minutes reading the line
        s.catch_up()
        assert s.clock() == held  # nothing ran meanwhile
        for key in keys:
            s.key(key)
        assert guide.index == step + 1, out.getvalue().splitlines()[-5:]
    run_until_held(s, wall)
    assert guide.done and guide.text(len(guide.steps), NAMES) in out.getvalue()
    assert not s.table.over and s.table.winner is None
    if game == "burrito":  # the catch was clean: the thrower took the bruise
        assert s.table.summary()["bruises"] == [0, 0, 2]
    else:  # the kitten is back in the deck, where the person put it
        assert s.table.summary()["deck"][2] == "exploding_kitten"


def test_any_other_move_is_refused_with_the_coach_line_and_changes_nothing() -> None:
    s, out, wall = session("kittens")
    run_until_held(s, wall)
    before = s.table.snapshot()
    s.key("down")
    s.key("down")
    s.key("p")  # See the Future, but the coach asked for a draw
    assert out.getvalue().splitlines()[-1] == "Not this one yet. " + s.guide.text(0, NAMES)  # type: ignore[union-attr]
    assert s.table.snapshot() == before


def test_the_coach_speaks_every_language() -> None:
    guide = Guide("burrito")
    for lang in ("it", "fr", "nl", "es", "de"):
        with use_language(lang):
            lines = [guide.text(i, NAMES) for i in range(len(guide.steps) + 1)] + guide.opening(NAMES)
        with use_language("en"):
            english = [guide.text(i, NAMES) for i in range(len(guide.steps) + 1)] + guide.opening(NAMES)
        assert all(a != b for a, b in zip(lines, english, strict=True)), lang
