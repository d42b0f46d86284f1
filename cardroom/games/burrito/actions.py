"""What a player can do, as small values parsed once from their JSON form.

Parsing only checks shape (known `do`, known card, the right fields, seats that exist). Whether
an action is allowed *now* is the table's business and comes back as a `Rejected`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from cardroom.games.burrito.cards import CARD_SET, FIGHT_OF, FIGHTS
from cardroom.protocol import JSON, InvalidAction


@dataclass(frozen=True, slots=True)
class Draw:
    """`own` is the plain draw: own pile, or the first non-empty community pile when it is empty."""

    source: str = "own"
    pile: int | None = None


@dataclass(frozen=True, slots=True)
class Discard:
    card: str


@dataclass(frozen=True, slots=True)
class Set:
    card: str


@dataclass(frozen=True, slots=True)
class Call:
    """Call `fight` with three battle cards; `card` picks the brawl colour (None: the one held)."""

    fight: str
    card: str | None = None
    targets: tuple[int, int] | None = None


@dataclass(frozen=True, slots=True)
class Grab:
    pass


@dataclass(frozen=True, slots=True)
class Throw:
    target: int


@dataclass(frozen=True, slots=True)
class Dodge:
    pass


@dataclass(frozen=True, slots=True)
class Catch:
    pass


Action = Draw | Discard | Set | Call | Grab | Throw | Dodge | Catch
ACTION_TYPES = (Draw, Discard, Set, Call, Grab, Throw, Dodge, Catch)

_FIELDS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    # do: (required fields, optional fields)
    "draw": (frozenset(), frozenset({"from", "pile"})),
    "discard": (frozenset({"card"}), frozenset()),
    "set": (frozenset({"card"}), frozenset()),
    "call": (frozenset({"fight"}), frozenset({"card", "targets"})),
    "grab": (frozenset(), frozenset()),
    "throw": (frozenset({"target"}), frozenset()),
    "dodge": (frozenset(), frozenset()),
    "catch": (frozenset(), frozenset()),
}
# Fields a driver may attach to an action (scenario time and seat); they are not the action's.
_ENVELOPE = frozenset({"do", "at", "player"})


def _card(raw: Any) -> str:
    if not isinstance(raw, str) or raw not in CARD_SET:
        raise InvalidAction(f"unknown card {raw!r}")
    return raw


def _seat(raw: Any, players: int, what: str) -> int:
    if not isinstance(raw, int) or isinstance(raw, bool) or not 0 <= raw < players:
        raise InvalidAction(f"{what} {raw!r} is not a seat at this table (0 to {players - 1})")
    return raw


def parse_action(raw: Mapping[str, Any], players: int) -> Action:
    """The action `raw` describes; InvalidAction when its shape is wrong."""
    if not isinstance(raw, Mapping):
        raise InvalidAction("an action must be an object with a 'do' field")
    do = raw.get("do")
    if not isinstance(do, str) or do not in _FIELDS:
        raise InvalidAction(f"unknown action {do!r}: expected one of {', '.join(_FIELDS)}")
    required, optional = _FIELDS[do]
    keys = set(raw) - _ENVELOPE
    missing = sorted(required - keys)
    if missing:
        raise InvalidAction(f"{do} needs the field {missing[0]!r}")
    extra = sorted(keys - required - optional)
    if extra:
        raise InvalidAction(f"{do} takes no field {extra[0]!r}")
    if do == "draw":
        source = raw.get("from", "own")
        if source not in ("own", "community"):
            raise InvalidAction(f"draw from {source!r}: expected 'own' or 'community'")
        pile = raw.get("pile")
        if pile is not None:
            if source != "community":
                raise InvalidAction("a pile number goes with a draw from 'community'")
            if not isinstance(pile, int) or isinstance(pile, bool) or pile not in (0, 1):
                raise InvalidAction(f"community pile {pile!r} does not exist (0 or 1)")
        return Draw(source, pile)
    if do == "discard":
        return Discard(_card(raw["card"]))
    if do == "set":
        return Set(_card(raw["card"]))
    if do == "call":
        return _parse_call(raw, players)
    if do == "throw":
        return Throw(_seat(raw["target"], players, "target"))
    if do == "grab":
        return Grab()
    return Dodge() if do == "dodge" else Catch()


def _parse_call(raw: Mapping[str, Any], players: int) -> Call:
    fight = raw["fight"]
    if fight not in FIGHTS:
        raise InvalidAction(f"unknown fight {fight!r}: expected one of {', '.join(FIGHTS)}")
    card: str | None = None
    if raw.get("card") is not None:
        card = _card(raw["card"])
        if FIGHT_OF.get(card) != fight:
            raise InvalidAction(f"{card} does not call a {fight}")
    elif fight != "brawl":
        card = fight
    targets: tuple[int, int] | None = None
    if fight == "duel":
        raw_targets = raw.get("targets")
        if not isinstance(raw_targets, list | tuple) or len(raw_targets) != 2:
            raise InvalidAction("a duel names exactly two players in 'targets'")
        a = _seat(raw_targets[0], players, "duel target")
        b = _seat(raw_targets[1], players, "duel target")
        if a == b:
            raise InvalidAction("a duel needs two different players")
        targets = (a, b)
    elif "targets" in raw:
        raise InvalidAction(f"a {fight} takes no targets (only a duel names players)")
    return Call(fight, card, targets)


def action_json(action: Action) -> JSON:
    """The JSON form of `action`; `parse_action` gives the same action back."""
    match action:
        case Draw(source, pile):
            out: JSON = {"do": "draw"}
            if source != "own":
                out["from"] = source
            if pile is not None:
                out["pile"] = pile
            return out
        case Discard(card):
            return {"do": "discard", "card": card}
        case Set(card):
            return {"do": "set", "card": card}
        case Call(fight, card, targets):
            out = {"do": "call", "fight": fight}
            if card is not None and (fight == "brawl" or card != fight):
                out["card"] = card
            if targets is not None:
                out["targets"] = list(targets)
            return out
        case Throw(target):
            return {"do": "throw", "target": target}
        case Grab():
            return {"do": "grab"}
        case Dodge():
            return {"do": "dodge"}
        case Catch():
            return {"do": "catch"}
    raise InvalidAction(f"not a burrito action: {action!r}")
