"""Stored games played again: frame by frame for a viewer (`each_frame`, `frames`, a `page` of them), or as a scenario file
that checks itself (`to_scenario`).

A stored game is a `Record` (options, seed or deal, every move with its time), so nothing but
the record is needed: the table is rebuilt by the same engine, and what each seat heard is
narrated by the same `Narrator` the server used.
"""

from __future__ import annotations

from cardroom.replay.export import to_scenario
from cardroom.replay.frames import Frame, Page, each_frame, frames, page

__all__ = ["Frame", "Page", "each_frame", "frames", "page", "to_scenario"]
