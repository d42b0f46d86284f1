"""One name per card in each language (issue 24): the name on the card is the name in every
sentence that names it, with the same spelling and capitals ("Attacco", never "Attacca" in
one sentence and "Attacco" in another), and what narration builds for every card says it."""

from __future__ import annotations

import re

import pytest

from cardroom.games.burrito.cards import BATTLE, CARDS, FIGHT_OF, NORMAL
from cardroom.i18n import LANGUAGES, _, use_language
from cardroom.narrate import burrito, kittens
from cardroom.narrate.narrator import card_catalog
from tests.i18n.conftest import TRANSLATED, load


def english_names() -> list[str]:
    """Every card's (and fight's) English name, longest first: "Targeted Attack" is matched
    before "Attack"."""
    names = {*burrito.CARD_NAMES.values(), *burrito.FIGHT_NAMES.values()}
    names |= {display for display, _articled in kittens.CARD_NAMES.values()}
    return sorted(names, key=len, reverse=True)


def named(msgid: str) -> list[str]:
    """The cards `msgid` names by their English name, each once (a plural "Nopes" or a verb
    "to Nope" is not the card's name)."""
    found = []
    for name in english_names():
        pattern = re.compile(rf"(?<![\w-]){re.escape(name)}(?![\w-])")
        if pattern.search(msgid):
            found.append(name)
            msgid = pattern.sub("#", msgid)
    return found


VERBS = {
    "Defuse and put the kitten back at…",
    "Defuse now!",
    "Defuse the kitten, then choose where it goes",
    "Skip to the main content",
    "Duel countdown beat (ms)",
    "Skip the guide",
    "A guided first game against two bots: a coach says what to do next and why, and waits for you. "
    "Skip it at any step.",
    "You drew the Exploding Kitten. Defuse it, then put it back in the deck where you like: tap Defuse "
    "or press F, then choose how many cards go above it.",
}
"""Sentences where a card's English name is a verb or a common word, not the card."""


def spelled(local: str, lang: str) -> re.Pattern[str]:
    """`local` as a sentence may spell it: German declines the adjectives before the noun
    ("einen Gezielten Angriff" names "Gezielter Angriff"); every other word as on the card."""
    words = local.split(" ")
    if lang == "de":
        words = [
            re.sub(r"(en|er|es|em|e)$", "", w) + r"\w*" if i < len(words) - 1 else re.escape(w)
            for i, w in enumerate(words)
        ]
    else:
        words = [re.escape(w) for w in words]
    return re.compile(" ".join(words))


def test_named_finds_the_cards_of_a_sentence() -> None:
    assert named("Attack: ends your turn. Targeted Attack does the same.") == ["Targeted Attack", "Attack"]
    assert named("Waiting for Nopes") == []


@pytest.mark.parametrize("lang", TRANSLATED)
def test_each_card_name_is_spelled_alike_in_every_sentence_that_names_it(lang: str) -> None:
    with use_language(lang):
        local = {name: _(name) for name in english_names()}
    wrong = []
    for message in load(lang):
        if not isinstance(message.id, str) or not message.id or message.id in local or message.id in VERBS:
            continue
        for name in named(message.id):
            if not spelled(local[name], lang).search(message.string):
                wrong.append(f"{local[name]!r} not in {message.string!r} ({message.id!r})")
    assert not wrong, f"{lang}: {len(wrong)} sentences name a card otherwise:\n" + "\n".join(wrong[:15])


@pytest.mark.parametrize("lang", TRANSLATED)
def test_narration_says_each_card_by_its_name(lang: str) -> None:
    """What the narration builds for every card drawn holds the card's own name, with no
    punctuation doubled where the name meets the sentence ("Hai pescato un No!.")."""
    view = {"hand": [], "players": 3}
    with use_language(lang):
        for card, (display, _articled) in kittens.CARD_NAMES.items():
            if card == "exploding_kitten":
                continue  # drawn, it is said by the defuse prompt
            name = _(display)
            lines = kittens.narrate(
                {"event": "drew", "player": 0, "card": card}, 0, ["Ann", "Bea", "Cy"], view
            )
            assert any(spelled(name, lang).search(line) for line in lines), (card, name, lines)
            assert not [line for line in lines if re.search(r"[!?][.!?]", line)], lines  # "un No!."
        for card, display in burrito.CARD_NAMES.items():
            assert burrito.card_name(card) == _(display)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_burrito_animals_are_all_translated_or_all_kept(lang: str) -> None:
    """A language keeps the English names of the seven animal cards, or gives each one its own:
    never "Barky Sharky" next to "Nacho-Lama"."""
    animals = [burrito.CARD_NAMES[card] for card in NORMAL]
    with use_language(lang):
        kept = [name for name in animals if _(name) == name]
    assert kept in ([], animals), f"{lang} keeps {kept} in English but translates the others"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_burrito_card_has_a_name_and_a_text_in_every_language(lang: str) -> None:
    """Issue 24, card help everywhere: the catalog the server sends (`/i18n/{lang}.json`) holds
    every Throw Throw Burrito card's name and what it is for, in the language asked for, and
    each battle card's words at a table of two (docs/keys.md#card-help-issue-24)."""
    english = card_catalog("en")["burrito"]
    cards = card_catalog(lang)["burrito"]
    assert list(cards) == list(CARDS)
    with use_language(lang):
        for card, entry in cards.items():
            assert entry["name"] == burrito.card_name(card) and entry["name"].strip(), card
            assert entry["text"].strip(), card
            if card in BATTLE:
                assert set(entry) == {"name", "text", "two_players", "fight"}, card
                assert entry["fight"] == FIGHT_OF[card], card  # an identifier, never translated
                assert entry["two_players"].strip() and entry["two_players"] != entry["text"], card
                fight = burrito.fight_name(FIGHT_OF[card])
                for words in (entry["text"], entry["two_players"]):
                    assert spelled(fight, lang).search(words), (
                        f"{lang}: {card} does not name its fight: {words!r}"
                    )
            else:
                assert set(entry) == {"name", "text"}, card
            if lang != "en":
                for key in set(entry) - {"name", "fight"}:
                    assert entry[key] != english[card][key], f"{lang}: {card}'s {key} is not translated"
