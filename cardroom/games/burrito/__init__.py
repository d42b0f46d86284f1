"""Throw Throw Burrito: a pure engine for the simultaneous card game with flying burritos.

Modules: `cards` (the deck), `options` (table options and variants), `actions` (what players
do), `fight` (the arena's state), `checks` (what is allowed now), `table` (what happens),
`events` (what the table says), `view` (what each seat may see), `deal` (exact tables for
scenarios), `legal` (the actions a seat may take now), `game` (the `GameDef`).
"""

from cardroom.games.burrito.actions import (
    Action,
    Call,
    Catch,
    Discard,
    Dodge,
    Draw,
    Grab,
    Set,
    Throw,
    action_json,
    parse_action,
)
from cardroom.games.burrito.game import GAME, BurritoGame
from cardroom.games.burrito.legal import legal_actions
from cardroom.games.burrito.options import Options, parse_options
from cardroom.games.burrito.table import PHASES, BurritoTable

__all__ = [
    "GAME",
    "PHASES",
    "Action",
    "BurritoGame",
    "BurritoTable",
    "Call",
    "Catch",
    "Discard",
    "Dodge",
    "Draw",
    "Grab",
    "Options",
    "Set",
    "Throw",
    "action_json",
    "legal_actions",
    "parse_action",
    "parse_options",
]
