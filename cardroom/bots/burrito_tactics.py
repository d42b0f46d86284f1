"""Fight tactics of a Throw Throw Burrito bot with tactics (hard): the choices a good player
makes in the arena, each from what that seat sees.

- *Join a fight with a call.* A fighter holding three battle cards calls while calls still
  merge (the first `simultaneous_call_ms` of a fight): it scores 2, and the fight becomes a
  War of everybody, so the bruise it risks is shared among more fighters.
- *Catch or dodge.* A clean catch wins the fight on the spot (the thrower takes the bruise);
  a miss of the window loses it. A dodge keeps the fight going, where a fighter's share of
  not losing is about 1 - 1/fighters. So it catches when its own odds of a clean catch beat
  that share, a little more readily when the thrower leads the scores (their bruise is worth
  more), and dodges otherwise.
- *Whom to throw at.* The rival it most needs to bruise: the best score among the fighters,
  one with empty hands (who cannot throw back at once) before one holding a burrito, and first
  of all one whose dodge is cooling down past the landing (they must catch or be hit).
"""

from __future__ import annotations

import random
from collections.abc import Mapping

from cardroom.bots.burrito_hand import call
from cardroom.bots.burrito_levels import Level
from cardroom.games.burrito.actions import Call
from cardroom.games.burrito.cards import BATTLE_SET, SET_SIZE
from cardroom.protocol import JSON

LEADER_BONUS = 0.1
"""How much more readily it catches a burrito thrown by the player with the best score."""


def merge_call(v: JSON, seat: int, lvl: Level, rng: random.Random, now: int) -> Call | None:
    """A call that joins the fight in progress, if this fighter has one and calls still merge."""
    f = v["fight"]
    if f is None or f["tiebreak"] is not None or f["decided"] or now >= f["call_until"]:
        return None
    if seat not in f["fighters"]:
        return None
    hand: list[str] = v["hand"]
    for card in BATTLE_SET:
        if hand.count(card) >= SET_SIZE:
            return call(v, seat, lvl, rng, card)
    return None


def holds_battle_set(hand: list[str]) -> bool:
    return any(hand.count(card) >= SET_SIZE for card in BATTLE_SET)


def prefer_catch(lvl: Level, fighters: int, thrower_leads: bool, window_ms: int) -> bool:
    """Whether to catch rather than dodge a burrito it can still dodge (catch window `window_ms`)."""
    share = 1.0 - 1.0 / max(2, fighters)
    odds = lvl.catch_odds(window_ms) + (LEADER_BONUS if thrower_leads else 0.0)
    return odds > share


def target(
    v: JSON, f: JSON, seat: int, rng: random.Random, cooling: Mapping[int, int] | None, lands_at: int
) -> int:
    """The fighter to throw at: the best score, one with empty hands first, and with tactics
    (`cooling`: when each rival's dodge cools down) one who cannot dodge before `lands_at`.

    Without tactics the choice is looser (more noise, empty hands weigh more than a point)."""
    noise, empty = (1.5, 2.0) if cooling is None else (0.5, 1.0)
    scores: list[int] = v["scores"]
    holding: list[int] = f["holding"]
    others = [q for q in f["fighters"] if q != seat]
    best, best_key = others[0], -1e9
    for q in others:
        key = scores[q] + rng.random() * noise
        if not holding[q]:
            key += empty
        if cooling is not None and cooling.get(q, 0) > lands_at:
            key += 10.0  # it cannot dodge before the burrito lands
        if key > best_key:
            best, best_key = q, key
    return int(best)
