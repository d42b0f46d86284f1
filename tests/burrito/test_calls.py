"""Calling fights, who fights, and the mistakes (000/001/002, DIGITAL.md "Fights")."""

from __future__ import annotations

from .helpers import SPARE, brawl_table, in_brawl, kinds, ok, only, refused, run, table


def test_a_battle_set_is_worth_2_and_starts_a_fight() -> None:
    """000: a set of 3 battle cards is worth 2 points and ALSO starts a fight."""
    t = brawl_table(4)
    events = ok(t, 0, {"do": "call", "fight": "brawl", "card": "brawl_a"})
    assert kinds(events) == ["call", "fight_start"]
    assert t.scores()[0] == 2 and t.score_piles[0] == ["brawl_a"] * 3
    assert t.phase == "fight"


def test_a_brawl_is_fought_by_the_callers_left_and_right_neighbours() -> None:
    """000: the players on your right and on your left are in a Brawl; you are not."""
    t = brawl_table(5)
    start = only(ok(t, 0, {"do": "call", "fight": "brawl"}), "fight_start")
    assert start["fighters"] == [1, 4] and start["caller"] == 0 and start["kind"] == "brawl"


def test_a_brawl_with_three_players_is_fought_by_the_two_others() -> None:
    """DIGITAL.md: Brawl: the caller's neighbours (with 3 players: the two others)."""
    t = brawl_table(3)
    assert only(ok(t, 0, {"do": "call", "fight": "brawl"}), "fight_start")["fighters"] == [1, 2]


def test_a_brawl_set_is_one_colour() -> None:
    """000: you cannot make a set holding both brawl colours."""
    t = table(4, hands=[["brawl_a", "brawl_a", "brawl_b"], [], [], []])
    events = ok(t, 0, {"do": "call", "fight": "brawl"})
    assert kinds(events) == ["mistake", "fight_over"]
    assert t.hands[0] == ["brawl_a", "brawl_a", "brawl_b"]


def test_the_brawl_colour_is_the_one_named() -> None:
    """SCENARIOS.md: `card` says which brawl colour, else the colour held three times."""
    t = table(4, hands=[["brawl_b"] * 3, [], [], []])
    assert only(ok(t, 0, {"do": "call", "fight": "brawl"}), "call")["card"] == "brawl_b"
    t = table(4, hands=[["brawl_b"] * 3, [], [], []])
    assert kinds(ok(t, 0, {"do": "call", "fight": "brawl", "card": "brawl_a"})) == ["mistake", "fight_over"]


def test_a_war_is_fought_by_everyone_but_the_caller() -> None:
    """000: in a War every player at the table but you fights."""
    t = table(5, hands=[["war"] * 3, [], [], [], []], community=[["duel"] * 3, []])
    start = only(ok(t, 0, {"do": "call", "fight": "war"}), "fight_start")
    assert start["fighters"] == [1, 2, 3, 4] and start["kind"] == "war"


def test_a_duel_is_fought_by_the_two_named_players_the_caller_may_be_one() -> None:
    """000: choose any 2 players (yourself too, if you like) for a Duel."""
    t = table(4, hands=[["duel"] * 3, [], [], []])
    start = only(ok(t, 0, {"do": "call", "fight": "duel", "targets": [2, 0]}), "fight_start")
    assert start["fighters"] == [0, 2] and start["kind"] == "duel"


def test_with_two_players_every_fight_is_between_the_two() -> None:
    """000, docs/rules/burrito.md#two-players: all fights are between the 2 players whatever the kind."""
    for fight, card in (("brawl", "brawl_a"), ("war", "war")):
        t = table(2, hands=[[card] * 3, []])
        start = only(ok(t, 0, {"do": "call", "fight": fight}), "fight_start")
        assert start["fighters"] == [0, 1]


def test_a_duel_card_with_two_players_is_a_real_duel() -> None:
    """DIGITAL.md: a Duel card with two players is a real duel (countdown, both holding a burrito)."""
    t = table(2, hands=[["duel"] * 3, []])
    ok(t, 0, {"do": "call", "fight": "duel", "targets": [0, 1]})
    assert t.fight is not None and t.fight.holding == [1, 1] and t.fight.go_at == 3000


def test_calling_a_fight_without_the_three_cards_loses_it_at_once() -> None:
    """000, docs/rules/burrito.md#mistaken-calls: calling without the right set loses that fight."""
    t = table(4, hands=[["war", "war"], [], [], []])
    events = ok(t, 0, {"do": "call", "fight": "war"})
    over = only(events, "fight_over")
    assert (over["loser"], over["reason"], over["bruise"]) == (0, "mistake", True)
    assert t.bruises == [1, 0, 0, 0] and t.hands[0] == ["war", "war"] and t.score_piles[0] == []
    assert t.phase == "countdown"


