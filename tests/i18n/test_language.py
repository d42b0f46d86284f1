"""Each call in its reader's language: `use_language`, the narration per recipient, numbers by
locale, the page's catalog, the rules help pages (CLI and server) and the terminal's choice."""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo

import cardroom.i18n as i18n
from cardroom.help import GAMES, as_text, pages, render
from cardroom.i18n import (
    _,
    client_catalog,
    current_language,
    language_from_environment,
    ngettext,
    normalize,
    set_default_language,
    use_language,
)
from cardroom.narrate._common import seconds
from cardroom.narrate.narrator import Narrator
from cardroom.protocol import Rejected
from tests.server.live import LiveServer, run_server

SAMPLE = {
    "Catch!": "Attrape !",
    "Refused: you do not hold that card.": "Refusé : vous n'avez pas cette carte.",
    "{name} dodges.": "{name} esquive.",
}


@pytest.fixture
def french(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """A French catalog with a few known translations, compiled into a temporary locale folder."""
    catalog = Catalog(locale="fr", domain="cardroom")
    catalog._num_plurals, catalog._plural_expr = 2, "(n > 1)"  # as in locale/fr (gettext's rule)
    for msgid, msgstr in SAMPLE.items():
        catalog.add(msgid, msgstr)
    catalog.add(
        ("{n} bruise is left.", "{n} bruises are left."), ("Il reste {n} bleu.", "Il reste {n} bleus.")
    )
    target = tmp_path / "fr" / "LC_MESSAGES"
    target.mkdir(parents=True)
    with (target / "cardroom.mo").open("wb") as out:
        write_mo(out, catalog)
    monkeypatch.setattr(i18n, "LOCALE_DIR", tmp_path)
    i18n.reload_catalogs()
    yield
    i18n.reload_catalogs()


def test_use_language_changes_what_underscore_returns(french: None) -> None:
    assert _("Catch!") == "Catch!"
    with use_language("fr"):
        assert current_language() == "fr"
        assert _("Catch!") == "Attrape !"
        assert _("{name} dodges.").format(name="Anna") == "Anna esquive."
        assert ngettext("{n} bruise is left.", "{n} bruises are left.", 1) == "Il reste {n} bleu."
        assert ngettext("{n} bruise is left.", "{n} bruises are left.", 0) == "Il reste {n} bleu."
        assert ngettext("{n} bruise is left.", "{n} bruises are left.", 2) == "Il reste {n} bleus."
        assert _("No translation for this one.") == "No translation for this one."
        with use_language("en"):
            assert _("Catch!") == "Catch!"
        assert _("Catch!") == "Attrape !"
    assert current_language() == "en"


def test_an_unknown_language_falls_back_to_english(french: None) -> None:
    with use_language("xx"):
        assert current_language() == "en"
        assert _("Catch!") == "Catch!"
    with use_language("fr-CA"):
        assert _("Catch!") == "Attrape !"


def test_the_narrator_speaks_each_recipients_language(french: None) -> None:
    narrator = Narrator("burrito")
    assert narrator.cue("catch_window", "fr") == "Attrape !"
    assert narrator.cue("catch_window", "en") == "Catch!"
    refused = Rejected("not_in_hand", "no such card")
    assert narrator.rejection(refused, "fr") == "Refusé : vous n'avez pas cette carte."
    assert narrator.rejection(refused, "de") == "Refused: you do not hold that card."
    dodge = {"event": "dodge", "player": 1}
    assert narrator.lines([dodge], 0, ["Ann", "Bo"], {}, "fr")[0] == ["Bo esquive."]
    assert narrator.lines([dodge], 0, ["Ann", "Bo"], {}, "en")[0] == ["Bo dodges."]
    assert current_language() == "en"


def test_the_page_catalog_holds_the_translations(french: None) -> None:
    messages = client_catalog("fr")
    assert messages["Catch!"] == "Attrape !"
    assert "" not in messages
    # A plural message: its forms, in order, for the page's ngettext ("1 card", "2 cards").
    assert messages["{n} bruise is left.\x00"] == ["Il reste {n} bleu.", "Il reste {n} bleus."]
    assert client_catalog("en") == {}


def test_italian_elides_a_before_a_name_that_starts_with_a() -> None:
    """Issue 14: "Tocca ad Adaa6", not "Tocca a Adaa6" (the euphonic d, as Italian writes it)."""
    narrator = Narrator("kittens")
    view = {"turn": 1, "turns_left": 1, "phase": "turn", "alive": [True, True], "players": 2}
    answer = narrator.query("turn", None, view, ["Bo", "Adaa6"], 0, "it")
    assert answer["text"] == "Tocca ad Adaa6 (solo questo turno)."
    assert narrator.query("turn", None, {**view, "turn": 0}, ["Bo", "Adaa6"], 1, "it")["text"] == (
        "Tocca a Bo (solo questo turno)."
    )


def test_seconds_are_written_the_way_of_each_language() -> None:
    assert seconds(500) == "0.5"
    assert seconds(3000) == "3"
    for lang in ("it", "fr", "nl", "es", "de"):
        with use_language(lang):
            assert seconds(500) == "0,5", lang
            assert seconds(1200) == "1,2", lang
            assert seconds(3000) == "3", lang


def test_a_language_is_found_in_tags_and_the_environment() -> None:
    assert normalize("fr-BE") == "fr" and normalize("de_DE.UTF-8") == "de" and normalize("pt") is None
    assert language_from_environment({"LANG": "it_IT.UTF-8"}) == "it"
    assert language_from_environment({"LC_ALL": "nl_NL.UTF-8", "LANG": "it_IT.UTF-8"}) == "nl"
    assert language_from_environment({"LANGUAGE": "pt:es", "LANG": "C.UTF-8"}) == "es"
    assert language_from_environment({"LANG": "C.UTF-8"}) is None
    assert language_from_environment({}) is None
    try:
        assert set_default_language("es") == "es"
        assert current_language() == "es"
        with use_language("de"):
            assert current_language() == "de"
        assert set_default_language("xx") == "en"
    finally:
        set_default_language("en")


# ---- the rules help pages ---------------------------------------------------------------------


def cardroom(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "cardroom", *args], capture_output=True, text=True, check=False, env=env
    )


