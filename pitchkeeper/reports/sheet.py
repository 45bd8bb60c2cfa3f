"""A blank score sheet for a ruleset, as one printable HTML page: for tables that still want paper.

Its columns are the ruleset's own points (so a seven-point sheet has the off-jack and the jokers),
and its head says the target the way the table says it. Self-contained: no script, no link.
"""

from __future__ import annotations

import html
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pitchkeeper.game.rulesets import Ruleset

SHEET_CSS = """
body { font: 11pt/1.3 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 1.5em; color: #000; }
h1 { font-size: 1.4em; margin: 0; } .meta { margin: .2em 0 .8em; color: #333; }
.fill { display: inline-block; min-width: 14em; border-bottom: 1px solid #000; }
table { border-collapse: collapse; width: 100%; table-layout: fixed; }
th, td { border: 1px solid #000; padding: 0 .3em; height: 1.9em; text-align: center; font-size: .9em; }
th { height: auto; padding: .3em .2em; font-weight: 600; } th.n, td.n { width: 2em; }
.small { font-size: .85em; color: #333; margin-top: .6em; }
@media print { body { margin: 0; } @page { size: landscape; margin: 1cm; } }
"""


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def blank_sheet(ruleset: Ruleset, sides: list[str], rows: int = 16, title: str | None = None) -> str:
    """The page: the ruleset's name and target, a line per side for its players, and one row per hand
    with dealer, bid, trump, each point of the ruleset (who won it), and each side's change and total."""
    w = ruleset.settings["win"]
    goal = f"to {w['target']}" if w["reach"] == "reach" else f"must pass {w['target']}"
    points = [(p.label or p.id, p.to == "dealt") for p in ruleset.points]
    head = ["#", "dealer", "bidder", "bid", "trump"]
    cols = "".join(f"<th>{_e(h)}</th>" if h != "#" else '<th class="n">#</th>' for h in head)
    cols += "".join(f"<th>{_e(label)}{'<br><small>(dealt)</small>' if dealt else ''}</th>" for label, dealt in points)
    cols += "".join(f"<th>{_e(s)}<br><small>+/-</small></th><th>{_e(s)}<br><small>total</small></th>" for s in sides)
    ncols = len(head) + len(points) + 2 * len(sides)
    body = "\n".join(f'<tr><td class="n">{i}</td>' + "<td></td>" * (ncols - 1) + "</tr>" for i in range(1, rows + 1))
    who = "\n".join(f'<p>{_e(s)}: <span class="fill"></span></p>' for s in sides)
    dealt = [label for label, d in points if d]
    notes = [f"Write who won each point (a side or a player), or - when it was not out. "
             f"{ruleset.max_points} points at most in a hand."]
    if dealt:
        notes.append(f"{', '.join(dealt)}: to the player who was dealt it, not who captured it.")
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>{_e(title or 'Pitch score sheet')} - {_e(ruleset.name)}</title>
<style>{SHEET_CSS}</style></head>
<body>
<h1>{_e(title or 'Pitch score sheet')}</h1>
<p class="meta">{_e(ruleset.name)} ({_e(ruleset.title)}), {_e(goal)}. Date: <span class="fill"></span></p>
{who}
<table>
<thead><tr>{cols}</tr></thead>
<tbody>
{body}
</tbody>
</table>
<p class="small">{' '.join(_e(n) for n in notes)}</p>
</body></html>
"""
