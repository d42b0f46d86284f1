"""Throw Throw Burrito bots (DIGITAL.md, "Bots and people"): they play whole games through the
same actions as people, see only what their seat sees, and react at a person's speed by level.
"""

from __future__ import annotations

import statistics
from typing import Any

import pytest

from cardroom import bots
from cardroom.bots.burrito import BurritoBot, make_bot
from cardroom.bots.burrito_levels import LEVELS
from cardroom.drive.simulate import simulate
from cardroom.drive.virtual import Run, VirtualDriver
from cardroom.games.burrito import GAME, BurritoTable, Call, Discard, Draw, Grab, Set, Throw
from cardroom.games.burrito.cards import CARD_SET
from cardroom.protocol import JSON, Event, InvalidSetup, Rejected
from cardroom.protocol.table import ViewFn

GO = {"event": "countdown", "beat": "burrito", "caller": None, "round": 1}


def play(
    players: int, seed: int, levels: list[str], options: dict[str, Any] | None = None
) -> tuple[BurritoTable, Run]:
    table = GAME.new_table(players, options or {}, seed)
    bots = {s: make_bot(s, levels[s % len(levels)], seed * 1_000 + s) for s in range(players)}
    return table, VirtualDriver(table, bots).run()


def dealt(players: int, hands: list[list[str]], **deal: Any) -> BurritoTable:
    """A table in play at time 0 holding `hands`, with cards left to draw."""
    piles = deal.pop("piles", [["logger_dogger"] * 3 for _ in range(players)])
    community = deal.pop("community", [["war"] * 3, ["nacho_llama"] * 3])
    return GAME.from_deal(players, {}, {"hands": hands, "piles": piles, "community": community, **deal}, 1)


def viewer(table: BurritoTable, seat: int) -> ViewFn:
    return lambda: table.view(seat)


def playing(seat: int, level: str = "normal", seed: int = 1) -> BurritoBot:
    """A bot that has just heard "Burrito!" at time 0."""
    bot = make_bot(seat, level, seed)
    bot.notice([GO], lambda: {}, 0)
    return bot


# ---- whole games ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "options"),
    [(2, {}), (3, {}), (6, {}), (12, {"variants": ["two_decks"]})],
)
def test_normal_bots_play_whole_games_to_one_winner_reproducibly(players: int, options: JSON) -> None:
    """DIGITAL.md "Round and game": a game ends with one winner; a game is its seed."""
    for seed in (3, 4):
        table, run = play(players, seed, ["normal"], options)
        assert table.over
        assert table.winner is not None
        assert table.mistakes == 0  # a bot never grabs as a bystander nor calls without the cards
        again, rerun = play(players, seed, ["normal"], options)
        assert (again.winner, rerun.actions, rerun.end_ms) == (table.winner, run.actions, run.end_ms)


def test_unknown_bot_level_is_refused() -> None:
    with pytest.raises(InvalidSetup):
        make_bot(0, "expert", 1)
    with pytest.raises(InvalidSetup):
        bots.make_bot("burrito", 0, "expert", 1)
    assert set(LEVELS) == set(bots.levels("burrito"))


def test_hard_bots_win_more_than_easy_bots() -> None:
    """DIGITAL.md "Bots and people": levels differ, so that people can win against easy bots."""
    wins = {"easy": 0, "hard": 0}
    for seed, levels in ((10, ["hard", "easy"] * 2), (20, ["easy", "hard"] * 2)):
        totals = simulate(GAME, 4, 5, seed, levels)
        assert totals.unfinished == 0
        for seat, count in enumerate(totals.wins):
            wins[levels[seat]] += count
    assert wins["hard"] >= 3 * wins["easy"] + 3, wins


# ---- what a bot may see ---------------------------------------------------------------------


class RecordingBot(BurritoBot):
    """A bot that keeps every event and view it was given."""

    def __init__(self, seat: int, level: str, seed: int) -> None:
        super().__init__(seat, LEVELS[level], seed)
        self.heard: list[JSON] = []
        self.views: list[JSON] = []

    def _watch(self, view: ViewFn) -> ViewFn:
        def watched() -> JSON:
            v = view()
            self.views.append(v)
            return v

        return watched

    def notice(self, events: list[JSON], view: ViewFn, now: int) -> None:
        self.heard.extend(events)
        super().notice(events, self._watch(view), now)

    def act(self, view: ViewFn, now: int) -> Any:
        return super().act(self._watch(view), now)

    def refused(self, rejection: Rejected, view: ViewFn, now: int) -> None:
        super().refused(rejection, self._watch(view), now)


