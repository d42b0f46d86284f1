"""Tables set up exactly as a scenario's deal says, checked so that no rule is broken.

A deal may be a partial deck, but never more copies of a card than the deck(s) hold, never a
sixth card in a hand, and every seat and count must fit the table.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from cardroom.games.burrito.cards import CARD_SET, COPIES, HAND_LIMIT, SET_SIZE, is_battle
from cardroom.games.burrito.options import Options
from cardroom.games.burrito.table import BurritoTable
from cardroom.protocol import InvalidSetup

_KEYS = frozenset({"hands", "piles", "community", "score_piles", "bruises", "round", "badge"})


def _cards(raw: Any, where: str) -> list[str]:
    if not isinstance(raw, list):
        raise InvalidSetup(f"{where} must be a list of cards")
    for card in raw:
        if not isinstance(card, str) or card not in CARD_SET:
            raise InvalidSetup(f"unknown card {card!r} in {where}")
    return list(raw)


def _per_seat(raw: Any, count: int, field: str) -> list[list[str]]:
    if not isinstance(raw, list) or len(raw) != count:
        raise InvalidSetup(f"deal {field!r} must be a list of {count} card lists")
    return [_cards(item, f"{field}[{i}]") for i, item in enumerate(raw)]


def _whole_number(raw: Any, what: str) -> int:
    if not isinstance(raw, int) or isinstance(raw, bool) or raw < 0:
        raise InvalidSetup(f"{what} must be a whole number of at least 0")
    return raw


def table_from_deal(players: int, opts: Options, deal: Mapping[str, Any], seed: int) -> BurritoTable:
    """A table in play at time 0 holding exactly `deal`. Raises InvalidSetup."""
    if not isinstance(deal, Mapping):
        raise InvalidSetup("deal must be an object")
    unknown = sorted(set(deal) - _KEYS)
    if unknown:
        raise InvalidSetup(f"unknown deal field {unknown[0]!r}")
    n = players
    # What a deal leaves out is empty (docs/scenarios.md): `"deal": {}` is a table with no cards.
    hands = _per_seat(deal.get("hands", [[] for _ in range(n)]), n, "hands")
    for p, hand in enumerate(hands):
        if len(hand) > HAND_LIMIT:
            raise InvalidSetup(f"player {p} holds {len(hand)} cards: a hand holds at most {HAND_LIMIT}")
    piles = _per_seat(deal.get("piles", [[] for _ in range(n)]), n, "piles")
    community = _per_seat(deal.get("community", [[], []]), 2, "community")
    score_piles = _per_seat(deal.get("score_piles", [[] for _ in range(n)]), n, "score_piles")
    bruises_raw = deal.get("bruises", [0] * n)
    if not isinstance(bruises_raw, list) or len(bruises_raw) != n:
        raise InvalidSetup(f"deal 'bruises' must be a list of {n} numbers")
    bruises = [_whole_number(b, f"bruises[{p}]") for p, b in enumerate(bruises_raw)]
    if sum(bruises) >= opts.bruises:
        raise InvalidSetup(f"{sum(bruises)} bruises given of {opts.bruises}: the round would already be over")
    rnd = deal.get("round", 1)
    if rnd not in (1, 2) or isinstance(rnd, bool):
        raise InvalidSetup(f"round must be 1 or 2, not {rnd!r}")
    badge = deal.get("badge")
    if badge is not None and (isinstance(badge, bool) or not isinstance(badge, int) or not 0 <= badge < n):
        raise InvalidSetup(f"badge holder {badge!r} is not a seat at this table (0 to {n - 1})")
    counts: Counter[str] = Counter()
    for group in (hands, piles, community, score_piles):
        for cards in group:
            counts.update(cards)
    for card, count in sorted(counts.items()):
        if count > COPIES[card] * opts.decks:
            raise InvalidSetup(f"{count} copies of {card}: the deck holds {COPIES[card] * opts.decks}")

    t = BurritoTable(n, opts, seed)
    t.hands = hands
    t.piles = [pile[::-1] for pile in piles]
    t.community = [pile[::-1] for pile in community]
    t.score_piles = score_piles
    for p, pile in enumerate(score_piles):
        for card, count in Counter(pile).items():
            if count % SET_SIZE:
                raise InvalidSetup(f"score_piles[{p}] holds {count} {card}: a score pile holds whole sets")
            if is_battle(card):
                t.battle_sets[p] += count // SET_SIZE
            else:
                t.sets[p] += count // SET_SIZE
    t.bruises = bruises
    t.bruises_left = opts.bruises - sum(bruises)
    t.round = rnd
    t.badge = badge
    t.phase = "play"
    return t
