"""The organiser's pages and exports: table cards and score sheets, standings for a screen, CSV.

Each page is one self-contained HTML file (no external assets, every name escaped). Pure text out
of the tournament data: the CLI writes it to a file, `serve` may answer with it.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping
from html import escape
from typing import Any

from pitchkeeper.cells import cell_len, ljust
from pitchkeeper.errors import PitchError
from pitchkeeper.game import rulesets
from pitchkeeper.tournament.model import Round, Seating, Tournament, side_name
from pitchkeeper.tournament.standings import standings

COMPASS = {2: ("North", "South"), 4: ("North", "East", "South", "West")}
_STYLE = """
body { font-family: system-ui, sans-serif; margin: 1.5rem; color: #111; }
h1 { font-size: 1.6rem; margin: 0 0 .5rem; } h2 { font-size: 1.3rem; }
table { border-collapse: collapse; } td, th { border: 1px solid #999; padding: .35rem .7rem; text-align: left; }
.num { text-align: right; font-variant-numeric: tabular-nums; }
.card, .sheet { page-break-after: always; break-after: page; padding: 1rem 0; }
section:last-child { page-break-after: auto; break-after: auto; }
/* the table card: the number across the top half, read across the room; then who sits where, the QR code */
.card { height: 250mm; display: flex; flex-direction: column; }
.half { height: 50%; overflow: hidden; }
.number { display: flex; flex-direction: column; align-items: center; justify-content: center;
  border-bottom: 1px dashed #999; }
.number .label { font-size: 12mm; letter-spacing: .3em; text-transform: uppercase; margin: 0; }
.number .big { font-size: 95mm; font-weight: 800; line-height: .9; margin: 0; font-variant-numeric: tabular-nums; }
.info { padding-top: 6mm; }
.side { font-size: 1.4rem; margin: .4rem 0; } .vs { color: #666; margin: .2rem 0; }
.compass { list-style: none; padding: 0; display: grid; grid-template-columns: 1fr 1fr; gap: .2rem 1rem;
  font-size: 1.1rem; } .compass span { color: #555; display: inline-block; min-width: 3.5em; }
.join { display: flex; gap: 1rem; align-items: center; margin-top: .6rem; }
.join .qr svg { width: 38mm; height: 38mm; display: block; } .join p { margin: .2rem 0; }
.join .url { font-family: monospace; font-size: 1rem; } .join .pin { font-size: 1.5rem; }
.join .pin b { font-family: monospace; letter-spacing: .05em; }
table.sheet { width: 100%; } table.sheet td { height: 7.5mm; } table.sheet th { font-size: .85rem; }
.out { color: #555; }
@media print { body { margin: 0; } .noprint { display: none; } }
@media screen { .card { border-bottom: 2px dashed #bbb; } }
/* a phone (390 px): the standings fit the screen, no sideways scrolling; a long name wraps */
@media screen and (max-width: 40em) {
  body { margin: .75rem; } h1, p, td, th { overflow-wrap: anywhere; }
  table.standings { width: 100%; } table.standings td, table.standings th { padding: .3rem .35rem; }
  table.sheet td { min-width: 0; } .card { height: auto; } .number .big { font-size: 40vw; }
}
"""


def _page(title: str, body: str, refresh: int | None = None) -> str:
    meta = f'<meta http-equiv="refresh" content="{int(refresh)}">' if refresh else ""
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">{meta}"
            f"<title>{escape(title)}</title><style>{_STYLE}</style></head>\n<body>\n{body}\n</body></html>\n")


def _name(t: Tournament) -> str:
    return t.title or f"{t.format} tournament ({t.rules})"


def sheet_rows(t: Tournament) -> int:
    """Rows of a score sheet: one per point of the ruleset's target and three more (a game where bids are
    set runs longer), at least 12; the back of the sheet takes the rare game past that."""
    try:
        target = int(rulesets.load(t.rules).settings["win"]["target"])
    except PitchError:
        target = 21
    return max(12, target + 3)


def seats_of(seat: Seating) -> list[tuple[str, str]]:
    """(seat, player) clockwise from North: partners across."""
    size = len(seat.sides[0])
    order = [side[k] for k in range(size) for side in seat.sides]
    names = COMPASS.get(len(order)) or tuple(f"Seat {k}" for k in range(1, len(order) + 1))
    return list(zip(names, order, strict=True))


def table_cards(t: Tournament, rnd: Round, *, pins: Mapping[int, str] | None = None,
                qr: Mapping[int, str] | None = None, urls: Mapping[int, str] | None = None,
                rows: int | None = None) -> str:
    """Two printed pages per table: the table card - its number across the top half (read across the room),
    then the round, who sits where, and (for `serve --tournament`) the QR code of the table's page, its
    address and the table's PIN - and a score sheet with bid, points and running score columns for a whole
    game. `qr`: each table's QR code as SVG markup (the caller's, made from its own address)."""
    cards = []
    last = len(rnd.tables)
    rows = rows or sheet_rows(t)
    for seat in rnd.tables:
        names = [side_name(s) for s in seat.sides]
        where = "head table" if seat.table == 1 and last > 1 else ("last table" if seat.table == last and last > 1 else "")
        sides = "\n".join(
            f'<p class="side">{" &amp; ".join(escape(p) for p in side)}</p>'
            + ('<p class="vs">against</p>' if i < len(seat.sides) - 1 else "")
            for i, side in enumerate(seat.sides))
        compass = "".join(f"<li><span>{c}</span> {escape(p)}</li>" for c, p in seats_of(seat))
        join = ""
        pin = (pins or {}).get(seat.table)
        if pin is not None or (qr or {}).get(seat.table):
            code = (qr or {}).get(seat.table, "")
            url = (urls or {}).get(seat.table, "")
            shown = f"{pin[:3]} {pin[3:6]} {pin[6:]}" if pin and len(pin) == 10 else (pin or "")
            join = (f'<div class="join"><div class="qr">{code}</div><div><p class="scan">Report this table\'s result: '
                    f'scan, or open</p><p class="url">{escape(url)}</p>'
                    + (f'<p class="pin">PIN <b>{escape(shown)}</b></p>' if pin else "") + "</div></div>")
        head = "".join(f'<th colspan="2">{escape(n)}</th>' for n in names)
        sub = "".join("<th>points</th><th>score</th>" for _ in names)
        cells = "<td></td><td></td>" * len(names)
        body = "".join(f'<tr><td class="num">{h}</td><td></td><td></td>{cells}</tr>' for h in range(1, rows + 1))
        cards.append(
            f'<section class="card" data-table="{seat.table}">\n'
            f'<div class="half number"><p class="label">Table</p><p class="big">{seat.table}</p></div>\n'
            f'<div class="half info"><h1>Table {seat.table}{f" ({where})" if where else ""} &middot; round {rnd.number}'
            f"</h1>\n<p>{escape(_name(t))}</p>\n{sides}\n<ul class=\"compass\">{compass}</ul>\n{join}</div>\n"
            "</section>\n"
            f'<section class="sheet" data-table="{seat.table}">\n'
            f"<h2>Score sheet &middot; table {seat.table} &middot; round {rnd.number}</h2>\n"
            f'<table class="sheet"><thead><tr><th rowspan="2">Hand</th><th rowspan="2">Dealer</th><th rowspan="2">Bid'
            f"<br><small>who, how much</small></th>{head}</tr><tr>{sub}</tr></thead>"
            f"<tbody>{body}<tr><th colspan=\"3\">Final</th>{cells}</tr></tbody></table>\n"
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
    parts = [f"<h1>{escape(_name(t))}</h1>",
             f"<p>{escape(state)} &middot; ranked by {escape(', then '.join(s['tiebreak']))}</p>"]
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
    lines = [f"Standings ({state}; ranked by {', then '.join(s.get('tiebreak', []))})"]
    for key in ("teams", "players"):
        if key not in s:
            continue
        width = max((cell_len(r["name"]) for r in s[key]), default=4)  # in terminal cells: 李雷 is 4
        lines.append(f"  {key}:")
        lines.append(f"    {'rank':>4}  {ljust('name', width)}  {'points':>6}  {'wins':>4}  {'games':>5}")
        lines += [f"    {r['rank']:>4}  {ljust(r['name'], width)}  {r['points']:>6}  {r['wins']:>4}  {r['games']:>5}"
                  for r in s[key]]
    return "\n".join(lines) + "\n"
