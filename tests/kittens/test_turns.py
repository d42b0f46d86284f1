"""Turns, attacks, timers and the end of the game (003 "Turno di gioco", DIGITAL.md)."""

from __future__ import annotations

from cardroom.games.kittens.actions import DRAW

from .helpers import kinds, ok, play, refused, table, wait

EK = "exploding_kitten"


def test_play_any_number_of_cards_then_draw_to_end_the_turn() -> None:
    """003: play as many cards as you like, in any order, then draw one card and the turn ends."""
    t = table([["see_the_future", "shuffle", "favor"], ["skip"]], ["nope", "skip", "attack", "reverse"])
    play(t, 0, "see_the_future")
    play(t, 0, "shuffle")
    assert t.summary()["turn"] == 0
    events = ok(t, 0, "draw")
    assert kinds(events) == ["drew", "turn"] and t.summary()["turn"] == 1
    assert len(t.summary()["hands"][0]) == 2


def test_drawn_card_is_known_only_to_the_drawer() -> None:
    """docs/rules/kittens.md#what-players-know: the drawn card is secret to the drawer."""
    t = table([[], []], ["nope"])
    events = t.apply(0, DRAW, 0)
    assert isinstance(events, list)
    assert events[0].for_seat(1) == {"event": "drew", "player": 0, "from": "top", "forced": False}
    assert events[0].for_seat(0) == {
        "event": "drew",
        "player": 0,
        "from": "top",
        "forced": False,
        "card": "nope",
    }


def test_only_the_player_whose_turn_it_is_plays_or_draws() -> None:
    """003 "Turno di gioco": cards are played and drawn on your own turn."""
    t = table([["skip"], ["skip"]], ["nope"])
    assert refused(t, 1, "play", cards=["skip"]) == "not_your_turn"
    assert refused(t, 1, "draw") == "not_your_turn"
    assert refused(t, 0, "play", cards=["attack"]) == "not_in_hand"


def test_attacks_stack() -> None:
    """DIGITAL.md: an attacked player who attacks passes on their remaining turns plus the new ones.

    docs/rules/kittens.md#attack-stacking
    """
    t = table([["attack"], ["attack"], []], ["skip"] * 6)
    play(t, 0, "attack")
    assert (t.summary()["turn"], t.summary()["turns_left"]) == (1, 2)
    play(t, 1, "attack")
    assert (t.summary()["turn"], t.summary()["turns_left"]) == (2, 4)


def test_attack_on_the_last_of_two_turns_passes_three() -> None:
    """docs/rules/kittens.md#attack-stacking: the remaining turns count the current one."""
    t = table([["attack"], ["attack"], []], ["skip"] * 6)
    play(t, 0, "attack")
    ok(t, 1, "draw")
    assert (t.summary()["turn"], t.summary()["turns_left"]) == (1, 1)
    play(t, 1, "attack")
    assert (t.summary()["turn"], t.summary()["turns_left"]) == (2, 3)


def test_an_unattacked_player_who_attacks_gives_two() -> None:
    """003 "Attacca": the next player plays two turns (the attacker's own turn is not passed on)."""
    t = table([["attack"], [], []], ["skip"] * 3)
    play(t, 0, "attack")
    assert t.summary()["turns_left"] == 2


def test_defuse_counts_as_the_draw_and_ends_one_turn() -> None:
    """DIGITAL.md: a Defuse ends one turn (it counts as the draw)."""
    t = table([["defuse"], []], [EK, "skip", "skip"], turns_left=2)
    ok(t, 0, "draw")
    ok(t, 0, "defuse", position=2)
    assert (t.summary()["turn"], t.summary()["turns_left"]) == (0, 1)


def test_kitten_position_from_top_to_deck_size() -> None:
    """DIGITAL.md: a kitten put back goes to a position from 0 (top) to the deck's size."""
    t = table([["defuse"], []], [EK, "skip"])
    ok(t, 0, "draw")
    assert refused(t, 0, "defuse", position=2) == "bad_position"
    ok(t, 0, "defuse", position=1)
    assert t.summary()["deck"] == ["skip", EK]


