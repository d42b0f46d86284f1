"""`legal_actions` is exactly what the table accepts (issue 25), over random games.

At every step of random games with fights, for every seat: each action listed is accepted and
is no mistake (each listed with `mistakes=True` is accepted); any action the table accepts,
parsed from a broad generator of JSON actions right and wrong, is listed (with the mistakes when
it is one), once put in the list's form (`listed_form`); no action is listed twice.
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from cardroom.games.burrito import GAME, BurritoTable, legal_actions
from cardroom.games.burrito.actions import Action, Call, Draw
from cardroom.games.burrito.cards import CARDS, FIGHTS
from cardroom.games.burrito.checks import call_card
from cardroom.protocol import InvalidAction

OPTIONS: dict[str, Any] = {"countdown_ms": 300, "between_rounds_ms": 500, "fight_timeout_ms": 4000}
STEPS = 250


def listed_form(t: BurritoTable, seat: int, a: Action) -> Action:
    """The form `legal_actions` lists `a` in: a brawl called without its colour names the colour
    the table plays for it (or any colour, when it is a mistake anyway), a draw from the
    community piles without a pile names the pile it draws from, a duel's two seats in order."""
    if isinstance(a, Call) and a.fight == "brawl" and a.card is None:
        return Call("brawl", call_card(t, seat, a) or "brawl_a")
    if isinstance(a, Call) and a.targets is not None:
        return Call(a.fight, a.card, (min(a.targets), max(a.targets)))
    if isinstance(a, Draw) and a.source == "community" and a.pile is None:
        return Draw("community", 0 if t.community[0] else 1)
    return a


def any_raw(rng: random.Random, t: BurritoTable, seat: int) -> dict[str, Any]:
    """A JSON action of any kind, mostly of the seat's own cards and the table's seats."""
    hand = t.hands[seat]
    seats = [*range(t.n), t.n, -1]
    card = rng.choice(hand) if hand and rng.random() < 0.7 else rng.choice(CARDS)
    do = rng.choice(("draw", "draw", "discard", "set", "call", "call", "grab", "throw", "dodge", "catch"))
    raw: dict[str, Any] = {"do": do}
    if do == "draw":
        if rng.random() < 0.6:
            raw["from"] = rng.choice(("own", "community", "elsewhere"))
        if rng.random() < 0.4:
            raw["pile"] = rng.choice((0, 1, 2))
    elif do in ("discard", "set"):
        raw["card"] = card
    elif do == "call":
        raw["fight"] = rng.choice((*FIGHTS, "party"))
        if rng.random() < 0.5:
            raw["card"] = card
        if raw["fight"] == "duel" or rng.random() < 0.05:
            raw["targets"] = [rng.choice(seats) for _ in range(rng.choice((2, 2, 2, 1, 3)))]
    elif do == "throw":
        raw["target"] = rng.choice(seats)
    return raw


def check_seat(rng: random.Random, t: BurritoTable, seat: int) -> list[Action]:
    """Every property of `legal_actions` for `seat` now; its actions, mistakes left out."""
    actions = legal_actions(t, seat)
    every = legal_actions(t, seat, mistakes=True)
    assert len(set(every)) == len(every), "an action is listed twice"
    assert set(actions) <= set(every)
    for a in every:
        assert t.check(seat, a) is None, a
        assert t.is_mistake(seat, a) == (a not in actions), a
    for _ in range(40):
        try:
            a = GAME.parse_action(any_raw(rng, t, seat), t.n)
        except InvalidAction:
            continue
        if t.check(seat, a) is None:
            assert listed_form(t, seat, a) in (every if t.is_mistake(seat, a) else actions), a
    return actions


def play(players: int, seed: int) -> None:
    rng = random.Random(seed)
    t = GAME.new_table(players, OPTIONS, seed)
    now = 0
    for _ in range(STEPS):
        if t.over:
            break
        now += rng.choice((0, 1, 20, 50, 150, 400)) if t.fight is not None else rng.randint(0, 300)
        t.advance(now)
        per_seat = [check_seat(rng, t, seat) for seat in range(players)]
        seat = rng.randrange(players)
        actions = per_seat[seat]
        if rng.random() < 0.02:
            actions = legal_actions(t, seat, mistakes=True)
        keen: list[Action] = [a for a in actions if not isinstance(a, Draw)]
        if keen and rng.random() < 0.6:
            actions = keen
        if actions:
            assert isinstance(t.apply(seat, rng.choice(actions), now), list)


@settings(max_examples=10, deadline=None)
@given(players=st.integers(2, 6), seed=st.integers(0, 2**32 - 1))
def test_legal_actions_are_exactly_what_the_table_accepts(players: int, seed: int) -> None:
    play(players, seed)
