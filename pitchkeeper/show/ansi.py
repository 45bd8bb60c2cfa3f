"""Styled text for the commands run at the table after every hand (`hand`, `status`, `new`, `undo`).

They print a few short lines, and must feel instant: Rich costs ~25 ms to import on every run,
so these lines are drawn with this stand-in, which has the shape of the part of rich.text they
use (Text, assemble, append, join, cell_len) and writes ANSI styles only to a terminal that wants
them (not piped, NO_COLOR unset, TERM not dumb). Reports (history, judge, stats...) use Rich.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable
from typing import Any

_CODES = {"bold": "1", "dim": "2", "italic": "3", "underline": "4", "red": "31", "green": "32", "yellow": "33",
          "blue": "34", "magenta": "35", "cyan": "36"}


def _sgr(style: str) -> str:
    return ";".join(_CODES[w] for w in style.split() if w in _CODES)


class Text:
    """A line of text made of spans, each with a style such as "bold green"."""

    __slots__ = ("spans", "style")

    def __init__(self, text: str = "", style: str = "") -> None:
        self.style = style  # the style under every span
        self.spans: list[tuple[str, str]] = [(text, "")] if text else []

    @classmethod
    def assemble(cls, *parts: Any) -> Text:
        """From strings, (string, style) pairs and Texts, as rich.text.Text.assemble."""
        out = cls()
        for p in parts:
            if isinstance(p, Text):
                out.append_text(p)
            elif isinstance(p, tuple):
                out.append(p[0], p[1])
            else:
                out.append(str(p))
        return out

    def append(self, text: str | Text, style: str = "") -> Text:
        if isinstance(text, Text):
            return self.append_text(text)
        if text:
            self.spans.append((text, style))
        return self

    def append_text(self, text: Text) -> Text:
        self.spans.extend((t, f"{text.style} {s}".strip()) for t, s in text.spans)
        return self

    def join(self, texts: Iterable[Text]) -> Text:
        out = Text()
        for i, t in enumerate(texts):
            if i:
                out.append_text(self)
            out.append_text(t)
        return out

    def rstrip(self) -> Text:
        while self.spans and not self.spans[-1][0].rstrip():
            self.spans.pop()
        if self.spans:
            t, s = self.spans[-1]
            self.spans[-1] = (t.rstrip(), s)
        return self

    @property
    def plain(self) -> str:
        return "".join(t for t, _ in self.spans)

    @property
    def cell_len(self) -> int:
        return len(self.plain)

    def __bool__(self) -> bool:
        return bool(self.plain)

    def render(self, color: bool) -> str:
        if not color:
            return self.plain
        out = []
        for t, s in self.spans:
            code = _sgr(f"{self.style} {s}")
            out.append(f"\x1b[{code}m{t}\x1b[0m" if code else t)
        return "".join(out)


class Console:
    """Prints Texts (or strings) to standard output, in colour only where it is wanted."""

    def __init__(self) -> None:
        self.file = sys.stdout
        self.color = _wants_color(self.file)

    @property
    def width(self) -> int:
        import shutil

        return shutil.get_terminal_size((80, 24)).columns

    def print(self, *objects: Any) -> None:
        line = " ".join(o.render(self.color) if isinstance(o, Text) else str(o) for o in objects)
        self.file.write(line + "\n")


def _wants_color(stream: Any) -> bool:
    if "NO_COLOR" in os.environ or os.environ.get("TERM") == "dumb":
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


def grid(rows: list[list[Any]], right: tuple[int, ...] = (), width: int = 80) -> list[Text]:
    """Rows of cells (strings or Texts) as aligned lines, the first row a heading under a rule."""
    cells = [[c if isinstance(c, Text) else Text(str(c)) for c in row] for row in rows]
    widths = [max(r[i].cell_len for r in cells) for i in range(len(cells[0]))]
    lines = []
    for n, r in enumerate(cells):
        line = Text(style="bold" if n == 0 else "")
        for i, c in enumerate(r):
            pad = " " * (widths[i] - c.cell_len)
            if i:
                line.append("   ")
            if i in right:
                line.append(pad)
            line.append_text(c)
            if i not in right and i < len(r) - 1:
                line.append(pad)
        lines.append(line.rstrip() or line)
        if n == 0:
            lines.append(Text("─" * min(width, sum(widths) + 3 * (len(widths) - 1)), style="dim"))
    return lines


def card(c: str | None) -> Text:
    """A card with its suit symbol, red for hearts, diamonds and the high joker."""
    from pitchkeeper.game.cards import pretty

    if c is None:
        return Text("-", style="dim")
    return Text(pretty(c), style="red" if c[-1] in "HD" or c == "HJ" else "")


def suit(s: str) -> Text:
    from pitchkeeper.game.cards import SUIT_NAMES, SUIT_SYMBOLS

    return Text(f"{SUIT_SYMBOLS[s]} {SUIT_NAMES[s]}", style="red" if s in ("H", "D") else "")


def signed(n: int) -> Text:
    return Text(f"{n:+d}", style="green" if n > 0 else "red" if n < 0 else "dim")
