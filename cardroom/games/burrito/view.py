"""What each seat may see, and the full summary that scenario files and tests read.

`view` is the one place hidden cards are filtered: a seat sees its own hand, the public score
piles and the sizes of everything else; a spectator (None) sees no hand at all.
"""

from __future__ import annotations

from collections.abc import Iterable
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
    out = _public(t, seat)
    _personal(t, out, seat, shared=False)
    return out


def views(t: BurritoTable, seats: Iterable[int | None]) -> dict[int | None, JSON]:
    """`view` of each of `seats`, the part everyone sees built once: a server sends every
    member of a table a view with each batch. The views share that part's lists: read them."""
    public = _public(t, None)
    out: dict[int | None, JSON] = {}
    for seat in seats:
        mine = dict(public)
        _personal(t, mine, seat, shared=True)
        out[seat] = mine
    return out


def _public(t: BurritoTable, seat: int | None) -> JSON:
    """The view with `seat`'s arena (`fight_json`) and no hand."""
    return {
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
        "countdown_ends_at": t.cd_start + t.cd_ms if t.cd_beat < NO_BEAT else None,
        "next_round_at": t.next_round_at,
        "extra_time": list(t.opts.extra_time),
    }


def _personal(t: BurritoTable, out: JSON, seat: int | None, shared: bool) -> None:
    """`out` made `seat`'s: its seat, its hand, and (`shared`: `out` is a copy of the public
    view, whose arena is everyone's) its own throw behind its back."""
    out["seat"] = seat
    if seat is None:
        return
    f = t.fight
    if shared and f is not None and any(not fl.left and fl.thrower == seat for fl in f.flights):
        out["fight"] = fight_json(f, seat)
    out["hand"] = list(t.hands[seat])
    out["dodge_until"] = t.dodge_until[seat]


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
