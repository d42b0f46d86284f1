"""Scenario files: set a table up exactly, play timed actions, report what happened.

The format is the project's public contract (docs/scenarios.md). Fields may be added, never
renamed. Besides the core fields, a scenario may carry `"title"`, `"description"`, and, for
tests, `"expect"` (a partial final object) and `"expect_events"` (partial events that must
appear in this order).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from cardroom.games import GAMES, find_game
from cardroom.protocol import JSON, CardroomError, Rejected
from cardroom.protocol.record import Move, Record, start

CORE_FIELDS = frozenset({"game", "players", "options", "seed", "deal", "actions", "until"})
EXTRA_FIELDS = frozenset({"title", "description", "expect", "expect_events"})


class InvalidScenario(CardroomError):
    """The file's shape is wrong: the scenario cannot be run at all."""


@dataclass(frozen=True, slots=True)
class ScenarioResult:
    """Every event (hidden parts included) and refusal in order, then the final summary."""

    events: list[JSON]
    final: JSON
    record: Record

    def lines(self) -> list[str]:
        """The output of `cardroom scenario`: one JSON line per event, then the final line."""
        out = [json.dumps(e, separators=(", ", ": ")) for e in self.events]
        out.append(json.dumps({"final": self.final}, separators=(", ", ": ")))
        return out


def load_scenario(text: str) -> JSON:
    """Parse a scenario file's text; InvalidScenario if it is not a JSON object."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InvalidScenario(f"not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from None
    if not isinstance(data, dict):
        raise InvalidScenario("a scenario is a JSON object")
    return data


def _int(data: Mapping[str, Any], key: str, default: int | None = None) -> int:
    value = data.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidScenario(f"{key!r} must be an integer, not {value!r}")
    return value


def scenario_record(data: Mapping[str, Any]) -> Record:
    """The game a parsed scenario sets up (game, players, options, seed, deal), its actions not
    yet played: what `cardroom play --deal FILE` plays against bots. InvalidScenario for any
    problem with those fields, the deal's included."""
    record, _table = _set_up(data)
    return record


def _set_up(data: Mapping[str, Any]) -> tuple[Record, Any]:
    unknown = sorted(set(data) - CORE_FIELDS - EXTRA_FIELDS)
    if unknown:
        raise InvalidScenario(f"unknown field {unknown[0]!r}")
    name = data.get("game")
    if name not in GAMES:
        raise InvalidScenario(f"'game' must be one of {', '.join(GAMES)}, not {name!r}")
    game = find_game(str(name))
    players = _int(data, "players")
    if not game.min_players <= players <= game.max_players:
        raise InvalidScenario(
            f"{name} is played by {game.min_players} to {game.max_players} players, not {players}"
        )
    options = data.get("options", {})
    if not isinstance(options, dict):
        raise InvalidScenario("'options' must be an object")
    seed = _int(data, "seed", 0)
    deal = data.get("deal")
    if deal is not None and not isinstance(deal, dict):
        raise InvalidScenario("'deal' must be an object")
    record = Record(str(name), players, dict(options), seed, dict(deal) if deal is not None else None)
    try:
        table = start(game, record)
    except CardroomError as exc:
        raise InvalidScenario(str(exc)) from None
    return record, table


def run_scenario(data: Mapping[str, Any]) -> ScenarioResult:
    """Run a parsed scenario. Raises InvalidScenario for any problem with the file's shape."""
    record, table = _set_up(data)
    game = find_game(record.game)
    players = record.players
    raw_actions = data.get("actions", [])
    if not isinstance(raw_actions, list):
        raise InvalidScenario("'actions' must be a list")
    until = data.get("until")
    if until is not None:
        until = _int(data, "until")

    moves: list[tuple[int, int, Any, JSON]] = []
    last_at = 0
    for index, raw in enumerate(raw_actions):
        where = f"action {index}"
        if not isinstance(raw, dict):
            raise InvalidScenario(f"{where}: an action is an object")
        at = _int(raw, "at") if "at" in raw else last_at
        if at < last_at:
            raise InvalidScenario(f"{where}: 'at' goes backwards ({at} after {last_at})")
        if at < 0:
            raise InvalidScenario(f"{where}: 'at' must not be negative")
        player = raw.get("player")
        if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < players:
            raise InvalidScenario(f"{where}: no player {player!r} at a table of {players}")
        body = {k: v for k, v in raw.items() if k not in ("at", "player")}
        try:
            action = game.parse_action(body, players)
        except CardroomError as exc:
            raise InvalidScenario(f"{where}: {exc}") from None
        moves.append((at, player, action, body))
        last_at = at
    if until is not None and until < last_at:
        raise InvalidScenario(f"'until' ({until}) is before the last action ({last_at})")

    events: list[JSON] = []

    def timers(to_ms: int) -> None:
        for event in table.advance(to_ms):
            events.append(_stamped(event.full(), to_ms))

    for at, player, action, body in moves:
        timers(at)
        result = table.apply(player, action, at)
        record.moves.append(Move(at, player, body))
        if isinstance(result, Rejected):
            events.append(
                {
                    "event": "rejected",
                    "at": at,
                    "player": player,
                    "do": body.get("do"),
                    "code": result.code,
                    "reason": result.reason,
                }
            )
        else:
            events.extend(_stamped(e.full(), at) for e in result)
    if until is not None:
        timers(until)
    return ScenarioResult(events, table.summary(), record)


def _stamped(event: JSON, at: int) -> JSON:
    if "at" not in event:
        event = {"event": event["event"], "at": at, **{k: v for k, v in event.items() if k != "event"}}
    return event


def mismatches(data: Mapping[str, Any], result: ScenarioResult) -> list[str]:
    """How the result differs from the scenario's `expect` and `expect_events` (tests use this)."""
    problems: list[str] = []
    expect = data.get("expect", {})
    for key, want in expect.items():
        got = result.final.get(key, "<missing>")
        if got != want:
            problems.append(f"final {key}: expected {want!r}, got {got!r}")
    position = 0
    for want in data.get("expect_events", []):
        while position < len(result.events) and not _matches(result.events[position], want):
            position += 1
        if position == len(result.events):
            problems.append(f"no event matching {want!r} (in order)")
            break
        position += 1
    return problems


def _matches(event: JSON, want: Mapping[str, Any]) -> bool:
    return all(event.get(k) == v for k, v in want.items())
