"""Exploding Kittens: the rules as a help page for players (from docs/rules/kittens.md).

One msgid per title and per sentence, a paragraph being a tuple of sentences: a
changed sentence is one catalog entry to translate again, not a whole paragraph.
"""

from __future__ import annotations

from cardroom.games.kittens.cards import REGISTRY
from cardroom.help import HelpPage, Listing, Section, Sentence
from cardroom.i18n import N_


def _cards() -> tuple[tuple[Sentence, ...], ...]:
    """One paragraph per card, as its record in the registry says it (games/kittens/cards.py);
    the cats of one colour, which do nothing alone, in one sentence that names them, where the
    first of them stands in the deck."""
    plain = tuple(card.name for card in REGISTRY if card.cat and not card.wild)
    out: list[tuple[Sentence, ...]] = []
    for card in REGISTRY:
        if card.cat and not card.wild:
            if card.name == plain[0]:
                out.append(
                    (Listing(N_("Cats ({names}) do nothing alone; they are played in combos."), plain),)
                )
        elif card.help:
            out.append(card.help)
    return tuple(out)


PAGE = HelpPage(
    title=N_("Exploding Kittens: the rules"),
    sections=(
        Section(
            N_("Goal"),
            (
                (
                    N_("Draw as few cards as you can."),
                    N_(
                        "Exploding Kittens are hidden in the deck: whoever draws one and cannot defuse it "
                        "explodes and is out."
                    ),
                    N_("The last player who has not exploded wins."),
                ),
            ),
        ),
        Section(
            N_("Setup"),
            (
                (
                    N_("Each player gets one Defuse and seven other cards."),
                    N_(
                        "The rest of the cards, the spare Defuses and the Exploding Kittens (one fewer than "
                        "the players) are shuffled into the deck."
                    ),
                    N_("The first seat starts, and play goes to the left until a Reverse turns it round."),
                ),
                (
                    N_(
                        "The deck holds the cards of the base game and of the expansions; how many of each "
                        "depends on the number of players, so that every card can appear in every game."
                    ),
                ),
            ),
        ),
        Section(
            N_("Your turn"),
            (
                (
                    N_("On your turn you may play as many cards as you like, one after the other."),
                    N_(
                        "Then you draw the top card of the deck, and your turn is over, unless a card has "
                        "already ended it."
                    ),
                ),
                (
                    N_(
                        "After an attack you owe more than one turn: each turn ends with a draw or with a "
                        "card that ends it."
                    ),
                    N_(
                        "Attack, Targeted Attack, Triple Attack and Super Skip end all the turns you owe; "
                        "Skip and Reverse end one turn."
                    ),
                    N_("Draw from the Bottom and a Defuse count as your draw."),
                ),
            ),
        ),
        Section(N_("The cards"), _cards()),
        Section(
            N_("Combos"),
            (
                (
                    N_("Several cards played together make a combo, and they lose their own action."),
                    N_("Two identical cards: choose a player, who gives you a card of their choice."),
                    N_(
                        "Three identical cards: choose a player and name a card; if they hold one, they give "
                        "it to you."
                    ),
                    N_("Five different cards: take any card you like from the discard pile."),
                ),
                (
                    N_(
                        "Cats are the usual combo cards, but any identical cards count: two Skips are a pair."
                    ),
                    N_(
                        "A Feral Cat pairs with any cat, and in five different cards one Feral Cat may stand "
                        "in for a missing cat."
                    ),
                    N_("Exploding Kittens are never part of a combo."),
                ),
            ),
        ),
        Section(
            N_("The Nope window"),
            (
                (
                    N_("After every card or combo, a Nope window of a few seconds opens."),
                    N_(
                        "Every player still in the game may play a Nope on it, except whoever played the card "
                        "it would cancel."
                    ),
                    N_("A Nope can itself be Noped, and each Nope starts the window again."),
                ),
                (
                    N_("While the window is open only Nopes can be played."),
                    N_("It always runs to its end, even when nobody holds a Nope."),
                    N_(
                        "When it closes, the card acts if it was Noped an even number of times, and is "
                        "cancelled otherwise."
                    ),
                    N_("Defuses, kittens and draws can never be Noped."),
                ),
                (
                    N_(
                        "If you Nope an attack aimed at you, the attacker plays the turns you avoided in "
                        "place of the turn they were playing: after an Attack or a Targeted Attack, exactly "
                        "two turns."
                    ),
                ),
            ),
        ),
        Section(
            N_("Attacks add up"),
            (
                (
                    N_(
                        "A player under attack who plays an attack passes on all the turns they still owe, "
                        "the current one included, plus the new ones."
                    ),
                    N_(
                        "For example, attacked for two turns, an Attack played on the first of them gives the "
                        "next player four turns."
                    ),
                ),
                (
                    N_(
                        "With two players, Reverse works like a Skip: it ends one turn, and the other player "
                        "goes next."
                    ),
                ),
            ),
        ),
        Section(
            N_("Exploding"),
            (
                (
                    N_("A player who does not play a Defuse in time explodes, even when they hold one."),
                    N_(
                        "They are out of the game, their hand goes face up onto the discard pile, and the "
                        "next player takes the turn."
                    ),
                    N_("The kitten that went off leaves the game."),
                ),
            ),
        ),
        Section(
            N_("Timers"),
            (
                (
                    N_(
                        "By default a Nope window lasts 3 seconds, you have 10 seconds to defuse a kitten and "
                        "15 seconds for each choice, and the turn timer gives you 60 seconds to act, counted "
                        "again after each card you play."
                    ),
                    N_("The table's creator may change these times."),
                ),
                (
                    N_("A player who lets the turn timer run out draws a card."),
                    N_(
                        "When a choice times out, a Favor or a pair gives a random card, Alter the Future "
                        "keeps the order and a sneak-drawn card goes back on top."
                    ),
                ),
            ),
        ),
        Section(
            N_("What you know"),
            (
                (
                    N_(
                        "You see your own hand, how many cards every player holds, whose turn it is and how "
                        "many turns they owe, the size of the deck and the whole discard pile, which lies "
                        "face up."
                    ),
                ),
                (
                    N_(
                        "The cards you saw with See the Future or Alter the Future are remembered as long as "
                        "they are certainly still there; a shuffle or somebody else's change forgets them."
                    ),
                    N_("You also remember where you put a kitten back, until it is drawn or moved."),
                ),
            ),
        ),
        Section(
            N_("Keys"),
            (
                (
                    N_("Every action has a key."),
                    N_(
                        "In the terminal, press ? in the game for the list of keys; on the web page, press F1 "
                        "where the focus is, and change the keys in Settings."
                    ),
                ),
                (
                    N_(
                        "Three keys answer questions at any time: shift+D says what the card under the cursor "
                        "does, T says whose turn it is and how many turns are left, and E says how many cards "
                        "each player holds and how many are in the deck and in the discard pile."
                    ),
                ),
            ),
        ),
    ),
)
