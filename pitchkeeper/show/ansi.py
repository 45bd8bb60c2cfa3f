"""Styled text and plain tables for every command that draws.

The CLI draws with this rather than Rich, whose import would be most of a table command's start
(docs/performance.md). It has the shape of the part of Rich the commands use (Text: assemble, append,
join, cell_len; Table: add_column, add_row; Console.print), measures text in terminal cells as Rich
does (pitchkeeper.cells: 李雷 is four cells wide, an emoji two, a combining mark none), and writes
ANSI styles only to a terminal that wants them (not piped, NO_COLOR unset, TERM not dumb).
"""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Iterable
from typing import Any

from pitchkeeper.cells import cell_len, cluster_width, graphemes, wrap_cells
from pitchkeeper.show import palette

_CODES = {"bold": "1", "dim": "2", "italic": "3", "underline": "4", "red": "31", "green": "32", "yellow": "33",
          "blue": "34", "magenta": "35", "cyan": "36"}


def _sgr(style: str) -> str:
    return ";".join(_CODES[w] for w in style.split() if w in _CODES)


class Text:
    """A line of text made of spans, each with a style such as "bold green"."""

    __slots__ = ("spans", "style")

    def __init__(self, text: str = "", style: str = "", **_: Any) -> None:
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
        return cell_len(self.plain)

    def __bool__(self) -> bool:
        return bool(self.plain)

    def wrap(self, width: int, indent: int = 2, cut: bool = False) -> list[Text]:
        """The line broken at spaces to fit `width` cells, later lines indented (a phone is 40 wide). A word
        longer than a line (a path) is kept whole, for a program reading it; with `cut` (a screen whose
        width is known), cut after a / where it can be, so that no line is wider than the screen."""
        if self.cell_len <= width or width < 10:
            return [self]
        # (cluster, style, cells) for each grapheme cluster: a line never ends inside one
        chars = [(g, s, cluster_width(g)) for t, s in self.spans for g in graphemes(t)]
        lines: list[Text] = []
        start, room = 0, width
        while sum(w for _, _, w in chars[start:]) > room:
            fits, used = start, 0  # the clusters [start, fits) fill the line
            while fits < len(chars) and used + chars[fits][2] <= room:
                used += chars[fits][2]
                fits += 1
            brk = max((i for i in range(start + 1, min(fits, len(chars) - 1) + 1) if chars[i][0] == " "), default=None)
            if brk is None and not cut:  # one word longer than the line (a path): kept whole
                brk = next((i for i in range(fits, len(chars)) if chars[i][0] == " "), len(chars))
            elif brk is None:  # cut after its last / that fits, or where it must
                end = max((i for i in range(start + 2, fits + 1) if chars[i - 1][0] in "/\\"), default=max(fits, start + 1))
                lines.append(_from_chars(chars[start:end], self.style))
                start = end
                room = width - indent
                continue
            end = brk
            while end > start and chars[end - 1][0] == " ":  # no line ends in spaces
                end -= 1
            lines.append(_from_chars(chars[start:end], self.style))
            start = brk + 1
            while start < len(chars) and chars[start][0] == " ":
                start += 1
            room = width - indent
        tail = chars[start:]
        if tail:
            lines.append(_from_chars(tail, self.style))
        pad = " " * indent
        return [lines[0], *(Text(pad).append_text(t) for t in lines[1:])]

    def render(self, color: bool) -> str:
        if not color:
            return self.plain
        out = []
        for t, s in self.spans:
            code = _sgr(f"{self.style} {s}")
            out.append(f"\x1b[{code}m{t}\x1b[0m" if code else t)
        return "".join(out)


def _from_chars(chars: list[tuple[str, str, int]], style: str) -> Text:
    out = Text(style=style)
    for ch, s, _ in chars:
        if out.spans and out.spans[-1][1] == s:
            out.spans[-1] = (out.spans[-1][0] + ch, s)
        else:
            out.spans.append((ch, s))
    return out


