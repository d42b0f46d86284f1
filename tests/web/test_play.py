"""Whole games through the real server and a real browser, played with the keyboard alone.

The player reacts to what the page announces and shows, as a person would: their turn, a
kitten to defuse, a burrito flying at them, the catch window. Every key goes through
page.keyboard; the live regions are read as they change (conftest's MutationObserver).
"""

from __future__ import annotations

import time
from collections import Counter
from typing import Any

from playwright.sync_api import Page

from tests.web.keyboard import (
    STATE,
    create_table,
    enter_lobby,
    play_kittens_to_the_end,
    said,
    said_once_and_logged,
    start_game,
    state,
    wait_for_change,
)

KITTENS_FAST = {"nope_window_ms": 300, "choose_ms": 3000, "bot_think_ms": 0}
BURRITO_FAST = {
    "bruises": 2,
    "countdown_ms": 300,
    "flight_ms": 1500,
    "catch_window_ms": 700,
    "duel_beat_ms": 300,
    "fight_timeout_ms": 5000,
    "between_rounds_ms": 1000,
}


def test_a_whole_exploding_kittens_game_with_the_keyboard_only(page: Page) -> None:
    enter_lobby(page, "Kit")
    create_table(page, "kittens", seats=2, bots=1, level="hard", options=KITTENS_FAST)
    start_game(page)
    play_kittens_to_the_end(page)
    # Said once the lines before it have been (polite lines wait for each assertive one): on this
    # fast table the polite lines about the player wait up to half a minute behind the
    # assertive ones (seen: 29 s), so the end may come that late.
    page.wait_for_function("window.__said.some(x => x.text.startsWith('Game over'))", timeout=60_000)
    lines = said(page)
    assert {"region": "assertive", "text": "Your turn."} in [
        {"region": x["region"], "text": x["text"]} for x in lines
    ]
    # Our draw is said politely, the card named; a kitten drawn, by the defuse prompt alone,
    # assertively (a short game's draws can all be kittens).
    assert any(
        x["region"] == "polite" and x["text"].startswith(("You drew ", "You draw ")) for x in lines
    ) or any(
        x["region"] == "assertive" and x["text"].startswith(("DEFUSE NOW!", "Exploding Kitten! No Defuse"))
        for x in lines
    )
    assert any(x["text"].startswith("Game over") for x in lines)
    said_once_and_logged(page)


def _cursor_to(page: Page, index: int) -> None:
    page.keyboard.press("Home")
    for _ in range(index):
        page.keyboard.press("ArrowRight")


BATTLE = ("brawl_a", "brawl_b", "war", "duel")


def _card_play(page: Page) -> bool:
    """Call a battle triple or set a normal one, draw up to five, else pass the least useful card.

    The player keeps battle cards (fights are what end a round) and plays at a person's pace.
    """
    page.wait_for_timeout(200)
    s = state(page)
    v = s["view"]
    if v is None or v["phase"] != "play" or v["fight"] is not None:
        return False
    hand: list[str] = v["hand"]
    counts = Counter(hand)
    for card, n in counts.items():
        if n >= 3:
            _cursor_to(page, hand.index(card))
            page.keyboard.press("b" if card in BATTLE else "s")
            return True
    if len(hand) < 5:
        page.keyboard.press("d")
        return True
    worth = [counts[c] + (1 if c in BATTLE else 0) for c in hand]
    page.keyboard.press(str(worth.index(min(worth)) + 1))
    return True


ROUND_OVER_IN_HISTORY = (
    "[...document.querySelectorAll('#log p')].some(p => p.textContent.startsWith('Round 1 is over'))"
)
LOOK = f"""([n, ended]) => ({{said: window.__said.slice(n), ended: ended || {ROUND_OVER_IN_HISTORY},
  table: ({STATE})()}})"""
"""One look a loop: the lines said since the `n` already read, whether the history has the round's
end yet, the table (a look in several reads, all said lines each time, cost a core's fifth)."""
# A tie-break duel holds the round's end until it is decided (a fight of this table's: at most a
# few seconds), and a busy machine slows the page: without the round's end clearing the queue it
# was not said in 30 s.
ROUND_END_SAID_S = 15


