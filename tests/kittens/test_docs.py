"""The rules documentation: every reading a test or module links to has its heading."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "rules" / "kittens.md"


def anchors() -> set[str]:
    heads = re.findall(r"^#+ (.+)$", DOC.read_text(encoding="utf-8"), re.MULTILINE)
    return {re.sub(r"[^a-z0-9 -]", "", h.lower()).replace(" ", "-") for h in heads}


def test_every_link_to_the_rules_doc_has_its_heading() -> None:
    """Every reading linked from code or tests has a heading in docs/rules/kittens.md."""
    known = anchors()
    sources = [
        *ROOT.joinpath("cardroom", "games", "kittens").glob("*.py"),
        *Path(__file__).parent.glob("*.py"),
    ]
    sources += list(Path(__file__).parent.joinpath("scenarios").glob("*.json"))
    links = {
        m
        for path in sources
        for m in re.findall(r"kittens\.md#([a-z0-9-]+)", path.read_text(encoding="utf-8"))
    }
    assert links, "tests link to their readings"
    assert links <= known, links - known


def test_every_card_is_documented() -> None:
    """Every card of 003 is described in docs/rules/kittens.md."""
    from cardroom.games.kittens.cards import CARDS

    text = DOC.read_text(encoding="utf-8")
    assert all(f"`{card}`" in text for card in CARDS)


def _table_rows() -> dict[str, list[int]]:
    """The deck table of docs/rules/kittens.md#the-deck: each row's name and its nine numbers."""
    rows: dict[str, list[int]] = {}
    for line in DOC.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 10 and all(c.isdigit() for c in cells[1:]):
            rows[cells[0].strip("`*")] = [int(c) for c in cells[1:]]
    return rows


def test_the_deck_table_in_the_doc_is_the_one_the_engine_deals() -> None:
    """docs/rules/kittens.md#the-deck: every copy count, both totals, per player count 2 to 10."""
    from cardroom.games.kittens.cards import CARDS, HAND_SIZE, deck_counts
    from cardroom.games.kittens.deal import MAX_PLAYERS, MIN_PLAYERS

    rows = _table_rows()
    counts = {n: deck_counts(n) for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)}
    assert rows.pop("card") == list(counts), "the header names the player counts"
    assert set(rows) == {*CARDS, "all cards", "deck at the start"}
    for card in CARDS:
        assert rows[card] == [counts[n][card] for n in counts], card
    assert rows["all cards"] == [sum(counts[n].values()) for n in counts]
    assert rows["deck at the start"] == [sum(counts[n].values()) - n * (1 + HAND_SIZE) for n in counts]


def test_the_doc_says_how_many_spare_defuses_the_engine_puts_in_the_deck() -> None:
    """docs/rules/kittens.md#the-deck: the prose on spare Defuses agrees with SPARE_DEFUSES."""
    from cardroom.games.kittens.cards import SPARE_DEFUSES
    from cardroom.games.kittens.deal import MIN_PLAYERS

    groups: list[tuple[int, int, int]] = []  # (spares, first player count, last player count)
    for i, spares in enumerate(SPARE_DEFUSES):
        n = MIN_PLAYERS + i
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
    said = " ".join(DOC.read_text(encoding="utf-8").split())
    assert f"The spare Defuses in the deck ({', '.join(parts)})" in said
