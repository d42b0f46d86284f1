"""Throw Throw Burrito events as sentences for one recipient, with names ("you" for them).

Pure functions of the event (already filtered for `seat`), the names and the seat's view, so
that the terminal and the web client say the same thing. Key hints ("press space") are the
client's business, not the narrator's. Every sentence is whole and goes through `_`; the
refusals (`refusal`) too, the one table the terminal and the server both read.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from cardroom.games.burrito.cards import BATTLE_SET, CARD, NORMAL_TEXT, REGISTRY
from cardroom.i18n import _, ngettext
from cardroom.narrate._common import (
    N_,
    Namer,
    Narrator,
    concerns,
    join_list,
    meanwhile,
    narrate_by,
    refusal_from,
    seconds,
    tally,
)
from cardroom.narrate.speech import Fold, Priority, said_in_ms
from cardroom.protocol import JSON, Rejected

CARD_NAMES: dict[str, str] = {card.id: card.name for card in REGISTRY}
"""Each card's display name, from the engine's registry (`games/burrito/cards.py`, marked there
for the catalogs), untranslated: `card_name` says it in the current language."""

FIGHT_NAMES: dict[str, str] = {"brawl": N_("Brawl"), "war": N_("War"), "duel": N_("Duel")}

# Sentences that name a fight are written out per kind (never "a {fight}"), so that each
# language can give every fight its own article, gender and case.
THEY_CALL = {
    "brawl": N_("{name} calls a Brawl!"),
    "war": N_("{name} calls a War!"),
    "duel": N_("{name} calls a Duel!"),
}
YOU_MISCALL = {
    "brawl": N_("Mistake! You called a Brawl without the three cards."),
    "war": N_("Mistake! You called a War without the three cards."),
    "duel": N_("Mistake! You called a Duel without the three cards."),
}
THEY_MISCALL = {
    "brawl": N_("Mistake! {name} called a Brawl without the three cards."),
    "war": N_("Mistake! {name} called a War without the three cards."),
    "duel": N_("Mistake! {name} called a Duel without the three cards."),
}
TIEBREAK = {
    "brawl": N_("Tie-break Brawl for the round: {players}."),
    "war": N_("Tie-break War for the round: {players}."),
    "duel": N_("Tie-break Duel for the round: {players}."),
}
PAIR_FIGHT = {
    "brawl": N_("Brawl: {a} against {b}."),
    "war": N_("War: {a} against {b}."),
    "duel": N_("Duel: {a} against {b}."),
}
# The recipient's own seat in the pair: "you" as the first or as the second of the two (after
# "against" most languages need another form of "you"), so these are sentences of their own.
PAIR_FIGHT_YOU_FIRST = {
    "brawl": N_("Brawl: you against {b}."),
    "war": N_("War: you against {b}."),
    "duel": N_("Duel: you against {b}."),
}
PAIR_FIGHT_YOU_SECOND = {
    "brawl": N_("Brawl: {a} against you."),
    "war": N_("War: {a} against you."),
    "duel": N_("Duel: {a} against you."),
}
GROUP_FIGHT = {
    "brawl": N_("Brawl: {players}."),
    "war": N_("War: {players}."),
    "duel": N_("Duel: {players}."),
}


def per_fight(table: dict[str, str], kind: str) -> str:
    """The sentence of `table` for fight `kind`, translated."""
    return _(table.get(kind, table["war"]))


def pair_line(who: Namer, a: int, b: int, kind: str | None = None) -> str:
    """ "Duel: Anna against Marco." (`kind` given) or "Badge duel: ..." (no `kind`): the
    recipient's own seat, first or second, has a sentence of its own, never the word "you"
    dropped into {a} or {b}."""
    slot = "first" if a == who.seat else "second" if b == who.seat else "none"
    if kind is None:
        badge = {
            "none": N_("Badge duel: {a} against {b}, for the game!"),
            "first": N_("Badge duel: you against {b}, for the game!"),
            "second": N_("Badge duel: {a} against you, for the game!"),
        }
        return _(badge[slot]).format(a=who(a), b=who(b))
    table = {"none": PAIR_FIGHT, "first": PAIR_FIGHT_YOU_FIRST, "second": PAIR_FIGHT_YOU_SECOND}[slot]
    return per_fight(table, kind).format(a=who(a), b=who(b))


REFUSALS: dict[str, str] = {
    "fight_in_progress": N_("Not now: a fight is in progress."),
    "countdown": N_("Not yet: wait for Burrito!"),
    "round_over": N_("Not now: the round is over, the next one starts soon."),
    "game_over": N_("The game is over."),
    "not_in_hand": N_("Refused: you do not hold that card."),
    "battle_set": N_("Refused: battle cards are not scored as a set; call their fight instead."),
    "no_set": N_("Refused: you need three alike cards for a set."),
    "hand_full": N_("Refused: you hold 5 cards; pass one before you draw."),
    "use_own_pile": N_("Refused: draw from your own pile while it has cards."),
    "pile_empty": N_("Refused: there is no card to draw there."),
    "tie_break": N_("Refused: no fight can be called during a tie-break."),
    "fight_decided": N_("Too late: the fight has just been decided."),
    "no_fight": N_("Refused: there is no fight; the burritos stay on the table."),
    "not_fighting": N_("Refused: you are not in this fight."),
    "hands_full": N_("Refused: you already hold a burrito."),
    "no_free_burrito": N_("Refused: no burrito is free."),
    "no_burrito": N_("Refused: you hold no burrito; grab one first."),
    "self_target": N_("Refused: throw at somebody else."),
    "behind_back": N_("Refused: your burrito is still behind your back."),
    "dodge_cooldown": N_("Refused: you dodged a moment ago."),
    "not_targeted": N_("Refused: no burrito is flying at you."),
}
"""Every refusal code of the engine (`games/burrito/checks.py`) as a whole sentence, with no key
names in it: every client hears these, and keys differ (and can be remapped) between them."""


def card_name(card: str) -> str:
    return _(CARD_NAMES.get(card, card))


def card_names() -> dict[str, str]:
    """Every card's display name in the current language, for clients that show cards."""
    return {card: _(name) for card, name in CARD_NAMES.items()}