def _cards_in(value: Any) -> set[str]:
    """Card names anywhere in `value` (fight names, "war" and "duel", are not cards)."""
    if isinstance(value, str):
        return {value} if value in CARD_SET else set()
    if isinstance(value, dict):
        found = [_cards_in(v) for k, v in value.items() if k not in ("kind", "fight")]
        return set().union(*found)
    if isinstance(value, list | tuple):
        return set().union(*(_cards_in(v) for v in value))
    return set()


def test_a_bot_never_sees_a_hidden_card() -> None:
    """DIGITAL.md: a bot plays like a person, so it knows only its own hand and public cards."""
    players = 4
    table = GAME.new_table(players, {}, 7)
    bots = {s: RecordingBot(s, "normal", 70 + s) for s in range(players)}
    VirtualDriver(table, bots).run()
    assert table.over
    for seat, bot in bots.items():
        assert bot.views and bot.heard
        for v in bot.views:
            assert v["seat"] == seat
            public = {k: val for k, val in v.items() if k not in ("hand", "score_piles")}
            assert _cards_in(public) == set(), public  # sizes only: no pile, no other hand
        for e in bot.heard:
            kind = e["event"]
            if kind in ("hand", "draw", "discard"):
                if e["player"] != seat:
                    assert _cards_in(e) == set(), e
            elif kind == "behind_back" and e["player"] != seat:
                assert "target" not in e
            elif kind not in ("set", "call"):
                assert _cards_in(e) == set(), e


# ---- reaction times -------------------------------------------------------------------------


class Timings:
    """Listens to a game: each bot's time between two card actions in a row, between the start
    of a fight and its first grab, and between a burrito thrown at it and its dodge (from the
    first of the burritos that dodge lets fly by, each followed by its id: a burrito that lands
    while another is still flying at the same player ends only its own)."""

    def __init__(self, levels: list[str]) -> None:
        self.levels = levels
        self.card: dict[str, list[int]] = {lvl: [] for lvl in LEVELS}
        self.dodge: dict[str, list[int]] = {lvl: [] for lvl in LEVELS}
        self.grab: dict[str, list[int]] = {lvl: [] for lvl in LEVELS}
        self._fight_at: int | None = None
        self._grabbed: set[int] = set()
        self._last: dict[int, int] = {}
        self._flying: dict[int, int] = {}
        """When each burrito in the air was thrown, by its id."""

    def __call__(self, now: int, events: list[Event]) -> None:
        for ev in events:
            d = ev.data
            if ev.kind in ("draw", "discard", "set"):
                p = d["player"]
                if p in self._last:
                    self.card[self.levels[p]].append(now - self._last[p])
                self._last[p] = now
            elif ev.kind in ("call", "countdown", "fight_start"):
                self._last.clear()
                if ev.kind == "fight_start" and "go_at" not in d:
                    self._fight_at, self._grabbed = now, set()
            elif ev.kind == "grab" and self._fight_at is not None and d["player"] not in self._grabbed:
                self._grabbed.add(d["player"])
                self.grab[self.levels[d["player"]]].append(now - self._fight_at)
            elif ev.kind == "throw":
                self._flying[d["id"]] = now
            elif ev.kind == "dodge":
                thrown = [self._flying.pop(i) for i in d["ids"] if i in self._flying]
                if thrown:
                    self.dodge[self.levels[d["player"]]].append(now - min(thrown))
            elif ev.kind in ("catch", "fumble", "hit", "miss"):
                self._flying.pop(d["id"], None)
            elif ev.kind == "fight_over":
                self._flying.clear()
                self._fight_at = None


