"""The tournament's chart: ratings with their 95 % intervals, and win rates by seat.

Drawn with matplotlib's Agg backend (no screen needed) to SVG or PNG, by the file's suffix.
Each level keeps one colour and one hatch in both panels, so the chart reads in grey too.
"""

from __future__ import annotations

from pathlib import Path

from cardroom.drive.tournament import Result

# Okabe-Ito: told apart by people with any common colour-vision deficiency.
COLOURS = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000"]
HATCHES = ["", "//", "..", "xx", "\\\\", "oo", "++", "--"]


def write_chart(result: Result, path: Path) -> Path:
    """Draw `result` into `path` (.svg or .png) and return the path."""
    import matplotlib

    matplotlib.use("Agg")
    matplotlib.rcParams["svg.fonttype"] = "none"  # text stays text: searchable, read by screen readers
    import matplotlib.pyplot as plt

    if path.suffix.lower() not in (".svg", ".png"):
        raise ValueError(f"the chart is written as .svg or .png, not {path.suffix or 'no suffix'}")
    order = result.standings
    style = {s.level: (COLOURS[i % len(COLOURS)], HATCHES[i % len(HATCHES)]) for i, s in enumerate(order)}
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.5), layout="constrained")

    names = [s.level for s in order]
    mus = [s.mu for s in order]
    errors = [1.959964 * s.sigma for s in order]
    bars = left.bar(names, mus, yerr=errors, capsize=6, edgecolor="black")
    for bar, s in zip(bars, order, strict=True):
        bar.set_facecolor(style[s.level][0])
        bar.set_hatch(style[s.level][1])
    left.set_title("OpenSkill rating (mu, 95 % interval)")
    left.set_ylabel("rating")

    seats = list(range(result.players))
    width = 0.8 / max(1, len(order))
    for i, s in enumerate(order):
        rates = [100 * w / g if g else 0.0 for w, g in zip(s.seat_wins, s.seat_games, strict=True)]
        xs = [seat + (i - (len(order) - 1) / 2) * width for seat in seats]
        colour, hatch = style[s.level]
        right.bar(xs, rates, width=width, label=s.level, color=colour, hatch=hatch, edgecolor="black")
    right.set_xticks(seats, [f"seat {seat + 1}" for seat in seats])
    right.set_ylabel("games won from this seat (%)")
    right.set_ylim(0, 100)
    right.set_title("Win rate by seat")
    right.legend()
    fig.suptitle(f"{result.game}: {len(result.games)} games, {result.players} players, seed {result.seed}")
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path)
    plt.close(fig)
    return path
