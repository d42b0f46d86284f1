"""`cardroom play kittens` with the keyboard of 003, line by line.

Rules 003, "Comandi rapidi": shift+D tells what the card under the cursor does, T whose turn
and how many turns are left, E the card counts; Alter the Future: shift+up/down moves the card
under the cursor, Enter confirms. DIGITAL.md: a kitten drawn explodes after `defuse_ms`.
"""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cardroom.clients.terminal.kittens import make_ui
from cardroom.clients.terminal.session import Session
from cardroom.games.kittens import GAME
from cardroom.games.kittens.actions import Give, Play
from cardroom.games.kittens.cards import CARDS
from tests.clients.pipe import Player, playing
from tests.clients.presses import press

NAMES = ["You", "Anna", "Marco"]


DEAL = Path(__file__).with_name("deals") / "kittens_on_a_pipe.json"
"""The table of the pipe test, set up by a scenario file (`cardroom play --deal`): a new card in
the game's deck re-deals no seed under it (issue 25)."""


@pytest.fixture
def kittens() -> Iterator[Player]:
    # The deal gives seat 0 a Defuse, See the Future, Feral Cat and Skip first (the keys below).
    # Verbose: the bots' turns (background lines, which the default verbosity folds) are read.
    with playing("kittens", "--deal", str(DEAL), "--verbosity", "verbose") as player:
        yield player


def test_play_kittens_on_a_pipe(kittens: Player) -> None:
    p = kittens
    p.expect(r"^Exploding Kittens\. Seats: 1 you, 2 \w+, 3 \w+")
    p.expect(r"^Your hand, 8 cards: 1 Defuse, 2 See the Future, 3 Feral Cat, 4 Skip, ")
    p.expect(r"^It is your turn \(only this one\)\.$")
    p.send("?")
    p.expect(r"^Shift\+D: Describe the card under the cursor$")
    p.send("h")
    p.expect(r"^Your hand, 8 cards: 1 Defuse, ")
    p.send("\x1b[B")
    p.expect(r"^2 of 8: See the Future$")
    p.send("D")
    p.expect(r"^See the Future: You look at the top three cards of the deck\.$")
    p.send("T")
    p.expect(r"^It is your turn \(only this one\)\.$")
    p.send("E")
    deck = len(json.loads(DEAL.read_text())["deal"]["deck"])
    p.expect(
        rf"^Cards in hand: you: 8 cards, \w+: 8 cards and \w+: 8 cards\. Deck: {deck}\. Discard pile: 0\.$"
    )
    p.send("\x1b[B")
    p.expect(r"^3 of 8: Feral Cat$")
    p.send("\r")
    p.expect(r"^Refused: these cards make no combo")
    p.send("\x1b[A\r")
    p.expect(r"^You play See the Future\.$")
    p.expect(r"^The top of the deck, top first: Tabby Cat, Shuffle and Skip\.$")
    p.send("d")
    p.expect(r"^You drew a Tabby Cat\.$")
    p.expect(r"'s turn\.$")
    p.send("d")
    p.expect(r"^Refused: it is not your turn\.$|^Wait: ")
    assert p.close() == 0
    # A bot's line may still come between the last key and the end of input.
    assert "Input closed: leaving the table." in p.lines[-3:]


def _session(deal: dict[str, Any], **options: int) -> tuple[Session, io.StringIO, list[int]]:
    table = GAME.from_deal(3, options, deal, 1)
    clock = [0]
    out = io.StringIO()
    return Session(table, 0, make_ui(0, NAMES, table), {}, out, lambda: clock[0]), out, clock


def _last(out: io.StringIO) -> str:
    return out.getvalue().splitlines()[-1]


