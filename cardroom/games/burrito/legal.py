"""Every action a seat may take now: for bots, clients that grey out keys, and random tests.

The list is made by asking the table itself (`check`), so it can never disagree with what
`apply` accepts. Mistakes (a call without the cards, a bystander's grab or catch, a throw
before "Burrito!") are accepted by the table but left out unless asked for.
"""

from __future__ import annotations

from itertools import combinations

from cardroom.games.burrito.actions import Action, Call, Catch, Discard, Dodge, Draw, Grab, Set, Throw
from cardroom.games.burrito.cards import BATTLE, FIGHT_OF, is_battle
from cardroom.games.burrito.table import BurritoTable


def candidates(t: BurritoTable, seat: int) -> list[Action]:
    """Every action worth asking about for `seat` in the current phase."""
    out: list[Action] = []
    if t.phase == "play":
        out += [Draw(), Draw("community", 0), Draw("community", 1)]
        held = sorted(set(t.hands[seat]))
        out += [Discard(c) for c in held]
        out += [Set(c) for c in held if not is_battle(c)]
    if t.phase in ("play", "fight"):
        for card in BATTLE:
            fight = FIGHT_OF[card]
            if fight == "duel":
                out += [Call("duel", "duel", pair) for pair in combinations(range(t.n), 2)]
            else:
                out.append(Call(fight, card))
    if t.fight is not None:
        out += [Grab(), Dodge(), Catch()]
        out += [Throw(q) for q in range(t.n) if q != seat]
    return out


def legal_actions(t: BurritoTable, seat: int, mistakes: bool = False) -> list[Action]:
    """The actions `apply` would accept for `seat` now (without mistakes unless asked)."""
    return [
        a for a in candidates(t, seat) if t.check(seat, a) is None and (mistakes or not t.is_mistake(seat, a))
    ]
