"""The arena in time: grab, throw, dodge, catch, hits and misses (000/002, DIGITAL.md "Fights")."""

from __future__ import annotations

import itertools

from cardroom.games.burrito import BurritoTable
from cardroom.games.burrito.fight import flight_time

from .helpers import in_brawl, kinds, ok, only, refused, run, table


def test_a_fighter_with_empty_hands_grabs_a_free_burrito() -> None:
    """DIGITAL.md: `grab`: a fighter with empty hands takes a free burrito, if one is free."""
    t = in_brawl(4)
    assert only(ok(t, 1, {"do": "grab"}, 100), "grab") == {"event": "grab", "player": 1, "free": 1, "at": 100}
    assert refused(t, 1, {"do": "grab"}) == "hands_full"


def test_nobody_holds_two_burritos_and_no_grab_without_a_free_one() -> None:
    """000: holding more than one burrito is not allowed."""
    t = in_brawl(4, options={"burritos": 2})
    ok(t, 1, {"do": "grab"}, 100)
    ok(t, 3, {"do": "grab"}, 100)
    ok(t, 3, {"do": "throw", "target": 0}, 200)  # at a bystander: lands at 1000
    assert refused(t, 3, {"do": "grab"}, 300) == "no_free_burrito"
    ok(t, 3, {"do": "grab"}, 1000)


def test_grabbing_outside_a_fight_is_refused_without_penalty() -> None:
    """DIGITAL.md: outside a fight, `grab` is refused without penalty."""
    t = table(3)
    assert refused(t, 0, {"do": "grab"}) == "no_fight"


def test_a_bystander_who_grabs_loses_the_fight() -> None:
    """000: grabbing a burrito by mistake when you are not in the fight loses the fight."""
    t = in_brawl(4)
    events = ok(t, 2, {"do": "grab"}, 100)
    assert kinds(events) == ["mistake", "fight_over"]
    assert only(events, "fight_over")["loser"] == 2 and t.bruises == [0, 0, 1, 0]


def test_a_bystander_grab_is_a_mistake_even_with_no_burrito_free() -> None:
    """DIGITAL.md: a bystander who grabs or catches has made the grab mistake, even with none free."""
    t = in_brawl(4)
    ok(t, 1, {"do": "grab"}, 10)
    ok(t, 3, {"do": "grab"}, 10)
    assert only(ok(t, 0, {"do": "catch"}, 20), "fight_over")["loser"] == 0


def test_a_first_throw_flies_800_ms_and_the_target_is_told_at_once() -> None:
    """DIGITAL.md: the burrito flies flight_ms; the target is told at once who throws at them."""
    t = in_brawl(4)
    ok(t, 1, {"do": "grab"}, 100)
    throw = only(ok(t, 1, {"do": "throw", "target": 3}, 200), "throw")
    assert (throw["thrower"], throw["target"], throw["lands_at"], throw["catch_from"]) == (1, 3, 1000, 700)


def test_each_further_throw_by_the_same_fighter_is_15_per_cent_faster_never_under_300() -> None:
    """DIGITAL.md, docs/rules/burrito.md#flight-times: each further throw flies faster, never under 300."""
    times = [flight_time(k, 800, 15, 300) for k in range(9)]
    assert times[:4] == [800, 680, 578, 491]
    assert times[-1] == 300 and all(a >= b for a, b in itertools.pairwise(times))
    t = in_brawl(4)
    ok(t, 1, {"do": "grab"}, 0)
    ok(t, 1, {"do": "throw", "target": 0}, 0)
    ok(t, 1, {"do": "grab"}, 800)
    assert only(ok(t, 1, {"do": "throw", "target": 0}, 800), "throw")["lands_at"] == 800 + 680


