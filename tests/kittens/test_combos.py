"""Combos (003 "Combo", DIGITAL.md finer points; docs/rules/kittens.md#combos)."""

from __future__ import annotations

from .helpers import ok, play, refused, table, wait


def test_pair_of_identical_cards_victim_chooses_the_card() -> None:
    """003 "Una coppia di carte identiche": the victim chooses which card to give."""
    t = table([["red_cat", "red_cat"], ["skip", "nope"]], ["favor"])
    events = play(t, 0, "red_cat", "red_cat", target=1)
    assert events[0]["combo"] == "pair"
    assert events[-1]["event"] == "choosing" and events[-1]["player"] == 1
    ok(t, 1, "give", card="nope")
    assert t.summary()["hands"] == [["nope"], ["skip"]]


def test_pair_timeout_gives_a_random_card() -> None:
    """DIGITAL.md: on choose_ms timeout a Favor or pair gives a random card."""
    t = table([["red_cat", "red_cat"], ["skip", "nope"]], ["favor"])
    play(t, 0, "red_cat", "red_cat", target=1)
    events = wait(t, 15000)
    assert events[0]["event"] == "given" and events[0]["timeout"] is True
    assert len(t.summary()["hands"][0]) == 1 and len(t.summary()["hands"][1]) == 1


def test_favor_or_pair_against_an_empty_hand_does_nothing() -> None:
    """DIGITAL.md: a Favor or a pair against an empty hand: nothing happens."""
    t = table([["favor", "tabby_cat", "tabby_cat"], []], ["skip"])
    events = play(t, 0, "favor", target=1)
    assert events[-1] == {"event": "given", "player": 1, "to": 0, "empty": True, "timeout": False}
    assert t.summary()["phase"] == "turn"
    play(t, 0, "tabby_cat", "tabby_cat", target=1)
    assert t.summary()["phase"] == "turn" and t.summary()["hands"][0] == []


def test_triple_names_a_card_and_gets_it_if_held() -> None:
    """003 "Una tripletta": ask for a card; if they hold it, they must give it."""
    t = table([["grey_cat"] * 3, ["defuse", "skip"]], ["favor"])
    events = play(t, 0, "grey_cat", "grey_cat", "grey_cat", target=1, name="defuse")
    assert {"event": "asked", "player": 0, "target": 1, "name": "defuse", "given": True} in events
    assert t.summary()["hands"] == [["defuse"], ["skip"]]


def test_triple_naming_a_card_not_held_gets_nothing() -> None:
    """003 "Una tripletta": if they do not have it, too bad for you."""
    t = table([["grey_cat"] * 3, ["skip"]], ["favor"])
    events = play(t, 0, "grey_cat", "grey_cat", "grey_cat", target=1, name="defuse")
    assert events[-1]["given"] is False and t.summary()["hands"] == [[], ["skip"]]


def test_five_different_cards_take_any_card_from_the_discard() -> None:
    """003 "Cinque carte diverse": take any card you like from the discard pile."""
    hand = ["black_cat", "white_cat", "skip", "favor", "attack"]
    t = table([hand, []], ["skip"], discard=["nope", "defuse", "shuffle"])
    events = play(t, 0, *hand, take="defuse")
    assert events[0]["combo"] == "five" and {"event": "took", "player": 0, "card": "defuse"} in events
    final = t.summary()
    assert final["hands"][0] == ["defuse"] and "defuse" not in final["discard"]


def test_five_different_needs_the_card_in_the_discard() -> None:
    """003: the card comes from the discard pile. docs/rules/kittens.md#combos"""
    hand = ["black_cat", "white_cat", "skip", "favor", "attack"]
    t = table([hand, []], ["skip"], discard=["nope"])
    assert refused(t, 0, "play", cards=hand, take="defuse") == "bad_take"
    assert refused(t, 0, "play", cards=hand, take="attack") == "bad_take"
    assert refused(t, 0, "play", cards=hand) == "bad_take"


def test_feral_cat_stands_in_for_any_cat() -> None:
    """003 (nota bene): the Feral Cat replaces a cat of any colour."""
    t = table([["red_cat", "feral_cat"], ["skip"]], ["favor"])
    events = play(t, 0, "red_cat", "feral_cat", target=1)
    assert events[0]["combo"] == "pair"
    t = table([["red_cat", "feral_cat", "feral_cat"], ["skip"]], ["favor"])
    events = play(t, 0, "red_cat", "feral_cat", "feral_cat", target=1, name="skip")
    assert events[0]["combo"] == "triple" and t.summary()["hands"][0] == ["skip"]


