"""The account view on the web page (issue 22), keyboard only, against a real server: change the
password (a wrong current one refused beside its field and said at once; the other sessions
end, this page stays logged in), the data to download, and deleting the account (back to the
entry form, said; the name kept from everyone)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import BrowserContext, Page

from tests.server.live import LiveServer, run_server
from tests.server.test_api import call
from tests.web.accounts import fetch, me, open_page, register
from tests.web.keyboard import said, tab_to
from tests.web.pointer import shot

FIRST, SECOND = "marta-first-secret", "marta-second-secret"


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    with run_server({"CARDROOM_DB": "memory"}) as live:
        yield live


def wait_said(page: Page, text: str, region: str, times: int = 1) -> None:
    """Until `text` was said `times` times in `region`."""
    page.wait_for_function(
        "([text, region, times]) => window.__said.filter((s) => s.text === text && s.region === region)"
        ".length >= times",
        arg=[text, region, times],
    )


def fill(page: Page, selector: str, text: str) -> None:
    tab_to(page, selector)
    page.keyboard.press("Control+a")
    page.keyboard.type(text)


def test_changing_the_password_and_deleting_the_account_on_the_page(
    context: BrowserContext, server: LiveServer
) -> None:
    page, errors = open_page(context, server)
    register(page, "Marta", FIRST)
    elsewhere = call(server, "POST", "/api/login", {"name": "Marta", "password": FIRST})[1]["token"]

    tab_to(page, "#nav-account")
    page.keyboard.press("Enter")
    page.wait_for_function("document.activeElement && document.activeElement.id === 'account-title'")
    assert page.get_attribute("#nav-account", "aria-current") == "page"
    shot(page, "account")

    # A wrong current password: refused beside the form, said at once, nothing changed.
    fill(page, "#password-old", "not-martas-password")
    fill(page, "#password-new", SECOND)
    page.keyboard.press("Enter")
    wait_said(page, "That is not your current password.", "assertive")
    assert page.text_content("#password-error") == "That is not your current password."
    assert page.evaluate("document.activeElement.id") == "password-old"
    assert call(server, "GET", "/api/me", token=elsewhere)[0] == 200

    fill(page, "#password-old", FIRST)
    fill(page, "#password-new", SECOND)
    page.keyboard.press("Enter")
    changed = "Your password is changed, and your other sessions have ended."
    wait_said(page, changed, "polite")
    assert page.text_content("#account-result") == changed
    assert call(server, "GET", "/api/me", token=elsewhere)[0] == 401  # the other session ended
    assert me(page, server)["account"]["name"] == "Marta"  # this one stays
    assert call(server, "POST", "/api/login", {"name": "Marta", "password": SECOND})[0] == 200

    # The data to download: the link is the export, with this page's cookie.
    tab_to(page, "#export-link")
    exported = fetch(page, server.url + str(page.get_attribute("#export-link", "href"))).json()
    assert exported["account"]["name"] == "Marta"

    # Deleting the account asks its password; then the page is back at the entry form.
    fill(page, "#delete-password", FIRST)
    page.keyboard.press("Enter")
    wait_said(page, "That is not your current password.", "assertive", times=2)
    assert page.text_content("#delete-error") == "That is not your current password."
    assert page.evaluate("document.activeElement.id") == "delete-password"
    fill(page, "#delete-password", SECOND)
    page.keyboard.press("Enter")
    page.wait_for_function("document.activeElement && document.activeElement.id === 'enter-title'")
    wait_said(page, "Your account is deleted. Goodbye!", "polite")
    assert page.is_hidden("#nav-account") and page.is_hidden("#logout-btn")
    assert fetch(page, server.url + "/api/me").status == 401
    status, answer = call(server, "POST", "/api/register", {"name": "marta", "password": SECOND})
    assert (status, answer["error"]) == (409, "name_taken")
    assert not any("expired" in s["text"] for s in said(page))  # the socket's close was expected
    assert errors == []