def test_defuse_now_then_warning_then_put_back_on_top() -> None:
    session, out, clock = _session(
        {"hands": [["defuse", "skip"], ["skip"], ["skip"]], "deck": ["exploding_kitten", "skip"]}
    )
    session.key("d")
    lines = out.getvalue().splitlines()
    assert "DEFUSE NOW! 10 seconds." in lines  # the kitten drawn is said once, by the prompt
    assert lines[-1] == (
        "Where does the kitten go back? How many cards lie above it (0: on top), then Enter; b bottom, r random."
    )
    assert session.wait_ms() == 5000
    clock[0] = 5000
    session.catch_up()
    assert _last(out) == "5 seconds left to defuse!"
    session.key("t")  # 003's T, even while defusing: whose turn, and the kitten stays in hand
    assert _last(out) == "It is your turn (only this one)."
    session.key("0")
    session.key("enter")
    assert "Defused! Kitten on top." in out.getvalue().splitlines()
    assert _last(out) == "Anna's turn."
    session.key("F")  # where the kitten lies is said as the defuse said it (issue 14)
    assert _last(out).endswith("The kitten you put back is on top.")


def test_alter_the_future_moves_the_card_under_the_cursor_with_shift_arrows() -> None:
    session, out, clock = _session(
        {"hands": [["alter_the_future"], ["skip"], ["skip"]], "deck": ["skip", "favor", "shuffle", "nope"]},
        nope_window_ms=100,
    )
    session.key("enter")
    assert _last(out) == "You play Alter the Future."
    clock[0] = 100
    session.catch_up()
    assert "The top of the deck, top first: Skip, Favor and Shuffle." in out.getvalue().splitlines()
    press(
        session,
        out,
        [
            ("down", "2 of 3: Favor"),
            ("shift+up", "1 of 3: Favor"),
            ("shift+up", "It is already at the top."),
            ("enter", "New order of the top, top first: Favor, Skip and Shuffle."),
        ],
    )


def test_a_pair_marked_with_space_asks_for_a_player_by_seat_number() -> None:
    session, out, clock = _session(
        {"hands": [["tabby_cat", "skip", "feral_cat"], ["defuse"], ["skip"]], "deck": ["skip"]},
        nope_window_ms=100,
    )
    session.key(" ")
    assert _last(out) == "Marked Tabby Cat: 1 card marked, no combo yet."
    session.key("down")
    session.key("down")
    session.key(" ")
    assert _last(out) == "Marked Feral Cat: 2 cards marked, a pair."
    session.key("enter")
    assert _last(out) == "Whom? Press a seat number: 2 Anna, 3 Marco; or up/down then Enter. Escape cancels."
    session.key("2")
    assert _last(out) == "You play a Tabby Cat pair against Anna."
    clock[0] = 100
    session.catch_up()
    assert _last(out) == "Anna chooses a card for you."
    session.driver.submit(1, Give("defuse"), 150)
    assert _last(out) == "Anna gives you a Defuse."


def test_a_favor_against_you_is_answered_with_up_down_and_enter() -> None:
    session, out, clock = _session(
        {"hands": [["defuse", "skip"], ["favor"], ["skip"]], "deck": ["skip"], "turn": 1}, nope_window_ms=100
    )
    session.driver.submit(1, Play(("favor",), target=0), 0)
    assert _last(out) == "Anna: Favor on you."
    clock[0] = 100
    session.catch_up()
    assert "Anna asks you for a card: choose which one to give." in out.getvalue().splitlines()
    assert _last(out) == "No card is chosen yet: up/down to choose one, then Enter gives it."
    session.key("down")
    assert _last(out) == "1 of 2: Defuse"
    session.key("down")
    assert _last(out) == "2 of 2: Skip"
    session.key("T")  # 003: a question, answered while the choice waits
    assert _last(out) == "It is Anna's turn (only this one)."
    session.key("g")  # G gives, as on the page (Enter too)
    assert _last(out) == "You give a Skip to Anna."


