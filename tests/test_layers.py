"""The folder layout is the architecture: these imports keep it honest (CONTRIBUTING.md)."""

from __future__ import annotations

import ast
import re
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
    "room": ["state", "seats", "fanout", "tell", "journal", "driver", "__init__"],
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


STATIC = PACKAGE / "clients" / "web" / "static"
PAGE_MODULE_LINES = 500
IMPORT_FROM = re.compile(
    r"""^(?:import|export)\b[^;"'`()=]*?\bfrom\s*["']([^"']+)["']|^import\s*["']([^"']+)["']""", re.M
)


def page_imports(path: Path) -> set[str]:
    """The modules `path` imports (`import ... from "./x.js"`, `import "./x.js"`), by file name."""
    found = {a or b for a, b in IMPORT_FROM.findall(path.read_text(encoding="utf-8"))}
    strays = {name for name in found if not re.fullmatch(r"\./[\w-]+\.js", name)}
    assert not strays, f"{path.name} imports {strays}: the page's modules import each other as ./name.js"
    return {name[2:] for name in found}


def page_modules() -> dict[str, set[str]]:
    return {path.name: page_imports(path) for path in sorted(STATIC.glob("*.js"))}


def import_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """A cycle of imports in `graph` (module -> the modules it imports), as a path, or None."""
    done: set[str] = set()

    def visit(module: str, path: list[str]) -> list[str] | None:
        if module in path:
            return [*path[path.index(module) :], module]
        if module in done:
            return None
        for imported in sorted(graph.get(module, ())):
            cycle = visit(imported, [*path, module])
            if cycle:
                return cycle
        done.add(module)
        return None

    for module in sorted(graph):
        cycle = visit(module, [])
        if cycle:
            return cycle
    return None


def test_the_page_modules_import_one_way() -> None:
    """Issue 25: the page's modules (ES modules, no bundler) import one way, leaf helpers (ui.js,
    i18n.js, cards.js) at the bottom and app.js, which index.html loads, on top: a module reads
    on its own, and a lower one that needs a higher one is given it (an init's context), never
    imports it. Read from each module's import lines."""
    graph = page_modules()
    assert "game.js" in graph["app.js"] and "ui.js" in graph["game.js"], "the import lines were not read"
    missing = {
        f"{module} -> {name}" for module, names in graph.items() for name in names if name not in graph
    }
    assert not missing, f"imports of no module: {sorted(missing)}"
    cycle = import_cycle(graph)
    assert cycle is None, "an import cycle: " + " -> ".join(cycle or [])
    assert not [module for module, names in graph.items() if "app.js" in names], "app.js is imported"


def test_the_cycle_check_sees_a_cycle() -> None:
    ring = {"a.js": {"b.js"}, "b.js": {"c.js"}, "c.js": {"a.js"}}
    assert import_cycle(ring) == ["a.js", "b.js", "c.js", "a.js"]
    assert import_cycle({"a.js": {"b.js", "c.js"}, "b.js": {"c.js"}, "c.js": set()}) is None


def test_no_page_module_is_over_500_lines() -> None:
    """Issue 25: each of the page's modules holds one responsibility and can be read whole; app.js
    and game.js had grown to 1,523 and 1,196 lines. 500 lines is the bound the split honours (the
    longest module, table.js, the felt's drawing and its motion, is about 450): a module that
    outgrows it is split by what it holds, as they were, not the bound raised."""
    lengths = {path.name: len(path.read_text(encoding="utf-8").splitlines()) for path in STATIC.glob("*.js")}
    assert len(lengths) > 20, lengths
    long = {name: n for name, n in lengths.items() if n > PAGE_MODULE_LINES}
    assert not long, f"over {PAGE_MODULE_LINES} lines: {long}"
