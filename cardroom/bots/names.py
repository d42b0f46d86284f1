"""Names for bots, so that a table reads like people: "Anna passes you a card"."""

from __future__ import annotations

NAMES = (
    "Anna", "Marco", "Chloé", "Daan", "Lucía", "Jonas",
    "Giulia", "Hugo", "Sanne", "Mateo", "Lena", "Pierre",
)  # fmt: skip


def bot_names(count: int, skip: int = 0) -> list[str]:
    """`count` distinct bot names, starting `skip` names in (so that tables differ)."""
    return [NAMES[(skip + i) % len(NAMES)] for i in range(count)]
