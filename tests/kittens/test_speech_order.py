"""Speech says the cause before "Your turn." and a Nope window against you first (issue 21),
through the narration a seat is sent (`Narrator.lines`: each line and its priority; 0 is said
at once, assertively, before the polite lines of the same batch)."""

from __future__ import annotations

from cardroom.games.kittens.actions import Defuse, Draw, Play
from cardroom.narrate.narrator import Narrator
from cardroom.protocol import Event

from .helpers import table

NAMES = ["Ada", "Daan", "Eva"]
NARRATOR = Narrator("kittens")


def _heard(events: list[Event], seat: int, view: dict) -> tuple[list[str], list[int]]:
    said = [e for e in (ev.for_seat(seat) for ev in events) if e is not None]
    return NARRATOR.lines(said, seat, NAMES, view, "en")


def _said_in_order(texts: list[str], priority: list[int]) -> list[str]:
    """The order a listener hears a batch in: the assertive lines at once, the polite ones after
    (cardroom/clients/web/static/ui.js `announce`)."""
    return [t for t, p in zip(texts, priority, strict=True) if p == 0] + [
        t for t, p in zip(texts, priority, strict=True) if 0 < p < 3
    ]


def test_the_defuse_that_made_it_your_turn_is_said_before_your_turn() -> None:
    t = table([["skip"], ["defuse"], ["skip"]], ["exploding_kitten", "favor"], turn=1)
    t.apply(1, Draw(), 0)
    events = t.apply(1, Defuse(0), 500)
    assert isinstance(events, list)
    heard = _said_in_order(*_heard(events, 2, t.view(2)))
    assert heard == ["Daan defuses it. Your turn."]


def test_the_explosion_that_made_it_your_turn_is_said_before_your_turn() -> None:
    t = table([["skip"], ["skip"], ["skip"]], ["exploding_kitten", "favor"], turn=1)
    t.apply(1, Draw(), 0)
    events = t.advance(2500)
    heard = _said_in_order(*_heard(events, 2, t.view(2)))
    assert heard[0].startswith("BOOM! Daan is out.") and heard[0].endswith("Your turn.")


def test_a_nope_window_against_you_is_said_first() -> None:
    """Even behind lines about the past in the same batch: an Attack played on you the moment
    an earlier card of the same player goes ahead after all."""
    t = table([["nope"], ["skip"], ["see_the_future", "attack", "nope"]], ["favor"] * 6, turn=2)
    t.apply(2, Play(("see_the_future",)), 0)
    events = t.advance(3000)  # the See the Future acts
    events += t.apply(2, Play(("attack",)), 3000)
    texts, priority = _heard(events, 0, t.view(0))
    assert _said_in_order(texts, priority)[0] == "Eva: Attack on you."
    assert texts[0] == "Eva: Attack on you." and priority[0] == 0