def test_reaction_times_are_a_persons_and_ordered_by_level() -> None:
    """DIGITAL.md "Bots and people": easy about 650 ms, normal 420 ms, hard 260 ms, with jitter,
    in card play and in fights (docs/bots.md: a grab is a simple reaction; whether a hard bot
    dodges or catches depends on the fight, so its dodges are not all first reactions)."""
    levels = ["easy", "normal", "hard"] * 2
    timings = Timings(levels)
    for seed in (1, 2, 3):
        table = GAME.new_table(6, {}, seed)
        bots = {s: make_bot(s, levels[s], seed * 100 + s) for s in range(6)}
        VirtualDriver(table, bots, listener=timings).run()
        assert table.over
    card = {lvl: statistics.median(g) for lvl, g in timings.card.items()}
    dodge = {lvl: statistics.median(g) for lvl, g in timings.dodge.items()}
    grab = {lvl: statistics.median(g) for lvl, g in timings.grab.items()}
    assert card["easy"] > card["normal"] > card["hard"], card
    assert grab["easy"] > grab["normal"] > grab["hard"], grab
    assert dodge["easy"] > max(dodge["normal"], dodge["hard"]), dodge
    assert 550 <= card["easy"] <= 900 and 350 <= card["normal"] <= 560 and 220 <= card["hard"] <= 360, card
    assert all(min(g) >= LEVELS[lvl].floor_ms for lvl, g in timings.dodge.items())  # never superhuman


# ---- card play, one rule at a time --------------------------------------------------------------


def test_a_bot_waits_for_burrito_then_acts_after_its_reaction_time() -> None:
    for level, lvl in LEVELS.items():
        bot = make_bot(0, level, 5)
        assert bot.due() is None
        bot.notice([GO], lambda: {}, 1000)
        due = bot.due()
        assert due is not None and 1000 + lvl.floor_ms <= due <= 1000 + 6 * lvl.mean_ms()


def test_a_bot_scores_a_set_of_three_identical_normal_cards_at_once() -> None:
    t = dealt(3, [["goth_sloth", "salsa_yeti", "goth_sloth", "war", "goth_sloth"], [], []])
    assert playing(0).act(viewer(t, 0), 500) == Set("goth_sloth")


def test_a_bot_calls_a_fight_with_three_battle_cards_brawl_colours_apart() -> None:
    t = dealt(3, [["war", "churro_bat", "war", "war"], [], []])
    assert playing(0).act(viewer(t, 0), 500) == Call("war", "war")
    t = dealt(3, [["brawl_a", "brawl_b", "brawl_a", "brawl_b", "churro_bat"], [], []])
    assert not isinstance(playing(0).act(viewer(t, 0), 500), Call)
    t = dealt(3, [["brawl_b", "brawl_a", "brawl_b", "brawl_b"], [], []])
    assert playing(0).act(viewer(t, 0), 500) == Call("brawl", "brawl_b")


def test_a_bot_names_the_two_leaders_in_a_duel() -> None:
    """000: the Duel card's caller names two players; the bot names the two others who lead."""
    scores = [["goth_sloth"] * 3, ["salsa_yeti"] * 6, [], ["churro_bat"] * 3]
    t = dealt(4, [["duel"] * 3, [], [], []], score_piles=scores)
    assert playing(0, "hard").act(viewer(t, 0), 500) == Call("duel", "duel", (1, 3))


def test_a_bot_draws_below_five_cards_and_passes_its_least_useful_card() -> None:
    t = dealt(3, [["goth_sloth", "goth_sloth", "war"], [], []])
    assert playing(0, "hard").act(viewer(t, 0), 500) == Draw()
    hand = ["goth_sloth", "goth_sloth", "war", "war", "churro_bat"]
    t = dealt(3, [hand, [], []])
    assert playing(0, "hard").act(viewer(t, 0), 500) == Discard("churro_bat")


def test_a_bot_uses_a_community_pile_when_its_own_pile_is_empty() -> None:
    t = dealt(3, [["goth_sloth"], [], []], piles=[[], ["war"], ["war"]])
    bot = playing(0, "hard")
    action = bot.act(viewer(t, 0), 500)
    assert isinstance(action, Draw)
    assert not isinstance(t.apply(0, action, 500), Rejected)
    assert t.hands[0] == ["goth_sloth", "war"]  # the top of community pile 0


def test_a_refused_action_is_not_retried_at_the_same_instant() -> None:
    """The driver loops on a bot that is always due now; a refusal must move the bot on."""
    t = dealt(3, [["goth_sloth"] * 2, [], []])
    bot = playing(0)
    view = viewer(t, 0)
    assert bot.act(view, 500) is not None
    for n in range(1, 5):
        bot.refused(Rejected("hand_full", "you hold 5 cards"), view, 500 * n)
        due = bot.due()
        assert due is not None and due > 500 * n


