"""Round end, scoring, ties, the badge and the game's winner (000/002, DIGITAL.md "Round and game")."""

from __future__ import annotations

import pytest

from cardroom.games.burrito import BurritoTable
from cardroom.games.burrito.cards import DECK_SIZE
from cardroom.protocol import JSON, InvalidAction

from .helpers import kinds, ok, only, refused, run, table


def _lose_a_call(t: BurritoTable, seat: int, at: int) -> list[JSON]:
    """`seat` calls a War without the cards: the quickest way to hand out a bruise."""
    return ok(t, seat, {"do": "call", "fight": "war"}, at)


def test_the_round_ends_when_the_last_bruise_is_given() -> None:
    """000: the round ends when the last bruise is given."""
    t = table(3, bruises=[2, 2, 1], score_piles=[["goth_sloth"] * 3, [], []])
    events = _lose_a_call(t, 2, 0)
    over = only(events, "round_over")
    assert over["reason"] == "bruises" and t.bruises_left == 0
    assert over["scores"] == [-1, -2, -2] and over["winner"] == 0


def test_the_round_ends_when_no_battle_set_can_be_made_any_more() -> None:
    """docs/rules/burrito.md#round-end-without-battle-sets: after a fight, fewer than 3 of every
    battle kind outside score piles ends the round."""
    t = table(
        3,
        hands=[["war"] * 3, ["brawl_a", "brawl_a", "brawl_b", "brawl_b"], []],
        community=[["duel", "duel"], []],
    )
    ok(t, 0, {"do": "call", "fight": "war"}, 0)
    ok(t, 1, {"do": "grab"}, 0)
    ok(t, 1, {"do": "throw", "target": 2}, 0)
    events = run(t, 900)
    over = only(events, "round_over")
    assert over["reason"] == "no_battle_sets" and t.bruises_left == 5


def test_brawl_colours_count_apart_for_the_round_end() -> None:
    """DIGITAL.md: the two brawl colours are counted apart: 2 + 2 is no battle set."""
    t = table(3, hands=[["brawl_a", "brawl_a", "brawl_b", "brawl_b"], [], []], community=[[], []])
    assert not t.battle_set_possible()
    t = table(3, hands=[["brawl_a", "brawl_a"], [], ["brawl_a"]], community=[[], []])
    assert t.battle_set_possible()


def test_scores_are_plus_1_a_set_plus_2_a_battle_set_minus_1_a_bruise() -> None:
    """000: normal set +1, battle set +2, bruise -1."""
    t = table(
        3,
        score_piles=[["goth_sloth"] * 3 + ["war"] * 3, ["duel"] * 3, []],
        bruises=[1, 2, 0],
    )
    assert t.scores() == [2, 0, 0]


def test_the_round_winner_takes_the_badge_and_round_two_starts_fresh() -> None:
    """000, docs/rules/burrito.md#between-rounds: the winner takes the badge; round 2 is set up afresh."""
    t = table(3, bruises=[1, 2, 2], options={"between_rounds_ms": 5000})
    events = _lose_a_call(t, 1, 0)
    assert kinds(events)[-3:] == ["round_over", "round_won", "badge"]
    assert t.badge == 0 and t.phase == "round_over" and t.summary()["phase"] == "round_over"
    assert refused(t, 0, {"do": "draw"}, 4999) == "round_over"
    events = run(t, 5000)
    assert kinds(events)[0] == "round_start" and t.round == 2 and t.phase == "countdown"
    assert t.bruises == [0, 0, 0] and t.bruises_left == 6 and t.badge == 0
    assert [len(h) for h in t.hands] == [5, 5, 5] and [len(p) for p in t.piles] == [10, 10, 10]
    cards = sum(len(x) for group in (t.hands, t.piles, t.community, t.score_piles) for x in group)
    assert cards == DECK_SIZE
    run(t, 8000)
    assert t.phase == "play"


def test_the_badge_holder_who_wins_round_two_wins_the_game() -> None:
    """000: if the badge holder wins the second round, they win the game."""
    t = table(3, round=2, badge=0, bruises=[0, 2, 3])
    events = _lose_a_call(t, 2, 0)
    assert kinds(events)[-2:] == ["round_won", "game_over"]
    assert t.winner == 0 and t.phase == "game_over" and t.over


def test_another_round_two_winner_duels_the_badge_holder_for_the_game() -> None:
    """000: if someone else wins round 2, they duel the badge holder to decide the game."""
    t = table(3, round=2, badge=1, bruises=[0, 2, 3])
    events = _lose_a_call(t, 2, 0)
    start = only(events, "fight_start")
    assert (start["kind"], start["fighters"], start["tiebreak"]) == ("duel", [0, 1], "badge")
    ok(t, 1, {"do": "throw", "target": 0}, 3000)
    events = run(t, 3900)
    assert only(events, "fight_over")["bruise"] is False
    assert only(events, "game_over")["winner"] == 1 and t.winner == 1
    assert t.bruises == [0, 2, 4]


