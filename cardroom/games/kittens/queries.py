"""The questions of 003's keyboard commands, answered alike for every client.

shift+D: what a card does (`describe`); T: whose turn and how many turns they still must play
(`whose_turn`); E: how many cards each player holds and how many lie in the deck and discard
pile (`counts`). Each works from a view (`table.view(seat)`), so a client can only ask about
what its seat may know.
"""

from __future__ import annotations

from cardroom.games.kittens.cards import CARD_SET, COMBO_TEXT, effect_key, text
from cardroom.protocol import JSON, InvalidAction


def describe(card: str) -> JSON:
    """shift+D: the card, the translatable key of its effect, and English text."""
    if card not in CARD_SET:
        raise InvalidAction(f"unknown card {card!r}")
    return {"card": card, "effect": effect_key(card), "text": text(card)}


def describe_combo(combo: str) -> JSON:
    """What a combo (`pair`, `triple`, `five`) does."""
    if combo not in COMBO_TEXT:
        raise InvalidAction(f"unknown combo {combo!r}")
    return {"combo": combo, "effect": f"kittens.combo.{combo}", "text": COMBO_TEXT[combo]}


def whose_turn(view: JSON) -> JSON:
    """T: whose turn it is and how many turns they must still play, the current one included."""
    return {"player": view["turn"], "turns_left": view["turns_left"], "phase": view["phase"]}


def counts(view: JSON) -> JSON:
    """E: cards in each hand (None for a player who exploded), in the deck, in the discard pile."""
    return {
        "hands": [
            size if alive else None for size, alive in zip(view["hand_sizes"], view["alive"], strict=True)
        ],
        "deck": view["deck_size"],
        "discard": len(view["discard"]),
    }
