"""The tables' and bots' generator (cardroom/protocol/rng.py): deterministic from its seed, and
its outputs do not give away what comes next (issue 12: a player's own cards gave the deck)."""

from __future__ import annotations

import copy
import random
from collections import Counter
from itertools import permutations

import pytest

from cardroom.games import find_game
from cardroom.protocol.rng import KeyedRandom

BIG = (1 << 256) - 189


def _untemper(y: int) -> int:
    """The Mersenne Twister's output function undone: an output gives a word of its state."""
    y ^= y >> 18
    y ^= (y << 15) & 0xEFC60000
    t = y
    for _ in range(5):
        t = y ^ ((t << 7) & 0x9D2C5680)
    y = t
    t = y
    for _ in range(2):
        t = y ^ (t >> 11)
    return t & 0xFFFFFFFF


def _predicts_the_next_outputs(rng: random.Random) -> bool:
    """The textbook attack on Python's generator: 624 outputs, then every later one."""
    seen = [rng.getrandbits(32) for _ in range(624)]
    clone = random.Random()
    clone.setstate((3, (*(_untemper(o) for o in seen), 624), None))
    return [clone.getrandbits(32) for _ in range(20)] == [rng.getrandbits(32) for _ in range(20)]


def test_the_outputs_of_a_table_generator_do_not_predict_the_next_ones() -> None:
    assert _predicts_the_next_outputs(random.Random(BIG)), "the attack works on the Mersenne Twister"
    assert not _predicts_the_next_outputs(KeyedRandom(BIG))


@pytest.mark.parametrize("game", ["kittens", "burrito"])
def test_tables_draw_from_the_keyed_generator(game: str) -> None:
    table = find_game(game).new_table(3, {}, BIG)
    rng = table.s.rng if game == "kittens" else table.rng  # type: ignore[attr-defined]
    assert type(rng) is KeyedRandom


def test_the_same_seed_gives_the_same_outputs_and_seeds_differ() -> None:
    a, b, c = KeyedRandom(BIG), KeyedRandom(BIG), KeyedRandom(BIG + 1)
    draws = [a.getrandbits(64) for _ in range(300)]
    assert draws == [b.getrandbits(64) for _ in range(300)]
    assert draws != [c.getrandbits(64) for _ in range(300)]
    deck_a, deck_b = list(range(52)), list(range(52))
    KeyedRandom(7).shuffle(deck_a)
    KeyedRandom(7).shuffle(deck_b)
    assert deck_a == deck_b != list(range(52))


def test_a_saved_state_goes_on_with_the_same_outputs_across_blocks() -> None:
    rng = KeyedRandom(3)
    rng.getrandbits(8 * 1000)  # close to the end of the first block
    state = rng.getstate()
    ahead = [rng.getrandbits(40) for _ in range(100)] + [rng.getrandbits(20_000)]
    other = KeyedRandom(99)
    other.setstate(state)
    assert [other.getrandbits(40) for _ in range(100)] + [other.getrandbits(20_000)] == ahead


def test_a_copy_goes_on_with_the_same_outputs() -> None:
    rng = KeyedRandom(BIG)
    rng.random()
    twin = copy.deepcopy(rng)
    assert [twin.random() for _ in range(300)] == [rng.random() for _ in range(300)]


def test_draws_are_in_range_and_evenly_spread() -> None:
    rng = KeyedRandom(11)
    for k in (0, 1, 7, 8, 9, 53, 64, 1000, 9000):
        assert 0 <= rng.getrandbits(k) < 1 << k
    assert all(0.0 <= rng.random() < 1.0 for _ in range(1000))
    counts = Counter(tuple(rng.sample(range(4), 4)) for _ in range(24_000))
    assert set(counts) == set(permutations(range(4)))
    assert all(850 < n < 1150 for n in counts.values()), counts  # 1,000 each expected; sd ~31
    bits = Counter(rng.getrandbits(1) for _ in range(10_000))
    assert 4700 < bits[1] < 5300


def test_a_seed_is_a_whole_number() -> None:
    with pytest.raises(TypeError):
        KeyedRandom("7")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        KeyedRandom(True)


def test_the_written_out_methods_draw_exactly_as_random_random_would() -> None:
    """Shuffle, sample, choice, randrange and randint are written out in rng.py for speed (issue
    16): from the same seed they still give what `random.Random`'s own methods give on the same
    stream, so every seed keeps its deal and recorded games replay."""
    Plain = random.Random
    for seed in range(200):
        fast, plain = KeyedRandom(seed), KeyedRandom(seed)
        for n in (0, 1, 2, 5, 21, 22, 60, 300):
            a, b = list(range(n)), list(range(n))
            fast.shuffle(a)
            Plain.shuffle(plain, b)
            assert a == b
            if n:
                assert fast.choice(a) == Plain.choice(plain, b)
                assert fast.randrange(n) == Plain.randrange(plain, n)
                assert fast.randint(0, n) == Plain.randint(plain, 0, n)
                assert fast.randint(3, n + 3) == Plain.randint(plain, 3, n + 3)
                for k in range(min(n, 7) + 1):
                    assert fast.sample(a, k) == Plain.sample(plain, b, k)
                    assert fast.sample(tuple(a), k) == Plain.sample(plain, tuple(b), k)
            assert fast.random() == plain.random()
    with pytest.raises(ValueError):
        KeyedRandom(1).randint(5, 4)
    with pytest.raises(ValueError):
        KeyedRandom(1).randrange(0)
    with pytest.raises(IndexError):
        KeyedRandom(1).choice([])