def test_the_speedup_counts_per_fighter() -> None:
    """DIGITAL.md: counting per fighter keeps a duel fair: two first throws fly equally fast."""
    t = in_brawl(4)
    ok(t, 1, {"do": "grab"}, 0)
    ok(t, 1, {"do": "throw", "target": 0}, 0)
    ok(t, 1, {"do": "grab"}, 800)
    ok(t, 3, {"do": "grab"}, 800)
    assert only(ok(t, 3, {"do": "throw", "target": 0}, 900), "throw")["lands_at"] == 1700


def test_no_reaction_the_burrito_hits_and_the_target_loses() -> None:
    """000: the first of the two players hit by a burrito loses the Brawl."""
    t = in_brawl(4)
    ok(t, 1, {"do": "grab"}, 100)
    ok(t, 1, {"do": "throw", "target": 3}, 200)
    events = run(t, 1000)
    assert kinds(events) == ["hit"]
    events = run(t, 1050)
    over = only(events, "fight_over")
    assert (over["loser"], over["reason"], over["bruise"]) == (3, "hit", True)
    assert t.bruises == [0, 0, 0, 1] and t.bruises_left == 5


def test_after_a_fight_burritos_go_back_to_the_table() -> None:
    """000: after a fight put the burritos back on the table."""
    t = table(4, hands=[["brawl_a"] * 3, [], ["brawl_b"] * 3, []])
    ok(t, 0, {"do": "call", "fight": "brawl"}, 0)
    ok(t, 1, {"do": "grab"}, 100)
    ok(t, 3, {"do": "grab"}, 100)
    ok(t, 1, {"do": "throw", "target": 3}, 200)
    run(t, 1100)
    assert t.fight is None and t.phase == "countdown"
    ok(t, 2, {"do": "call", "fight": "brawl"}, 4100)
    assert t.fight is not None and t.fight.free == 2 and t.fight.holding == [0, 0, 0, 0]


def test_a_dodge_makes_the_burrito_miss_and_it_can_be_grabbed_when_it_lands() -> None:
    """DIGITAL.md: `dodge` by the target during the flight: a miss; any fighter may grab it again."""
    t = in_brawl(4)
    ok(t, 1, {"do": "grab"}, 100)
    ok(t, 1, {"do": "throw", "target": 3}, 200)
    ok(t, 3, {"do": "dodge"}, 500)
    ok(t, 3, {"do": "grab"}, 600)
    assert refused(t, 1, {"do": "grab"}, 999) == "no_free_burrito"
    miss = only(run(t, 1000), "miss")
    assert (miss["reason"], miss["free"]) == ("dodged", 1)
    ok(t, 1, {"do": "grab"}, 1000)


def test_a_dodger_cannot_dodge_again_for_the_cooldown() -> None:
    """DIGITAL.md: a player who dodged cannot dodge again for dodge_cooldown_ms (1500)."""
    t = table(5, hands=[["war"] * 3, [], [], [], []], community=[["duel"] * 3, []])
    ok(t, 0, {"do": "call", "fight": "war"}, 0)
    ok(t, 1, {"do": "grab"}, 0)
    ok(t, 2, {"do": "grab"}, 0)
    ok(t, 1, {"do": "throw", "target": 3}, 0)
    ok(t, 3, {"do": "dodge"}, 100)
    ok(t, 2, {"do": "throw", "target": 3}, 900)
    assert refused(t, 3, {"do": "dodge"}, 1599) == "dodge_cooldown"
    ok(t, 3, {"do": "dodge"}, 1600)


def test_a_dodge_avoids_every_burrito_flying_at_the_dodger() -> None:
    """DIGITAL.md: a dodge avoids every burrito then flying at the dodger."""
    t = table(5, hands=[["war"] * 3, [], [], [], []], community=[["duel"] * 3, []])
    ok(t, 0, {"do": "call", "fight": "war"}, 0)
    for seat in (1, 2):
        ok(t, seat, {"do": "grab"}, 10)
        ok(t, seat, {"do": "throw", "target": 3}, 20)
    assert only(ok(t, 3, {"do": "dodge"}, 300), "dodge")["ids"] == [1, 2]
    assert kinds(run(t, 900)) == ["miss", "miss"]


