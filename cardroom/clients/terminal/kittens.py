"""Exploding Kittens in the terminal, with the keyboard of 003, one plain line per event.

The hand is a list with a cursor (up/down reads "3 of 7: Attack"). Enter plays the card under
the cursor, or the cards marked with space as a combo. What a play still needs is asked in a
short prompt: a player (seat number, or up/down then Enter), a card to name or to take from
the discard pile (up/down then Enter). Escape cancels. The modes the table imposes (defusing,
giving a card, reordering the top, putting a card back) come from the view, never from a
guess, so the UI cannot drift from the table.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from cardroom.clients.terminal.keys import action_of, canonical, help_lines
from cardroom.clients.terminal.ui import Ask, Say, seat_list, seat_typed
from cardroom.games.kittens.actions import DRAW, NOPE, PASS, AlwaysPass, Defuse, Give, Insert, Play, Reorder
from cardroom.games.kittens.cards import CARDS, DEFUSE, TARGETED
from cardroom.games.kittens.combos import classify
from cardroom.help.keys import key_label
from cardroom.i18n import _, ngettext, pgettext
from cardroom.narrate import kittens as tell
from cardroom.narrate._common import N_, Namer, plural_n, seconds
from cardroom.narrate.kittens import at_depth, card_name, numbered
from cardroom.protocol import JSON, Rejected

PROMPTS: tuple[tuple[str, str], ...] = (
    ("up/down", N_("move in your hand; each move reads the card")),
    ("Escape", N_("cancel a prompt, or clear the marks")),
    (
        N_("a player"),
        N_("when asked for a player: press their seat number, or up/down then Enter"),
    ),
    (N_("a card"), N_("when asked to name or take a card: up/down then Enter")),
    (
        N_("defuse"),
        N_("after DEFUSE NOW!: how many cards lie above it (0: on top), then Enter; b bottom, r random"),
    ),
    (N_("give"), N_("when asked for a card: up/down to choose it, Enter gives it")),
    (
        N_("reorder"),
        N_("Alter the Future: up/down move the cursor, shift+up/down move the card, Enter confirms"),
    ),
)
"""How the terminal's prompts answer, after the keys of the table (`cardroom.help.keys`)."""

WARN_BEFORE_MS = {"defusing": (5000, 2000), "turn": (10000,), "choosing": (5000,)}


def key_help() -> list[str]:
    """The keys, for `?` and for `cardroom play kittens --help`: the table the page reads too,
    then how the prompts answer."""
    return help_lines("kittens") + [_("{key}: {what}").format(key=_(k), what=_(what)) for k, what in PROMPTS]


class _Pick:
    """A prompt choosing one of `options` (seats or cards) with up/down then Enter."""

    def __init__(self, what: str, options: list[Any]) -> None:
        self.what = what  # "target", "name" or "take"
        self.options = options
        self.index = 0


