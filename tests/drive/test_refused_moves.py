"""Issue 22: a game's log keeps its accepted actions only, and still replays the same game.

A refused action changes nothing (tests/burrito/test_random_play.py, tests/kittens/
test_random_play.py), so the driver counts it and leaves it out of the log. Whole bot games in
virtual time, with a refused action slipped in among a seat's moves now and then: the log holds
exactly the accepted ones, and replaying it rebuilds the very table the game ended with.
"""

from __future__ import annotations

from typing import Any

import pytest

from cardroom.bots import make_bot
from cardroom.drive.virtual import VirtualDriver
from cardroom.games import find_game
from cardroom.protocol import JSON, Bot, Rejected
from cardroom.protocol.record import Record, replay
from cardroom.protocol.table import ViewFn

ODD_ACTIONS = {
    "kittens": [{"do": "reorder", "order": [2, 0, 1]}, {"do": "give", "card": "defuse"}, {"do": "nope"}],
    "burrito": [{"do": "grab"}, {"do": "dodge"}, {"do": "throw", "target": 0}, {"do": "draw"}],
}
"""Actions out of place most of the time: refused, unless the moment happens to allow them."""


class Fumbling:
    """A real bot that, every third time it acts, presses a key out of place instead."""

    def __init__(self, bot: Bot[Any], odd: list[Any]) -> None:
        self.bot = bot
        self.seat = bot.seat
        self.hears_secrets = bot.hears_secrets
        self.listens = getattr(bot, "listens", True)
        self.odd = odd
        self.turns = 0

    def notice(self, events: list[JSON], view: ViewFn, now: int) -> None:
        self.bot.notice(events, view, now)

    def due(self) -> int | None:
        return self.bot.due()

    def act(self, view: ViewFn, now: int) -> Any:
        self.turns += 1
        if self.turns % 3 == 0:
            return self.odd[self.turns // 3 % len(self.odd)]
        return self.bot.act(view, now)

    def refused(self, rejection: Rejected, view: ViewFn, now: int) -> None:
        self.bot.refused(rejection, view, now)


@pytest.mark.parametrize(("game", "level", "seeds"), [("kittens", "random", 6), ("burrito", "normal", 2)])
def test_the_log_holds_the_accepted_actions_and_replays_the_game(game: str, level: str, seeds: int) -> None:
    definition = find_game(game)
    for seed in range(1, seeds + 1):
        players = 4
        options = definition.options_json({}, players)
        table = definition.new_table(players, options, seed)
        odd = [definition.parse_action(a, players) for a in ODD_ACTIONS[game]]
        bots = {
            s: Fumbling(make_bot(game, s, level, seed * 100 + s, options=options), odd)
            for s in range(players)
        }
        run = VirtualDriver(table, bots, definition.action_json).run()
        assert table.over and run.refused > 10, (seed, run.refused)
        assert len(run.moves) == run.actions, "the log holds the accepted actions, and only them"

        again = replay(definition, Record(game, players, options, seed, moves=run.moves), until=table.now)
        assert again.over and again.winner == table.winner
        for seat in range(players):
            assert again.view(seat) == table.view(seat), (seed, seat)
