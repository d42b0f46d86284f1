"""The server narrates like the terminal: the deal, refusals and 003's quick keys (T, E, shift+D)
come over the network as the sentences of `cardroom.narrate`, and the card names the web page
shows come from the same place (`/i18n/{lang}.json`)."""

from __future__ import annotations

import asyncio
import json
import urllib.request
from collections import Counter
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from cardroom.narrate import burrito, kittens
from cardroom.narrate.narrator import Narrator
from cardroom.narrate.speech import SUMMARY_EVERY_MS, Digest, Priority, said_at_once, said_in_ms
from cardroom.protocol import Rejected
from tests.server.live import Client, LiveServer

SLOW_KITTENS = {"turn_ms": 60_000, "nope_window_ms": 3000}

T = TypeVar("T")


def _run(scenario: Callable[[], Coroutine[Any, Any, T]]) -> T:
    """Run `scenario` in its own thread and loop (the browser tests leave a loop in this one)."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(lambda: asyncio.run(scenario())).result()


async def _kittens_started(client: Client) -> tuple[str, dict[str, Any]]:
    """A two-seat kittens table against a bot, started; seat 0 (ours) plays first."""
    await client.send(
        {"type": "create_table", "game": "kittens", "seats": 2, "bots": 1, "options": SLOW_KITTENS}
    )
    created = await client.expect("table")
    table: str = created["id"]
    await client.send({"type": "start", "table": table})
    started = await client.expect("table", state="playing")
    return table, started


def test_a_fresh_kittens_game_is_narrated_from_the_deal_to_the_first_turn(server: LiveServer) -> None:
    """The deal and the first turn are events: every client hears them from the server."""

    async def scenario() -> dict[str, Any]:
        client = await Client.connect(server.ws_url, "Dealt")
        table, _ = await _kittens_started(client)
        batch = await client.expect("events", table=table)
        await client.close()
        return batch

    batch = _run(scenario)
    kinds = [e["event"] for e in batch["events"]]
    assert kinds == ["deal", "hand", "turn"]
    hand = batch["events"][1]
    assert hand["player"] == 0 and len(hand["cards"]) == 8 and "defuse" in hand["cards"]
    texts = batch["texts"]
    assert texts[0] == "The game begins: you hold 8 cards."
    assert texts[-1] == "Your turn."
    assert batch["urgent"][-1] is True and batch["urgent"][0] is False


def test_rules_questions_are_answered_with_the_narrations_sentences(server: LiveServer) -> None:
    """003: T says whose turn and the turns left, E the counts, shift+D what a card does."""

    async def scenario() -> dict[str, dict[str, Any]]:
        client = await Client.connect(server.ws_url, "Asker")
        table, _ = await _kittens_started(client)
        answers: dict[str, dict[str, Any]] = {}
        for key, message in {
            "turn": {"what": "turn"},
            "counts": {"what": "counts"},
            "card": {"what": "card", "card": "skip"},
        }.items():
            await client.send({"type": "query", "table": table, **message})
            answers[key] = await client.expect("answer", table=table)
        await client.send({"type": "query", "table": table, "what": "weather"})
        answers["bad"] = await client.expect("error")
        await client.send({"type": "query", "table": table, "what": "card", "card": "joker"})
        answers["joker"] = await client.expect("error")
        await client.close()
        return answers

    answers = _run(scenario)
    assert answers["turn"]["what"] == "turn"
    assert answers["turn"]["text"] == "It is your turn (only this one)."
    assert answers["counts"]["text"].startswith("Cards in hand: you: 8 cards")
    assert "Deck: " in answers["counts"]["text"] and answers["counts"]["text"].endswith("Discard pile: 0.")
    assert answers["card"]["text"] == "Skip: Ends one turn without drawing."
    assert answers["bad"]["code"] == "bad_query"
    assert answers["bad"]["message"] == "There is no question weather: ask turn, counts or card."
    assert answers["joker"]["code"] == "bad_query"
    assert answers["joker"]["message"] == "There is no card called joker in Exploding Kittens."


def test_a_refused_action_comes_back_with_the_terminals_sentence(server: LiveServer) -> None:
    """One table of refusal sentences serves the terminal and the network alike."""

    async def scenario() -> dict[str, Any]:
        client = await Client.connect(server.ws_url, "Refused")
        table, _ = await _kittens_started(client)
        await client.send({"type": "act", "table": table, "action": {"do": "nope"}, "ref": 7})
        rejected = await client.expect("rejected", table=table)
        await client.close()
        return rejected

    rejected = _run(scenario)
    assert rejected["code"] == "nothing_to_nope" and rejected["ref"] == 7
    assert rejected["message"] == "Refused: there is nothing to Nope right now."
    same = kittens.refusal(Rejected("nothing_to_nope", "There is nothing to Nope right now."))
    assert rejected["message"] == same


def test_the_catalog_carries_the_card_names_and_texts_of_the_narration(server: LiveServer) -> None:
    with urllib.request.urlopen(server.url + "/i18n/en.json", timeout=5) as reply:
        data = json.loads(reply.read())
    assert data["lang"] == "en" and isinstance(data["messages"], dict)
    assert data["cards"]["burrito"] == burrito.card_catalog()
    assert data["cards"]["burrito"]["goth_sloth"] == {
        "name": "Goth Sloth",
        "text": "Three alike make a set: 1 point.",
    }
    assert data["cards"]["burrito"]["war"] == {
        "name": "War",
        "text": "Call three: 2 points, and everyone but you fights a War.",
        "two_players": "Call three: 2 points, and a War between you and the other player.",
        "fight": "war",
    }
    assert data["cards"]["kittens"]["see_the_future"] == {
        "name": "See the Future",
        "text": "You look at the top three cards of the deck.",
        "targets": False,
        "cat": False,
    }
    # What the page's keys need to know of a card comes with it, from the registry.
    assert data["cards"]["kittens"]["favor"]["targets"] and data["cards"]["kittens"]["feral_cat"]["cat"]
    assert set(data["cards"]["kittens"]) == set(kittens.CARD_NAMES)


def test_shift_d_on_a_burrito_card_is_answered_for_the_table(server: LiveServer) -> None:
    """Issue 24, card help everywhere: Shift+D asks the server what a Throw Throw Burrito card
    is for, in the words the page shows beside it; a table of two hears the two-player words
    (docs/rules/burrito.md#two-players: every fight is between the two of them)."""

    async def ask(seats: int) -> dict[str, dict[str, Any]]:
        client = await Client.connect(server.ws_url, f"Asker{seats}")
        await client.send({"type": "create_table", "game": "burrito", "seats": seats, "bots": seats - 1})
        table = (await client.expect("table"))["id"]
        await client.send({"type": "start", "table": table})
        await client.expect("table", state="playing")
        answers: dict[str, dict[str, Any]] = {}
        for card in ("goth_sloth", "brawl_b", "war", "duel"):
            await client.send({"type": "query", "table": table, "what": "card", "card": card})
            answers[card] = await client.expect("answer", table=table)
        for name, message in {
            "weather": {"what": "weather"},
            "joker": {"what": "card", "card": "joker"},
        }.items():
            await client.send({"type": "query", "table": table, **message})
            answers[name] = await client.expect("error")
        await client.close()
        return answers

    async def scenario() -> tuple[dict[str, dict[str, Any]], dict[str, dict[str, Any]]]:
        return await ask(3), await ask(2)

    three, two = _run(scenario)
    goth_sloth = "Goth Sloth: Three alike make a set: 1 point."
    brawl = "Brawl B: Call three Brawl B (never mixed with Brawl A): 2 points, and "
    assert {card: three[card]["text"] for card in ("goth_sloth", "brawl_b", "war", "duel")} == {
        "goth_sloth": goth_sloth,
        "brawl_b": brawl + "your left and right neighbours fight a Brawl.",
        "war": "War: Call three: 2 points, and everyone but you fights a War.",
        "duel": "Duel: Call three: 2 points, and the two players you name (you may be one) fight a Duel, "
        "each with a burrito in hand, after a countdown.",
    }
    assert {card: two[card]["text"] for card in ("goth_sloth", "brawl_b", "war", "duel")} == {
        "goth_sloth": goth_sloth,
        "brawl_b": brawl + "a Brawl between you and the other player.",
        "war": "War: Call three: 2 points, and a War between you and the other player.",
        "duel": "Duel: Call three: 2 points, and a Duel with the other player, each with a burrito in hand, "
        "after a countdown.",
    }
    for answers in (three, two):
        assert answers["weather"]["code"] == answers["joker"]["code"] == "bad_query"
        assert answers["weather"]["message"] == "There is no question weather: ask card."
        assert answers["joker"]["message"] == "There is no card called joker in Throw Throw Burrito."


def test_the_narrator_answers_no_question_for_a_table_not_playing() -> None:
    answer = Narrator("kittens").query("turn", None, None, ["A", "B"], 0, "en")
    assert answer["type"] == "error" and answer["code"] == "not_playing"
    assert Narrator("burrito").query("turn", None, {}, ["A", "B"], 0, "en")["code"] == "bad_query"


def test_each_line_has_its_priority_for_the_listener() -> None:
    """Issue 14: needs your answer now (0), concerns you (1), changes the game (2), background (3)."""
    narrator = Narrator("kittens")
    names = ["Ann", "Bo", "Cy"]
    favor = {"event": "played", "player": 1, "cards": ["favor"], "combo": None, "target": 0, "until": 500}
    bo_draws = {"event": "drew", "player": 1, "from": "top", "forced": False}
    boom = {"event": "exploded", "player": 2, "discarded": []}
    texts, priority = narrator.lines([favor, bo_draws, boom], 0, names, {}, "en")
    assert texts == [
        "Bo: Favor on you.",
        "Bo draws a card.",
        "BOOM! Cy is out.",
    ]
    assert priority == [Priority.ANSWER, Priority.BACKGROUND, Priority.MILESTONE]
    assert narrator.lines([favor], 2, names, {}, "en")[1] == [Priority.BACKGROUND]
    assert narrator.lines([favor], None, names, {}, "en")[1] == [Priority.BACKGROUND]  # a spectator
    # Your own explosion is about you: a queue that drops the game's old lines keeps it.
    assert narrator.lines([boom], 2, names, {}, "en") == (["BOOM! You are out."], [Priority.YOU])


def test_brief_keeps_every_milestone_of_throw_throw_burrito() -> None:
    """Brief mode = needs-answer + concerns-you + milestones: the start, "3, 2, 1, Burrito!",
    "Burrito!" when play resumes, every fight's result, round and game end with scores and places."""
    narrator = Narrator("burrito")
    names = ["Ann", "Bo", "Cy", "Di"]
    events: list[dict[str, Any]] = [
        {"event": "round_start", "round": 1, "community_sizes": [0, 0]},
        *({"event": "countdown", "beat": b, "caller": None, "round": 1} for b in ("3", "2", "1", "burrito")),
        {"event": "draw", "player": 1, "from": "own"},
        {"event": "discard", "player": 1, "to": 0},
        {"event": "fight_start", "kind": "war", "fighters": [1, 2], "caller": 1, "tiebreak": None},
        {
            "event": "throw",
            "thrower": 1,
            "target": 2,
            "id": 1,
            "lands_at": 9,
            "catch_from": 8,
            "flight_ms": 5,
        },
        {
            "event": "fight_over",
            "loser": 2,
            "bruise": True,
            "reason": "hit",
            "kind": "war",
            "bruises_left": 3,
        },
        *({"event": "countdown", "beat": b, "caller": 1, "round": 1} for b in ("3", "2", "1", "burrito")),
        {"event": "round_over", "round": 1, "scores": [1, 2, 0, 0], "reason": "bruises", "winner": 1},
        {"event": "round_won", "round": 1, "player": 1},
        {"event": "game_over", "winner": 1, "badge": 1},
    ]
    texts, priority = narrator.lines(events, 0, names, {}, "en")
    brief = [t for t, p in zip(texts, priority, strict=True) if said_at_once(p, "brief")]
    assert brief == [
        "Round 1 begins.",
        "Burrito!",  # the beats before it have their sound on the page (docs/speech.md)
        "War: Bo against Cy.",
        "Cy loses; 3 bruises left.",
        "Burrito!",  # play resumes; its countdown only in verbose: the fight's result was just said
        "Round 1 is over.",
        "Scores: you: 1, Bo: 2, Cy: 0 and Di: 0.",
        "Bo wins round 1 and takes the badge.",
        "Game over: Bo wins the game.",
    ]
    folds = narrator.folds(events, 0, {})
    assert narrator.summary(Counter(folds), 0, names, "en") == "Meanwhile: 1 pass to you."


def _kinds(events: list[dict[str, Any]]) -> list[str]:
    return [e["event"] for e in events]


def test_a_burrito_rounds_end_leaves_no_summary_of_its_background_to_the_next_round() -> None:
    """A summary of the background is due every 60 s of play ("Meanwhile: 3 passes to you; Bo
    scored 1 set."). A round's end says its scores, and a round over's passes are news no more:
    its batch empties the digest and says none of it, so no summary of round 1 comes just before
    round 2's first fight (docs/speech.md, "Heard through Orca"). Exploding Kittens has no rounds."""
    narrator = Narrator("burrito")
    background = [
        {"event": "discard", "player": 1, "to": 0},
        {"event": "set", "player": 2, "cards": ["war"] * 3},
    ]
    folds = narrator.folds(background, 0, {})
    assert len(folds) == 2
    ended = [{"event": "round_over", "round": 1, "scores": [0, 0, 1], "reason": "bruises", "winner": 2}]
    round_two = [{"event": "round_start", "round": 2}]

    digest = Digest(0)
    digest.add(folds)
    assert narrator.closes_digest(_kinds(ended)) and not narrator.closes_digest(
        _kinds(background + round_two)
    )
    assert digest.summary_now(SUMMARY_EVERY_MS + 1, narrator.closes_digest(_kinds(ended))) is None
    assert digest.summary_now(SUMMARY_EVERY_MS + 5_000, narrator.closes_digest(_kinds(round_two))) is None
    # Within a round, the summary comes when it is due, as ever.
    digest.add(folds)
    assert digest.summary_now(2 * SUMMARY_EVERY_MS, False) is None  # 59 s since the round's end
    counts = digest.summary_now(2 * SUMMARY_EVERY_MS + 1, narrator.closes_digest(_kinds(background)))
    assert counts is not None
    assert (
        narrator.summary(counts, 0, ["you", "Bo", "Cy"], "en") == "Meanwhile: 1 pass to you; Cy scored 1 set."
    )
    kittens = Narrator("kittens")
    assert not kittens.closes_digest(["game_over"])


def test_a_burrito_summary_due_in_your_fight_or_a_countdown_waits_for_play() -> None:
    """A summary due while the listener fights (or a countdown runs to "Burrito!") waits for the
    next batch of plain play: given as they threw in a duel, "Meanwhile: 45 passes to you; Marco
    scored 2 sets." held "Incoming!" 3.3 s behind it in Orca (docs/speech.md, "Heard through
    Orca"). A fight between others holds nothing, nor does anything hold a spectator's."""
    narrator = Narrator("burrito")
    folds = narrator.folds([{"event": "discard", "player": 1, "to": 0}], 0, {})
    duel = {"phase": "fight", "fight": {"kind": "duel", "fighters": [0, 1]}}
    countdown = {"phase": "countdown", "fight": None}
    others = {"phase": "fight", "fight": {"kind": "duel", "fighters": [1, 2]}}
    play = {"phase": "play", "fight": None}
    assert narrator.holds_summary(0, duel) and narrator.holds_summary(0, countdown)
    assert not narrator.holds_summary(0, others) and not narrator.holds_summary(0, play)
    assert not narrator.holds_summary(None, duel)
    digest = Digest(0)
    digest.add(folds)
    due = SUMMARY_EVERY_MS + 1
    assert digest.summary_now(due, False, narrator.holds_summary(0, duel)) is None
    assert digest.summary_now(due + 500, False, narrator.holds_summary(0, countdown)) is None
    counts = digest.summary_now(due + 3_500, False, narrator.holds_summary(0, play))
    assert counts is not None
    assert narrator.summary(counts, 0, ["you", "Bo"], "en") == "Meanwhile: 1 pass to you."


def test_a_kittens_summary_due_waits_for_the_listeners_own_turn_to_play() -> None:
    """Given as it came due, "Meanwhile: Marco drew 4 cards; Marco played 4 cards." (3 s) came
    1.8 s before a 3 s Nope window and held "Nope? Press N." past it in Orca, and a summary 2.2 s
    into the listener's defuse held the keys until the kitten went off (docs/speech.md, "Heard
    through Orca"). A summary due waits for the listener's own turn to play, when nothing timed
    asks for an answer; an exploded player's and a spectator's are not held."""
    narrator = Narrator("kittens")
    alive = [True, True, True]
    others_turn = {"phase": "turn", "turn": 1, "alive": alive}
    nope = {"phase": "nope_window", "turn": 1, "alive": alive, "window": {"player": 1, "last": 1}}
    defusing = {"phase": "defusing", "turn": 0, "alive": alive}
    choosing = {"phase": "choosing", "turn": 1, "alive": alive}
    yours = {"phase": "turn", "turn": 0, "alive": alive}
    for view in (others_turn, nope, defusing, choosing):
        assert narrator.holds_summary(0, view), view
    assert not narrator.holds_summary(0, yours)
    assert not narrator.holds_summary(0, {**others_turn, "alive": [False, True, True]})
    assert not narrator.holds_summary(None, nope)
    digest = Digest(0)
    digest.add(narrator.folds([{"event": "drew", "player": 1}, {"event": "played", "player": 1}], 0, {}))
    due = SUMMARY_EVERY_MS + 1
    assert digest.summary_now(due, False, narrator.holds_summary(0, nope)) is None
    assert digest.summary_now(due + 2_000, False, narrator.holds_summary(0, defusing)) is None
    counts = digest.summary_now(due + 9_000, False, narrator.holds_summary(0, yours))
    assert counts is not None
    assert narrator.summary(counts, 0, ["you", "Marco", "Bea"], "en") == (
        "Meanwhile: Marco drew 1 card; Marco played 1 card."
    )


def test_the_recap_key_tells_the_background_since_you_last_asked(server: LiveServer) -> None:
    """The recap (query "recap") folds what the listener did not hear; asked again at once,
    there is nothing new."""

    async def scenario() -> list[dict[str, Any]]:
        # The deal is random: a game that ends before a bot drew and our turn came back (a bot
        # took our Defuse with a Favor, then we exploded) is played again at a new table.
        for _attempt in range(3):
            answers = await one_game()
            if answers:
                return answers
        raise AssertionError("three games ended before a bot drew and our turn came back")

    async def one_game() -> list[dict[str, Any]]:
        client = await Client.connect(server.ws_url, "Recap")
        created = await client.create_table(
            "kittens", 3, bots=2, options={"nope_window_ms": 300, "bot_think_ms": 0}
        )
        table = created["id"]
        await client.send({"type": "start", "table": table})
        await client.expect("table", state="playing")
        await client.expect("events", table=table)  # the deal and our first turn
        await client.send({"type": "act", "table": table, "action": {"do": "draw"}, "ref": 1})
        ref, bot_drew, seen = 1, False, []
        while True:  # until a bot has drawn (background for seat 0) and our turn is back
            batch = await client.expect("events", table=table, timeout=20)
            events = batch["events"]
            seen.extend(events)
            if any(e["event"] == "game_over" for e in events):
                await client.close()
                return []
            bot_drew = bot_drew or any(
                e["event"] == "drew" and e["player"] != 0 and e.get("card") != "exploding_kitten"
                for e in events
            )
            ref += 1
            if any(e["event"] == "defusing" and e["player"] == 0 for e in events):
                bottom = batch["view"]["deck_size"]  # far from everyone, so we play on
                action = {"do": "defuse", "position": bottom}
                await client.send({"type": "act", "table": table, "action": action, "ref": ref})
            if any(e["event"] == "turn" and e["player"] == 0 for e in events):
                if bot_drew:
                    break  # (a bot's Attack on us can bring our turn back before any bot drew)
                await client.send({"type": "act", "table": table, "action": {"do": "draw"}, "ref": ref})
        answers = []
        for _ in range(2):
            await client.send({"type": "query", "table": table, "what": "recap"})
            answers.append(await client.expect("answer", table=table))
        await client.close()
        return answers

    first, second = _run(scenario)
    assert first["what"] == "recap"
    assert first["text"].startswith("Meanwhile: ") and " drew " in first["text"], first
    assert second["text"] == "Nothing else happened since you last asked."


def _war_batch(catch_in: int) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """A War of Ann, Bo and Cy (Ann listens): Bo dodges Cy's burrito and is hit by another, then
    Cy throws at Ann, whose catch window opens `catch_in` ms after the batch."""
    now = 10_000
    events: list[dict[str, Any]] = [
        {"event": "dodge", "player": 1, "ids": [1]},
        {"event": "miss", "thrower": 2, "target": 1, "id": 1, "reason": "dodged"},
        {"event": "grab", "player": 2, "free": 1},
        {
            "event": "throw",
            "thrower": 2,
            "target": 0,
            "id": 2,
            "lands_at": now + catch_in + 300,
            "catch_from": now + catch_in,
            "flight_ms": catch_in + 300,
        },
    ]
    view = {"now": now, "fight": {"kind": "war", "fighters": [0, 1, 2], "flights": []}}
    return events, view


def test_a_burrito_at_you_is_said_first_and_short_before_the_past_lines() -> None:
    """Issue 21: the line that asks for an answer comes before the batch's lines about the past,
    and is short: the threat and who ("Incoming, Cy!"), 2 words, said before the window opens."""
    narrator = Narrator("burrito")
    names = ["Ann", "Bo", "Cy"]
    events, view = _war_batch(500)
    texts, priority = narrator.lines(events, 0, names, view, "en")
    assert texts == ["Incoming, Cy!", "Bo dodges.", "Cy misses Bo.", "Cy grabs; 1 left."]
    assert priority[0] == Priority.ANSWER and Priority.ANSWER not in priority[1:]
    assert said_in_ms(texts[0]) <= 600
    # Bo is not the target: his lines keep the order things happened in.
    assert narrator.lines(events, 1, names, view, "en")[0] == [
        "Dodged.",
        "Cy grabs; 1 left.",
        "Cy throws at Ann.",
    ]


def test_a_wind_up_is_said_to_a_fighter_in_a_brawl_and_left_to_incoming_in_a_fight_of_two() -> None:
    """Issue 24: in a fight of two the burrito can only come at you, and "Incoming!" says so a
    moment later; the wind-up, said first, held it and "Catch!" behind it in Orca's queue past
    the catch window (docs/speech.md). In a brawl it says who is about to throw."""
    narrator = Narrator("burrito")
    names = ["Ann", "Bo", "Cy"]
    wind_up = [{"event": "behind_back", "player": 2, "leaves_at": 10_700}]
    brawl = {"now": 10_000, "fight": {"kind": "brawl", "fighters": [0, 1, 2], "flights": []}}
    assert narrator.lines(wind_up, 0, names, brawl, "en") == (["Cy winds up."], [Priority.YOU])
    pair = {"now": 10_000, "fight": {"kind": "brawl", "fighters": [0, 2], "flights": []}}
    texts, priority = narrator.lines(wind_up, 0, names, pair, "en")
    assert texts == ["Cy winds up."] and not said_at_once(priority[0], "normal")
    assert said_at_once(priority[0], "verbose")
    # Bo, not in the fight, heard nothing of it before either: a fight not yours is background.
    assert not said_at_once(narrator.lines(wind_up, 1, names, pair, "en")[1][0], "normal")


def test_a_burrito_you_can_only_catch_says_when_its_catch_window_opens() -> None:
    """Issue 21: "Catch!" said as the window opens is over before it is heard; a burrito at a
    listener whose dodge is cooling down (catching is their only answer), whose window opens
    late enough, says at the throw when it opens, in the same short line, and the whole line is
    said before then (at `WORD_MS` a word). A fight of two drops the name. A listener who can
    dodge hears the threat alone: their answer is due at once (docs/speech.md)."""
    narrator = Narrator("burrito")
    names = ["Ann", "Bo", "Cy"]
    events, view = _war_batch(2200)
    assert narrator.lines(events, 0, names, view, "en")[0][0] == "Incoming, Cy!"
    view["dodge_until"] = view["now"] + 1500  # Ann dodged a moment ago
    texts, _priority = narrator.lines(events, 0, names, view, "en")
    assert texts[0] == "Incoming, Cy! Catch in 2 seconds."
    assert said_in_ms(texts[0]) <= 2200
    view["fight"]["fighters"] = [0, 2]
    assert narrator.lines(events[-1:], 0, names, view, "en")[0] == ["Incoming! Catch in 2 seconds."]
    events, view = _war_batch(1000)  # too little time for the words: the short line alone
    view["dodge_until"] = view["now"] + 1500
    assert narrator.lines(events[-1:], 0, names, view, "en")[0] == ["Incoming, Cy!"]