class Console:
    """Prints Texts, Tables (or strings) to standard output (or error), in colour only where it is wanted."""

    def __init__(self, stderr: bool = False, **_: Any) -> None:
        self.file = sys.stderr if stderr else sys.stdout
        self.color = _wants_color(self.file)

    @property
    def width(self) -> int:
        return shutil.get_terminal_size((80, 24)).columns

    @property
    def screen(self) -> bool:
        """Is the width a screen's (a terminal, or COLUMNS given), not a guess for a pipe? Only then is a
        word longer than a line (a path) cut to fit; a program reading a pipe gets it whole."""
        if os.environ.get("COLUMNS", "").strip().isdigit():
            return True
        try:
            return bool(self.file.isatty())
        except (AttributeError, ValueError):
            return False

    def print(self, *objects: Any, wrap: bool = True, **options: Any) -> None:
        """One line (or a Table); a line wider than the terminal is broken at spaces (indented), not cut by it.
        `no_wrap=True` (as Rich spells it) keeps the line whole."""
        if len(objects) == 1 and isinstance(objects[0], Table):
            self.file.write("".join(t.render(self.color) + "\n" for t in objects[0].lines(self.width)))
            return
        line = Text(" ").join(o if isinstance(o, Text) else Text(str(o)) for o in objects)
        parts = line.wrap(self.width, cut=self.screen) if wrap and not options.get("no_wrap") else [line]
        self.file.write("".join(p.render(self.color) + "\n" for p in parts))


class Table:
    """Rows under a heading in aligned columns: the part of rich.table.Table the reports use."""

    def __init__(self, title: str = "", **_: Any) -> None:
        self.title = title
        self.columns: list[tuple[str, bool, str]] = []  # (heading, right-aligned, style)
        self.rows: list[tuple[Any, ...]] = []

    def add_column(self, header: str = "", justify: str = "left", style: str = "", **_: Any) -> None:
        self.columns.append((header, justify == "right", style))

    def add_row(self, *cells: Any) -> None:
        self.rows.append(cells)

    def lines(self, width: int = 80) -> list[Text]:
        rows: list[list[Any]] = [[h for h, _, _ in self.columns]]
        for r in self.rows:
            rows.append([c if isinstance(c, Text) or not style else Text(str(c), style=style)
                         for c, (_, _, style) in zip(r, self.columns, strict=True)])
        right = tuple(i for i, (_, r, _) in enumerate(self.columns) if r)
        rows = _fit(rows, right, width)
        out = grid(rows, right, width)
        if not any(h for h, _, _ in self.columns):
            out = out[2:]  # no headings: no heading line, no rule under it
        return ([Text(self.title, style="bold")] if self.title else []) + out


