"""The organiser's pages and exports: table cards and score sheets, standings for a screen, CSV.

Each page is one self-contained HTML file (no external assets, every name escaped). Pure text out
of the tournament data: the CLI writes it to a file, `serve` may answer with it.
"""

from __future__ import annotations

import csv
import io
from html import escape
from typing import Any

from pitchkeeper.cells import cell_len, ljust
from pitchkeeper.tournament.model import Round, Tournament, side_name
from pitchkeeper.tournament.standings import standings

_STYLE = """
body { font-family: system-ui, sans-serif; margin: 1.5rem; color: #111; }
h1 { font-size: 1.6rem; margin: 0 0 .5rem; } h2 { font-size: 1.3rem; }
table { border-collapse: collapse; } td, th { border: 1px solid #999; padding: .35rem .7rem; text-align: left; }
.num { text-align: right; font-variant-numeric: tabular-nums; }
.card { page-break-after: always; break-after: page; padding: 1rem 0; }
.card:last-child { page-break-after: auto; break-after: auto; }
.side { font-size: 1.4rem; margin: .4rem 0; } .vs { color: #666; margin: .2rem 0; }
.sheet td { height: 1.8rem; min-width: 6rem; }
.out { color: #555; }
@media print { body { margin: 0; } .noprint { display: none; } }
@media screen { .card { border-bottom: 2px dashed #bbb; } }
/* a phone (390 px): the standings fit the screen, no sideways scrolling; a long name wraps */
@media screen and (max-width: 40em) {
  body { margin: .75rem; } h1, p, td, th { overflow-wrap: anywhere; }
  table.standings { width: 100%; } table.standings td, table.standings th { padding: .3rem .35rem; }
  .sheet td { min-width: 0; }
}
"""


def _page(title: str, body: str, refresh: int | None = None) -> str:
    meta = f'<meta http-equiv="refresh" content="{int(refresh)}">' if refresh else ""
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">{meta}"
            f"<title>{escape(title)}</title><style>{_STYLE}</style></head>\n<body>\n{body}\n</body></html>\n")


def _name(t: Tournament) -> str:
    return t.title or f"{t.format} tournament ({t.rules})"


def table_cards(t: Tournament, rnd: Round, hands: int = 12) -> str:
    """One printed page per table: the table number, who sits there with whom, and a score sheet."""
    cards = []
    last = len(rnd.tables)
    for seat in rnd.tables:
        names = [side_name(s) for s in seat.sides]
        where = "head table" if seat.table == 1 else ("last table" if seat.table == last else "")
        sides = "\n".join(
            f'<p class="side">{" &amp; ".join(escape(p) for p in side)}</p>'
            + ('<p class="vs">against</p>' if i < len(seat.sides) - 1 else "")
            for i, side in enumerate(seat.sides))
        head = "".join(f"<th>{escape(n)}</th>" for n in names)
        rows = "".join(f"<tr><td class=\"num\">{h}</td>" + "<td></td>" * len(names) + "</tr>" for h in range(1, hands + 1))
        cards.append(
            f'<section class="card" data-table="{seat.table}">\n'
            f"<h1>Table {seat.table}{f' ({where})' if where else ''} &middot; round {rnd.number}</h1>\n"
            f"<p>{escape(_name(t))}</p>\n{sides}\n"
            f'<h2>Score sheet</h2>\n<table class="sheet"><thead><tr><th>Hand</th>{head}</tr></thead>'
            f"<tbody>{rows}<tr><th>Final</th>" + "<td></td>" * len(names) + "</tr></tbody></table>\n"
            "<p>Winning side: ______________________ &nbsp; Signed: ______________ / ______________</p>\n"
            "</section>")
    out = ""
    if rnd.sitting_out:
        out = f'<p class="out noprint">Sitting out this round: {escape(", ".join(rnd.sitting_out))}</p>\n'
    return _page(f"{_name(t)}: round {rnd.number} table cards", out + "\n".join(cards))


def standings_html(t: Tournament, refresh: int | None = None) -> str:
    """The standings as a page for a screen in the hall (`refresh`: reload every N seconds)."""
    s = standings(t)
    state = "final standings" if s["finished"] else f"after round {s['round']}" if s["round"] else "before round 1"
    parts = [f"<h1>{escape(_name(t))}</h1>", f"<p>{escape(state)}</p>"]
    for key, label in (("teams", "Teams"), ("players", "Players")):
        if key not in s:
            continue
        rows = "".join(
            f"<tr><td class=\"num\">{r['rank']}</td><td>{escape(r['name'])}</td><td class=\"num\">{r['points']}</td>"
            f"<td class=\"num\">{r['wins']}</td><td class=\"num\">{r['games']}</td></tr>" for r in s[key])
        parts.append(f"<h2>{label}</h2><table class=\"standings\" data-kind=\"{key}\"><thead><tr><th>Rank</th>"
                     f"<th>Name</th><th>Points</th><th>Wins</th><th>Games</th></tr></thead><tbody>{rows}</tbody></table>")
    return _page(f"{_name(t)}: standings", "\n".join(parts), refresh)


def standings_csv(t: Tournament) -> str:
    """The standings as CSV: one row per player (and per team, where the format has fixed teams)."""
    s = standings(t)
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["kind", "rank", "name", "points", "wins", "games"])
    for key in ("teams", "players"):
        for r in s.get(key, []):
            w.writerow([key[:-1], r["rank"], r["name"], r["points"], r["wins"], r["games"]])
    return buf.getvalue()


def seating_text(rnd: Round) -> str:
    """A round's seating in plain words, for the terminal."""
    lines = [f"Round {rnd.number}"]
    for seat in rnd.tables:
        lines.append(f"  table {seat.table:>2}: " + "  vs  ".join(" & ".join(s) for s in seat.sides))
    if rnd.sitting_out:
        lines.append(f"  sitting out: {', '.join(rnd.sitting_out)}")
    return "\n".join(lines) + "\n"


def standings_text(s: dict[str, Any]) -> str:
    state = "final" if s["finished"] else f"after round {s['round']}"
    lines = [f"Standings ({state})"]
    for key in ("teams", "players"):
        if key not in s:
            continue
        width = max((cell_len(r["name"]) for r in s[key]), default=4)  # in terminal cells: 李雷 is 4
        lines.append(f"  {key}:")
        lines.append(f"    {'rank':>4}  {ljust('name', width)}  {'points':>6}  {'wins':>4}  {'games':>5}")
        lines += [f"    {r['rank']:>4}  {ljust(r['name'], width)}  {r['points']:>6}  {r['wins']:>4}  {r['games']:>5}"
                  for r in s[key]]
    return "\n".join(lines) + "\n"
