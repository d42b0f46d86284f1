"""The Nope window (003 "No!", DIGITAL.md "Timing" and "Finer points")."""

from __future__ import annotations

from .helpers import kinds, ok, refused, table, wait

EK = "exploding_kitten"


def test_nope_window_runs_its_full_length_even_unopposed() -> None:
    """DIGITAL.md: every player may Nope within nope_window_ms; the window always runs its full length."""
    t = table([["skip"], []], ["favor"])
    events = ok(t, 0, "play", cards=["skip"])
    assert events[0]["until"] == 3000 and t.summary()["phase"] == "nope_window"
    assert wait(t, 2999) == [] and t.summary()["turn"] == 0
    events = wait(t, 1)
    assert kinds(events) == ["window_closed", "turn"] and t.summary()["turn"] == 1


def test_each_nope_restarts_the_window() -> None:
    """DIGITAL.md: each Nope restarts the window."""
    t = table([["skip", "nope"], ["nope"]], ["favor"])
    ok(t, 0, "play", cards=["skip"])
    events = ok(t, 1, "nope", at=2500)
    assert events[0] == {"event": "noped", "player": 1, "nopes": 1, "until": 5500}
    assert wait(t, 2999) == []
    assert wait(t, 1)[0]["event"] == "window_closed"


def test_nope_on_nope_lets_the_card_act() -> None:
    """003 "No!": a Nope can be Noped, and the first action then happens normally (even count)."""
    t = table([["skip", "nope"], ["nope"]], ["favor"])
    ok(t, 0, "play", cards=["skip"])
    ok(t, 1, "nope", at=100)
    ok(t, 0, "nope", at=200)
    events = wait(t, 3000)
    assert events[0]["nopes"] == 2 and events[0]["cancelled"] is False
    assert t.summary()["turn"] == 1


def test_odd_number_of_nopes_cancels() -> None:
    """DIGITAL.md: the action takes effect only when the window closes with an even number of Nopes."""
    t = table([["skip", "nope"], ["nope", "nope"]], ["favor"])
    ok(t, 0, "play", cards=["skip"])
    ok(t, 1, "nope")
    ok(t, 0, "nope")
    ok(t, 1, "nope")
    events = wait(t, 3000)
    assert events[0]["nopes"] == 3 and events[0]["cancelled"] is True
    assert t.summary()["turn"] == 0


def test_nobody_nopes_their_own_card() -> None:
    """DIGITAL.md: any player may Nope except the one who played the card being Noped."""
    t = table([["skip", "nope"], ["nope"]], ["favor"])
    ok(t, 0, "play", cards=["skip"])
    assert refused(t, 0, "nope") == "own_card"
    ok(t, 1, "nope")
    assert refused(t, 1, "nope") == "own_card"


def test_only_nopes_while_the_window_is_open() -> None:
    """DIGITAL.md: while a window is open only Nopes are accepted."""
    t = table([["skip", "favor"], ["nope"]], ["favor"])
    ok(t, 0, "play", cards=["skip"])
    assert refused(t, 0, "play", cards=["favor"], target=1) == "nope_window_open"
    assert refused(t, 0, "draw") == "nope_window_open"


def test_nothing_to_nope_outside_a_window() -> None:
    """DIGITAL.md: a Nope answers a card while its window is open."""
    t = table([["skip"], ["nope"]], ["favor"])
    assert refused(t, 1, "nope") == "nothing_to_nope"


def test_a_nope_needs_a_nope_card() -> None:
    """003 "No!": only a player holding a Nope card can Nope."""
    t = table([["skip"], ["favor"]], ["favor"])
    ok(t, 0, "play", cards=["skip"])
    assert refused(t, 1, "nope") == "not_in_hand"


def test_nope_by_a_third_player_may_nope_too() -> None:
    """003: you may play a Nope at any moment, even when it is not your turn."""
    t = table([["attack"], [], ["nope"]], ["favor"])
    ok(t, 0, "play", cards=["attack"])
    ok(t, 2, "nope")
    events = wait(t, 3000)
    assert events[0]["cancelled"] and "turns_returned" not in kinds(events)
    assert (t.summary()["turn"], t.summary()["turns_left"]) == (0, 1)


