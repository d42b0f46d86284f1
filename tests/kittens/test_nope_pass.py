"""Passing on a Nope window (docs/rules/kittens.md#the-nope-window, issue 21): the window closes
as soon as every seat that may answer has passed; a standing choice passes at once; a table may
keep full windows; bots answer after the same pause whatever they hold."""

from __future__ import annotations

from bench.kittens_pace import AFTER, BEFORE, TARGET, pace
from cardroom.bots import make_bot
from cardroom.bots.kittens_random import ANSWER_MS
from cardroom.drive.virtual import VirtualDriver
from cardroom.games.kittens import GAME
from cardroom.games.kittens.actions import Play
from cardroom.protocol.record import Move

from .helpers import kinds, ok, refused, table, wait

EK = "exploding_kitten"


def test_the_window_closes_when_the_last_seat_that_may_answer_passes() -> None:
    """Everyone still in but the card's player passes: the card acts at once, not after 3 s."""
    t = table([["skip"], ["nope"], [], ["favor"]], ["favor", "shuffle"])
    ok(t, 0, "play", cards=["skip"], at=0)
    assert kinds(ok(t, 1, "pass", at=400)) == ["passed"]
    assert kinds(ok(t, 3, "pass", at=700)) == ["passed"]
    assert t.view(2)["window"]["passed"] == [1, 3] and t.summary()["phase"] == "nope_window"
    events = ok(t, 2, "pass", at=900)
    assert kinds(events) == ["passed", "window_closed", "turn"]
    assert events[-1]["player"] == 1 and t.summary()["phase"] == "turn" and t.now == 900


def test_a_nope_opens_the_window_again_for_everyone_who_may_answer_it() -> None:
    """Passes count for the card or Nope they answered: after a Nope, the card's player may answer
    too, and the Nope's player may not."""
    t = table([["skip", "nope"], ["nope"], []], ["favor"])
    ok(t, 0, "play", cards=["skip"], at=0)
    ok(t, 2, "pass", at=100)
    ok(t, 1, "nope", at=200)
    assert t.view(0)["window"]["passed"] == []
    assert refused(t, 1, "pass") == "own_card"
    ok(t, 2, "pass", at=300)
    events = ok(t, 0, "pass", at=400)
    assert kinds(events)[:2] == ["passed", "window_closed"] and events[1]["cancelled"] is True


def test_a_pass_from_a_seat_that_may_not_answer_is_refused_and_changes_nothing() -> None:
    """Its own card, a second pass, no window open, a player who exploded: refused, and the window
    still waits for the others (`refused` checks the table is unchanged)."""
    t = table([["skip"], ["skip"], [], []], ["favor", "shuffle"], alive=[True, True, True, False])
    assert refused(t, 1, "pass") == "nothing_to_pass"
    ok(t, 0, "play", cards=["skip"], at=0)
    assert refused(t, 0, "pass") == "own_card"
    assert refused(t, 3, "pass") == "exploded"
    ok(t, 1, "pass", at=100)
    assert refused(t, 1, "pass") == "already_passed"
    assert t.summary()["phase"] == "nope_window"
    assert kinds(ok(t, 2, "pass", at=200))[:2] == ["passed", "window_closed"]


def test_seats_that_always_pass_pass_at_once() -> None:
    """A standing choice, said to all: their pass comes with the card, and when everyone who may
    answer has it the card acts at once."""
    t = table([["skip", "skip"], ["nope"], []], ["favor", "favor", "shuffle"])
    assert kinds(ok(t, 2, "always_pass", on=True)) == ["always_pass"]
    assert t.view(None)["always_pass"] == [2]
    events = ok(t, 0, "play", cards=["skip"], at=0)
    assert kinds(events) == ["played", "passed"] and events[1] == {
        "event": "passed",
        "player": 2,
        "standing": True,
    }
    ok(t, 1, "always_pass", on=True, at=10)  # switched on in the open window: passes now
    assert t.summary()["phase"] == "turn" and t.summary()["turn"] == 1
    ok(t, 1, "always_pass", on=False, at=20)
    events = ok(t, 1, "draw", at=30)
    assert t.summary()["turn"] == 2


def test_a_table_that_keeps_full_windows_waits_the_whole_3_seconds() -> None:
    """`nope_early_close: false`: passes are taken and shown, the window still runs 3 s."""
    t = table([["skip"], ["nope"], []], ["favor"], options={"nope_early_close": False})
    ok(t, 0, "play", cards=["skip"], at=0)
    ok(t, 1, "pass", at=100)
    ok(t, 2, "pass", at=200)
    assert t.summary()["phase"] == "nope_window"
    assert wait(t, 2799) == []
    assert kinds(wait(t, 1))[0] == "window_closed"


def test_a_bad_early_close_option_is_refused() -> None:
    for bad in ("no", 0, None):
        try:
            GAME.new_table(3, {"nope_early_close": bad}, 1)
        except Exception as exc:
            assert "nope_early_close" in str(exc)
        else:
            raise AssertionError(f"{bad!r} accepted")


def _answer_times(holds_nope: bool, attack: bool, seeds: range) -> list[int]:
    """How long a live `hard` bot at seat 1 takes to answer seat 0's card (a Skip, or an Attack
    on it), holding a Nope or not, over many windows."""
    times: list[int] = []
    for seed in seeds:
        hand = ["nope", "tabby_cat"] if holds_nope else ["tabby_cat", "red_cat"]
        t = table([["attack" if attack else "skip", "skip"], hand, ["skip"]], ["favor"] * 6, seed=seed)
        bots = {s: make_bot("kittens", s, "hard", seed * 10 + s, options={}) for s in (1, 2)}
        moves: list[Move] = []
        driver = VirtualDriver(t, bots, GAME.action_json, recorder=moves.append)
        driver.submit(0, Play(("attack",) if attack else ("skip",)), 0)
        while t.summary()["phase"] == "nope_window" and driver.step(10_000):
            pass
        times += [m.at for m in moves if m.player == 1 and m.action["do"] in ("pass", "nope")]
    return times


def _ks(a: list[int], b: list[int]) -> float:
    """The two-sample Kolmogorov-Smirnov distance: the largest gap between the two shares."""
    return max(abs(sum(x <= v for x in a) / len(a) - sum(x <= v for x in b) / len(b)) for v in a + b)


def test_a_bot_takes_the_same_time_to_pass_whether_it_holds_a_nope_or_not() -> None:
    """docs/rules/kittens.md#bots: when a bot answers tells nothing of its hand. 300 windows
    each: the times to pass with and without a Nope in hand, and the times of a Nope the bot
    does play, all come from one distribution (within ANSWER_MS; KS distance well under the
    0.16 that two samples of 300 from one distribution pass 999 times in 1000)."""
    holding = _answer_times(True, False, range(300))
    empty = _answer_times(False, False, range(300, 600))
    noping = _answer_times(True, True, range(600, 900))
    assert len(holding) == len(empty) == len(noping) == 300
    lo, hi = ANSWER_MS
    for sample in (holding, empty, noping):
        assert lo <= min(sample) and max(sample) <= hi
    assert _ks(holding, empty) < 0.16
    assert _ks(noping, empty) < 0.16


def test_bots_that_pass_make_nope_windows_a_small_share_of_the_game() -> None:
    """The live pace (issue 21): with early close windows take well under a tenth of the game;
    with full windows (the old rule) far more."""
    assert pace(AFTER, 5, 1).share <= TARGET
    assert pace(BEFORE, 5, 1).share > 0.2
