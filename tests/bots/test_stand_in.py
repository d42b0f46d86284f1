"""The stand-in plays an absent person's Exploding Kittens seat as they would least regret
(docs/rules/kittens.md#stand-ins): exact situations from `from_deal`, the stand-in's own answer."""

from __future__ import annotations

import pytest

from cardroom.bots.stand_in import make_stand_in
from cardroom.games.kittens import GAME
from cardroom.games.kittens.actions import Defuse, Give, Play
from cardroom.games.kittens.cards import DEFUSE, EXPLODING_KITTEN
from tests.kittens.helpers import ok, play, table

SEEDS = range(12)
"""The table's seeds for the stand-in: its choices must not depend on luck."""


def _answer(t, seat: int, seed: int):  # type: ignore[no-untyped-def]
    bot = make_stand_in("kittens", seat, "random", seed, {})
    bot.notice([], lambda: t.view(seat), t.now)
    return bot.act(lambda: t.view(seat), t.now)


@pytest.mark.parametrize("seed", SEEDS)
def test_a_favor_asked_of_an_absent_player_gets_their_least_valuable_card(seed: int) -> None:
    """docs/rules/kittens.md#stand-ins: a Favor gets the card they miss least, never the Defuse."""
    t = table([["favor"], ["defuse", "attack", "black_cat", "skip"]], deck=["white_cat"] * 4)
    play(t, 0, "favor", target=1)
    assert t.view(1)["choosing"]["player"] == 1
    answer = _answer(t, 1, seed)
    assert answer == Give("black_cat")
    t.apply(1, answer, t.now)
    assert sorted(t.view(1)["hand"]) == ["attack", "defuse", "skip"]


@pytest.mark.parametrize("seed", SEEDS)
def test_a_favor_takes_the_defuse_only_when_it_is_all_they_hold(seed: int) -> None:
    """docs/rules/kittens.md#stand-ins: a Defuse is given only when nothing else is in hand."""
    t = table([["favor"], [DEFUSE]], deck=["white_cat"] * 4)
    play(t, 0, "favor", target=1)
    assert _answer(t, 1, seed) == Give(DEFUSE)


@pytest.mark.parametrize("turns_left", [1, 2])
@pytest.mark.parametrize("seed", SEEDS)
def test_a_stand_in_puts_the_defused_kitten_at_the_bottom(seed: int, turns_left: int) -> None:
    """docs/rules/kittens.md#stand-ins: never on top, where the person (next, or again when
    attacked) or a friend would meet it at once: at the bottom of the deck."""
    t = table(
        [["black_cat"], [DEFUSE, "black_cat"]],
        deck=[EXPLODING_KITTEN, "white_cat", "grey_cat", "red_cat"],
        turn=1,
        turns_left=turns_left,
    )
    ok(t, 1, "draw")
    assert t.view(1)["phase"] == "defusing"
    answer = _answer(t, 1, seed)
    assert isinstance(answer, Defuse)
    t.apply(1, answer, t.now)
    assert t.s.deck[0] == EXPLODING_KITTEN, "the kitten lies at the bottom (the deck's top is its end)"
    assert t.s.deck[-1] != EXPLODING_KITTEN


@pytest.mark.parametrize("seed", SEEDS)
def test_a_stand_in_holding_a_defuse_draws_and_keeps_their_cards(seed: int) -> None:
    """docs/rules/kittens.md#stand-ins: with a Defuse in hand, a turn ends with a draw, as the
    turn timer would end it; the Skip stays theirs."""
    t = table([["black_cat"], [DEFUSE, "skip", "attack"]], deck=["white_cat", EXPLODING_KITTEN], turn=1)
    assert _answer(t, 1, seed) == GAME.parse_action({"do": "draw"}, 2)


@pytest.mark.parametrize("seed", SEEDS)
def test_a_stand_in_without_a_defuse_spends_its_cheapest_escape(seed: int) -> None:
    """docs/rules/kittens.md#stand-ins: no Defuse and a kitten in the deck: the cheapest card
    that ends the turn without drawing (a Skip before an Attack) keeps them in the game."""
    t = table([["black_cat"], ["attack", "skip", "black_cat"]], deck=["white_cat", EXPLODING_KITTEN], turn=1)
    assert _answer(t, 1, seed) == Play(("skip",))
