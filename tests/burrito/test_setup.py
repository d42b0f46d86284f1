"""Table, cards and setup (rules 000/002, DIGITAL.md "Table and cards", CARDS.md)."""

from __future__ import annotations

from collections import Counter

import pytest

from cardroom.games.burrito import GAME
from cardroom.games.burrito.cards import BATTLE, DECK_SIZE, NORMAL, deck
from cardroom.games.burrito.options import parse_options
from cardroom.protocol import InvalidSetup

from .helpers import kinds, refused, run

RULEBOOK_NORMAL = {
    "barky_sharky",
    "logger_dogger",
    "goth_sloth",
    "nacho_llama",
    "salsa_yeti",
    "guac_gator",
    "churro_bat",
}
RULEBOOK_BATTLE = {"brawl_a", "brawl_b", "war", "duel"}


def test_the_deck_holds_the_printed_games_120_cards_seven_normal_kinds_of_12_and_four_battle_kinds_of_9() -> (
    None
):
    """CARDS.md: 84 normal cards in 7 kinds of 12, 36 battle cards, 9 of each battle kind. A card
    of our own (a branch's Taco Toucan, issue 25) adds to these: a normal kind has 12 copies."""
    cards = Counter(deck())
    assert set(NORMAL) >= RULEBOOK_NORMAL and set(BATTLE) == RULEBOOK_BATTLE
    assert sum(cards[c] for c in RULEBOOK_NORMAL | RULEBOOK_BATTLE) == 120
    assert all(cards[c] == 12 for c in NORMAL)
    assert all(cards[c] == 9 for c in BATTLE)
    assert sum(cards.values()) == DECK_SIZE


def test_two_decks_double_every_count() -> None:
    """000 (2 MAZZI): two boxes shuffled together: twice the cards (240), 4 burritos, 12 bruises."""
    assert len(deck(2)) == 2 * DECK_SIZE
    opts = parse_options({"variants": ["two_decks"]}, 8)
    assert (opts.burritos, opts.bruises) == (4, 12)


def test_each_player_gets_a_personal_pile_of_15_and_takes_the_top_5() -> None:
    """000/002: a personal pile of about 15 face down; take the top 5 into the hand."""
    t = GAME.new_table(4, {}, seed=3)
    assert [len(h) for h in t.hands] == [5] * 4
    assert [len(p) for p in t.piles] == [10] * 4


def test_the_rest_of_the_deck_makes_two_community_piles() -> None:
    """000: the remaining cards split into two (more or less) equal community piles."""
    t = GAME.new_table(3, {}, seed=3)
    sizes = sorted(len(c) for c in t.community)
    assert sum(sizes) == DECK_SIZE - 3 * 15 and sizes[1] - sizes[0] <= 1


def test_the_round_starts_with_a_countdown_for_everyone() -> None:
    """DIGITAL.md: "3, 2, 1, Burrito!" (countdown_ms 3000) starts the round for everyone at once."""
    t = GAME.new_table(3, {}, seed=5)
    assert t.phase == "countdown"
    events = run(t, 0)
    assert kinds(events)[:1] == ["round_start"] and "countdown" in kinds(events)
    assert [e["beat"] for e in events if e["event"] == "countdown"] == ["3"]
    assert [e["beat"] for e in run(t, 1000)] == ["2"]
    assert refused(t, 0, {"do": "draw"}, 1500) == "countdown"
    assert [e["beat"] for e in run(t, 2999)] == ["1"]
    assert [e["beat"] for e in run(t, 3000)] == ["burrito"]
    assert t.phase == "play"


def test_two_to_six_players_play_with_one_deck() -> None:
    """DIGITAL.md: 2 to 6 players with one deck."""
    for n in range(2, 7):
        assert GAME.new_table(n, {}, seed=1).players == n
    with pytest.raises(InvalidSetup, match="2 to 12 players"):
        GAME.new_table(1, {}, seed=1)


def test_seven_to_twelve_players_use_two_decks_by_themselves() -> None:
    """000 (2 MAZZI), docs/rules/burrito.md#two-decks-by-themselves: more than six players combine
    two boxes, up to twelve; the table does it without being asked, and asking is still accepted."""
    for n in range(7, 13):
        t = GAME.new_table(n, {}, seed=1)
        cards = sum(len(h) + len(p) for h, p in zip(t.hands, t.piles, strict=True))
        assert cards + sum(len(c) for c in t.community) == 2 * DECK_SIZE
        assert (t.opts.burritos, t.opts.bruises, t.opts.variants) == (4, 12, ("two_decks",))
    asked = GAME.new_table(7, {"variants": ["two_decks"]}, seed=1)
    assert asked.opts == GAME.new_table(7, {}, seed=1).opts
    small = GAME.new_table(7, {"variants": ["small_room"]}, seed=1)
    assert small.opts.decks == 2 and small.opts.small_room
    assert GAME.new_table(6, {}, seed=1).opts.decks == 1
    assert GAME.new_table(6, {"variants": ["two_decks"]}, seed=1).opts.decks == 2
    for options in ({}, {"variants": ["two_decks"]}):
        with pytest.raises(InvalidSetup, match="Throw Throw Burrito is for 2 to 12 players, not 13"):
            GAME.new_table(13, options, seed=1)


def test_every_option_has_its_digital_default() -> None:
    """DIGITAL.md: every duration is a table option with the documented default (the fight's
    clock: docs/rules/burrito.md#a-fights-clock)."""
    o = parse_options({}, 4)
    assert (o.countdown_ms, o.simultaneous_call_ms, o.flight_ms, o.flight_speedup_pct, o.flight_min_ms) == (
        3000,
        500,
        2000,
        15,
        1400,
    )
    assert (o.dodge_cooldown_ms, o.catch_window_ms, o.tie_ms, o.duel_beat_ms) == (1500, 600, 200, 1000)
    assert (o.fight_timeout_ms, o.behind_back_ms, o.burritos, o.bruises, o.pile_size) == (
        15000,
        700,
        2,
        6,
        15,
    )


@pytest.mark.parametrize(
    ("options", "says"),
    [
        ({"speed": 3}, "unknown option 'speed'"),
        ({"variants": ["tiny_room"]}, "unknown variant 'tiny_room'"),
        ({"flight_ms": -1}, "'flight_ms' must be a whole number"),
        ({"countdown_ms": "fast"}, "'countdown_ms' must be a whole number"),
        ({"burritos": 1}, "at least 2 burritos"),
        ({"variants": "small_room"}, "variants must be a list"),
    ],
)
def test_unknown_or_impossible_options_are_refused(options: dict[str, object], says: str) -> None:
    """DIGITAL.md: options are table options; an unknown one never silently plays a default."""
    with pytest.raises(InvalidSetup, match=says):
        GAME.new_table(4, options, seed=1)


def test_the_same_seed_deals_the_same_table() -> None:
    """docs/rules/burrito.md#determinism: a game is its seed plus its actions."""
    assert GAME.new_table(5, {}, 42).snapshot() == GAME.new_table(5, {}, 42).snapshot()
    assert GAME.new_table(5, {}, 42).snapshot() != GAME.new_table(5, {}, 43).snapshot()
