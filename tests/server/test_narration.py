"""The server narrates like the terminal: the deal, refusals and 003's quick keys (T, E, shift+D)
come over the network as the sentences of `cardroom.narrate`, and the card names the web page
shows come from the same place (`/i18n/{lang}.json`)."""

from __future__ import annotations

import asyncio
import json
import urllib.request
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from cardroom.narrate import burrito, kittens
from cardroom.protocol import Rejected
from cardroom.server.narration import Narrator
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
    assert data["cards"]["burrito"] == burrito.card_names()
    assert data["cards"]["burrito"]["goth_sloth"] == "Goth Sloth"
    assert data["cards"]["kittens"]["see_the_future"] == {
        "name": "See the Future",
        "text": "You look at the top three cards of the deck.",
    }
    assert set(data["cards"]["kittens"]) == set(kittens.CARD_NAMES)


def test_the_narrator_answers_no_question_for_a_table_not_playing() -> None:
    answer = Narrator("kittens").query("turn", None, None, ["A", "B"], 0, "en")
    assert answer["type"] == "error" and answer["code"] == "not_playing"
    assert Narrator("burrito").query("turn", None, {}, ["A", "B"], 0, "en")["code"] == "bad_query"


def test_lines_about_the_listener_are_marked_mine_for_the_brief_verbosity() -> None:
    """The page's "brief" verbosity announces urgent lines and those that concern the player."""
    from cardroom.server.narration import Narrator

    narrator = Narrator("kittens")
    names = ["Ann", "Bo", "Cy"]
    favor = {"event": "played", "player": 1, "cards": ["favor"], "combo": None, "target": 0, "until": 500}
    bo_draws = {"event": "drew", "player": 1, "from": "top", "forced": False}
    texts, _urgent, mine = narrator.marked_lines([favor, bo_draws], 0, names, {}, "en")
    assert len(texts) == len(mine) == 2
    assert mine == [True, False]  # Bo asks Ann for a card; Bo's draw is Bo's business
    assert narrator.marked_lines([favor], 2, names, {}, "en")[2] == [False]
    assert narrator.marked_lines([favor], None, names, {}, "en")[2] == [False]  # a spectator
