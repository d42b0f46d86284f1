"""The page stays light: its first load, every card picture included, is at most 300 KB as the
server sends it, compressed (issue 13). Read over real HTTP from the real server."""

from __future__ import annotations

import gzip
import json
import urllib.request
from pathlib import Path

from playwright.sync_api import Browser

from tests.server.live import LiveServer

STATIC = Path(__file__).resolve().parents[2] / "cardroom" / "clients" / "web" / "static"
BUDGET = 300 * 1024


def fetch(url: str) -> tuple[bytes, str | None]:
    """The bytes as sent, and their Content-Encoding."""
    request = urllib.request.Request(url, headers={"Accept-Encoding": "gzip"})
    with urllib.request.urlopen(request) as reply:
        return reply.read(), reply.headers.get("Content-Encoding")


def test_the_first_load_with_every_card_picture_is_under_300_kb_compressed(server: LiveServer) -> None:
    paths = ["/", "/i18n/en.json"]
    paths += [f"/static/{f.name}" for f in sorted(STATIC.iterdir()) if f.suffix in (".js", ".css")]
    paths += [f"/static/art/{f.name}" for f in sorted((STATIC / "art").glob("*.svg"))]
    total = 0
    for path in paths:
        body, encoding = fetch(server.url + path)
        total += len(body)
        if len(body) > 600:
            assert encoding == "gzip", path
            assert gzip.decompress(body)  # a real gzip stream
    assert len(paths) > 40  # the page, its modules, its styles and the 37 pictures
    assert total <= BUDGET, f"{total} bytes"


def test_every_card_of_both_games_has_its_picture() -> None:
    from cardroom.games.burrito.cards import CARDS as BURRITO
    from cardroom.games.kittens.cards import CARDS as KITTENS

    missing = [card for card in (*BURRITO, *KITTENS) if not (STATIC / "art" / f"{card}.svg").is_file()]
    assert missing == []


def test_the_page_asks_for_its_texts_once_and_again_only_for_a_new_language(
    browser: Browser, server: LiveServer
) -> None:
    """The texts and the card names are one answer (/i18n/<lang>.json), asked for once: the page
    fetched it twice at its start, one more round trip on a phone's network."""
    context = browser.new_context()
    try:
        page = context.new_page()
        asked: list[str] = []
        page.on("request", lambda r: asked.append(r.url.rsplit("/", 1)[1]) if "/i18n/" in r.url else None)
        page.goto(server.url + "/")
        page.wait_for_function("window.cardroom && window.cardroom.ready")
        assert asked == ["en.json"]
        assert page.evaluate("window.cardroom.cardName('defuse')") == "Defuse"
        page.select_option("#lang-enter", "it")
        page.wait_for_function("document.documentElement.lang === 'it'")
        italian = fetch(server.url + "/i18n/it.json")
        assert asked == ["en.json", "it.json"]
        assert (
            page.evaluate("window.cardroom.cardName('defuse')")
            == json.loads(gzip.decompress(italian[0]) if italian[1] == "gzip" else italian[0])["cards"][
                "kittens"
            ]["defuse"]["name"]
        )
    finally:
        context.close()
