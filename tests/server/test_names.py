"""Issue 22, look-alike names: a name that a reader could take for another's is refused, for
guests (the websocket `hello`) and accounts (`POST /api/register`) alike, through a real
server. Two names are one by their Unicode TR39 skeleton after NFKC and case folding, and a
name may not hide invisible characters (cardroom/store/names.py, docs/api.md#names)."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Iterator
from typing import Any

import pytest

from cardroom.i18n import LANGUAGES
from cardroom.server.wire import PROTOCOL_VERSION
from tests.server.live import Client, LiveServer, run_server
from tests.server.test_api import PASSWORD, call

LOOK_ALIKES = {
    "combining grapheme joiner": "Mod\u034ferator",
    "variation selector": "Mod\ufe0ferator",
    "Hangul filler": "Mod\u3164erator",
    "Braille blank": "Mod\u2800erator",
    "Mongolian vowel separator": "Mod\u180berator",
    "Cyrillic o": "M\u043ederator",
    "Greek o": "M\u03bfderator",
    "fullwidth": "Ｍｏｄｅｒａｔｏｒ",
    "mathematical bold": "𝐌𝐨𝐝𝐞𝐫𝐚𝐭𝐨𝐫",
    "the word itself": "Moderator",
    "a zero": "M0derator",
}
ORDINARY = ("Chloé", "Jürgen", "Françoise", "Núria", "Giulia", "Daan", "Lucía", "Björn")


@pytest.fixture(scope="module")
def live() -> Iterator[LiveServer]:
    with run_server() as server:
        yield server


async def hello(server: LiveServer, name: str, lang: str = "en") -> tuple[dict[str, Any], Client]:
    """The answer to a guest's hello (`welcome` or `error`), and the client, still open."""
    client = await Client.connect_raw(
        server.ws_url, {"type": "hello", "protocol": PROTOCOL_VERSION, "name": name, "lang": lang}
    )
    while True:
        message = await client.recv()
        if message["type"] in ("welcome", "error"):
            return message, client


async def guest_answer(server: LiveServer, name: str, lang: str = "en") -> dict[str, Any]:
    answer, client = await hello(server, name, lang)
    await client.close()
    return answer


ADDRESSES = itertools.count(1)


def register(server: LiveServer, name: str, lang: str = "en") -> tuple[int, dict[str, Any]]:
    """A registration, its refusal in `lang`; each from an address of its own (through the
    trusted proxy's header), so that the limit of 20 a minute per address is not what refuses."""
    address = f"198.51.100.{next(ADDRESSES)}"
    return call(
        server,
        "POST",
        f"/api/register?lang={lang}",
        {"name": name, "password": PASSWORD, "lang": lang},
        headers={"X-Forwarded-For": address},
    )


@pytest.mark.parametrize("kind", LOOK_ALIKES)
def test_a_look_alike_of_moderator_is_refused_to_a_guest_and_to_an_account(
    live: LiveServer, kind: str
) -> None:
    name = LOOK_ALIKES[kind]
    answer = asyncio.run(guest_answer(live, name))
    assert answer["type"] == "error" and answer["code"] in ("bad_name", "name_reserved"), answer
    status, body = register(live, name)
    assert status in (400, 409) and body["error"] in ("bad_name", "name_reserved"), body
    assert answer["message"] and body["message"]


def test_the_refusal_is_said_in_each_language(live: LiveServer) -> None:
    """The invisible character and the reserved word each get their own sentence, in the
    language of the hello and of the registration."""
    hidden, reserved = LOOK_ALIKES["Braille blank"], LOOK_ALIKES["Cyrillic o"]
    said = {
        lang: (
            asyncio.run(guest_answer(live, hidden, lang))["message"],
            asyncio.run(guest_answer(live, reserved, lang))["message"],
            register(live, hidden, lang)[1]["message"],
            register(live, reserved, lang)[1]["message"],
        )
        for lang in LANGUAGES
    }
    english = said["en"]
    assert english[0] != english[1]
    for lang, sentences in said.items():
        if lang != "en":
            assert all(ours != theirs for ours, theirs in zip(sentences, english, strict=True)), lang


