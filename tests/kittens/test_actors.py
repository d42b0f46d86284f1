"""Who may act now (`KittensTable.actors`, issue 16): the seats the driver wakes for bots that
read no events, such as the `random` bot."""

from __future__ import annotations

from cardroom.bots import make_bot
from cardroom.drive.virtual import VirtualDriver
from cardroom.games.kittens import GAME, KittensTable
from cardroom.games.kittens.actions import DRAW, NOPE, PASS, Action, Defuse, Give, Insert, Reorder
from cardroom.protocol import Event


def _could_act(table: KittensTable, seat: int) -> bool:
    """Whether any action of `seat` would be accepted now, tried one by one."""
    s = table.s
    tries: list[Action] = [DRAW, NOPE, PASS, Defuse(0), Insert(0), Reorder(tuple(range(len(s.choice_cards))))]
    tries += [Give(card) for card in set(s.hands[seat])]
    return any(table.check(seat, action) is None for action in tries)


def test_the_actors_are_exactly_the_seats_with_an_accepted_move() -> None:
    """After every batch of 30 games of four players (random and heuristic bots): the seats
    `actors()` names are those with a move the table would accept, no more, no fewer."""
    checked = 0
    for seed in range(30):
        table = GAME.new_table(4, {}, seed)
        levels = ["random", "hard", "random", "easy"]
        bots = {s: make_bot("kittens", s, levels[s], seed * 10 + s) for s in range(4)}

        def heard(now: int, events: list[Event], table: KittensTable = table) -> None:
            nonlocal checked
            expected = {p for p in range(4) if _could_act(table, p)}
            assert set(table.actors()) == expected, (table.s.phase, events[-1].kind)
            checked += 1

        VirtualDriver(table, bots, listener=heard).run()
        assert table.over
    assert checked > 30 * 50


def test_random_bots_never_leave_a_decision_to_the_clock() -> None:
    """Woken only when they may act, four `random` bots still make every decision of theirs in
    time: no turn ends in a forced draw, no choice is made by its timer (only kittens drawn
    without a Defuse explode when their time runs out, as the rules say)."""
    for seed in range(1, 41):
        table = GAME.new_table(4, {}, seed)
        bots = {s: make_bot("kittens", s, "random", seed * 1_000 + s, options={}) for s in range(4)}
        said: list[Event] = []

        def heard(now: int, events: list[Event], said: list[Event] = said) -> None:
            said.extend(events)

        VirtualDriver(table, bots, listener=heard).run()
        assert table.over
        assert not [e for e in said if e.data.get("forced") or e.data.get("timeout")]
        assert GAME.stats(table)["timeouts"] == GAME.stats(table)["explosions"]
