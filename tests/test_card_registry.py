"""The card registries (issue 25): each game's cards are one record each, and what the docs
tell a player about the deck is what the engine deals. The deck table of the kittens rules,
the card counts of the burrito rules and the card lists of the scenario format are read here
and compared with the registry, so a card added, removed or recounted fails until the docs say
so too."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cardroom.games.burrito import cards as burrito
from cardroom.games.burrito.options import MAX_PLAYERS as BURRITO_MAX
from cardroom.games.kittens import cards as kittens
from cardroom.games.kittens.deal import new_state
from cardroom.games.kittens.options import Options
from cardroom.help import as_text, render
from cardroom.i18n import LANGUAGES, _, use_language
from tests.kittens.helpers import play, table

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
NUMBERS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9}


def prose(path: Path) -> str:
    """The text of a doc with its line breaks and runs of spaces read as single spaces."""
    return " ".join(path.read_text(encoding="utf-8").split())


def section(path: Path, heading: str) -> str:
    """The prose of the section of `path` under `heading` (up to the next heading of its level)."""
    text = path.read_text(encoding="utf-8")
    level = heading.split(" ")[0]
    start = text.index(heading + "\n")
    end = text.find(f"\n{level} ", start + len(heading))
    return " ".join(text[start : end if end >= 0 else None].split())


def ids(listed: str) -> list[str]:
    """The card identifiers of a list written `a`, `b` or `a, b`."""
    return re.findall(r"[a-z_]+", listed)


# -- Exploding Kittens: docs/rules/kittens.md#the-deck -------------------------------------------


def deck_table() -> dict[str, list[int]]:
    """The deck table of docs/rules/kittens.md#the-deck: each row's name and its nine numbers."""
    rows: dict[str, list[int]] = {}
    for line in (DOCS / "rules" / "kittens.md").read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 10 and all(c.isdigit() for c in cells[1:]):
            rows[cells[0].strip("`*")] = [int(c) for c in cells[1:]]
    return rows


def test_the_deck_table_of_the_rules_has_a_row_per_card_with_its_copies_at_every_table_size() -> None:
    """docs/rules/kittens.md#the-deck: every card of the registry, in its order, with the copies
    a game of 2 to 10 players deals, and the two totals a player can check."""
    rows = deck_table()
    assert rows.pop("card") == list(kittens.PLAYER_COUNTS), "the header names the player counts"
    totals = {name: rows.pop(name) for name in ("all cards", "deck at the start")}
    assert list(rows) == list(kittens.CARDS)
    for card in kittens.REGISTRY:
        assert rows[card.id] == [card.copies_for(n) for n in kittens.PLAYER_COUNTS], card.id
    counts = [kittens.deck_counts(n) for n in kittens.PLAYER_COUNTS]
    assert totals["all cards"] == [sum(c.values()) for c in counts]
    assert totals["deck at the start"] == [
        sum(c.values()) - n * (1 + kittens.HAND_SIZE)
        for n, c in zip(kittens.PLAYER_COUNTS, counts, strict=True)
    ]


def test_the_rules_say_how_many_spare_defuses_lie_in_the_deck() -> None:
    """docs/rules/kittens.md#the-deck: one Defuse dealt to each player, and the spares in the
    deck as the prose says (2 for 2 to 5 players, ...)."""
    groups: list[tuple[int, int, int]] = []  # (spares, first player count, last player count)
    for n in kittens.PLAYER_COUNTS:
        spares = kittens.CARD["defuse"].copies_for(n) - n
        if groups and groups[-1][0] == spares:
            groups[-1] = (spares, groups[-1][1], n)
        else:
            groups.append((spares, n, n))
    parts = [
        f"{spares} for {low} {'and' if high == low + 1 else 'to'} {high}"
        if high > low
        else f"{spares} for {low}"
        for spares, low, high in groups
    ]
    parts[0] += " players"
    assert f"The spare Defuses in the deck ({', '.join(parts)})" in prose(DOCS / "rules" / "kittens.md")


def test_a_game_deals_what_the_deck_table_says() -> None:
    """A fresh game of every size holds, in hands and deck, exactly the table's copies."""
    for n in kittens.PLAYER_COUNTS:
        state = new_state(n, Options(), seed=n)
        held = [card for hand in state.hands for card in hand] + state.deck
        assert {card: held.count(card) for card in kittens.CARDS} == kittens.deck_counts(n), n


def test_the_scenario_format_lists_every_kittens_card() -> None:
    """docs/scenarios.md, Exploding Kittens: the identifiers a scenario's deal may use are the
    registry's, in its order."""
    listed = re.search(r"Cards: `([^`]*)`", section(DOCS / "scenarios.md", "## Exploding Kittens"))
    assert listed is not None
    assert ids(listed.group(1)) == list(kittens.CARDS)


