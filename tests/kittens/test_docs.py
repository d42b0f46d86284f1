"""The rules documentation: every reading a test or module links to has its heading (the deck
table is checked against the card registry in tests/test_card_registry.py)."""

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
