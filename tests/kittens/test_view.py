"""What a player may know (docs/rules/kittens.md#what-players-know) and the keyboard queries of 003."""

from __future__ import annotations

from cardroom.games.kittens import KittensTable
from cardroom.games.kittens.actions import Defuse, Give
from cardroom.games.kittens.queries import counts, describe, describe_combo, whose_turn
from cardroom.protocol import JSON

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


def test_seen_future_survives_a_bottom_draw_and_is_dropped_by_another_seats_put_back() -> None:
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
    assert t.view(0)["future"] == [] and t.view(1)["future"] == []  # where it went is seat 1's secret


def _others_views(t: KittensTable, inserter: int) -> list[JSON]:
    return [t.view(seat) for seat in [*range(t.players), None] if seat != inserter]


def test_a_defuse_changes_the_others_views_alike_wherever_the_kitten_goes() -> None:
    """docs/rules/kittens.md#what-players-know (issue 12): seat 0 saw the top cards and put its
    own kitten back at 3; seat 1's secret Defuse must leave seat 0's view (and everyone else's)
    the same whatever the position."""
    seen: dict[int, list[JSON]] = {}
    kept: dict[int, JSON] = {}
    for position in range(6):
        t = table(
            [["see_the_future", "defuse"], ["defuse"], ["skip"]], [EK, EK, "skip", "favor", "attack", "nope"]
        )
        play(t, 0, "see_the_future")
        ok(t, 0, "draw")
        ok(t, 0, "defuse", position=3)
        ok(t, 1, "draw")
        assert t.view(0)["future"] == ["skip"] and t.view(0)["kitten_at"] == 2  # what there is to lose
        ok(t, 1, "defuse", position=position)
        seen[position] = _others_views(t, 1)
        kept[position] = t.view(1)
    assert all(views == seen[0] for views in seen.values())
    assert seen[0][0]["future"] == [] and seen[0][0]["kitten_at"] is None
    assert {kept[p]["kitten_at"] for p in kept} == set(range(6)), "the defuser knows where it is"


def test_a_sneak_draw_put_back_changes_the_others_views_alike_wherever_it_goes() -> None:
    """docs/rules/kittens.md#what-players-know (issue 12): the same for Sneak Draw's card."""
    seen: dict[int, list[JSON]] = {}
    for position in range(5):
        t = table([["see_the_future", "defuse"], ["sneak_draw"]], [EK, "skip", "favor", "attack", "nope"])
        play(t, 0, "see_the_future")
        ok(t, 0, "draw")
        ok(t, 0, "defuse", position=3)
        play(t, 1, "sneak_draw")
        assert t.view(0)["future"] == ["favor"] and t.view(0)["kitten_at"] == 2
        ok(t, 1, "insert", position=position)
        seen[position] = _others_views(t, 1)
        assert t.view(1)["future"] == (["skip"] if position == 0 else []), "it knows the top it made"
    assert all(views == seen[0] for views in seen.values())


def test_the_one_who_puts_a_card_back_keeps_what_it_knew_in_the_new_order() -> None:
    """docs/rules/kittens.md#what-players-know: the inserting seat knows the position."""
    t = table([["see_the_future", "sneak_draw"], []], ["skip", "favor", "attack", "nope"])
    play(t, 0, "see_the_future")
    play(t, 0, "sneak_draw")
    assert t.view(0)["future"] == ["favor", "attack"]
    ok(t, 0, "insert", position=1)
    assert t.view(0)["future"] == ["favor", "skip", "attack"]


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


def test_a_peek_at_one_field_says_what_the_whole_view_says() -> None:
    """Bots read single fields through `peek` (issue 16): in every state of 20 recorded games,
    every field of every seat's view peeked alone equals the one in the whole view."""
    from cardroom.games.kittens import GAME

    from .engine_record import fresh_table, load

    states = 0
    for game in load()[::10]:
        players = game["players"]
        t = fresh_table(players, game["seed"], game["hands"], game["deck"])
        peeks = [t.peek(seat) for seat in range(players)]
        for at, player, raw in [*game["moves"], [game["end"], None, None]]:
            t.advance(at)
            if raw is not None:
                t.apply(player, GAME.parse_action(raw, players), at)
            for seat in range(players):
                whole = t.view(seat)
                assert {key: peeks[seat](key) for key in whole} == whole
            states += 1
    assert states > 1_000
