"""`legal_moves` is exactly what the table accepts (issue 25), over whole random games.

At every step of games played to their end from many seeds, for every seat: each move listed is
accepted (`check`, and `apply` on a copy of the table); any action the table accepts, drawn from
a broad generator of actions right and wrong, is listed (up to the order of a combo's cards);
no move is listed twice; the seat's view lists the same moves as the table; asking for some sets
of cards lists just their plays; and the seats with a move are the table's `actors`.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from cardroom.games.kittens import GAME, KittensTable
from cardroom.games.kittens.actions import (
    DRAW,
    NOPE,
    PASS,
    Action,
    AlwaysPass,
    Defuse,
    Give,
    Insert,
    Play,
    Reorder,
)
from cardroom.games.kittens.cards import CARDS, DEFUSE, EXPLODING_KITTEN, FERAL_CAT
from cardroom.games.kittens.legal import card_sets, legal_moves, same_move
from cardroom.games.kittens.state import TURN
from tests.kittens.helpers import table

MAX_STEPS = 1500


def any_action(rng: random.Random, t: KittensTable, seat: int) -> Action:
    """An action of any kind for `seat`, mostly made of its own cards and the table's seats and
    places, right or wrong: combos in any order of their cards, targets and places out of range,
    names and cards to take that may not fit."""
    s = t.s
    hand = s.hands[seat]
    kinds = list(dict.fromkeys(hand))
    deck = len(s.deck)

    def card() -> str:
        return rng.choice(hand) if hand and rng.random() < 0.8 else rng.choice(CARDS)

    def extra(wanted: bool, pool: list[str]) -> str | None:
        """A name or a card to take: mostly when the combo wants one, now and then when not."""
        if rng.random() < (0.85 if wanted else 0.1):
            return rng.choice(pool or CARDS)
        return None

    kind = rng.randrange(16)
    if kind < 8:
        size = rng.choice((1, 1, 2, 2, 3, 3, 4, 5, 5, 6))
        if size == 5 and len(kinds) >= 5 and rng.random() < 0.7:
            cards = tuple(rng.sample(kinds, 5))
        elif size in (2, 3) and hand and rng.random() < 0.6:
            base = rng.choice([k for k in kinds if hand.count(k) >= 2] or kinds)
            cards = tuple(rng.choice((base, base, FERAL_CAT)) for _ in range(size))
        else:
            cards = tuple(card() for _ in range(size))
        target = rng.choice([None, -1, s.players, *range(s.players), *range(s.players)])
        names = list(CARDS) if rng.random() < 0.5 else [EXPLODING_KITTEN, DEFUSE, FERAL_CAT]
        return Play(cards, target, extra(size == 3, names), extra(size == 5, s.discard))
    if kind == 8:
        return NOPE
    if kind == 9:
        return PASS
    if kind == 10:
        return AlwaysPass(rng.random() < 0.5)
    if kind == 11:
        return DRAW
    if kind == 12:
        return Defuse(rng.randint(0, deck + 2))
    if kind == 13:
        return Give(card())
    if kind == 14:
        size = len(s.choice_cards) if rng.random() < 0.7 else rng.randint(0, 6)
        order = list(range(size))
        rng.shuffle(order)
        if order and rng.random() < 0.1:
            order[0] = order[-1]
        return Reorder(tuple(order))
    return Insert(rng.randint(0, deck + 2))


def hand_kinds(t: KittensTable, seat: int) -> set[str]:
    return {card for card in t.s.hands[seat] if card != EXPLODING_KITTEN}


def check_seat(rng: random.Random, t: KittensTable, seat: int) -> list[Action]:
    """Every property of `legal_moves` for `seat` now; its moves."""
    moves = legal_moves(t, seat)
    listed = {same_move(m) for m in moves}
    assert len(listed) == len(moves), "a move is listed twice"
    for m in moves:
        assert t.check(seat, m) is None, m
    for m in rng.sample(moves, min(len(moves), 6)):
        assert isinstance(t.copy().apply(seat, m, t.now), list), m
    for _ in range(150 if seat in t.actors() else 20):
        a = any_action(rng, t, seat)
        if t.check(seat, a) is None:
            assert same_move(a) in listed, f"{a} is accepted but not listed"
    view = t.view(seat)
    assert legal_moves(view, seat) == moves, "the seat's view lists other moves than the table"
    # The page's Play button reads the seat's own view: its `plays` and `fives` are the sets of
    # cards of the plays listed (`fives` None: more than the view lists, any five the table takes).
    played = {tuple(sorted(m.cards)) for m in moves if isinstance(m, Play)}
    offered = {tuple(c) for c in view["plays"]} | {tuple(c) for c in view["fives"] or ()}
    if view["fives"] is None:
        played = {c for c in played if len(c) < 5}
        assert len(hand_kinds(t, seat)) > 9
    assert offered == played, "the view offers other plays than the legal moves"
    assert all(list(c) == sorted(c) for c in view["plays"])
    if t.s.phase == TURN and t.s.turn == seat:
        hand = t.s.hands[seat]
        sets = [c for c in card_sets(hand) if rng.random() < 0.5]
        some = legal_moves(view, seat, sets)
        assert some == [m for m in moves if not isinstance(m, Play) or m.cards in sets]
        pool = [*hand, *CARDS]
        sets += [tuple(rng.choice(pool) for _ in range(rng.choice((1, 2, 3, 5)))) for _ in range(4)]
        some = legal_moves(view, seat, sets)
        assert all(t.check(seat, m) is None for m in some)
        wanted = {tuple(sorted(c)) for c in sets}
        assert {same_move(m) for m in some} == {
            same_move(m) for m in moves if not isinstance(m, Play) or tuple(sorted(m.cards)) in wanted
        }
    return moves


def play_one_game(players: int, seed: int) -> None:
    rng = random.Random(seed)
    t = GAME.new_table(players, {}, seed)
    for _ in range(MAX_STEPS):
        if t.over:
            for seat in range(players):
                assert legal_moves(t, seat) == []
            return
        per_seat = [check_seat(rng, t, seat) for seat in range(players)]
        acting: list[tuple[int, Action]] = [
            (seat, m) for seat in range(players) for m in per_seat[seat] if not isinstance(m, AlwaysPass)
        ]
        assert set(t.actors()) == {seat for seat, _ in acting}
        if not acting or rng.random() < 0.1:
            deadline = t.next_deadline()
            assert deadline is not None
            t.advance(deadline)
            continue
        if rng.random() < 0.02:
            seat = rng.randrange(players)
            acting = [(seat, m) for m in per_seat[seat] if isinstance(m, AlwaysPass)] or acting
        elif rng.random() < 0.5:
            # Draw often, so that hands grow and make combos of every kind.
            acting = [(seat, m) for seat, m in acting if m == DRAW] or acting
        seat, move = rng.choice(acting)
        assert isinstance(t.apply(seat, move, t.now), list)
    raise AssertionError(f"the game of seed {seed} did not end in {MAX_STEPS} steps")


@settings(max_examples=10, deadline=None)
@given(players=st.integers(2, 6), seed=st.integers(0, 2**32 - 1))
def test_legal_moves_are_exactly_what_the_table_accepts(players: int, seed: int) -> None:
    play_one_game(players, seed)


def test_a_seat_on_its_turn_is_offered_the_plays_its_hand_makes_and_no_other_seat_is() -> None:
    """The view of the seat whose turn it is lists the sets of its cards it may play (the page's
    Play button shows for these only); every other view, a spectator's too, lists none."""
    t = table(
        [["favor", "black_cat", "black_cat", "feral_cat", "tabby_cat", "nope", "defuse"], ["skip"], []],
        deck=["shuffle"],
        discard=["attack"],
    )
    view = t.view(0)
    assert view["plays"] == [
        ["favor"],
        ["black_cat", "black_cat"],
        ["black_cat", "feral_cat"],
        ["feral_cat", "tabby_cat"],
        ["black_cat", "black_cat", "feral_cat"],
    ]
    assert ["nope"] not in view["plays"] and ["tabby_cat"] not in view["plays"]
    assert view["fives"] == [
        ["black_cat", "defuse", "favor", "nope", "tabby_cat"]
    ]  # no Feral Cat with non-cats
    assert t.view(1)["plays"] == [] and t.view(None)["plays"] == [] and t.view(None)["fives"] == []
    # The expert's playouts ask for the view without them (nothing but the page reads them).
    assert t.view(0, plays=False) == {**view, "plays": [], "fives": []}


