"""How fast and how well a Throw Throw Burrito bot plays, by level.

The numbers are human ones (DIGITAL.md, "Bots and people"): a person reacts to a card in about
half a second and to a burrito thrown at them a little faster when alert. A bot's delay is
drawn from a normal distribution around `react_ms` with `jitter_ms` of standard deviation,
clipped to [react_ms / 2, react_ms * 2], so that no bot is ever superhuman nor frozen.

| level  | react_ms | jitter_ms | hesitate | catch_sd_ms | catch_pref | false_start | blunder | sly |
| ------ | -------- | --------- | -------- | ----------- | ---------- | ----------- | ------- | --- |
| easy   | 650      | 160       | 12 %     | 300         | 0.40       | 3 %         | 15 %    | no  |
| normal | 420      | 100       | 4 %      | 200         | 0.35       | 0 %         | 4 %     | no  |
| hard   | 260      | 60        | 0 %      | 150         | 0.55       | 0 %         | 0 %     | yes |

- `hesitate`: chance that a card action takes twice as long (a person thinking it over).
- `catch_sd_ms`: the timing error of a catch aimed at the middle of the 300 ms catch window
  (too early is a fumble, too late a hit): about 35 % of catches succeed for easy, 55 % for
  normal, 68 % for hard, if it sees the burrito in time.
- `catch_pref`: how often the bot tries to catch rather than dodge (it must catch while its
  dodge is cooling down). Easy tries more often than its hands allow.
- `false_start`: chance, in a duel, of throwing just before "Burrito!".
- `blunder`: chance of a plainly weaker choice (passing a random card, naming itself in a
  duel, throwing at a random fighter).
- `sly`: throws first at a fighter whose dodge is cooling down.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from cardroom.protocol import InvalidSetup


@dataclass(frozen=True, slots=True)
class Level:
    name: str
    react_ms: int
    jitter_ms: int
    hesitate: float
    catch_sd_ms: int
    catch_pref: float
    false_start: float
    blunder: float
    sly: bool

    def reaction(self, rng: random.Random) -> int:
        """One human reaction time, in ms."""
        base = self.react_ms
        ms = rng.gauss(base, self.jitter_ms)
        lo, hi = base // 2, base * 2
        return int(lo if ms < lo else hi if ms > hi else ms)


LEVELS: dict[str, Level] = {
    "easy": Level("easy", 650, 160, 0.12, 300, 0.40, 0.03, 0.15, False),
    "normal": Level("normal", 420, 100, 0.04, 200, 0.35, 0.0, 0.04, False),
    "hard": Level("hard", 260, 60, 0.0, 150, 0.55, 0.0, 0.0, True),
}


def level(name: str) -> Level:
    """The level called `name`; InvalidSetup for any other name."""
    found = LEVELS.get(name)
    if found is None:
        raise InvalidSetup(f"unknown bot level {name!r}: expected one of {', '.join(LEVELS)}")
    return found