def test_ordinary_names_in_six_languages_are_welcome(live: LiveServer) -> None:
    """Accents are letters: "Chloé" and "Chloe" are two people; but the é typed as an e and a
    combining accent is the same Chloé."""

    async def scenario() -> list[dict[str, Any]]:
        answers, clients = [], []
        for name in (*ORDINARY, "Chloe", "Chloe\u0301"):
            answer, client = await hello(live, name)
            answers.append(answer)
            clients.append(client)
        for client in clients:
            await client.close()
        return answers

    *ordinary, plain, decomposed = asyncio.run(scenario())
    assert [a.get("name") for a in ordinary] == list(ORDINARY)
    assert plain["type"] == "welcome" and plain["name"] == "Chloe"
    assert decomposed["type"] == "error" and decomposed["code"] == "name_taken"
    for name in ORDINARY:
        status, body = register(live, name.upper())
        assert status == 200, body
    assert register(live, "CHLOE")[0] == 200


def test_an_account_owns_its_name_and_every_look_alike(live: LiveServer) -> None:
    assert register(live, "Marisol")[0] == 200
    for look_alike in ("MARISOL", "Mar\u0456sol", "Marisоl", "Ｍａｒｉｓｏｌ"):  # Cyrillic і, Cyrillic о
        status, body = register(live, look_alike)
        assert (status, body["error"]) == (409, "name_taken"), look_alike
        answer = asyncio.run(guest_answer(live, look_alike))
        assert answer["code"] == "name_reserved", look_alike
    # A capital I reads as an l: "AIice" is "Alice", whatever the case of the rest.
    assert register(live, "Alice")[0] == 200
    assert register(live, "AIice")[1]["error"] == "name_taken"
    assert asyncio.run(guest_answer(live, "aIice"))["code"] == "name_reserved"


def test_a_guest_holds_a_name_while_connected_or_seated(live: LiveServer) -> None:
    """A guest's name is theirs while they are here: connected, or seated at a table (their
    seat waits for them through the grace period). Gone from both, the name is free."""

    async def scenario() -> None:
        ingrid, first = await hello(live, "Ingrid")
        assert ingrid["type"] == "welcome"
        for look_alike in ("lngrid", "Іngrid", "INGRID"):  # a small L, a Cyrillic І
            answer = await guest_answer(live, look_alike)
            assert answer["code"] == "name_taken", look_alike
        assert register(live, "ingrid")[1]["error"] == "name_taken"

        tobias, seated = await hello(live, "Tobias")
        assert tobias["type"] == "welcome"
        await seated.send({"type": "create_table", "game": "burrito", "seats": 4})
        await seated.expect("table")
        await seated.close()
        await first.close()
        # Seated, though away: still Tobias's. Gone and at no table: Ingrid's name is free.
        deadline = asyncio.get_running_loop().time() + 10
        while (answer := await guest_answer(live, "Ingrid"))["type"] != "welcome":
            assert asyncio.get_running_loop().time() < deadline, answer
            await asyncio.sleep(0.1)
        assert (await guest_answer(live, "Tоbias"))["code"] == "name_taken"  # a Cyrillic о

    asyncio.run(scenario())


def test_a_bot_never_takes_a_name_that_looks_like_a_seated_players(live: LiveServer) -> None:
    """The bots are named like people ("Marco" sits at seat 2 by default): beside a guest
    called "Mаrco" (a Cyrillic а), the bot takes another name."""

    async def scenario() -> list[str]:
        welcome, host = await hello(live, "M\u0430rco")
        assert welcome["type"] == "welcome"
        await host.send({"type": "create_table", "game": "burrito", "seats": 2})
        table = await host.expect("table")
        await host.send({"type": "start", "table": table["id"]})
        while not all(seat["name"] for seat in table["seats"]):
            table = await host.expect("table", id=table["id"])
        await host.close()
        return [seat["name"] for seat in table["seats"]]

    guest, bot = asyncio.run(scenario())
    assert guest == "M\u0430rco" and bot and bot != "Marco", bot
