"""Issue 6: a few actions played in each language, and what the screen reader heard.

The expected sentences come from the catalogs themselves (`use_language`), so the test checks
that the page, the server and the catalogs agree, and that a translated language is spoken
(not English left in place).
"""

from __future__ import annotations

import contextlib
import re

import pytest
from playwright.sync_api import Browser, Page
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from cardroom.i18n import LANGUAGES, _, ngettext, use_language
from tests.i18n.test_web_language import in_browser, server  # noqa: F401  (the module's server)
from tests.server.live import LiveServer
from tests.web.keyboard import enter_lobby, start_game, tab_to


def translated(message: str, lang: str) -> str:
    with use_language(lang):
        return _(message)


def template_pattern(message: str, lang: str, plural: str | None = None) -> re.Pattern[str]:
    """The translated sentence as a pattern: each {placeholder} stands for any text. With
    `plural`, the message is a plural one, in its form for a count of 10 (a plural line's
    translation is found by both its forms: "DEFUSE NOW! 10 secondi." was not matched)."""
    if plural is not None:
        with use_language(lang):
            message = ngettext(message, plural, 10)
    else:
        message = translated(message, lang)
    parts = re.split(r"\{[a-z_]+\}", message)
    return re.compile("^" + ".+".join(re.escape(p) for p in parts) + "$")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_few_actions_are_announced_in_the_players_language(
    browser: Browser,
    server: LiveServer,  # noqa: F811
    lang: str,
) -> None:
    your_turn = translated("Your turn.", lang)
    drew = [
        template_pattern("You drew {card}.", lang),
        template_pattern("DEFUSE NOW! {s} second.", lang, plural="DEFUSE NOW! {s} seconds."),
    ]
    if lang != "en":
        assert your_turn != "Your turn.", f"'Your turn.' is not translated into {lang}"

    def play(page: Page) -> None:
        page.select_option("#lang-enter", lang)
        page.wait_for_function("l => document.documentElement.lang === l", arg=lang)
        enter_lobby(page, f"Ann-{lang}")
        page.select_option("#create-game", "kittens")
        page.fill("#create-seats", "2")
        page.fill("#create-bots", "1")
        tab_to(page, "#create-form button[type=submit]")
        page.keyboard.press("Enter")
        page.wait_for_function("document.activeElement && document.activeElement.id === 'table-title'")
        start_game(page)
        page.wait_for_function(
            "t => window.__said.some(s => s.region === 'assertive' && s.text === t)", arg=your_turn
        )
        before = page.evaluate("window.__said.length")
        page.keyboard.press("d")
        # The draw is said, whatever the bots say around it (on a busy machine, later).
        with contextlib.suppress(PlaywrightTimeout):
            page.wait_for_function(
                """([n, patterns]) => window.__said.slice(n).some(
                    s => patterns.some(p => new RegExp(p).test(s.text)))""",
                arg=[before, [p.pattern for p in drew]],
                timeout=30_000,
            )
        heard = [s["text"] for s in page.evaluate("window.__said")[before:]]
        assert any(p.match(text) for p in drew for text in heard), (lang, heard)

    in_browser(browser, server, play)
