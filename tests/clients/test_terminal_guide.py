"""`cardroom play kittens --guide` on a pipe (issue 24, docs/guide.md): the coach's lines one at a
time, each after the game's lines it follows, a wrong key answered with the line again, and at
the end a real game with bots on Enter."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from cardroom.guide.coach import Guide
from tests.clients.pipe import Player


@pytest.fixture
def guided() -> Iterator[Player]:
    player = Player("kittens", "--guide", "--bots", "2")
    yield player
    if player.proc.stdout is not None and not player.proc.stdout.closed:
        player.close()


def test_the_kittens_guide_played_in_the_terminal(guided: Player) -> None:
    p = guided
    names = p.expect(r"^Exploding Kittens\. Seats: 1 you, 2 \w+, 3 \w+").split(": ", 1)[1]
    seat1 = names.split(", ")[1].split(" ", 1)[1]
    guide = Guide("kittens")
    at = ["You", seat1, ""]
    p.expect(r"^Welcome to your first game of Exploding Kittens\.")
    p.expect(r"^The clock stops while I wait for you")
    p.expect(r"^Step 1 of 5: It is your turn\. End it by drawing a card")
    p.send("d")
    p.expect(r"^You drew a Black Cat\.$")
    line = p.expect(r"^Step 2 of 5: ")
    assert line == f"Step 2 of 5: {guide.text(1, at)}"
    p.send("x")  # No Nope: the coach asked for a Nope, and says so again
    p.expect(r"^Not this one yet\. " + seat1 + r" plays a Skip")
    p.send("n")
    p.expect(r"^You say Nope\.|^You Nope")
    p.expect(r"^Step 3 of 5: Your turn again\.")
    p.send("\x1b[H\x1b[Bp")  # Home, Down: See the Future; P plays it
    p.expect(r"^You play See the Future\.$")
    p.expect(r"^Step 4 of 5: An Exploding Kitten is on top!")
    p.send("d")
    p.expect(r"^Step 5 of 5: You drew the Exploding Kitten\.")
    p.send("f")
    p.send("2\r")
    p.expect(r"^Defused! ")
    p.expect(r"^Well done: you drew, noped, looked at the future and defused a kitten\.")
    p.expect(r"^Press Enter for a real game with bots, or q to leave\.$")
    p.send("\r")
    # The real game: a new deal with the two bots asked for, the seed said as in any game.
    p.expect(r"^Exploding Kittens\. Seats: 1 you, 2 \w+, 3 \w+\. Press \? for the keys\.$")
    p.expect(r"^Seed \d+ ")
    p.send("q")
    p.expect(r"^You leave the table\. Goodbye!$")
    assert p.close() == 0
