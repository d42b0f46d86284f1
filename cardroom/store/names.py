"""People's names, in one place: what a name may hold, and when two names are one.

A name is read by other people beside a seat, a chat line, a leaderboard row, so it must show
what it is. It may not hold a character that shows nothing (U+034F, a variation selector, a
Hangul filler, a Braille blank, a Mongolian vowel separator, a format or bidirectional
character...): "Moderator" with one inside looks like "Moderator". And two names are one when
a reader could take one for the other: the Unicode TR39 confusable skeleton (ICU's data and
algorithm, through PyICU) of the name after NFKC and case folding, so that "Mоderator" with a
Cyrillic o, fullwidth "Ｍｏｄｅｒａｔｏｒ", mathematical bold "𝐌𝐨𝐝𝐞𝐫𝐚𝐭𝐨𝐫", "M0derator" and
"MODERATOR" are all "Moderator". Accents are letters: "Chloé" and "Chloe" are two names (as
TR39 has it; a precomposed é and an e with a combining accent are one).

Who holds a name (docs/api.md): an account for good, a guest while connected or at a table.
"""

from __future__ import annotations

import functools
import hashlib
import unicodedata

import icu  # type: ignore[import-untyped]

from cardroom.i18n import _
from cardroom.store.errors import StoreError

MAX_NAME_CHARS = 24

RESERVED = ("Moderator", "Mod", "Admin", "Administrator", "System", "Server", "Cardroom", "Staff", "Support")
"""Names that would speak for the card room itself: nobody may take them (nor look-alikes)."""
BOT_WORD = "Bot"
"""A name whose first word is this reads as one of the bots ("Bot 3", "Bot (normal)")."""

_BLANKS = frozenset("\u2800")
"""Graphic characters that draw nothing and are not default-ignorable (Braille blank)."""
_SPOOF = icu.SpoofChecker()
_NFKC = icu.Normalizer2.getNFKCInstance()
_IGNORABLE = icu.UProperty.DEFAULT_IGNORABLE_CODE_POINT


def invisible(char: str) -> bool:
    """A character that shows nothing where it stands (ICU's current Unicode data)."""
    return char in _BLANKS or bool(icu.Char.hasBinaryProperty(char, _IGNORABLE))


def clean_name(raw: str) -> str | None:
    """A name people can read: printable, nothing invisible, 1 to 24 characters, spaces
    squeezed, in NFC (so that é is one character however it was typed); None otherwise."""
    text = unicodedata.normalize("NFC", " ".join(raw.split()))
    if not text or len(text) > MAX_NAME_CHARS or not text.isprintable():
        return None
    if any(invisible(c) for c in text):
        return None
    return text


def _fixed(text: str, first_fold: bool) -> str:
    """Skeleton and case folding, in turn, until neither changes the text: "M0derator" has
    the skeleton "MOderator", which folds to "moderator"."""
    if first_fold:
        text = text.casefold()
    for _round in range(8):
        step = str(_NFKC.normalize(str(_SPOOF.getSkeleton(0, text)))).casefold()
        if step == text:
            break
        text = step
    return text


@functools.lru_cache(maxsize=16384)  # every hello compares with every name in use
def name_keys(name: str) -> frozenset[str]:
    """What a name looks like, as digests: two names are one when their keys meet.

    Two keys, since case folding and look-alikes pull apart: folded first, "ALICE" is
    "alice"; skeleton first, "AIice" (a capital i) is "Alice", hence "alice"."""
    text = str(_NFKC.normalize(name))
    keys = {_fixed(text, first_fold=True), _fixed(text, first_fold=False)}
    return frozenset(hashlib.sha256(key.encode()).hexdigest() for key in keys)


def same(a: str, b: str) -> bool:
    """Whether a reader could take one name for the other."""
    return not name_keys(a).isdisjoint(name_keys(b))


_RESERVED_KEYS = frozenset().union(*(name_keys(word) for word in RESERVED))


def reserved(name: str) -> bool:
    """A name that speaks for the card room or reads as a bot's, whatever it looks like."""
    first = name.split()[0] if name.split() else name
    return not name_keys(name).isdisjoint(_RESERVED_KEYS) or same(first, BOT_WORD)


def checked_name(raw: object, bad: str) -> str:
    """The name, cleaned, or a StoreError that says what is wrong with it: `bad` (the caller's
    sentence for a name that is empty, too long or unprintable), invisible characters, or a
    name kept for the card room (`name_reserved`)."""
    name = clean_name(raw) if isinstance(raw, str) else None
    if name is None:
        if isinstance(raw, str) and any(invisible(c) for c in raw):
            raise StoreError("bad_name", _("A name may not hold invisible characters: they hide what it is."))
        raise StoreError("bad_name", bad)
    if reserved(name):
        raise StoreError(
            "name_reserved", _("That name, or one that looks like it, is kept for the card room.")
        )
    return name
