"""Issue 12, the leak checker: many bot games of both games, and for every batch of every game
the message the server builds for each seat and for a spectator (`fanout.hear` and
`fanout.batch_message`, the per-recipient filtering the server sends) is held against what that
recipient may know.

What a seat may know is worked out here from that seat's own messages only, not from the
engine's memory: its own hand; the public table; of the deck's order, what it saw (See or Alter
the Future, its own put-backs), kept while public events leave it certain (a draw from the top
shifts it, a Shuffle clears it, someone else's secret put-back makes it uncertain). A view
that shows more than that (docs/rules/kittens.md#what-players-know), or a hidden field sent to
someone outside its knowers, fails the game. `CARDROOM_LEAK_GAMES` sets how many Exploding
Kittens games are checked (Throw Throw Burrito: a tenth as many, its games are long).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from typing import Any

import pytest

from cardroom.bots import make_bot
from cardroom.drive.virtual import VirtualDriver
from cardroom.games import find_game
from cardroom.protocol import JSON, Event
from cardroom.server.lobby import Lobby
from cardroom.server.room import Room
from cardroom.server.room.fanout import batch_message, hear

KITTEN = "exploding_kitten"
GAMES = int(os.environ.get("CARDROOM_LEAK_GAMES", "200"))
KITTENS_PRIVATE = {"seat", "hand", "future", "kitten_at", "plays", "fives"}
"""A seat's own part of its view (`plays` and `fives`: the sets of its own hand it may play)."""
BURRITO_PRIVATE = {"seat", "hand", "dodge_until", "fight"}


def expected(event: Event, seat: int | None) -> JSON | None:
    """The event as `seat` may hear it, from the event's own declaration of who knows what."""
    knows = seat is not None and seat in event.knowers
    if not event.public and not knows:
        return None
    return {"event": event.kind, **event.data, **(event.secret or {} if knows else {})}


HIDDEN = {
    # Per game, per event: the fields that name a hidden card or place, and who may see them
    # (docs/rules/kittens.md#what-players-know, cardroom/games/burrito/events.py), written here
    # again so that a wrong declaration in an engine is caught too.
    "kittens": {
        "hand": ("cards",),
        "future": ("cards",),
        "reordered": ("cards",),
        "sneaked": ("card",),
        "inserted": ("card", "position"),
        "defused": ("position",),
        "choosing": ("cards", "card"),
        "given": ("card",),
        "drew": ("card",),
    },
    "burrito": {"hand": ("cards",), "draw": ("card",), "discard": ("card",), "behind_back": ("target",)},
}


def may_see(game: str, e: JSON, seat: int | None) -> bool:
    """Whether `seat` may see the hidden fields of event `e`."""
    if game == "kittens" and e["event"] == "drew" and e.get("card") == KITTEN:
        return True  # drawing a kitten is shown to all
    if game == "kittens" and e["event"] == "given":
        return seat in (e["player"], e["to"])
    return seat is not None and seat == e.get("player", e.get("thrower"))


class DeckKnowledge:
    """What one kittens seat can be sure of about the deck, from the events it heard."""

    def __init__(self, seat: int | None) -> None:
        self.seat = seat
        self.known: list[str | None] = []  # top first; None: a place it is not sure of
        self.kitten: int | None = None  # where its own put-back kitten lies
        self.size = 0

    def hear(self, e: JSON) -> None:
        kind, me = e["event"], self.seat
        mine = me is not None and e.get("player") == me
        if kind == "deal":
            self.size = e["deck_size"]
        elif (kind == "drew" and e["from"] == "top") or kind == "sneaked":
            self._top_removed()
        elif kind == "drew":
            if len(self.known) == self.size:
                self.known.pop()
            if self.kitten == self.size - 1:
                self.kitten = None
            self.size -= 1
        elif kind in ("future", "reordered") and mine:
            self.known[: len(e["cards"])] = e["cards"]
        elif kind == "reordered":
            self.known[: e["count"]] = [None] * min(e["count"], len(self.known))
            if self.kitten is not None and self.kitten < e["count"]:
                self.kitten = None
        elif kind == "shuffled" or (kind == "exploded" and e["player"] == me):
            self.known, self.kitten = [], None
        elif kind == "swapped" and self.size > 1:
            full = self.known + [None] * (self.size - len(self.known))
            full[0], full[-1] = full[-1], full[0]
            self.known = full
            self.kitten = {0: self.size - 1, self.size - 1: 0}.get(self.kitten, self.kitten)  # type: ignore[arg-type]
        elif kind in ("inserted", "defused"):
            self.size += 1
            if not mine:  # somewhere only the other seat knows: nothing is sure any more
                self.known, self.kitten = [], None
                return
            place, card = e["position"], e.get("card", KITTEN)
            self.known += [None] * (place - len(self.known))
            self.known.insert(place, card)
            if card == KITTEN:
                self.kitten = place
            elif self.kitten is not None and self.kitten >= place:
                self.kitten += 1

    def _top_removed(self) -> None:
        if self.known:
            self.known.pop(0)
        if self.kitten is not None:
            self.kitten = self.kitten - 1 if self.kitten > 0 else None
        self.size -= 1


