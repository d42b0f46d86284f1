"""The catalogs (issue 6): complete in every language, placeholders kept, compilable, and the
template up to date with the sources."""

from __future__ import annotations

import io
import re
import subprocess
import sys
from gettext import GNUTranslations
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from cardroom.i18n import DOMAIN, HERE, LANGUAGES, TEMPLATE
from tests.i18n.conftest import TRANSLATED, load

ROOT = Path(__file__).resolve().parents[2]
PYBABEL = Path(sys.executable).with_name("pybabel")

BRACE = re.compile(r"(?<!\{)\{([A-Za-z_]\w*)(?:[:!][^{}]*)?\}(?!\})")
PERCENT = re.compile(r"%(?:\([A-Za-z_]\w*\))?[-#0 +]*(?:\d+|\*)?(?:\.\d+)?[diouxXeEfFgGcrsa]")


def placeholders(text: str) -> list[str]:
    """The placeholders of `text`, sorted: {name} and %-style (%s, %(name)d), %% left out."""
    text = text.replace("%%", "")
    return sorted([f"{{{m.group(1)}}}" for m in BRACE.finditer(text)] + PERCENT.findall(text))


def template() -> Catalog:
    with TEMPLATE.open("rb") as handle:
        return read_po(handle, domain=DOMAIN)


def messages(catalog: Catalog) -> list[Message]:
    return [m for m in catalog if m.id]


def forms(message: Message) -> list[str]:
    strings = message.string if isinstance(message.string, (list, tuple)) else [message.string]
    return [s or "" for s in strings]


def test_the_languages_are_the_six_of_issue_6() -> None:
    assert LANGUAGES == ("en", "it", "fr", "nl", "es", "de")
    for lang in TRANSLATED:
        assert (HERE / "locale" / lang / "LC_MESSAGES" / "cardroom.po").is_file()


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_message_has_a_translation_in_every_language(lang: str) -> None:
    catalog = load(lang)
    missing = [
        m.id if isinstance(m.id, str) else m.id[0]
        for m in messages(catalog)
        if m.fuzzy or not all(s.strip() for s in forms(m))
    ]
    assert not missing, f"{lang}: {len(missing)} of {len(messages(catalog))} untranslated, e.g. {missing[:5]}"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_each_catalog_has_every_msgid_of_the_template(lang: str) -> None:
    """`make update-catalogs` was run after `make extract`: no msgid missing or left over."""
    want = {m.id if isinstance(m.id, str) else tuple(m.id) for m in messages(template())}
    have = {m.id if isinstance(m.id, str) else tuple(m.id) for m in messages(load(lang))}
    assert not want - have, f"{lang} lacks {sorted(map(str, want - have))[:5]}: run make update-catalogs"
    assert not have - want, f"{lang} has stale {sorted(map(str, have - want))[:5]}: run make update-catalogs"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_translations_keep_the_placeholders_of_the_english(lang: str) -> None:
    catalog = load(lang)
    wrong = []
    for m in messages(catalog):
        if isinstance(m.id, str):
            want = [placeholders(m.id)]
        else:
            want = [placeholders(m.id[0]), placeholders(m.id[1])]
        for i, text in enumerate(forms(m)):
            if not text:
                continue
            # Plural forms: each form names what the English plural names ("{n} cards").
            expected = want[0] if len(want) == 1 else want[1]
            if placeholders(text) != expected and not (len(want) == 2 and placeholders(text) == want[0]):
                wrong.append(f"{m.id!r} [{i}]: {text!r}")
    assert not wrong, f"{lang}: placeholders differ:\n" + "\n".join(wrong[:10])


def test_the_placeholder_check_sees_what_it_must() -> None:
    assert placeholders("{name} throws at {other}.") == ["{name}", "{other}"]
    assert placeholders("{share:.1f} %% and %s, %(n)d") == ["%(n)d", "%s", "{share}"]
    assert placeholders("{{literal}} braces") == []


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_catalog_compiles(lang: str) -> None:
    catalog = load(lang)
    problems = [f"{message.id!r}: {error}" for message, errors in catalog.check() for error in errors]
    assert not problems, "\n".join(problems[:10])
    assert catalog.num_plurals >= 1 and catalog.plural_expr
    out = io.BytesIO()
    write_mo(out, catalog)
    out.seek(0)
    GNUTranslations(out)  # parses, with the Plural-Forms header


def test_pybabel_compile_checks_every_catalog(tmp_path: Path) -> None:
    """The Makefile's own command on a copy (the working tree is not touched)."""
    for lang in TRANSLATED:
        target = tmp_path / lang / "LC_MESSAGES"
        target.mkdir(parents=True)
        (target / "cardroom.po").write_bytes(
            (HERE / "locale" / lang / "LC_MESSAGES" / "cardroom.po").read_bytes()
        )
    done = subprocess.run(
        [str(PYBABEL), "compile", "-D", DOMAIN, "-d", str(tmp_path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert sorted(p.parent.parent.name for p in tmp_path.rglob("*.mo")) == sorted(TRANSLATED)


def test_the_template_is_up_to_date_with_the_sources(tmp_path: Path) -> None:
    """`make extract` would add or drop no msgid: run it after changing a sentence."""
    fresh = tmp_path / "fresh.pot"
    done = subprocess.run(
        [str(PYBABEL), "-q", "extract", "-F", str(HERE / "babel.cfg"), "-o", str(fresh), "."],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    with fresh.open("rb") as handle:
        extracted = {m.id if isinstance(m.id, str) else tuple(m.id) for m in read_po(handle) if m.id}
    committed = {m.id if isinstance(m.id, str) else tuple(m.id) for m in messages(template())}
    assert not extracted - committed, (
        f"new msgids {sorted(map(str, extracted - committed))[:5]}: run make extract"
    )
    assert not committed - extracted, (
        f"stale msgids {sorted(map(str, committed - extracted))[:5]}: run make extract"
    )


def test_the_plural_forms_are_those_of_each_language() -> None:
    expected = {"it": "(n != 1)", "fr": "(n > 1)", "nl": "(n != 1)", "es": "(n != 1)", "de": "(n != 1)"}
    for lang, expr in expected.items():
        catalog = load(lang)
        assert (catalog.num_plurals, catalog.plural_expr) == (2, expr), lang