def test_legal_moves_cover_every_kind_of_move() -> None:
    """Defuses at every place, choices, combos with their targets, names and cards to take."""
    t = table(
        [
            ["favor", "black_cat", "black_cat", "feral_cat", "skip", "nope", "attack", "defuse"],
            ["nope"],
            [],
        ],
        deck=["shuffle", "skip"],
        discard=["see_the_future", "tabby_cat"],
    )
    moves = legal_moves(t, 0)
    assert moves[0] == DRAW
    assert Play(("favor",), target=1) in moves and Play(("favor",), target=2) in moves
    assert Play(("skip",)) in moves and Play(("nope",)) not in moves
    assert Play(("black_cat", "black_cat"), target=2) in moves
    assert Play(("black_cat", "feral_cat"), target=1) in moves
    assert Play(("black_cat", "black_cat", "feral_cat"), target=1, name="defuse") in moves
    assert Play(("favor", "black_cat", "skip", "nope", "attack"), take="tabby_cat") in moves
    assert Play(("black_cat", "feral_cat", "skip", "nope", "attack"), take="tabby_cat") not in moves
    assert moves[-2:] == [AlwaysPass(True), AlwaysPass(False)]
    assert legal_moves(t, 1) == [AlwaysPass(True), AlwaysPass(False)]
