"""The hot path of simulated Exploding Kittens games, and of a server's burrito tables, compiled
to C with mypyc, when it can be.

Search and simulation play many thousands of games (issue 16): the kittens engine, the driver,
the kittens bots and the view protocol they share run two to three times faster compiled. A
server tells every batch of a table to each of its members (issue 15): the burrito table's views
and the narration, compiled, cut the CPU of a six-member batch by about a quarter (`Room._events`
timed over seeded games: 94 to 71 us). The compiled modules are the same source files, strict-typed
already, so they play exactly the same games and say exactly the same words; the Python files stay
the one truth.

`python -m cardroom.native_build` (run by `make setup`) compiles `MODULES` into `build/native` with
a manifest of each source's SHA-256. At import, `cardroom` calls `use()`: the compiled modules
are loaded in place of the sources only if every source is byte for byte the one compiled, and
for this interpreter; otherwise (an edited file, no compiler, another Python) everything runs
from the sources as before, so a stale build can never hide an edit. `CARDROOM_PURE=1` turns
the compiled modules off (to time or test the sources alone).
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

PACKAGE = Path(__file__).resolve().parent
ROOT = PACKAGE.parent
BUILD = ROOT / "build" / "native"

MODULES = (
    "cardroom.protocol.table",
    "cardroom.games.kittens.state",
    "cardroom.games.kittens.memory",
    "cardroom.games.kittens.combos",
    "cardroom.games.kittens.checks",
    "cardroom.games.kittens.view",
    "cardroom.games.kittens.table",
    "cardroom.games.kittens.legal",
    "cardroom.drive.virtual",
    "cardroom.bots.kittens_random",
    "cardroom.games.burrito.table",
    "cardroom.games.burrito.view",
    "cardroom.games.burrito.fight",
    "cardroom.narrate._common",
    "cardroom.narrate.burrito",
    "cardroom.narrate.narrator",
    "cardroom.narrate.speech",
    "cardroom.server.room.fanout",
)
"""What a simulated kittens game spends its time in (`python -m bench.layers`), then what a
server's burrito batch does (the py-spy profile of `python -m bench.load`)."""


def _source(module: str) -> Path:
    return ROOT.joinpath(*module.split(".")).with_suffix(".py")


def _digest(module: str) -> str:
    try:
        return hashlib.sha256(_source(module).read_bytes()).hexdigest()
    except OSError:
        return ""


def _suffix() -> str:
    return importlib.machinery.EXTENSION_SUFFIXES[0]


class _Finder(importlib.abc.MetaPathFinder):
    """Finds the compiled modules (and the library they share) in the build folder."""

    def __init__(self, files: dict[str, Path]) -> None:
        self.files = files

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        file = self.files.get(fullname)
        if file is None:
            return None
        loader = importlib.machinery.ExtensionFileLoader(fullname, str(file))
        return importlib.util.spec_from_file_location(fullname, file, loader=loader)


def current(folder: Path = BUILD) -> dict[str, Path] | None:
    """The compiled files by module name, if `folder` holds a build of today's sources for this
    interpreter; None otherwise."""
    try:
        manifest = json.loads((folder / "manifest.json").read_text())
    except (OSError, ValueError):
        return None
    if manifest.get("suffix") != _suffix() or sorted(manifest.get("modules", {})) != sorted(MODULES):
        return None
    files: dict[str, Path] = {}
    for module, digest in manifest["modules"].items():
        file = folder / (module + _suffix())
        if digest != _digest(module) or not file.is_file():
            return None
        files[module] = file
    shared = folder / (manifest["shared"] + _suffix())
    if not shared.is_file():
        return None
    files[manifest["shared"]] = shared
    return files


def use(folder: Path = BUILD) -> bool:
    """Load the compiled modules from now on, when `folder` holds a current build (see the
    module's docstring); whether it does. Called by `cardroom/__init__.py` before anything else
    of the package is imported."""
    if os.environ.get("CARDROOM_PURE"):
        return False
    if any(isinstance(f, _Finder) for f in sys.meta_path):
        return True
    files = current(folder)
    if files is None:
        return False
    sys.meta_path.insert(0, _Finder(files))
    return True


def active() -> list[str]:
    """The modules of `MODULES` running compiled in this process."""
    return [m for m in MODULES if m in sys.modules and not str(sys.modules[m].__file__).endswith(".py")]