def card_text(card: str, players: int | None = None) -> str:
    """What `card` is for, in the current language (the record's words, `games/burrito/cards.py`);
    at a table of `players` two, the words of a two-player table where the card has its own
    (None: a table of three or more)."""
    record = CARD.get(card)
    if record is None:
        return _(NORMAL_TEXT)
    if players == 2 and record.two_players:
        return _(record.two_players)
    return _(record.text)


def card_catalog() -> dict[str, dict[str, str]]:
    """Every card's name and what it is for, in the current language, for clients that show
    cards; a battle card also has `two_players`, its words at a table of two, and `fight`, the
    fight three of them call (the page's keys read it; it is never translated)."""
    out: dict[str, dict[str, str]] = {}
    for record in REGISTRY:
        entry = {"name": _(record.name), "text": _(record.text)}
        if record.two_players:
            entry["two_players"] = _(record.two_players)
        if record.fight is not None:
            entry["fight"] = record.fight
        out[record.id] = entry
    return out


def describe(card: str, players: int | None = None) -> str:
    """Shift+D: "War: Call three: ...", the card's name and what it is for, at a table of
    `players` (the same words the page shows beside the card)."""
    return _("{card}: {text}").format(card=card_name(card), text=card_text(card, players))


def answer_query(what: str, card: str | None, view: JSON, names: Sequence[str], seat: int | None) -> str:
    """The one rules question of this game asked over the network: "card" (Shift+D).

    ValueError, with a sentence for the asker, for a question or card there is none of.
    """
    if what != "card":
        raise ValueError(_("There is no question {what}: ask card.").format(what=what))
    if not card:
        raise ValueError(_("Say which card you ask about."))
    if card not in CARD_NAMES:
        raise ValueError(_("There is no card called {card} in Throw Throw Burrito.").format(card=card))
    players = view.get("players")
    return describe(card, players if isinstance(players, int) else None)


