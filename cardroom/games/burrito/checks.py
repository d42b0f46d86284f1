"""What may be done now: the checks every action passes before the table plays it.

Kept apart from `table.py` (what happens) so that the list of refusals and their codes reads
in one place. Every function is pure: it looks at the table and changes nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cardroom.games.burrito.actions import Action, Call, Catch, Discard, Dodge, Draw, Grab, Set, Throw
from cardroom.games.burrito.cards import BRAWL_COLOURS, HAND_LIMIT, SET_SIZE, is_battle
from cardroom.protocol import Rejected

if TYPE_CHECKING:
    from cardroom.games.burrito.table import BurritoTable

BLOCKED_CARD_PLAY = {
    "fight": ("fight_in_progress", "a fight is in progress: card play waits until it is over"),
    "countdown": ("countdown", "wait for the countdown to say Burrito!"),
    "round_over": ("round_over", "the round is over: the next one starts soon"),
    "game_over": ("game_over", "the game is over"),
}


def _no(code: str, reason: str, **params: Any) -> Rejected:
    return Rejected(code, reason, dict(params))


def check(t: BurritoTable, p: int, action: Action) -> Rejected | None:
    """Why `p` may not do `action` now, or None when it would be accepted."""
    if t.phase == "game_over":
        return _no("game_over", "the game is over")
    if isinstance(action, Draw | Discard | Set):
        blocked = BLOCKED_CARD_PLAY.get(t.phase)
        if blocked is not None:
            return _no(*blocked)
        hand = t.hands[p]
        if isinstance(action, Draw):
            return _check_draw(t, p, action)
        if isinstance(action, Discard):
            if action.card not in hand:
                return _no("not_in_hand", f"you hold no {action.card}", card=action.card)
            return None
        if is_battle(action.card):
            return _no("battle_set", "battle cards are not set: call their fight", card=action.card)
        if hand.count(action.card) < SET_SIZE:
            return _no("no_set", f"you need three {action.card} to make a set", card=action.card)
        return None
    if isinstance(action, Call):
        return _check_call(t, p, action)
    return _check_arena(t, p, action)


def _check_draw(t: BurritoTable, p: int, action: Draw) -> Rejected | None:
    if len(t.hands[p]) >= HAND_LIMIT:
        return _no("hand_full", "you hold 5 cards: discard before you draw")
    own = t.piles[p]
    if action.source == "community":
        if own and t.n != 2:
            return _no("use_own_pile", "draw from your own pile while it has cards")
        if action.pile is not None:
            if not t.community[action.pile]:
                return _no("pile_empty", f"community pile {action.pile} is empty", pile=action.pile)
            return None
    elif own:
        return None
    if not any(t.community):
        return _no("pile_empty", "there is no card left to draw")
    return None


def call_card(t: BurritoTable, p: int, action: Call) -> str | None:
    """The battle card `p` plays for `action`, or None if the call is a mistake."""
    hand = t.hands[p]
    if action.card is not None:
        return action.card if hand.count(action.card) >= SET_SIZE else None
    for colour in BRAWL_COLOURS:
        if hand.count(colour) >= SET_SIZE:
            return colour
    return None


def _check_call(t: BurritoTable, p: int, action: Call) -> Rejected | None:
    if t.phase in ("countdown", "round_over"):
        return _no(*BLOCKED_CARD_PLAY[t.phase])
    f = t.fight
    if f is None:
        return None
    if f.tiebreak is not None:
        return _no("tie_break", "no fight can be called during a tie-break")
    if f.decided:
        return _no("fight_decided", "the fight has just been decided")
    if call_card(t, p, action) is not None and t.now >= f.call_until:
        return _no("fight_in_progress", "a fight is in progress: call after it, when play resumes")
    return None


def _check_arena(t: BurritoTable, p: int, action: Action) -> Rejected | None:
    f = t.fight
    if f is None:
        return _no("no_fight", "there is no fight: burritos stay on the table")
    fighting = p in f.fighters
    if f.decided and not (fighting and p not in f.hits and isinstance(action, Dodge | Catch)):
        # Until the tie window closes a fighter not yet hit may still dodge and catch
        # (docs/rules/burrito.md#hits-at-the-same-moment); nothing else is done.
        return _no("fight_decided", "the fight has just been decided")
    if not fighting:
        if isinstance(action, Grab | Catch) and f.tiebreak is None:
            return None  # a bystander's grab or catch is accepted: it is a mistake
        return _no("not_fighting", "you are not in this fight")
    if isinstance(action, Grab):
        if f.holding[p] > 0:
            return _no("hands_full", "you already hold a burrito")
        if f.free == 0:
            return _no("no_free_burrito", "no burrito is free")
        return None
    if isinstance(action, Throw):
        if f.holding[p] == 0:
            return _no("no_burrito", "you hold no burrito")
        if action.target == p:
            return _no("self_target", "throw at somebody else")
        if any(fl.thrower == p and not fl.left for fl in f.flights):
            return _no("behind_back", "your burrito is still going behind your back")
        return None
    flying = [fl for fl in f.flights if fl.left and not fl.dodged and fl.target == p]
    if isinstance(action, Dodge) and t.now < t.dodge_until[p]:
        return _no("dodge_cooldown", "you dodged a moment ago", until=t.dodge_until[p])
    if not flying:
        return _no("not_targeted", "no burrito is flying at you")
    return None


def is_mistake(t: BurritoTable, p: int, action: Action) -> bool:
    """Whether an accepted `action` would lose `p` the fight (wrong call, bystander, false start)."""
    if isinstance(action, Call):
        return call_card(t, p, action) is None
    f = t.fight
    if f is None:
        return False
    if isinstance(action, Grab | Catch):
        return p not in f.fighters
    if isinstance(action, Throw):
        return f.go_at is not None and t.now < f.go_at
    return False
