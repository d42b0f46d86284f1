"""Dealing: a fresh shuffled game from a seed, or exactly the table a scenario describes."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cardroom.games.kittens.cards import (
    CARD_SET,
    DEFUSE,
    EXPLODING_KITTEN,
    HAND_SIZE,
    MAX_PLAYERS,
    MIN_PLAYERS,
    deck_counts,
)
from cardroom.games.kittens.options import Options
from cardroom.games.kittens.state import State
from cardroom.protocol import InvalidSetup
from cardroom.protocol.rng import KeyedRandom

DEAL_FIELDS = frozenset({"hands", "deck", "discard", "turn", "turns_left", "direction", "alive"})


def check_players(players: int) -> None:
    if isinstance(players, bool) or not isinstance(players, int) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise InvalidSetup(
            f"Exploding Kittens is played by {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players!r}"
        )


def new_state(players: int, options: Options, seed: int) -> State:
    """Setup of 003: a Defuse and seven other cards each; kittens and spare Defuses go in the deck."""
    check_players(players)
    rng = KeyedRandom(seed)
    counts = deck_counts(players)
    spares = counts.pop(DEFUSE) - players
    kittens = counts.pop(EXPLODING_KITTEN)
    cards = [card for card, copies in counts.items() for _ in range(copies)]
    rng.shuffle(cards)
    hands = [[DEFUSE, *cards[i * HAND_SIZE : (i + 1) * HAND_SIZE]] for i in range(players)]
    deck = cards[players * HAND_SIZE :] + [DEFUSE] * spares + [EXPLODING_KITTEN] * kittens
    rng.shuffle(deck)
    return State(players, options, rng, hands, deck, [])


def _cards(value: Any, where: str) -> list[str]:
    if not isinstance(value, list):
        raise InvalidSetup(f"deal: {where} must be a list of cards")
    for card in value:
        if not isinstance(card, str) or card not in CARD_SET:
            raise InvalidSetup(f"deal: unknown card {card!r} in {where}")
    return list(value)


def _int(deal: Mapping[str, Any], key: str, default: int) -> int:
    value = deal.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidSetup(f"deal: {key!r} must be an integer, not {value!r}")
    return value


def state_from_deal(players: int, options: Options, deal: Mapping[str, Any], seed: int) -> State:
    """The table exactly as `deal` says (rules/SCENARIOS.md); InvalidSetup when it cannot be."""
    check_players(players)
    unknown = sorted(set(deal) - DEAL_FIELDS)
    if unknown:
        raise InvalidSetup(f"deal: unknown field {unknown[0]!r}")
    raw_hands = deal.get("hands", [[] for _ in range(players)])  # left out: empty (docs/scenarios.md)
    if not isinstance(raw_hands, list) or len(raw_hands) != players:
        raise InvalidSetup(f"deal: 'hands' must be a list of {players} hands")
    hands = [_cards(h, f"hand {i}") for i, h in enumerate(raw_hands)]
    deck = _cards(deal.get("deck", []), "the deck")
    discard = _cards(deal.get("discard", []), "the discard pile")
    alive_raw = deal.get("alive", [True] * players)
    if (
        not isinstance(alive_raw, list)
        or len(alive_raw) != players
        or not all(isinstance(a, bool) for a in alive_raw)
    ):
        raise InvalidSetup(f"deal: 'alive' must be a list of {players} booleans")
    alive = list(alive_raw)
    if sum(alive) < 2:
        raise InvalidSetup("deal: at least two players must still be in the game")
    turn = _int(deal, "turn", 0)
    if not 0 <= turn < players or not alive[turn]:
        raise InvalidSetup(f"deal: 'turn' must be a player still in the game, not {turn}")
    turns_left = _int(deal, "turns_left", 1)
    if turns_left < 1:
        raise InvalidSetup(f"deal: 'turns_left' must be at least 1, not {turns_left}")
    direction = _int(deal, "direction", 1)
    if direction not in (1, -1):
        raise InvalidSetup(f"deal: 'direction' must be 1 or -1, not {direction}")
    for i, hand in enumerate(hands):
        if EXPLODING_KITTEN in hand:
            raise InvalidSetup(f"deal: hand {i} holds an Exploding Kitten; a deal starts with a turn to play")
        if hand and not alive[i]:
            raise InvalidSetup(f"deal: player {i} is out of the game and cannot hold cards")
    kittens = deck.count(EXPLODING_KITTEN) + discard.count(EXPLODING_KITTEN)
    if discard.count(EXPLODING_KITTEN):
        raise InvalidSetup("deal: an Exploding Kitten cannot lie in the discard pile")
    if kittens > sum(alive) - 1:
        raise InvalidSetup(
            f"deal: {kittens} Exploding Kittens for {sum(alive)} players still in; at most players - 1"
        )
    deck.reverse()
    discard.reverse()
    state = State(players, options, KeyedRandom(seed), hands, deck, discard)
    state.alive = alive
    state.turn = turn
    state.turns_left = turns_left
    state.attacked = turns_left > 1
    state.direction = direction
    return state
