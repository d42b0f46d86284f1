"""The keys of each game: one table that both clients read.

The terminal (`?`, and what each key does) and the web page (F1, the keys list, the default key
map a player may remap in Settings, served as `GET /keys.json`) take their game keys from here,
so that a player who moves from one client to the other finds every key where they left it.
Why these keys and not others: docs/keys.md.

A key is named the way the page names it (`keyName` in keys.js): the modifiers, then the key in
lower case: "d", "shift+d", "space", "enter", "arrowup", "pageup", "1", "shift+1". The terminal
turns what it reads into these names (`cardroom.clients.terminal.keys.canonical`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cardroom.i18n import N_, _, pgettext

WEB = "web"
TERMINAL = "terminal"


@dataclass(frozen=True)
class Key:
    """One action of a game and its key.

    `also`: other keys that do the same (003's T and E, with or without Shift). `only`: the one
    client that has this key (`WEB` or `TERMINAL`), when the other cannot read it or has no
    such thing (a terminal cannot tell Shift+1 from "!"; the page has no quiet mode).
    """

    action: str
    key: str
    label: str
    also: tuple[str, ...] = ()
    only: str | None = None


COMMON: tuple[Key, ...] = (
    Key("log_back", "pageup", N_("Previous entry of the history"), only=WEB),
    Key("log_forward", "pagedown", N_("Next entry of the history"), only=WEB),
    Key("cursor_prev", "arrowleft", N_("Previous card")),
    Key("cursor_next", "arrowright", N_("Next card")),
    Key("cursor_first", "home", N_("First card")),
    Key("cursor_last", "end", N_("Last card")),
    Key("read_hand", "h", N_("Read your hand")),
    Key("status", "v", N_("Read the table: seats, counts and scores")),
    Key("recap", "r", N_("What happened since you last asked")),
)

KITTENS: tuple[Key, ...] = (
    Key("play", "p", N_("Play the card under the cursor, or the selected cards as a combo")),
    Key("play_enter", "enter", N_("Play (or confirm the order during Alter the Future)")),
    Key("select", "space", N_("Select or unselect the card under the cursor for a combo")),
    Key("nope", "n", N_("Play a Nope")),
    Key("no_nope", "x", N_("No Nope: let the card go (the window ends once everyone has answered)")),
    Key("always_no_nope", "shift+x", N_("Let every card go without a Nope from now on, or stop")),
    Key("draw", "d", N_("Draw a card (ends your turn)")),
    Key("defuse", "f", N_("Defuse the kitten, then choose where it goes")),
    Key("give", "g", N_("Give the card under the cursor (when asked for a card)")),
    Key("describe", "shift+d", N_("Describe the card under the cursor")),
    Key("turn", "t", N_("Whose turn it is and how many turns are left"), also=("shift+t",)),
    Key("counts", "e", N_("Cards in each hand, in the deck and in the discard pile"), also=("shift+e",)),
    Key("future", "shift+f", N_("Read the top cards of the deck you know")),
    Key("move_up", "shift+arrowup", N_("Alter the Future: move the card under the cursor up")),
    Key("move_down", "shift+arrowdown", N_("Alter the Future: move the card under the cursor down")),
)

BURRITO: tuple[Key, ...] = (
    Key("draw", "d", N_("Draw from your own pile (from a community pile once yours is empty)")),
    Key("draw_community", "c", N_("Draw from community pile 1")),
    Key("draw_community_2", "shift+c", N_("Draw from community pile 2")),
    Key("pass", "p", N_("Pass the card under the cursor to your left neighbour")),
    Key("pass_1", "1", N_("Pass the card in slot 1")),
    Key("pass_2", "2", N_("Pass the card in slot 2")),
    Key("pass_3", "3", N_("Pass the card in slot 3")),
    Key("pass_4", "4", N_("Pass the card in slot 4")),
    Key("pass_5", "5", N_("Pass the card in slot 5")),
    Key("set", "s", N_("Set three alike normal cards: those under the cursor, else the ones you hold")),
    Key("call", "b", N_("Call a fight: that of the battle card under the cursor, else the one you hold")),
    Key("describe", "shift+d", N_("Describe the card under the cursor")),
    Key("grab", "g", N_("Grab a burrito")),
    Key("throw", "t", N_("Throw at the nearest other fighter")),
    Key(
        "throw_at",
        "shift+t",
        N_("Throw at a fighter you choose: then press their seat number"),
        only=TERMINAL,
    ),
    Key("throw_1", "shift+1", N_("Throw at seat 1"), only=WEB),
    Key("throw_2", "shift+2", N_("Throw at seat 2"), only=WEB),
    Key("throw_3", "shift+3", N_("Throw at seat 3"), only=WEB),
    Key("throw_4", "shift+4", N_("Throw at seat 4"), only=WEB),
    Key("throw_5", "shift+5", N_("Throw at seat 5"), only=WEB),
    Key("throw_6", "shift+6", N_("Throw at seat 6"), only=WEB),
    Key("dodge", "x", N_("Dodge")),
    Key("catch", "space", N_("Catch (only in the catch window)")),
    Key("quiet", "m", N_("Quieter: stop or start telling other players' draws and passes"), only=TERMINAL),
)

TABLES: dict[str, tuple[Key, ...]] = {"burrito": COMMON + BURRITO, "kittens": COMMON + KITTENS}
"""Every game's keys, in the order the help lists them."""

CLIENTS = (WEB, TERMINAL)


def keys(game: str, client: str) -> tuple[Key, ...]:
    """The keys of `game` that `client` answers (KeyError for an unknown game)."""
    return tuple(k for k in TABLES[game] if k.only in (None, client))


def action_for(game: str, key: str, client: str) -> str | None:
    """The action `key` does in `game` on `client`: a key of its own first, then an `also`."""
    mine = keys(game, client)
    for k in mine:
        if k.key == key:
            return k.action
    for k in mine:
        if key in k.also:
            return k.action
    return None


def key_of(game: str, action: str) -> str:
    """The key of `action` in `game` (KeyError when the game has no such action)."""
    for k in TABLES[game]:
        if k.action == action:
            return k.key
    raise KeyError(action)


_NAMES = {
    "space": N_("Space"),
    "escape": N_("Escape"),
    "pageup": N_("Page Up"),
    "pagedown": N_("Page Down"),
    "arrowup": N_("Up arrow"),
    "arrowdown": N_("Down arrow"),
    "arrowleft": N_("Left arrow"),
    "arrowright": N_("Right arrow"),
    "home": N_("Home"),
    "end": N_("End"),
    "shift": N_("Shift"),
    "ctrl": N_("Ctrl"),
    "alt": N_("Alt"),
    "meta": N_("Meta"),
    "tab": N_("Tab"),
}


def key_label(key: str) -> str:
    """A key as people read it ("Shift+D", "Space", "Page Up"), in the current language: the
    same words as `keyLabel` in keys.js, so that both clients' help reads alike."""

    def part(name: str) -> str:
        if name == "enter":  # the key, not the lobby's button: a message with its own context
            return pgettext("key", "Enter")
        if name in _NAMES:
            return _(_NAMES[name])
        return name.upper()

    return "+".join(part(name) for name in key.split("+"))


def help_rows(game: str, client: str) -> list[tuple[str, str]]:
    """The help of `game` on `client`: (key as people read it, what it does), translated."""
    return [(key_label(k.key), _(k.label)) for k in keys(game, client)]


def as_json() -> dict[str, list[dict[str, Any]]]:
    """Every game's table for the page (labels as msgids: the page translates them)."""
    return {
        game: [
            {"action": k.action, "key": k.key, "also": list(k.also), "label": k.label, "only": k.only}
            for k in table
        ]
        for game, table in TABLES.items()
    }
