"""A bot that sits down in the middle of a game (standing in for a player who dropped, or after a
server restart) takes the table as it is and plays on: it does not wait for events it missed."""

from __future__ import annotations

import pytest

from cardroom.bots import make_bot
from cardroom.drive.virtual import VirtualDriver
from cardroom.games import find_game


@pytest.mark.parametrize("game_name", ["burrito", "kittens"])
def test_a_bot_seated_mid_game_plays_the_game_to_its_end(game_name: str) -> None:
    game = find_game(game_name)
    table = game.new_table(3, {}, 11)
    bots = {i: make_bot(game_name, i, "normal", i) for i in range(3)}
    driver = VirtualDriver(table, bots, game.action_json)
    driver.run(limit_ms=20_000)  # well into the game
    assert not table.over
    # Every seat gets a newcomer who heard nothing of the game so far.
    fresh = {i: make_bot(game_name, i, "normal", 100 + i) for i in range(3)}
    for seat, bot in fresh.items():
        bot.notice([], lambda seat=seat: table.view(seat), table.now)  # type: ignore[misc]
    assert any(bot.due() is not None for bot in fresh.values()) or table.next_deadline() is not None
    played = VirtualDriver(table, fresh, game.action_json).run()
    assert table.over and table.winner is not None
    assert played.actions > 0
