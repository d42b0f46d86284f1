"""The terminal turns raw bytes into the key names the games bind (003: shift+arrows, Enter), and
both clients take their keys from one table per game (docs/keys.md)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from cardroom.clients.terminal import burrito, kittens
from cardroom.clients.terminal.burrito import BurritoUI
from cardroom.clients.terminal.keys import KeyReader, canonical
from cardroom.clients.terminal.kittens import KittensUI
from cardroom.clients.terminal.ui import Say
from cardroom.games import burrito as burrito_game
from cardroom.games import kittens as kittens_game
from cardroom.help.keys import CLIENTS, TABLES, TERMINAL, WEB, action_for, key_label, keys

ROOT = Path(__file__).resolve().parents[2]


def test_letters_and_digits_are_their_own_keys() -> None:
    assert KeyReader().feed("dD3 ?") == ["d", "D", "3", " ", "?"]


def test_enter_arrives_as_enter_whatever_the_line_ending() -> None:
    reader = KeyReader()
    assert reader.feed("\r") == ["enter"]
    assert reader.feed("\n") == ["enter"]
    assert reader.feed("\r\n") == ["enter"]


def test_shift_arrows_for_reordering_alter_the_future() -> None:
    """003: shift and the vertical arrows move the card under the cursor."""
    assert KeyReader().feed("\x1b[1;2A\x1b[1;2B\x1b[A\x1b[B") == ["shift+up", "shift+down", "up", "down"]


def test_an_escape_sequence_split_across_reads_is_kept_whole() -> None:
    reader = KeyReader()
    assert reader.feed("\x1b[1;") == []
    assert reader.feed("2A") == ["shift+up"]


def test_a_lone_escape_at_the_end_of_input_is_the_escape_key() -> None:
    reader = KeyReader()
    assert reader.feed("\x1b") == ["escape"]
    assert reader.flush() == []


def test_unknown_sequences_and_control_bytes_are_dropped() -> None:
    assert KeyReader().feed("\x1b[99Zx\x01") == ["x"]


def test_home_and_end_arrive_as_home_and_end() -> None:
    assert KeyReader().feed("\x1b[H\x1b[F\x1bOH\x1bOF\x1b[1~\x1b[4~") == ["home", "end"] * 3


def test_terminal_keys_get_the_names_of_the_table_and_the_page() -> None:
    """docs/keys.md: a capital letter is Shift and the letter, as the page names it."""
    names = [canonical(k) for k in ("d", "D", " ", "up", "shift+up", "left", "enter", "1", "?", "home")]
    assert names == [
        "d",
        "shift+d",
        "space",
        "arrowup",
        "shift+arrowup",
        "arrowleft",
        "enter",
        "1",
        "?",
        "home",
    ]


@pytest.mark.parametrize("game", sorted(TABLES))
def test_the_terminal_help_is_the_table(game: str) -> None:
    """docs/keys.md: `?` prints the table's keys, in the words the page's F1 uses."""
    lines = {"burrito": burrito.key_help, "kittens": kittens.key_help}[game]()
    table = [f"{key_label(k.key)}: {k.label}" for k in keys(game, TERMINAL)]
    assert lines[: len(table)] == table
    assert all(k.only != WEB for k in keys(game, TERMINAL))
    assert "Page Up: Previous entry of the history" not in lines  # a key of the page only


@pytest.mark.parametrize("game", sorted(TABLES))
def test_a_key_does_one_thing_in_each_client(game: str) -> None:
    for client in CLIENTS:
        names = [name for k in keys(game, client) for name in (k.key, *k.also)]
        assert len(names) == len(set(names)), (game, client)


def test_the_003_keys_mean_what_003_says() -> None:
    """003 "Comandi rapidi", DIGITAL.md: shift+D, T, E (with or without Shift), shift+arrows, Enter."""
    for client in CLIENTS:
        assert action_for("kittens", "shift+d", client) == "describe"
        for key in ("t", "shift+t"):
            assert action_for("kittens", key, client) == "turn"
        for key in ("e", "shift+e"):
            assert action_for("kittens", key, client) == "counts"
        assert action_for("kittens", "shift+arrowup", client) == "move_up"
        assert action_for("kittens", "shift+arrowdown", client) == "move_down"
        assert action_for("kittens", "enter", client) == "play_enter"


def test_burrito_keys_are_the_same_in_both_clients() -> None:
    """docs/keys.md#throw-throw-burrito: X dodges, Space catches, G grabs, T throws, B calls,
    D draws, C and Shift+C draw from the community piles, H reads the hand, V the table, and
    Shift+D says what a card is for, as in Exploding Kittens (never a draw by a kittens habit)."""
    expected = {
        "x": "dodge",
        "space": "catch",
        "g": "grab",
        "t": "throw",
        "b": "call",
        "d": "draw",
        "c": "draw_community",
        "shift+c": "draw_community_2",
        "h": "read_hand",
        "v": "status",
        "shift+d": "describe",
    }
    for client in CLIENTS:
        assert {key: action_for("burrito", key, client) for key in expected} == expected


@pytest.mark.parametrize("players", [2, 3])
def test_shift_d_says_what_the_burrito_card_under_the_cursor_is_for_in_the_terminal(players: int) -> None:
    """docs/keys.md#card-help-issue-24: the terminal's D (Shift and d) says the words the page
    shows beside the card; a battle card at a table of two says who fights there."""
    deal = {"hands": [["goth_sloth", "war"]] + [["duel"]] * (players - 1), "piles": [["war"]] * players}
    table = burrito_game.GAME.from_deal(players, {}, deal, 1)
    ui, view = burrito.make_ui(0, ["You", "Anna", "Bea"][:players], table), table.view(0)
    assert ui.on_key("D", view, 0) == Say("Goth Sloth: Three alike make a set: 1 point.")
    ui.on_key("right", view, 0)
    war = ui.on_key("D", view, 0)
    if players == 2:
        assert war == Say("War: Call three: 2 points, and a War between you and the other player.")
    else:
        assert war == Say("War: Call three: 2 points, and everyone but you fights a War.")
    assert ui.on_key("D", {**view, "hand": []}, 0) == Say("Your hand is empty.")


def _kittens_ui() -> tuple[KittensUI, dict[str, Any]]:
    table = kittens_game.GAME.from_deal(2, {}, {"hands": [["skip", "favor"], ["skip"]], "deck": ["skip"]}, 1)
    return kittens.make_ui(0, ["You", "Anna"], table), table.view(0)


def _burrito_ui() -> tuple[BurritoUI, dict[str, Any]]:
    deal = {"hands": [["goth_sloth", "war"], ["war"]], "piles": [["war"], ["war"]]}
    table = burrito_game.GAME.from_deal(2, {}, deal, 1)
    return burrito.make_ui(0, ["You", "Anna"], table), table.view(0)


def typed(name: str) -> str:
    """What the terminal reads for a key of the table ("shift+d" is "D", "arrowup" is "up")."""
    shift, _, base = name.rpartition("+")
    base = {"space": " "}.get(base, base.removeprefix("arrow"))
    if shift == "shift" and len(base) == 1 and base.isalpha():
        return base.upper()
    return f"{shift}+{base}" if shift else base


@pytest.mark.parametrize("game", sorted(TABLES))
def test_the_terminal_answers_every_key_of_the_table(game: str) -> None:
    """Both clients read the table: each of its keys (shift or not) does something in the terminal."""
    nothing = "does nothing here"
    for k in keys(game, TERMINAL):
        for name in (k.key, *k.also):
            ui, view = _kittens_ui() if game == "kittens" else _burrito_ui()
            raw = typed(name)
            assert canonical(raw) == name
            answer = ui.on_key(raw, view, 0)
            assert not (isinstance(answer, Say) and nothing in answer.text), (game, name, answer)


def test_t_and_e_answer_with_or_without_shift_in_the_terminal() -> None:
    """003: T whose turn, E the counts; docs/keys.md#exploding-kittens: Shift or not."""
    ui, view = _kittens_ui()
    answers = {key: ui.on_key(key, view, 0) for key in ("t", "T", "e", "E")}
    assert answers["t"] == answers["T"] == Say("It is your turn (only this one).")
    assert answers["e"] == answers["E"]
    assert isinstance(answers["e"], Say) and answers["e"].text.startswith("Cards in hand: you: 2 cards")


def test_every_link_to_the_keys_doc_has_its_heading() -> None:
    doc = ROOT / "docs" / "keys.md"
    heads = re.findall(r"^#+ (.+)$", doc.read_text(encoding="utf-8"), re.MULTILINE)
    known = {re.sub(r"[^a-z0-9 -]", "", h.lower()).replace(" ", "-") for h in heads}
    sources = [*(ROOT / "tests" / "clients").glob("*.py"), *(ROOT / "tests" / "web").glob("*.py")]
    links = {
        m for path in sources for m in re.findall(r"docs/keys\.md#([a-z0-9-]+)", path.read_text("utf-8"))
    }
    assert links and links <= known, links - known