def test_a_dodge_with_nothing_flying_at_you_is_refused() -> None:
    """DIGITAL.md: `dodge`, by the target during the flight."""
    t = in_brawl(4)
    assert refused(t, 1, {"do": "dodge"}, 10) == "not_targeted"


def test_a_bystander_who_dodges_is_refused() -> None:
    """DIGITAL.md: a bystander who dodges is refused."""
    t = in_brawl(4)
    assert refused(t, 2, {"do": "dodge"}, 10) == "not_fighting"


def test_a_catch_in_the_last_300_ms_makes_the_thrower_lose() -> None:
    """000: if a fighter catches a burrito thrown at them, the thrower loses the fight."""
    t = in_brawl(4)
    ok(t, 1, {"do": "grab"}, 0)
    ok(t, 1, {"do": "throw", "target": 3}, 0)  # lands at 800, catch window [500, 800)
    events = ok(t, 3, {"do": "catch"}, 500)
    assert kinds(events) == ["catch", "fight_over"]
    over = only(events, "fight_over")
    assert (over["loser"], over["reason"]) == (1, "caught") and t.bruises == [0, 1, 0, 0]


def test_a_catch_at_the_landing_moment_is_too_late() -> None:
    """DIGITAL.md: the catch window is [landing - 300, landing); at landing it is a hit."""
    t = in_brawl(4)
    ok(t, 1, {"do": "grab"}, 0)
    ok(t, 1, {"do": "throw", "target": 3}, 0)
    events = ok(t, 3, {"do": "catch"}, 799)
    assert kinds(events)[0] == "catch"
    t = in_brawl(4)
    ok(t, 1, {"do": "grab"}, 0)
    ok(t, 1, {"do": "throw", "target": 3}, 0)
    assert refused(t, 3, {"do": "catch"}, 800) == "fight_decided"  # the landing ran first: a hit
    assert only(run(t, 850), "fight_over")["loser"] == 3


def test_a_catch_too_early_fumbles_and_counts_as_a_hit_at_that_moment() -> None:
    """DIGITAL.md: a catch earlier than the window fumbles: it counts as a hit at the attempt."""
    t = in_brawl(4)
    ok(t, 1, {"do": "grab"}, 0)
    ok(t, 1, {"do": "throw", "target": 3}, 0)
    assert kinds(ok(t, 3, {"do": "catch"}, 499)) == ["fumble"]
    over = only(run(t, 549), "fight_over")
    assert (over["loser"], over["reason"]) == (3, "hit")


def test_a_fighter_may_catch_while_holding_a_burrito() -> None:
    """000: a fighter may catch a burrito while already holding another; the thrower loses."""
    t = in_brawl(4)
    ok(t, 1, {"do": "grab"}, 0)
    ok(t, 3, {"do": "grab"}, 0)
    ok(t, 1, {"do": "throw", "target": 3}, 0)
    assert only(ok(t, 3, {"do": "catch"}, 600), "fight_over")["loser"] == 1


def test_a_catch_takes_the_burrito_that_lands_first() -> None:
    """DIGITAL.md: a catch takes the one that lands first."""
    t = table(5, hands=[["war"] * 3, [], [], [], []], community=[["duel"] * 3, []])
    ok(t, 0, {"do": "call", "fight": "war"}, 0)
    ok(t, 1, {"do": "grab"}, 0)
    ok(t, 2, {"do": "grab"}, 0)
    ok(t, 1, {"do": "throw", "target": 3}, 0)
    ok(t, 2, {"do": "throw", "target": 3}, 100)
    catch = only(ok(t, 3, {"do": "catch"}, 600), "catch")
    assert catch["thrower"] == 1


