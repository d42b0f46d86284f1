"""Copies and determinized tables for search (issue 16, item 3).

A copy shares nothing mutable with its table: playing it on changes nothing in the original,
and both say the same when given the same moves. A determinized table is one the seat could be
sitting at: its own view of it is exactly its real view, the cards add up to the game's deck,
known cards sit where the seat knows them, and the hidden cards really are dealt again.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator

from cardroom.bots import make_bot
from cardroom.drive.virtual import VirtualDriver
from cardroom.games.kittens import GAME, KittensTable
from cardroom.games.kittens.actions import DRAW, Give
from cardroom.games.kittens.cards import EXPLODING_KITTEN, deck_counts
from cardroom.games.kittens.determinize import Known, determinize
from tests.kittens.helpers import ok, table


def mid_game_tables(games: int, players: int) -> Iterator[KittensTable]:
    """Tables of games between hard bots, every few moves along the way."""
    for seed in range(games):
        t = GAME.new_table(players, {}, seed)
        bots = {s: make_bot("kittens", s, "hard", seed * 1_000 + s) for s in range(players)}
        driver = VirtualDriver(t, bots)
        steps = 0
        while not t.over and driver.step(10**9):
            steps += 1
            if steps % 5 == 0:
                yield t


def test_playing_a_copy_leaves_the_table_as_it_was() -> None:
    for t in mid_game_tables(6, 3):
        before = t.snapshot()
        copy = t.copy()
        assert copy.snapshot() == before
        copy.advance(copy.now + 200_000)  # timers draw, explode, end the game
        assert t.snapshot() == before


def test_a_copy_says_what_the_table_says() -> None:
    for t in mid_game_tables(4, 4):
        copy = t.copy()
        at = t.now + 70_000
        assert [e.full() for e in copy.advance(at)] == [e.full() for e in t.advance(at)]
        assert copy.snapshot() == t.snapshot()
        if t.over:
            continue
        if t.s.phase == "turn":
            seat = t.s.turn
            a, b = t.apply(seat, DRAW, at), copy.apply(seat, DRAW, at)
            assert isinstance(a, list) and isinstance(b, list)
            assert [e.full() for e in a] == [e.full() for e in b]
        assert copy.snapshot() == t.snapshot()


def test_the_seat_sees_a_determinized_table_exactly_as_the_real_one() -> None:
    """Hand, hand sizes, deck size, discard pile, kittens left, what it saw on top, where its
    kitten lies, the Nope window and the choice in progress: all as in the real view."""
    checked = 0
    for t in mid_game_tables(25, 4):
        for seat in range(4):
            v = t.view(seat)
            if v["alive"][seat]:
                assert determinize(v, Known(), random.Random(checked)).view(seat) == v
                checked += 1
    assert checked > 500


def test_every_card_of_the_game_is_somewhere_once() -> None:
    for t in mid_game_tables(10, 3):
        v = t.view(1)
        if not v["alive"][1]:
            continue
        d = determinize(v, Known(), random.Random(7)).s
        cards = Counter(d.deck) + Counter(d.discard) + Counter(d.out)
        for hand in d.hands:
            cards.update(hand)
        assert cards == Counter(deck_counts(3))


def test_hidden_cards_are_dealt_again_and_kittens_only_into_the_deck() -> None:
    t = GAME.new_table(4, {}, 3)
    v = t.view(0)
    tables = [determinize(v, Known(), random.Random(i)).s for i in range(20)]
    assert len({tuple(s.hands[2]) for s in tables}) > 10
    assert len({tuple(s.deck) for s in tables}) == 20
    for s in tables:
        assert s.hands[0] == t.s.hands[0]
        assert all(EXPLODING_KITTEN not in h for h in s.hands)
        assert s.deck.count(EXPLODING_KITTEN) == 3


def test_cards_the_seat_saw_on_top_stay_on_top() -> None:
    t = table(
        [["see_the_future", "defuse"], ["defuse"]],
        deck=["exploding_kitten", "skip", "attack", "favor", "nope", "tabby_cat"],
    )
    ok(t, 0, "play", cards=["see_the_future"])
    t.advance(t.now + 5_000)
    v = t.view(0)
    assert v["future"] == ["exploding_kitten", "skip", "attack"]
    for i in range(10):
        d = determinize(v, Known(), random.Random(i))
        assert d.s.deck[-3:] == ["attack", "skip", "exploding_kitten"]
        assert d.view(0) == v


def test_a_card_the_seat_gave_stays_in_the_hand_it_went_to() -> None:
    """The bot remembers the Defuse it gave; every sample deals it to the receiver."""
    t = table([["favor", "skip"], ["defuse", "nope", "attack"]], deck=["tabby_cat"] * 5)
    ok(t, 0, "play", cards=["favor"], target=1)
    t.advance(t.now + 5_000)
    assert isinstance(t.apply(1, Give("defuse"), t.now), list)
    v = t.view(1)
    known = Known({0: ["defuse"]})
    for i in range(10):
        assert "defuse" in determinize(v, known, random.Random(i)).s.hands[0]