# ---- fights ---------------------------------------------------------------------------------


def _feed(bots: dict[int, BurritoBot], events: list[Event], now: int) -> None:
    for seat, bot in bots.items():
        heard = [e for e in (ev.for_seat(seat) for ev in events) if e is not None]
        bot.notice(heard, lambda: {}, now)


def test_fighters_grab_and_throw_at_another_fighter_bystanders_never_grab() -> None:
    """000/DIGITAL.md "Fights": a Brawl is fought by the caller's two neighbours."""
    t = dealt(4, [["brawl_a"] * 3, [], [], []])
    bots = {s: playing(s, "hard", s) for s in range(4)}
    result = t.apply(0, Call("brawl", "brawl_a"), 100)
    assert not isinstance(result, Rejected)
    _feed(bots, result, 100)
    assert bots[0].due() is None and bots[2].due() is None  # bystanders wait
    log: list[Event] = []
    driver = VirtualDriver(t, bots, listener=lambda now, evs: log.extend(evs))
    while t.fight is not None and driver.step(60_000):
        pass
    grabs = {e.data["player"] for e in log if e.kind == "grab"}
    throws = [e.data for e in log if e.kind == "throw"]
    assert grabs and grabs <= {1, 3}
    assert throws and all({d["thrower"], d["target"]} == {1, 3} for d in throws)
    assert t.mistakes == 0
    assert t.bruises[0] == t.bruises[2] == 0 and t.bruises[1] + t.bruises[3] == 1


def test_a_bot_that_first_looks_during_a_fight_fights_it() -> None:
    """A bot seated (or its client reconnected) while a Brawl is on learns of it from the view,
    not from the fight's start: a hard bot, whose tactics weigh who called the fight, fights it
    (a CI run of three nodes: the relayed bot's client stopped on the missing caller)."""
    t = dealt(4, [["brawl_a"] * 3, ["goth_sloth"] * 3, [], []])
    result = t.apply(0, Call("brawl", "brawl_a"), 100)
    assert not isinstance(result, Rejected)
    late = make_bot(1, "hard", 5)
    late.notice([], viewer(t, 1), 200)  # no events: what it knows is the view
    others = {s: playing(s, "hard", s) for s in (0, 2, 3)}
    _feed(others, result, 100)
    log: list[Event] = []
    driver = VirtualDriver(t, {**others, 1: late}, listener=lambda now, evs: log.extend(evs))
    while t.fight is not None and driver.step(60_000):
        pass
    assert 1 in {e.data["player"] for e in log if e.kind == "grab"} | {
        e.data["thrower"] for e in log if e.kind == "throw"
    }


def test_a_targeted_fighter_reacts_inside_the_flight_and_in_duels_waits_for_burrito() -> None:
    """DIGITAL.md: the target may dodge during the flight or catch in its last 300 ms; in a duel
    a throw before "Burrito!" is a false start (a hard bot never makes one)."""
    for seed in range(12):
        log = _duel(seed)
        throws = [(now, e.data) for now, e in log if e.kind == "throw"]
        assert throws and throws[0][0] >= 3000 + LEVELS["hard"].floor_ms  # "Burrito!" at 3000
        assert not any(e.kind == "false_start" for _, e in log)
        first = throws[0][1]
        reactions = [
            now
            for now, e in log
            if e.kind in ("dodge", "catch", "fumble") and e.data["player"] == first["target"]
        ]
        if reactions:
            assert throws[0][0] < reactions[0] < first["lands_at"]


def _duel(seed: int) -> list[tuple[int, Event]]:
    """Seat 0 calls a duel between seats 1 and 2 (hard bots); what happened until it ended."""
    t = dealt(3, [["duel"] * 3, [], []])
    bots = {s: playing(s, "hard", seed * 10 + s) for s in range(3)}
    result = t.apply(0, Call("duel", "duel", (1, 2)), 0)
    assert not isinstance(result, Rejected)
    _feed(bots, result, 0)
    assert t.fight is not None and t.fight.go_at == 3000
    log: list[tuple[int, Event]] = []
    driver = VirtualDriver(t, bots, listener=lambda now, evs: log.extend((now, e) for e in evs))
    while t.fight is not None and driver.step(60_000):
        pass
    return log


