"""What each single card does (003 "Le carte", DIGITAL.md "Exploding Kittens")."""

from __future__ import annotations

from cardroom.protocol import Rejected

from .helpers import do, kinds, ok, play, refused, table, wait

EK = "exploding_kitten"


def test_exploding_kitten_drawn_must_be_defused_or_explodes() -> None:
    """003 "Gattino esplosivo": without a Defuse it explodes after a few seconds (explode_ms,
    2.5 s by default: docs/rules/kittens.md#exploding)."""
    t = table([["skip"], ["skip"], []], ["exploding_kitten", "skip"])
    events = ok(t, 0, "draw")
    assert kinds(events) == ["drew", "defusing"] and events[0]["card"] == EK
    assert t.summary()["phase"] == "defusing"
    assert wait(t, 2499) == []
    events = wait(t, 1)
    assert kinds(events)[:2] == ["exploded", "turn"]
    final = t.summary()
    assert final["alive"] == [False, True, True] and final["turn"] == 1
    assert final["out"] == [EK] and final["hands"][0] == [] and final["discard"] == ["skip"]


def test_defuse_puts_the_kitten_back_where_the_player_chooses() -> None:
    """003 "Disinnesco": the kitten goes back anywhere in the deck and the turn passes."""
    t = table([["defuse"], ["skip"]], [EK, "skip", "favor", "shuffle"])
    ok(t, 0, "draw")
    events = ok(t, 0, "defuse", position=2)
    assert events[0] == {"event": "defused", "player": 0, "position": 2}
    final = t.summary()
    assert final["deck"] == ["skip", "favor", EK, "shuffle"]
    assert final["discard"] == ["defuse"] and final["hands"][0] == []
    assert final["turn"] == 1 and final["phase"] == "turn"


def test_nope_cancels_the_last_card() -> None:
    """003 "No!": cancels the action of the last card an opponent played."""
    t = table([["shuffle"], ["nope"]], ["skip", "favor", "attack"])
    ok(t, 0, "play", cards=["shuffle"])
    ok(t, 1, "nope")
    events = wait(t, 3000)
    assert events[0]["cancelled"] is True and "shuffled" not in kinds(events)
    assert t.summary()["deck"] == ["skip", "favor", "attack"]


def test_attack_ends_turn_and_next_player_plays_two_turns() -> None:
    """003 "Attacca": ends your turn without drawing; the next player plays two turns."""
    t = table([["attack"], [], []], ["skip"] * 3)
    events = play(t, 0, "attack")
    assert {"event": "attacked", "player": 0, "target": 1, "turns": 2} in events
    final = t.summary()
    assert final["turn"] == 1 and final["turns_left"] == 2 and final["deck"] == ["skip"] * 3


def test_targeted_attack_gives_two_turns_to_the_chosen_player() -> None:
    """003 "Attacco Mirato": the player you choose plays two turns."""
    t = table([["targeted_attack"], [], []], ["skip"] * 3)
    play(t, 0, "targeted_attack", target=2)
    assert (t.summary()["turn"], t.summary()["turns_left"]) == (2, 2)


def test_personal_attack_this_turn_goes_on_and_two_more_follow() -> None:
    """003 "Attacco personale", DIGITAL.md: this turn goes on, two more follow."""
    t = table([["personal_attack"], []], ["skip"] * 5)
    play(t, 0, "personal_attack")
    assert (t.summary()["turn"], t.summary()["turns_left"]) == (0, 3)
    for left in (2, 1):
        ok(t, 0, "draw")
        assert (t.summary()["turn"], t.summary()["turns_left"]) == (0, left)
    ok(t, 0, "draw")
    assert (t.summary()["turn"], t.summary()["turns_left"]) == (1, 1)


def test_triple_attack_next_player_plays_three_turns() -> None:
    """003 "Triplo attacco": the next player plays three turns."""
    t = table([["triple_attack"], []], ["skip"] * 3)
    play(t, 0, "triple_attack")
    assert (t.summary()["turn"], t.summary()["turns_left"]) == (1, 3)


def test_skip_ends_only_one_turn() -> None:
    """003 "Passa": ends your turn without drawing; with several turns it ends only one."""
    t = table([["skip", "skip"], []], ["favor"], turns_left=2)
    play(t, 0, "skip")
    assert (t.summary()["turn"], t.summary()["turns_left"]) == (0, 1)
    play(t, 0, "skip")
    assert (t.summary()["turn"], t.summary()["turns_left"]) == (1, 1)
    assert t.summary()["deck"] == ["favor"]