def test_a_catch_with_nothing_flying_at_you_is_refused() -> None:
    """DIGITAL.md: `catch`, by the target during the flight."""
    t = in_brawl(4)
    assert refused(t, 3, {"do": "catch"}, 10) == "not_targeted"


def test_hitting_a_player_not_in_the_fight_is_a_miss() -> None:
    """000: hitting a player who is not in the fight counts as a miss."""
    t = in_brawl(4)
    ok(t, 1, {"do": "grab"}, 0)
    ok(t, 1, {"do": "throw", "target": 2}, 0)
    miss = only(run(t, 800), "miss")
    assert (miss["target"], miss["reason"]) == (2, "not_fighting")
    assert t.phase == "fight" and t.bruises == [0, 0, 0, 0]


def test_two_hits_within_tie_ms_are_settled_by_a_duel_of_the_two() -> None:
    """000: if two players are hit at the same time, they settle the tie with a Duel."""
    t = table(4, hands=[["war"] * 3, [], [], []], community=[["duel"] * 3, []])
    ok(t, 0, {"do": "call", "fight": "war"}, 0)
    ok(t, 1, {"do": "grab"}, 0)
    ok(t, 2, {"do": "grab"}, 0)
    ok(t, 1, {"do": "throw", "target": 2}, 0)
    ok(t, 2, {"do": "throw", "target": 3}, 49)
    events = run(t, 900)
    tie = only(events, "fight_tie")
    assert tie == {"event": "fight_tie", "players": [2, 3], "kind": "duel", "at": 850}
    assert t.fight is not None and t.fight.kind == "duel" and t.fight.fighters == [2, 3]
    assert t.fight.holding == [0, 0, 1, 1]


def test_hits_50_ms_apart_are_not_a_tie() -> None:
    """DIGITAL.md: hits within tie_ms (50) of the first hit tie; the first hit ends the fight."""
    t = table(4, hands=[["war"] * 3, [], [], []], community=[["duel"] * 3, []])
    ok(t, 0, {"do": "call", "fight": "war"}, 0)
    ok(t, 1, {"do": "grab"}, 0)
    ok(t, 2, {"do": "grab"}, 0)
    ok(t, 1, {"do": "throw", "target": 2}, 0)
    ok(t, 2, {"do": "throw", "target": 3}, 50)
    over = only(run(t, 900), "fight_over")
    assert over["loser"] == 2 and t.bruises == [0, 0, 1, 0]


def test_three_hits_within_tie_ms_are_settled_by_a_war_among_them() -> None:
    """DIGITAL.md: hits on three or more players within tie_ms: a War among themselves."""
    t = table(5, hands=[["war"] * 3, [], [], [], []], community=[["duel"] * 3, []], options={"burritos": 3})
    ok(t, 0, {"do": "call", "fight": "war"}, 0)
    for thrower, target in ((1, 2), (2, 3), (3, 4)):
        ok(t, thrower, {"do": "grab"}, 0)
        ok(t, thrower, {"do": "throw", "target": target}, 10)
    tie = only(run(t, 900), "fight_tie")
    assert tie["players"] == [2, 3, 4] and tie["kind"] == "war"
    assert t.fight is not None and t.fight.kind == "war" and t.fight.free == 3


def test_a_duel_starts_with_both_holding_a_burrito_and_a_countdown() -> None:
    """000: the two duelists each take a burrito and count "3, 2, 1, Burrito!" together."""
    t = table(4, hands=[["duel"] * 3, [], [], []])
    ok(t, 0, {"do": "call", "fight": "duel", "targets": [1, 2]}, 0)
    assert t.fight is not None and t.fight.holding == [0, 1, 1, 0] and t.fight.free == 0
    beats = [
        (e["beat"], e["at"]) for e in [{**e, "at": at} for at in (0, 1000, 2000, 3000) for e in run(t, at)]
    ]
    assert beats == [("3", 0), ("2", 1000), ("1", 2000), ("burrito", 3000)]


