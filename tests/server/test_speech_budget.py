"""The speech budget (issue 14), measured from the real server's narration for one seat: a
four-seat table, the listener's seat played at a person's pace, three normal bots; the first
minute of Throw Throw Burrito and a whole game of Exploding Kittens (`bench.speech`, which
`make bench` prints). One table's minute depends on how many fights the listener happens to be
in, so several tables play at once, each its own round, and the budget holds for their words
over their minutes (docs/speech.md)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest

from bench.speech import TARGETS, Transcript, listen_many, pooled
from cardroom.narrate import burrito, kittens
from cardroom.narrate._common import concerns
from cardroom.narrate.speech import VERBOSITIES, Priority, heard
from tests.server.live import LiveServer

pytestmark = (
    pytest.mark.slow
)  # whole games of Exploding Kittens at people's pace: `make test` starts these files first

MODULES = {"burrito": burrito, "kittens": kittens}
TABLES = {"burrito": 4, "kittens": 2}
"""Tables played at once per game: burrito's first minutes are short, kittens' games long."""


@pytest.fixture(scope="module", params=["burrito", "kittens"])
def transcripts(request: pytest.FixtureRequest, server: LiveServer) -> Iterator[tuple[str, list[Transcript]]]:
    game: str = request.param
    seconds = 60.0 if game == "burrito" else None
    with ThreadPoolExecutor(1) as pool:
        run = pool.submit(lambda: asyncio.run(listen_many(server.ws_url, game, seconds, TABLES[game])))
        yield game, run.result()


def test_the_default_verbosity_keeps_to_the_budget(transcripts: tuple[str, list[Transcript]]) -> None:
    """Issue 14's targets for "normal": 150 words a minute in burrito's first minute, 120 over a
    whole kittens game; and each verbosity says less than the next."""
    game, ts = transcripts
    rates = pooled(ts)
    each = [round(t.rates()["normal"]) for t in ts]
    print(
        f"{game}: {len(ts)} tables, words a minute {rates}, normal per table {each} (target {TARGETS[game]})"
    )
    assert all(t.minutes() > 0.9 for t in ts)
    assert rates["normal"] <= TARGETS[game], (rates, each)
    assert rates["brief"] <= rates["normal"] < rates["verbose"]
    # The default folds the background: it says well under what the verbose table says.
    assert rates["normal"] < 0.8 * rates["verbose"]


def test_nothing_that_concerns_you_or_needs_an_answer_is_dropped(
    transcripts: tuple[str, list[Transcript]],
) -> None:
    """Every event the listener takes part in, or that needs their answer, is said at every
    verbosity, unless it is folded into the summaries and the recap (a pass to you)."""
    game, ts = transcripts
    module = MODULES[game]
    for t in ts:
        events = [m for m in t.batches if m["type"] == "events"]
        assert events
        for message in events:
            for event in message["events"]:
                if not module.narrate(event, 0, ["A", "B", "C", "D"], message["view"]):
                    continue
                p = module.priority(event, 0, message["view"])
                # A countdown names the caller of the fight just over, but is everybody's: after
                # a fight its "Burrito!" alone is said at once (docs/speech.md).
                takes_part = concerns(event, 0) and event["event"] != "countdown"
                if takes_part and p == Priority.BACKGROUND:
                    assert module.fold(event, 0) is not None, event
        for verbosity in VERBOSITIES:
            said = heard(t.batches, verbosity)
            for message in events:
                for text, p in zip(message["texts"], message["priority"], strict=True):
                    if p <= Priority.YOU:
                        assert text in said, (verbosity, text)


def test_brief_keeps_the_milestones(transcripts: tuple[str, list[Transcript]]) -> None:
    """Brief mode's milestones, over the wire: burrito's start and "3, 2, 1, Burrito!"; kittens'
    start, every explosion and "Game over"."""
    game, ts = transcripts
    for t in ts:
        said = heard(t.batches, "brief")
        if game == "burrito":
            assert said[0] == "Round 1 begins."
            start = said.index("3")
            assert said[start : start + 4] == ["3", "2", "1", "Burrito!"]
        else:
            assert said[0].startswith("The game begins")
            booms = [m for m in t.batches for e in m.get("events", []) if e["event"] == "exploded"]
            assert len([x for x in said if x.startswith("BOOM!")]) == len(booms) >= 1
            assert said[-1].startswith("Game over: ")