def test_each_kittens_card_does_what_its_text_says_it_does() -> None:
    """The registry's effects and the English texts agree where a player reads numbers: an
    attack's turns, how many cards a See or Alter the Future shows."""
    words = {1: "one", 2: "two", 3: "three", 5: "five"}
    for card in kittens.REGISTRY:
        if card.effect is kittens.Effect.ATTACK:
            assert f"plays {words[card.n]} turns" in card.text, card.id
        if card.effect in (kittens.Effect.LOOK, kittens.Effect.REORDER):
            assert f"top {words[card.n]} cards" in card.text or (card.n == 1 and "top card" in card.text)
        assert card.targets == ("you choose" in card.text), card.id


def test_a_look_at_the_future_shows_as_many_cards_as_the_card_says() -> None:
    """See the Future shows three cards, Super See the Future five: each card that looks at the
    top of the deck shows its record's number of cards, to its player only."""
    deck = [*kittens.CATS, *kittens.CATS]
    for card in kittens.REGISTRY:
        if card.effect is not kittens.Effect.LOOK:
            continue
        t = table([[card.id], ["skip"]], deck)
        seen = [e for e in play(t, 0, card.id) if e["event"] == "future"]
        assert [len(e["cards"]) for e in seen] == [card.n], card.id
        assert seen[0]["cards"] == deck[: card.n]


# -- Throw Throw Burrito: docs/rules/burrito.md#table-and-cards ---------------------------------


def test_the_burrito_rules_count_the_cards_of_a_deck_kind_by_kind() -> None:
    """docs/rules/burrito.md#table-and-cards: the normal kinds and the battle kinds, how many of
    each in a deck, their identifiers, and the deck's size for one and two decks."""
    text = section(DOCS / "rules" / "burrito.md", "## Table and cards")
    found = re.search(
        r"The deck: (\w+) normal kinds of (\d+) cards \(([^)]*)\) and (\w+) battle kinds of (\d+) cards \(([^)]*)\)",
        text,
    )
    assert found is not None
    normal_kinds, normal_copies, normal, battle_kinds, battle_copies, battle = found.groups()
    assert ids(normal) == list(burrito.NORMAL) and NUMBERS[normal_kinds] == len(burrito.NORMAL)
    assert ids(battle) == list(burrito.BATTLE) and NUMBERS[battle_kinds] == len(burrito.BATTLE)
    assert {burrito.COPIES[card] for card in burrito.NORMAL} == {int(normal_copies)}
    assert {burrito.COPIES[card] for card in burrito.BATTLE} == {int(battle_copies)}
    assert f"one deck of {burrito.DECK_SIZE} cards" in text
    assert f"{2 * burrito.DECK_SIZE} cards" in text
    assert f"7 to {BURRITO_MAX} players play with two decks" in text
    assert len(burrito.deck()) == burrito.DECK_SIZE and len(burrito.deck(2)) == 2 * burrito.DECK_SIZE


def test_the_scenario_format_points_to_the_burrito_card_list() -> None:
    """docs/scenarios.md, Throw Throw Burrito: its link to the card list leads to the section
    of the rules that names every card."""
    link = re.search(
        r"\[the card list\]\(rules/burrito\.md#([a-z-]+)\)",
        section(DOCS / "scenarios.md", "## Throw Throw Burrito"),
    )
    assert link is not None
    headings = re.findall(
        r"^(#+ .+)$", (DOCS / "rules" / "burrito.md").read_text(encoding="utf-8"), re.MULTILINE
    )
    anchors = {
        re.sub(r"[^a-z0-9 -]", "", h.lstrip("#").strip().lower()).replace(" ", "-"): h for h in headings
    }
    assert link.group(1) in anchors
    listed = section(DOCS / "rules" / "burrito.md", anchors[link.group(1)])
    assert all(f"`{card}`" in listed for card in burrito.CARDS)


def test_only_battle_cards_call_a_fight_and_their_sets_are_worth_two() -> None:
    """docs/rules/burrito.md#scoring: a set of normal cards scores 1, a battle set 2; the two
    Brawl colours both call a Brawl."""
    for card in burrito.REGISTRY:
        assert card.points == (2 if card.fight else 1), card.id
        assert (card.two_players != "") == card.battle, card.id
    assert burrito.FIGHT_OF == {"brawl_a": "brawl", "brawl_b": "brawl", "war": "war", "duel": "duel"}


# -- Both games: the rules page a player reads (cardroom/help) ------------------------------------


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game", ["kittens", "burrito"])
def test_the_rules_page_names_every_card_in_every_language(game: str, lang: str) -> None:
    """Issue 25: the page's card names come from the registry, so a card added is named on its
    game's rules page (Rules dialog, `cardroom rules`) with no sentence written for it."""
    registry = kittens.REGISTRY if game == "kittens" else burrito.REGISTRY
    page = as_text(render(game, lang))
    with use_language(lang):
        missing = [card.id for card in registry if _(card.name) not in page]
    assert missing == [], f"the {lang} rules page of {game} does not name {missing}"
