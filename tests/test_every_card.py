"""Every card of both games is whole (issue 25, the conformance test): in each of the six
languages it has a name and a text of what it does (what the page and the terminal show and
Shift+D says), the rules page names it, and the page has its picture (our own drawing,
`static/art/<card>.svg`). A card added to an engine without one of these fails here, by name."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardroom.games.burrito import cards as burrito
from cardroom.games.burrito.cards import CARDS as BURRITO_CARDS
from cardroom.games.kittens import cards as kittens
from cardroom.games.kittens.cards import CARDS as KITTENS_CARDS
from cardroom.help import as_text, render
from cardroom.i18n import LANGUAGES
from cardroom.narrate.narrator import card_catalog

ART = Path(__file__).parents[1] / "cardroom" / "clients" / "web" / "static" / "art"
ENGINES = {"kittens": KITTENS_CARDS, "burrito": BURRITO_CARDS}
REGISTRIES = {"kittens": kittens.REGISTRY, "burrito": burrito.REGISTRY}


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game", sorted(ENGINES))
def test_every_card_of_the_engine_has_a_name_a_text_and_a_place_in_the_rules(game: str, lang: str) -> None:
    cards = card_catalog(lang)[game]
    assert sorted(cards) == sorted(ENGINES[game])  # the engine's cards, no more, no fewer
    rules = as_text(render(game, lang)).casefold()
    for card, entry in cards.items():
        assert entry["name"].strip() and entry["name"] != card, (lang, card)
        assert entry["text"].strip(), (lang, card)
        assert entry["name"].casefold() in rules, f"{lang}: the {game} rules never name {entry['name']!r}"


@pytest.mark.parametrize("game", sorted(ENGINES))
def test_every_card_has_its_own_picture(game: str) -> None:
    """Each card's record names its picture (`art`), and the page has it."""
    missing = [card.id for card in REGISTRIES[game] if not (ART / card.art).is_file()]
    assert missing == []
    names = {card: card_catalog("en")[game][card]["name"] for card in ENGINES[game]}
    assert len(set(names.values())) == len(names)  # two cards never share a name