def test_super_skip_ends_all_your_turns() -> None:
    """003 "Super passaggio": ends all your turns without drawing."""
    t = table([["super_skip"], [], []], ["favor"], turns_left=3)
    play(t, 0, "super_skip")
    assert (t.summary()["turn"], t.summary()["turns_left"]) == (1, 1)


def test_reverse_flips_direction_and_the_turn_passes_the_new_way() -> None:
    """003 "Inversione", DIGITAL.md: flips the direction, then the turn passes in the new direction."""
    t = table([["reverse"], [], [], []], ["favor"])
    play(t, 0, "reverse")
    final = t.summary()
    assert final["direction"] == -1 and final["turn"] == 3 and final["deck"] == ["favor"]


def test_reverse_ends_only_one_turn() -> None:
    """003 "Inversione": with several turns to play it ends only one."""
    t = table([["reverse"], [], []], ["favor"], turns_left=2)
    play(t, 0, "reverse")
    assert (t.summary()["turn"], t.summary()["turns_left"], t.summary()["direction"]) == (0, 1, -1)


def test_reverse_with_two_players_is_like_skip() -> None:
    """DIGITAL.md Reverse; docs/rules/kittens.md#reverse-with-two-players."""
    t = table([["reverse"], []], ["favor"])
    play(t, 0, "reverse")
    assert t.summary()["turn"] == 1


def test_favor_target_chooses_which_card_to_give_then_you_still_draw() -> None:
    """003 "Favore" and DIGITAL.md: the target gives a card of their choice; you still draw."""
    t = table([["favor"], ["nope", "skip"]], ["attack"])
    events = play(t, 0, "favor", target=1)
    assert events[-1] == {"event": "choosing", "player": 1, "kind": "give", "for": 0, "until": 3000 + 15000}
    assert t.summary()["phase"] == "choosing"
    assert refused(t, 0, "draw") == "choice_pending"
    events = ok(t, 1, "give", card="skip")
    assert events[0]["card"] == "skip"
    final = t.summary()
    assert final["hands"] == [["skip"], ["nope"]] and final["phase"] == "turn" and final["turn"] == 0


def test_shuffle_shuffles_the_deck_then_you_still_draw() -> None:
    """003 "Miscela": the deck is shuffled; you still draw."""
    deck = ["skip", "favor", "attack", "nope", "shuffle", "reverse", "black_cat", "red_cat"]
    t = table([["shuffle"], []], deck, seed=3)
    events = play(t, 0, "shuffle")
    assert "shuffled" in kinds(events)
    final = t.summary()
    assert sorted(final["deck"]) == sorted(deck) and final["deck"] != deck
    assert final["turn"] == 0


def test_draw_from_the_bottom_is_the_turns_draw() -> None:
    """003 "Ultima carta", DIGITAL.md: draw the bottom card; it is the turn's draw."""
    t = table([["draw_from_the_bottom"], []], ["skip", "favor"])
    events = play(t, 0, "draw_from_the_bottom")
    drew = next(e for e in events if e["event"] == "drew")
    assert drew["from"] == "bottom" and drew["card"] == "favor"
    assert t.summary()["turn"] == 1 and t.summary()["deck"] == ["skip"]


def test_draw_from_the_bottom_can_explode() -> None:
    """003 "Ultima carta": the bottom card is drawn like any draw, kitten included."""
    t = table([["draw_from_the_bottom"], []], ["skip", EK])
    play(t, 0, "draw_from_the_bottom")
    assert t.summary()["phase"] == "defusing"


def test_swap_top_and_bottom_then_you_still_draw() -> None:
    """003 "Scambio": the top and bottom cards change places; you still draw."""
    t = table([["swap_top_and_bottom"], []], ["skip", "favor", "attack"])
    play(t, 0, "swap_top_and_bottom")
    assert t.summary()["deck"] == ["attack", "favor", "skip"] and t.summary()["turn"] == 0


def test_see_the_future_shows_three_cards_to_the_player_only() -> None:
    """003 "Divinazione": you look at the next three cards."""
    t = table([["see_the_future"], []], ["skip", "favor", "attack", "nope"])
    events = play(t, 0, "see_the_future")
    future = next(e for e in events if e["event"] == "future")
    assert future["cards"] == ["skip", "favor", "attack"]
    assert t.view(0)["future"] == ["skip", "favor", "attack"] and t.view(1)["future"] == []
    assert t.summary()["deck"] == ["skip", "favor", "attack", "nope"]


