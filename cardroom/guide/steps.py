"""The guided first games as data: the deal, then one `Step` record per thing the coach teaches.

To add a step, add a record to the game's list: the coach's line (marked with `N_` so that it is
translated; `{seat1}`, `{seat2}` are the bots' names), the action the player must send (only
the fields given are compared), the moment the coach waits for (a name from
`coach.CONDITIONS`), and the bots' scripted moves after the player's (docs/guide.md).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from cardroom.i18n import N_
from cardroom.protocol import JSON


@dataclass(frozen=True, slots=True)
class Step:
    """One thing the player does: what the coach says, what is expected, what the bots do then."""

    line: str
    expect: JSON
    when: str = "ready"
    then: tuple[JSON, ...] = ()
    """Each `{"seat": i, "do": ...}`, an action of seat i played in order after the player's,
    `after_ms` (default `BOT_PAUSE_MS`) after the one before it, so each is heard."""


@dataclass(frozen=True, slots=True)
class Script:
    """One game's guided first game: a table built exactly (`from_deal`) and its steps."""

    game: str
    players: int
    options: JSON
    deal: JSON
    steps: tuple[Step, ...]
    welcome: str
    farewell: str
    timing_note: str = field(
        default=N_("The clock stops while I wait for you, so take your time; the real game is faster.")
    )


BOT_PAUSE_MS = 1500
"""Between two scripted bot moves: time to hear each one."""

KITTENS = Script(
    game="kittens",
    players=3,
    options={"timing": "relaxed", "turn_ms": 600000},
    deal={
        "hands": [
            ["defuse", "nope", "see_the_future", "skip"],
            ["skip", "defuse", "tabby_cat"],
            ["defuse", "red_cat", "grey_cat"],
        ],
        "deck": [
            "black_cat",
            "shuffle",
            "reverse",
            "exploding_kitten",
            "attack",
            "favor",
            "grey_cat",
            "tabby_cat",
            "exploding_kitten",
            "red_cat",
        ],
    },
    welcome=N_(
        "Welcome to your first game of Exploding Kittens. Draw a card and you may explode; "
        "the last player left wins."
    ),
    steps=(
        Step(
            N_("It is your turn. End it by drawing a card: tap Draw a card, or press D."),
            {"do": "draw"},
            when="my_turn",
            then=({"seat": 1, "do": "play", "cards": ["skip"]},),
        ),
        Step(
            N_(
                "{seat1} plays a Skip to avoid drawing. You hold a Nope: cancel the Skip with it, "
                "tap Nope or press N."
            ),
            {"do": "nope"},
            when="nope_window",
            then=(
                {"seat": 2, "do": "pass", "after_ms": 700},
                {"seat": 1, "do": "pass", "after_ms": 700},
                {"seat": 1, "do": "draw"},
                {"seat": 2, "do": "draw"},
            ),
        ),
        Step(
            N_(
                "Your turn again. Before you draw, look at the top three cards: tap See the Future in "
                "your hand, then Play, or move to it with the arrows and press P."
            ),
            {"do": "play", "cards": ["see_the_future"]},
            when="my_turn",
            then=({"seat": 1, "do": "pass", "after_ms": 700}, {"seat": 2, "do": "pass", "after_ms": 700}),
        ),
        Step(
            N_(
                "An Exploding Kitten is on top! You hold a Defuse, so draw it anyway to learn defusing: "
                "tap Draw a card, or press D."
            ),
            {"do": "draw"},
            when="my_turn",
        ),
        Step(
            N_(
                "You drew the Exploding Kitten. Defuse it, then put it back in the deck where you like: "
                "tap Defuse or press F, then choose how many cards go above it."
            ),
            {"do": "defuse"},
            when="defusing",
        ),
    ),
    farewell=N_(
        "Well done: you drew, noped, looked at the future and defused a kitten. "
        "Shift+D tells what a card does, F1 lists every key. Ready for a real game with bots?"
    ),
)

BURRITO = Script(
    game="burrito",
    players=3,
    options={"timing": "relaxed", "idle_round_ms": 600000, "fight_timeout_ms": 600000},
    deal={
        "hands": [
            ["nacho_llama", "nacho_llama", "brawl_a", "brawl_a"],
            ["brawl_b", "brawl_b", "brawl_b", "goth_sloth"],
            ["salsa_yeti", "churro_bat", "logger_dogger", "guac_gator"],
        ],
        "piles": [
            ["nacho_llama", "guac_gator", "brawl_a", "salsa_yeti", "churro_bat"],
            ["goth_sloth", "barky_sharky", "salsa_yeti"],
            ["barky_sharky", "logger_dogger", "churro_bat"],
        ],
        "community": [["war", "duel", "goth_sloth"], ["barky_sharky", "nacho_llama", "guac_gator"]],
    },
    welcome=N_(
        "Welcome to your first game of Throw Throw Burrito. There are no turns: everyone draws "
        "and passes at once, looking for three cards alike."
    ),
    steps=(
        Step(
            N_("Draw the top card of your pile: tap Draw from your own pile, or press D."),
            {"do": "draw"},
        ),
        Step(
            N_(
                "You hold three Nacho Llamas. Score them for a point: tap a Nacho Llama, then Score three, or press S."
            ),
            {"do": "set", "card": "nacho_llama"},
        ),
        Step(
            N_("Draw again: tap Draw from your own pile, or press D."),
            {"do": "draw"},
        ),
        Step(
            N_(
                "The Guac Gator is no use to you: pass it to the player on your left. Tap it, then Pass, "
                "or press its number in your hand."
            ),
            {"do": "discard", "card": "guac_gator"},
        ),
        Step(
            N_("Draw once more: tap Draw from your own pile, or press D."),
            {"do": "draw"},
        ),
        Step(
            N_(
                "Three Brawl cards: call a fight, worth two points! Tap a Brawl card, then Call a fight, "
                "or press B. In a Brawl your two neighbours fight: watch them."
            ),
            {"do": "call"},
            then=(
                {"seat": 1, "do": "grab", "after_ms": 1000},
                {"seat": 1, "do": "throw", "target": 2},
                {"seat": 1, "do": "call", "fight": "brawl", "card": "brawl_b"},
            ),
        ),
        Step(
            N_(
                "{seat2} was hit and takes a bruise, a point off. Now {seat1} calls a Brawl too, "
                "so you fight {seat2}. Grab a burrito: tap Grab a burrito, or press G."
            ),
            {"do": "grab"},
            when="in_fight",
            then=({"seat": 2, "do": "grab"}, {"seat": 2, "do": "throw", "target": 0}),
        ),
        Step(
            N_("{seat2} throws a burrito at you! Dodge it: tap Dodge, or press X."),
            {"do": "dodge"},
            when="incoming",
        ),
        Step(
            N_("Missed! Now throw yours at {seat2}: tap Throw at {seat2}, or press T."),
            {"do": "throw", "target": 2},
            then=(
                {"seat": 2, "do": "dodge", "after_ms": 800},
                {"seat": 2, "do": "grab"},
                {"seat": 2, "do": "throw", "target": 0},
            ),
        ),
        Step(
            N_(
                "{seat2} dodged and throws again. It is about to land: catch it now and {seat2} "
                "loses! Tap Catch!, or press Space."
            ),
            {"do": "catch"},
            when="catchable",
        ),
    ),
    farewell=N_(
        "You caught it: {seat2} takes the bruise. You drew, set, passed, called a fight, grabbed, "
        "threw, dodged and caught. F1 lists every key. Ready for a real game with bots?"
    ),
)

SCRIPTS: dict[str, Script] = {"kittens": KITTENS, "burrito": BURRITO}
