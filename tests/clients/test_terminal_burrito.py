"""`cardroom play burrito` line by line: the real command on a pipe and in a real terminal.

Rules: DIGITAL.md, "for players who cannot see, a throw at you and the catch window must be
perceivable without looking" (INCOMING! at the throw, CATCH NOW! when the window opens).
"""

from __future__ import annotations

import io
import re
import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator

import pytest

from cardroom.clients.terminal.burrito import make_ui
from cardroom.clients.terminal.session import Session
from cardroom.games.burrito import GAME, Call, Discard, Draw, Grab, Throw
from cardroom.games.burrito.options import Options
from cardroom.narrate.burrito import card_names
from tests.clients.pipe import ROOT, Player, playing
from tests.clients.presses import press


@pytest.fixture
def burrito() -> Iterator[Player]:
    with playing("burrito", "--seed", "3", "--bots", "2") as player:
        yield player


def test_play_burrito_on_a_pipe(burrito: Player) -> None:
    p = burrito
    p.expect(r"^Throw Throw Burrito\. Seats: 1 you, 2 \w+, 3 \w+")
    p.expect(r"^Your hand: ")  # the deal, in slot order (H says each slot)
    p.send("?")  # during the countdown (its beats are not said to a player: docs/speech.md)
    p.expect(r"^D: Draw from your own pile")
    p.expect(r"^T: Throw at the nearest other fighter$")
    p.expect(r"^X: Dodge$")
    p.expect(r"^\? this help, q quit\.$")
    p.expect(r"^Burrito!$")
    p.send("h")
    hand = p.expect(r"^Your hand: 1: ")
    first = re.match(r"Your hand: 1: ([^,]+),", hand)
    assert first is not None
    p.send("D")  # Shift+D: what the card under the cursor (slot 1) is for (docs/keys.md#card-help-issue-24)
    p.expect(rf"^{re.escape(first.group(1))}: (Three alike make a set: 1 point|Call three\b.*)\.$")
    p.send("1")
    p.expect(rf"^Passed {re.escape(first.group(1))}\.$")
    p.send("d")
    cards = "|".join(re.escape(name) for name in card_names().values())
    p.expect(rf"^(Drew )?({cards})\.$")  # the card drawn ("Drew War." for a battle card)
    p.send("d")
    p.expect(r"^Refused: you hold 5 cards; pass one before you draw\.$")
    p.send("g")
    p.expect(r"^Refused: there is no fight")
    p.send("v")
    p.expect(r"^Community piles: \d+ cards? and \d+ cards?\. Bruises left: 6\.$")
    assert p.close() == 0
    # A bot's line may still come between the last key and the end of input.
    assert "Input closed: leaving the table." in p.lines[-3:]