def test_a_fighter_grabs_only_a_free_burrito_and_throws_at_a_fighter() -> None:
    t = dealt(4, [["war"] * 3, [], [], []])
    bots = {s: playing(s, "normal", s) for s in range(4)}
    result = t.apply(0, Call("war", "war"), 0)
    assert not isinstance(result, Rejected)
    _feed(bots, result, 0)
    actions: list[tuple[int, Any]] = []
    for _ in range(20):
        waiting = [s for s in bots if bots[s].due() is not None]
        assert waiting
        seat = min(waiting, key=lambda s: bots[s].due() or 0)
        now = bots[seat].due() or 0
        t.advance(now)
        action = bots[seat].act(viewer(t, seat), now)
        if action is None:
            continue
        actions.append((seat, action))
        result = t.apply(seat, action, now)
        assert not isinstance(result, Rejected), (seat, action, result)
        _feed(bots, result, now)
        if any(isinstance(a, Throw) for _, a in actions):
            break
    assert actions[0][1] == Grab() and actions[0][0] != 0
    thrower, throw = next((s, a) for s, a in actions if isinstance(a, Throw))
    assert isinstance(throw, Throw) and throw.target in (1, 2, 3) and throw.target != thrower


# ---- human-like fight reactions (issue 21) ----------------------------------------------------


def _fight_dues(bot: BurritoBot, t: BurritoTable, fighter: int) -> tuple[int | None, int | None]:
    """Seat 2 calls a Brawl at 10,000 (the bot, seat `fighter`, fights seat 1): when the bot
    first means to act; then, seat 1 having thrown at it at 12,000, when it means to answer."""
    bot._play = False  # the table's play is over: only the fight follows
    start = {"event": "fight_start", "kind": "brawl", "fighters": [fighter, 1], "caller": 2}
    bot.notice([{**start, "tiebreak": None, "timeout_at": 25_000, "at": 10_000}], viewer(t, fighter), 10_000)
    first = bot.due()
    throw = {"event": "throw", "thrower": 1, "target": fighter, "id": 1, "at": 12_000}
    bot.notice(
        [{**throw, "lands_at": 14_000, "catch_from": 13_400, "flight_ms": 2000}], viewer(t, fighter), 12_000
    )
    return first, bot._def_at  # its grab may still be due first


def test_no_bot_answers_a_fights_cue_sooner_than_a_quick_person() -> None:
    """docs/bots.md#reaction-times: a visual choice reaction takes a quick person some 400 ms;
    no level answers a fight's start or a burrito thrown at it sooner, over many draws."""
    t = dealt(3, [[], [], []])
    for level in LEVELS:
        grabs, answers = [], []
        for seed in range(300):
            first, answer = _fight_dues(make_bot(0, level, seed), t, 0)
            assert first is not None and answer is not None
            grabs.append(first - 10_000)
            answers.append(answer - 12_000)
        assert min(grabs) >= 400 and min(answers) >= 400, (level, min(grabs), min(answers))


def test_a_bots_fight_timing_does_not_depend_on_its_cards() -> None:
    """docs/bots.md#reaction-times: two bots of one seed whose hands differ, having played their
    cards, grab and answer a burrito at the same moments: timing never tells what a bot holds."""
    dues = []
    hands = (
        ["goth_sloth", "salsa_yeti", "war", "churro_bat", "duel"],
        ["nacho_llama"] * 2 + ["brawl_b", "war"],
    )
    for hand in hands:
        t = dealt(3, [hand, [], []])
        bot = playing(0, "easy", 7)
        bot.notice([{"event": "hand", "player": 0, "cards": hand, "at": 0}], viewer(t, 0), 0)
        for _ in range(4):  # it plays its cards a while
            due = bot.due()
            if due is None:
                break
            action = bot.act(viewer(t, 0), due)
            result = t.apply(0, action, due) if action is not None else []
            assert not isinstance(result, Rejected)
            bot.notice([e for e in (ev.for_seat(0) for ev in result) if e is not None], viewer(t, 0), due)
        dues.append(_fight_dues(bot, t, 0))
    assert dues[0] == dues[1], dues
