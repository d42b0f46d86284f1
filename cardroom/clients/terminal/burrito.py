"""Throw Throw Burrito in the terminal: single keys in, one plain line per event out.

Every key works at any moment (the game has no turns); what each key does comes from the keys
table the web page reads too (`cardroom.help.keys`). The hand has a cursor, as on the page.
A few keys open a short prompt for a seat number (shift+T throw at a chosen fighter, a Duel's
call); Escape cancels it. Seats are numbered from 1, as the lobby numbers them.
The table is read only at the start (names, options); during play the UI sees the view and the
events the session passes in.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from cardroom.clients.terminal.keys import action_of, canonical, help_lines, label
from cardroom.clients.terminal.ui import Ask, Say, seat_list, seat_typed
from cardroom.games.burrito.actions import Call, Catch, Discard, Dodge, Draw, Grab, Set, Throw
from cardroom.games.burrito.cards import BATTLE, FIGHT_OF, NORMAL, SET_SIZE
from cardroom.help.keys import key_label
from cardroom.i18n import _, ngettext
from cardroom.narrate import burrito as tell
from cardroom.narrate._common import N_, Namer
from cardroom.narrate.burrito import card_name, fight_name, hand_line
from cardroom.protocol import JSON, Rejected

PROMPTS: tuple[tuple[str, str], ...] = (
    ("up/down", N_("move in your hand; each move reads the card")),
    ("Escape", N_("cancel a seat prompt")),
)
"""The terminal's own keys, after those of the table (`cardroom.help.keys`)."""


FIGHT_KEYS: dict[str, str] = {
    # Translators: the fight keys' line, "Keys: G grab, T throw, X dodge, Space catch."
    "grab": N_("grab"),
    "throw": N_("throw"),
    "dodge": N_("dodge"),
    "catch": N_("catch"),
}
"""The fight's keys in the order the hint line always gives them (`BurritoUI.fight_keys`)."""


def key_help() -> list[str]:
    """The keys, for `?` and for `cardroom play burrito --help`: the table the page reads too."""
    return help_lines("burrito") + [_("{key}: {what}").format(key=k, what=_(what)) for k, what in PROMPTS]


