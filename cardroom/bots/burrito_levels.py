"""How fast and how well a Throw Throw Burrito bot plays, by level.

Reaction times follow two classic results of experimental psychology (docs/bots.md says more):

- a *simple* reaction (one expected signal, one answer: a burrito lies free and you grab
  it) takes a person about 200 to 300 ms;
- a *choice* reaction grows with the logarithm of the number of equally likely choices, about
  a fixed number of milliseconds per bit (the Hick-Hyman law): `simple_ms + bit_ms * log2(n)`.
  Practice flattens the slope, so the levels differ most in `bit_ms`.

A delay is drawn around that mean with a right skew, as measured reaction times are (a normal
part plus an exponential tail, so the typical delay is a little under the mean), and never
under `floor_ms`: no bot is ever faster than an alert, practised person. With the four or five
choices a hand usually offers (which card to pass, or draw, or set), the typical card action
comes to the figures of DIGITAL.md "Bots and people": about 650 ms for easy, 420 ms for normal
and 260 ms for hard.

| level  | simple_ms | bit_ms | floor_ms | hesitate | false_start | blunder | tactics |
| ------ | --------- | ------ | -------- | -------- | ----------- | ------- | ------- |
| easy   | 330       | 170    | 230      | 12 %     | 3 %         | 15 %    | no      |
| normal | 280       | 80     | 195      | 4 %      | 0 %         | 4 %     | no      |
| hard   | 230       | 25     | 160      | 0 %      | 0 %         | 0 %     | yes     |

Fights are reactions to what another player did (a fight called, a burrito thrown, a catch
window opening), so every fight decision is a *choice* reaction drawn from an ex-Gaussian
(Whelan 2008): a normal part (`mu_ms` plus `fight_bit_ms` a bit of choice, spread `sigma_ms`)
plus an exponential tail (`tau_ms`), drawn again below `QUICK_MS`, the quickest a person
answers a visual choice (docs/bots.md):

| level  | mu_ms | fight_bit_ms | sigma_ms | tau_ms | median, two choices | early_catch |
| ------ | ----- | ------------ | -------- | ------ | ------------------- | ----------- |
| easy   | 620   | 120          | 110      | 330    | about 1,000 ms      | 12 %        |
| normal | 520   | 80           | 80       | 200    | about 760 ms        | 4 %         |
| hard   | 430   | 50           | 60       | 120    | about 590 ms        | 0 %         |

- `hesitate`: chance that a card action takes twice as long (a person thinking it over).
- a catch is pressed a reaction time after the catch window opens, as a person reacts to its
  cue: clean when that comes before the landing. `early_catch`: chance of pressing catch as
  soon as the burrito is seen instead, before the window (a fumble), a newcomer's mistake.
- `catch_pref`: without tactics, how often the bot tries to catch rather than dodge (it must
  catch while its dodge is cooling down). Easy tries more often than its hands allow.
- `false_start`: chance, in a duel, of throwing just before "Burrito!".
- `blunder`: chance of a plainly weaker choice (passing a random card, naming itself in a
  duel, throwing at a random fighter).
- `tactics`: the hard bot watches its neighbours and starves the one it feeds, times its
  calls by the score, joins a fight it is in with a call of its own, and chooses between catch
  and dodge by its odds (`burrito_tactics`).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from cardroom.protocol import InvalidSetup

QUICK_MS = 400
"""No bot answers a fight's cue sooner: a quick person's visual choice reaction (docs/bots.md)."""
SKEW = 0.3
"""Share of a reaction's mean in its exponential tail (the rest is a normal part)."""
SPREAD = 0.15
"""Standard deviation of the normal part, as a share of the mean."""


@dataclass(frozen=True, slots=True)
class Level:
    name: str
    simple_ms: int
    bit_ms: int
    floor_ms: int
    hesitate: float
    mu_ms: int
    fight_bit_ms: int
    sigma_ms: int
    tau_ms: int
    early_catch: float
    catch_pref: float
    false_start: float
    blunder: float
    tactics: bool

    def mean_ms(self, choices: int = 1) -> float:
        """The mean reaction with `choices` equally likely answers (Hick-Hyman)."""
        return self.simple_ms + self.bit_ms * math.log2(max(1, choices))

    def reaction(self, rng: random.Random, choices: int = 1) -> int:
        """One human reaction time in ms, with `choices` answers to choose from."""
        mean = self.mean_ms(choices)
        tail = SKEW * mean
        ms = rng.gauss(mean - tail, SPREAD * mean) + rng.expovariate(1.0 / tail)
        return int(min(max(ms, self.floor_ms), 3 * mean))

    def fight_reaction(self, rng: random.Random, choices: int = 1) -> int:
        """One reaction to a fight's cue in ms: ex-Gaussian, `choices` answers to choose from,
        drawn again under `QUICK_MS` (a person is never quicker)."""
        mu = self.mu_ms + self.fight_bit_ms * math.log2(max(1, choices))
        for _ in range(20):
            ms = rng.gauss(mu, self.sigma_ms) + rng.expovariate(1.0 / self.tau_ms)
            if ms >= QUICK_MS:
                return int(ms)
        return QUICK_MS

    def catch_odds(self, window_ms: int) -> float:
        """The chance that a catch answering a catch window of `window_ms` is clean: that the
        reaction (one choice) comes before the landing (the ex-Gaussian's distribution)."""
        mu, sigma, tau = self.mu_ms, self.sigma_ms, self.tau_ms
        z = (window_ms - mu) / sigma
        tail = math.exp(-(window_ms - mu) / tau + sigma * sigma / (2 * tau * tau)) * _phi(z - sigma / tau)
        return (1.0 - self.early_catch) * max(0.0, _phi(z) - tail)


def _phi(z: float) -> float:
    return 0.5 * (1.0 + math.erf(z / math.sqrt(2)))


LEVELS: dict[str, Level] = {
    "easy": Level("easy", 330, 170, 230, 0.12, 620, 120, 110, 330, 0.12, 0.40, 0.03, 0.15, False),
    "normal": Level("normal", 280, 80, 195, 0.04, 520, 80, 80, 200, 0.04, 0.35, 0.0, 0.04, False),
    "hard": Level("hard", 230, 25, 160, 0.0, 430, 50, 60, 120, 0.0, 0.55, 0.0, 0.0, True),
}


def level(name: str) -> Level:
    """The level called `name`; InvalidSetup for any other name."""
    found = LEVELS.get(name)
    if found is None:
        raise InvalidSetup(f"unknown bot level {name!r}: expected one of {', '.join(LEVELS)}")
    return found
