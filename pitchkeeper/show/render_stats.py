"""The figures of `stats` at the terminal: a table per player and per team, stacked on a phone; with
pitchkeeper.show.ansi (not Rich)."""

from __future__ import annotations

from typing import Any

from pitchkeeper.cells import cell_len
from pitchkeeper.show.ansi import Console, Text
from pitchkeeper.show.ansi import Table as RTable

NARROW = 72  # below this many columns, `stats` stacks each name's figures (as `history` does; a phone is 40)


def _table(title: str) -> RTable:
    return RTable(title=title)


def stats(s: Any, console: Console | None = None) -> None:
    """Per player and per team: bids and results, then the points each won (each table fits 80 columns).

    pts/h: points the side took per hand; own/h: points the player won himself per hand."""
    console = console or Console()
    console.print(Text.assemble((f"{s.matches} match(es)", "bold"), f", {s.finished} finished, {s.hands} hands"))
    narrow = console.width < NARROW  # a phone: each name with its figures on stacked lines, as `history` does
    for title, lines in (("players", s.players), ("teams", s.teams)):
        if not lines:
            continue
        console.print()
        if narrow:
            _stacked(console, s, title, lines)
            continue
        t = _table(title)
        t.add_column("name", overflow="fold")
        own = title == "players"  # a player's own points per hand, beside his side's
        called = own and _calls(lines)  # call your partner: hands called as partner (made), and alone
        for col in ("games", "won", "hands", "bids", "made", "set", "avg bid", "pts/h",
                    *(["own/h"] if own else []), *(["partner", "alone"] if called else [])):
            t.add_column(col, justify="right", no_wrap=True)
        for ln in lines:
            made = str(ln.made) if ln.made_rate is None else f"{ln.made} {100 * ln.made_rate:.0f}%"
            t.add_row(ln.name, str(ln.matches), str(ln.won), str(ln.hands), str(ln.bids), made, str(ln.set),
                      "-" if ln.average_bid is None else f"{ln.average_bid:.2f}",
                      "-" if ln.points_per_hand is None else f"{ln.points_per_hand:.2f}",
                      *(["-" if ln.own_per_hand is None else f"{ln.own_per_hand:.2f}"] if own else []),
                      *([f"{ln.partnered} ({ln.partner_made} made)", str(ln.alone)] if called else []))
        console.print(t)
        p = _table(f"points won by {title} (how often)")
        p.add_column("name", overflow="fold")
        p.add_column("points", overflow="fold")
        for ln in lines:
            pts = ", ".join(f"{pid} {ln.points[pid]}" for pid in s.point_ids if ln.points.get(pid))
            p.add_row(ln.name, Text(pts or "- (not recorded per player)" if title == "players" and not pts else pts,
                                    style="" if pts else "dim"))
        console.print(p)
        _leaders(console, s, lines)
    _footer(console, s)


def _calls(lines: Any) -> bool:
    """Did any of these players sit at a table that calls a partner (a hand as partner, or alone)?"""
    return any(ln.partnered or ln.alone for ln in lines)


def _figures(ln: Any, own: bool, called: bool = False) -> list[str]:
    """One player's or team's figures, each with its name (the headings of the wide table)."""
    made = str(ln.made) if ln.made_rate is None else f"{ln.made} {100 * ln.made_rate:.0f}%"
    return [f"games {ln.matches}", f"won {ln.won}", f"hands {ln.hands}", f"bids {ln.bids}", f"made {made}",
            f"set {ln.set}", "avg bid " + ("-" if ln.average_bid is None else f"{ln.average_bid:.2f}"),
            "pts/h " + ("-" if ln.points_per_hand is None else f"{ln.points_per_hand:.2f}"),
            *(["own/h " + ("-" if ln.own_per_hand is None else f"{ln.own_per_hand:.2f}")] if own else []),
            *([f"partner {ln.partnered} ({ln.partner_made} made)", f"alone {ln.alone}"] if called else [])]


def _stacked(console: Console, s: Any, title: str, lines: Any) -> None:
    """The stats of each name as a few short lines: its name, its figures, the points it won."""
    console.print(Text(title, style="bold"))
    for ln in lines:
        console.print(Text(ln.name, style="bold"))
        row = ""
        called = title == "players" and _calls(lines)
        for fig in _figures(ln, title == "players", called):  # packed into lines, never split inside a figure
            if row and cell_len(row) + 2 + cell_len(fig) > console.width:
                console.print(Text(row))
                row = ""
            row = f"{row}  {fig}" if row else f"  {fig}"
        console.print(Text(row))
        pts = ", ".join(f"{pid} {ln.points[pid]}" for pid in s.point_ids if ln.points.get(pid))
        console.print(Text("  points: " + (pts or "-"), style="" if pts else "dim"))
    _leaders(console, s, lines)


def _leaders(console: Console, s: Any, lines: Any) -> None:
    lead = s.leaders(lines)
    if lead:
        words = "; ".join(f"{pid} {', '.join(x['who'])} ({x['count']})" for pid, x in lead.items())
        console.print(Text.assemble(("most often: ", "bold"), words))


def _footer(console: Console, s: Any) -> None:
    sm = s.set_most()
    if sm:
        who = ", ".join(f"{n} ({sm['set']} of {sm['of_bids'][n]} bids)" for n in sm["who"])
        console.print(Text.assemble(("set most: ", "bold"), who))
    bp = s.best_partnership()
    if bp:
        console.print(Text.assemble(("best partnership: ", "bold"), f"{bp['name']}, won {bp['won']} of "
                                    f"{bp['finished']} games ({100 * bp['won_rate']:.0f}%)"))
