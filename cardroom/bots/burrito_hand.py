"""Card play for Throw Throw Burrito bots: what a person does with a hand of five.

Score what can be scored at once (a set of three normal cards, a fight called with three
battle cards), keep drawing up to five, and pass on the card that helps least: the kind held
in fewest copies, a kind that can no longer make a set first, battle cards kept over normal
ones on ties (a battle set is worth 2 and somebody else takes the bruise).

A bot with tactics (hard) keeps battle cards more dearly and reads its neighbours
(`burrito_watch`): among its lone cards it never hands its receiver the third card of a kind
they took twice from it, prefers to pass a kind they show no sign of collecting and keeps what
its feeder keeps sending; and it holds a call that would end the round with somebody else
ahead (`call_now`).
"""

from __future__ import annotations

import random
from collections.abc import Mapping

from cardroom.bots.burrito_levels import Level
from cardroom.bots.burrito_watch import HELD, Watch
from cardroom.games.burrito.actions import Action, Call, Discard, Draw, Set
from cardroom.games.burrito.cards import BATTLE_SET, COPIES, FIGHT_OF, HAND_LIMIT, SET_SIZE
from cardroom.protocol import JSON

THIN_PILE = 3
"""With a full hand, no community card and fewer cards than this on its pile, a bot waits."""
BATTLE_KEEP = (0.5, 1.5)
"""How much more a battle card is worth keeping than a normal one held as often (without
tactics, with them): a battle set scores 2 and its bruise goes to somebody else, so a bot
with tactics keeps a lone battle card over a normal pair."""
STARVE = 0.6
"""Keeping a kind the receiver holds two of from us: kept over every other lone card, never
over a pair (starving a rival must not cost the bot its own sets)."""
TAKEN = 0.5
"""Keeping a kind the receiver took once from us, per unit of the guess (it fades)."""
SUPPLY = 0.3
"""Keeping a kind the feeder passed us, per card (up to two)."""


def card_action(
    v: JSON,
    seat: int,
    lvl: Level,
    rng: random.Random,
    scored: Mapping[str, int],
    decks: int,
    restless: bool = False,
    patience: float = 0.5,
    bored: bool = False,
    watch: Watch | None = None,
    held_long: bool = False,
) -> Action | None:
    """The card action to take now from view `v`, or None when it is better to wait.

    With nothing to draw, or a full hand and only a card or two on its pile, a person waits
    for cards to come rather than pass on what they hold: passing straight on would only send
    the same few cards round and round while the cards deeper in the piles are never reached
    (piles are stacks: a card passed on lands on top). `restless` is the moment they have
    waited long enough and pass one all the same, so that a table never stalls; `held_long`,
    the moment a bot with tactics has held a call it would rather not make (`call_now`) long
    enough, and makes it.
    """
    hand: list[str] = v["hand"]
    counts: dict[str, int] = {}
    for card in hand:
        counts[card] = counts.get(card, 0) + 1
    for card, count in counts.items():
        if count >= SET_SIZE:
            if card not in BATTLE_SET:
                return Set(card)
            if lvl.tactics and not held_long and not call_now(v, seat):
                continue
            return call(v, seat, lvl, rng, card)
    draw = _draw(v, seat, rng)
    if not restless and (draw is None or (len(hand) >= HAND_LIMIT and _thin(v, seat, patience))):
        return None
    if draw is not None and len(hand) < HAND_LIMIT:
        return draw
    if not hand:
        return None
    return Discard(worst_card(counts, lvl, rng, scored, decks, bored, watch))


def call(v: JSON, seat: int, lvl: Level, rng: random.Random, card: str) -> Call:
    """The call of three `card`s: its fight, and for a duel the two players named."""
    fight = FIGHT_OF[card]
    if fight == "duel":
        return Call("duel", "duel", duel_targets(v, seat, lvl, rng))
    return Call(fight, card)


