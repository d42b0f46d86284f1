"""The web page's weight and main-thread work (issue 13): `python -m bench.page`.

1. Weight: the bytes Chromium received (compressed, as sent) for the first load of the page
   (HTML, scripts, styles, catalog) plus every card picture, with the server's compression.
2. Long tasks: a four-player Throw Throw Burrito game (you and three bots) played for a while
   by a page-side loop that presses the action buttons; a PerformanceObserver('longtask')
   records every main-thread task over 50 ms. Prints the longest, the count, the fights seen.
   A long task's wall time also counts the time the renderer waited for a core: on a busy
   machine (the load average is printed) that is most of it. So the game then goes on under a
   Chromium trace, which gives each main-thread task's own CPU time: the most of it one task
   took is the work the page asked for in one go, whatever else the machine was doing.
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path
from typing import Any

from playwright.sync_api import sync_playwright

from cardroom.server.process import run_server

CHROMIUM = os.environ.get("CARDROOM_CHROMIUM", "/usr/bin/chromium")
ART = Path(__file__).resolve().parent.parent / "cardroom" / "clients" / "web" / "static" / "art"

OBSERVE = """
window.__long = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) window.__long.push(e.duration);
}).observe({ type: "longtask", buffered: true });
"""

# Press what the page offers, as a quick player would: catch, grab, throw, score, call, draw, pass.
PLAY = """
setInterval(() => {
  const pick = ['catch', 'grab', 'throw_', 'set', 'call', 'draw', 'pass']
    .map((a) => document.querySelector(`#actions button[data-action^='${a}']:not([aria-disabled=true])`)).find(Boolean);
  if (pick) pick.click();
  const option = document.querySelector('#chooser [role=option]');
  if (option) option.click();
}, 250);
window.__fights = 0;
let last = null;
setInterval(() => {
  const v = window.cardroom.state.room && window.cardroom.state.room.view;
  const f = v && v.fight;
  if (f && f.started_at !== last) { last = f.started_at; window.__fights += 1; }
}, 50);
"""


# Chromium's trace category holding each main-thread task (RunTask) with its thread time (tdur).
TASKS = "disabled-by-default-devtools.timeline"


def main_thread_tasks(events: list[dict[str, Any]]) -> list[tuple[float, float]]:
    """(wall ms, CPU ms) of every task of the page's main thread in a trace."""
    main = {
        (e["pid"], e["tid"])
        for e in events
        if e.get("ph") == "M" and e.get("name") == "thread_name" and e["args"].get("name") == "CrRendererMain"
    }
    return [
        (e.get("dur", 0) / 1000, e.get("tdur", 0) / 1000)
        for e in events
        if e.get("name") == "RunTask" and e.get("ph") == "X" and (e.get("pid"), e.get("tid")) in main
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=60, help="how long to play (default 60)")
    parser.add_argument(
        "--traced", type=float, default=20, help="how long to play on with a trace (default 20)"
    )
    args = parser.parse_args()
    with run_server() as live, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        context = browser.new_context(viewport={"width": 1280, "height": 800})
        page = context.new_page()
        page.add_init_script(OBSERVE)
        cdp = context.new_cdp_session(page)
        cdp.send("Network.enable")
        received: dict[str, float] = {}
        urls: dict[str, str] = {}
        cdp.on("Network.responseReceived", lambda e: urls.__setitem__(e["requestId"], e["response"]["url"]))
        cdp.on(
            "Network.loadingFinished", lambda e: received.__setitem__(e["requestId"], e["encodedDataLength"])
        )
        page.goto(live.url + "/")
        page.wait_for_function("() => window.cardroom && window.cardroom.ready")
        for card in sorted(ART.glob("*.svg")):  # every picture, as a long game would show them
            page.evaluate("u => fetch(u).then(r => r.text())", f"/static/art/{card.name}")
        page.wait_for_timeout(500)
        weight = sum(n for rid, n in received.items() if not urls.get(rid, "").startswith("ws"))
        print(
            f"first load with every card picture: {weight / 1024:.1f} KiB received over {len(received)} responses"
        )

        page.fill("#nickname", "Bench")
        page.click("#name-form button[type=submit]")
        page.wait_for_selector("#lobby:not([hidden])")
        page.select_option("#create-game", "burrito")
        page.fill("#create-seats", "4")
        page.fill("#create-bots", "3")
        page.select_option("#create-level", "hard")
        page.click("#create-form button[type=submit]")
        page.click("#start-btn")
        page.wait_for_function("() => window.cardroom.state.room && window.cardroom.state.room.view")
        page.evaluate("window.__long = []")
        metrics = context.new_cdp_session(page)
        metrics.send("Performance.enable")

        def busy() -> dict[str, float]:
            got = metrics.send("Performance.getMetrics")["metrics"]
            return {m["name"]: m["value"] for m in got}

        load_before = os.getloadavg()[0]
        start = busy()
        page.evaluate(PLAY)
        time.sleep(args.seconds)
        end = busy()
        load_after = os.getloadavg()[0]
        parts = ("TaskDuration", "ScriptDuration", "LayoutDuration", "RecalcStyleDuration")
        spent = {name: end[name] - start[name] for name in parts}
        longs: list[float] = page.evaluate("window.__long")
        fights = page.evaluate("window.__fights")
        worst = max(longs, default=0.0)
        print(
            f"{args.seconds:.0f} s of a four-player burrito game, {fights} fights: "
            f"{len(longs)} long tasks (> 50 ms), the longest {worst:.0f} ms "
            f"(load average {load_before:.1f} at the start, {load_after:.1f} at the end, on {os.cpu_count()} cores)"
        )
        print(
            "main thread busy: "
            + ", ".join(f"{name[:-8].lower()} {spent[name]:.2f} s" for name in parts)
            + f" ({100 * spent['TaskDuration'] / args.seconds:.1f}% of the time)"
        )
        # Then the same game traced, apart: tracing slows the page down and would lengthen the
        # long tasks measured above.
        traced: list[dict[str, Any]] = []
        finished: list[bool] = []
        metrics.on("Tracing.dataCollected", lambda e: traced.extend(e["value"]))
        metrics.on("Tracing.tracingComplete", lambda e: finished.append(True))
        metrics.send("Tracing.start", {"categories": TASKS, "transferMode": "ReportEvents"})
        time.sleep(args.traced)
        metrics.send("Tracing.end")
        while not finished:
            page.wait_for_timeout(100)
        tasks = main_thread_tasks(traced)
        print(
            f"{args.traced:.0f} s more, traced: {len(tasks)} main-thread tasks; "
            f"the most CPU time one task took {max((c for _w, c in tasks), default=0.0):.1f} ms, "
            f"{sum(1 for _w, c in tasks if c > 50)} took over 50 ms (load average {os.getloadavg()[0]:.1f})"
        )
        browser.close()


if __name__ == "__main__":
    main()
