"""Throw Throw Burrito: the rules as a help page for players (from docs/rules/burrito.md).

One msgid per title and per sentence, a paragraph being a tuple of sentences: a
changed sentence is one catalog entry to translate again, not a whole paragraph.
"""

from __future__ import annotations

from cardroom.games.burrito.cards import REGISTRY
from cardroom.help import HelpPage, Listing, Section
from cardroom.i18n import N_

PAGE = HelpPage(
    title=N_("Throw Throw Burrito: the rules"),
    sections=(
        Section(
            N_("The game in short"),
            (
                (
                    N_("Everybody plays at the same time: there are no turns."),
                    N_(
                        "You pass the cards you do not want to your left neighbour and draw from your own "
                        "pile, trying to collect three identical cards."
                    ),
                ),
                (
                    N_("Three identical normal cards make a set worth 1 point."),
                    N_(
                        "Three identical battle cards (Brawl, War or Duel) are worth 2 points and start a "
                        "fight: the fighters grab the burritos and throw them at each other, and whoever is "
                        "hit first takes a bruise, worth -1 point."
                    ),
                ),
                (
                    N_("A round ends when the last bruise has been given."),
                    N_(
                        "A game has two rounds: the winner of the first round takes the badge, and must also "
                        "win the second round, or beat its winner in a duel, to win the game."
                    ),
                ),
            ),
        ),
        Section(
            N_("Table and cards"),
            (
                (
                    N_("From 2 to 6 players play with one deck, 2 burritos and 6 bruises."),
                    N_("From 7 to 12 players the table uses two decks, 4 burritos and 12 bruises."),
                ),
                (  # named from the registry (games/burrito/cards.py): a card added is named here
                    Listing(
                        N_("The normal cards: {names}."), tuple(c.name for c in REGISTRY if not c.battle)
                    ),
                    Listing(N_("The battle cards: {names}."), tuple(c.name for c in REGISTRY if c.battle)),
                    N_("Brawl comes in two colours, and a Brawl set is three cards of the same colour."),
                ),
            ),
        ),
        Section(
            N_("Setup"),
            (
                (
                    N_(
                        "Each player gets a personal pile of 15 cards face down; the rest of the deck makes "
                        "two community piles."
                    ),
                    N_("Everybody takes the top five cards of their own pile into their hand."),
                ),
                (
                    N_(
                        'A countdown, "3, 2, 1, Burrito!", starts the round for everybody at the same moment.'
                    ),
                    N_("Until Burrito! no card can be played."),
                ),
            ),
        ),
        Section(
            N_("Playing cards"),
            (
                (
                    N_(
                        "At any moment you may draw the top card of your own pile, as long as you hold fewer "
                        "than five cards."
                    ),
                    N_(
                        "When your own pile is empty you draw from a community pile instead; as soon as "
                        "somebody passes a card onto your empty pile, you draw from it again."
                    ),
                    N_("With two players, both may draw from the community piles at any time."),
                ),
                (
                    N_("You may pass one card from your hand, face down, onto your left neighbour's pile."),
                    N_("The others learn that you passed a card, never which one."),
                ),
                (
                    N_(
                        "Three identical normal cards can be scored as a set: they go onto your score pile "
                        "and give you 1 point."
                    ),
                    N_("Nobody draws for you: after a set, refill your hand yourself."),
                ),
                (
                    N_(
                        "Three identical battle cards are not scored as a set: you call their fight, which "
                        "puts them on your score pile for 2 points and starts the fight at once."
                    ),
                ),
            ),
        ),
        Section(
            N_("Fights"),
            (
                (
                    N_("Brawl: your left and right neighbours fight (with three players, the two others)."),
                    N_("War: everybody but you fights."),
                    N_(
                        "Duel: you name the two players who fight, and you may be one of them; both start "
                        "with a burrito in hand."
                    ),
                ),
                (
                    N_(
                        "With two players every fight is between the two of you, whatever the card; only a "
                        "Duel card makes a duel with its countdown."
                    ),
                ),
                (
                    N_(
                        "Calling a fight without the three matching cards is a mistake: you lose that fight "
                        "at once and take a bruise, and your cards stay where they are."
                    ),
                    N_(
                        "Grabbing a burrito or trying to catch one when you are not in the fight is a mistake "
                        "too, with the same penalty."
                    ),
                ),
                (
                    N_(
                        "Calls made within half a second of the first call of a fight turn it into one War of "
                        "all players, callers included; every valid caller scores their set."
                    ),
                    N_("While a fight is on, no cards can be played."),
                ),
            ),
        ),
        Section(
            N_("The arena"),
            (
                (
                    N_("A fighter with empty hands grabs a free burrito and throws it at another player."),
                    N_(
                        "The target is told at once who is throwing at them and when the burrito lands; "
                        "everybody sees every burrito in the air."
                    ),
                ),
                (
                    N_("The target may dodge: every burrito then flying at them misses."),
                    N_("After a dodge you must wait a moment before you can dodge again."),
                ),
                (
                    N_(
                        "The target may also catch the burrito in the last moment of its flight (the page and "
                        "the terminal announce when the catch window opens)."
                    ),
                    N_("A clean catch makes the thrower lose the fight."),
                    N_("Catching too early is a fumble and counts as a hit."),
                ),
                (
                    N_(
                        "A burrito that is not dodged or caught hits, and the first player hit loses the "
                        "fight."
                    ),
                    N_("A burrito that reaches somebody who is not in the fight is a miss."),
                    N_("Each further throw of the same fighter flies a little faster than the previous one."),
                ),
                (
                    N_(
                        "With two players, the caller's first throw of a fight goes behind the back first "
                        "(when both players called the fight together, both first throws do): it leaves a "
                        "moment later and cannot be dodged or caught before it leaves."
                    ),
                    N_("In the Small room variant every fighter's first throw goes behind the back."),
                    N_("Duels never do."),
                ),
                (
                    N_(
                        "In a duel the server counts 3, 2, 1, Burrito!, and only then may the duelists throw: "
                        "a throw before Burrito! is a false start and loses the duel."
                    ),
                ),
                (
                    N_(
                        "When several fighters are hit at the same moment, two of them settle it with a duel "
                        "and three or more with a War among themselves."
                    ),
                    N_(
                        "A fight that lasts too long without a hit is lost by the fighter who acted least "
                        "recently."
                    ),
                ),
                (
                    N_("The loser of a fight takes one bruise."),
                    N_("The burritos go back on the table and a new countdown resumes play."),
                ),
            ),
        ),
        Section(
            N_("End of a round and scoring"),
            (
                (
                    N_(
                        "A round ends when the last bruise has been given, or when, at the end of a fight, no "
                        "battle set can be made any more."
                    ),
                ),
                (
                    N_("A normal set scores 1 point, a battle set 2 points, a bruise -1 point."),
                    N_("The highest score wins the round; scores start again from zero in the second round."),
                ),
                (
                    N_(
                        "Two players tied for the lead settle the round with a duel; three or more fight a "
                        "War among themselves in which every player hit is out, until one is left."
                    ),
                    N_("These tie-break fights give no bruises, and no fight can be called during them."),
                ),
                (
                    N_(
                        "After the first round the table pauses for a few seconds so that everybody can read "
                        "the scores."
                    ),
                    N_(
                        "Then all the cards are shuffled again, the bruises go back on the table and the "
                        "second round starts with a countdown."
                    ),
                ),
                (
                    N_("The winner of the first round takes the badge."),
                    N_("If they also win the second round, they win the game."),
                    N_(
                        "Otherwise the winner of the second round and the badge holder fight a duel, and its "
                        "winner wins the game."
                    ),
                ),
            ),
        ),
        Section(
            N_("Playing online"),
            (
                (
                    N_("All times are the server's: what counts is when your key press reaches the table."),
                    N_("Running, ducking and hiding behind furniture all become the dodge key."),
                ),
                (
                    N_(
                        "An action that is not allowed at that moment is refused with a sentence saying why, "
                        "and changes nothing; only the mistakes described above are penalised."
                    ),
                ),
                (
                    N_(
                        "The table's creator may change the timings and counts, such as how long a burrito "
                        "flies or how many bruises there are."
                    ),
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
                    N_("Shift+D says what the card under the cursor is for."),
                    N_(
                        "On the web page the same words show beside a card when the mouse rests on it or a "
                        "finger holds it for half a second."
                    ),
                ),
                (
                    N_(
                        "Everything that happens is announced as one sentence, so the game can be played with "
                        "a screen reader."
                    ),
                    N_(
                        "In the terminal, the table key reads the scores, bruises, piles and the fight at a "
                        "glance."
                    ),
                ),
            ),
        ),
    ),
)