def test_f_defuses_as_on_the_page() -> None:
    """docs/keys.md#exploding-kittens: F is the defuse key in both clients; Shift+F the future."""
    session, out, _ = _session(
        {"hands": [["defuse", "skip"], ["skip"], ["skip"]], "deck": ["exploding_kitten", "skip"]}
    )
    session.key("f")
    assert _last(out) == "There is no kitten to defuse."
    session.key("F")
    assert _last(out) == "You know nothing of the deck's order now."
    session.key("d")
    session.key("f")
    assert _last(out) == (
        "Where does the kitten go back? How many cards lie above it (0: on top), then Enter; b bottom, r random."
    )
    session.key("b")
    assert "Defused! Kitten at the bottom." in out.getvalue().splitlines()  # the deck had one card
    session.key("F")  # where the kitten lies is said as the defuse said it (issue 14)
    assert _last(out).endswith("The kitten you put back is at the bottom.")


def test_an_attack_on_you_offers_the_nope() -> None:
    session, out, clock = _session({"hands": [["nope"], ["skip"], ["attack"]], "deck": ["skip"], "turn": 2})
    session.driver.submit(2, Play(("attack",)), 0)
    assert _last(out) == "Marco: Attack on you. Nope? Press n."
    session.key("n")
    assert _last(out) == "You say Nope."
    clock[0] = 3000
    session.catch_up()
    lines = out.getvalue().splitlines()
    assert "Noped: Marco's Attack has no effect." in lines
    assert "The attack comes back: Marco takes 2 turns." in lines


def test_a_triple_names_the_card_asked_for_with_up_down_and_enter() -> None:
    session, out, _ = _session({"hands": [["tabby_cat"] * 3, ["defuse"], ["skip"]], "deck": ["skip"]})
    for key in (" ", "down", " ", "down", " ", "enter", "2"):
        session.key(key)
    named = len(CARDS) - 1  # any card but the Exploding Kitten, as the registry has them
    assert (
        _last(out) == f"Which card do you ask for? up/down then Enter. Escape cancels. 1 of {named}: Defuse"
    )
    session.key("down")
    assert _last(out) == f"2 of {named}: Nope"
    session.key("up")
    session.key("enter")
    assert _last(out) == "You play three Tabby Cat and ask Anna for a Defuse."


def test_five_different_cards_take_from_the_discard_pile() -> None:
    cats = ["black_cat", "white_cat", "grey_cat", "red_cat", "tabby_cat"]
    session, out, _ = _session(
        {"hands": [cats, ["defuse"], ["skip"]], "deck": ["skip"], "discard": ["favor", "skip"]}
    )
    for key in (" ", "down") * 4 + (" ", "enter"):
        session.key(key)
    assert _last(out) == (
        "Which card do you take from the discard pile? up/down then Enter. Escape cancels. 1 of 2: Favor"
    )
    session.key("down")
    session.key("enter")
    assert _last(out) == "You play five different cards for Skip."


def test_a_quick_enter_gives_nothing_and_a_defuse_goes_only_with_g_after_the_question() -> None:
    """Issue 24: asked for a card, the choice starts on no card; a Defuse asks first
    (docs/keys.md#card-help-and-choices-that-forgive-a-slip-issue-24)."""
    session, out, clock = _session(
        {"hands": [["defuse", "skip"], ["favor"], ["skip"]], "deck": ["skip"], "turn": 1}, nope_window_ms=100
    )
    session.driver.submit(1, Play(("favor",), target=0), 0)
    clock[0] = 100
    session.catch_up()
    unchosen = "No card is chosen yet: up/down to choose one, then Enter gives it."
    sure = "Give away your Defuse? Press G to give it; any other key keeps it."
    press(
        session,
        out,
        [
            ("enter", unchosen),  # the quick Enter of the issue
            ("g", unchosen),
            ("down", "1 of 2: Defuse"),
            ("enter", sure),
            ("enter", sure),  # a second Enter asks again: it never gives a Defuse
        ],
    )
    session.key("h")  # any other key keeps it, and does what it does
    assert _last(out).startswith("Your hand, 2 cards: 1 Defuse, 2 Skip")
    session.key("g")
    assert _last(out) == "Give away your Defuse? Press G to give it; any other key keeps it."
    session.key("g")
    assert _last(out) == "You give a Defuse to Anna."
