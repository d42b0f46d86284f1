"""Whole games with bots, through the virtual-time driver (003 "Obiettivo": one winner)."""

from __future__ import annotations

import pytest

from cardroom.bots import levels, make_bot
from cardroom.bots.kittens_expert import ExpertBot
from cardroom.drive.virtual import VirtualDriver
from cardroom.games.kittens import GAME, KittensTable
from cardroom.protocol import InvalidSetup, Rejected
from cardroom.protocol.record import Record, replay

pytestmark = pytest.mark.slow

LEVELS = levels("kittens")


def run(players: int, seed: int, levels: list[str]) -> KittensTable:
    t = GAME.new_table(players, {}, seed)
    bots = {i: make_bot("kittens", i, levels[i % len(levels)], seed * 100 + i) for i in range(players)}
    for bot in bots.values():
        if isinstance(bot, ExpertBot):
            # These games check the rules' end, not the expert's strength (tests/bots does): a
            # small search plays its moves as well, at a tenth of the suite's time for them.
            bot.playouts = 12
    VirtualDriver(t, bots).run()
    return t


@pytest.mark.parametrize("players", range(2, 11))
def test_whole_games_end_with_exactly_one_winner(players: int) -> None:
    """003: the last player who has not exploded wins."""
    for seed in range(4):
        t = run(players, seed, [LEVELS[(seed + i) % len(LEVELS)] for i in range(players)])
        final = t.summary()
        assert t.over and final["phase"] == "game_over"
        assert final["alive"].count(True) == 1 and final["winner"] == final["alive"].index(True)


def test_bot_games_replay_to_the_same_state() -> None:
    """A game is its seed plus its action list."""
    t = GAME.new_table(4, {}, 5)
    bots = {i: make_bot("kittens", i, LEVELS[i], i) for i in range(4)}
    info = VirtualDriver(t, bots, GAME.action_json).run()
    again = replay(GAME, Record("kittens", 4, {}, 5, moves=info.moves), until=t.now)
    assert again.snapshot() == t.snapshot()


def test_bots_are_deterministic_from_their_seeds() -> None:
    """A game with bots is its seeds: the same seeds play the same game."""
    assert (
        run(3, 9, ["random", "normal", "hard"]).snapshot()
        == run(3, 9, ["random", "normal", "hard"]).snapshot()
    )


def test_bots_react_like_people() -> None:
    """DIGITAL.md "Bots and people": human-like reaction times, never instant."""
    bot = make_bot("kittens", 0, "hard", 1)
    t = GAME.new_table(2, {}, 1)
    first = bot.due()
    assert first is not None and 200 <= first <= 450
    bot.act(lambda: t.view(0), first)
    bot.notice([{"event": "turn", "player": 0, "turns_left": 1, "direction": 1}], lambda: t.view(0), 1000)
    due = bot.due()
    assert due is not None and 1200 <= due <= 1450


def test_a_refused_bot_falls_back_to_drawing() -> None:
    """A bot whose move is refused on its turn draws rather than stall."""
    bot = make_bot("kittens", 0, "random", 1)
    t = GAME.new_table(2, {}, 1)
    bot.refused(Rejected("x", "y"), lambda: t.view(0), 0)
    assert bot.act(lambda: t.view(0), bot.due() or 0) == GAME.parse_action({"do": "draw"}, 2)


def test_unknown_bot_level() -> None:
    """Bot levels are `random`, `easy`, `normal`, `hard`; anything else is a setup error."""
    with pytest.raises(InvalidSetup):
        make_bot("kittens", 0, "genius", 1)


def test_heuristic_bot_clearly_beats_the_random_bot() -> None:
    """The heuristic bot wins at least 70 % of 200 two-player games against the random bot."""
    wins = 0
    games = 200
    for seed in range(games):
        hero = seed % 2
        t = GAME.new_table(2, {}, seed)
        bots = {
            hero: make_bot("kittens", hero, "hard", seed * 7 + 1),
            1 - hero: make_bot("kittens", 1 - hero, "random", seed),
        }
        VirtualDriver(t, bots).run()
        wins += t.winner == hero
    assert wins >= 0.7 * games


def test_bot_games_do_not_depend_on_string_hashing() -> None:
    """Deterministic from the seed in every process, whatever PYTHONHASHSEED is."""
    import os
    import subprocess
    import sys

    code = (
        "from cardroom.bots import make_bot\n"
        "from cardroom.drive.virtual import VirtualDriver\n"
        "from cardroom.games.kittens import GAME\n"
        "t = GAME.new_table(5, {}, 3)\n"
        "bots = {i: make_bot('kittens', i, ('random', 'easy', 'normal', 'hard', 'hard')[i], i) for i in range(5)}\n"
        "VirtualDriver(t, bots).run()\n"
        "print(t.summary(), t.now)\n"
    )
    outputs = {
        subprocess.run(
            [sys.executable, "-c", code],
            env={**os.environ, "PYTHONHASHSEED": str(seed)},
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for seed in (1, 2)
    }
    assert len(outputs) == 1
