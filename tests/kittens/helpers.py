"""Small helpers so that tests read like the rulebook: a table from a deal, an action by JSON."""

from __future__ import annotations

from typing import Any

from cardroom.games.kittens import GAME, KittensTable
from cardroom.protocol import JSON, Rejected


def table(
    hands: list[list[str]],
    deck: list[str] | None = None,
    discard: list[str] | None = None,
    options: dict[str, Any] | None = None,
    seed: int = 1,
    **extra: Any,
) -> KittensTable:
    """A table exactly as dealt; `deck` and `discard` are listed top first."""
    deal: JSON = {"hands": hands, "deck": deck or [], "discard": discard or [], **extra}
    return GAME.from_deal(len(hands), options or {}, deal, seed)


def do(
    t: KittensTable, player: int, what: str, at: int | None = None, **fields: Any
) -> list[JSON] | Rejected:
    """Run timers up to `at` (default: now), then the action; full events or the refusal."""
    when = t.now if at is None else at
    t.advance(when)
    result = t.apply(player, GAME.parse_action({"do": what, **fields}, t.players), when)
    if isinstance(result, Rejected):
        return result
    return [e.full() for e in result]


def ok(t: KittensTable, player: int, what: str, at: int | None = None, **fields: Any) -> list[JSON]:
    """Like `do`, for an action that must be accepted."""
    result = do(t, player, what, at, **fields)
    assert not isinstance(result, Rejected), result
    return result


def refused(t: KittensTable, player: int, what: str, **fields: Any) -> str:
    """The code of a refusal; asserts that the table did not change."""
    before = t.snapshot()
    result = do(t, player, what, **fields)
    assert isinstance(result, Rejected), result
    assert t.snapshot() == before
    return result.code


def wait(t: KittensTable, ms: int) -> list[JSON]:
    """Let `ms` of play time pass; the timers' events (without their `at`, see test_timer_events_carry_at)."""
    return [{k: v for k, v in e.full().items() if k != "at"} for e in t.advance(t.now + ms)]


def play(t: KittensTable, player: int, *cards: str, **fields: Any) -> list[JSON]:
    """Play cards and let the Nope window close unopposed; all events."""
    events = ok(t, player, "play", cards=list(cards), **fields)
    return events + wait(t, t.s.options.nope_window_ms)


def kinds(events: list[JSON]) -> list[str]:
    return [e["event"] for e in events]
