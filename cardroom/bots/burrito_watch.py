"""What a bot can know of its neighbours' cards, from what its own seat sees.

Every card a player passes lands on top of their left neighbour's pile, and only they feed
that pile. So a bot knows exactly which of the top cards of its receiver's pile it put there:
when the receiver draws from their own pile, they take the last card the bot passed them that
they have not drawn yet. Counting those, the bot knows which kinds its receiver took from it
since the receiver last scored that kind: the kinds they may be collecting. A receiver keeps a
pair and passes a lone card on, so a kind taken once fades with each card the receiver passes
on, while a kind taken twice is held.

The other way round, the cards its feeder (right neighbour) passes it are the feeder's least
useful ones: kinds the feeder does not collect, and more of them may come.

Nothing here reads a hidden card: only the bot's own discards (it knows what it passed), its
own draws, and public events (who drew from where, who passed, who scored what).
"""

from __future__ import annotations

from cardroom.protocol import JSON

FADE = 0.6
"""A kind the receiver took once: what is left of the guess each time they pass a card on."""
HELD = 1.5
"""A guess this high counts as held for sure (a pair is kept)."""


class Watch:
    """One bot's running account of its receiver's and feeder's cards."""

    def __init__(self, seat: int, players: int) -> None:
        self.seat = seat
        self.left = (seat + 1) % players
        self.right = (seat - 1) % players
        self.passed: list[str] = []  # on the receiver's pile, put there by us, top last
        self.taken: dict[str, float] = {}  # the receiver's kinds, from what they drew from us
        self.dumped: dict[str, int] = {}  # kinds the feeder passed us
        self.fed_me = 0  # cards the feeder put on our pile that we have not drawn yet

    def reset(self) -> None:
        """A new round: every card is shuffled again."""
        self.passed.clear()
        self.taken.clear()
        self.dumped.clear()
        self.fed_me = 0

    def notice(self, e: JSON) -> None:
        """Take in one event as this seat heard it."""
        kind = e["event"]
        player = e.get("player")
        if kind == "discard":
            if player == self.seat:
                self.passed.append(e["card"])
            elif e["to"] == self.seat:
                self.fed_me += 1
            if player == self.left:
                self._fade()
        elif kind == "draw" and e["from"] == "own":
            if player == self.left and self.passed:
                card = self.passed.pop()
                self.taken[card] = self.taken.get(card, 0.0) + 1.0
            elif player == self.seat and self.fed_me:
                self.fed_me -= 1
                card = e["card"]
                self.dumped[card] = self.dumped.get(card, 0) + 1
        elif kind in ("set", "call") and player == self.left:
            self.taken.pop(e["card"], None)

    def _fade(self) -> None:
        """The receiver passed a card on: perhaps one it took from us and held alone."""
        for card, guess in list(self.taken.items()):
            if guess < HELD:
                guess *= FADE
                if guess < 0.1:
                    del self.taken[card]
                else:
                    self.taken[card] = guess

    def collects(self, card: str) -> float:
        """How sure we are that the receiver holds `card` from us (0: no sign; 2 or more: a pair)."""
        return self.taken.get(card, 0.0)

    def supplied(self, card: str) -> int:
        """How many `card` the feeder has passed us this round (kinds they do not collect)."""
        return self.dumped.get(card, 0)
