"""The engine says exactly what it said before it was made faster (issue 16, item 3).

200 recorded games (2 to 5 players, every bot level) replayed move by move: the same events,
in full and as every seat and a spectator hear them, the same views and the same end
(`engine_record.digest`). And the bots, playing those deals again, make the same moves.
"""

from __future__ import annotations

import pytest

from cardroom.bots import make_bot
from cardroom.drive.virtual import VirtualDriver
from cardroom.games.kittens import GAME
from tests.kittens.engine_record import SETS, digest, fresh_table, load

GAMES = load()


def test_the_fixture_holds_many_games_of_every_size() -> None:
    assert len(GAMES) == 200
    assert {g["players"] for g in GAMES} == {2, 3, 4, 5}
    assert sum(len(g["moves"]) for g in GAMES) > 10_000


@pytest.mark.parametrize("chunk", range(4))
def test_replayed_games_say_the_same(chunk: int) -> None:
    for game in GAMES[chunk::4]:
        assert digest(game) == game["digest"], f"game with seed {game['seed']} differs"


def _seat_levels() -> list[tuple[str, ...]]:
    """Each recorded game's bot level per seat, in the order `engine_record.main` wrote them."""
    out: list[tuple[str, ...]] = []
    for players, levels, count in SETS:
        out += [levels if len(levels) == players else levels * players] * count
    return out


@pytest.mark.parametrize("chunk", range(2))
def test_bots_make_the_same_moves_on_the_same_deal(chunk: int) -> None:
    """Every recorded game, every level (the first 40: random four-player games, the bench's
    kind): the bots, seeded as when it was recorded, play the same moves at the same times."""
    for game, levels in list(zip(GAMES, _seat_levels(), strict=True))[chunk::2]:
        players, seed = game["players"], game["seed"]
        table = fresh_table(players, seed, game["hands"], game["deck"])
        bots = {s: make_bot("kittens", s, levels[s], seed * 1_000 + s) for s in range(players)}
        run = VirtualDriver(table, bots, GAME.action_json).run()
        assert [[m.at, m.player, m.action] for m in run.moves] == game["moves"], f"seed {seed}"
