"""Every sentence a person reads goes through `_` (gettext), in the reader's language.

English is the source language. The catalogs live in `locale/<lang>/LC_MESSAGES/cardroom.po`
(template `cardroom.pot`), managed with Babel (`make extract`, `make update-catalogs`,
`make compile-catalogs`). The language is chosen per call: `use_language(lang)` sets it for
the code inside (a context variable, so each recipient at a table hears their own language);
outside any `use_language` the process default applies (`set_default_language`, English
unless changed: the terminal clients set it from `--lang` or the environment).

A compiled `.mo` is used when it is at least as new as its `.po`; otherwise the `.po` is
compiled in memory, so a fresh checkout speaks every language without a build step.
"""

from __future__ import annotations

import gettext as _gettext
import io
import os
import re
from collections.abc import Mapping
from contextvars import ContextVar, Token
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Literal, get_args

from cardroom.protocol.words import N_ as N_  # one marker for the engines' words and ours

if TYPE_CHECKING:
    from babel import Locale

Language = Literal["en", "it", "fr", "nl", "es", "de"]
"""A language cardroom speaks, as a type (the server's messages are checked against it)."""
LANGUAGES: tuple[str, ...] = get_args(Language)
"""The languages cardroom speaks; English is the source language (the msgids)."""

LANGUAGE_NAMES: dict[str, str] = {
    "en": "English",
    "it": "Italiano",
    "fr": "Français",
    "nl": "Nederlands",
    "es": "Español",
    "de": "Deutsch",
}
"""Each language by its own name (never translated: a reader looks for their own)."""

DEFAULT_LANGUAGE = "en"
DOMAIN = "cardroom"
HERE = Path(__file__).resolve().parent
LOCALE_DIR = HERE / "locale"
TEMPLATE = HERE / "cardroom.pot"

_current: ContextVar[str | None] = ContextVar("cardroom_language", default=None)
_default = DEFAULT_LANGUAGE


def normalize(lang: str | None) -> str | None:
    """One of `LANGUAGES` for a language tag or locale name ("fr", "fr-BE", "de_DE.UTF-8"),
    or None when it names none of them."""
    if not lang:
        return None
    base = lang.strip().lower().replace("-", "_").split(".")[0].split("@")[0].split("_")[0]
    return base if base in LANGUAGES else None


def resolve(lang: str | None) -> str:
    """`lang` as one of `LANGUAGES`; English for anything unknown."""
    if lang is not None and lang in LANGUAGES:  # the usual case, a player's language as the server keeps it
        return lang
    return normalize(lang) or DEFAULT_LANGUAGE


def language_from_environment(environ: Mapping[str, str] | None = None) -> str | None:
    """The language the environment asks for (LANGUAGE, LC_ALL, LC_MESSAGES, LANG, in
    gettext's order), when it is one of ours; None otherwise."""
    env = os.environ if environ is None else environ
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(var, "")
        if not value:
            continue
        for item in value.split(":"):
            found = normalize(item)
            if found:
                return found
        if var != "LANGUAGE":
            return None
    return None


def set_default_language(lang: str | None) -> str:
    """The language outside any `use_language` (the terminal's); returns the one chosen."""
    global _default
    _default = resolve(lang)
    return _default


def current_language() -> str:
    """The language `_` translates into now."""
    return _current.get() or _default


class _Language:
    """The `with` block of `use_language`: a plain class, as the server enters one per
    recipient of every batch (a generator-based context manager costs several times more)."""

    __slots__ = ("lang", "token")

    def __init__(self, lang: str) -> None:
        self.lang = lang
        self.token: Token[str | None] | None = None

    def __enter__(self) -> str:
        self.token = _current.set(self.lang)
        return self.lang

    def __exit__(self, *exc: object) -> None:
        assert self.token is not None
        _current.reset(self.token)


def use_language(lang: str | None) -> _Language:
    """Translate into `lang` (English when unknown) inside the `with` block."""
    return _Language(resolve(lang))


def catalog_path(lang: str, ext: str = "po") -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.{ext}"


