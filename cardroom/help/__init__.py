"""The rules of each game as a help page for players, in every language.

Written in our own words from `docs/rules/*.md` (which explain the engine to developers): what
a player needs, in short sections. Every title and every sentence is one msgid (a paragraph is
a tuple of sentences, joined when shown), so that a changed sentence asks for one sentence
translated again, not its whole paragraph. `cardroom rules GAME --lang L` prints a page and the
server serves the same page as JSON (`GET /help/{game}.json?lang=L`) for the web page's Rules
dialog: one text everywhere.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cardroom.i18n import _, use_language
from cardroom.narrate._common import join_list


@dataclass(frozen=True)
class Listing:
    """A sentence naming things a registry holds (the cards of a game): `text`, a msgid with
    `{names}`, where `names` (msgids) go joined as the page's language lists things. A card
    added to the registry is named on the page with no sentence changed."""

    text: str
    names: tuple[str, ...]

    def show(self) -> str:
        return _(self.text).format(names=join_list([_(name) for name in self.names]))


Sentence = str | Listing
"""A msgid, or a `Listing`."""


@dataclass(frozen=True)
class Section:
    title: str
    paragraphs: tuple[tuple[Sentence, ...], ...]
    """Each paragraph as its sentences."""


@dataclass(frozen=True)
class HelpPage:
    title: str
    sections: tuple[Section, ...]


def pages() -> dict[str, HelpPage]:
    """Every game's help page (msgids, untranslated)."""
    from cardroom.help import burrito, kittens

    return {"burrito": burrito.PAGE, "kittens": kittens.PAGE}


GAMES = ("burrito", "kittens")


def render(game: str, lang: str) -> dict[str, Any]:
    """The page of `game` in `lang` as data: title and sections of paragraphs.
    KeyError for a game without a page."""
    page = pages()[game]
    with use_language(lang) as language:
        return {
            "game": game,
            "lang": language,
            "title": _(page.title),
            "sections": [
                {"title": _(s.title), "paragraphs": [" ".join(_show(x) for x in p) for p in s.paragraphs]}
                for s in page.sections
            ],
        }


def _show(sentence: Sentence) -> str:
    return _(sentence) if isinstance(sentence, str) else sentence.show()


def as_text(data: dict[str, Any]) -> str:
    """A rendered page as plain text: the title, then each section's title and paragraphs."""
    lines = [data["title"], "=" * len(data["title"])]
    for section in data["sections"]:
        lines += ["", section["title"], "-" * len(section["title"])]
        for paragraph in section["paragraphs"]:
            lines += ["", paragraph]
    return "\n".join(lines) + "\n"
