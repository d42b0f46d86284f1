"""What each seat sees (DIGITAL.md: the server is the only judge; nothing hidden reaches a player)."""

from __future__ import annotations

from cardroom.games.burrito import GAME, legal_actions
from cardroom.games.burrito.actions import Call, Discard, Draw, Grab, Throw

from .helpers import in_brawl, ok, table


def test_a_seat_sees_its_own_hand_and_only_the_sizes_of_the_rest() -> None:
    """000: you look at your own cards; piles stay face down."""
    t = table(3, hands=[["war"], ["duel", "goth_sloth"], []], piles=[["churro_bat"], [], []])
    view = t.view(1)
    assert view["hand"] == ["duel", "goth_sloth"]
    assert view["hand_sizes"] == [1, 2, 0] and view["pile_sizes"] == [1, 0, 0]
    assert view["community_sizes"] == [3, 2]
    assert "hands" not in view and "piles" not in view


def test_a_spectator_sees_no_hand() -> None:
    """DIGITAL.md: spectators get the public view."""
    view = table(3, hands=[["war"], [], []]).view(None)
    assert "hand" not in view and view["hand_sizes"] == [1, 0, 0]


def test_score_piles_bruises_scores_and_the_badge_are_public() -> None:
    """000: score piles lie face up in front of each player."""
    t = table(3, score_piles=[["goth_sloth"] * 3, [], []], bruises=[0, 1, 0], round=2, badge=2)
    view = t.view(0)
    assert view["score_piles"][0] == ["goth_sloth"] * 3
    assert (view["bruises"], view["bruises_left"], view["scores"], view["badge"]) == (
        [0, 1, 0],
        5,
        [1, -1, 0],
        2,
    )


def test_everyone_sees_the_arena_and_the_burritos_in_the_air() -> None:
    """DIGITAL.md: the target is told at once who throws at them; everyone sees flights."""
    t = in_brawl(4)
    ok(t, 1, {"do": "grab"}, 100)
    ok(t, 1, {"do": "throw", "target": 3}, 200)
    for seat in (0, 2, 3, None):
        fight = t.view(seat)["fight"]
        assert fight["kind"] == "brawl" and fight["fighters"] == [1, 3] and fight["caller"] == 0
        assert fight["free"] == 1 and fight["holding"] == [0, 0, 0, 0]
        assert fight["flights"] == [
            {
                "id": 1,
                "thrower": 1,
                "target": 3,
                "thrown_at": 200,
                "flight_ms": 800,
                "lands_at": 1000,
                "catch_from": 700,
                "dodged": False,
            }
        ]


def test_a_flight_in_the_view_carries_its_duration_for_a_client_that_resyncs() -> None:
    """DIGITAL.md: a client that resyncs mid-flight draws the flight and its catch window from
    the view alone; the time behind the back is not part of the flight (burrito.md#behind-the-back)."""
    t = in_brawl(4, options={"variants": ["small_room"]})
    ok(t, 1, {"do": "grab"}, 0)
    ok(t, 1, {"do": "throw", "target": 3}, 0)
    t.advance(750)
    [flight] = t.view(None)["fight"]["flights"]
    assert flight["thrown_at"] == 0
    assert flight["lands_at"] - flight["flight_ms"] == 700
    assert flight["catch_from"] > 700


def test_a_throw_behind_the_back_keeps_its_target_to_the_thrower() -> None:
    """docs/rules/burrito.md#behind-the-back: the throw is announced when it leaves."""
    t = in_brawl(4, options={"variants": ["small_room"]})
    ok(t, 1, {"do": "grab"}, 0)
    ok(t, 1, {"do": "throw", "target": 3}, 0)
    assert t.view(1)["fight"]["behind_back"] == [{"thrower": 1, "leaves_at": 700, "target": 3}]
    assert t.view(3)["fight"]["behind_back"] == [{"thrower": 1, "leaves_at": 700}]
    assert t.view(3)["fight"]["flights"] == []


def test_a_draw_is_seen_by_others_without_the_card() -> None:
    """DIGITAL.md: every accepted action is announced to whoever may see it."""
    t = table(3, piles=[["war"], [], []])
    [event] = t.apply(0, Draw(), 0)  # type: ignore[misc]
    assert event.for_seat(1) == {"event": "draw", "player": 0, "from": "own", "at": 0}
    assert event.for_seat(0) == {"event": "draw", "player": 0, "from": "own", "at": 0, "card": "war"}


def test_the_countdown_end_and_the_own_dodge_cooldown_are_in_the_view() -> None:
    """DIGITAL.md: countdown_ms resumes play; dodge_cooldown_ms after a dodge."""
    t = GAME.new_table(3, {}, seed=2)
    assert t.view(0)["countdown_ends_at"] == 3000 and t.view(0)["dodge_until"] == 0


def test_legal_actions_are_exactly_what_the_table_accepts() -> None:
    """docs/rules/burrito.md#legal-actions: the list is asked of the table itself."""
    t = table(4, hands=[["brawl_a"] * 3 + ["goth_sloth"], [], [], []], piles=[["war"], [], [], []])
    actions = legal_actions(t, 0)
    assert Draw() in actions and Discard("goth_sloth") in actions and Call("brawl", "brawl_a") in actions
    assert Draw("community", 0) not in actions and Call("war", "war") not in actions
    assert Call("war", "war") in legal_actions(t, 0, mistakes=True)
    ok(t, 0, {"do": "call", "fight": "brawl"}, 0)
    assert legal_actions(t, 1) == [Grab()]
    assert legal_actions(t, 2) == []
    assert Grab() in legal_actions(t, 2, mistakes=True)
    ok(t, 1, {"do": "grab"}, 0)
    assert set(legal_actions(t, 1)) == {Throw(0), Throw(2), Throw(3)}