def test_only_the_defuser_acts_while_defusing() -> None:
    """003 "Gattino esplosivo": the drawer must defuse; nothing else happens meanwhile."""
    t = table([["defuse", "skip"], ["defuse", "nope"]], [EK, "skip"])
    ok(t, 0, "draw")
    assert refused(t, 0, "play", cards=["skip"]) == "must_defuse"
    assert refused(t, 0, "draw") == "must_defuse"
    assert refused(t, 1, "defuse", position=0) == "not_your_turn"
    assert refused(t, 1, "nope") == "nothing_to_nope"
    assert refused(t, 1, "defuse", position=0) == "not_your_turn"


def test_defuse_without_a_kitten_is_refused() -> None:
    """003 "Disinnesco": a Defuse answers a kitten you drew."""
    t = table([["defuse"], []], ["skip"])
    assert refused(t, 0, "defuse", position=0) == "nothing_to_defuse"


def test_without_defuse_the_kitten_explodes_after_explode_ms() -> None:
    """docs/rules/kittens.md#exploding: a player without a Defuse explodes after explode_ms
    (nothing they can do), not after the defuse_ms a Defuse holder gets."""
    t = table([[], [], []], [EK, "skip"], options={"defuse_ms": 4000, "explode_ms": 1500})
    events = ok(t, 0, "draw")
    assert [e["until"] for e in events if e["event"] == "defusing"] == [1500]
    assert refused(t, 0, "defuse", position=0) == "not_in_hand"
    assert wait(t, 1499) == []
    assert wait(t, 1)[0]["event"] == "exploded"


def test_a_defuse_too_late_explodes() -> None:
    """003: if you are not quick enough to play it, the kitten explodes."""
    t = table([["defuse"], [], []], [EK, "skip"])
    ok(t, 0, "draw")
    events = wait(t, 10000)
    assert events[0] == {"event": "exploded", "player": 0, "discarded": ["defuse"]}
    assert refused(t, 0, "defuse", position=0) == "exploded"


def test_exploded_player_hand_goes_to_discard() -> None:
    """docs/rules/kittens.md#exploding: the hand goes face up on the discard pile."""
    t = table([["skip", "favor"], [], []], [EK])
    ok(t, 0, "draw")
    wait(t, 10000)
    final = t.summary()
    assert final["hands"][0] == [] and final["discard"] == ["favor", "skip"]


def test_explosion_ends_all_remaining_turns() -> None:
    """docs/rules/kittens.md#exploding: the exploded player's remaining turns vanish."""
    t = table([[], [], []], [EK, "skip"], turns_left=2)
    ok(t, 0, "draw")
    wait(t, 10000)
    assert (t.summary()["turn"], t.summary()["turns_left"]) == (1, 1)


def test_last_player_standing_wins() -> None:
    """003 "Obiettivo": the last player who has not exploded wins."""
    t = table([[], []], [EK, "skip"])
    ok(t, 0, "draw")
    events = wait(t, 10000)
    assert kinds(events) == ["exploded", "game_over"] and events[1] == {"event": "game_over", "winner": 1}
    final = t.summary()
    assert final["phase"] == "game_over" and final["winner"] == 1 and t.over and t.next_deadline() is None
    assert refused(t, 1, "draw") == "game_over"


def test_turn_timer_draws_for_an_idle_player() -> None:
    """DIGITAL.md: turn_ms for a player who does nothing; then they draw."""
    t = table([[], []], ["skip", "nope"], options={"turn_ms": 5000})
    assert t.next_deadline() == 5000
    events = wait(t, 5000)
    assert events[0]["event"] == "drew" and events[0]["forced"] is True and t.summary()["turn"] == 1


def test_turn_timer_restarts_when_the_turn_comes_back() -> None:
    """DIGITAL.md: the turn timer restarts whenever the turn comes back to the player.

    docs/rules/kittens.md#timers
    """
    t = table([["skip", "skip"], []], ["nope"], options={"turn_ms": 5000}, turns_left=2)
    ok(t, 0, "play", cards=["skip"], at=4000)
    wait(t, 3000)
    assert t.now == 7000 and t.next_deadline() == 12000


def test_reverse_direction_is_followed_by_attacks() -> None:
    """003 "Inversione": play goes the other way; the next player is then on the other side."""
    t = table([["reverse", "attack"], [], []], ["skip"] * 4, turns_left=2)
    play(t, 0, "reverse")
    play(t, 0, "attack")
    assert (t.summary()["turn"], t.summary()["turns_left"]) == (2, 3)