def test_two_or_three_feral_cats_are_a_pair_or_a_triple() -> None:
    """003 (nota bene), DIGITAL.md: two or three Feral Cats are a pair or a triple."""
    t = table([["feral_cat"] * 5, ["skip"]], ["favor"])
    assert play(t, 0, "feral_cat", "feral_cat", target=1)[0]["combo"] == "pair"
    ok(t, 1, "give", card="skip")
    assert play(t, 0, "feral_cat", "feral_cat", "feral_cat", target=1, name="skip")[0]["combo"] == "triple"


def test_feral_cat_never_with_non_cat_cards() -> None:
    """003 (nota bene), DIGITAL.md: never with non-cat cards."""
    t = table(
        [["feral_cat", "skip", "black_cat", "red_cat", "grey_cat"], ["skip"]], ["favor"], discard=["nope"]
    )
    assert refused(t, 0, "play", cards=["feral_cat", "skip"], target=1) == "bad_combo"
    assert refused(
        t, 0, "play", cards=["feral_cat", "skip", "black_cat", "red_cat", "grey_cat"], take="nope"
    ) == ("bad_combo")


def test_feral_cat_may_stand_in_for_a_missing_colour_in_five_cats() -> None:
    """DIGITAL.md: a Feral Cat may stand in for a missing colour in five different cats."""
    hand = ["black_cat", "white_cat", "grey_cat", "red_cat", "feral_cat"]
    t = table([hand, []], ["skip"], discard=["nope"])
    assert play(t, 0, *hand, take="nope")[0]["combo"] == "five"


def test_two_feral_cats_are_not_five_different() -> None:
    """docs/rules/kittens.md#combos: two Feral Cats are identical, not different."""
    hand = ["black_cat", "white_cat", "grey_cat", "feral_cat", "feral_cat"]
    t = table([hand, []], ["skip"], discard=["nope"])
    assert refused(t, 0, "play", cards=hand, take="nope") == "bad_combo"


def test_identical_non_cat_cards_make_pairs_and_triples() -> None:
    """DIGITAL.md: identical non-cat cards make pairs and triples too ("carte identiche")."""
    t = table([["skip", "skip", "attack", "attack", "attack"], ["nope", "favor"]], ["favor"])
    events = play(t, 0, "skip", "skip", target=1)
    assert events[0]["combo"] == "pair" and t.summary()["turn"] == 0
    ok(t, 1, "give", card="favor")
    play(t, 0, "attack", "attack", "attack", target=1, name="nope")
    assert (t.summary()["turn"], t.summary()["turns_left"]) == (0, 1)
    assert sorted(t.summary()["hands"][0]) == ["favor", "nope"]


def test_a_combos_cards_lose_their_own_action() -> None:
    """003 "Combo": the individual actions of the cards do not apply in a combo."""
    t = table([["attack", "attack"], ["nope"]], ["favor"])
    play(t, 0, "attack", "attack", target=1)
    assert t.summary()["turn"] == 0 and t.summary()["turns_left"] == 1


def test_mixed_cats_are_not_a_pair() -> None:
    """003: a pair is two identical cards."""
    t = table([["red_cat", "black_cat"], ["skip"]], ["favor"])
    assert refused(t, 0, "play", cards=["red_cat", "black_cat"], target=1) == "bad_combo"
    t = table([["red_cat"] * 4, ["skip"]], ["favor"])
    assert refused(t, 0, "play", cards=["red_cat"] * 4, target=1) == "bad_combo"


def test_combos_need_a_target_and_a_name() -> None:
    """003 "Combo": a pair or triple names a player, a triple also names a card."""
    t = table([["red_cat"] * 3, ["skip"]], ["favor"])
    assert refused(t, 0, "play", cards=["red_cat"] * 2) == "bad_target"
    assert refused(t, 0, "play", cards=["red_cat"] * 3, target=1) == "bad_name"
    assert refused(t, 0, "play", cards=["red_cat"] * 2, target=1, name="skip") == "bad_name"