def refusal(rejected: Rejected) -> str:
    """The sentence a person hears when the table refuses their action."""
    return refusal_from(REFUSALS, rejected)


def fight_name(kind: str) -> str:
    return _(FIGHT_NAMES.get(kind, kind))


def hand_line(hand: Sequence[str], slots: bool = True) -> str:
    """ "Your hand: 1: Goth Sloth, 2: War, ...": the hand with its slot numbers, as the hand key
    reads it; without them (`slots` False, the deal) the cards in slot order."""
    if not hand:
        return _("Your hand is empty.")
    if not slots:
        return _("Your hand: {cards}.").format(cards=join_list([card_name(c) for c in hand]))
    items = join_list([_("{slot}: {card}").format(slot=i + 1, card=card_name(c)) for i, c in enumerate(hand)])
    return _("Your hand: {cards}.").format(cards=items)


def scores_line(scores: Sequence[int], who: Namer) -> str:
    items = join_list([_("{name}: {score}").format(name=who(p), score=s) for p, s in enumerate(scores)])
    return _("Scores: {scores}.").format(scores=items)


def narrate(event: JSON, seat: int | None, names: Sequence[str], view: JSON) -> list[str]:
    """The lines `event` (as `seat` may see it) prints for `seat`; [] for nothing worth saying."""
    return narrate_by(_HANDLERS, event, seat, names, view)


# ---- round and play ---------------------------------------------------------------------------


def _round_start(e: JSON, who: Namer, view: JSON) -> list[str]:
    # Every hand has 5 cards (said next) and the community piles hold the rest of the deck
    # (V says their sizes): neither is news at the start of a round.
    return [_("Round {round} begins.").format(round=e["round"])]


def _hand(e: JSON, who: Namer, view: JSON) -> list[str]:
    # The deal is said every round, in slot order without the numbers: five numbers more to
    # hear each time; the hand key and the page's hand list give each card's slot.
    return [hand_line(e["cards"], slots=False)] if "cards" in e else []


def _countdown(e: JSON, who: Namer, view: JSON) -> list[str]:
    beat = e["beat"]
    if beat == "burrito":
        return [_("Burrito!")]
    if beat == "3" and e.get("caller") is not None:
        return [_("Play resumes: 3")]
    return [beat]


def _draw(e: JSON, who: Namer, view: JSON) -> list[str]:
    p = e["player"]
    community = e["from"] == "community"
    pile = e.get("pile", 0) + 1
    if p == who.seat and "card" in e:
        # Your most frequent line: the card alone answers your draw key ("Churro Bat."), but a
        # battle card's name alone would sound like its fight ("War."): "Drew War."; a draw
        # from a community pile says which. The card lands last in your hand, whose size your
        # own moves and the hand key tell.
        card = card_name(e["card"])
        if community:
            return [_("Drew {card} from community pile {pile}.").format(card=card, pile=pile)]
        if e["card"] in BATTLE_SET:
            return [_("Drew {card}.").format(card=card)]
        return [_("{card}.").format(card=card)]
    if community:
        return [_("{name} draws from community pile {pile}.").format(name=who(p), pile=pile)]
    return [_("{name} draws.").format(name=who(p))]


def _discard(e: JSON, who: Namer, view: JSON) -> list[str]:
    p, to = e["player"], e["to"]
    if p == who.seat:  # to your neighbour, always: the confirmation names the card only
        if "card" in e:
            return [_("Passed {card}.").format(card=card_name(e["card"]))]
        return [_("Passed a card.")]
    if to == who.seat:
        return [_("{name} passes you a card.").format(name=who(p))]
    return [_("{name} passes a card to {other}.").format(name=who(p), other=who(to))]