def test_nobody_targets_themself_or_an_exploded_player() -> None:
    """DIGITAL.md: nobody targets themself or a player who exploded."""
    t = table([["favor", "targeted_attack"], [], []], ["skip"], alive=[True, True, False])
    assert refused(t, 0, "play", cards=["favor"], target=0) == "bad_target"
    assert refused(t, 0, "play", cards=["targeted_attack"], target=2) == "bad_target"
    assert refused(t, 0, "play", cards=["favor"]) == "bad_target"
    assert refused(t, 0, "play", cards=["skip"], target=1) == "not_in_hand"


def test_exploded_players_are_skipped() -> None:
    """003 "Obiettivo": a player who exploded is out and plays no more turns."""
    t = table([["skip"], [], []], ["skip"], alive=[True, False, True])
    play(t, 0, "skip")
    assert t.summary()["turn"] == 2


def test_drawing_from_an_empty_deck_ends_the_turn() -> None:
    """docs/rules/kittens.md#an-empty-deck"""
    t = table([[], []], [])
    events = ok(t, 0, "draw")
    assert kinds(events) == ["empty_deck", "turn"]


def test_choices_are_refused_when_nothing_is_to_choose() -> None:
    """DIGITAL.md: give, reorder and insert answer a choice the table asked for."""
    t = table([["skip"], ["nope"]], ["skip"])
    assert refused(t, 1, "give", card="nope") == "not_choosing"
    assert refused(t, 0, "reorder", order=[0]) == "not_choosing"
    assert refused(t, 0, "insert", position=0) == "not_choosing"


def test_reorder_timeout_keeps_the_order_and_bad_orders_are_refused() -> None:
    """DIGITAL.md: on timeout a reorder keeps the order."""
    t = table([["alter_the_future"], []], ["skip", "favor", "nope", "attack"])
    play(t, 0, "alter_the_future")
    assert refused(t, 0, "reorder", order=[0, 0, 1]) == "bad_order"
    assert refused(t, 0, "reorder", order=[0, 1]) == "bad_order"
    assert refused(t, 1, "reorder", order=[0, 1, 2]) == "not_choosing"
    assert refused(t, 0, "insert", position=0) == "not_choosing"
    events = wait(t, 15000)
    assert events[0]["event"] == "reordered" and events[0]["timeout"] is True
    assert t.summary()["deck"] == ["skip", "favor", "nope", "attack"]


def test_give_must_be_a_held_card_by_the_chooser() -> None:
    """003 "Favore": the named player gives one of their own cards."""
    t = table([["favor"], ["skip"], ["nope"]], ["skip"])
    play(t, 0, "favor", target=1)
    assert refused(t, 1, "give", card="nope") == "not_in_hand"
    assert refused(t, 2, "give", card="nope") == "not_choosing"
    assert refused(t, 0, "draw") == "choice_pending"


def test_a_seat_that_does_not_exist_is_refused_and_changes_nothing() -> None:
    """SCENARIOS.md: a player who does not exist cannot act."""
    from cardroom.games.kittens.actions import DRAW

    t = table([["skip"], []], ["favor"])
    before = t.snapshot()
    result = t.apply(5, DRAW, 0)
    assert not isinstance(result, list) and result.code == "no_such_player" and t.snapshot() == before


def test_timer_events_carry_the_moment_the_timer_ran() -> None:
    """DIGITAL.md "All times are server time": events a timer caused say when it ran."""
    t = table([["skip"], []], ["favor"])
    ok(t, 0, "play", cards=["skip"], at=250)
    events = [e.full() for e in t.advance(10_000)]
    assert [e["at"] for e in events] == [3250, 3250]


def test_places_go_to_the_winner_then_the_last_to_explode() -> None:
    """docs/rules/kittens.md#places: winner first, then in reverse order of exploding."""
    from cardroom.games.kittens import GAME

    t = table([[], [], []], [EK, EK, "nope"])
    ok(t, 0, "draw")  # seat 0 draws a kitten and has no Defuse: it goes off when the timer ends
    wait(t, 60_000)
    ok(t, 1, "draw", at=60_000)  # and so does seat 1: seat 2 is the last one standing
    wait(t, 120_000)
    assert t.over and t.winner == 2
    assert GAME.standings(t) == [3, 2, 1]