class BurritoUI:
    """The person at `seat`: keys to actions, events to lines."""

    def __init__(self, seat: int, names: Sequence[str], players: int, options: JSON) -> None:
        self.seat = seat
        self.names = list(names)
        self.players = players
        self.options = options
        self.who = Namer(names, seat)
        self.quiet = False
        self._prompt: str | None = None  # "throw" or "duel"
        self._digits = ""
        self._chosen: list[int] = []
        self._announced: set[int] = set()  # flights whose catch window was announced
        self.cursor = 0  # in the hand, as on the page
        self._last_thrower: int | None = None  # who last threw at this seat in this fight

    # ---- the GameUI protocol ------------------------------------------------------------------

    def welcome(self) -> str:
        seats = seat_list(self.who, range(self.players))
        return _("Throw Throw Burrito. Seats: {seats}. Press ? for the keys.").format(seats=seats)

    def help(self) -> list[str]:
        lines = key_help()
        lines.append(_("Seat numbers: {seats}.").format(seats=self._seat_list(range(self.players))))
        return lines

    def on_key(self, key: str, view: JSON, now: int) -> Any | Say | Ask | None:
        if self._prompt is not None:
            return self._prompt_key(key, view)
        hand = view.get("hand", [])
        self.cursor = max(0, min(self.cursor, len(hand) - 1))
        if key in ("up", "down"):
            return self._move(-1 if key == "up" else 1, None, hand)
        action = action_of("burrito", key)
        slot = action[len("pass_") :] if action and action.startswith("pass_") else ""
        if slot.isdigit():
            return self._discard(int(slot), view)
        if action == "draw":
            return Draw()
        if action in ("draw_community", "draw_community_2"):
            return Draw("community", 0 if action == "draw_community" else 1)
        if action in ("cursor_prev", "cursor_next"):
            return self._move(-1 if action == "cursor_prev" else 1, None, hand)
        if action in ("cursor_first", "cursor_last"):
            return self._move(0, 0 if action == "cursor_first" else len(hand) - 1, hand)
        if action == "pass":
            return Discard(hand[self.cursor]) if hand else Say(_("Your hand is empty."))
        if action == "set":
            return self._set(view)
        if action == "call":
            return self._call(view)
        if action == "describe":
            return (
                Say(tell.describe(hand[self.cursor], self.players)) if hand else Say(_("Your hand is empty."))
            )
        if action == "grab":
            return Grab()
        if action == "throw":
            return self._throw(view)
        if action == "throw_at":
            return self._throw_at(view)
        if action == "dodge":
            return Dodge()
        if action == "catch":
            return Catch()
        if action == "read_hand":
            return Say(hand_line(hand))
        if action == "status":
            return Say("\n".join(self.status(view)))
        if action == "recap":
            return Ask("recap")
        if action == "quiet":
            self.quiet = not self.quiet
            if self.quiet:
                return Say(_("Quieter: other players' draws and passes are no longer told."))
            return Say(_("Every draw and pass is told again."))
        if key in ("escape", "enter"):
            return None
        return Say(
            _("The key {key} does nothing here: press ? for the keys.").format(key=key_label(canonical(key)))
        )

    def narrate(self, event: JSON, view: JSON, now: int) -> list[str]:
        kind = event.get("event")
        if (
            self.quiet
            and kind in ("draw", "discard")
            and self.seat not in (event.get("player"), event.get("to"))
        ):
            return []
        lines = tell.narrate(event, self.seat, self.names, view)
        if kind == "throw" and event.get("target") == self.seat:
            self._last_thrower = event.get("thrower")
        if kind == "fight_start" and self.seat in event.get("fighters", ()) and view.get("fight"):
            lines.append(self.fight_keys(view["fight"], now))
        if kind in ("fight_over", "round_start", "game_over"):
            self._cancel_prompt()
            self._last_thrower = None
        return lines

    def refused(self, rejection: Rejected) -> str:
        return tell.refusal(rejection)

    def fight_keys(self, fight: JSON, now: int) -> str:
        """Every fight key in one line, always the same keys in the same order, those that do
        nothing at `now` marked "(not now)": the page's fight buttons, which never move
        (issue 21), as a line."""
        go = fight.get("go_at") is None or now >= fight["go_at"]
        holding = bool(fight["holding"][self.seat])
        incoming = [
            fl
            for fl in fight["flights"]
            if fl["target"] == self.seat and not fl["dodged"] and now < fl["lands_at"]
        ]
        can = {
            "grab": go and not holding and fight["free"] > 0,
            "throw": go and holding,
            "dodge": bool(incoming),
            "catch": any(now >= fl["catch_from"] for fl in incoming),
        }
        items = []
        for action, ok in can.items():
            item = _("{key} {what}").format(key=label("burrito", action), what=_(FIGHT_KEYS[action]))
            items.append(item if ok else _("{item} (not now)").format(item=item))
        return _("Keys: {keys}.").format(keys=_(", ").join(items))

    def bar(self, view: JSON) -> str:
        pile = view["pile_sizes"][self.seat]
        return " ".join(
            (
                hand_line(view.get("hand", [])),
                ngettext("{n} card in your pile.", "{n} cards in your pile.", pile).format(n=pile),
                self._phase_line(view),
            )
        )

    def status(self, view: JSON) -> list[str]:
        lines = [self._phase_line(view)]
        for p in range(view["players"]):
            bruises = view["bruises"][p]
            if p == self.seat:
                text = ngettext(
                    "You: score {score}, {n} bruise, {hand} cards in hand, {pile} in your pile.",
                    "You: score {score}, {n} bruises, {hand} cards in hand, {pile} in your pile.",
                    bruises,
                )
            else:
                text = ngettext(
                    "{name}: score {score}, {n} bruise, {hand} cards in hand, {pile} in the pile.",
                    "{name}: score {score}, {n} bruises, {hand} cards in hand, {pile} in the pile.",
                    bruises,
                )
            line = text.format(
                name=self.who(p),
                score=view["scores"][p],
                n=bruises,
                hand=view["hand_sizes"][p],
                pile=view["pile_sizes"][p],
            )
            lines.append(line)
        community = view["community_sizes"]
        lines.append(
            _("Community piles: {a} and {b}. Bruises left: {left}.").format(
                a=ngettext("{n} card", "{n} cards", community[0]).format(n=community[0]),
                b=ngettext("{n} card", "{n} cards", community[1]).format(n=community[1]),
                left=view["bruises_left"],
            )
        )
        if view.get("badge") is not None:
            lines.append(_("Badge: {name}.").format(name=self.who(view["badge"])))
        fight = view.get("fight")
        if fight is not None:
            lines.extend(self._fight_lines(fight))
            if self.seat in fight["fighters"]:
                lines.append(self.fight_keys(fight, view.get("now", 0)))
        return lines

    def wakeups(self, view: JSON) -> list[int]:
        fight = view.get("fight")
        if fight is None:
            return []
        return [
            fl["catch_from"]
            for fl in fight["flights"]
            if fl["target"] == self.seat and not fl["dodged"] and fl["id"] not in self._announced
        ]

    def tick(self, view: JSON, now: int) -> list[str]:
        fight = view.get("fight")
        if fight is None:
            return []
        lines = []
        for fl in fight["flights"]:
            if fl["target"] != self.seat or fl["dodged"] or fl["id"] in self._announced:
                continue
            if fl["catch_from"] <= now < fl["lands_at"]:
                self._announced.add(fl["id"])
                lines.append(_("CATCH NOW! {name}'s burrito.").format(name=self.who(fl["thrower"])))
        return lines

    # ---- keys -----------------------------------------------------------------------------------

    def _discard(self, slot: int, view: JSON) -> Any | Say:
        hand = view.get("hand", [])
        if slot > len(hand):
            return Say(
                ngettext(
                    "Slot {slot} is empty: you hold {n} card.",
                    "Slot {slot} is empty: you hold {n} cards.",
                    len(hand),
                ).format(slot=slot, n=len(hand))
            )
        return Discard(hand[slot - 1])

    def _move(self, step: int, to: int | None, hand: list[str]) -> Say:
        if not hand:
            return Say(_("Your hand is empty."))
        self.cursor = to if to is not None else max(0, min(len(hand) - 1, self.cursor + step))
        return Say(
            _("{i} of {n}: {card}").format(i=self.cursor + 1, n=len(hand), card=card_name(hand[self.cursor]))
        )

    def _three(self, hand: list[str], kinds: Sequence[str]) -> str | None:
        """The card under the cursor when the hand holds three of it, else the first of `kinds`
        held three times (the page does the same: `heldThree` in static/burrito.js)."""
        counts: Counter[str] = Counter(hand)
        under = hand[min(self.cursor, len(hand) - 1)] if hand else ""
        if under in kinds and counts[under] >= SET_SIZE:
            return under
        return next((c for c in kinds if counts[c] >= SET_SIZE), None)

    def _set(self, view: JSON) -> Any | Say:
        hand = view.get("hand", [])
        card = self._three(hand, NORMAL)
        if card is not None:
            return Set(card)
        if self._three(hand, BATTLE) is not None:
            return Say(_("Battle cards are called, not set: press the call key."))
        return Say(_("You hold no three alike normal cards."))

    def _call(self, view: JSON) -> Any | Say:
        card = self._three(view.get("hand", []), BATTLE)
        if card is None:
            return Say(_("You hold no three battle cards of one kind: calling now would be a mistake."))
        fight = FIGHT_OF[card]
        if fight != "duel":
            return Call(fight, card)
        if view["players"] == 2:
            return Call("duel", "duel", (0, 1))
        self._prompt, self._digits, self._chosen = "duel", "", []
        return Say(
            _("Duel between whom? Press two seat numbers: {seats}. Escape cancels.").format(
                seats=self._seat_list(range(view["players"]))
            )
        )

    def _throw(self, view: JSON) -> Any | Say:
        """At the nearest other fighter: whoever last threw at you, else the first on your left
        (as on the page: `throwTarget` in static/burrito.js)."""
        fight = view.get("fight")
        if fight is None:
            return Say(_("There is no fight: nothing to throw."))
        fighters = fight["fighters"]
        n = view["players"]
        if self._last_thrower is not None and self._last_thrower in fighters:
            return Throw(self._last_thrower)
        seat = next((s for k in range(1, n) if (s := (self.seat + k) % n) in fighters), (self.seat + 1) % n)
        return Throw(seat)

    def _throw_at(self, view: JSON) -> Any | Say:
        fight = view.get("fight")
        if fight is None:
            return Say(_("There is no fight: nothing to throw."))
        others = [p for p in fight["fighters"] if p != self.seat]
        self._prompt, self._digits = "throw", ""
        return Say(
            _("Throw at whom? Press the seat number: {seats}. Escape cancels.").format(
                seats=self._seat_list(others or [p for p in range(view["players"]) if p != self.seat])
            )
        )

    def _prompt_key(self, key: str, view: JSON) -> Any | Say | None:
        if key == "escape":
            self._cancel_prompt()
            return Say(_("Cancelled."))
        n = view["players"]
        if key == "enter" and self._digits:
            typed = int(self._digits)
            self._digits = ""
            if not 1 <= typed <= n:
                return Say(
                    _("There is no seat {seat}: seats go from 1 to {last}.").format(seat=typed, last=n)
                )
            return self._chose(seat_typed(typed), view)
        if not key.isdigit() or len(key) != 1:
            if self._prompt == "throw" and action_of("burrito", key) == "throw_at":
                return None
            self._cancel_prompt()
            return self.on_key(key, view, view.get("now", 0))
        self._digits += key
        typed = int(self._digits)
        if not 1 <= typed <= n:
            self._digits = ""
            return Say(_("There is no seat {seat}: seats go from 1 to {last}.").format(seat=typed, last=n))
        if typed * 10 <= n:
            return None  # "1" at a table of 10 or more: wait for a second digit or Enter
        self._digits = ""
        return self._chose(seat_typed(typed), view)

    def _chose(self, seat: int, view: JSON) -> Any | Say | None:
        if self._prompt == "throw":
            self._cancel_prompt()
            return Throw(seat)
        if seat in self._chosen:
            return Say(_("A duel needs two different players."))
        self._chosen.append(seat)
        if len(self._chosen) < 2:
            return Say(_("{name} against whom?").format(name=self.who(seat)))
        a, b = self._chosen
        self._cancel_prompt()
        return Call("duel", "duel", (a, b))

    def _cancel_prompt(self) -> None:
        self._prompt, self._digits, self._chosen = None, "", []

    # ---- reading the table -------------------------------------------------------------------------

    def _seat_list(self, seats: Any) -> str:
        return seat_list(self.who, seats)

    def _phase_line(self, view: JSON) -> str:
        phase = view["phase"]
        r = view["round"]
        if phase == "play":
            return _("Round {round}: card play.").format(round=r)
        if phase == "fight":
            return _("Round {round}: a fight is on.").format(round=r)
        if phase == "countdown":
            return _("Round {round}: counting down to Burrito!").format(round=r)
        if phase == "round_over":
            return _("Round {round} is over; the next one starts soon.").format(round=r)
        return _("The game is over.")

    def _fight_lines(self, fight: JSON) -> list[str]:
        kind = fight_name(fight["kind"])
        lines = [
            _("Fight: {fight}. Fighters: {players}.").format(
                fight=kind, players=self.who.list(fight["fighters"])
            )
        ]
        held = [p for p, n in enumerate(fight["holding"]) if n]
        if held:
            lines.append(_("Holding a burrito: {players}.").format(players=self.who.list(held)))
        lines.append(
            ngettext("{n} burrito is free.", "{n} burritos are free.", fight["free"]).format(n=fight["free"])
        )
        for fl in fight["flights"]:
            if fl["thrower"] == self.seat:
                line = _("In the air: your burrito at {target}.").format(target=self.who(fl["target"]))
            elif fl["target"] == self.seat:
                line = _("In the air: {name}'s burrito at you.").format(name=self.who(fl["thrower"]))
            else:
                line = _("In the air: {name}'s burrito at {target}.").format(
                    name=self.who(fl["thrower"]), target=self.who(fl["target"])
                )
            lines.append(line)
        return lines


def make_ui(seat: int, names: Sequence[str], table: Any) -> BurritoUI:
    """The terminal UI of the person at `seat`; `table` is read once, for its options."""
    opts = getattr(table, "opts", None)
    options: JSON = opts.to_json() if opts is not None else {}
    return BurritoUI(seat, names, table.players, options)


__all__ = ["BurritoUI", "card_name", "key_help", "make_ui"]