def _play_burrito(*args: str) -> subprocess.CompletedProcess[str]:
    """`cardroom play burrito ARGS` run to its end with no input (it reads none, or ends when
    input closes); its output and code."""
    return subprocess.run(
        [sys.executable, "-m", "cardroom", "play", "burrito", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=15,
        stdin=subprocess.DEVNULL,
    )


def test_unknown_table_option_is_one_clear_error() -> None:
    done = _play_burrito("--bots", "2", "--set", "flite_ms=900")
    assert done.returncode == 2
    assert "unknown option 'flite_ms'" in done.stderr
    bad = _play_burrito("--set", "flight_ms=slow")
    assert bad.returncode == 2
    assert "flight_ms: not a whole number" in bad.stderr


def test_help_lists_the_keys() -> None:
    done = _play_burrito("--help")
    assert done.returncode == 0
    for key in (
        "D: Draw from your own pile",
        "C: Draw from community pile 1",
        "Shift+C: Draw from community pile 2",
        "1: Pass the card in slot 1",
        "S: Set three alike",
        "B: Call a fight",
        "G: Grab a burrito",
        "T: Throw at the nearest",
        "Shift+T: Throw at a fighter you choose",
        "X: Dodge",
        "Space: Catch",
        "H: Read your hand",
        "V: Read the table",
        "--set NAME=VALUE",
    ):
        assert key in done.stdout


def _brawl() -> tuple[Session, io.StringIO, list[int]]:
    """Marco calls a Brawl of you and Anna; Anna grabs at 100 ms and throws at you at 200 ms.
    The session's clock is the list's one number, for the test to move."""
    deal = {"hands": [["goth_sloth"], [], ["brawl_a"] * 3], "piles": [["war"], ["war"], ["war"]]}
    table = GAME.from_deal(3, {}, deal, 1)
    clock = [0]
    out = io.StringIO()
    session = Session(table, 0, make_ui(0, ["You", "Anna", "Marco"], table), {}, out, lambda: clock[0])
    session.catch_up()
    session.driver.submit(2, Call("brawl", "brawl_a"), 0)
    session.driver.submit(1, Grab(), 100)
    session.driver.submit(1, Throw(0), 200)
    return session, out, clock


def test_incoming_then_catch_now_then_the_catch() -> None:
    """The session wakes at the catch window of a burrito flying at the person, and space catches it."""
    session, out, clock = _brawl()
    lines = out.getvalue().splitlines()
    assert "Marco calls a Brawl!" in lines
    assert "Brawl: you against Anna." in lines
    assert "Keys: G grab, T throw (not now), X dodge (not now), Space catch (not now)." in lines
    assert lines[-1] == "Incoming!"  # a fight of two: only Anna can throw at you
    lands = 200 + Options().flight_ms  # the first burrito of a fight flies the whole flight time
    opens = lands - Options().catch_window_ms
    clock[0] = 200
    assert session.wait_ms() == opens - 200  # the session sleeps until the catch window opens
    clock[0] = opens + 10
    session.catch_up()
    assert out.getvalue().splitlines()[-1] == "CATCH NOW! Anna's burrito."
    session.key(" ")
    after = out.getvalue().splitlines()
    assert "Caught!" in after
    assert any(line.startswith("Anna loses") for line in after)


def test_the_fight_keys_line_keeps_every_key_in_its_place_and_marks_those_not_now() -> None:
    """Issue 21: the terminal's fight hint is one fixed line, every fight key always in the same
    place, those that do nothing now marked (the page's fight buttons, which never move). It
    comes at the fight's start and with the table (V) during the fight."""
    session, out, clock = _brawl()

    def keys_line() -> str:
        return next(line for line in reversed(out.getvalue().splitlines()) if line.startswith("Keys: "))

    assert keys_line() == "Keys: G grab, T throw (not now), X dodge (not now), Space catch (not now)."
    opens = 200 + Options().flight_ms - Options().catch_window_ms
    clock[0] = 300  # Anna's burrito is in the air; its catch window is not open yet
    session.key("v")
    assert keys_line() == "Keys: G grab, T throw (not now), X dodge, Space catch (not now)."
    clock[0] = opens + 10
    session.key("g")
    session.key("v")
    assert keys_line() == "Keys: G grab (not now), T throw, X dodge, Space catch."


def _war() -> tuple[Session, io.StringIO]:
    """Four players; Lena (seat 3) has called a War: you, Anna and Marco fight."""
    deal = {"hands": [[], [], [], ["war"] * 3], "piles": [["war"], ["war"], ["war"], ["war"]]}
    session, out = _table_session(deal, players=4)
    session.driver.submit(3, Call("war", "war"), 0)
    return session, out


def test_x_dodges_the_burrito_flying_at_you() -> None:
    """docs/keys.md#throw-throw-burrito: X dodges in both clients (it was O here)."""
    session, out = _war()
    session.driver.submit(1, Grab(), 0)
    session.driver.submit(1, Throw(0), 0)
    press(session, out, [("o", "The key O does nothing here: press ? for the keys."), ("x", "Dodged.")])


def test_shift_t_prompts_for_a_seat_in_a_war_and_escape_cancels() -> None:
    """docs/keys.md#throw: shift+T asks for the seat (a terminal cannot read shift+digits)."""
    session, out = _war()
    session.key("g")
    prompt = "Throw at whom? Press the seat number: 2 Anna, 3 Marco. Escape cancels."
    press(session, out, [("T", prompt), ("escape", "Cancelled."), ("T", prompt), ("3", "Thrown at Marco.")])


def test_t_throws_at_the_nearest_fighter_as_on_the_page() -> None:
    """docs/keys.md#throw: T throws at whoever last threw at you, else the first fighter on your left."""
    session, out = _war()
    session.key("g")
    session.key("t")
    assert out.getvalue().splitlines()[-1] == "Thrown at Anna."
    session, out = _war()
    session.driver.submit(2, Grab(), 0)
    session.driver.submit(2, Throw(0), 0)
    session.key("g")
    session.key("t")
    assert out.getvalue().splitlines()[-1] == "Thrown at Marco."


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed (CI installs it)")
def test_single_keys_work_in_a_real_terminal() -> None:
    """cbreak: a key acts without Enter (the pane is a real terminal). The pane has a tmux server
    of its own (-L): on the shared default one, another test's last session closing ended the
    server under this one's start ("server exited unexpectedly"). The pane outlives the game, so
    that its last lines are there to read (a loaded run read it after tmux had closed it)."""
    name = f"cardroom-{uuid.uuid4().hex[:8]}"
    command = f"{sys.executable} -m cardroom play burrito --seed 3 --bots 2"
    subprocess.run(
        [
            "tmux",
            "-L",
            name,
            "new-session",
            "-d",
            "-s",
            name,
            "-x",
            "200",
            "-y",
            "50",
            "-c",
            str(ROOT),
            command,
            ";",  # the pane stays once the game has quit: its goodbye is read after the exit
            "set-option",
            "-w",
            "-t",
            name,
            "remain-on-exit",
            "on",
        ],
        check=True,
    )

    def pane() -> str:
        return subprocess.run(
            ["tmux", "-L", name, "capture-pane", "-p", "-t", name, "-S", "-200"],
            capture_output=True,
            text=True,
            check=False,
        ).stdout

    def wait_for(text: str, timeout: float = 8.0) -> str:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            screen = pane()
            if text in screen:
                return screen
            time.sleep(0.05)
        raise AssertionError(f"{text!r} not on the screen:\n{pane()}")

    try:
        wait_for("Burrito!")
        subprocess.run(["tmux", "-L", name, "send-keys", "-t", name, "v"], check=True)  # no Enter
        wait_for("Bruises left: 6.")
        subprocess.run(["tmux", "-L", name, "send-keys", "-t", name, "q"], check=True)
        wait_for("You leave the table. Goodbye!")
    finally:
        subprocess.run(["tmux", "-L", name, "kill-server"], check=False, capture_output=True)


def _table_session(deal: dict[str, object], players: int = 3) -> tuple[Session, io.StringIO]:
    table = GAME.from_deal(players, {}, deal, 1)
    out = io.StringIO()
    names = ["You", "Anna", "Marco", "Lena"][:players]
    return Session(table, 0, make_ui(0, names, table), {}, out, lambda: 0), out


def test_s_scores_the_set_and_b_calls_the_fight_the_hand_makes() -> None:
    """docs/keys.md#throw-throw-burrito: B calls, C draws from a community pile, as on the page."""
    session, out = _table_session(
        {
            "hands": [["goth_sloth", "war", "goth_sloth", "war", "goth_sloth"], [], []],
            "piles": [["war"], [], []],
        }
    )
    press(
        session,
        out,
        [
            ("b", "You hold no three battle cards of one kind: calling now would be a mistake."),
            ("s", "Set of Goth Sloth; your score: 1."),
            ("d", "Drew War."),
            # The fight's start confirms the call: the fight is said once (docs/speech.md).
            ("b", "War: Anna against Marco."),
        ],
    )


def test_a_duel_call_asks_for_two_seats() -> None:
    session, out = _table_session({"hands": [["duel"] * 3, [], []], "piles": [[], [], []]})
    press(
        session,
        out,
        [
            ("b", "Duel between whom? Press two seat numbers: 1 you, 2 Anna, 3 Marco. Escape cancels."),
            ("0", "There is no seat 0: seats go from 1 to 3."),
            ("2", "Anna against whom?"),
            ("3", "Duel: Anna against Marco."),
        ],
    )


def test_quiet_mode_leaves_out_other_players_draws_and_passes() -> None:
    session, out = _table_session({"hands": [["goth_sloth"], ["war"], ["war"]], "piles": [[], ["war"], []]})
    session.key("m")
    session.driver.submit(1, Draw(), 0)
    session.driver.submit(1, Discard("war"), 0)
    session.driver.submit(2, Discard("war"), 0)
    assert out.getvalue().splitlines()[-1] == "Marco passes you a card."
    assert "Anna draws." not in out.getvalue()
    assert "Anna passes a card to Marco." not in out.getvalue()


def test_input_that_is_not_a_pipe_or_terminal_still_ends_cleanly() -> None:
    done = _play_burrito("--bots", "1", "--seed", "2")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "Input closed: leaving the table."


def test_the_keys_of_the_page_do_the_same_here() -> None:
    """docs/keys.md#throw-throw-burrito: H reads the hand, V the table, X dodges, B calls, C and
    shift+C draw from community piles 1 and 2, as in tests/web/test_keys.py."""
    hand = ["goth_sloth", "war", "salsa_yeti", "duel", "war"]
    deal = {"hands": [hand, []], "piles": [[], []], "community": [["churro_bat"], ["nacho_llama"]]}
    session, out = _table_session(deal, players=2)
    press(
        session,
        out,
        [
            ("h", "Your hand: 1: Goth Sloth, 2: War, 3: Salsa Yeti, 4: Duel and 5: War."),
            ("x", "Refused: there is no fight; the burritos stay on the table."),
            ("b", "You hold no three battle cards of one kind: calling now would be a mistake."),
        ],
    )
    session.key("v")
    assert "Community piles: 1 card and 1 card. Bruises left: 6." in out.getvalue().splitlines()
    session.key("1")
    session.key("c")
    assert out.getvalue().splitlines()[-1] == "Drew Churro Bat from community pile 1."
    session.key("1")
    session.key("C")
    assert out.getvalue().splitlines()[-1] == "Drew Nacho Llama from community pile 2."


def test_the_hand_has_a_cursor_and_p_passes_the_card_under_it() -> None:
    """docs/keys.md#throw-throw-burrito: the arrows, Home and End move in the hand, as on the page."""
    session, out = _table_session(
        {"hands": [["goth_sloth", "war", "salsa_yeti"], [], []], "piles": [[], [], []]}
    )
    session.key("right")
    assert out.getvalue().splitlines()[-1] == "2 of 3: War"
    session.key("end")
    assert out.getvalue().splitlines()[-1] == "3 of 3: Salsa Yeti"
    session.key("up")
    session.key("p")
    assert out.getvalue().splitlines()[-1] == "Passed War."