def _set(e: JSON, who: Namer, view: JSON) -> list[str]:
    p, card = e["player"], card_name(e["card"])
    if p == who.seat:
        return [_("Set of {card}; your score: {score}.").format(card=card, score=e["score"])]
    return [_("{name}: set of {card}; score {score}.").format(name=who(p), card=card, score=e["score"])]


# ---- fights -------------------------------------------------------------------------------------


def _call(e: JSON, who: Namer, view: JSON) -> list[str]:
    # The fight is said once, by the fight_start of the same batch, which names its fighters:
    # your own call is confirmed by it ("Brawl: Anna against Marco."), and a duel called on you
    # is said by it at once ("Duel: you against Marco."), as a Brawl's and a War's fighters
    # hear their fight, not who called it. The others hear who called (verbose).
    p, kind = e["player"], e["fight"]
    if p == who.seat or who.seat in e.get("targets", ()):
        return []
    return [per_fight(THEY_CALL, kind).format(name=who(p))]


def _mistake(e: JSON, who: Namer, view: JSON) -> list[str]:
    p, what = e["player"], e["what"]
    me = p == who.seat
    if what == "call":
        kind = e.get("fight", "")
        if me:
            return [per_fight(YOU_MISCALL, kind)]
        return [per_fight(THEY_MISCALL, kind).format(name=who(p))]
    if what == "grab":
        if me:
            return [_("Mistake! You grabbed a burrito without being in the fight.")]
        return [_("Mistake! {name} grabbed a burrito without being in the fight.").format(name=who(p))]
    if me:
        return [_("Mistake! You tried to catch without being in the fight.")]
    return [_("Mistake! {name} tried to catch without being in the fight.").format(name=who(p))]


def _fight_start(e: JSON, who: Namer, view: JSON) -> list[str]:
    fighters = e["fighters"]
    kind = e["kind"]
    tiebreak = e.get("tiebreak")
    if e.get("merged"):
        return [_("Calls at the same moment: a War of everybody!")]
    if tiebreak == "badge":
        line = pair_line(who, fighters[0], fighters[1])
    elif tiebreak == "round_tie":
        line = per_fight(TIEBREAK, kind).format(players=who.list(fighters))
    elif len(fighters) == 2:
        line = pair_line(who, fighters[0], fighters[1], kind)
    else:
        line = per_fight(GROUP_FIGHT, kind).format(players=who.list(fighters))
    # One line: the fight and who is in it (the listener's "you" among them says they fight). A
    # duel's countdown follows at once, "3", "2", "1", then "BURRITO! Throw!": it says when.
    return [line]


def _duel_beat(e: JSON, who: Namer, view: JSON) -> list[str]:
    if e["beat"] == "burrito":
        return [_("BURRITO! Throw!")] if who.seat in e["fighters"] else [_("Burrito!")]
    if who.seat in e["fighters"]:
        return [e["beat"]]  # your duel was named a moment ago: "3", "2", "1"
    return [_("Duel: {beat}").format(beat=e["beat"])]


def _grab(e: JSON, who: Namer, view: JSON) -> list[str]:
    p, free = e["player"], e["free"]
    if p == who.seat:
        return [_("Grabbed.")]  # whether a burrito flies at you is said when it does
    return [ngettext("{name} grabs; {n} left.", "{name} grabs; {n} left.", free).format(name=who(p), n=free)]


def _behind_back(e: JSON, who: Namer, view: JSON) -> list[str]:
    p = e["player"]
    wait = seconds(e["leaves_at"] - view.get("now", e["leaves_at"]))
    if p == who.seat and "target" in e:
        return [
            _("Your burrito goes behind your back: it leaves for {name} in {s} s.").format(
                name=who(e["target"]), s=wait
            )
        ]
    # Short: a burrito follows in a moment, and "Incoming!" must not wait behind this line in a
    # screen reader's queue (Orca says a polite line it has begun before an assertive one: the
    # longer "... swings a burrito behind their back." held "Incoming!" 2.2 s, issue 24).
    return [_("{name} winds up.").format(name=who(p))]


