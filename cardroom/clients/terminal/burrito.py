"""Throw Throw Burrito in the terminal: single keys in, one plain line per event out.

Every key works at any moment (the game has no turns). A few keys open a short prompt for a
seat number (`t` throw, `c` for a duel); Escape cancels it. Seats are numbered as the engine
numbers them; the person is seat 0. The table is read only at the start (names, options);
during play the UI sees the view and the events the session passes in.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from cardroom.clients.terminal.ui import Say
from cardroom.games.burrito.actions import Call, Catch, Discard, Dodge, Draw, Grab, Set, Throw
from cardroom.games.burrito.cards import BRAWL_COLOURS, SET_SIZE, is_battle
from cardroom.i18n import _, ngettext
from cardroom.narrate import burrito as tell
from cardroom.narrate._common import N_, Namer
from cardroom.narrate.burrito import card_name, fight_name, hand_line
from cardroom.protocol import JSON, Rejected

KEYS: tuple[tuple[str, str], ...] = (
    ("d", N_("draw a card from your own pile (from a community pile once yours is empty)")),
    ("D", N_("draw from a community pile (two players: at any time; otherwise when your pile is empty)")),
    ("1-5", N_("pass the card in that hand slot face down to your left neighbour")),
    ("s", N_("score the set of three alike normal cards you hold")),
    ("c", N_("call the fight your three battle cards make (a Duel then asks for two seat numbers)")),
    ("g", N_("grab a burrito (in a fight, with empty hands; not in the fight it is a mistake)")),
    ("t", N_("throw your burrito: then the seat number, or t alone with a single other fighter")),
    ("o", N_("dodge the burritos flying at you")),
    ("space", N_("catch the burrito flying at you, after CATCH NOW! (earlier it is a hit)")),
    ("i", N_("read your hand with slot numbers")),
    ("v", N_("the table: scores, bruises, piles, hands, the fight")),
    ("m", N_("quieter: stop or start telling other players' draws and passes")),
    ("Escape", N_("cancel a seat prompt")),
)
"""The keys, for `?` and for `cardroom play burrito --help`."""


def key_help() -> list[str]:
    return [_("{key}: {what}").format(key=k, what=_(what)) for k, what in KEYS]


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

    # ---- the GameUI protocol ------------------------------------------------------------------

    def welcome(self) -> str:
        seats = _(", ").join(_("{seat} {name}").format(seat=p, name=self.who(p)) for p in range(self.players))
        return _("Throw Throw Burrito. Seats: {seats}. Press ? for the keys.").format(seats=seats)

    def help(self) -> list[str]:
        lines = key_help()
        lines.append(_("Seat numbers: {seats}.").format(seats=self._seat_list(range(self.players))))
        return lines

    def on_key(self, key: str, view: JSON, now: int) -> Any | Say | None:
        if self._prompt is not None:
            return self._prompt_key(key, view)
        if key == "d":
            return Draw()
        if key == "D":
            return Draw("community")
        if key in "12345" and len(key) == 1:
            return self._discard(int(key), view)
        if key == "s":
            return self._set(view)
        if key == "c":
            return self._call(view)
        if key == "g":
            return Grab()
        if key == "t":
            return self._throw(view)
        if key == "o":
            return Dodge()
        if key == " ":
            return Catch()
        if key == "i":
            return Say(hand_line(view.get("hand", [])))
        if key == "v":
            return Say("\n".join(self.status(view)))
        if key == "m":
            self.quiet = not self.quiet
            if self.quiet:
                return Say(_("Quieter: other players' draws and passes are no longer told."))
            return Say(_("Every draw and pass is told again."))
        if key in ("escape", "enter"):
            return None
        return Say(_("The key {key} does nothing here: press ? for the keys.").format(key=key))

    def narrate(self, event: JSON, view: JSON, now: int) -> list[str]:
        kind = event.get("event")
        if (
            self.quiet
            and kind in ("draw", "discard")
            and self.seat not in (event.get("player"), event.get("to"))
        ):
            return []
        lines = tell.narrate(event, self.seat, self.names, view)
        if kind == "fight_start" and self.seat in event.get("fighters", ()):
            lines.append(_("Keys: g grab, t throw, o dodge, space catch."))
        if kind in ("fight_over", "round_start", "game_over"):
            self._cancel_prompt()
        return lines

    def refused(self, rejection: Rejected) -> str:
        return tell.refusal(rejection)

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
            _("Community piles: {a} and {b} cards. Bruises left: {left}.").format(
                a=community[0], b=community[1], left=view["bruises_left"]
            )
        )
        if view.get("badge") is not None:
            lines.append(_("Badge: {name}.").format(name=self.who(view["badge"])))
        fight = view.get("fight")
        if fight is not None:
            lines.extend(self._fight_lines(fight))
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

    def _set(self, view: JSON) -> Any | Say:
        counts: Counter[str] = Counter(view.get("hand", []))
        sets = [c for c, n in counts.items() if n >= SET_SIZE and not is_battle(c)]
        if not sets:
            if any(n >= SET_SIZE for n in counts.values()):
                return Say(_("Battle cards are not scored with s: call their fight with c."))
            return Say(_("You hold no three alike normal cards."))
        return Set(sets[0])

    def _call(self, view: JSON) -> Any | Say:
        counts: Counter[str] = Counter(view.get("hand", []))
        for colour in BRAWL_COLOURS:
            if counts[colour] >= SET_SIZE:
                return Call("brawl", colour)
        if counts["war"] >= SET_SIZE:
            return Call("war", "war")
        if counts["duel"] >= SET_SIZE:
            if view["players"] == 2:
                return Call("duel", "duel", (0, 1))
            self._prompt, self._digits, self._chosen = "duel", "", []
            return Say(
                _("Duel between whom? Press two seat numbers: {seats}. Escape cancels.").format(
                    seats=self._seat_list(range(view["players"]))
                )
            )
        return Say(_("You hold no three battle cards of one kind: calling now would be a mistake."))

    def _throw(self, view: JSON) -> Any | Say:
        fight = view.get("fight")
        if fight is None:
            return Say(_("There is no fight: nothing to throw."))
        others = [p for p in fight["fighters"] if p != self.seat]
        if self.seat in fight["fighters"] and len(others) == 1:
            return Throw(others[0])
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
            seat = int(self._digits)
            self._digits = ""
            return self._chose(seat, view)
        if not key.isdigit() or len(key) != 1:
            if key == "t" and self._prompt == "throw":
                return None
            self._cancel_prompt()
            return self.on_key(key, view, view.get("now", 0))
        self._digits += key
        seat = int(self._digits)
        if seat >= n:
            self._digits = ""
            return Say(_("There is no seat {seat}: seats go from 0 to {last}.").format(seat=seat, last=n - 1))
        if seat * 10 < n and seat != 0:
            return None  # "1" at a table of 11 or more: wait for a second digit or Enter
        self._digits = ""
        return self._chose(seat, view)

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
        return _(", ").join(_("{seat} {name}").format(seat=p, name=self.who(p)) for p in seats)

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


__all__ = ["KEYS", "BurritoUI", "card_name", "key_help", "make_ui"]
