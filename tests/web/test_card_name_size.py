"""A card's name stays readable on a phone (issue 24): "Super manipolazione" on the discard
pile shrank to 6 px. At 390 x 664, the longest name of each language, on the narrowest card the
page shows (a pile's), is set in at least 10 px and shows whole (broken onto a second line
rather than cut)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page

from cardroom.i18n import LANGUAGES, use_language
from cardroom.narrate import burrito, kittens
from tests.server.live import LiveServer
from tests.web.conftest import open_page

SMALL_PHONE = {"viewport": {"width": 390, "height": 664}, "has_touch": True, "is_mobile": True}


@pytest.fixture
def small_phone(browser: Browser, server: LiveServer) -> Iterator[Page]:
    yield from open_page(browser, server, **SMALL_PHONE)


def longest_names(lang: str) -> list[tuple[str, str, str]]:
    """(game, card, name): the card of each game whose name has the longest word, then the
    longest name, in `lang`."""
    with use_language(lang):
        names = {
            "kittens": {card: kittens.card_name(card) for card in kittens.CARD_NAMES},
            "burrito": burrito.card_names(),
        }
    out = []
    for game, by_card in names.items():
        out.append((game, *max(by_card.items(), key=lambda item: max(len(w) for w in item[1].split()))))
        out.append((game, *max(by_card.items(), key=lambda item: len(item[1]))))
    return out


MEASURE = """async ([game, card, name]) => {
    const { cardFace, fitNames } = await import('/static/art.js');
    const felt = document.createElement('div');
    felt.className = 'felt';
    felt.innerHTML = '<div class="piles"><div class="pile-spot"></div></div>';
    felt.querySelector('.pile-spot').append(cardFace(game, card, name));
    document.body.append(felt);
    fitNames(felt);
    const label = felt.querySelector('.card-name');
    const shown = {
        px: parseFloat(getComputedStyle(label).fontSize),
        whole: label.scrollWidth <= label.clientWidth,
        width: label.clientWidth,
    };
    felt.remove();
    return shown;
}"""


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_longest_card_name_is_readable_on_a_small_phone(small_phone: Page, lang: str) -> None:
    for game, card, name in longest_names(lang):
        shown = small_phone.evaluate(MEASURE, [game, card, name])
        assert shown["width"] > 0, (name, shown)
        assert shown["px"] >= 10, f"{lang}: {name!r} is set in {shown['px']} px"
        assert shown["whole"], f"{lang}: {name!r} is cut off on its card"