def test_card_play_stops_for_everyone_during_a_fight() -> None:
    """001 (mistakes list): once a fight is called all drawing and discarding stops until it is decided."""
    t = in_brawl(4, piles=[["war"], ["war"], ["war"], []])
    assert refused(t, 2, {"do": "draw"}, 100) == "fight_in_progress"
    assert refused(t, 1, {"do": "discard", "card": "war"}) == "fight_in_progress"
    assert refused(t, 3, {"do": "set", "card": "war"}) == "fight_in_progress"


def test_fights_called_at_the_same_time_make_one_war_of_everybody() -> None:
    """000 (PIÙ COMBATTIMENTI INSIEME): fights called about together: all players fight a War."""
    t = table(4, hands=[["brawl_a"] * 3, [], ["duel"] * 3, []], community=SPARE)
    ok(t, 0, {"do": "call", "fight": "brawl"}, 0)
    events = ok(t, 2, {"do": "call", "fight": "duel", "targets": [1, 3]}, 499)
    start = only(events, "fight_start")
    assert start["kind"] == "war" and start["fighters"] == [0, 1, 2, 3] and start["callers"] == [0, 2]
    assert start["merged"] is True


def test_every_simultaneous_caller_scores_their_set() -> None:
    """DIGITAL.md: every valid caller scores their set."""
    t = table(4, hands=[["brawl_a"] * 3, ["war"] * 3, [], []], community=[["duel"] * 3, []])
    ok(t, 0, {"do": "call", "fight": "brawl"}, 0)
    ok(t, 1, {"do": "call", "fight": "war"}, 200)
    assert t.scores() == [2, 2, 0, 0]


def test_a_call_after_the_simultaneous_window_does_not_merge() -> None:
    """DIGITAL.md: the window is measured from the first call; a later call does not merge."""
    t = table(4, hands=[["brawl_a"] * 3, ["war"] * 3, [], []], community=[["duel"] * 3, []])
    ok(t, 0, {"do": "call", "fight": "brawl"}, 0)
    assert refused(t, 1, {"do": "call", "fight": "war"}, 500) == "fight_in_progress"
    assert t.hands[1] == ["war"] * 3


def test_a_mistaken_call_during_a_fight_loses_that_fight() -> None:
    """DIGITAL.md: a mistaken call during a fight loses that fight (it does not merge)."""
    t = in_brawl(4)
    events = ok(t, 2, {"do": "call", "fight": "war"}, 100)
    over = only(events, "fight_over")
    assert (over["loser"], over["reason"], over["kind"]) == (2, "mistake", "brawl")
    assert t.bruises == [0, 0, 1, 0]


def test_a_call_during_the_countdown_is_refused() -> None:
    """docs/rules/burrito.md#calls-during-a-countdown: nothing can be called before "Burrito!"."""
    t = table(4, hands=[["war", "war"], ["war"] * 3, [], []])
    ok(t, 0, {"do": "call", "fight": "war"}, 0)  # a mistake: countdown follows
    assert refused(t, 1, {"do": "call", "fight": "war"}, 100) == "countdown"
    assert refused(t, 2, {"do": "call", "fight": "war"}) == "countdown"
    assert t.bruises == [1, 0, 0, 0]


def test_after_a_fight_the_callers_countdown_resumes_play() -> None:
    """000: after a fight the player who started it says "3, 2, 1, Burrito!" to resume play."""
    t = table(4, hands=[["war", "war"], [], [], []], piles=[[], ["goth_sloth"], [], []])
    ok(t, 0, {"do": "call", "fight": "war"}, 0)
    beats = [(e["beat"], e["caller"]) for e in run(t, 3000) if e["event"] == "countdown"]
    assert beats == [("3", 0), ("2", 0), ("1", 0), ("burrito", 0)]
    assert t.phase == "play"
    ok(t, 1, {"do": "draw"}, 3000)


def test_a_merged_war_goes_on_from_the_arena_as_it_stands() -> None:
    """docs/rules/burrito.md#simultaneous-calls: burritos held stay held, flights keep flying."""
    t = table(4, hands=[["brawl_a"] * 3, [], ["war"] * 3, []], community=[["duel"] * 3, []])
    ok(t, 0, {"do": "call", "fight": "brawl"}, 0)
    ok(t, 1, {"do": "grab"}, 100)
    ok(t, 1, {"do": "throw", "target": 2}, 200)  # at a bystander, for now
    ok(t, 2, {"do": "call", "fight": "war"}, 300)
    assert t.fight is not None and t.fight.fighters == [0, 1, 2, 3] and len(t.fight.flights) == 1
    assert only(run(t, 1000), "hit")["player"] == 2
