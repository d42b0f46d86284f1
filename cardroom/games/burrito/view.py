"""What each seat may see, and the full summary that scenario files and tests read.

`view` is the one place hidden cards are filtered: a seat sees its own hand, the public score
piles and the sizes of everything else; a spectator (None) sees no hand at all.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardroom.games.burrito.fight import NO_BEAT, Fight
from cardroom.protocol import JSON

if TYPE_CHECKING:
    from cardroom.games.burrito.table import BurritoTable


def fight_json(f: Fight, seat: int | None) -> JSON:
    """The arena as everyone sees it; the thrower alone sees a throw still behind their back.

    Each flight carries its whole timing (`thrown_at`, `flight_ms`, `catch_from`, `lands_at`),
    so that a client that resyncs mid-flight draws it as one that saw the throw.
    """
    behind: list[JSON] = []
    for fl in f.flights:
        if not fl.left:
            item: JSON = {"thrower": fl.thrower, "leaves_at": fl.leaves_at}
            if seat == fl.thrower:
                item["target"] = fl.target
            behind.append(item)
    return {
        "kind": f.kind,
        "fighters": list(f.fighters),
        "caller": f.caller,
        "callers": list(f.callers),
        "tiebreak": f.tiebreak,
        "holding": list(f.holding),
        "free": f.free,
        "flights": [
            {
                "id": fl.id,
                "thrower": fl.thrower,
                "target": fl.target,
                "thrown_at": fl.thrown_at,
                "flight_ms": fl.flight_ms,
                "lands_at": fl.lands_at,
                "catch_from": fl.catch_from,
                "dodged": fl.dodged,
            }
            for fl in f.flights
            if fl.left
        ],
        "behind_back": behind,
        "go_at": f.go_at,
        "started_at": f.started_at,
        "timeout_at": f.timeout_at,
        "call_until": f.call_until,
        "decided": f.decided,
    }


def view(t: BurritoTable, seat: int | None) -> JSON:
    out: JSON = {
        "seat": seat,
        "players": t.n,
        "phase": t.phase,
        "round": t.round,
        "now": t.now,
        "hand_sizes": [len(h) for h in t.hands],
        "pile_sizes": [len(p) for p in t.piles],
        "community_sizes": [len(c) for c in t.community],
        "score_piles": [list(s) for s in t.score_piles],
        "bruises": list(t.bruises),
        "bruises_left": t.bruises_left,
        "scores": t.scores(),
        "badge": t.badge,
        "winner": t.winner,
        "fight": None if t.fight is None else fight_json(t.fight, seat),
        "countdown_ends_at": t.cd_start + t.opts.countdown_ms if t.cd_beat < NO_BEAT else None,
        "next_round_at": t.next_round_at,
        "extra_time": list(t.opts.extra_time),
    }
    if seat is not None:
        out["hand"] = list(t.hands[seat])
        out["dodge_until"] = t.dodge_until[seat]
    return out


def summary(t: BurritoTable) -> JSON:
    """The scenario file's `final` object: everything, hidden cards included (piles top first)."""
    f = t.fight
    return {
        "phase": t.phase,
        "round": t.round,
        "scores": t.scores(),
        "bruises": list(t.bruises),
        "bruises_left": t.bruises_left,
        "hands": [list(h) for h in t.hands],
        "piles": [p[::-1] for p in t.piles],
        "community": [c[::-1] for c in t.community],
        "score_piles": [list(s) for s in t.score_piles],
        "fight": None if f is None else {"kind": f.kind, "fighters": list(f.fighters)},
        "tiebreak": None if f is None else f.tiebreak,
        "badge": t.badge,
        "winner": t.winner,
        "now": t.now,
    }
