"""The score chart at the terminal (`chart`), with pitchkeeper.show.ansi (not Rich)."""

from __future__ import annotations

from pitchkeeper.reports.chart import Progression, TextChart, text_chart
from pitchkeeper.show.ansi import Console, Text

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
