"""What a player can do, as small value types, and their JSON form (rules/SCENARIOS.md).

`parse_action` checks shape only (known `do`, known cards, field types, seats that exist);
whether the action is allowed now is the table's business and comes back as a `Rejected`.

Frozen msgspec structs rather than frozen dataclasses: a bot makes one per move, and a struct is
built ten times faster (issue 16); they compare, hash and print alike. Not tracked by the
garbage collector: they hold only strings, numbers and tuples of them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import msgspec

from cardroom.games.kittens.cards import CARD_SET
from cardroom.protocol import JSON, InvalidAction


class Play(msgspec.Struct, frozen=True, gc=False):
    """Play one card, or several as a combo."""

    cards: tuple[str, ...]
    target: int | None = None
    name: str | None = None
    take: str | None = None


class Nope(msgspec.Struct, frozen=True, gc=False):
    """Nope the last card or Nope while a Nope window is open."""


class Pass(msgspec.Struct, frozen=True, gc=False):
    """Let the card or Nope of the open Nope window go unanswered: once every seat that may
    answer has passed, the window closes (docs/rules/kittens.md#the-nope-window)."""


class AlwaysPass(msgspec.Struct, frozen=True, gc=False):
    """A standing choice: pass in every Nope window at once (`on`), or answer each one."""

    on: bool


class Draw(msgspec.Struct, frozen=True, gc=False):
    """Draw the top card: ends one turn."""


class Defuse(msgspec.Struct, frozen=True, gc=False):
    """Play a Defuse on the kitten just drawn and put it back at `position` (0 = top)."""

    position: int


class Give(msgspec.Struct, frozen=True, gc=False):
    """Answer a Favor or a pair: the card the victim gives."""

    card: str


class Reorder(msgspec.Struct, frozen=True, gc=False):
    """Alter the Future: `order[j]` is the index, among the cards seen, of the new j-th card."""

    order: tuple[int, ...]


class Insert(msgspec.Struct, frozen=True, gc=False):
    """Put a sneak-drawn card back at `position` (0 = top)."""

    position: int


Action = Play | Nope | Pass | AlwaysPass | Draw | Defuse | Give | Reorder | Insert

NOPE = Nope()
PASS = Pass()
DRAW = Draw()

_FIELDS: dict[str, frozenset[str]] = {
    "play": frozenset({"cards", "target", "name", "take"}),
    "nope": frozenset(),
    "pass": frozenset(),
    "always_pass": frozenset({"on"}),
    "draw": frozenset(),
    "defuse": frozenset({"position"}),
    "give": frozenset({"card"}),
    "reorder": frozenset({"order"}),
    "insert": frozenset({"position"}),
}


def _card(raw: Mapping[str, Any], key: str) -> str:
    value = raw.get(key)
    if not isinstance(value, str) or value not in CARD_SET:
        raise InvalidAction(f"{key!r}: unknown card {value!r}")
    return value


def _int(raw: Mapping[str, Any], key: str) -> int:
    value = raw.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise InvalidAction(f"{key!r} must be a non-negative integer, not {value!r}")
    return value


def parse_action(raw: Mapping[str, Any], players: int) -> Action:
    """An action from its JSON form; InvalidAction if its shape is wrong."""
    do = raw.get("do")
    if not isinstance(do, str) or do not in _FIELDS:
        raise InvalidAction(f"unknown action {do!r}: expected one of {', '.join(_FIELDS)}")
    extra = sorted(set(raw) - {"do"} - _FIELDS[do])
    if extra:
        raise InvalidAction(f"{do}: unknown field {extra[0]!r}")
    if do == "play":
        cards = raw.get("cards")
        if not isinstance(cards, list) or not cards:
            raise InvalidAction("play: 'cards' must be a non-empty list of cards")
        for card in cards:
            if not isinstance(card, str) or card not in CARD_SET:
                raise InvalidAction(f"play: unknown card {card!r}")
        target = raw.get("target")
        if target is not None and (isinstance(target, bool) or not isinstance(target, int)):
            raise InvalidAction(f"play: 'target' must be a seat number, not {target!r}")
        if target is not None and not 0 <= target < players:
            raise InvalidAction(f"play: no player {target} at a table of {players}")
        name = _card(raw, "name") if raw.get("name") is not None else None
        take = _card(raw, "take") if raw.get("take") is not None else None
        return Play(tuple(cards), target, name, take)
    if do == "nope":
        return NOPE
    if do == "pass":
        return PASS
    if do == "always_pass":
        on = raw.get("on")
        if not isinstance(on, bool):
            raise InvalidAction(f"always_pass: 'on' must be true or false, not {on!r}")
        return AlwaysPass(on)
    if do == "draw":
        return DRAW
    if do == "defuse":
        return Defuse(_int(raw, "position"))
    if do == "give":
        return Give(_card(raw, "card"))
    if do == "reorder":
        order = raw.get("order")
        if not isinstance(order, list) or not all(
            isinstance(i, int) and not isinstance(i, bool) for i in order
        ):
            raise InvalidAction(f"reorder: 'order' must be a list of indexes, not {order!r}")
        return Reorder(tuple(order))
    return Insert(_int(raw, "position"))


def action_json(action: Action) -> JSON:
    """The JSON form of `action`; `parse_action` gives it back."""
    if isinstance(action, Play):
        out: JSON = {"do": "play", "cards": list(action.cards)}
        if action.target is not None:
            out["target"] = action.target
        if action.name is not None:
            out["name"] = action.name
        if action.take is not None:
            out["take"] = action.take
        return out
    if isinstance(action, Nope):
        return {"do": "nope"}
    if isinstance(action, Pass):
        return {"do": "pass"}
    if isinstance(action, AlwaysPass):
        return {"do": "always_pass", "on": action.on}
    if isinstance(action, Draw):
        return {"do": "draw"}
    if isinstance(action, Defuse):
        return {"do": "defuse", "position": action.position}
    if isinstance(action, Give):
        return {"do": "give", "card": action.card}
    if isinstance(action, Reorder):
        return {"do": "reorder", "order": list(action.order)}
    return {"do": "insert", "position": action.position}
