"""The create form's advanced options say each option's default ("Flight time (ms), default
2000"): the number a player reads is the one the table gets when they leave the field empty,
and every number option of a game has its field."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from cardroom.games.burrito.options import Options as BurritoOptions
from cardroom.games.kittens.options import Options as KittensOptions

OPTIONS = Path(__file__).parents[2] / "cardroom" / "clients" / "web" / "static" / "options.js"
ENGINES = {"burrito": BurritoOptions, "kittens": KittensOptions}


def form_fields(game: str) -> dict[str, int]:
    """The page's fields for `game`: option name -> the default its label says."""
    source = OPTIONS.read_text(encoding="utf-8")
    block = re.search(rf"\n  {game}: \[\n(.*?)\n  \],", source, re.S)
    assert block is not None, f"no options of {game} in options.js"
    return {name: int(value) for name, value in re.findall(r'\["(\w+)", (\d+), N_\(', block.group(1))}


@pytest.mark.parametrize("game", sorted(ENGINES))
def test_each_field_says_the_default_the_table_gets(game: str) -> None:
    fields = form_fields(game)
    defaults = {f.name: f.default for f in dataclasses.fields(ENGINES[game]) if isinstance(f.default, int)}
    numbers = {name: value for name, value in defaults.items() if not isinstance(value, bool)}
    assert fields == {name: numbers.get(name) for name in fields}, "a label's default is not the table's"
    assert set(numbers) - set(fields) == set(), "a number option has no field in the form"