def call_now(v: JSON, seat: int) -> bool:
    """Whether to call a fight now rather than hold them.

    A call is 2 points for the caller and a bruise for somebody else, so it is nearly always
    worth making at once. The exception is the last bruise: that fight ends the round, so a
    caller who would not then lead (at least level, which a tie-break settles) holds the cards
    and keeps collecting, and calls once the call would put it in front.
    """
    if v["bruises_left"] > 1 or v["players"] == 2:
        return True
    scores: list[int] = v["scores"]
    # Whoever takes the bruise, the strongest rival may not be that one: count on their score.
    best = max(scores[q] for q in range(v["players"]) if q != seat)
    return scores[seat] + 2 >= best


def _thin(v: JSON, seat: int, patience: float) -> bool:
    """Whether a bot with a full hand had better let cards gather on its pile first.

    Piles are stacks: a card passed on lands on top. Swapping one for one with only a card or
    two on its pile, a bot hands the same cards back and forth, and the passer never reaches
    the deeper cards of their own pile. With two players this is a closed loop (each pile is
    fed by the other), and the total of the two piles stays the same while both swap one for
    one: unless one lets cards gather on their pile for a while, the bottom of the other's pile
    is never seen. So a player whose pile holds fewer than `patience` times the other's waits;
    the bot draws a fresh `patience` each time it acts, so that over a game both piles are dug
    deep in turn.
    """
    community: list[int] = v["community_sizes"]
    if community[0] or community[1]:
        return False
    sizes: list[int] = v["pile_sizes"]
    own = sizes[seat]
    if own < THIN_PILE:
        return True
    return bool(v["players"] == 2 and own < patience * sizes[1 - seat])


def _draw(v: JSON, seat: int, rng: random.Random) -> Draw | None:
    community: list[int] = v["community_sizes"]
    own = v["pile_sizes"][seat]
    if own and v["players"] == 2 and (community[0] or community[1]) and rng.random() < 0.3:
        # Two players may draw from a community pile at any time: now and then, a fresh card.
        return Draw("community", 0 if community[0] >= community[1] else 1)
    if own or community[0] or community[1]:
        return Draw()
    return None


def worst_card(
    counts: Mapping[str, int],
    lvl: Level,
    rng: random.Random,
    scored: Mapping[str, int],
    decks: int,
    bored: bool = False,
    watch: Watch | None = None,
) -> str:
    """The card to pass to the left: the one least likely to become part of a set.

    A `bored` player (many swaps without scoring) sometimes breaks a pair: when two hands of two
    pairs swap the odd card back and forth, nothing else would ever change. With a `watch`, the
    bot chooses among its lone cards by its neighbours: a kind the receiver holds two of from
    us is never passed while another lone card can be, a kind they took once is kept over one
    they show no sign of wanting, and a kind the feeder keeps sending is kept (more may come).
    """
    cards = sorted(counts)
    if lvl.blunder and rng.random() < lvl.blunder:
        return rng.choice(cards)
    best_card, best_key = cards[0], 1e9
    for card in cards:
        key = counts[card] + rng.random() * (1.5 if bored else 0.1)
        if card in BATTLE_SET:
            key += BATTLE_KEEP[lvl.tactics]
        if COPIES[card] * decks - scored.get(card, 0) < SET_SIZE:
            key -= 10.0  # fewer than three left outside the score piles: a dead kind
        if watch is not None:
            wanted = watch.collects(card)
            if wanted >= HELD:
                key += STARVE  # it would complete the receiver's set
            else:
                key += TAKEN * wanted
            key += SUPPLY * min(watch.supplied(card), 2)
        if key < best_key:
            best_card, best_key = card, key
    return best_card


def duel_targets(v: JSON, seat: int, lvl: Level, rng: random.Random) -> tuple[int, int]:
    """Two players to duel: the two leaders among the others, so that a leader takes the bruise.

    With two players the duel is between them both. A blunder names the caller and the leader.
    """
    n: int = v["players"]
    if n == 2:
        return (0, 1)
    scores: list[int] = v["scores"]
    others = sorted((q for q in range(n) if q != seat), key=lambda q: (-scores[q], rng.random()))
    if lvl.blunder and rng.random() < lvl.blunder * 2:
        a, b = seat, others[0]
    else:
        a, b = others[0], others[1]
    return (a, b) if a < b else (b, a)