def check_kittens_view(view: JSON, seat: int | None, table: Any, knows: DeckKnowledge) -> None:
    s = table.s
    deck = s.deck[::-1]
    assert view["seat"] == seat
    assert view["hand"] == (s.hands[seat] if seat is not None else [])
    future = view["future"]
    for i, card in enumerate(future):
        assert i < len(knows.known) and knows.known[i] == card, (seat, future, knows.known)
        assert deck[i] == card, "a remembered card is where it is remembered"
    if view["kitten_at"] is not None:
        assert view["kitten_at"] == knows.kitten and deck[view["kitten_at"]] == KITTEN
    choosing = view["choosing"]
    if choosing is not None and "cards" in choosing:
        assert seat == choosing["player"], "only the chooser sees the cards chosen among"
    offered = [*view["plays"], *(view["fives"] or ())]
    own = s.hands[seat] if seat is not None else []
    assert all(own.count(card) >= cards.count(card) for cards in offered for card in cards), "its own cards"
    assert not offered or (seat == s.turn and s.phase == "turn"), "plays only to the seat on its turn"


def check_burrito_view(view: JSON, seat: int | None, table: Any) -> None:
    assert view["seat"] == seat
    if seat is None:
        assert "hand" not in view and "dodge_until" not in view
    else:
        assert view["hand"] == table.hands[seat]
    fight = view["fight"]
    if fight is not None:
        for item in fight["behind_back"]:
            assert ("target" in item) == (seat == item["thrower"]), "a throw behind the back"


def public_part(view: JSON, private: set[str]) -> JSON:
    out = {k: v for k, v in view.items() if k not in private}
    if view.get("choosing") is not None:
        out["choosing"] = {k: v for k, v in view["choosing"].items() if k != "cards"}
    if view.get("fight") is not None:
        fight = dict(view["fight"])
        fight["behind_back"] = [{k: v for k, v in b.items() if k != "target"} for b in fight["behind_back"]]
        out["fight"] = fight
    return out


def check_game(name: str, players: int, levels: list[str], seed: int) -> int:
    """Play one game between bots; check every message built for every recipient. Batches."""
    game = find_game(name)
    table = game.new_table(players, {}, seed)
    room = Room(Lobby(), game, players, {}, "host", False, "normal", time.monotonic)
    room.table = table
    names = [f"P{i}" for i in range(players)]
    recipients: list[int | None] = [None, *range(players)]
    knowledge = {r: DeckKnowledge(r) for r in recipients}
    private = KITTENS_PRIVATE if name == "kittens" else BURRITO_PRIVATE
    batches = [0]

    def listener(now: int, events: list[Event]) -> None:
        batches[0] += 1
        hearing = hear(room, events, recipients)
        publics = []
        for r in recipients:
            message = batch_message(room.narrator, room.id, batches[0], now, hearing[r], r, "en", names)
            heard = [e for e in (expected(ev, r) for ev in events) if e is not None]
            if message is None:
                assert not heard
                continue
            assert message["events"] == heard, "the server sends each event as its declaration allows"
            for e in heard:
                hidden = HIDDEN[name].get(e["event"], ())
                assert may_see(name, e, r) or not any(k in e for k in hidden), (r, e)
            view = message["view"]
            if name == "kittens":
                for e in message["events"]:
                    knowledge[r].hear(e)
                check_kittens_view(view, r, table, knowledge[r])
            else:
                check_burrito_view(view, r, table)
            publics.append(public_part(view, private))
        assert all(p == publics[0] for p in publics), "the public part is the same for all"

    bots = {i: make_bot(name, i, levels[i % len(levels)], seed * 100 + i) for i in range(players)}
    run: Callable[[], Any] = VirtualDriver(table, bots, game.action_json, listener).run
    run()
    assert table.over
    return batches[0]


@pytest.mark.parametrize("chunk", range(4))
def test_no_kittens_message_tells_a_seat_more_than_it_may_know(chunk: int) -> None:
    batches = 0
    for i in range(chunk, GAMES, 4):
        players = 2 + i % 4
        batches += check_game("kittens", players, ["random", "hard", "normal", "easy"], 10_000 + i)
    assert batches > GAMES // 4 * 20


def test_no_burrito_message_tells_a_seat_more_than_it_may_know() -> None:
    batches = 0
    for i in range(max(1, GAMES // 10)):
        batches += check_game("burrito", 3 + i % 3, ["normal", "hard", "easy"], 20_000 + i)
    assert batches > 100
