"""The lobby with the keyboard: a private table joined with its code, kick, add a bot, chat."""

from __future__ import annotations

from playwright.sync_api import Page

from tests.web.keyboard import create_table, enter_lobby, said, tab_to


def test_a_private_table_is_joined_with_its_code_then_the_host_kicks_and_adds_a_bot(
    page: Page, guest: Page
) -> None:
    enter_lobby(page, "Hostess")
    create_table(page, "kittens", seats=3, bots=0, level="easy", private=True)
    code = (page.text_content("#table-code") or "").rsplit(" ", 1)[-1]
    assert len(code) == 10  # 40 bits: docs/security.md

    enter_lobby(guest, "Guest")
    guest.wait_for_selector("#tables-body tr input")
    tab_to(guest, "#tables-body input")
    guest.keyboard.type(code)
    tab_to(guest, "#tables-body button")  # "Join the table of Hostess"
    assert guest.evaluate("document.activeElement.textContent") == "Join the table of Hostess"
    guest.keyboard.press("Enter")
    guest.wait_for_function("document.activeElement && document.activeElement.id === 'table-title'")
    page.wait_for_function("document.querySelector('#seats').textContent.includes('Guest')")

    tab_to(guest, "#table-chat-input")
    guest.keyboard.type("hello host")
    guest.keyboard.press("Enter")
    page.wait_for_function("window.__said.some(x => x.text === 'Guest says: hello host')")

    tab_to(page, "#kick-1")
    assert page.evaluate("document.activeElement.textContent") == "Remove Guest"
    page.keyboard.press("Enter")
    guest.wait_for_function(
        "window.__said.some(x => x.region === 'assertive' && x.text.includes('removed you'))"
    )
    guest.wait_for_function("document.querySelector('#table-state').textContent.includes('You are watching')")

    tab_to(page, "#add-bot-btn")
    page.keyboard.press("Enter")
    page.wait_for_function("document.querySelector('#seats').textContent.includes('bot, ')")
    assert "bot, normal" in (page.text_content("#seats") or "")
    assert any(x["text"] == "Guest says: hello host" for x in said(page))