def test_a_noped_targeted_attack_leaves_the_attacker_exactly_two_turns() -> None:
    """003 "No!" (nota bene): the turns the target avoided are played by the attacker.

    docs/rules/kittens.md#a-noped-attack
    """
    t = table([["targeted_attack"], [], ["nope"]], ["favor"] * 4)
    ok(t, 0, "play", cards=["targeted_attack"], target=2)
    ok(t, 2, "nope")
    events = wait(t, 3000)
    assert {"event": "turns_returned", "player": 0, "target": 2, "turns": 2} in events
    assert (t.summary()["turn"], t.summary()["turns_left"]) == (0, 2)


def test_a_noped_attack_leaves_the_attacker_exactly_two_turns() -> None:
    """003 "No!" (nota bene), DIGITAL.md: when the Nope that stands is the target's, a Noped
    Attack leaves the attacker exactly 2 turns to play, in place of the turn they were playing.

    docs/rules/kittens.md#a-noped-attack
    """
    t = table([["attack"], ["nope"], []], ["favor"] * 4)
    ok(t, 0, "play", cards=["attack"])
    ok(t, 1, "nope")
    wait(t, 3000)
    assert (t.summary()["turn"], t.summary()["turns_left"]) == (0, 2)
    ok(t, 0, "draw")
    assert (t.summary()["turn"], t.summary()["turns_left"]) == (0, 1)
    ok(t, 0, "draw")
    assert (t.summary()["turn"], t.summary()["turns_left"]) == (1, 1)


def test_target_nope_of_triple_attack_sends_three_turns_back() -> None:
    """003 "No!" (nota bene) applied to Triple Attack: the 3 turns avoided, no more.

    docs/rules/kittens.md#a-noped-attack
    """
    t = table([["triple_attack"], ["nope"]], ["favor"] * 4)
    ok(t, 0, "play", cards=["triple_attack"])
    ok(t, 1, "nope")
    wait(t, 3000)
    assert (t.summary()["turn"], t.summary()["turns_left"]) == (0, 3)


def test_a_noped_attack_by_an_attacked_player_sends_back_all_the_turns_avoided() -> None:
    """docs/rules/kittens.md#a-noped-attack and #attack-stacking: attacked for two turns, an
    Attack on the first would have given the target 4; Noped by the target, they come back."""
    t = table([["attack"], ["nope"], []], ["favor"] * 4, turns_left=2)
    ok(t, 0, "play", cards=["attack"])
    ok(t, 1, "nope")
    events = wait(t, 3000)
    assert {"event": "turns_returned", "player": 0, "target": 1, "turns": 4} in events
    assert (t.summary()["turn"], t.summary()["turns_left"]) == (0, 4)


def test_the_nope_that_stands_is_the_last_one() -> None:
    """DIGITAL.md: the rule applies when the Nope that stands is the target's.

    docs/rules/kittens.md#a-noped-attack: with three Nopes the last one stands.
    """
    # The seats that Nope, in order, and (whose turn, turns left) once the window closes.
    for nopers, after in [((2, 0, 1), (0, 2)), ((1, 0, 2), (0, 1))]:
        t = table([["attack", "nope"], ["nope"], ["nope"]], ["favor"] * 4)
        ok(t, 0, "play", cards=["attack"])
        for seat in nopers:
            ok(t, seat, "nope")
        wait(t, 3000)
        assert (t.summary()["turn"], t.summary()["turns_left"]) == after, nopers


def test_combos_can_be_noped() -> None:
    """DIGITAL.md: action cards and combos can be Noped."""
    t = table([["black_cat", "black_cat"], ["nope", "skip"]], ["favor"])
    ok(t, 0, "play", cards=["black_cat", "black_cat"], target=1)
    ok(t, 1, "nope")
    events = wait(t, 3000)
    assert events[0]["cancelled"] and t.summary()["phase"] == "turn"
    assert t.summary()["hands"] == [[], ["skip"]]


def test_defuse_and_draw_open_no_window() -> None:
    """DIGITAL.md: never a Defuse, a kitten or a draw can be Noped."""
    t = table([["defuse"], ["nope"]], [EK, "skip"])
    ok(t, 0, "draw")
    assert refused(t, 1, "nope") == "nothing_to_nope"
    ok(t, 0, "defuse", position=0)
    assert t.summary()["phase"] == "turn"
    assert refused(t, 1, "nope") == "nothing_to_nope"


def test_an_exploded_player_cannot_nope() -> None:
    """DIGITAL.md: only players still in the game act."""
    t = table([["skip"], [], []], ["favor"], alive=[True, True, False])
    t.s.hands[2] = ["nope"]
    ok(t, 0, "play", cards=["skip"])
    assert refused(t, 2, "nope") == "exploded"
