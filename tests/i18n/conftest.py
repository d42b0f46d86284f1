"""Catalogs for the i18n tests: every `.po` compiled to its `.mo` first (as `make setup` does),
so that the tests read what the server and the terminal read."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from cardroom.i18n import DOMAIN, LANGUAGES, LOCALE_DIR, catalog_path, reload_catalogs
from tests.web.conftest import browser, playwright  # noqa: F401  (the page's tests: test_web_language.py)

TRANSLATED = tuple(lang for lang in LANGUAGES if lang != "en")


def load(lang: str) -> Catalog:
    with catalog_path(lang).open("rb") as handle:
        return read_po(handle, locale=lang, domain=DOMAIN)


@pytest.fixture(scope="session", autouse=True)
def compiled_catalogs() -> Iterator[Path]:
    for lang in TRANSLATED:  # written aside, then renamed: other test workers may be reading it
        target = catalog_path(lang, "mo")
        aside = target.with_name(f"{target.name}.{os.getpid()}")
        with aside.open("wb") as out:
            write_mo(out, load(lang))
        aside.replace(target)
    reload_catalogs()
    yield LOCALE_DIR
    reload_catalogs()
