"""The web page's language: the picker (nickname form and Settings), hello.lang, and the Rules
dialog with the same text as `cardroom rules`."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from cardroom.bots.names import level_name
from cardroom.help import render
from cardroom.i18n import LANGUAGES, use_language
from tests.server.live import LiveServer, run_server
from tests.web.conftest import open_page
from tests.web.keyboard import enter_lobby


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    with run_server() as live:
        yield live


def in_browser(browser: Browser, server: LiveServer, check: Callable[[Page], None]) -> None:
    """Run `check` on a fresh page of the module's browser (tests/web/conftest.py)."""
    for page in open_page(browser, server):
        check(page)


def rules_shown(page: Page) -> dict[str, Any]:
    return page.evaluate(
        """() => ({
            title: document.querySelector('#rules-title').textContent,
            sections: [...document.querySelectorAll('#rules-body h3')].map((h) => {
                const paragraphs = [];
                for (let n = h.nextElementSibling; n && n.tagName === 'P'; n = n.nextElementSibling) {
                    paragraphs.push(n.textContent);
                }
                return {title: h.textContent, paragraphs};
            }),
        })"""
    )


def test_the_language_is_chosen_on_the_page_and_sent_in_hello(browser: Browser, server: LiveServer) -> None:
    in_browser(browser, server, choose_and_enter)


def choose_and_enter(page: Page) -> None:
    options = page.eval_on_selector_all("#lang-enter option", "els => els.map(e => e.value)")
    assert tuple(options) == LANGUAGES
    assert page.eval_on_selector_all("#lang-settings option", "els => els.length") == len(LANGUAGES)
    sent: list[dict[str, Any]] = []
    page.on("websocket", lambda ws: ws.on("framesent", lambda frame: sent.append(json.loads(frame))))
    page.select_option("#lang-enter", "fr")
    page.wait_for_function("document.documentElement.lang === 'fr'")
    assert page.evaluate("localStorage.getItem('cardroom.lang')") == "fr"
    enter_lobby(page, "Amélie")
    hellos = [m for m in sent if m.get("type") == "hello"]
    assert hellos and hellos[-1]["lang"] == "fr"
    assert page.input_value("#lang-settings") == "fr"


def test_the_rules_dialog_shows_the_help_page_of_each_game(browser: Browser, server: LiveServer) -> None:
    in_browser(browser, server, read_the_rules)


def read_the_rules(page: Page) -> None:
    page.select_option("#lang-enter", "de")
    page.wait_for_function("document.documentElement.lang === 'de'")
    page.click("#open-rules")
    page.wait_for_selector("#rules[open] #rules-body h3")
    assert rules_shown(page) == {
        k: v for k, v in render("kittens", "de").items() if k in ("title", "sections")
    }
    page.select_option("#rules-game", "burrito")
    page.wait_for_function(
        "t => document.querySelector('#rules-title').textContent === t", arg=render("burrito", "de")["title"]
    )
    shown = rules_shown(page)
    assert shown["sections"] == render("burrito", "de")["sections"]
    page.keyboard.press("Escape")
    page.wait_for_selector("#rules", state="hidden")


def test_the_bot_levels_follow_a_language_chosen_on_the_entry_page(
    browser: Browser, server: LiveServer
) -> None:
    """Issue 24: the create form's bot-level menu was filled once, in English, and stayed so."""
    in_browser(browser, server, levels_relabelled)


def levels_relabelled(page: Page) -> None:
    page.eval_on_selector("#create-level", "e => { e.value = 'hard'; }")  # chosen before: kept
    levels = page.eval_on_selector_all("#create-level option", "els => els.map(e => e.value)")
    for lang in ("it", "de"):
        with use_language(lang):
            wanted = [level_name(level) for level in levels]
        assert wanted != levels
        page.select_option("#lang-enter", lang)
        page.wait_for_function("l => document.documentElement.lang === l", arg=lang)
        try:
            page.wait_for_function(
                "w => JSON.stringify([...document.querySelectorAll('#create-level option')]"
                ".map(e => e.textContent)) === JSON.stringify(w)",
                arg=wanted,
                timeout=5_000,
            )
        except PlaywrightTimeout:
            shown = page.eval_on_selector_all("#create-level option", "els => els.map(e => e.textContent)")
            raise AssertionError(f"{lang}: the bot levels read {shown}, not {wanted}") from None
        assert page.input_value("#create-level") == "hard"
