"""Every sentence a person reads goes through `_` (gettext), so that languages can be added.

English is the source language; catalogs for the others come later (issue 6).
"""

from __future__ import annotations

import gettext as _gettext

_translation: _gettext.NullTranslations = _gettext.NullTranslations()


def _(message: str) -> str:
    """Translate `message` into the current language."""
    return _translation.gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """Translate a sentence with a count."""
    return _translation.ngettext(singular, plural, n)


LANGUAGES = ("en",)


def client_catalog(lang: str) -> dict[str, str]:
    """The translations the web page needs for `lang`: msgid -> text (empty: English as written)."""
    return {}
