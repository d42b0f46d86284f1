"""The events a kittens table emits, and what each one tells whom.

Every event has a public part (`Event.data`, seen by every seat and spectators) and, where a
card is hidden, a secret part (`Event.secret`) that only `knowers` see. Public data never
names a hidden card. Seats are integers; cards are identifiers of rules/CARDS.md.

| kind | public fields | secret fields (knowers) |
| --- | --- | --- |
| `deal` | `hand_sizes`, `deck_size`, `kittens` (Exploding Kittens in the deck) | |
| `hand` | `player` (only that seat hears of this event) | `cards` (the hand just dealt) to the player |
| `played` | `player`, `cards`, `combo` (null, `pair`, `triple`, `five`), `target`, `name`, `take` (null when unused), `until` (when the Nope window closes) | |
| `noped` | `player` (who Noped), `nopes` (Nopes so far on this card), `until` (the window's new end) | |
| `passed` | `player` (lets the card or Nope of the open window go), `standing` (true: by their always-pass choice) | |
| `always_pass` | `player`, `on` (their standing choice to pass in every window, public) | |
| `window_closed` | `player` (who played the card), `cards`, `nopes`, `cancelled` (odd count: the card has no effect) | |
| `turns_returned` | `player` (the attacker), `target`, `turns` (turns the attacker now owes, 003 Nope rule) | |
| `attacked` | `player`, `target`, `turns` (the target's turns, current one included) | |
| `turn` | `player`, `turns_left` (current turn included), `direction` (1 clockwise, -1 after an odd number of Reverses) | |
| `shuffled` | `player` | |
| `swapped` | `player` | |
| `future` | `player`, `count` (cards seen) | `cards` (top first) to the player |
| `choosing` | `player` (who must choose), `kind` (`give`, `reorder`, `insert`), `for` (who receives, for `give`), `until` | `cards` (for `reorder`) or `card` (for `insert`) to the chooser |
| `given` | `player` (giver), `to`, `empty` (true: the giver had no card, nothing moves), `timeout` | `card` to giver and receiver |
| `asked` | `player`, `target`, `name`, `given` (the named card is public, so is whether it moved) | |
| `took` | `player`, `card` (from the discard pile, which is public) | |
| `reordered` | `player`, `count`, `timeout` | `cards` (new top first) to the player |
| `sneaked` | `player` | `card` to the player |
| `inserted` | `player`, `timeout` | `card`, `position` to the player |
| `drew` | `player`, `from` (`top`, `bottom`), `card` only when it is an Exploding Kitten (drawing one is shown to all), `forced` (the turn timer drew) | `card` to the drawer |
| `empty_deck` | `player` (drew or sneak-drew from an empty deck: a draw then simply ends the turn, a Sneak Draw does nothing) | |
| `defusing` | `player`, `until` (when the kitten explodes) | |
| `defused` | `player` | `position` to the defuser |
| `exploded` | `player`, `discarded` (their hand, now face up on the discard pile) | |
| `game_over` | `winner` | |

Events a timer caused (a window closing, a forced draw, an explosion, a choice timing out, and
all that follows from them) also carry `at`, the play time at which the timer ran; events an
action caused happen at the action's time.

Start: a freshly dealt table (`new_table`) first says `deal`, then each seat's own `hand`,
then the first `turn`; they come with the first `advance` or accepted `apply`, which is due at
once (`next_deadline` is the table's time while they wait). A table made from a scenario's deal
(`from_deal`) starts in the middle of things and says none of them.

Timing: a `played` event opens a Nope window; `noped` extends it; `window_closed` ends it (when
its time runs out, or at once after the last `passed` of those who may answer) and is followed
by the card's own events. A `turn` event follows every change of whose turn it is
or of how many turns they still owe.
"""

from __future__ import annotations

from collections.abc import Callable

from cardroom.protocol import JSON, Event

public: Callable[[str, JSON], Event] = Event
"""An event every seat and spectator hears in full: the Event itself, without a call around it
(an engine makes one for nearly everything that happens, issue 16)."""


def hidden(kind: str, data: JSON, secret: JSON, *knowers: int) -> Event:
    """An event all hear of, whose `secret` only `knowers` see."""
    return Event(kind, data, secret, frozenset(knowers))


def private(kind: str, seat: int, data: JSON, secret: JSON) -> Event:
    """An event only `seat` hears of (their own hand)."""
    return Event(kind, data, secret, frozenset((seat,)), public=False)