def test_a_throw_before_burrito_is_a_false_start_and_the_thrower_loses() -> None:
    """001 (mistakes list): turning too early in a duel gives a bruise at once."""
    t = table(4, hands=[["duel"] * 3, [], [], []])
    ok(t, 0, {"do": "call", "fight": "duel", "targets": [1, 2]}, 0)
    events = ok(t, 1, {"do": "throw", "target": 2}, 2999)
    assert kinds(events)[-2:] == ["false_start", "fight_over"]
    assert only(events, "fight_over")["reason"] == "false_start" and t.bruises == [0, 1, 0, 0]


def test_a_throw_at_the_exact_moment_of_burrito_is_legal() -> None:
    """DIGITAL.md: a throw at the exact moment of "Burrito!" is legal."""
    t = table(4, hands=[["duel"] * 3, [], [], []])
    ok(t, 0, {"do": "call", "fight": "duel", "targets": [1, 2]}, 0)
    events = ok(t, 1, {"do": "throw", "target": 2}, 3000)
    assert kinds(events)[-2:] == ["duel_beat", "throw"]


def test_stalling_loses_the_fight_for_who_acted_least_recently() -> None:
    """DIGITAL.md: a fight with no result after fight_timeout_ms is lost by who acted least recently."""
    t = in_brawl(4)
    ok(t, 3, {"do": "grab"}, 100)
    ok(t, 1, {"do": "grab"}, 200)
    assert kinds(run(t, 14999)) == []
    events = run(t, 15000)
    assert kinds(events)[:2] == ["stalling", "fight_over"]
    over = only(events, "fight_over")
    assert (over["loser"], over["reason"]) == (3, "stalling")


def test_stalling_among_the_equally_idle_hits_the_first_clockwise_from_the_callers_left() -> None:
    """DIGITAL.md, docs/rules/burrito.md#stalling: among the equally idle, first clockwise from caller's left."""
    t = table(4, hands=[[], [], ["brawl_b"] * 3, []])
    ok(t, 2, {"do": "call", "fight": "brawl"}, 0)  # fighters 1 and 3; caller's left is 3
    assert only(run(t, 15000), "fight_over")["loser"] == 3


def test_stalling_counts_from_the_duels_start_countdown_included() -> None:
    """DIGITAL.md: stalling counts from the fight's start (a duel's countdown included)."""
    t = table(4, hands=[["duel"] * 3, [], [], []])
    ok(t, 0, {"do": "call", "fight": "duel", "targets": [1, 2]}, 0)
    assert only(run(t, 15000), "fight_over")["reason"] == "stalling"


def test_with_two_players_the_callers_first_throw_goes_behind_the_back() -> None:
    """000 (two players): the player who played the battle set passes the burrito behind the back."""
    t = table(2, hands=[["war"] * 3, []])
    ok(t, 0, {"do": "call", "fight": "war"}, 0)
    ok(t, 0, {"do": "grab"}, 0)
    ok(t, 1, {"do": "grab"}, 0)
    events = ok(t, 0, {"do": "throw", "target": 1}, 100)
    assert events == [{"event": "behind_back", "player": 0, "leaves_at": 800, "target": 1, "at": 100}]
    assert refused(t, 1, {"do": "dodge"}, 500) == "not_targeted"
    throw = only(run(t, 800), "throw")
    assert throw["lands_at"] == 1600
    assert only(ok(t, 1, {"do": "throw", "target": 0}, 800), "throw")["lands_at"] == 1600  # not delayed


