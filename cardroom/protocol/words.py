"""Marking an engine's words for the catalogs, without the engine importing the translations.

The engines hold their cards' names and texts in English (their registries); `make extract`
finds them by this marker, and the narration and the clients translate them with `_()`.
"""

from __future__ import annotations


def N_(message: str) -> str:
    """Marks `message` for the catalogs (`make extract`); it is translated where it is said."""
    return message