def _pair_fight(view: JSON) -> bool:
    """Whether the fight in `view` is between two: a burrito can only come from the other one
    and yours can only go to them, so their name is no news ("Incoming!", "Thrown.", "Missed.")."""
    fight: JSON = view.get("fight") or {}
    return len(fight.get("fighters", ())) == 2


def _throw(e: JSON, who: Namer, view: JSON) -> list[str]:
    thrower, target = e["thrower"], e["target"]
    if target == who.seat:
        # The threat and who first. A listener who can dodge answers that at once: nothing
        # more is said before their key. One whose dodge is still cooling down can only catch:
        # when the catch window opens late enough for more words to be said before it, the
        # line says when (issue 21: a cue said as the window opens is over before it is heard);
        # the catch earcon marks the moment itself.
        line = _("Incoming!") if _pair_fight(view) else _("Incoming, {name}!").format(name=who(thrower))
        # From the throw (the flight's own times, not the clock of whenever this is said).
        thrown = e.get("lands_at", 0) - e.get("flight_ms", 0)
        if view.get("dodge_until", 0) <= thrown:
            return [line]
        wait = e.get("catch_from", 0) - thrown
        n = max(1, round(wait / 1000))
        whole = " ".join((line, ngettext("Catch in {n} second.", "Catch in {n} seconds.", n).format(n=n)))
        return [whole] if said_in_ms(whole) <= wait else [line]
    if thrower == who.seat:
        if _pair_fight(view):
            return [_("Thrown.")]
        return [_("Thrown at {name}.").format(name=who(target))]
    return [_("{name} throws at {other}.").format(name=who(thrower), other=who(target))]


def _dodge(e: JSON, who: Namer, view: JSON) -> list[str]:
    p = e["player"]
    if p == who.seat:
        return [_("Dodged.")]
    return [_("{name} dodges.").format(name=who(p))]


def _catch(e: JSON, who: Namer, view: JSON) -> list[str]:
    p, thrower = e["player"], e["thrower"]
    if p == who.seat:
        return [_("Caught!")]  # the thrower loses: the fight's end, at once, names them
    if thrower == who.seat:
        return [_("{name} catches your burrito!").format(name=who(p))]
    return [_("{name} catches {other}'s burrito!").format(name=who(p), other=who(thrower))]


def _fumble(e: JSON, who: Namer, view: JSON) -> list[str]:
    p = e["player"]
    if p == who.seat:
        # "Incoming" named the thrower, and the fight's end follows at once ("You lose; ...").
        return [_("Too early! You fumble.")]
    return [_("{name} fumbles: a hit.").format(name=who(p))]


def _hit(e: JSON, who: Namer, view: JSON) -> list[str]:
    p, thrower = e["player"], e["thrower"]
    if p == who.seat:
        if _pair_fight(view):
            # Translators: a burrito hit you, in a fight of two (the fight's end, "You lose.",
            # follows at once; "Incoming!" said the burrito came).
            return [_("Hit!")]
        return [_("{name} hits you!").format(name=who(thrower))]
    if thrower == who.seat:
        return [_("You hit {name}!").format(name=who(p))]
    return [_("{name} hits {other}!").format(name=who(thrower), other=who(p))]


def _miss(e: JSON, who: Namer, view: JSON) -> list[str]:
    thrower, target = e["thrower"], e["target"]
    if e["reason"] == "not_fighting":
        if thrower == who.seat:
            return [_("Your burrito hits {name}, who is not fighting: a miss.").format(name=who(target))]
        if target == who.seat:
            return [
                _("{name}'s burrito hits you, but you are not fighting: a miss.").format(name=who(thrower))
            ]
        return [
            _("{name}'s burrito hits {other}, who is not fighting: a miss.").format(
                name=who(thrower), other=who(target)
            )
        ]
    if target == who.seat:
        return []  # you dodged it, and heard so ("Dodged.")
    if thrower == who.seat:
        return [_("Missed.")]  # "Thrown at Marco." named the target a moment ago
    return [_("{name} misses {other}.").format(name=who(thrower), other=who(target))]


