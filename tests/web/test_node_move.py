"""A friend with only a link, at a site of two nodes behind one proxy (issue 26; docs/deploy.md,
"Players at their table's node"): the page that reached another node's table through the node
the proxy chose follows the `move` to the table's node, by the proxy's route for that node,
without a word, and plays the game from there. Real nodes on the tests' PostgreSQL and Redis, a
real nginx in front of them, a real browser."""

from __future__ import annotations

import re
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
import redis
from playwright.sync_api import Browser, Page

from tests import services
from tests.cluster.test_nodes import nodes, wait_for
from tests.databases import empty_postgres
from tests.web.conftest import COLLECT, PHONE
from tests.web.keyboard import play_kittens_to_the_end, state
from tests.web.pointer import Finger, create_table, enter_lobby

pytestmark = pytest.mark.slow


@pytest.fixture
def cluster_env() -> dict[str, str]:
    """The cluster's shared PostgreSQL (emptied) and Redis (flushed), as tests/cluster's: the
    database emptied in a thread of its own (the browser's Playwright keeps an event loop
    running in this one)."""
    url = services.redis_url()
    redis.Redis.from_url(url).flushdb()
    with ThreadPoolExecutor(1) as pool:
        database = pool.submit(empty_postgres).result()
    return {"CARDROOM_DB": database, "CARDROOM_REDIS": url}


def _page(browser: Browser, url: str, **options: Any) -> Iterator[Page]:
    context = browser.new_context(**options)
    page = context.new_page()
    page.add_init_script(COLLECT)
    page.set_default_timeout(15_000)
    page.goto(url)
    page.wait_for_function("window.cardroom && window.cardroom.ready")
    yield page
    context.close()


def test_a_friends_page_goes_to_its_tables_node_through_the_proxy_and_plays_from_there(
    browser: Browser, cluster_env: dict[str, str]
) -> None:
    """Anna, on node A, creates a table and sends its link; Pia opens it on her phone at the
    site, whose proxy puts her on node B. Seated, her page is sent to node A's route and goes
    there: the status never says the connection was lost, node B has nobody left, and she plays
    the game to its end from node A (Anna's seat played by a stand-in once she has gone)."""
    env = {**cluster_env, "CARDROOM_NODE_URL": "/node/{port}/ws"}
    with nodes(env, 2) as (a, b):
        port_a, port_b = (int(node.url.rsplit(":", 1)[1]) for node in (a, b))
        routes = {f"/node/{port_a}/ws": port_a, f"/node/{port_b}/ws": port_b}
        proxy = services.start_proxy(routes, default=port_b)
        try:
            anna_pages = _page(browser, a.url + "/", viewport={"width": 1100, "height": 900})
            anna = next(anna_pages)
            finger = Finger(anna)
            enter_lobby(anna, finger, "Anna")
            create_table(anna, finger, "kittens", seats=2, bots=0, options={"seat_grace_ms": 0})
            table: str = anna.evaluate("window.cardroom.state.current")
            link = f"{proxy.url}/t/{table}"

            pia_pages = _page(browser, link, **PHONE)
            pia = next(pia_pages)
            opened: list[str] = []
            pia.on("websocket", lambda ws: opened.append(ws.url))
            # A table's link goes to the table once she has a nickname: the lobby may never show
            # (waiting for it failed, cc28t, when the table came first).
            pia_finger = Finger(pia)
            pia_finger.tap("#nickname")
            pia.keyboard.type("Pia")
            pia_finger.tap("#name-form button[type=submit]")
            pia.wait_for_selector("#table:not([hidden])")
            pia.wait_for_function(
                "id => window.cardroom.state.current === id && window.cardroom.state.room.you !== null",
                arg=table,
            )
            at_a = f"ws://127.0.0.1:{proxy.port}/node/{port_a}/ws"
            pia.wait_for_function(
                "url => window.cardroom.state.ws.url === url && window.cardroom.state.welcomed", arg=at_a
            )
            wait_for(lambda: b.health()["players_online"] == 0, 10, "Pia's connection at node B closed")

            finger.tap("#start-btn")
            anna.wait_for_function("window.cardroom.state.room.state === 'playing'")
            next(anna_pages, None)  # Anna closes her page: a stand-in plays her seat
            pia.wait_for_function("window.cardroom.state.room.state === 'playing'")
            pia.locator("#hand").focus()
            play_kittens_to_the_end(pia, limit_s=180)
            over = state(pia)
            said = [x["text"] for x in pia.evaluate("window.__said")]
            status: str = pia.locator("#status").inner_text()
            online = (a.health()["players_online"], b.health()["players_online"])
            next(pia_pages, None)
        finally:
            proxy.stop()
    assert over["state"] == "over" or over["view"]["phase"] == "game_over", over
    assert not [
        line for line in said if re.match("Connection lost|Connected again|You connected from another", line)
    ], said
    assert status.startswith("Connected as Pia"), status
    assert online == (1, 0), "Pia at node A, nobody at node B"
    assert opened == [f"ws://127.0.0.1:{proxy.port}/ws", at_a], "the site's /ws, then node A's route"
