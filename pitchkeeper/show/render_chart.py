"""Terminal drawing for the look-back commands (chart, stats), with pitchkeeper.show.ansi (not Rich)."""

from __future__ import annotations

from typing import Any

from pitchkeeper.reports.chart import Progression, TextChart, text_chart
from pitchkeeper.show.ansi import Console, Text
from pitchkeeper.show.ansi import Table as RTable

# Colour only on a terminal that wants it (NO_COLOR, piped); the symbols tell the sides apart without it.
STYLES = ("bold blue", "bold red", "bold green", "bold yellow", "bold magenta", "bold cyan", "bold white",
          "blue", "red")


def _style(side: int | None, kind: str) -> str:
    if kind == "target":
        return "dim"
    if kind in ("axis", "label"):
        return "dim" if kind == "axis" else ""
    if kind == "clash":
        return "bold"
    return STYLES[side % len(STYLES)] if side is not None else ""


def chart(p: Progression, title: str, console: Console | None = None) -> None:
    """The step chart at the terminal's width (at most 100 columns, at least 30)."""
    console = console or Console()
    width = max(30, min(console.width, 100))
    tc: TextChart = text_chart(p, width=width)
    console.print(Text(title, style="bold"))  # wrapped, not cut: the target is at its end
    for row in tc.rows:
        line = Text(no_wrap=True)
        for c in row:
            line.append(c.char, style=_style(c.side, c.kind))
        line.rstrip()
        console.print(line)
    for entries in tc.legend_lines():
        line = Text(no_wrap=True)
        for i, (sym, side, words) in enumerate(entries):
            if i:
                line.append("  ")
            if sym:
                line.append(sym + " ", style=_style(side, "target" if sym == "..." else "plot"))
            line.append(words)
        console.print(line)


def _table(title: str) -> RTable:
    return RTable(title=title)


def stats(s: Any, console: Console | None = None) -> None:
    """Per player and per team: bids and results, then the points each won (each table fits 80 columns).

    pts/h: points the side took per hand; own/h: points the player won himself per hand."""
    console = console or Console()
    console.print(Text.assemble((f"{s.matches} match(es)", "bold"), f", {s.finished} finished, {s.hands} hands"))
    for title, lines in (("players", s.players), ("teams", s.teams)):
        if not lines:
            continue
        console.print()
        t = _table(title)
        t.add_column("name", overflow="fold")
        own = title == "players"  # a player's own points per hand, beside his side's
        for col in ("games", "won", "hands", "bids", "made", "set", "avg bid", "pts/h",
                    *(["own/h"] if own else [])):
            t.add_column(col, justify="right", no_wrap=True)
        for ln in lines:
            made = str(ln.made) if ln.made_rate is None else f"{ln.made} {100 * ln.made_rate:.0f}%"
            t.add_row(ln.name, str(ln.matches), str(ln.won), str(ln.hands), str(ln.bids), made, str(ln.set),
                      "-" if ln.average_bid is None else f"{ln.average_bid:.2f}",
                      "-" if ln.points_per_hand is None else f"{ln.points_per_hand:.2f}",
                      *(["-" if ln.own_per_hand is None else f"{ln.own_per_hand:.2f}"] if own else []))
        console.print(t)
        p = _table(f"points won by {title} (how often)")
        p.add_column("name", overflow="fold")
        p.add_column("points", overflow="fold")
        for ln in lines:
            pts = ", ".join(f"{pid} {ln.points[pid]}" for pid in s.point_ids if ln.points.get(pid))
            p.add_row(ln.name, Text(pts or "- (not recorded per player)" if title == "players" and not pts else pts,
                                    style="" if pts else "dim"))
        console.print(p)
        lead = s.leaders(lines)
        if lead:
            words = "; ".join(f"{pid} {', '.join(x['who'])} ({x['count']})" for pid, x in lead.items())
            console.print(Text.assemble(("most often: ", "bold"), words))
    sm = s.set_most()
    if sm:
        who = ", ".join(f"{n} ({sm['set']} of {sm['of_bids'][n]} bids)" for n in sm["who"])
        console.print(Text.assemble(("set most: ", "bold"), who))
    bp = s.best_partnership()
    if bp:
        console.print(Text.assemble(("best partnership: ", "bold"), f"{bp['name']}, won {bp['won']} of "
                                    f"{bp['finished']} games ({100 * bp['won_rate']:.0f}%)"))
