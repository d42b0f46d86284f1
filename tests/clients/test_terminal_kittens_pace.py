"""The terminal's Exploding Kittens keys for a brisk game (issue 21): X lets a card go without a
Nope (docs/keys.md), Shift+X always; a player without a Defuse is not counted down at."""

from __future__ import annotations

import io
from typing import Any

from cardroom.clients.terminal.kittens import make_ui
from cardroom.clients.terminal.session import Session
from cardroom.games.kittens import GAME
from cardroom.games.kittens.actions import PASS, Play

NAMES = ["You", "Anna", "Marco"]


def _session(deal: dict[str, Any], **options: int) -> tuple[Session, io.StringIO, list[int]]:
    table = GAME.from_deal(3, options, deal, 1)
    clock = [0]
    out = io.StringIO()
    return Session(table, 0, make_ui(0, NAMES, table), {}, out, lambda: clock[0]), out, clock


def test_x_lets_the_card_go_and_the_last_answer_ends_the_window() -> None:
    session, out, clock = _session({"hands": [["nope"], ["skip"], ["skip"]], "deck": ["skip"], "turn": 2})
    session.driver.submit(2, Play(("skip",)), 0)
    session.driver.submit(1, PASS, 200)
    clock[0] = 300
    session.key("x")
    lines = out.getvalue().splitlines()
    assert "No Nope from you." in lines
    assert lines[-1] == "Your turn."  # at 300 ms, not when the 3 s window would have ended
    assert session.driver.table.view(0)["phase"] == "turn"
    session.key("x")
    assert out.getvalue().splitlines()[-1] == "Refused: there is no Nope window to pass in."


def test_shift_x_lets_every_card_go() -> None:
    session, out, _clock = _session(
        {"hands": [["nope"], ["skip"], ["skip", "skip"]], "deck": ["skip"], "turn": 2}
    )
    session.key("X")
    assert out.getvalue().splitlines()[-1] == "You now let every card go without a Nope."
    session.driver.submit(2, Play(("skip",)), 0)
    assert session.driver.table.view(0)["window"]["passed"] == [0]
    session.key("X")
    assert out.getvalue().splitlines()[-1] == "You now answer every card yourself."


def test_no_countdown_to_an_explosion_nobody_can_prevent() -> None:
    session, out, clock = _session(
        {"hands": [["skip"], ["skip"], ["skip"]], "deck": ["exploding_kitten", "skip"]}
    )
    session.key("d")
    assert "Exploding Kitten! No Defuse: you explode in 2.5 seconds." in out.getvalue().splitlines()
    assert session.wait_ms() == 2500  # the explosion itself: no warning before it
    clock[0] = 2500
    session.catch_up()
    lines = out.getvalue().splitlines()
    assert not [line for line in lines if "left to defuse" in line]
    assert "BOOM! You are out." in lines[-4:]
