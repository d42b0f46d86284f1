"""The Play button beside a kittens hand shows for a set of cards the rules let its holder play,
and for no other (issue 25): the page reads the sets from the seat's own view, which the engine
fills from its legal moves (docs/rules/kittens.md#what-players-know). Before, any two or three
cards showed "Play" and the server refused a pair of different cards."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page

from tests.kittens.helpers import table

HAND = ["favor", "black_cat", "black_cat", "feral_cat", "tabby_cat", "nope", "defuse", "skip"]

BUTTONS = """async ([view, selected]) => {
    const { buttonsFor } = await import('/static/actions.js');
    const m = {
        game: 'kittens', view, you: view.seat, cards: view.hand, cursor: selected[0], selected,
        reorder: false, now: view.now, cardName: (c) => c, seatName: (s) => `seat ${s}`,
    };
    return buttonsFor(m).map((b) => b.action);
}"""


def buttons(page: Page, view: dict[str, Any], *cards: str) -> list[str]:
    """The buttons beside the hand with `cards` selected (each at its first free place)."""
    hand = list(view["hand"])
    indices = []
    for card in cards:
        index = next(i for i, c in enumerate(hand) if c == card and i not in indices)
        indices.append(index)
    return list(page.evaluate(BUTTONS, [view, indices]))


def test_play_shows_for_the_sets_the_rules_allow_and_draw_always_on_ones_turn(page: Page) -> None:
    view = table([HAND, ["skip"], []], deck=["shuffle"], discard=["attack"]).view(0)
    for playable in (
        ("favor",),
        ("skip",),
        ("black_cat", "black_cat"),
        ("black_cat", "feral_cat"),
        ("feral_cat", "black_cat", "black_cat"),
        ("skip", "favor", "nope", "defuse", "black_cat"),
    ):
        assert buttons(page, view, *playable) == ["play", "draw"], playable
    for not_a_play in (
        ("nope",),  # only against a card, in its window
        ("defuse",),
        ("tabby_cat",),  # a cat alone
        ("favor", "skip"),  # two different cards
        ("black_cat", "tabby_cat"),  # two different cats, no Feral Cat
        ("black_cat", "black_cat", "feral_cat", "tabby_cat"),  # four cards
        ("skip", "favor", "nope", "defuse", "feral_cat"),  # a Feral Cat among non-cats
    ):
        assert buttons(page, view, *not_a_play) == ["draw"], not_a_play


def test_five_different_cards_need_a_card_in_the_discard_pile_to_take() -> None:
    """(No page needed: the view itself offers no five while the pile is empty.)"""
    view = table([HAND, ["skip"], []], deck=["shuffle"], discard=[]).view(0)
    assert view["fives"] == [] and ["favor"] in view["plays"]


def test_no_play_is_offered_off_ones_turn(page: Page) -> None:
    view = table([["skip"], HAND, []], deck=["shuffle"], discard=["attack"]).view(1)
    assert buttons(page, view, "black_cat", "black_cat") == []