def test_two_players_tied_at_the_round_end_duel() -> None:
    """000: if 2 players tie at the end of a round they settle it with a Duel."""
    t = table(3, bruises=[1, 1, 3])
    events = _lose_a_call(t, 2, 0)
    assert only(events, "round_over")["tied"] == [0, 1]
    start = only(events, "fight_start")
    assert (start["kind"], start["fighters"], start["tiebreak"]) == ("duel", [0, 1], "round_tie")
    ok(t, 0, {"do": "throw", "target": 1}, 3000)
    events = run(t, 3850)
    assert only(events, "round_won")["player"] == 0 and t.badge == 0


def test_tie_break_fights_give_no_bruise() -> None:
    """DIGITAL.md: tie-break fights (round ties, the badge duel) give no bruise."""
    t = table(3, bruises=[1, 1, 3])
    _lose_a_call(t, 2, 0)
    ok(t, 0, {"do": "throw", "target": 1}, 3000)
    run(t, 3850)
    assert t.bruises == [1, 1, 4]


def test_in_a_tie_break_a_bystanders_grab_is_simply_refused() -> None:
    """DIGITAL.md: in tie-break fights a bystander's grab is simply refused."""
    t = table(3, bruises=[1, 1, 3])
    _lose_a_call(t, 2, 0)
    assert refused(t, 2, {"do": "grab"}, 100) == "not_fighting"
    assert refused(t, 2, {"do": "catch"}) == "not_fighting"


def test_three_tied_players_fight_an_elimination_war_until_one_is_left() -> None:
    """000, docs/rules/burrito.md#round-ties: 3 or more tied fight a War; a hit player is out until 1 is left."""
    t = table(4, bruises=[1, 1, 1, 2])
    events = _lose_a_call(t, 3, 0)
    assert only(events, "round_over")["tied"] == [0, 1, 2]
    start = only(events, "fight_start")
    assert (start["kind"], start["fighters"], start["tiebreak"]) == ("war", [0, 1, 2], "round_tie")
    ok(t, 0, {"do": "grab"}, 0)
    ok(t, 0, {"do": "throw", "target": 1}, 0)
    events = run(t, 900)
    assert only(events, "eliminated")["player"] == 1
    assert t.fight is not None and t.fight.fighters == [0, 2]
    assert refused(t, 1, {"do": "grab"}, 900) == "not_fighting"
    ok(t, 2, {"do": "grab"}, 900)
    ok(t, 2, {"do": "throw", "target": 0}, 900)
    events = run(t, 1800)
    assert only(events, "round_won")["player"] == 2 and t.badge == 2
    assert t.bruises == [1, 1, 1, 3]


def test_after_the_game_is_over_nothing_more_is_played() -> None:
    """000: the game is played in 2 rounds; then it has a winner."""
    t = table(3, round=2, badge=0, bruises=[0, 2, 3], hands=[["goth_sloth"], [], []])
    _lose_a_call(t, 2, 0)
    assert refused(t, 0, {"do": "discard", "card": "goth_sloth"}, 10) == "game_over"
    assert refused(t, 1, {"do": "grab"}) == "game_over"
    assert t.summary()["winner"] == 0 and t.summary()["phase"] == "game_over"


def test_players_hit_together_in_an_elimination_war_are_all_out() -> None:
    """docs/rules/burrito.md#round-ties: players hit together are all out unless none would be left."""
    t = table(5, bruises=[1, 1, 1, 1, 1])
    _lose_a_call(t, 4, 0)  # 0..3 tie at -1
    assert t.fight is not None and t.fight.fighters == [0, 1, 2, 3]
    ok(t, 0, {"do": "grab"}, 0)
    ok(t, 1, {"do": "grab"}, 0)
    ok(t, 0, {"do": "throw", "target": 2}, 0)
    ok(t, 1, {"do": "throw", "target": 3}, 10)
    run(t, 900)
    assert t.fight is not None and t.fight.fighters == [0, 1]


def test_players_hit_together_who_are_the_last_ones_settle_it_among_themselves() -> None:
    """docs/rules/burrito.md#round-ties: if nobody would be left, those hit together fight again."""
    t = table(4, bruises=[1, 1, 1, 2], options={"burritos": 3})
    _lose_a_call(t, 3, 0)  # 0, 1 and 2 tie at -1
    for thrower, target in ((0, 1), (1, 2), (2, 0)):
        ok(t, thrower, {"do": "grab"}, 0)
        ok(t, thrower, {"do": "throw", "target": target}, 10)
    tie = only(run(t, 900), "fight_tie")
    assert tie["players"] == [0, 1, 2] and tie["kind"] == "war"
    assert t.fight is not None and t.fight.fighters == [0, 1, 2] and t.fight.tiebreak == "round_tie"


