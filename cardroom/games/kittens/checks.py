"""Whether an action is allowed now: checks that read the state and never change it.

Order for every action (the same for people and bots): is the game on, is the seat in the game,
does the phase allow this action, is it this seat's to make, is it legal with these cards.
"""

from __future__ import annotations

from typing import Any

from cardroom.games.kittens.actions import Action, Defuse, Give, Insert, Play, Reorder
from cardroom.games.kittens.cards import ACTION_SET, DEFUSE, EXPLODING_KITTEN, NOPE, TARGETED
from cardroom.games.kittens.combos import FIVE, PAIR, TRIPLE, classify
from cardroom.games.kittens.state import CHOOSING, DEFUSING, GIVE, INSERT, NOPE_WINDOW, REORDER, TURN, State
from cardroom.protocol import Rejected


def no(code: str, reason: str, **params: Any) -> Rejected:
    """A refusal: stable `code`, English `reason` (docs/rules/kittens.md#refusals)."""
    return Rejected(code, reason, params)


def check_turn(s: State, player: int) -> Rejected | None:
    phase = s.phase
    if phase == TURN:
        if player != s.turn:
            return no("not_your_turn", "It is not your turn.", turn=s.turn)
        return None
    if phase == DEFUSING:
        if player == s.turn:
            return no("must_defuse", "You drew an Exploding Kitten: defuse it or explode.")
        return no("not_your_turn", "It is not your turn.", turn=s.turn)
    return no("choice_pending", "Waiting for a player to choose.", player=s.chooser)


def may_nope(s: State) -> list[int]:
    """The seats that may answer the card or Nope just played with a Nope: everyone still in but
    its player, whether they hold a Nope or not (what they hold is hidden)."""
    return [p for p in range(s.players) if s.alive[p] and p != s.last_actor]


def check_nope(s: State, player: int) -> Rejected | None:
    if s.phase != NOPE_WINDOW:
        return no("nothing_to_nope", "There is nothing to Nope right now.")
    if player == s.last_actor:
        return no("own_card", "You cannot Nope your own card.")
    if NOPE not in s.hands[player]:
        return no("not_in_hand", "You have no Nope.", card=NOPE)
    return None


def check_pass(s: State, player: int) -> Rejected | None:
    if s.phase != NOPE_WINDOW:
        return no("nothing_to_pass", "There is no Nope window to pass in.")
    if player == s.last_actor:
        return no("own_card", "You cannot answer your own card.")
    if s.passed[player]:
        return no("already_passed", "You already passed in this Nope window.")
    return None


def check_target(s: State, player: int, target: int | None, what: str) -> Rejected | None:
    if target is None:
        return no("bad_target", f"Choose a player for {what}.")
    if target == player:
        return no("bad_target", "You cannot target yourself.")
    if not 0 <= target < s.players or not s.alive[target]:
        return no("bad_target", "That player is out of the game.", target=target)
    return None


def check_play(s: State, player: int, a: Play) -> Rejected | None:
    refusal = check_turn(s, player)
    if refusal is not None:
        return refusal
    hand = s.hands[player]
    cards = a.cards
    if len(cards) == 1:
        card = cards[0]
        if card not in hand:
            return no("not_in_hand", "You do not hold that card.", card=card)
        if card not in ACTION_SET:
            if card == DEFUSE:
                return no("cannot_play", "A Defuse is played only on an Exploding Kitten you drew.")
            if card == NOPE:
                return no("cannot_play", "A Nope answers a card while its Nope window is open.")
            if card == EXPLODING_KITTEN:
                return no("cannot_play", "An Exploding Kitten cannot be played.")
            return no("bad_combo", "A cat does nothing alone: play it in a combo.", card=card)
        if card in TARGETED:
            refusal = check_target(s, player, a.target, card)
            if refusal is not None:
                return refusal
        elif a.target is not None:
            return no("bad_target", "This card does not name a player.", card=card)
        if a.name is not None or a.take is not None:
            return no("bad_combo", "Only a combo names or takes a card.")
        return None
    rest = list(hand)
    for card in cards:
        if card not in rest:
            return no("not_in_hand", "You do not hold those cards.", card=card)
        rest.remove(card)
    combo = classify(cards)
    if combo is None:
        return no("bad_combo", "These cards make no combo.")
    if combo == FIVE:
        if a.target is not None:
            return no("bad_target", "Five different cards do not name a player.")
        if a.name is not None:
            return no("bad_combo", "Five different cards take a card, they do not name one.")
        if a.take is None:
            return no("bad_take", "Say which card you take from the discard pile.")
        if a.take not in s.discard:
            return no("bad_take", "That card is not in the discard pile.", card=a.take)
        return None
    refusal = check_target(s, player, a.target, "this combo")
    if refusal is not None:
        return refusal
    if a.take is not None:
        return no("bad_combo", "Only five different cards take from the discard pile.")
    if combo == TRIPLE and a.name is None:
        return no("bad_name", "Name the card you ask for.")
    if combo == PAIR and a.name is not None:
        return no("bad_name", "A pair does not name a card: the other player chooses.")
    return None


def check_defuse(s: State, player: int, a: Defuse) -> Rejected | None:
    if s.phase != DEFUSING:
        return no("nothing_to_defuse", "There is no Exploding Kitten to defuse.")
    if player != s.turn:
        return no("not_your_turn", "Only the player who drew the kitten can defuse it.")
    if DEFUSE not in s.hands[player]:
        return no("not_in_hand", "You have no Defuse.", card=DEFUSE)
    if a.position > len(s.deck):
        return no("bad_position", f"Choose a position from 0 to {len(s.deck)}.", size=len(s.deck))
    return None


def check_choice(s: State, player: int, action: Action) -> Rejected | None:
    want = GIVE if type(action) is Give else REORDER if type(action) is Reorder else INSERT
    if s.phase != CHOOSING or s.chooser != player or s.choice_kind != want:
        return no("not_choosing", "You have nothing of that kind to choose now.")
    if isinstance(action, Give):
        if action.card not in s.hands[player]:
            return no("not_in_hand", "You do not hold that card.", card=action.card)
    elif isinstance(action, Reorder):
        if sorted(action.order) != list(range(len(s.choice_cards))):
            return no(
                "bad_order",
                f"Give each of the {len(s.choice_cards)} cards one new place.",
                count=len(s.choice_cards),
            )
    elif isinstance(action, Insert) and action.position > len(s.deck):
        return no("bad_position", f"Choose a position from 0 to {len(s.deck)}.", size=len(s.deck))
    return None