def test_super_see_the_future_shows_five_cards() -> None:
    """003 "Super divinazione": you look at the next five cards."""
    deck = ["skip", "favor", "attack", "nope", "shuffle", "reverse"]
    t = table([["super_see_the_future"], []], deck)
    play(t, 0, "super_see_the_future")
    assert t.view(0)["future"] == deck[:5]


def test_alter_the_future_reorders_the_top_three() -> None:
    """003 "Manipolazione"; SCENARIOS.md: order[j] is the index of the card that goes to position j."""
    t = table([["alter_the_future"], []], ["skip", "favor", EK, "nope"])
    events = play(t, 0, "alter_the_future")
    assert events[-1]["kind"] == "reorder" and events[-1]["cards"] == ["skip", "favor", EK]
    ok(t, 0, "reorder", order=[2, 0, 1])
    assert t.summary()["deck"] == [EK, "skip", "favor", "nope"]
    assert t.view(0)["future"] == [EK, "skip", "favor"]


def test_super_alter_the_future_reorders_the_top_five() -> None:
    """003 "Super manipolazione": look at and reorder the next five cards."""
    t = table([["super_alter_the_future"], []], ["skip", "favor", "attack", "nope", "shuffle", "reverse"])
    play(t, 0, "super_alter_the_future")
    ok(t, 0, "reorder", order=[4, 3, 2, 1, 0])
    assert t.summary()["deck"] == ["shuffle", "nope", "attack", "favor", "skip", "reverse"]


def test_sneak_draw_takes_the_top_card_and_puts_it_back_then_you_still_draw() -> None:
    """003 "Pescaggio furtivo", DIGITAL.md: draw, put back anywhere, then still draw."""
    t = table([["sneak_draw"], []], [EK, "skip", "favor"])
    events = play(t, 0, "sneak_draw")
    assert {"event": "sneaked", "player": 0, "card": EK} in events
    assert t.summary()["phase"] == "choosing" and EK in t.summary()["hands"][0]
    ok(t, 0, "insert", position=2)
    final = t.summary()
    assert final["deck"] == ["skip", "favor", EK] and final["turn"] == 0 and final["phase"] == "turn"
    ok(t, 0, "draw")
    assert t.summary()["turn"] == 1


def test_sneak_drawn_kitten_does_not_explode_while_out() -> None:
    """DIGITAL.md: the sneak-drawn card never explodes while it is out."""
    t = table([["sneak_draw"], []], [EK, "skip"], options={"choose_ms": 5000})
    play(t, 0, "sneak_draw")
    assert t.summary()["phase"] == "choosing"
    events = wait(t, 5000)
    assert events[0]["event"] == "inserted" and events[0]["timeout"] is True
    assert t.summary()["deck"] == [EK, "skip"] and all(t.summary()["alive"])


def test_cats_do_nothing_alone() -> None:
    """003 "Gatto nero, ...": cat cards have no effect alone."""
    for cat in ("black_cat", "white_cat", "grey_cat", "red_cat", "tabby_cat", "feral_cat"):
        t = table([[cat], []], ["skip"])
        assert refused(t, 0, "play", cards=[cat]) == "bad_combo"


def test_defuse_nope_and_kitten_cannot_be_played_as_cards() -> None:
    """003: a Defuse only answers a kitten, a Nope only answers a card."""
    t = table([["defuse", "nope"], []], ["skip"])
    assert refused(t, 0, "play", cards=["defuse"]) == "cannot_play"
    assert refused(t, 0, "play", cards=["nope"]) == "cannot_play"


def test_every_card_can_be_described() -> None:
    """003: shift+D tells what every card does."""
    from cardroom.games.kittens.cards import CARDS
    from cardroom.games.kittens.queries import describe

    for card in CARDS:
        info = describe(card)
        assert info["card"] == card and info["effect"] == f"kittens.card.{card}" and info["text"]


def test_a_refused_play_is_a_value_not_an_exception() -> None:
    """A move not allowed now is a `Rejected` value, not an exception (protocol/errors.py)."""
    t = table([["skip"], []], ["skip"])
    assert isinstance(do(t, 1, "play", cards=["skip"]), Rejected)
