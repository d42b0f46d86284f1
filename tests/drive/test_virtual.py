"""The virtual-time driver tells each bot what its seat may hear, and nothing more.

The driver filters each batch of events once (issue 16: simulations fast enough for search),
handing the same lists and dicts to several seats. A bot that hears secrets must still hear
exactly what `Event.for_seat` says its seat may: its own secret cards in full, others' as their
public part, and nothing of an event only others hear of. A bot that does not
(`Bot.hears_secrets` false) hears the public part of the public events only, never a hidden card,
not even its own.
"""

from __future__ import annotations

from typing import Any

import pytest

from cardroom.bots import make_bot
from cardroom.drive.virtual import VirtualDriver
from cardroom.games import find_game
from cardroom.protocol import JSON, Bot, Event, Rejected
from cardroom.protocol.table import ViewFn


class Listening:
    """A real bot, with what it was told checked against the batch the table just said."""

    def __init__(self, bot: Bot[Any], batch: list[list[Event]], heard: list[int], secrets: bool) -> None:
        self.bot = bot
        self.seat = bot.seat
        self.hears_secrets = secrets
        self.listens = True  # what it is told is checked, whatever the bot inside reads
        self.batch = batch
        self.heard = heard

    def notice(self, events: list[JSON], view: ViewFn, now: int) -> None:
        if self.hears_secrets:
            may = [e for e in (ev.for_seat(self.seat) for ev in self.batch[0]) if e is not None]
        else:
            may = [e for e in (ev.for_seat(None) for ev in self.batch[0]) if e is not None]
        assert events == may
        self.heard[0] += len(events)
        self.heard[1] += sum(1 for ev in self.batch[0] if self.seat in ev.knowers)
        self.bot.notice(events, view, now)

    def due(self) -> int | None:
        return self.bot.due()

    def act(self, view: ViewFn, now: int) -> Any:
        return self.bot.act(view, now)

    def refused(self, rejection: Rejected, view: ViewFn, now: int) -> None:
        self.bot.refused(rejection, view, now)


@pytest.mark.parametrize(
    ("game", "level", "games", "secrets"),
    [("kittens", "random", 30, None), ("kittens", "random", 10, True), ("burrito", "normal", 2, None)],
)
def test_each_bot_hears_exactly_what_its_seat_may(
    game: str, level: str, games: int, secrets: bool | None
) -> None:
    """`secrets`: whether the bot hears secrets; None: as the bot says (kittens bots do not,
    Throw Throw Burrito's do)."""
    definition = find_game(game)
    heard = [0, 0]  # events heard, secret ones among them known
    for seed in range(1, games + 1):
        table = definition.new_table(4, {}, seed)
        batch: list[list[Event]] = [[]]

        def said(now: int, events: list[Event], batch: list[list[Event]] = batch) -> None:
            batch[0] = events

        bots = {
            s: Listening(bot, batch, heard, bot.hears_secrets if secrets is None else secrets)
            for s, bot in ((s, make_bot(game, s, level, seed * 1000 + s, options={})) for s in range(4))
        }
        VirtualDriver(table, bots, listener=said).run()
    assert heard[0] > 100 * games
    if game == "kittens":
        assert heard[1] > 20 * games  # cards drawn, futures seen, cards given: each to its knowers
