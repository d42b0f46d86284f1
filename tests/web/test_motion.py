"""Motion comes from the difference between two views, and `prefers-reduced-motion` makes every
change instant (issue 13): cards fly from a pile to a seat, unless the reader asked for no motion."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page

from tests.server.live import LiveServer
from tests.web.conftest import DESKTOP, open_page
from tests.web.keyboard import state
from tests.web.pointer import act, sit_down

ANIMATIONS = """document.getAnimations().filter(a => a.playState === 'running'
    && !(a.effect && a.effect.target && a.effect.target.closest('.clock'))).length"""
"""What moves on the page, but a clock's bar running down (tests/web/test_frames.py)."""


@pytest.fixture(params=["no-preference", "reduce"])
def motion_page(request: pytest.FixtureRequest, browser: Browser, server: LiveServer) -> Iterator[Page]:
    yield from open_page(browser, server, reduced_motion=request.param, **DESKTOP)


def test_cards_fly_unless_the_reader_wants_no_motion(motion_page: Page) -> None:
    page = motion_page
    reduced = page.evaluate("matchMedia('(prefers-reduced-motion: reduce)').matches")
    # Each run its own name: the other run's player may still hold theirs while it leaves.
    finger = sit_down(page, "Still" if reduced else "Mover", "burrito", 3, {"countdown_ms": 300})
    seen = 0
    moves: Counter[str] = Counter()
    for _ in range(60):
        v = state(page)["view"]
        if v and v["phase"] == "play" and v["fight"] is None:
            if len(v["hand"]) < 5 and act(page, finger, "draw"):
                moves["draw"] += 1
            elif finger.tap_if_there("#hand [data-index='0']") and act(page, finger, "pass"):
                moves["pass"] += 1
        for _ in range(10):  # the bots pass cards too: watch for a while
            seen = max(seen, page.evaluate(ANIMATIONS))
            page.wait_for_timeout(40)
        if moves.total() >= 4 and (seen or reduced):
            break
    assert moves.total() >= 4, dict(moves)
    if reduced:
        assert seen == 0
    else:
        assert seen > 0