def _fit(rows: list[list[Any]], right: tuple[int, ...], width: int) -> list[list[Any]]:
    """Rows whose widest left-aligned columns are folded onto more lines, so that the table fits `width`."""
    cells = [[c if isinstance(c, Text) else Text(str(c)) for c in row] for row in rows]
    widths = [max(r[i].cell_len for r in cells) for i in range(len(cells[0]))]
    left = [i for i in range(len(widths)) if i not in right]
    caps: dict[int, int] = {}
    while left:
        over = sum(widths) + 3 * (len(widths) - 1) - width
        col = max(left, key=widths.__getitem__)
        if over <= 0 or widths[col] <= 8:
            break
        second = max((widths[i] for i in left if i != col), default=0)
        widths[col] = caps[col] = max(8, widths[col] - over, second if second < widths[col] else widths[col] - 1)
    if not caps:
        return cells

    out: list[list[Any]] = [cells[0]]
    for row in cells[1:]:
        pieces: dict[int, list[Text]] = {}
        for i, room in caps.items():
            c = row[i]
            if c.cell_len > room:
                one = {st for _, st in c.spans} == {c.spans[0][1]}
                style = " ".join(x for x in (c.style, c.spans[0][1] if one else "") if x)
                pieces[i] = [Text(p, style=style) for p in wrap_cells(c.plain, room) or [""]]
        depth = max((len(p) for p in pieces.values()), default=1)
        for k in range(depth):
            out.append([pieces[i][k] if i in pieces and k < len(pieces[i]) else
                        (x if k == 0 and i not in pieces else Text()) for i, x in enumerate(row)])
    return out


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
    """Rows of cells (strings or Texts) as aligned lines, the first row a heading under a rule.

    Too wide for `width`, the gaps narrow; still too wide, the last column goes on a line of its own
    under each row (indented), so a 40-column phone shows every cell.
    """
    cells = [[c if isinstance(c, Text) else Text(str(c)) for c in row] for row in rows]
    widths = [max(r[i].cell_len for r in cells) for i in range(len(cells[0]))]
    gap = 3
    while gap > 1 and sum(widths) + gap * (len(widths) - 1) > width:
        gap -= 1
    if len(widths) > 2 and sum(widths) + gap * (len(widths) - 1) > width:
        k = len(widths) - 1  # the leading columns that fit stay a grid; the rest go under each row
        while k > 1 and sum(widths[:k]) + gap * (k - 1) > width:
            k -= 1
        head = grid([r[:k] for r in rows], right=tuple(i for i in right if i < k), width=width)
        out = head[:2]
        for r, line in zip(cells[1:], head[2:], strict=True):
            out.append(line)
            under = Text("    ")
            for i in range(k, len(r)):
                if not r[i]:
                    continue
                if under.cell_len > 4:
                    under.append("  ")
                if k < len(r) - 1:  # several moved: each under its heading
                    under.append(f"{cells[0][i].plain} ", "dim")
                under.append_text(r[i])
            if under.cell_len > 4:
                out += under.wrap(width, indent=4)
        return out
    lines = []
    for n, r in enumerate(cells):
        line = Text(style="bold" if n == 0 else "")
        for i, c in enumerate(r):
            pad = " " * (widths[i] - c.cell_len)
            if i:
                line.append(" " * gap)
            if i in right:
                line.append(pad)
            line.append_text(c)
            if i not in right and i < len(r) - 1:
                line.append(pad)
        lines.append(line.rstrip() or line)
        if n == 0:
            lines.append(Text("─" * min(width, sum(widths) + gap * (len(widths) - 1)), style="dim"))
    return lines


def fitted_grid(rows: list[list[Any]], right: tuple[int, ...], width: int, fold: int, least: int = 24,
                ) -> list[Text] | None:
    """The rows as one grid no wider than `width`, every column under its heading: column `fold` (a long
    text) broken onto more lines where it must, never narrower than `least` cells. None when no such grid
    fits: the caller lays the rows out another way, never with a column pushed under the others."""
    cells = [[c if isinstance(c, Text) else Text(str(c)) for c in row] for row in rows]
    widths = [max(r[i].cell_len for r in cells) for i in range(len(cells[0]))]
    others = sum(w for i, w in enumerate(widths) if i != fold)
    room = width - others - 2 * (len(widths) - 1)  # the gaps at their narrowest a grid keeps readable
    if room < min(widths[fold], least):
        return None
    folded: list[list[Any]] = [cells[0]]
    for row in cells[1:]:
        c = row[fold]
        pieces = [Text(piece, style=c.style) for piece in wrap_cells(c.plain, room)] if c.cell_len > room else [c]
        for k, piece in enumerate(pieces or [Text()]):
            folded.append([piece if i == fold else (x if k == 0 else Text()) for i, x in enumerate(row)])
    out = grid(folded, right, width)
    if len(out) != len(folded) + 1 or any(line.cell_len > width for line in out):
        return None
    return out


def card(c: str | None) -> Text:
    """A card with its suit symbol, red for hearts, diamonds and the high joker (show.palette)."""
    return Text(*palette.card(c))


def suit(s: str) -> Text:
    return Text(*palette.suit(s))


def signed(n: int, down: bool = False) -> Text:
    return Text(*palette.signed(n, down))