class KittensUI:
    """The person at `seat`: keys to actions, events to lines."""

    def __init__(self, seat: int, names: Sequence[str], players: int, start: JSON) -> None:
        self.seat = seat
        self.names = list(names)
        self.players = players
        self.start = start
        self.who = Namer(names, seat)
        self.cursor = 0
        self.marked: list[int] = []
        self._hand: tuple[str, ...] = tuple(start.get("hand", ()))
        self._staged: Play | None = None  # a play waiting for its target / name / take
        self._pick: _Pick | None = None
        self._digits = ""
        self._order: list[int] = []  # reorder: indexes into the cards seen, new top first
        self._order_for: tuple[str, ...] = ()
        self._at = 0  # reorder: the cursor among the cards seen
        self._warned: set[tuple[int, int]] = set()
        # Issue 24: a choice of a card to give starts on no card (a quick Enter gave a Defuse
        # away), and a Defuse is given only with G after the question.
        self._none = False
        self._sure = False

    # ---- the GameUI protocol ------------------------------------------------------------------

    def welcome(self) -> str:
        seats = seat_list(self.who, range(self.players))
        lines = [
            _("Exploding Kittens. Seats: {seats}. Press ? for the keys.").format(seats=seats),
            self._hand_line(self.start),
            tell.whose_turn(self.start, self.seat, self.names),
        ]
        return "\n".join(lines)

    def help(self) -> list[str]:
        return key_help()

    def on_key(self, key: str, view: JSON, now: int) -> Any | Say | Ask | None:
        self._sync(view)
        for handler in (self._mode_key, self._prompt_key):
            result = handler(key, view)
            if result is not _PASS:
                return result
        return self._normal_key(key, view)

    def narrate(self, event: JSON, view: JSON, now: int) -> list[str]:
        lines = tell.narrate(event, self.seat, self.names, view)
        kind = event.get("event")
        me = self.seat
        hold_nope = "nope" in view.get("hand", ())
        if kind == "played" and event["player"] != me and hold_nope and view.get("phase") == "nope_window":
            lines[-1] += " " + _("Nope? Press n.")
        elif kind == "noped" and event["player"] != me and hold_nope and view.get("phase") == "nope_window":
            lines[-1] += " " + _("Nope again? Press n.")
        elif kind == "defusing" and event["player"] == me:
            lines.append(
                self._defuse_hint(view) if DEFUSE in view.get("hand", ()) else _("You have no Defuse.")
            )
        elif kind == "choosing" and event["player"] == me:
            lines.extend(self._choosing_hint(event, view))
        elif kind == "turn" and event["player"] == me:
            self._cancel()
        self._sync(view)
        return lines

    def refused(self, rejection: Rejected) -> str:
        return tell.refusal(rejection)

    def bar(self, view: JSON) -> str:
        deck = view["deck_size"]
        return " ".join(
            (
                self._hand_line(view),
                tell.whose_turn(view, self.seat, self.names),
                ngettext("Deck: {n} card.", "Deck: {n} cards.", deck).format(n=deck),
            )
        )

    def status(self, view: JSON) -> list[str]:
        lines = [tell.whose_turn(view, self.seat, self.names), tell.counts(view, self.seat, self.names)]
        window = view.get("window")
        if window is not None:
            if window["player"] == self.seat:
                waiting = ngettext(
                    "Waiting for Nopes: your {cards} ({n} Nope so far).",
                    "Waiting for Nopes: your {cards} ({n} Nopes so far).",
                    window["nopes"],
                )
            else:
                waiting = ngettext(
                    "Waiting for Nopes: {name}'s {cards} ({n} Nope so far).",
                    "Waiting for Nopes: {name}'s {cards} ({n} Nopes so far).",
                    window["nopes"],
                )
            lines.append(
                waiting.format(
                    name=self.who(window["player"]), cards=tell.card_list(window["cards"]), n=window["nopes"]
                )
            )
        if view.get("discard"):
            lines.append(_("Top of the discard pile: {card}.").format(card=card_name(view["discard"][0])))
        return lines

    def wakeups(self, view: JSON) -> list[int]:
        return [at for at, key in self._warnings(view) if key not in self._warned]

    def tick(self, view: JSON, now: int) -> list[str]:
        lines = []
        for at, key in self._warnings(view):
            if at <= now and key not in self._warned:
                self._warned.add(key)
                left = max(0, view["deadline"] - now)
                secs, n = seconds(left), plural_n(left)
                if view["phase"] == "defusing":
                    line = ngettext("{s} second left to defuse!", "{s} seconds left to defuse!", n)
                elif view["phase"] == "choosing":
                    line = ngettext("{s} second left to choose.", "{s} seconds left to choose.", n)
                else:
                    line = ngettext(
                        "{s} second left in your turn; then you draw.",
                        "{s} seconds left in your turn; then you draw.",
                        n,
                    )
                lines.append(line.format(s=secs))
        return lines

    # ---- modes the table imposes --------------------------------------------------------------

    def _mode_key(self, key: str, view: JSON) -> Any:
        me = self.seat
        if view["phase"] == "defusing" and view["turn"] == me:
            return self._position_key(key, view, defuse=True)
        choosing = view.get("choosing")
        if view["phase"] == "choosing" and choosing is not None and choosing["player"] == me:
            if choosing["kind"] == "insert":
                return self._position_key(key, view, defuse=False)
            if choosing["kind"] == "give":
                return self._give_key(key, view)
            if choosing["kind"] == "reorder":
                return self._reorder_key(key, choosing.get("cards", []))
        return _PASS

    def _give_key(self, key: str, view: JSON) -> Any:
        """Asked for a card (Favor, a pair): from no card, the arrows choose; a Defuse asks first."""
        hand = view["hand"]
        action = action_of("kittens", key)
        sure, self._sure = self._sure, False
        if not hand:
            return _PASS
        firsts = {
            "down": 0,
            "cursor_next": 0,
            "cursor_first": 0,
            "up": -1,
            "cursor_prev": -1,
            "cursor_last": -1,
        }
        if self._none and (key in firsts or action in firsts):
            self._none = False
            self.cursor = firsts[key if key in firsts else str(action)] % len(hand)
            return Say(self._cursor_line(view))
        if self._none and action in ("give", "play", "play_enter", "describe"):
            return Say(_("No card is chosen yet: up/down to choose one, then Enter gives it."))
        if action in ("give", "play", "play_enter"):
            card = hand[min(self.cursor, len(hand) - 1)]
            if card == DEFUSE and not (sure and action == "give"):
                self._sure = True
                return Say(_("Give away your Defuse? Press G to give it; any other key keeps it."))
            return Give(card)
        return _PASS

    def _position_key(self, key: str, view: JSON, defuse: bool) -> Any:
        size = view["deck_size"]
        make = Defuse if defuse else Insert
        if defuse and DEFUSE not in view["hand"] and key in ("b", "r", "enter"):
            return Say(_("You have no Defuse: the kitten will explode."))
        if key == "b":
            return make(size)
        if key == "r":
            return make(random.randint(0, size))
        if len(key) == 1 and key.isdigit():
            self._digits += key
            return Say(self._digits)
        if key == "backspace":
            self._digits = self._digits[:-1]
            return Say(self._digits or pgettext("typed number", "empty"))
        if key == "enter":
            if not self._digits:
                return Say(_("Type how many cards lie above it (0 to {size}), then Enter.").format(size=size))
            pos, self._digits = int(self._digits), ""
            return make(pos)
        return _PASS

    def _reorder_key(self, key: str, cards: list[str]) -> Any:
        if tuple(cards) != self._order_for:
            self._start_reorder(cards)
        order, n = self._order, len(self._order)
        if not n:
            return _PASS
        i = self._at
        action = action_of("kittens", key)
        if key in ("up", "down"):
            self._at = max(0, min(n - 1, i + (-1 if key == "up" else 1)))
            return Say(self._reorder_line(cards))
        if action in ("move_up", "move_down"):
            j = i - 1 if action == "move_up" else i + 1
            if not 0 <= j < n:
                return Say(_("It is already at the top.") if j < 0 else _("It is already at the bottom."))
            order[i], order[j] = order[j], order[i]
            self._at = j
            return Say(self._reorder_line(cards))
        if action in ("play", "play_enter"):
            return Reorder(tuple(order))
        if action == "describe":
            return Say(tell.describe(cards[order[i]]))
        return _PASS

    def _start_reorder(self, cards: list[str]) -> None:
        self._order_for = tuple(cards)
        self._order = list(range(len(cards)))
        self._at = 0

    def _reorder_line(self, cards: list[str]) -> str:
        i = self._at
        return _("{i} of {n}: {card}").format(
            i=i + 1, n=len(self._order), card=card_name(cards[self._order[i]])
        )

    def _choosing_hint(self, event: JSON, view: JSON) -> list[str]:
        kind = event["kind"]
        if kind == "give":
            self.cursor, self._none, self._sure = 0, True, False
            return [_("No card is chosen yet: up/down to choose one, then Enter gives it.")]
        if kind == "reorder":
            cards = event.get("cards", [])
            self._start_reorder(cards)
            return [
                _("Top first: {cards}.").format(cards=numbered(cards)),
                _("up/down move the cursor, shift+up/down move the card, Enter confirms."),
            ]
        return [_("How many cards lie above it (0: on top), then Enter; b bottom, r random.")]

    # ---- prompts for a play ---------------------------------------------------------------------

    def _prompt_key(self, key: str, view: JSON) -> Any:
        pick = self._pick
        if pick is None:
            return _PASS
        if key == "escape":
            self._cancel()
            return Say(_("Cancelled."))
        if key in ("up", "down"):
            step = -1 if key == "up" else 1
            pick.index = (pick.index + step) % len(pick.options)
            return Say(self._option_line(pick, view))
        if key == "enter":
            return self._picked(pick.options[pick.index], view)
        if pick.what == "target" and len(key) == 1 and key.isdigit():
            seat = seat_typed(int(key))
            if seat not in pick.options:
                return Say(
                    _("Seat {seat} cannot be chosen: {seats}.").format(
                        seat=key, seats=self._seats(pick.options)
                    )
                )
            return self._picked(seat, view)
        action = action_of("kittens", key)
        if pick.what != "target" and action == "describe":
            return Say(tell.describe(pick.options[pick.index]))
        if action in ("turn", "counts", "read_hand", "future", "status", "nope", "no_nope"):
            return _PASS
        return Say(self._pick_question(pick))

    def _picked(self, choice: Any, view: JSON) -> Any:
        staged, pick = self._staged, self._pick
        assert staged is not None and pick is not None
        if pick.what == "target":
            staged = Play(staged.cards, target=choice)
        elif pick.what == "name":
            staged = Play(staged.cards, target=staged.target, name=choice)
        else:
            staged = Play(staged.cards, take=choice)
        combo = classify(staged.cards) if len(staged.cards) > 1 else None
        if combo == "triple" and staged.name is None:
            self._staged = staged
            names = [c for c in CARDS if c != "exploding_kitten"]
            self._pick = _Pick("name", names)
            self._pick.index = names.index(DEFUSE)
            return Say(self._pick_question(self._pick) + " " + self._option_line(self._pick, view))
        self._cancel()
        return staged

    def _pick_question(self, pick: _Pick) -> str:
        if pick.what == "target":
            return _("Whom? Press a seat number: {seats}; or up/down then Enter. Escape cancels.").format(
                seats=self._seats(pick.options)
            )
        if pick.what == "name":
            return _("Which card do you ask for? up/down then Enter. Escape cancels.")
        return _("Which card do you take from the discard pile? up/down then Enter. Escape cancels.")

    def _option_line(self, pick: _Pick, view: JSON) -> str:
        choice = pick.options[pick.index]
        if pick.what == "target":
            n = view["hand_sizes"][choice]
            return ngettext("{seat} {name}, {n} card", "{seat} {name}, {n} cards", n).format(
                seat=choice + 1, name=self.who(choice), n=n
            )
        return _("{i} of {n}: {card}").format(i=pick.index + 1, n=len(pick.options), card=card_name(choice))

    def _seats(self, seats: Sequence[int]) -> str:
        return seat_list(self.who, seats)

    # ---- the hand ---------------------------------------------------------------------------------

    def _normal_key(self, key: str, view: JSON) -> Any | Say | None:
        hand = view["hand"]
        action = action_of("kittens", key)
        moves = {"up": -1, "down": 1, "cursor_prev": -1, "cursor_next": 1}
        if key in moves or action in moves or action in ("cursor_first", "cursor_last"):
            if not hand:
                return Say(_("Your hand is empty."))
            if action in ("cursor_first", "cursor_last"):
                self.cursor = 0 if action == "cursor_first" else len(hand) - 1
            else:
                self.cursor = max(0, min(len(hand) - 1, self.cursor + moves[action or key]))
            return Say(self._cursor_line(view))
        if action == "select":
            return self._mark(view)
        if action in ("play", "play_enter"):
            return self._play(view)
        if action == "nope":
            return NOPE
        if action == "no_nope":
            return PASS
        if action == "always_no_nope":
            return AlwaysPass(self.seat not in view.get("always_pass", ()))
        if action == "draw":
            return DRAW
        if action == "defuse":
            return Say(self._defuse_hint(view))
        if action == "give":
            return Give(hand[self.cursor]) if hand else Say(_("You have no card to give."))
        if action == "describe":
            if not hand:
                return Say(_("Your hand is empty."))
            return Say(tell.describe(hand[self.cursor]))
        if action == "turn":
            return Say(tell.whose_turn(view, self.seat, self.names))
        if action == "counts":
            return Say(tell.counts(view, self.seat, self.names))
        if action == "read_hand":
            return Say(self._hand_line(view))
        if action == "future":
            return Say(self._future_line(view))
        if action == "status":
            return Say("\n".join(self.status(view)))
        if action == "recap":
            return Ask("recap")
        if action in ("move_up", "move_down"):
            return Say(_("Nothing to reorder now."))
        if key == "escape":
            if self.marked:
                self.marked = []
                return Say(_("Marks cleared."))
            return None
        return Say(
            _("The key {key} does nothing here: press ? for the keys.").format(key=key_label(canonical(key)))
        )

    def _defuse_hint(self, view: JSON) -> str:
        """F: the defuse itself is its position (typed, or b, r), as the page's F opens its choice."""
        if not (view["phase"] == "defusing" and view["turn"] == self.seat):
            return _("There is no kitten to defuse.")
        if DEFUSE not in view["hand"]:
            return _("You have no Defuse: the kitten will explode.")
        return _(
            "Where does the kitten go back? How many cards lie above it (0: on top), then Enter; b bottom, r random."
        )

    def _cursor_line(self, view: JSON) -> str:
        hand = view["hand"]
        if not hand:
            return _("Your hand is empty.")
        i = self.cursor
        card = card_name(hand[i])
        if i in self.marked:
            return _("{i} of {n}: {card}, marked").format(i=i + 1, n=len(hand), card=card)
        return _("{i} of {n}: {card}").format(i=i + 1, n=len(hand), card=card)

    def _hand_line(self, view: JSON) -> str:
        hand = view.get("hand", [])
        if not hand:
            return _("Your hand is empty.")
        items = []
        for i, c in enumerate(hand):
            if i in self.marked:
                items.append(_("{n} {card} (marked)").format(n=i + 1, card=card_name(c)))
            else:
                items.append(_("{n} {card}").format(n=i + 1, card=card_name(c)))
        return ngettext("Your hand, {n} card: {cards}.", "Your hand, {n} cards: {cards}.", len(hand)).format(
            n=len(hand), cards=_(", ").join(items)
        )

    def _future_line(self, view: JSON) -> str:
        future = view.get("future") or []
        lines = []
        if future:
            lines.append(
                _("The top of the deck as you know it, top first: {cards}.").format(cards=numbered(future))
            )
        else:
            lines.append(_("You know nothing of the deck's order now."))
        at = view.get("kitten_at")
        if at is not None:
            lines.append(
                at_depth(
                    at,
                    view,
                    _("The kitten you put back is on top."),
                    _("The kitten you put back is second from the top."),
                    _("The kitten you put back is at the bottom."),
                    lambda n: ngettext(
                        "The kitten you put back is {n} card down.",
                        "The kitten you put back is {n} cards down.",
                        n,
                    ).format(n=n),
                )
            )
        return " ".join(lines)

    def _mark(self, view: JSON) -> Say:
        hand = view["hand"]
        if not hand:
            return Say(_("Your hand is empty."))
        i = self.cursor
        if i in self.marked:
            self.marked.remove(i)
        else:
            self.marked.append(i)
        cards = tuple(hand[j] for j in self.marked)
        combo = classify(cards) if len(cards) > 1 else None
        what = {
            "pair": _("a pair"),
            "triple": _("a triple"),
            "five": _("five different cards"),
        }.get(combo or "", _("no combo yet"))
        if i in self.marked:
            return Say(
                ngettext(
                    "Marked {card}: {n} card marked, {what}.",
                    "Marked {card}: {n} cards marked, {what}.",
                    len(cards),
                ).format(card=card_name(hand[i]), n=len(cards), what=what)
            )
        return Say(
            ngettext(
                "Unmarked {card}: {n} card marked, {what}.",
                "Unmarked {card}: {n} cards marked, {what}.",
                len(cards),
            ).format(card=card_name(hand[i]), n=len(cards), what=what)
        )

    def _play(self, view: JSON) -> Any | Say | None:
        hand = view["hand"]
        if not hand:
            return Say(_("Your hand is empty."))
        cards = tuple(hand[j] for j in sorted(self.marked)) if self.marked else (hand[self.cursor],)
        others = [p for p in range(view["players"]) if p != self.seat and view["alive"][p]]
        if len(cards) == 1:
            if cards[0] in TARGETED:
                return self._ask_target(Play(cards), others, view)
            return Play(cards)
        combo = classify(cards)
        if combo is None:
            return Say(_("These cards make no combo: a pair, a triple or five different cards."))
        if combo == "five":
            discard = list(dict.fromkeys(view.get("discard", [])))
            if not discard:
                return Say(_("The discard pile is empty: there is nothing to take."))
            self._staged = Play(cards)
            self._pick = _Pick("take", discard)
            return Say(self._pick_question(self._pick) + " " + self._option_line(self._pick, view))
        return self._ask_target(Play(cards), others, view)

    def _ask_target(self, play: Play, others: list[int], view: JSON) -> Any:
        self._staged = play
        self._pick = _Pick("target", others)
        if len(others) == 1:
            return self._picked(others[0], view)
        return Say(self._pick_question(self._pick))

    # ---- keeping up with the table -------------------------------------------------------------

    def _sync(self, view: JSON) -> None:
        """The hand changed: keep the cursor on it and drop marks that may point elsewhere."""
        hand = tuple(view.get("hand", ()))
        if hand != self._hand:
            self._hand = hand
            self.marked = []
        if self.cursor >= len(hand):
            self.cursor = max(0, len(hand) - 1)

    def _cancel(self) -> None:
        self._staged, self._pick, self._digits = None, None, ""

    def _warnings(self, view: JSON) -> list[tuple[int, tuple[int, int]]]:
        phase, deadline = view.get("phase"), view.get("deadline")
        if deadline is None or phase not in WARN_BEFORE_MS:
            return []
        mine = view["turn"] == self.seat
        if phase == "choosing":
            choosing = view.get("choosing") or {}
            mine = choosing.get("player") == self.seat
        if not mine or (phase == "defusing" and DEFUSE not in view.get("hand", ())):
            return []  # no warning counts down to what nobody can prevent
        return [
            (deadline - ms, (deadline, ms)) for ms in WARN_BEFORE_MS[phase] if deadline - ms > view["now"]
        ]


_PASS: Any = object()
"""A mode or prompt leaves the key to the next handler."""


def make_ui(seat: int, names: Sequence[str], table: Any) -> KittensUI:
    """The terminal UI of the person at `seat`; the table is read once, at the start."""
    return KittensUI(seat, names, table.players, table.view(seat))


__all__ = ["KittensUI", "key_help", "make_ui"]