@cache
def translation(lang: str) -> _gettext.NullTranslations:
    """The compiled catalog of `lang` (a null one for English or a missing catalog)."""
    if lang == DEFAULT_LANGUAGE or lang not in LANGUAGES:
        return _gettext.NullTranslations()
    po, mo = catalog_path(lang, "po"), catalog_path(lang, "mo")
    if mo.exists() and (not po.exists() or mo.stat().st_mtime >= po.stat().st_mtime):
        with mo.open("rb") as handle:
            return _gettext.GNUTranslations(handle)
    if po.exists():
        return _gettext.GNUTranslations(io.BytesIO(compile_po(po)))
    return _gettext.NullTranslations()


def compile_po(po: Path) -> bytes:
    """The `.mo` bytes of the catalog `po` (fuzzy entries left out, as `pybabel compile`)."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with po.open("rb") as handle:
        catalog = read_po(handle, locale=po.parent.parent.name, domain=DOMAIN)
    out = io.BytesIO()
    write_mo(out, catalog)
    return out.getvalue()


def reload_catalogs() -> None:
    """Forget loaded catalogs (after a compile, or in tests)."""
    translation.cache_clear()


def _(message: str) -> str:
    """Translate `message` into the current language."""
    return translation(current_language()).gettext(message)


def pgettext(context: str, message: str) -> str:
    """Translate `message` in `context` (msgctxt): one English word that stands for different
    things ("empty" seat, "empty" pile) is a different message in each context."""
    return translation(current_language()).pgettext(context, message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """Translate a sentence with a count (the language's own plural forms)."""
    return translation(current_language()).ngettext(singular, plural, n)


@cache
def babel_locale(name: str) -> Locale:
    """Babel's locale `name` ("fr", "en_GB"), parsed once: Babel parses a locale given by name
    at every call, which costs a list or a number said at a table a hundred times its formatting."""
    from babel import Locale

    return Locale.parse(name)


def format_decimal(value: float, digits: int = 1) -> str:
    """`value` with up to `digits` decimals, written the current language's way ("0.5",
    "0,5"); no decimals for a whole number ("3")."""
    from babel.numbers import format_decimal as babel_format

    pattern = "#,##0." + "#" * digits if digits > 0 else "#,##0"
    return babel_format(round(value, digits), format=pattern, locale=babel_locale(current_language()))


_EUPHONIC = re.compile(r"(?<![\w'’])(a|e) (?=(\w))", re.IGNORECASE)
_SAME_VOWEL = {"a": "aà", "e": "eèé"}


def elide(text: str) -> str:
    """A sentence with names filled in, as the current language writes it where a name meets a
    word: Italian's euphonic d before the same vowel, "ad Adaa6" and "ed Elena", never
    "a Adaa6" nor "e Elena" (a translation cannot know the name it will get)."""
    if current_language() != "it":
        return text

    def fix(m: re.Match[str]) -> str:
        word, following = m.group(1), m.group(2).lower()
        return f"{word}d " if following in _SAME_VOWEL[word.lower()] else m.group(0)

    return _EUPHONIC.sub(fix, text)


def client_catalog(lang: str) -> dict[str, str | list[str]]:
    """The translations the web page needs for `lang`: msgid -> text, every translated
    singular message of the catalog (English: none, the msgids are the text). A message with
    a context has the key "context\x04msgid", as gettext keeps it (`pgettext` in i18n.js); a
    plural message has the key "singular\x00" and its forms in order (`ngettext` in i18n.js)."""
    catalog: Mapping[object, str] = getattr(translation(resolve(lang)), "_catalog", {})
    out: dict[str, str | list[str]] = {
        key: text for key, text in catalog.items() if isinstance(key, str) and key and text
    }
    forms: dict[str, dict[int, str]] = {}
    for key, text in catalog.items():
        if isinstance(key, tuple) and text:
            forms.setdefault(key[0], {})[key[1]] = text
    for singular, by_index in forms.items():
        out[singular + "\x00"] = [by_index[i] for i in sorted(by_index)]
    return out
