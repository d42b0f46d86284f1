"""Events become sentences each player understands, and say nothing they must not know.

Rules: DIGITAL.md ("a discard is seen as 'X passed a card to Y', never which card"; a throw at
you is announced at once; the drawer alone learns the card drawn).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from cardroom.bots import make_bot
from cardroom.clients.terminal.burrito import BurritoUI
from cardroom.clients.terminal.kittens import KittensUI
from cardroom.drive.virtual import VirtualDriver
from cardroom.games import find_game
from cardroom.games.burrito.events import EVENT_KINDS as BURRITO_KINDS
from cardroom.games.kittens import events as kittens_events
from cardroom.narrate import burrito, kittens
from cardroom.narrate.narrator import Narrator
from cardroom.protocol import JSON, Event, Rejected

NAMES = ["Zoe", "Anna", "Marco", "Chloé"]


def _say(module: Any, event: Event, seat: int, view: JSON | None = None) -> list[str]:
    mine = event.for_seat(seat)
    if mine is None:
        return []
    return list(module.narrate(mine, seat, NAMES, view or {}))


# ---- Throw Throw Burrito --------------------------------------------------------------------------


def test_a_discard_tells_the_receiver_who_passed_but_not_the_card() -> None:
    event = Event("discard", {"player": 1, "to": 2}, {"card": "goth_sloth"}, frozenset({1}))
    assert _say(burrito, event, 1) == ["Passed Goth Sloth."]
    assert _say(burrito, event, 2) == ["Anna passes you a card."]
    assert _say(burrito, event, 0) == ["Anna passes a card to Marco."]


def test_the_drawer_alone_learns_the_card() -> None:
    """Issue 14's speech budget: your most frequent line is the card alone, but a battle card's
    name alone would sound like its fight: "Drew War."."""
    event = Event("draw", {"player": 0, "from": "own"}, {"card": "war"}, frozenset({0}), public=True)
    view = {"hand": ["goth_sloth", "duel", "war"], "now": 0}
    assert _say(burrito, event, 0, view) == ["Drew War."]
    sloth = Event("draw", {"player": 0, "from": "own"}, {"card": "goth_sloth"}, frozenset({0}), public=True)
    assert _say(burrito, sloth, 0, view) == ["Goth Sloth."]
    assert _say(burrito, event, 1) == ["Zoe draws."]
    mine = Event("draw", {"player": 0, "from": "community", "pile": 0}, {"card": "war"}, frozenset({0}))
    assert _say(burrito, mine, 0) == ["Drew War from community pile 1."]
    community = Event("draw", {"player": 2, "from": "community", "pile": 1}, {"card": "war"}, frozenset({2}))
    assert _say(burrito, community, 0) == ["Marco draws from community pile 2."]


def test_a_throw_at_you_names_the_threat_and_the_thrower_first_and_nothing_more() -> None:
    """Issue 14: the flight is shorter than a long sentence; the catch cue says when to catch."""
    event = Event(
        "throw", {"thrower": 2, "target": 0, "id": 1, "lands_at": 1800, "catch_from": 1500, "flight_ms": 800}
    )
    assert _say(burrito, event, 0) == ["Incoming, Marco!"]
    assert _say(burrito, event, 2) == ["Thrown at Zoe."]
    assert _say(burrito, event, 1) == ["Marco throws at Zoe."]


def test_your_moves_in_a_fight_of_two_leave_the_other_fighters_name_out() -> None:
    """Issue 14's speech budget: in a fight of two a burrito can only come from the other one and
    yours can only go to them; a burrito you dodged is said once, by "Dodged."."""
    pair = {"fight": {"fighters": [0, 2]}, "now": 0}
    war = {"fight": {"fighters": [0, 2, 3]}, "now": 0}
    throw = Event(
        "throw", {"thrower": 0, "target": 2, "id": 1, "lands_at": 1800, "catch_from": 1500, "flight_ms": 800}
    )
    assert _say(burrito, throw, 0, pair) == ["Thrown."]
    assert _say(burrito, throw, 0, war) == ["Thrown at Marco."]
    assert _say(burrito, throw, 2, pair) == ["Incoming!"]  # only Zoe can throw at Marco
    assert _say(burrito, throw, 2, war) == ["Incoming, Zoe!"]
    miss = Event("miss", {"thrower": 0, "target": 2, "id": 1, "reason": "dodged", "free": 1})
    assert _say(burrito, miss, 0, pair) == ["Missed."]
    assert _say(burrito, miss, 0, war) == ["Missed."]  # "Thrown at Marco." named the target
    assert _say(burrito, miss, 2, pair) == []  # Marco heard "Dodged." when he dodged
    assert _say(burrito, miss, 3, war) == ["Zoe misses Marco."]
    dodge = Event("dodge", {"player": 2, "ids": [1], "until": 900})
    assert _say(burrito, dodge, 2, pair) == ["Dodged."]
    assert _say(burrito, Event("grab", {"player": 0, "free": 1}), 0, pair) == ["Grabbed."]
    assert _say(burrito, Event("grab", {"player": 0, "free": 1}), 3, war) == ["Zoe grabs; 1 left."]


def test_a_fight_is_one_line_naming_who_fights() -> None:
    """Issue 14: one line per event; "you" among the fighters says that you fight."""
    event = Event(
        "fight_start", {"kind": "brawl", "fighters": [0, 2], "caller": 1, "tiebreak": None, "timeout_at": 9}
    )
    assert _say(burrito, event, 0) == ["Brawl: you against Marco."]
    assert _say(burrito, event, 1) == ["Brawl: Zoe against Marco."]
    duel = Event(
        "fight_start",
        {"kind": "duel", "fighters": [0, 2], "caller": 1, "tiebreak": None, "timeout_at": 9, "go_at": 5},
    )
    # The duel's countdown follows at once: "3", "2", "1", "BURRITO! Throw!" say when.
    assert _say(burrito, duel, 0) == ["Duel: you against Marco."]
    assert _say(burrito, duel, 1) == ["Duel: Zoe against Marco."]
    war = Event(
        "fight_start", {"kind": "war", "fighters": [0, 2, 3], "caller": 1, "tiebreak": None, "timeout_at": 9}
    )
    assert _say(burrito, war, 1)[0] == "War: Zoe, Marco and Chloé."


def test_you_as_the_second_of_a_pair_has_a_sentence_of_its_own() -> None:
    """Issue 6: "you" is never dropped into {a} or {b}; after "against" most languages need
    another form of it (jou, ti, dich)."""
    from cardroom.i18n import use_language

    event = Event(
        "fight_start", {"kind": "duel", "fighters": [1, 0], "caller": 2, "tiebreak": None, "timeout_at": 9}
    )
    assert _say(burrito, event, 0)[0] == "Duel: Anna against you."
    with use_language("de"):
        assert _say(burrito, event, 0)[0] == "Duell: Anna gegen dich."
    # The fight is said once, by the fight_start of the same batch: the call says nothing more
    # to the duelists nor to its caller; the others hear who called (verbose).
    call = Event("call", {"player": 2, "fight": "duel", "card": "duel", "targets": [0, 1], "score": 0})
    assert _say(burrito, call, 0) == []
    assert _say(burrito, call, 2) == []
    assert _say(burrito, call, 3) == ["Marco calls a Duel!"]


def test_a_tie_of_hits_is_said_once_and_the_fight_that_settles_it_names_the_fighters() -> None:
    """Issue 14 (one fact once): the tie no longer lists the players the duel names at once."""
    tie = Event("fight_tie", {"players": [0, 3], "kind": "duel"})
    duel = Event(
        "fight_start", {"kind": "duel", "fighters": [0, 3], "caller": 0, "tiebreak": None, "timeout_at": 9}
    )
    assert _say(burrito, tie, 0) + _say(burrito, duel, 0) == [
        "Hits at the same moment!",
        "Duel: you against Chloé.",
    ]
    assert _say(burrito, tie, 1) + _say(burrito, duel, 1) == [
        "Hits at the same moment!",
        "Duel: Zoe against Chloé.",
    ]


def test_hits_catches_and_bruises_are_told_from_each_side() -> None:
    catch = Event("catch", {"player": 0, "thrower": 3, "id": 4})
    assert _say(burrito, catch, 0) == ["Caught!"]  # the fight's end names the loser
    assert _say(burrito, catch, 3) == ["Zoe catches your burrito!"]
    hit = Event("hit", {"player": 1, "thrower": 0, "id": 2})
    assert _say(burrito, hit, 0) == ["You hit Anna!"]
    assert _say(burrito, hit, 1, {"fight": {"fighters": [0, 1, 2]}}) == ["Zoe hits you!"]
    # In a fight of two the thrower is no news ("Incoming!" said it), and the loser follows at once.
    assert _say(burrito, hit, 1, {"fight": {"fighters": [0, 1]}}) == ["Hit!"]
    over = Event(
        "fight_over", {"loser": 1, "bruise": True, "reason": "hit", "kind": "brawl", "bruises_left": 1}
    )
    assert _say(burrito, over, 1) == ["You lose; 1 bruise left."]
    assert _say(burrito, over, 2) == ["Anna loses; 1 bruise left."]
    # The round's clock is said once its last three bruises are given (the board says it before).
    early = Event(
        "fight_over", {"loser": 1, "bruise": True, "reason": "hit", "kind": "brawl", "bruises_left": 4}
    )
    assert _say(burrito, early, 1) == ["You lose."]
    assert _say(burrito, early, 2) == ["Anna loses."]
    three = Event(
        "fight_over", {"loser": 1, "bruise": True, "reason": "hit", "kind": "brawl", "bruises_left": 3}
    )
    assert _say(burrito, three, 2) == ["Anna loses; 3 bruises left."]


def test_the_countdown_is_three_two_one_burrito() -> None:
    beats = [Event("countdown", {"beat": b, "caller": None, "round": 1}) for b in ("3", "2", "1", "burrito")]
    assert [line for e in beats for line in _say(burrito, e, 0)] == ["3", "2", "1", "Burrito!"]
    duel = Event("duel_beat", {"beat": "burrito", "fighters": [0, 1]})
    assert _say(burrito, duel, 0) == ["BURRITO! Throw!"]
    assert _say(burrito, duel, 2) == ["Burrito!"]
    # The duelists heard their duel named a moment ago: the beats alone; the others (verbose)
    # hear whose countdown it is.
    three = Event("duel_beat", {"beat": "3", "fighters": [0, 1]})
    assert _say(burrito, three, 0) == ["3"]
    assert _say(burrito, three, 2) == ["Duel: 3"]


def test_round_and_game_results() -> None:
    over = Event("round_over", {"round": 1, "scores": [3, 1, 0, -1], "reason": "bruises", "winner": 0})
    assert _say(burrito, over, 0) == [
        "Round 1 is over.",
        "Scores: you: 3, Anna: 1, Marco: 0 and Chloé: -1.",
    ]
    # The last bruise: the loser alone, the round's end follows; a tie
    # for the round is said once, by the tie-break that starts in the same batch.
    last = Event(
        "fight_over", {"loser": 1, "bruise": True, "reason": "hit", "kind": "brawl", "bruises_left": 0}
    )
    assert _say(burrito, last, 0) == ["Anna loses."]
    tied = Event(
        "round_over",
        {"round": 1, "scores": [3, 3, 0, -1], "reason": "bruises", "winner": None, "tied": [0, 1]},
    )
    tiebreak = Event(
        "fight_start",
        {"kind": "duel", "fighters": [0, 1], "caller": None, "tiebreak": "round_tie", "timeout_at": 9},
    )
    assert _say(burrito, tied, 2) + _say(burrito, tiebreak, 2) == [
        "Round 1 is over.",
        "Scores: Zoe: 3, Anna: 3, you: 0 and Chloé: -1.",
        "Tie-break Duel for the round: Zoe and Anna.",
    ]
    # Round 1's winner takes the badge: one line says both, the badge event none.
    won = Event("round_won", {"round": 1, "player": 1})
    assert _say(burrito, won, 0) == ["Anna wins round 1 and takes the badge."]
    assert _say(burrito, Event("round_won", {"round": 1, "player": 0}), 0) == [
        "You win round 1 and take the badge!"
    ]
    assert _say(burrito, Event("badge", {"player": 1}), 0) == []
    assert _say(burrito, Event("round_won", {"round": 2, "player": 1}), 0) == ["Anna wins round 2."]
    assert _say(burrito, Event("game_over", {"winner": 2, "badge": 2}), 0) == [
        "Game over: Marco wins the game."
    ]
    assert _say(burrito, Event("game_over", {"winner": 2, "badge": 2}), 2) == ["Game over: you win the game!"]


def test_a_throw_behind_the_back_keeps_its_target_secret() -> None:
    event = Event("behind_back", {"player": 1, "leaves_at": 700}, {"target": 0}, frozenset({1}))
    assert _say(burrito, event, 1, {"now": 0}) == [
        "Your burrito goes behind your back: it leaves for Zoe in 0.7 s."
    ]
    assert _say(burrito, event, 0, {"now": 0}) == ["Anna winds up."]


# ---- Exploding Kittens -------------------------------------------------------------------------------

KVIEW: JSON = {"alive": [True, True, True, True], "direction": 1, "players": 4, "now": 0}


def test_an_attack_on_you_names_the_attacker_first_and_your_turn_says_the_turns() -> None:
    """Issue 14: within the Nope window the threat and who first, short; when it goes ahead,
    your turn follows at once with the turns you owe (attacks stacked), said once."""
    event = Event(
        "played",
        {
            "player": 3,
            "cards": ["attack"],
            "combo": None,
            "target": None,
            "name": None,
            "take": None,
            "until": 3000,
        },
    )
    assert _say(kittens, event, 0, KVIEW) == ["Chloé: Attack on you."]
    assert _say(kittens, event, 3, KVIEW) == ["You play Attack on Zoe."]
    assert _say(kittens, event, 1, KVIEW) == ["Chloé plays Attack on Zoe."]
    attacked = Event("attacked", {"player": 3, "target": 0, "turns": 4})
    turn = Event("turn", {"player": 0, "turns_left": 4, "direction": 1})
    assert [line for e in (attacked, turn) for line in _say(kittens, e, 0, KVIEW)] == [
        "Your turn (4 turns to play)."
    ]


def test_the_drawer_is_told_the_card_the_others_only_that_a_card_was_drawn() -> None:
    event = Event("drew", {"player": 0, "from": "top", "forced": False}, {"card": "defuse"}, frozenset({0}))
    assert _say(kittens, event, 0, KVIEW) == ["You drew a Defuse."]
    assert _say(kittens, event, 1, KVIEW) == ["Zoe draws a card."]
    kitten = Event("drew", {"player": 1, "from": "top", "card": "exploding_kitten", "forced": False})
    assert _say(kittens, kitten, 0, KVIEW) == ["Anna: Exploding Kitten!"]
    # The drawer hears it once, from the defuse prompt that follows at once.
    assert _say(kittens, kitten, 1, KVIEW) == []


def test_defuse_now_is_a_word_cue_with_the_time_left_and_says_when_you_hold_no_defuse() -> None:
    """Issue 14: with no Defuse, the prompt says so instead of asking for one."""
    event = Event("defusing", {"player": 0, "until": 10_000})
    assert _say(kittens, event, 0, {**KVIEW, "hand": ["defuse", "skip"]}) == ["DEFUSE NOW! 10 seconds."]
    assert _say(kittens, event, 0, {**KVIEW, "hand": ["skip"]}) == [
        "Exploding Kitten! No Defuse: you explode in 10 seconds."
    ]
    assert _say(kittens, event, 1, KVIEW) == ["Zoe has 10 seconds to defuse it."]
    defused = Event("defused", {"player": 0}, {"position": 3}, frozenset({0}))
    assert _say(kittens, defused, 0, {**KVIEW, "deck_size": 9}) == ["Defused! Kitten 3 cards down."]
    assert _say(kittens, defused, 2, KVIEW) == ["Zoe defuses it."]


# Where a card put back lies, as each language says it: the kitten after a Defuse, then a card
# put back by yourself; for a deck of 9 once it is back: position 0, 1, 4 and 8.
PLACES = {
    "en": (
        [
            "Defused! Kitten on top.",
            "Defused! Kitten second from the top.",
            "Defused! Kitten 4 cards down.",
            "Defused! Kitten at the bottom.",
        ],
        [
            "You put Skip back on top.",
            "You put Skip back second from the top.",
            "You put Skip back 4 cards down.",
            "You put Skip back at the bottom.",
        ],
    ),
    "it": (
        [
            "Disinnescato! Il gattino è in cima.",
            "Disinnescato! Il gattino è al secondo posto dall'alto.",
            "Disinnescato! Il gattino è sotto 4 carte.",
            "Disinnescato! Il gattino è in fondo.",
        ],
        [
            "Rimetti Salto in cima.",
            "Rimetti Salto al secondo posto dall'alto.",
            "Rimetti Salto sotto 4 carte.",
            "Rimetti Salto in fondo.",
        ],
    ),
    "fr": (
        [
            "Désamorcé ! Le chaton est tout en haut.",
            "Désamorcé ! Le chaton est en deuxième position depuis le haut.",
            "Désamorcé ! Le chaton est sous 4 cartes.",
            "Désamorcé ! Le chaton est tout en bas.",
        ],
        [
            "Tu remets la carte Passer tout en haut.",
            "Tu remets la carte Passer en deuxième position depuis le haut.",
            "Tu remets la carte Passer sous 4 cartes.",
            "Tu remets la carte Passer tout en bas.",
        ],
    ),
    "nl": (
        [
            "Ontmanteld! Kitten bovenop.",
            "Ontmanteld! Kitten als tweede van boven.",
            "Ontmanteld! Kitten onder 4 kaarten.",
            "Ontmanteld! Kitten onderop.",
        ],
        [
            "Je stopt Overslaan bovenop terug.",
            "Je stopt Overslaan als tweede van boven terug.",
            "Je stopt Overslaan terug onder 4 kaarten.",
            "Je stopt Overslaan onderop terug.",
        ],
    ),
    "es": (
        [
            "¡Desactivado! Gatito arriba del todo.",
            "¡Desactivado! Gatito en segunda posición desde arriba.",
            "¡Desactivado! Gatito bajo 4 cartas.",
            "¡Desactivado! Gatito abajo del todo.",
        ],
        [
            "Vuelves a poner la carta Saltar arriba del todo.",
            "Vuelves a poner la carta Saltar en segunda posición desde arriba.",
            "Vuelves a poner la carta Saltar bajo 4 cartas.",
            "Vuelves a poner la carta Saltar abajo del todo.",
        ],
    ),
    "de": (
        [
            "Entschärft! Kätzchen ganz oben.",
            "Entschärft! Kätzchen an zweiter Stelle von oben.",
            "Entschärft! Kätzchen unter 4 Karten.",
            "Entschärft! Kätzchen ganz unten.",
        ],
        [
            "Du legst Hops ganz oben zurück.",
            "Du legst Hops an zweiter Stelle von oben zurück.",
            "Du legst Hops unter 4 Karten zurück.",
            "Du legst Hops ganz unten zurück.",
        ],
    ),
}


@pytest.mark.parametrize("lang", list(PLACES))
def test_a_card_put_back_is_said_on_top_second_n_cards_down_or_at_the_bottom(lang: str) -> None:
    """Issue 14: "Defused! Kitten 0 cards down." read oddly: the top, the second place and the
    bottom (the deck's last card once it is back, from the view's deck size) have words of their
    own in every language; between them, the cards above it."""
    from cardroom.i18n import use_language

    view = {**KVIEW, "deck_size": 9}
    kitten, card = PLACES[lang]
    with use_language(lang):
        for position, kitten_line, card_line in zip((0, 1, 4, 8), kitten, card, strict=True):
            defused = Event("defused", {"player": 0}, {"position": position}, frozenset({0}))
            inserted = Event(
                "inserted",
                {"player": 0, "timeout": False},
                {"card": "skip", "position": position},
                frozenset({0}),
            )
            assert _say(kittens, defused, 0, view) == [kitten_line]
            assert _say(kittens, inserted, 0, view) == [card_line]
        # A deck of one: the kitten is its only card, on top.
        alone = Event("defused", {"player": 0}, {"position": 0}, frozenset({0}))
        assert _say(kittens, alone, 0, {**KVIEW, "deck_size": 1}) == [kitten[0]]


def test_a_favor_tells_giver_and_receiver_the_card_and_nobody_else() -> None:
    given = Event(
        "given", {"player": 1, "to": 0, "empty": False, "timeout": False}, {"card": "skip"}, frozenset({0, 1})
    )
    assert _say(kittens, given, 0, KVIEW) == ["Anna gives you a Skip."]
    assert _say(kittens, given, 1, KVIEW) == ["You give a Skip to Zoe."]
    assert _say(kittens, given, 2, KVIEW) == ["Anna gives a card to Zoe."]


def test_the_future_is_told_only_to_the_one_who_looked() -> None:
    future = Event(
        "future", {"player": 2, "count": 3}, {"cards": ["skip", "exploding_kitten", "nope"]}, frozenset({2})
    )
    assert _say(kittens, future, 2, KVIEW) == [
        "The top of the deck, top first: Skip, Exploding Kitten and Nope."
    ]
    assert _say(kittens, future, 0, KVIEW) == ["Marco looks at the top 3 cards."]


def test_nopes_say_whether_the_card_stands() -> None:
    assert _say(kittens, Event("noped", {"player": 1, "nopes": 1, "until": 1}), 0, KVIEW) == [
        "Anna says Nope."
    ]
    closed = Event("window_closed", {"player": 0, "cards": ["favor"], "nopes": 1, "cancelled": True})
    assert _say(kittens, closed, 0, KVIEW) == ["Noped: your Favor has no effect."]
    quiet = Event("window_closed", {"player": 0, "cards": ["favor"], "nopes": 0, "cancelled": False})
    assert _say(kittens, quiet, 0, KVIEW) == []


def test_your_own_card_noped_is_said_as_yours_and_a_pair_is_one_thing() -> None:
    """Issue 14: a line when your card is Noped; "Black Cat pair", never "Black Cat and Black Cat"."""
    window = {"player": 0, "cards": ["black_cat", "black_cat"], "combo": "pair", "target": 1, "nopes": 1}
    noped = Event("noped", {"player": 2, "nopes": 1, "until": 1})
    assert _say(kittens, noped, 0, {**KVIEW, "window": window}) == ["Marco Nopes your Black Cat pair."]
    closed = Event(
        "window_closed", {"player": 0, "cards": ["black_cat", "black_cat"], "nopes": 1, "cancelled": True}
    )
    assert _say(kittens, closed, 0, KVIEW) == ["Noped: your Black Cat pair has no effect."]
    pair = Event(
        "played", {"player": 2, "cards": ["red_cat", "red_cat"], "combo": "pair", "target": 0, "until": 9}
    )
    assert _say(kittens, pair, 0, KVIEW) == ["Marco: a Red Cat pair against you."]


def test_a_feral_cat_pair_is_named_for_the_cat_it_stands_in_for() -> None:
    """Issue 14: "your Grey Cat and Feral Cat has no effect" read a pair as two cards. The Feral
    Cat stands in for the other cat (docs/rules/kittens.md, Combos): a Grey Cat pair, said with
    the Feral Cat it was made of; Feral Cats alone are a Feral Cat pair."""
    feral_pair = ["feral_cat", "grey_cat"]
    closed = Event("window_closed", {"player": 0, "cards": feral_pair, "nopes": 1, "cancelled": True})
    assert _say(kittens, closed, 0, KVIEW) == ["Noped: your Grey Cat pair with a Feral Cat has no effect."]
    closed = Event("window_closed", {"player": 1, "cards": feral_pair, "nopes": 1, "cancelled": True})
    assert _say(kittens, closed, 0, KVIEW) == ["Noped: Anna's Grey Cat pair with a Feral Cat has no effect."]
    window = {"player": 0, "cards": feral_pair, "combo": "pair", "target": 1, "nopes": 1}
    noped = Event("noped", {"player": 2, "nopes": 1, "until": 1})
    assert _say(kittens, noped, 0, {**KVIEW, "window": window}) == [
        "Marco Nopes your Grey Cat pair with a Feral Cat."
    ]
    played = Event("played", {"player": 2, "cards": feral_pair, "combo": "pair", "target": 0, "until": 9})
    assert _say(kittens, played, 0, KVIEW) == ["Marco: a Grey Cat pair against you."]
    ferals = ["feral_cat", "feral_cat"]
    closed = Event("window_closed", {"player": 0, "cards": ferals, "nopes": 1, "cancelled": False})
    assert _say(kittens, closed, 0, KVIEW) == ["Your Feral Cat pair goes ahead after all."]
    triple = ["feral_cat", "tabby_cat", "feral_cat"]
    closed = Event("window_closed", {"player": 0, "cards": triple, "nopes": 1, "cancelled": False})
    assert _say(kittens, closed, 0, KVIEW) == [
        "Your Tabby Cat triple with 2 Feral Cats goes ahead after all."
    ]
    played = Event(
        "played",
        {"player": 0, "cards": triple, "combo": "triple", "target": 1, "name": "defuse", "until": 9},
    )
    assert _say(kittens, played, 0, KVIEW) == ["You play three Tabby Cat and ask Anna for a Defuse."]


def test_turns_and_quick_keys_answer_from_the_view() -> None:
    assert _say(kittens, Event("turn", {"player": 0, "turns_left": 2, "direction": 1}), 0, KVIEW) == [
        "Your turn (2 turns to play)."
    ]
    view = {
        **KVIEW,
        "turn": 1,
        "turns_left": 1,
        "phase": "turn",
        "hand_sizes": [5, 4, 0, 3],
        "alive": [True, True, False, True],
        "deck_size": 20,
        "discard": ["skip", "nope"],
    }
    assert kittens.whose_turn(view, 0, NAMES) == "It is Anna's turn (only this one)."
    assert kittens.counts(view, 0, NAMES) == (
        "Cards in hand: you: 5 cards, Anna: 4 cards, Marco: exploded and Chloé: 3 cards. Deck: 20. Discard pile: 2."
    )
    assert kittens.describe("skip") == "Skip: Ends one turn without drawing."


# ---- every event kind, in whole games ------------------------------------------------------------------


def _kinds_in_doc(doc: str) -> set[str]:
    return set(re.findall(r"^\| `(\w+)` \|", doc, re.M))


def test_every_event_kind_has_a_narrator() -> None:
    assert set(BURRITO_KINDS) <= set(burrito._HANDLERS)
    kinds = _kinds_in_doc(kittens_events.__doc__ or "")
    assert len(kinds) > 15 and kinds <= set(kittens._HANDLERS)


@pytest.mark.parametrize(
    ("game", "players", "seed"), [("burrito", 3, 4), ("burrito", 2, 7), ("kittens", 4, 5)]
)
def test_a_whole_bot_game_narrates_every_event_for_every_seat(game: str, players: int, seed: int) -> None:
    """Every line is a finished sentence; a secret card never reaches a seat that may not know it."""
    definition = find_game(game)
    table = definition.new_table(players, {}, seed)
    module: Any = burrito if game == "burrito" else kittens
    names = NAMES[:players]
    spoken: set[str] = set()

    def heard(now: int, events: list[Event]) -> None:
        for event in events:
            for seat in range(players):
                mine = event.for_seat(seat)
                if mine is None:
                    continue
                lines = module.narrate(mine, seat, names, table.view(seat))
                for line in lines:
                    assert line and "{" not in line and "}" not in line, (event, line)
                if lines:
                    spoken.add(event.kind)
                if event.secret and seat not in event.knowers:
                    lines_public = module.narrate(
                        {"event": event.kind, **event.data}, seat, names, table.view(seat)
                    )
                    assert lines == lines_public

    bots = {s: make_bot(game, s, "normal", seed * 10 + s) for s in range(players)}
    VirtualDriver(table, bots, listener=heard).run(limit_ms=1_200_000)
    assert table.over
    common = {"burrito": {"draw", "discard", "call", "fight_start", "throw", "fight_over", "round_over"}}
    assert {"game_over", *common.get(game, {"played", "turn", "drew", "exploded"})} <= spoken


# ---- the deal, rules questions and refusals -------------------------------------------------------


def test_the_deal_tells_each_seat_its_own_hand_size_and_the_deck() -> None:
    deal = Event("deal", {"hand_sizes": [8, 8, 8, 8], "deck_size": 30, "kittens": 3})
    assert _say(kittens, deal, 1) == [
        "The game begins: you hold 8 cards.",
        "The deck: 30 cards, 3 Exploding Kittens among them.",
    ]
    assert kittens.narrate(deal.for_seat(None) or {}, None, NAMES, {})[0] == (
        "The game begins: 4 players hold 8 cards each."
    )
    hand = Event("hand", {"player": 2}, {"cards": ["defuse", "skip"]}, frozenset({2}), public=False)
    assert _say(kittens, hand, 2) == [] and _say(kittens, hand, 1) == []


def test_rules_questions_go_to_the_quick_key_sentences() -> None:
    """003: T, E and shift+D, asked by name over the network."""
    view = {**KVIEW, "turn": 0, "turns_left": 2, "phase": "turn"}
    assert kittens.answer_query("turn", None, view, NAMES, 0) == kittens.whose_turn(view, 0, NAMES)
    assert kittens.answer_query("card", "nope", view, NAMES, 0) == kittens.describe("nope")
    with pytest.raises(ValueError, match="no question"):
        kittens.answer_query("score", None, view, NAMES, 0)
    with pytest.raises(ValueError, match="no card called joker"):
        kittens.answer_query("card", "joker", view, NAMES, 0)
    with pytest.raises(ValueError, match="which card"):
        kittens.answer_query("card", None, view, NAMES, 0)


def _codes(path: str, call: str) -> set[str]:
    source = (Path(__file__).resolve().parents[2] / path).read_text(encoding="utf-8")
    blocked = re.findall(r':\s*\(\s*"(\w+)",\s*"', source)  # burrito's BLOCKED_CARD_PLAY
    return set(re.findall(rf'\b{call}\(\s*"(\w+)"', source)) | set(blocked)


def test_every_refusal_code_of_each_engine_has_a_whole_sentence() -> None:
    burrito_codes = _codes("cardroom/games/burrito/checks.py", "_no")
    kittens_codes = _codes("cardroom/games/kittens/checks.py", "no") | _codes(
        "cardroom/games/kittens/table.py", "no"
    )
    assert {"hand_full", "countdown", "not_targeted"} <= burrito_codes <= set(burrito.REFUSALS)
    assert {"not_your_turn", "bad_order", "no_such_player"} <= kittens_codes <= set(kittens.REFUSALS)


@pytest.mark.parametrize(
    ("module", "rejected", "sentence"),
    [
        (
            burrito,
            Rejected("hand_full", "you hold 5 cards"),
            "Refused: you hold 5 cards; pass one before you draw.",
        ),
        (burrito, Rejected("countdown", "wait"), "Not yet: wait for Burrito!"),
        (
            kittens,
            Rejected("not_your_turn", "It is not your turn.", {"turn": 1}),
            "Refused: it is not your turn.",
        ),
        (
            kittens,
            Rejected("not_in_hand", "You have no Nope.", {"card": "nope"}),
            "Refused: you have no Nope.",
        ),
        (kittens, Rejected("bad_position", "x", {"size": 12}), "Refused: choose a position from 0 to 12."),
        (kittens, Rejected("brand_new", "Something new went wrong."), "Refused: Something new went wrong."),
    ],
)
def test_a_refusal_is_one_translated_sentence_for_every_client(
    module: Any, rejected: Rejected, sentence: str
) -> None:
    """The terminal and the server (`Narrator.rejection`) say the refusal of narrate/<game>.py."""
    assert module.refusal(rejected) == sentence
    game = "burrito" if module is burrito else "kittens"
    assert Narrator(game).rejection(rejected, "en") == sentence
    ui: Any = BurritoUI(0, NAMES[:2], 2, {}) if module is burrito else KittensUI(0, NAMES[:2], 2, {})
    assert ui.refused(rejected) == sentence


def test_the_badge_duel_is_won_as_a_badge_duel_not_a_tie_break() -> None:
    """Issue 14: the badge duel decides the game; only a round tie is a tie-break."""
    badge = Event(
        "fight_over",
        {"loser": 1, "bruise": False, "reason": "hit", "kind": "duel", "winner": 0, "tiebreak": "badge"},
    )
    assert _say(burrito, badge, 0) == ["You win the badge duel!"]
    assert _say(burrito, badge, 2) == ["Zoe wins the badge duel."]
    tie = Event(
        "fight_over",
        {"loser": 1, "bruise": False, "reason": "hit", "kind": "war", "winner": 0, "tiebreak": "round_tie"},
    )
    assert _say(burrito, tie, 2) == ["Zoe wins the tie-break."]
