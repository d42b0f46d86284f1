"""Names for bots, so that a table reads like people: "Anna passes you a card"; and the words
for their levels, in the reader's language (a level is stored as its code, "normal", and named
only when a person reads it, so that players of different languages each read their own)."""

from __future__ import annotations

from cardroom.i18n import N_, _

NAMES = (
    "Anna", "Marco", "Chloé", "Daan", "Lucía", "Jonas",
    "Giulia", "Hugo", "Sanne", "Mateo", "Lena", "Pierre",
)  # fmt: skip


def bot_names(count: int, skip: int = 0) -> list[str]:
    """`count` distinct bot names, starting `skip` names in (so that tables differ)."""
    return [NAMES[(skip + i) % len(NAMES)] for i in range(count)]


LEVEL_NAMES = {
    "random": N_("random"),
    "easy": N_("easy"),
    "normal": N_("normal"),
    "hard": N_("hard"),
    "expert": N_("expert"),
}
"""The words for the bot levels (the web page's `LEVEL_NAMES` says the same)."""


def level_name(level: str) -> str:
    """A bot level as the current language names it ("normale"); an unknown code as it is."""
    return _(LEVEL_NAMES[level]) if level in LEVEL_NAMES else level


def level_bot_name(level: str) -> str:
    """How a bot level is named where it stands for every bot of that level (a leaderboard's
    row): "Bot (normal)", in the current language."""
    return _("Bot ({level})").format(level=level_name(level))