def _fight_tie(e: JSON, who: Namer, view: JSON) -> list[str]:
    # The duel or War that settles it starts in the same batch and names its fighters: one fact once.
    return [_("Hits at the same moment!")]


def _false_start(e: JSON, who: Namer, view: JSON) -> list[str]:
    p = e["player"]
    if p == who.seat:
        return [_("False start! You threw before Burrito!")]
    return [_("False start! {name} threw before Burrito!").format(name=who(p))]


def _stalling(e: JSON, who: Namer, view: JSON) -> list[str]:
    p = e["player"]
    if p == who.seat:
        return [_("Time is up: you acted least recently and lose the fight.")]
    return [_("Time is up: {name} acted least recently and loses the fight.").format(name=who(p))]


def _eliminated(e: JSON, who: Namer, view: JSON) -> list[str]:
    p = e["player"]
    if p == who.seat:
        return [_("You are out of the tie-break.")]
    return [_("{name} is out of the tie-break.").format(name=who(p))]


CLOCK_FROM = 3
"""A fight's result says the bruises left when this many or fewer are (the round nears its end)."""


def _fight_over(e: JSON, who: Namer, view: JSON) -> list[str]:
    loser = e["loser"]
    if e.get("bruise"):
        # The fight was named when it began: the loser, and the bruises left (the round's clock)
        # once the last few are being given; before that the board (V) says them.
        left = e.get("bruises_left", 0)
        if left > CLOCK_FROM or left == 0:  # at 0 the round's end follows at once
            return [_("You lose.")] if loser == who.seat else [_("{name} loses.").format(name=who(loser))]
        if loser == who.seat:
            return [
                ngettext("You lose; {n} bruise left.", "You lose; {n} bruises left.", left).format(n=left)
            ]
        return [
            ngettext("{name} loses; {n} bruise left.", "{name} loses; {n} bruises left.", left).format(
                name=who(loser), n=left
            )
        ]
    winner = e.get("winner")
    if winner is None:
        return []
    if e.get("tiebreak") == "badge":  # the badge duel is for the game, not a tie-break
        if winner == who.seat:
            return [_("You win the badge duel!")]
        return [_("{name} wins the badge duel.").format(name=who(winner))]
    if winner == who.seat:
        return [_("You win the tie-break!")]
    return [_("{name} wins the tie-break.").format(name=who(winner))]


# ---- round and game ---------------------------------------------------------------------------


def _round_over(e: JSON, who: Namer, view: JSON) -> list[str]:
    if e["reason"] == "bruises":
        # The last fights said the bruises left ("1 bruise left"): the end alone, then the scores.
        line = _("Round {round} is over.").format(round=e["round"])
    elif e["reason"] == "idle":
        line = _("Round {round} is over: no card moved for too long.").format(round=e["round"])
    else:
        line = _("Round {round} is over: no battle set can be made any more.").format(round=e["round"])
    # A tie for the round is said by the tie-break fight that starts at once ("Tie-break Duel
    # for the round: Marco and Chloé."): one fact once.
    return [line, scores_line(e["scores"], who)]


def _round_won(e: JSON, who: Namer, view: JSON) -> list[str]:
    p = e["player"]
    if e["round"] == 1:
        # Round 1's winner takes the badge (the `badge` event follows at once): one line for
        # both, one utterance less where a listener has the most to hear.
        if p == who.seat:
            return [_("You win round {round} and take the badge!").format(round=e["round"])]
        return [_("{name} wins round {round} and takes the badge.").format(name=who(p), round=e["round"])]
    if p == who.seat:
        return [_("You win round {round}!").format(round=e["round"])]
    return [_("{name} wins round {round}.").format(name=who(p), round=e["round"])]


def _badge(e: JSON, who: Namer, view: JSON) -> list[str]:
    return []  # said with round 1's winner (`_round_won`)


def _game_over(e: JSON, who: Namer, view: JSON) -> list[str]:
    p = e["winner"]
    if p == who.seat:
        return [_("Game over: you win the game!")]
    return [_("Game over: {name} wins the game.").format(name=who(p))]


