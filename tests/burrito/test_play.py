"""Simultaneous card play (000/001/002, DIGITAL.md "Simultaneous play")."""

from __future__ import annotations

from cardroom.games.burrito import GAME

from .helpers import kinds, ok, only, refused, table


def test_a_draw_takes_the_top_card_of_the_own_pile() -> None:
    """000: draw from your personal pile on your right."""
    t = table(3, piles=[["war", "goth_sloth"], [], []])
    event = only(ok(t, 0, {"do": "draw"}), "draw")
    assert t.hands[0] == ["war"] and t.summary()["piles"][0] == ["goth_sloth"]
    assert event == {"event": "draw", "player": 0, "from": "own", "card": "war", "at": 0}


def test_never_more_than_5_cards_in_hand() -> None:
    """000: never more than 5 cards in your hand, so always discard before you draw."""
    t = table(3, hands=[["goth_sloth"] * 5, [], []], piles=[["war"], [], []])
    assert refused(t, 0, {"do": "draw"}) == "hand_full"
    ok(t, 0, {"do": "discard", "card": "goth_sloth"})
    ok(t, 0, {"do": "draw"})
    assert len(t.hands[0]) == 5


def test_community_piles_only_when_the_own_pile_is_empty() -> None:
    """000: when your personal pile runs out, you may draw from a community pile."""
    t = table(3, piles=[["war"], [], []])
    assert refused(t, 0, {"do": "draw", "from": "community", "pile": 0}) == "use_own_pile"
    ok(t, 0, {"do": "draw"})
    event = only(ok(t, 0, {"do": "draw", "from": "community", "pile": 1}), "draw")
    assert event["from"] == "community" and event["pile"] == 1 and event["card"] == "goth_sloth"


def test_a_plain_draw_with_an_empty_own_pile_takes_the_first_non_empty_community_pile() -> None:
    """DIGITAL.md, docs/rules/burrito.md#plain-draw: a plain `draw` takes the first non-empty community pile."""
    t = table(3, community=[[], ["nacho_llama"]])
    event = only(ok(t, 0, {"do": "draw"}), "draw")
    assert (event["from"], event["pile"], event["card"]) == ("community", 1, "nacho_llama")


def test_back_to_the_own_pile_as_soon_as_it_has_cards() -> None:
    """000/002: you must draw from your own pile again as soon as it has cards."""
    t = table(3, hands=[[], [], ["salsa_yeti"]])
    ok(t, 0, {"do": "draw", "from": "community"})
    ok(t, 2, {"do": "discard", "card": "salsa_yeti"})  # onto seat 0's pile
    assert refused(t, 0, {"do": "draw", "from": "community"}) == "use_own_pile"
    assert only(ok(t, 0, {"do": "draw"}), "draw")["card"] == "salsa_yeti"


def test_two_players_may_draw_from_community_piles_at_any_time() -> None:
    """000 (VARIANTE PER DUE GIOCATORI): draw from community piles or your own at any time."""
    t = table(2, piles=[["war"], []])
    event = only(ok(t, 0, {"do": "draw", "from": "community", "pile": 0}), "draw")
    assert event["from"] == "community"


def test_nothing_left_to_draw() -> None:
    """DIGITAL.md: a draw needs a card: own pile, else a community pile."""
    t = table(3, community=[[], []])
    assert refused(t, 0, {"do": "draw"}) == "pile_empty"
    t = table(3, community=[[], ["war"]])
    assert refused(t, 0, {"do": "draw", "from": "community", "pile": 0}) == "pile_empty"


def test_a_discard_goes_face_down_onto_the_left_neighbours_pile() -> None:
    """000: discard face down onto the personal pile of the player on your left (seat i+1)."""
    t = table(3, hands=[[], [], ["war", "goth_sloth"]], piles=[["churro_bat"], [], []])
    events = ok(t, 2, {"do": "discard", "card": "goth_sloth"})
    assert t.summary()["piles"][0] == ["goth_sloth", "churro_bat"]
    assert t.hands[2] == ["war"]
    discard = events[-1]
    assert discard == {"event": "discard", "player": 2, "to": 0, "card": "goth_sloth", "at": 0}


def test_a_discard_is_seen_as_a_pass_never_which_card() -> None:
    """DIGITAL.md: a discard is seen as "X passed a card to Y", never which card."""
    t = table(3, hands=[["war"], [], []])
    [event] = t.apply(0, GAME.parse_action({"do": "discard", "card": "war"}, 3), 0)  # type: ignore[misc]
    assert event.for_seat(1) == {"event": "discard", "player": 0, "to": 1, "at": 0}
    assert event.for_seat(0) == {"event": "discard", "player": 0, "to": 1, "at": 0, "card": "war"}
    assert event.for_seat(None) == {"event": "discard", "player": 0, "to": 1, "at": 0}


def test_only_a_card_in_hand_can_be_discarded() -> None:
    """000: you discard cards from your hand, one at a time."""
    t = table(3, hands=[["war"], [], []])
    assert refused(t, 0, {"do": "discard", "card": "duel"}) == "not_in_hand"


def test_three_identical_normal_cards_make_a_set_worth_1() -> None:
    """000: a set of 3 identical cards goes face up to your score pile: +1 point."""
    t = table(3, hands=[["goth_sloth"] * 3 + ["war"], [], []])
    event = only(ok(t, 0, {"do": "set", "card": "goth_sloth"}), "set")
    assert event == {"event": "set", "player": 0, "card": "goth_sloth", "score": 1, "at": 0}
    assert t.score_piles[0] == ["goth_sloth"] * 3 and t.hands[0] == ["war"]
    assert t.scores() == [1, 0, 0]


def test_a_set_needs_three_identical_cards() -> None:
    """000: a set is 3 identical cards."""
    t = table(3, hands=[["goth_sloth", "goth_sloth", "salsa_yeti"], [], []])
    assert refused(t, 0, {"do": "set", "card": "goth_sloth"}) == "no_set"


def test_battle_cards_are_called_never_set() -> None:
    """DIGITAL.md, docs/rules/burrito.md#battle-cards-are-called-not-set: battle cards are called."""
    t = table(3, hands=[["war"] * 3, [], []])
    assert refused(t, 0, {"do": "set", "card": "war"}) == "battle_set"


def test_after_a_set_the_engine_draws_nothing_by_itself() -> None:
    """DIGITAL.md: after a set the player refills the hand by drawing; the engine draws nothing."""
    t = table(3, hands=[["goth_sloth"] * 3, [], []], piles=[["war"] * 3, [], []])
    assert kinds(ok(t, 0, {"do": "set", "card": "goth_sloth"})) == ["set"]
    assert t.hands[0] == [] and len(t.piles[0]) == 3


def test_there_are_no_turns() -> None:
    """000: there are no turns: everybody plays at the same time."""
    t = table(3, hands=[["war"], ["duel"], ["goth_sloth"]])
    for seat, card in ((2, "goth_sloth"), (0, "war"), (1, "duel")):
        ok(t, seat, {"do": "discard", "card": card}, 10)
    assert only(ok(t, 2, {"do": "draw"}, 10), "draw")["card"] == "duel"
