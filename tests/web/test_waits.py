"""A wait in these tests waits: Playwright's `wait_for_function` takes the promise an async
predicate returns for a true value at once, so such a wait would pass before what it waits for
(a profile save was read back before it landed, on a busy run). Waits on the server's answers
poll from the test instead (`accounts.api_until`)."""

from __future__ import annotations

import ast
from pathlib import Path

from playwright.sync_api import Page

TESTS = Path(__file__).resolve().parents[1]


def async_waits(source: str) -> list[int]:
    """The lines of `source` where `wait_for_function` is given an async function's text."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "wait_for_function"
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
            and node.args[0].value.lstrip().startswith("async")
        ):
            found.append(node.lineno)
    return found


def test_playwright_takes_an_async_predicate_for_true_at_once(page: Page) -> None:
    """Why the check below exists: a predicate that is never true, written async, ends the wait."""
    page.wait_for_function("async () => false", timeout=2000)


def test_no_test_waits_on_an_async_predicate() -> None:
    strays = {
        str(path.relative_to(TESTS)): lines
        for path in sorted(TESTS.rglob("*.py"))
        if path != Path(__file__) and (lines := async_waits(path.read_text()))
    }
    assert async_waits("page.wait_for_function(\"async () => (await fetch('/')).ok\")") == [1]
    assert strays == {}, f"waits that wait for nothing: {strays}"
