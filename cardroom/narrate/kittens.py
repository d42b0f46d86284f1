"""Exploding Kittens events as sentences for one recipient, with names ("you" for them).

Pure functions of the event (already filtered for `seat`), the names and the seat's view, so
that every client says the same thing; key hints ("Nope? press n") are added by the client.
The answers to 003's quick keys (shift+D, T, E) are built from `games.kittens.queries`, so
that every client answers alike (over the network: `answer_query`). Refusals are sentences
here too (`refusal`), the one table the terminal and the server both read.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence

from cardroom.games.kittens import queries
from cardroom.games.kittens.cards import ATTACK_TURNS, FERAL_CAT, REGISTRY
from cardroom.games.kittens.state import TURN
from cardroom.i18n import _, ngettext
from cardroom.narrate._common import (
    N_,
    Namer,
    Narrator,
    concerns,
    join_list,
    meanwhile,
    narrate_by,
    plural_n,
    refusal_from,
    seconds,
    tally,
)
from cardroom.narrate.speech import Fold, Priority
from cardroom.protocol import JSON, Rejected

CARD_NAMES: dict[str, tuple[str, str]] = {card.id: (card.name, card.a_name) for card in REGISTRY}
"""Each card's display name and the name with its indefinite article, from the engine's
registry (`games/kittens/cards.py`, marked there for the catalogs), untranslated: `card_name`
and `a_card` say them in the current language (identifiers never change; names are translated)."""


REFUSALS: dict[str, str] = {
    "game_over": N_("The game is over."),
    "no_such_player": N_("Refused: there is no such player at this table."),
    "exploded": N_("You exploded: you are out of this game."),
    "nope_window_open": N_("Wait: only a Nope can be played while a Nope window is open."),
    "not_your_turn": N_("Refused: it is not your turn."),
    "must_defuse": N_("You drew an Exploding Kitten: defuse it or explode."),
    "choice_pending": N_("Wait: a player is choosing."),
    "nothing_to_nope": N_("Refused: there is nothing to Nope right now."),
    "own_card": N_("Refused: you cannot Nope your own card."),
    "not_in_hand": N_("Refused: you do not hold that card."),
    "bad_target": N_("Refused: choose another player who is still in the game, or none for this card."),
    "bad_combo": N_("Refused: these cards make no combo (a cat does nothing alone)."),
    "cannot_play": N_("Refused: that card cannot be played now."),
    "bad_take": N_("Refused: that card is not in the discard pile."),
    "bad_name": N_("Refused: a triple names a card; a pair does not."),
    "nothing_to_defuse": N_("Refused: there is no Exploding Kitten to defuse."),
    "not_choosing": N_("Refused: you have nothing to choose now."),
    "bad_order": N_("Refused: give each card you saw one new place."),
    "bad_position": N_("Refused: that position is not in the deck."),
    "nothing_to_pass": N_("Refused: there is no Nope window to pass in."),
    "already_passed": N_("You already let this card go."),
}
"""Every refusal code of the engine (`games/kittens/checks.py`) as a whole sentence, with no key
names in it (every client hears these); `refusal` says more where the refusal carries what is
needed (the card, the size of the deck)."""


def card_name(card: str) -> str:
    names = CARD_NAMES.get(card)
    return _(names[0]) if names else card


def a_card(card: str) -> str:
    names = CARD_NAMES.get(card)
    return _(names[1]) if names else card


def card_catalog() -> dict[str, dict[str, str | bool]]:
    """Every card's display name and what it does, in the current language, for clients, with
    what the page's keys need to know of it (from the registry, never translated): `targets`,
    played alone it names a player; `cat`, it goes into cat combos. (Which sets may be played
    now, the page reads from the seat's view: `plays`, the engine's legal moves.)"""
    return {
        card.id: {
            "name": _(card.name),
            "text": _(card.text),
            "targets": card.targets,
            "cat": card.cat,
        }
        for card in REGISTRY
    }


def refusal(rejected: Rejected) -> str:
    """The sentence a person hears when the table refuses their action."""
    code, params = rejected.code, rejected.params
    if code == "not_in_hand" and params.get("card") in CARD_NAMES:
        return _("Refused: you have no {card}.").format(card=card_name(params["card"]))
    if code == "bad_position" and isinstance(params.get("size"), int):
        return _("Refused: choose a position from 0 to {size}.").format(size=params["size"])
    if code == "bad_order" and isinstance(params.get("count"), int):
        return ngettext(
            "Refused: give the {n} card you saw one new place.",
            "Refused: give each of the {n} cards you saw one new place.",
            params["count"],
        ).format(n=params["count"])
    if code == "bad_target" and "target" in params:
        return _("Refused: that player is out of the game.")
    return refusal_from(REFUSALS, rejected)


def card_list(cards: Sequence[str]) -> str:
    return join_list([card_name(c) for c in cards])


def combo_card(cards: Sequence[str]) -> str:
    """The card a pair or triple is of: the Feral Cat stands in for the cat it is played with
    (docs/rules/kittens.md, Combos), so a Grey Cat and a Feral Cat are a Grey Cat pair; Feral
    Cats alone are a Feral Cat pair or triple."""
    return next((c for c in cards if c != FERAL_CAT), cards[0])


def played_what(cards: Sequence[str]) -> str:
    """What a play was, as one singular noun: "Black Cat", "a Black Cat pair" is "Black Cat
    pair", three alike "Black Cat triple", five different cards "five different cards"; a
    Feral Cat standing in is named after the pair ("Grey Cat pair with a Feral Cat")."""
    if len(cards) == 1:
        return card_name(cards[0])
    if len(cards) == 5:
        return _("five different cards")
    card = combo_card(cards)
    ferals = cards.count(FERAL_CAT) if card != FERAL_CAT else 0
    if len(set(cards) - {FERAL_CAT}) > 1 or len(cards) not in (2, 3):
        return card_list(cards)
    if len(cards) == 2:
        if ferals:
            return _("{card} pair with a Feral Cat").format(card=card_name(card))
        return _("{card} pair").format(card=card_name(card))
    if ferals:
        return ngettext("{card} triple with a Feral Cat", "{card} triple with {n} Feral Cats", ferals).format(
            card=card_name(card), n=ferals
        )
    return _("{card} triple").format(card=card_name(card))


def numbered(cards: Sequence[str]) -> str:
    """ "1 Attack, 2 Skip": cards with their positions."""
    return join_list([_("{n}: {card}").format(n=i + 1, card=card_name(c)) for i, c in enumerate(cards)])


# ---- the quick keys of 003 ----------------------------------------------------------------------


def describe(card: str) -> str:
    """shift+D: what `card` does."""
    info = queries.describe(card)
    return _("{card}: {text}").format(card=card_name(card), text=_(info["text"]))


def whose_turn(view: JSON, seat: int | None, names: Sequence[str]) -> str:
    """T: whose turn it is and how many turns they still must play."""
    info = queries.whose_turn(view)
    who = Namer(names, seat)
    p, left = info["player"], info["turns_left"]
    if info["phase"] == "game_over":
        return _("The game is over.")
    if p == seat:
        if left > 1:
            return ngettext(
                "It is your turn; you must play {n} turn, this one included.",
                "It is your turn; you must play {n} turns, this one included.",
                left,
            ).format(n=left)
        return _("It is your turn (only this one).")
    if left > 1:
        return ngettext(
            "It is {name}'s turn; they must play {n} turn, this one included.",
            "It is {name}'s turn; they must play {n} turns, this one included.",
            left,
        ).format(name=who(p), n=left)
    return _("It is {name}'s turn (only this one).").format(name=who(p))


def counts(view: JSON, seat: int | None, names: Sequence[str]) -> str:
    """E: cards in each hand, in the deck and in the discard pile."""
    info = queries.counts(view)
    who = Namer(names, seat)
    parts = []
    for p, size in enumerate(info["hands"]):
        if size is None:
            parts.append(_("{name}: exploded").format(name=who(p)))
        else:
            parts.append(ngettext("{name}: {n} card", "{name}: {n} cards", size).format(name=who(p), n=size))
    return _("Cards in hand: {hands}. Deck: {deck}. Discard pile: {discard}.").format(
        hands=join_list(parts), deck=info["deck"], discard=info["discard"]
    )


def answer_query(what: str, card: str | None, view: JSON, names: Sequence[str], seat: int | None) -> str:
    """003's quick keys asked over the network: "turn" (T), "counts" (E), "card" (shift+D).

    ValueError, with a sentence for the asker, for a question or card there is none of.
    """
    if what == "turn":
        return whose_turn(view, seat, names)
    if what == "counts":
        return counts(view, seat, names)
    if what == "card":
        if not card:
            raise ValueError(_("Say which card you ask about."))
        if card not in CARD_NAMES:
            raise ValueError(_("There is no card called {card} in Exploding Kittens.").format(card=card))
        return describe(card)
    raise ValueError(_("There is no question {what}: ask turn, counts or card.").format(what=what))


def next_player(view: JSON, player: int) -> int:
    """Who plays after `player` (the victim of a plain Attack), from the view."""
    alive: list[bool] = view["alive"]
    step: int = view["direction"]
    n: int = view["players"]
    q = (player + step) % n
    while not alive[q] and q != player:
        q = (q + step) % n
    return q


# ---- events -------------------------------------------------------------------------------------


def narrate(event: JSON, seat: int | None, names: Sequence[str], view: JSON) -> list[str]:
    """The lines `event` (as `seat` may see it) prints for `seat`; [] for nothing worth saying."""
    return narrate_by(_HANDLERS, event, seat, names, view)


def _deal(e: JSON, who: Namer, view: JSON) -> list[str]:
    deck, kittens = e["deck_size"], e["kittens"]
    sizes: list[int] = e["hand_sizes"]
    seat = who.seat
    if seat is not None and 0 <= seat < len(sizes):
        first = ngettext(
            "The game begins: you hold {n} card.", "The game begins: you hold {n} cards.", sizes[seat]
        ).format(n=sizes[seat])
    else:
        first = ngettext(
            "The game begins: {players} players hold {n} card each.",
            "The game begins: {players} players hold {n} cards each.",
            max(sizes, default=0),
        ).format(players=len(sizes), n=max(sizes, default=0))
    second = ngettext(
        "The deck: {n} cards, {k} Exploding Kitten among them.",
        "The deck: {n} cards, {k} Exploding Kittens among them.",
        kittens,
    )
    return [first, second.format(n=deck, k=kittens)]


def _hand(e: JSON, who: Namer, view: JSON) -> list[str]:
    # The deal already said how many cards; the hand itself is read where it is shown (the
    # web page's hand list, the terminal's welcome and h), not read out card by card here.
    return []


def _played(e: JSON, who: Namer, view: JSON) -> list[str]:
    p, cards, combo = e["player"], e["cards"], e.get("combo")
    me = p == who.seat
    target: int = e.get("target", -1) if e.get("target") is not None else -1
    if combo == "pair":
        # "a Red Cat pair": the card's name stays singular in every language.
        card = card_name(combo_card(cards))
        if me:
            return [_("You play a {card} pair against {target}.").format(card=card, target=who(target))]
        if target == who.seat:
            # Within the Nope window: the threat and who first, short.
            return [_("{name}: a {card} pair against you.").format(name=who(p), card=card)]
        return [
            _("{name} plays a {card} pair against {target}.").format(
                name=who(p), card=card, target=who(target)
            )
        ]
    if combo == "triple":
        card, wanted = card_name(combo_card(cards)), a_card(e["name"])
        if me:
            return [
                _("You play three {card} and ask {target} for {wanted}.").format(
                    card=card, target=who(target), wanted=wanted
                )
            ]
        if target == who.seat:
            return [
                _("{name} plays three {card} and asks you for {wanted}.").format(
                    name=who(p), card=card, wanted=wanted
                )
            ]
        return [
            _("{name} plays three {card} and asks {target} for {wanted}.").format(
                name=who(p), card=card, target=who(target), wanted=wanted
            )
        ]
    if combo == "five":
        take = card_name(e["take"])
        if me:
            return [_("You play five different cards for {card}.").format(card=take)]
        return [_("{name} plays five different cards for {card}.").format(name=who(p), card=take)]
    card = cards[0]
    name = card_name(card)
    if card in ATTACK_TURNS and target < 0:
        target = next_player(view, p)
    if target >= 0:
        if me:
            return [_("You play {card} on {target}.").format(card=name, target=who(target))]
        if target == who.seat:
            # Within the Nope window: the threat and who first, short; an Attack's turns are
            # said by your turn, which follows at once when it goes ahead.
            return [_("{name}: {card} on you.").format(name=who(p), card=name)]
        return [_("{name} plays {card} on {target}.").format(name=who(p), card=name, target=who(target))]
    if me:
        return [_("You play {card}.").format(card=name)]
    return [_("{name} plays {card}.").format(name=who(p), card=name)]


def _noped(e: JSON, who: Namer, view: JSON) -> list[str]:
    p, nopes = e["player"], e["nopes"]
    window: JSON = view.get("window") or {}
    if nopes % 2 and window.get("player") == who.seat and p != who.seat:
        # Your own card Noped: said as such (issue 14), the card named.
        return [_("{name} Nopes your {card}.").format(name=who(p), card=played_what(window.get("cards", [])))]
    # What the Nope does is said when the window closes ("Noped: ...", "... goes ahead after all").
    if nopes % 2:
        if p == who.seat:
            return [_("You say Nope.")]
        return [_("{name} says Nope.").format(name=who(p))]
    if p == who.seat:
        return [_("You Nope the Nope.")]
    return [_("{name} Nopes the Nope.").format(name=who(p))]


def _passed(e: JSON, who: Namer, view: JSON) -> list[str]:
    # Others' passes are not said: three a card would crowd the speech, and the window's end
    # says what matters. Your own is confirmed, briefly.
    if e["player"] == who.seat and not e.get("standing"):
        return [_("No Nope from you.")]
    return []


def _always_pass(e: JSON, who: Namer, view: JSON) -> list[str]:
    p, on = e["player"], e["on"]
    if p == who.seat:
        return [
            _("You now let every card go without a Nope.") if on else _("You now answer every card yourself.")
        ]
    if on:
        return [_("{name} now lets every card go without a Nope.").format(name=who(p))]
    return [_("{name} now answers every card.").format(name=who(p))]


def _window_closed(e: JSON, who: Namer, view: JSON) -> list[str]:
    p = e["player"]
    what = played_what(e["cards"])
    if e["cancelled"]:
        if p == who.seat:
            return [_("Noped: your {card} has no effect.").format(card=what)]
        return [_("Noped: {name}'s {card} has no effect.").format(name=who(p), card=what)]
    if e["nopes"]:
        if p == who.seat:
            return [_("Your {card} goes ahead after all.").format(card=what)]
        return [_("{name}'s {card} goes ahead after all.").format(name=who(p), card=what)]
    return []


def _turns_returned(e: JSON, who: Namer, view: JSON) -> list[str]:
    p, turns = e["player"], e["turns"]
    if p == who.seat:
        return [
            ngettext(
                "The attack comes back: you take {n} turn.",
                "The attack comes back: you take {n} turns.",
                turns,
            ).format(n=turns)
        ]
    return [
        ngettext(
            "The attack comes back: {name} takes {n} turn.",
            "The attack comes back: {name} takes {n} turns.",
            turns,
        ).format(name=who(p), n=turns)
    ]


def _attacked(e: JSON, who: Namer, view: JSON) -> list[str]:
    # The victim's turn follows at once and says how many turns they must play
    # ("Your turn (4 turns to play).", attacks stacked): a line here would say it twice.
    return []


def _turn(e: JSON, who: Namer, view: JSON) -> list[str]:
    p, left = e["player"], e["turns_left"]
    if p == who.seat:
        if left > 1:
            return [
                ngettext("Your turn ({n} turn to play).", "Your turn ({n} turns to play).", left).format(
                    n=left
                )
            ]
        return [_("Your turn.")]
    if left > 1:
        return [
            ngettext("{name}'s turn ({n} turn to play).", "{name}'s turn ({n} turns to play).", left).format(
                name=who(p), n=left
            )
        ]
    return [_("{name}'s turn.").format(name=who(p))]


def _shuffled(e: JSON, who: Namer, view: JSON) -> list[str]:
    if e["player"] == who.seat:
        return [_("You shuffle the deck.")]
    return [_("{name} shuffles the deck.").format(name=who(e["player"]))]


def _swapped(e: JSON, who: Namer, view: JSON) -> list[str]:
    if e["player"] == who.seat:
        return [_("You swap the top and bottom cards of the deck.")]
    return [_("{name} swaps the top and bottom cards of the deck.").format(name=who(e["player"]))]


def _future(e: JSON, who: Namer, view: JSON) -> list[str]:
    p, count = e["player"], e["count"]
    if p == who.seat and "cards" in e:
        if not e["cards"]:
            return [_("The deck is empty: there is nothing to see.")]
        # In order, top first: the numbers would add a word a card (the reorder keys say them).
        return [_("The top of the deck, top first: {cards}.").format(cards=card_list(e["cards"]))]
    return [
        ngettext("{name} looks at the top {n} card.", "{name} looks at the top {n} cards.", count).format(
            name=who(p), n=count
        )
    ]


def _choosing(e: JSON, who: Namer, view: JSON) -> list[str]:
    p, kind = e["player"], e["kind"]
    if p == who.seat:
        if kind == "give":
            return [_("{name} asks you for a card: choose which one to give.").format(name=who(e["for"]))]
        if kind == "reorder":
            return [_("Put the top cards in the order you like.")]
        return [_("Put {card} back in the deck where you like.").format(card=card_name(e.get("card", "")))]
    if kind == "give" and e.get("for") == who.seat:
        return [_("{name} chooses a card for you.").format(name=who(p))]
    if kind == "give":
        return [_("{name} chooses a card for {other}.").format(name=who(p), other=who(e["for"]))]
    if kind == "reorder":
        return [_("{name} is reordering the top of the deck.").format(name=who(p))]
    return [_("{name} is putting a card back in the deck.").format(name=who(p))]


def _given(e: JSON, who: Namer, view: JSON) -> list[str]:
    p, to = e["player"], e["to"]
    if e.get("empty"):
        if p == who.seat:
            return [_("You have no card to give.")]
        return [_("{name} has no card to give.").format(name=who(p))]
    late = e.get("timeout")
    if p == who.seat:
        card = a_card(e.get("card", ""))
        if late:
            return [
                _("Time is up: you give {card} to {name}, chosen at random.").format(card=card, name=who(to))
            ]
        return [_("You give {card} to {name}.").format(card=card, name=who(to))]
    if to == who.seat and "card" in e:
        return [_("{name} gives you {card}.").format(name=who(p), card=a_card(e["card"]))]
    if to == who.seat:
        return [_("{name} gives you a card.").format(name=who(p))]
    return [_("{name} gives a card to {other}.").format(name=who(p), other=who(to))]


def _asked(e: JSON, who: Namer, view: JSON) -> list[str]:
    p, target, wanted = e["player"], e["target"], a_card(e["name"])
    if e["given"]:
        if target == who.seat:
            return [_("You hand {card} to {name}.").format(card=wanted, name=who(p))]
        if p == who.seat:
            return [_("{name} hands you {card}.").format(name=who(target), card=wanted)]
        return [_("{name} hands {card} to {other}.").format(name=who(target), card=wanted, other=who(p))]
    if target == who.seat:
        return [_("You have no {card}: nothing happens.").format(card=card_name(e["name"]))]
    return [_("{name} has no {card}: nothing happens.").format(name=who(target), card=card_name(e["name"]))]


def _took(e: JSON, who: Namer, view: JSON) -> list[str]:
    # The five cards played named the card and the discard pile it comes from.
    if e["player"] == who.seat:
        return [_("You take {card}.").format(card=a_card(e["card"]))]
    return [_("{name} takes {card}.").format(name=who(e["player"]), card=a_card(e["card"]))]


def _reordered(e: JSON, who: Namer, view: JSON) -> list[str]:
    p, count = e["player"], e["count"]
    if p == who.seat and "cards" in e:
        if e.get("timeout"):
            return [_("Time is up: the order stays. Top first: {cards}.").format(cards=numbered(e["cards"]))]
        return [_("New order of the top, top first: {cards}.").format(cards=card_list(e["cards"]))]
    return [
        ngettext("{name} reorders the top {n} card.", "{name} reorders the top {n} cards.", count).format(
            name=who(p), n=count
        )
    ]


def _sneaked(e: JSON, who: Namer, view: JSON) -> list[str]:
    if e["player"] == who.seat and "card" in e:
        return [_("You take the top card: {card}.").format(card=card_name(e["card"]))]
    return [_("{name} secretly takes the top card.").format(name=who(e["player"]))]


def at_depth(
    position: int, view: JSON, top: str, second: str, bottom: str, down: Callable[[int], str]
) -> str:
    """The sentence for where a card put back into the deck lies, as a person says it: `top`
    (position 0), `second` (one card above it), `bottom` (the last card of the deck, by the
    view's deck size once it is back; a deck of one is its top), else `down` of the cards
    above it. A sentence per place, whole, so that each language words it its own way."""
    if position == 0:
        return top
    if position == view.get("deck_size", -1) - 1:
        return bottom
    if position == 1:
        return second
    return down(position)


def _inserted(e: JSON, who: Namer, view: JSON) -> list[str]:
    p = e["player"]
    if p == who.seat and "position" in e:
        card = card_name(e["card"])
        return [
            at_depth(
                e["position"],
                view,
                _("You put {card} back on top.").format(card=card),
                _("You put {card} back second from the top.").format(card=card),
                _("You put {card} back at the bottom.").format(card=card),
                lambda n: ngettext(
                    "You put {card} back {n} card down.", "You put {card} back {n} cards down.", n
                ).format(card=card, n=n),
            )
        ]
    return [_("{name} puts the card back in the deck.").format(name=who(p))]


def _drew(e: JSON, who: Namer, view: JSON) -> list[str]:
    p = e["player"]
    bottom = e.get("from") == "bottom"
    lines = []
    if e.get("forced"):
        lines.append(
            _("Time is up: a card is drawn.")
            if p == who.seat
            else _("Time is up for {name}.").format(name=who(p))
        )
    if p == who.seat and e.get("card") == "exploding_kitten":
        return lines  # the defuse prompt follows at once and says it: one urgent line, not two
    if p == who.seat and "card" in e:
        if bottom:
            lines.append(_("You draw {card} from the bottom.").format(card=a_card(e["card"])))
        else:
            lines.append(_("You drew {card}.").format(card=a_card(e["card"])))
        return lines
    if e.get("card") == "exploding_kitten":
        lines.append(_("{name}: Exploding Kitten!").format(name=who(p)))  # who and what, short
    elif bottom:
        lines.append(_("{name} draws from the bottom.").format(name=who(p)))
    else:
        lines.append(_("{name} draws a card.").format(name=who(p)))
    return lines


def _empty_deck(e: JSON, who: Namer, view: JSON) -> list[str]:
    if e["player"] == who.seat:
        return [_("The deck is empty: your turn ends.")]
    return [_("The deck is empty: {name}'s turn ends.").format(name=who(e["player"]))]


def _defusing(e: JSON, who: Namer, view: JSON) -> list[str]:
    p = e["player"]
    ms = e["until"] - view.get("now", e["until"])
    left, n = seconds(ms), plural_n(ms)
    if p == who.seat:
        if "defuse" in view.get("hand", ["defuse"]):
            return [ngettext("DEFUSE NOW! {s} second.", "DEFUSE NOW! {s} seconds.", n).format(s=left)]
        return [
            ngettext(
                "Exploding Kitten! No Defuse: you explode in {s} second.",
                "Exploding Kitten! No Defuse: you explode in {s} seconds.",
                n,
            ).format(s=left)
        ]
    return [
        ngettext("{name} has {s} second to defuse it.", "{name} has {s} seconds to defuse it.", n).format(
            name=who(p), s=left
        )
    ]


def _defused(e: JSON, who: Namer, view: JSON) -> list[str]:
    p = e["player"]
    if p == who.seat and "position" in e:
        return [
            at_depth(
                e["position"],
                view,
                _("Defused! Kitten on top."),
                _("Defused! Kitten second from the top."),
                _("Defused! Kitten at the bottom."),
                lambda n: ngettext(
                    "Defused! Kitten {n} card down.", "Defused! Kitten {n} cards down.", n
                ).format(n=n),
            )
        ]
    return [_("{name} defuses it.").format(name=who(p))]


def _exploded(e: JSON, who: Namer, view: JSON) -> list[str]:
    p = e["player"]
    lines = [_("BOOM! You are out.") if p == who.seat else _("BOOM! {name} is out.").format(name=who(p))]
    if e.get("discarded"):
        lines.append(_("Discarded: {cards}.").format(cards=card_list(e["discarded"])))
    return lines


def _game_over(e: JSON, who: Namer, view: JSON) -> list[str]:
    if e["winner"] == who.seat:
        return [_("Game over: you win the game!")]
    return [_("Game over: {name} wins the game.").format(name=who(e["winner"]))]


_HANDLERS: dict[str, Narrator] = {
    "deal": _deal,
    "hand": _hand,
    "played": _played,
    "noped": _noped,
    "passed": _passed,
    "always_pass": _always_pass,
    "window_closed": _window_closed,
    "turns_returned": _turns_returned,
    "attacked": _attacked,
    "turn": _turn,
    "shuffled": _shuffled,
    "swapped": _swapped,
    "future": _future,
    "choosing": _choosing,
    "given": _given,
    "asked": _asked,
    "took": _took,
    "reordered": _reordered,
    "sneaked": _sneaked,
    "inserted": _inserted,
    "drew": _drew,
    "empty_deck": _empty_deck,
    "defusing": _defusing,
    "defused": _defused,
    "exploded": _exploded,
    "game_over": _game_over,
}

SPEAKS_OF: dict[str, tuple[str, ...]] = {}
"""Kinds of event said alike to every seat they do not name (burrito.py's `SPEAKS_OF`): none
listed yet, so each kittens event is said seat by seat."""


# ---- what each line is worth to its listener (cardroom.narrate.speech) ---------------------------

_MILESTONES = frozenset({"deal", "defused", "exploded", "game_over"})


def priority(event: JSON, seat: int | None, view: JSON) -> Priority:
    """How much `event`'s lines matter to `seat` (see `cardroom.narrate.speech`)."""
    kind = event.get("event")
    if seat is not None:
        if kind in ("turn", "defusing", "choosing") and event.get("player") == seat:
            return Priority.ANSWER
        if kind == "played" and event.get("player") != seat and _victim(event, view) == seat:
            return Priority.ANSWER  # a Nope window against you
    if kind in _MILESTONES:  # your own explosion, defuse or win concerns you ("BOOM! You are out.")
        return Priority.YOU if concerns(event, seat) else Priority.MILESTONE
    if kind == "drew" and event.get("card") == "exploding_kitten":
        return Priority.MILESTONE
    if concerns(event, seat):
        return Priority.YOU
    if kind in ("noped", "window_closed") and seat is not None and _window_player(event, view) == seat:
        return Priority.YOU  # your own card Noped, or going ahead after all
    return Priority.BACKGROUND


Said = list[tuple[Priority, list[str], JSON]]
_NOT_A_CAUSE = frozenset({"deal", "hand", "passed", "always_pass"})
"""Lines that stand on their own before "Your turn.": the deal, your own pass or choice."""


def arrange(said: Said) -> Said:
    """A batch's lines in the order a listener needs them: a Nope window against you first
    (there are only seconds to answer it, and nothing that happened before matters as much);
    what made it your turn (the event just before: a defuse, an explosion, a Nope; or what made
    it your kitten to defuse, your choice) said just before "Your turn.",
    in the same breath, since a line that needs an answer is said at once and would otherwise
    come before its cause. Only lines said at once anyway join it: nothing new is said."""
    out: Said = []
    for rank, lines, event in said:
        if rank == Priority.ANSWER and event.get("event") == "played":
            out.insert(0, (rank, lines, event))
            continue
        if (
            rank == Priority.ANSWER
            and out
            and Priority.ANSWER < out[-1][0] < Priority.BACKGROUND
            and out[-1][2].get("event") not in _NOT_A_CAUSE
        ):
            lines = [" ".join([*out.pop()[1], *lines])]
        out.append((rank, lines, event))
    return out


def _victim(event: JSON, view: JSON) -> int | None:
    """Who a played card is against: its target, or the next player for a plain Attack."""
    target = event.get("target")
    if target is not None:
        return int(target)
    cards = event.get("cards", [])
    if len(cards) == 1 and cards[0] in ATTACK_TURNS and view.get("alive"):
        return next_player(view, event["player"])
    return None


def _window_player(event: JSON, view: JSON) -> int | None:
    if event.get("event") == "window_closed":
        return int(event["player"])
    window = view.get("window") or {}
    player = window.get("player")
    return int(player) if isinstance(player, int) else None


def holds_summary(seat: int | None, view: JSON | None) -> bool:
    """Whether a summary due now waits (`Narrator.holds_summary`): for a player still in the
    game, until their own turn to play, the one moment nothing timed asks them to answer (a turn
    has a minute). Given as it came due, "Meanwhile: Marco drew 4 cards; Marco played 4 cards."
    (3 s of speech) came 1.8 s before a Nope window of 3 s and held "Nope? Press N." past it in
    Orca, and "Meanwhile: Marco drew 9 cards." came 2.2 s into the listener's 10 s defuse, and
    the kitten went off (docs/speech.md, "Heard through Orca"). Spectators' and the exploded
    players' summaries are not held: nothing asks them to answer."""
    if seat is None or view is None:
        return False
    alive = view.get("alive")
    if not isinstance(alive, list) or not 0 <= seat < len(alive) or not alive[seat]:
        return False
    return not (view.get("phase") == TURN and view.get("turn") == seat)


def fold(event: JSON, seat: int | None) -> Fold | None:
    """What a background `event` adds to a summary (`summary`)."""
    kind = event.get("event")
    if kind == "drew":
        return ("drew", event["player"])
    if kind == "played":
        return ("played", event["player"])
    return None


def _drew_part(counts: Counter[Fold], who: Namer) -> list[str]:
    """ "Hugo and Sanne drew 4 cards": the summary's first part (or nothing)."""
    seats, n = tally(counts, "drew")
    if not n:
        return []
    return [
        ngettext("{players} drew {n} card", "{players} drew {n} cards", n).format(
            players=who.list(seats), n=n
        )
    ]


def summary(counts: Counter[Fold], seat: int | None, names: Sequence[str]) -> str:
    """ "Meanwhile: Hugo and Sanne drew 4 cards; Bo played 2 cards." for the background folded."""
    who = Namer(names, seat)
    parts = _drew_part(counts, who)
    players, played = tally(counts, "played")
    if played:
        parts.append(
            ngettext("{players} played {n} card", "{players} played {n} cards", played).format(
                players=who.list(players), n=played
            )
        )
    return meanwhile(parts)