def test_a_whole_burrito_round_with_the_keyboard_only(page: Page) -> None:
    """Two players: every fight is between them, so burritos fly at the person at the keyboard."""
    enter_lobby(page, "Bea")
    create_table(page, "burrito", seats=2, bots=1, level="normal", options=BURRITO_FAST)
    start_game(page)
    deadline = time.monotonic() + 240  # 37 s on a quiet machine; over 150 s twice in busy full runs
    catches = 0
    fight_key = None
    fight_seen = 0.0
    incoming_before = 0
    round_over = False
    ended_at = None  # when "Round 1 is over." reached the history
    lines: list[dict[str, Any]] = []
    while time.monotonic() < deadline:
        look = page.evaluate(LOOK, [len(lines), ended_at is not None])
        lines += look["said"]
        round_over = round_over or any(x["text"].startswith("Round 1 is over") for x in lines)
        if ended_at is None and look["ended"]:
            ended_at = time.monotonic()
        # Said while it is news, however fast the player's keys went before it: the lines about
        # the round still waiting go (docs/speech.md, "What waits and what is dropped").
        assert round_over or ended_at is None or time.monotonic() - ended_at < ROUND_END_SAID_S, (
            f"the round's end, in the history for {ROUND_END_SAID_S} s, not said; still waiting "
            f"{page.evaluate('window.cardroom.pending()')}"
        )
        incoming = sum(1 for x in lines if x["region"] == "assertive" and x["text"].startswith("Incoming"))
        if round_over and incoming:
            break
        s = look["table"]
        v = s["view"]
        if v is None or s["state"] != "playing":
            page.wait_for_timeout(30)
            continue
        you = s["you"]
        cues = sum(1 for x in lines if x["region"] == "assertive" and x["text"] == "Catch!")
        f = v["fight"]
        acted = False
        if f is not None and (f["started_at"], tuple(f["fighters"])) != fight_key:
            fight_key = (f["started_at"], tuple(f["fighters"]))
            fight_seen = time.monotonic()
            incoming_before = incoming
        if s["choosing"]:
            page.keyboard.press("Enter")
            acted = True
        elif cues > catches:
            catches = cues
            page.keyboard.press("Space")  # "Catch!": the catch window is open
            acted = True
        elif f is not None and you in f["fighters"]:
            go = f["go_at"] is None or v["now"] >= f["go_at"]
            at_me = any(fl["target"] == you for fl in f["flights"])
            patient = incoming > incoming_before or time.monotonic() - fight_seen > 2.0
            if at_me or not go:
                pass  # wait for the catch window, or for "Burrito!"
            elif not f["holding"][you] and f["free"] > 0:
                page.keyboard.press("g")
                acted = True
            elif f["holding"][you] and patient:
                page.keyboard.press("t")
                acted = True
        elif v["phase"] == "play" and f is None:
            acted = _card_play(page)
        if acted:
            wait_for_change(page, s["v"], s["choosing"], timeout_ms=1000)
        else:  # until the table changes or a line is said ("Catch!"), or a quarter second
            wait_for_change(page, s["v"], s["choosing"], timeout_ms=250, said=len(lines))
    if not round_over:
        v = state(page)["view"]
        shown = {k: v.get(k) for k in ("phase", "scores", "bruises", "bruises_left", "fight")} if v else None
        history = page.eval_on_selector_all("#log p", "ps => ps.map(p => p.textContent)")
        raise AssertionError(
            f"the round did not end in time: {catches} catches, the view {shown}, "
            f"the last lines {[x['text'] for x in said(page)[-10:]]}, "
            f"the rounds' ends in the history {[x for x in history if x.startswith('Round ')]}, "
            f"the lines said {len(said(page))}, still waiting {page.evaluate('window.cardroom.pending()')}"
        )
    lines = said(page)
    assert any(x["region"] == "assertive" and x["text"].startswith("Incoming") for x in lines)
    assert any(x["region"] == "polite" and x["text"].startswith("Round 1 is over") for x in lines)
    assert any(x["region"] == "assertive" and x["text"] == "Catch!" for x in lines)
    said_once_and_logged(page)
