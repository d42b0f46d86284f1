"""What a player may know (docs/rules/kittens.md#what-players-know) and the keyboard queries of 003."""

from __future__ import annotations

from cardroom.games.kittens.actions import Defuse, Give
from cardroom.games.kittens.queries import counts, describe, describe_combo, whose_turn

from .helpers import ok, play, table, wait

EK = "exploding_kitten"


def test_view_shows_own_hand_and_only_sizes_of_others() -> None:
    """docs/rules/kittens.md#what-players-know: own hand, others' sizes, no deck order."""
    t = table([["skip", "nope"], ["defuse"]], ["favor", EK], ["attack"])
    v = t.view(0)
    assert v["hand"] == ["skip", "nope"] and v["hand_sizes"] == [2, 1]
    assert v["deck_size"] == 2 and v["discard"] == ["attack"] and "deck" not in v
    assert t.view(None)["hand"] == [] and t.view(None)["future"] == []


def test_seen_future_is_dropped_by_a_shuffle() -> None:
    """docs/rules/kittens.md#what-players-know: a shuffle makes every seen card unknown."""
    t = table([["see_the_future"], ["shuffle"]], ["skip", "favor", "attack", "nope"])
    play(t, 0, "see_the_future")
    assert t.view(0)["future"] == ["skip", "favor", "attack"]
    ok(t, 0, "draw")
    assert t.view(0)["future"] == ["favor", "attack"], "a draw from the top shifts what you know"
    play(t, 1, "shuffle")
    assert t.view(0)["future"] == []


def test_seen_future_survives_a_bottom_draw_and_is_cut_by_an_insert() -> None:
    """docs/rules/kittens.md#what-players-know"""
    t = table(
        [["see_the_future", "draw_from_the_bottom"], ["sneak_draw"]], ["skip", "favor", "attack", "nope"]
    )
    play(t, 0, "see_the_future")
    play(t, 0, "draw_from_the_bottom")
    assert t.view(0)["future"] == ["skip", "favor", "attack"]
    play(t, 1, "sneak_draw")
    assert t.view(0)["future"] == ["favor", "attack"] and t.view(1)["future"] == []
    ok(t, 1, "insert", position=1)
    assert t.view(0)["future"] == ["favor"] and t.view(1)["future"] == []


def test_alter_the_future_reorder_is_known_only_to_the_player() -> None:
    """docs/rules/kittens.md#what-players-know: after a reorder only the reorderer knows the order."""
    t = table([["alter_the_future"], ["see_the_future", "skip"]], ["skip", "favor", "attack", "nope"], turn=1)
    play(t, 1, "see_the_future")
    play(t, 1, "skip")
    play(t, 0, "alter_the_future")
    ok(t, 0, "reorder", order=[1, 0, 2])
    assert t.view(0)["future"] == ["favor", "skip", "attack"] and t.view(1)["future"] == []


def test_the_defuser_knows_where_the_kitten_went() -> None:
    """docs/rules/kittens.md#what-players-know: only the player who put the kitten back knows where."""
    t = table([["defuse"], [], []], [EK, "skip", "favor", "attack"])
    ok(t, 0, "draw")
    result = t.apply(0, Defuse(2), t.now)
    assert isinstance(result, list)
    assert result[0].for_seat(1) == {"event": "defused", "player": 0}
    assert result[0].for_seat(0) == {"event": "defused", "player": 0, "position": 2}
    assert t.view(0)["kitten_at"] == 2 and t.view(1)["kitten_at"] is None
    ok(t, 1, "draw")
    assert t.view(0)["kitten_at"] == 1


def test_favor_card_is_known_to_giver_and_receiver_only() -> None:
    """docs/rules/kittens.md#what-players-know"""
    t = table([["favor"], ["nope"], []], ["skip"])
    play(t, 0, "favor", target=1)
    result = t.apply(1, Give("nope"), t.now)
    assert isinstance(result, list)
    event = result[0]
    assert event.for_seat(2) == {"event": "given", "player": 1, "to": 0, "empty": False, "timeout": False}
    assert event.for_seat(0)["card"] == "nope" and event.for_seat(1)["card"] == "nope"  # type: ignore[index]


def test_queries_t_and_e_and_shift_d() -> None:
    """003 "Comandi rapidi": shift+D, T, E."""
    t = table([["skip", "nope"], ["defuse"], []], ["favor", EK], ["attack"], turn=1, turns_left=2)
    wait(t, 0)
    assert whose_turn(t.view(0)) == {"player": 1, "turns_left": 2, "phase": "turn"}
    assert counts(t.view(2)) == {"hands": [2, 1, 0], "deck": 2, "discard": 1}
    assert describe("skip")["text"].startswith("Ends one turn")
    assert describe_combo("five")["effect"] == "kittens.combo.five"


def test_e_shows_exploded_players_as_none() -> None:
    """003 "E": hand sizes of the players still in; an exploded player has none."""
    t = table([["skip"], [], []], ["favor"], alive=[True, False, True])
    assert counts(t.view(None))["hands"] == [1, None, 0]
