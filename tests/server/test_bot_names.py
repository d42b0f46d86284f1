"""Issue 14: in Italian a bot level read "Bot normal". A level is stored as its code and named
in each reader's language: two players of different languages read the same leaderboard row each
in their own (cardroom/bots/names.py)."""

from __future__ import annotations

import time
from typing import Any

from tests.server.live import LiveServer, run_server
from tests.server.test_api import PASSWORD, call
from tests.server.test_private_records import FAST_CLOCK, _play


def _bot_rows(server: LiveServer, lang: str) -> list[dict[str, Any]]:
    """The bots of the kittens leaderboard as the page asks for them in `lang` (`?lang=`)."""
    deadline = time.monotonic() + 15
    while True:
        status, answer = call(server, "GET", f"/api/leaderboard/kittens?lang={lang}")
        assert status == 200, answer
        bots = [p for p in answer["players"] if p["bot"]]
        if bots or time.monotonic() > deadline:
            return bots
        time.sleep(0.1)


def test_an_italian_player_reads_the_bot_level_in_italian_and_an_english_one_in_english() -> None:
    with run_server(FAST_CLOCK) as server:
        _, giulia = call(
            server, "POST", "/api/register", {"name": "Giulia", "password": PASSWORD, "lang": "it"}
        )
        assert giulia["profile"]["lang"] == "it"
        _play(server, giulia["token"], "Giulia", private=False, level="normal")
        (italian,) = _bot_rows(server, "it")
        (english,) = _bot_rows(server, "en")
        assert italian["level"] == english["level"] == "normal"
        assert italian["name"] == "Bot (normale)"
        assert english["name"] == "Bot (normal)"
        status, by_header = call(server, "GET", "/api/leaderboard/kittens", headers={"Accept-Language": "it"})
        assert status == 200 and [p["name"] for p in by_header["players"] if p["bot"]] == ["Bot (normale)"]