def test_with_two_players_both_callers_of_a_merged_war_pass_behind_the_back() -> None:
    """DIGITAL.md (with two players every caller passes behind the back),
    docs/rules/burrito.md#behind-the-back: in a merged War both callers' first throws are delayed."""
    t = table(2, hands=[["war"] * 3, ["brawl_a"] * 3])
    ok(t, 0, {"do": "call", "fight": "war"}, 0)
    assert only(ok(t, 1, {"do": "call", "fight": "brawl"}, 200), "fight_start")["callers"] == [0, 1]
    ok(t, 0, {"do": "grab"}, 200)
    ok(t, 1, {"do": "grab"}, 200)
    assert kinds(ok(t, 0, {"do": "throw", "target": 1}, 300)) == ["behind_back"]
    assert only(ok(t, 1, {"do": "throw", "target": 0}, 400), "behind_back")["leaves_at"] == 1100
    assert [(e["thrower"], e["lands_at"]) for e in run(t, 1100) if e["event"] == "throw"] == [
        (0, 1800),
        (1, 1900),
    ]


def test_with_two_players_a_duel_has_no_behind_the_back() -> None:
    """000 (two players): duels work as usual, no burrito behind the back."""
    t = table(2, hands=[["duel"] * 3, []])
    ok(t, 0, {"do": "call", "fight": "duel", "targets": [0, 1]}, 0)
    assert kinds(ok(t, 0, {"do": "throw", "target": 1}, 3000))[-1] == "throw"


def test_in_a_small_room_every_fighters_first_throw_goes_behind_the_back() -> None:
    """002 (kleine ruimtes), docs/rules/burrito.md#behind-the-back: every first throw is delayed."""
    t = in_brawl(4, options={"variants": ["small_room"]})
    ok(t, 1, {"do": "grab"}, 0)
    ok(t, 3, {"do": "grab"}, 0)
    assert kinds(ok(t, 1, {"do": "throw", "target": 3}, 0)) == ["behind_back"]
    assert kinds(ok(t, 3, {"do": "throw", "target": 1}, 0)) == ["behind_back"]
    assert kinds(run(t, 700)) == ["throw", "throw"]
    ok(t, 1, {"do": "dodge"}, 710)
    ok(t, 3, {"do": "dodge"}, 710)
    run(t, 1500)
    ok(t, 1, {"do": "grab"}, 1500)
    assert kinds(ok(t, 1, {"do": "throw", "target": 3}, 1500)) == ["throw"]


def test_in_a_small_room_duels_have_no_behind_the_back() -> None:
    """000 (VARIANTE STANZA PICCOLA): duels in a small room work as usual."""
    t = table(4, hands=[["duel"] * 3, [], [], []], options={"variants": ["small_room"]})
    ok(t, 0, {"do": "call", "fight": "duel", "targets": [1, 2]}, 0)
    assert kinds(ok(t, 1, {"do": "throw", "target": 2}, 3000))[-1] == "throw"


def test_only_one_bruise_per_fight() -> None:
    """000: only 1 bruise is given per fight."""
    t = in_brawl(4)
    ok(t, 1, {"do": "grab"}, 0)
    ok(t, 3, {"do": "grab"}, 0)
    ok(t, 1, {"do": "throw", "target": 3}, 0)
    ok(t, 3, {"do": "throw", "target": 1}, 100)
    run(t, 2000)
    assert sum(t.bruises) == 1 and t.bruises_left == 5


def test_the_first_hit_ends_the_fight() -> None:
    """000: after any hit the fight ends at once."""
    t = in_brawl(4)
    ok(t, 1, {"do": "grab"}, 0)
    ok(t, 3, {"do": "grab"}, 0)
    ok(t, 1, {"do": "throw", "target": 3}, 0)
    ok(t, 3, {"do": "throw", "target": 1}, 300)
    events = run(t, 2000)
    assert [e["event"] for e in events if e["event"] in ("hit", "fight_over")] == ["hit", "fight_over"]
    assert t.bruises == [0, 0, 0, 1]


def test_two_decks_put_four_burritos_on_the_table() -> None:
    """000 (2 MAZZI): with two decks use all 4 burritos."""
    t = in_brawl(8, options={"variants": ["two_decks"]})
    assert t.fight is not None and t.fight.free == 4


