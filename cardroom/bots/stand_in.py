"""The bot that plays an absent person's seat once its grace period is over.

It plays for someone who is coming back, so it chooses what that person would least regret
finding on their return, not what wins most (docs/rules/kittens.md#stand-ins,
docs/rules/burrito.md#stand-ins): in Exploding Kittens it gives the least valuable card to a
Favor (a Defuse only when it is all they hold), puts a defused kitten at the bottom of the deck,
and spends none of their cards on a turn except to keep them from a kitten it knows of, or
when they hold no Defuse. Throw Throw Burrito's stand-in is the table's own bot: every card
there is passed on within seconds anyway, and a fight is won by speed, not by a hand kept.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cardroom.bots import make_bot
from cardroom.bots.kittens import LEVELS, VALUE, HeuristicBot, _next_of
from cardroom.games.kittens.actions import DRAW, Action, Play
from cardroom.games.kittens.cards import DEFUSE, EXPLODING_KITTEN
from cardroom.games.kittens.options import Options
from cardroom.protocol import JSON, Bot
from cardroom.protocol.table import ViewFn

CHEAPEST_ESCAPES = ("skip", "reverse", "super_skip", "attack", "targeted_attack", "triple_attack")
"""Cards that end a turn without drawing, the one a person misses least first."""


class KittensStandIn(HeuristicBot):
    """A careful player of someone else's hand: it keeps their cards and their Defuse."""

    def __init__(self, seat: int, seed: int, think_ms: int = 0) -> None:
        super().__init__(seat, seed, 1.0, LEVELS["hard"][1], think_ms)

    def _turn_action(self, view: ViewFn) -> Action:
        if self._fallback:
            self._fallback = False
            return DRAW
        v = view()
        hand: list[str] = v["hand"]
        risk = self._risk(v)
        if risk == 1.0 or (risk > 0.0 and DEFUSE not in hand):
            for card in CHEAPEST_ESCAPES:
                if card in hand:
                    target = _next_of(v, self.seat) if card == "targeted_attack" else None
                    return Play((card,), target=target)
        return DRAW

    def _give(self, v: JSON) -> str:
        return least_valuable(v["hand"])

    def _kitten_position(self, v: JSON) -> int:
        return int(v["deck_size"])  # the bottom: as far from them (and everyone) as it goes

    def _insert(self, v: JSON, card: str) -> int:
        return int(v["deck_size"]) if card == EXPLODING_KITTEN else 0


def least_valuable(hand: list[str]) -> str:
    """The card of `hand` its holder misses least: never a Defuse while there is anything else."""
    return min(hand, key=lambda card: (card == DEFUSE, VALUE.get(card, 5), card))


def make_stand_in(game: str, seat: int, level: str, seed: int, options: Mapping[str, Any]) -> Bot[Any]:
    """The stand-in for `seat` at a table of `game` with `options` (`level`: the table's bots')."""
    if game == "kittens":
        return KittensStandIn(seat, seed, Options.parse(options).bot_think_ms)
    return make_bot(game, seat, level, seed, True, options)
