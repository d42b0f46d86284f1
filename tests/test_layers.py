"""The folder layout is the architecture: these imports keep it honest (CONTRIBUTING.md)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "cardroom"


def imports_of(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
    return {name for name in found if name.startswith("cardroom")}


def modules(folder: str) -> list[Path]:
    return sorted((PACKAGE / folder).rglob("*.py"))


@pytest.mark.parametrize("path", modules("games"), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_an_engine_imports_only_the_protocol_and_its_own_game(path: Path) -> None:
    own = ".".join(path.relative_to(PACKAGE.parent).parts[:3])
    allowed = ("cardroom.protocol", own)
    if path.parent == PACKAGE / "games":
        allowed = ("cardroom.protocol", "cardroom.games")
    strays = {name for name in imports_of(path) if not name.startswith(allowed)}
    assert not strays, f"{path.name} imports {strays}"


@pytest.mark.parametrize("folder", ["protocol", "games", "drive", "bots", "narrate", "replay", "guide"])
def test_nothing_below_the_server_or_clients_is_imported_by_the_pure_parts(folder: str) -> None:
    for path in modules(folder):
        strays = {n for n in imports_of(path) if n.startswith(("cardroom.server", "cardroom.clients"))}
        assert not strays, f"{path.relative_to(PACKAGE)} imports {strays}"


def test_a_room_does_not_import_its_lobby() -> None:
    """Issue 15: the lobby holds rooms; a room knows only the small interface it needs of its
    lobby (room.Lobby), so that any node's lobby can hold it."""
    for path in modules("server/room"):
        assert "cardroom.server.lobby" not in imports_of(path), path.name


LAYERS = {
    "room": ["state", "seats", "tell", "journal", "driver", "__init__"],
    "lobby": ["state", "players", "chat", "nodes", "tables", "takeover", "__init__"],
}
"""Issue 25: the server's room and lobby, each a package of modules, each module a class on the
one before (their __init__.py says what each holds), lowest first."""


@pytest.mark.parametrize(
    "path",
    [path for package in LAYERS for path in modules(f"server/{package}")],
    ids=lambda p: f"{p.parent.name}/{p.name}",
)
def test_a_layer_imports_only_the_layers_below_it(path: Path) -> None:
    """Each part of the room and the lobby reads on its own only while the arrows run one way:
    what members are told (tell) knows nothing of the driver, the seats nothing of telling, the
    players nothing of the tables, the state none of them. A new module takes its place here."""
    layers = LAYERS[path.parent.name]
    assert path.stem in layers, f"{path.name} is not placed among {layers}"
    package = f"cardroom.server.{path.parent.name}"
    allowed = {f"{package}.{name}" for name in layers[: layers.index(path.stem)]}
    own = {n for n in imports_of(path) if n == package or n.startswith(f"{package}.")}
    assert own <= allowed, f"{path.name} imports {own - allowed}: only {sorted(allowed)} are below it"


def test_the_cluster_stands_below_the_server() -> None:
    """The bus and leases are the server's tools: they import nothing of the server."""
    for path in modules("cluster"):
        strays = {n for n in imports_of(path) if n.startswith(("cardroom.server", "cardroom.clients"))}
        assert not strays, f"{path.relative_to(PACKAGE)} imports {strays}"