def test_every_help_page_has_short_sections_of_whole_sentences() -> None:
    """Issue 25: a paragraph is a tuple of sentences, one msgid each (a changed sentence is one
    entry to translate again), and every sentence is whole."""
    assert set(pages()) == set(GAMES) == {"burrito", "kittens"}
    for game, page in pages().items():
        assert len(page.sections) >= 6, game
        for section in page.sections:
            assert section.paragraphs, section.title
            for paragraph in section.paragraphs:
                assert paragraph, section.title
                for part in paragraph:
                    sentence = part if isinstance(part, str) else part.text  # a Listing's sentence
                    assert sentence.strip() == sentence and sentence[-1] in ".!?)", sentence
                    assert len(sentence) <= 250, sentence  # one sentence, not a paragraph


@pytest.mark.parametrize("lang", ["it", "en"])
def test_cardroom_rules_prints_the_page(lang: str) -> None:
    done = cardroom("rules", "burrito", "--lang", lang)
    assert done.returncode == 0, done.stderr
    assert done.stdout == as_text(render("burrito", lang))
    assert done.stderr == ""


def test_cardroom_rules_refuses_an_unknown_language_or_game() -> None:
    done = cardroom("rules", "burrito", "--lang", "xx")
    assert done.returncode == 2 and done.stdout == ""
    assert len(done.stderr.strip().splitlines()) == 1 and "xx" in done.stderr
    done = cardroom("rules", "chess")
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    with run_server() as live:
        yield live


def get(server: LiveServer, path: str) -> tuple[int, object]:
    try:
        with urllib.request.urlopen(server.url + path, timeout=10) as reply:
            return reply.status, json.loads(reply.read())
    except urllib.error.HTTPError as error:
        return error.code, None


def test_the_server_serves_the_same_rules_and_the_catalogs(server: LiveServer) -> None:
    for game in GAMES:
        for lang in i18n.LANGUAGES:
            assert get(server, f"/help/{game}.json?lang={lang}") == (200, render(game, lang))
    assert get(server, "/help/chess.json")[0] == 404
    assert get(server, "/help/burrito.json?lang=xx")[0] == 404
    for lang in i18n.LANGUAGES:
        status, data = get(server, f"/i18n/{lang}.json")
        assert status == 200 and isinstance(data, dict)
        assert data["lang"] == lang and isinstance(data["messages"], dict)
        assert set(data["cards"]) == {"burrito", "kittens"}
    assert get(server, "/i18n/xx.json")[0] == 404