_HANDLERS: dict[str, Narrator] = {
    "round_start": _round_start,
    "hand": _hand,
    "countdown": _countdown,
    "draw": _draw,
    "discard": _discard,
    "set": _set,
    "call": _call,
    "mistake": _mistake,
    "fight_start": _fight_start,
    "duel_beat": _duel_beat,
    "grab": _grab,
    "behind_back": _behind_back,
    "throw": _throw,
    "dodge": _dodge,
    "catch": _catch,
    "fumble": _fumble,
    "hit": _hit,
    "miss": _miss,
    "fight_tie": _fight_tie,
    "false_start": _false_start,
    "stalling": _stalling,
    "eliminated": _eliminated,
    "fight_over": _fight_over,
    "round_over": _round_over,
    "round_won": _round_won,
    "badge": _badge,
    "game_over": _game_over,
}

ANSWERS_FIRST = True
"""A batch's lines that need an answer are said before its lines about the past: a burrito's
catch window is 300 ms long (issue 21; `speech.answers_first`). Exploding Kittens keeps the order
things happened in: its answers have seconds, and "Your turn." follows what made it yours."""

SPEAKS_OF: dict[str, tuple[str, ...]] = {
    "round_start": (),
    "hand": (),  # the cards are in the knower's own form of it, a form no other seat hears
    "countdown": (),
    "draw": ("player",),
    "discard": ("player", "to"),
    "set": ("player",),
    "call": ("player", "targets"),
    "mistake": ("player",),
    "fight_start": ("fighters",),
    "duel_beat": ("fighters",),
    "grab": ("player",),
    "behind_back": ("player",),  # the view's clock it reads is everyone's
    "throw": ("thrower", "target"),  # the view's fight is read for those two only
    "dodge": ("player",),
    "catch": ("player", "thrower"),
    "fumble": ("player",),
    "hit": ("player", "thrower"),
    "miss": ("thrower", "target"),
    "fight_tie": ("players",),
    "false_start": ("player",),
    "stalling": ("player",),
    "eliminated": ("player",),
    "fight_over": ("loser", "winner"),
    "round_won": ("player",),
    "badge": ("player",),
    "game_over": ("winner",),
}
"""For each kind of event whose lines are the same for every seat it does not name: the fields
that name seats (a seat, or a list of them). Its handler reads the listener's seat only to
compare it with these fields or to name them, and reads no part of the view that differs
between seats; a seat not among them hears what any other such seat hears (`Narrator.lines`
says those lines once per batch and language). A kind left out (a round's end names every
seat in its scores) is said seat by seat."""


# ---- what each line is worth to its listener (cardroom.narrate.speech) ---------------------------

_MILESTONES = frozenset(
    {
        "round_start",
        "countdown",
        "mistake",
        "fight_tie",
        "false_start",
        "stalling",
        "eliminated",
        "fight_over",
        "round_over",
        "round_won",
        "badge",
        "game_over",
    }
)


def _fighting(seat: int | None, view: JSON) -> bool:
    fight: JSON = view.get("fight") or {}
    return seat is not None and seat in fight.get("fighters", ())