def test_a_round_two_without_a_badge_holder_is_won_outright() -> None:
    """docs/rules/burrito.md#the-badge: a scenario in round 2 with no badge: its winner wins."""
    t = table(3, round=2, bruises=[0, 2, 3])
    _lose_a_call(t, 2, 0)
    assert t.winner == 0 and t.phase == "game_over"


def test_a_round_two_tie_duel_against_the_badge_holder_decides_the_game() -> None:
    """docs/rules/burrito.md#the-badge: that tie duel already was the duel against the badge holder."""
    t = table(3, round=2, badge=1, bruises=[1, 1, 3])
    _lose_a_call(t, 2, 0)
    ok(t, 0, {"do": "throw", "target": 1}, 3000)
    events = run(t, 3850)
    assert only(events, "game_over")["winner"] == 0 and t.winner == 0
    assert "badge" not in [e.get("tiebreak") for e in events if e["event"] == "fight_start"]


def test_an_object_that_is_no_action_is_invalid() -> None:
    """SCENARIOS.md: input whose shape is wrong is invalid, not refused."""
    t = table(3)
    with pytest.raises(InvalidAction, match="not a burrito action"):
        t.apply(0, {"do": "draw"}, 0)  # type: ignore[arg-type]


def _elimination_war(players: int = 4) -> BurritoTable:
    """Seats 0, 1 and 2 tie at the round's end: an elimination War among them starts at 0."""
    t = table(players, bruises=[1, 1, 1] + [2] * (players - 3))
    _lose_a_call(t, 3, 0)
    assert t.fight is not None and t.fight.fighters == [0, 1, 2] and t.fight.tiebreak == "round_tie"
    return t


def test_a_player_out_of_an_elimination_war_whose_burrito_is_caught_is_out_once() -> None:
    """docs/rules/burrito.md#out-once: a burrito of a player already out may be caught; it changes
    nothing more for them, and the catcher fights on holding it."""
    t = _elimination_war()
    ok(t, 0, {"do": "grab"}, 0)
    ok(t, 0, {"do": "throw", "target": 1}, 0)  # hits 1 at 800
    ok(t, 1, {"do": "grab"}, 300)
    ok(t, 1, {"do": "throw", "target": 2}, 300)  # lands at 1100, catch window [800, 1100)
    assert only(run(t, 850), "eliminated")["player"] == 1
    events = ok(t, 2, {"do": "catch"}, 900)
    assert kinds(events) == ["catch"]
    assert t.fight is not None and t.fight.fighters == [0, 2] and t.fight.holding[2] == 1
    ok(t, 2, {"do": "throw", "target": 0}, 900)
    events = run(t, 2000)
    assert only(events, "round_won")["player"] == 2
    assert [e["player"] for e in events if e["event"] == "eliminated"] == [0]


def test_a_player_out_of_an_elimination_war_whose_burrito_lands_is_out_once() -> None:
    """docs/rules/burrito.md#out-once: a burrito of a player already out lands like any other:
    dodged it is a miss, undodged it hits its target."""
    t = _elimination_war()
    ok(t, 0, {"do": "grab"}, 0)
    ok(t, 0, {"do": "throw", "target": 1}, 0)
    ok(t, 1, {"do": "grab"}, 300)
    ok(t, 1, {"do": "throw", "target": 2}, 300)
    run(t, 850)
    ok(t, 2, {"do": "dodge"}, 900)
    assert only(run(t, 1100), "miss")["thrower"] == 1
    assert t.fight is not None and t.fight.fighters == [0, 2]
    t = _elimination_war()
    ok(t, 0, {"do": "grab"}, 0)
    ok(t, 0, {"do": "throw", "target": 1}, 0)
    ok(t, 1, {"do": "grab"}, 300)
    ok(t, 1, {"do": "throw", "target": 2}, 300)
    events = run(t, 1200)
    assert [e["player"] for e in events if e["event"] == "eliminated"] == [1, 2]
    assert only(events, "round_won")["player"] == 0


def test_a_clean_catch_in_the_tie_window_of_an_elimination_war_puts_its_thrower_out() -> None:
    """docs/rules/burrito.md#hits-at-the-same-moment: in a tie window a clean catch puts its
    thrower out at once; the hit already made is still settled when the window closes."""
    t = _elimination_war()
    ok(t, 0, {"do": "grab"}, 0)
    ok(t, 2, {"do": "grab"}, 0)
    ok(t, 0, {"do": "throw", "target": 1}, 0)  # hits 1 at 800
    ok(t, 2, {"do": "throw", "target": 0}, 20)  # lands at 820
    run(t, 800)
    events = ok(t, 0, {"do": "catch"}, 810)
    assert kinds(events) == ["catch", "eliminated"] and only(events, "eliminated")["player"] == 2
    events = run(t, 850)
    assert only(events, "eliminated")["player"] == 1 and only(events, "round_won")["player"] == 0