def test_after_a_hit_only_hits_in_the_tie_window_still_count() -> None:
    """docs/rules/burrito.md#hits-at-the-same-moment: during the tie window the player hit cannot act."""
    t = in_brawl(4)
    ok(t, 1, {"do": "grab"}, 0)
    ok(t, 3, {"do": "grab"}, 0)
    ok(t, 1, {"do": "throw", "target": 3}, 0)
    run(t, 800)
    assert refused(t, 3, {"do": "throw", "target": 1}, 820) == "fight_decided"
    assert only(run(t, 850), "fight_over")["loser"] == 3


def _war_with_two_burritos_in_the_air() -> BurritoTable:
    """Seat 0 called a War at 0: 1 throws at 2 (lands at 800), 3 throws at 1 at 20 (lands at 820)."""
    t = table(4, hands=[["war"] * 3, [], [], []])
    ok(t, 0, {"do": "call", "fight": "war"}, 0)
    ok(t, 1, {"do": "grab"}, 0)
    ok(t, 3, {"do": "grab"}, 0)
    ok(t, 1, {"do": "throw", "target": 2}, 0)
    ok(t, 3, {"do": "throw", "target": 1}, 20)
    assert only(run(t, 800), "hit")["player"] == 2  # the tie window runs until 850
    return t


def test_a_clean_catch_in_the_tie_window_is_no_hit_and_the_thrower_loses() -> None:
    """DIGITAL.md (the first hit decides the fight only when its tie window closes),
    docs/rules/burrito.md#hits-at-the-same-moment: a clean catch 10 ms after another fighter's
    hit is accepted and its thrower loses, as always: no duel."""
    t = _war_with_two_burritos_in_the_air()
    events = ok(t, 1, {"do": "catch"}, 810)
    assert kinds(events) == ["catch", "fight_over"]
    over = only(events, "fight_over")
    assert (over["loser"], over["reason"]) == (3, "caught") and t.bruises == [0, 0, 0, 1]
    assert "fight_tie" not in kinds(run(t, 2000))


def test_a_dodge_in_the_tie_window_makes_the_burrito_miss() -> None:
    """docs/rules/burrito.md#hits-at-the-same-moment: fighters not yet hit may still dodge."""
    t = _war_with_two_burritos_in_the_air()
    ok(t, 1, {"do": "dodge"}, 810)
    events = run(t, 850)
    assert only(events, "miss")["target"] == 1
    assert only(events, "fight_over")["loser"] == 2 and t.bruises == [0, 0, 1, 0]


def test_in_the_tie_window_the_player_hit_cannot_react_and_nobody_grabs_or_throws() -> None:
    """docs/rules/burrito.md#hits-at-the-same-moment: a player already hit cannot undo it; no new
    throw starts once the fight is decided."""
    t = table(4, hands=[["war"] * 3, [], [], []], options={"burritos": 3})
    ok(t, 0, {"do": "call", "fight": "war"}, 0)
    for seat in (1, 2, 3):
        ok(t, seat, {"do": "grab"}, 0)
    ok(t, 1, {"do": "throw", "target": 2}, 0)
    ok(t, 3, {"do": "throw", "target": 2}, 20)
    run(t, 800)
    assert refused(t, 2, {"do": "catch"}, 810) == "fight_decided"
    assert refused(t, 2, {"do": "dodge"}, 810) == "fight_decided"
    assert refused(t, 2, {"do": "throw", "target": 1}, 810) == "fight_decided"
    assert refused(t, 1, {"do": "grab"}, 810) == "fight_decided"
    assert refused(t, 0, {"do": "catch"}, 810) == "fight_decided"  # a bystander: no mistake now
    assert only(run(t, 850), "fight_over")["loser"] == 2 and t.bruises == [0, 0, 1, 0]
