"""Counts are said through plural forms (issue 24): "1 card from the top", never "1 cards from
the top", in every language. A sentence whose count sits next to a counted noun must be a
plural entry (`ngettext`), in the catalogs and in the sources (Python and the web page)."""

from __future__ import annotations

import re
from pathlib import Path

from cardroom.i18n import use_language
from tests.i18n.test_catalogs import template

ROOT = Path(__file__).resolve().parents[2]

NUMERIC = r"n|s|count|total|size|a|b|taken|free|left|secs|seconds"
"""The placeholders that hold a count (names, cards and seats are spelled {name}, {card}...)."""
COUNTED = r"cards?|seconds?|turns?|tables?|seats?|bruises?|sets?|players?|passes|minutes?|watching"
"""Nouns said after a count ("watching": "3 watching" is "3 spettatori", a noun, in Italian)."""
COUNT = re.compile(rf"(?<!to )\{{(?:{NUMERIC})\}}\s+(?:\w+\s+)?(?:{COUNTED})\b")
"""A count next to its noun, an adjective between allowed ("{n} selected cards"); a range's
upper end ("{low} to {high} players") is left out: it is never 1."""
CALL = re.compile(r"(?<![\w.])(?:N_|_|pgettext)\(\s*(?:\"[^\"]*\",\s*)?\"((?:[^\"\\]|\\.)*)\"")
"""A one-form translation call with its literal msgid, in Python or JavaScript."""


def test_the_count_pattern_sees_what_it_must() -> None:
    assert COUNT.search("{n} cards from the top")
    assert COUNT.search("Community piles: {a} and {b} cards.")
    assert COUNT.search("Play the {n} selected cards")
    assert COUNT.search("DEFUSE NOW! {s} seconds.")
    assert not COUNT.search("{name} plays three {card}.")
    assert not COUNT.search("This game is played by {low} to {high} players.")
    assert CALL.search('fmt(_("{n} cards from the top"), { n: k })')
    assert CALL.search('pgettext("pile", "{n} cards")')
    assert not CALL.search('ngettext("{n} card", "{n} cards", n)')


def test_no_message_of_the_template_says_a_count_in_one_form() -> None:
    plain = [m.id for m in template() if isinstance(m.id, str) and COUNT.search(m.id)]
    assert not plain, f"say these counts with ngettext: {plain}"


def test_no_source_says_a_count_in_one_form() -> None:
    sources = [
        *(ROOT / "cardroom").rglob("*.py"),
        *(ROOT / "cardroom" / "clients" / "web" / "static").glob("*.js"),
    ]
    plain = [
        f"{path.relative_to(ROOT)}: {m.group(1)}"
        for path in sources
        for m in CALL.finditer(path.read_text(encoding="utf-8"))
        if COUNT.search(m.group(1))
    ]
    assert not plain, "say these counts with ngettext:\n" + "\n".join(plain)


def test_a_decimal_duration_takes_the_plural_its_language_gives_it() -> None:
    from cardroom.narrate._common import plural_n  # here: the other tests run on code without it

    with use_language("en"):
        assert [plural_n(1000), plural_n(1500), plural_n(2000)] == [1, 2, 2]
    with use_language("fr"):
        assert [plural_n(1000), plural_n(1500), plural_n(2000)] == [1, 1, 2]