def priority(event: JSON, seat: int | None, view: JSON) -> Priority:
    """How much `event`'s lines matter to `seat` (see `cardroom.narrate.speech`)."""
    kind = event.get("event")
    if seat is not None:
        if kind == "throw" and event.get("target") == seat:
            return Priority.ANSWER
        if kind == "fight_start" and seat in event.get("fighters", ()):
            return Priority.ANSWER
        if kind == "duel_beat" and seat in event.get("fighters", ()):
            # "BURRITO! Throw!" is the moment to act; the beats before it are sounds on the page
            # (through Orca a said "3" overtook "Duel: you against Marco.", docs/speech.md).
            return Priority.ANSWER if event.get("beat") == "burrito" else Priority.BACKGROUND
    if kind in ("round_over", "game_over") and seat is not None:
        # A round's end is every player's news: a page under load dropped "Round 1 is over." as
        # a milestone gone stale (static/ui.js keeps priority 1 longer, docs/speech.md).
        return Priority.YOU
    if (
        kind == "countdown"
        and event.get("beat") != "burrito"
        and (event.get("caller") is not None or seat is not None)
    ):
        # After a fight its result was just said; "Burrito!" says when play resumes. At a
        # round's start a player has the round's end and their new hand to hear, and each beat
        # has its sound on the page: through Orca "3", "2", "1" pushed the round's first fight
        # back (docs/speech.md, "Heard through Orca"). A spectator hears them said.
        return Priority.BACKGROUND
    if kind in ("call", "duel_beat") and not concerns(event, seat):
        return Priority.BACKGROUND  # the fight_start names the fighters; the result is said
    if kind in _MILESTONES or kind == "fight_start":
        return Priority.YOU if concerns(event, seat) and kind != "countdown" else Priority.MILESTONE
    if kind == "hand" or (kind == "discard" and event.get("player") == seat):
        return Priority.YOU
    if kind == "discard":
        return Priority.BACKGROUND  # a pass to you is in the summary, and in your hand
    if concerns(event, seat):
        return Priority.YOU
    if kind == "behind_back" and _fighting(seat, view):
        # A burrito about to fly, maybe at you: in a brawl, who winds up is news. In a fight of
        # two it can only come at you, and "Incoming!" says so 0.7 s later: through Orca the
        # wind-up, said first, held "Incoming!" and "Catch!" past the catch window
        # (docs/speech.md, "Heard through Orca"). Verbose still says it.
        return Priority.BACKGROUND if _pair_fight(view) else Priority.YOU
    return Priority.BACKGROUND


CLOSES_DIGEST = frozenset({"round_over"})
"""The events that end what a background summary could still tell: a round's end says its
scores, and the passes and sets of a round over are news no more. Without it the summary due
60 s after the last came a few seconds into the next round, 3 s of speech just before its first
fight (Orca said "Brawl: you against Marco." 4.4 s late, docs/speech.md)."""


def holds_summary(seat: int | None, view: JSON | None) -> bool:
    """Whether a summary due now waits (`Narrator.holds_summary`): while `seat` fights, and
    while a countdown runs to its "Burrito!". "Meanwhile: 45 passes to you; Marco scored 2
    sets." (3 s), due as the listener threw in a duel, held the "Incoming!" that came 0.3 s
    later 3.3 s behind it in Orca, past its flight (docs/speech.md, "Heard through Orca").
    Spectators' summaries are not held: nothing asks them to answer."""
    if seat is None or view is None:
        return False
    fight = view.get("fight")
    return view.get("phase") == "countdown" or (fight is not None and seat in fight.get("fighters", ()))


def fold(event: JSON, seat: int | None) -> Fold | None:
    """What a background `event` adds to a summary (`summary`)."""
    kind = event.get("event")
    # Others' draws are left out: everybody draws all the time, and the count changes nothing
    # for the listener (Exploding Kittens' summary counts them: there a draw ends a turn).
    if kind == "discard" and event["to"] == seat:
        return ("passed", event["player"], True)
    if kind == "set":
        return ("set", event["player"])
    return None


def summary(counts: Counter[Fold], seat: int | None, names: Sequence[str]) -> str:
    """ "Meanwhile: 3 passes to you; Hugo scored 1 set." for the background folded (draws,
    passes between others and throws in others' fights are left out)."""
    who = Namer(names, seat)
    parts: list[str] = []
    _from, to_you = tally(counts, "passed")
    if to_you:
        parts.append(ngettext("{n} pass to you", "{n} passes to you", to_you).format(n=to_you))
    setters, sets = tally(counts, "set")
    if sets:
        parts.append(
            ngettext("{players} scored {n} set", "{players} scored {n} sets", sets).format(
                players=who.list(setters), n=sets
            )
        )
    return meanwhile(parts)
