"""The score progression of a match as data, and as a plain-text step chart.

One `Progression` feeds both the HTML export's SVG and the terminal chart, so the two never
disagree. The text grid is built here without Rich (pure strings, testable as text); the
terminal module only colours it.
"""

from __future__ import annotations

import math
from itertools import pairwise
from typing import TYPE_CHECKING, Any, NamedTuple

from pitchkeeper.cells import cell_len, cut

if TYPE_CHECKING:
    from pitchkeeper.game.match import MatchState

# One ASCII symbol per side (at most 9 players sit at a table): readable without colour.
SYMBOLS = ("o", "x", "+", "#", "@", "%", "&", "$", "~")
CLASH = "*"  # two or more sides on the same cell


class Progression(NamedTuple):
    """Running totals per side after each hand, hand 0 being the start (every side at 0; counting down,
    every side at the target)."""

    sides: tuple[str, ...]
    hands: tuple[int, ...]  # 0, 1, 2, ... n
    scores: dict[str, tuple[int, ...]]  # side -> total after each entry of `hands`
    target: int
    winner: str | None
    reach: str = "reach"  # the ruleset's win.reach: "reach" the target, or "exceed" it
    direction: str = "up"  # "down": from the target to 0 (win.direction)

    @property
    def line(self) -> int:
        """Where the goal line is drawn: the target; counting down, 0."""
        return 0 if self.direction == "down" else self.target

    @property
    def goal(self) -> str:
        """The goal line's label, in the words of the headline: "target 21", "must pass 21"; counting down
        "goal 0" or "must pass 0"."""
        return f"{'goal' if self.direction == 'down' else 'target'} {self.line}" if self.reach == "reach" \
            else f"must pass {self.line}"

    @property
    def lo(self) -> int:
        """The bottom of the scale: 0, or the lowest score when a side went in the hole (or past 0)."""
        return min([0] + [v for s in self.sides for v in self.scores[s]])

    @property
    def hi(self) -> int:
        """The top of the scale: the target, or the highest score when a side went past it (or, counting
        down, back above it)."""
        return max([self.target] + [v for s in self.sides for v in self.scores[s]])

    def to_json(self) -> dict[str, Any]:
        return {"target": self.target, "hands": list(self.hands), "winner": self.winner,
                "scores": {s: list(v) for s, v in self.scores.items()}}


def progression(state: MatchState, reach: str = "reach") -> Progression:
    """From a replayed match (match.MatchState); `reach`: its ruleset's win.reach."""
    sides = tuple(state.scores)
    start = state.target if state.direction == "down" else 0
    scores = {s: (start,) + tuple(h.scores[s] for h in state.hands) for s in sides}
    hands = tuple(range(len(state.hands) + 1))
    return Progression(sides, hands, scores, state.target, state.winner, reach, state.direction)


def scale_step(span: int, rows: int, target: int) -> int:
    """Points per row: the least that fits `span` into `rows`, preferring one that divides the target.

    A step dividing the target puts both 0 and the target on a grid row; otherwise the grid is
    aligned on the target, which is the line that matters.
    """
    need = max(1, math.ceil(span / max(1, rows - 1)))
    for s in range(need, 2 * need + 1):
        if target % s == 0:
            return s
    return need


class Cell(NamedTuple):
    char: str
    side: int | None = None  # index into Progression.sides; None for axes, labels, target and clashes
    kind: str = "plot"  # plot | axis | label | target | clash


class TextChart(NamedTuple):
    """A grid of cells (row 0 at the top) and the legend, ready to print or colour."""

    rows: tuple[tuple[Cell, ...], ...]
    legend: tuple[tuple[str, int | None, str], ...]  # (symbol, side index, words)
    width: int = 80

    def lines(self) -> list[str]:
        return ["".join(c.char for c in row).rstrip() for row in self.rows]

    def legend_lines(self) -> list[list[tuple[str, int | None, str]]]:
        """The legend entries wrapped to the chart's width (long side names take more lines)."""
        out: list[list[tuple[str, int | None, str]]] = [[]]
        used = 0
        for entry in self.legend:
            sym, _, words = entry
            words = cut(words, self.width - 6)  # in terminal cells: a name of wide letters is cut sooner
            w = cell_len(sym) + 1 + cell_len(words) + 2
            if out[-1] and used + w > self.width:
                out.append([])
                used = 0
            out[-1].append((sym, entry[1], words))
            used += w
        return out

    def text(self) -> str:
        legend = ["  ".join(f"{sym} {words}".strip() for sym, _, words in line) for line in self.legend_lines()]
        return "\n".join([*self.lines(), *legend]) + "\n"


def _rows_in_order(p: Progression, idx: int, row_of: Any, nrows: int) -> dict[str, int]:
    """The row of each side at entry `idx`: its scaled row, except that unequal scores never share a
    row (the higher goes a row up, or the lower a row down at the top of its band), so the chart shows
    sides level only when they are, and never in the wrong order. The goal line is a border: a side that
    has not reached it is drawn below it (counting down, above it), never on it, so the line is touched
    only by a score at or past the goal (unless more different scores fall on one side of it than it has
    rows: then the order wins)."""
    trow = row_of(p.line)
    down = p.direction == "down"
    rows: dict[str, int] = {}
    for reached in (False, True):
        band = [s for s in p.sides if (p.scores[s][idx] <= p.line if down else p.scores[s][idx] >= p.line) == reached]
        if down:  # the goal line at 0, the scores falling to it from above
            top, bottom = (trow, nrows - 1) if reached else (0, trow - 1)
        else:
            top, bottom = (0, trow) if reached else (trow + 1, nrows - 1)
        if top > bottom:  # no room beyond the line (never at the scale `text_chart` draws): the whole height
            top, bottom = 0, nrows - 1
        rows.update(_in_band(p, idx, band, row_of, top, bottom))
    if any(rows[a] <= rows[b] for a in p.sides for b in p.sides if p.scores[a][idx] < p.scores[b][idx]):
        # more different scores on one side of the line than it has rows: the order matters more
        return _in_band(p, idx, list(p.sides), row_of, 0, nrows - 1)
    return rows


def _in_band(p: Progression, idx: int, sides: list[str], row_of: Any, top: int, bottom: int) -> dict[str, int]:
    """The rows of `sides` within rows top..bottom (row numbers fall as scores rise), in score order."""
    order = sorted(sides, key=lambda s: p.scores[s][idx])
    rows = {s: min(max(row_of(p.scores[s][idx]), top), bottom) for s in order}
    for a, b in pairwise(order):  # upwards
        if p.scores[b][idx] > p.scores[a][idx] and rows[b] >= rows[a]:
            rows[b] = rows[a] - 1
        elif p.scores[b][idx] == p.scores[a][idx]:
            rows[b] = rows[a]
    if order and rows[order[-1]] < top:  # pushed above the band: push down from its top instead
        rows[order[-1]] = top
        for a, b in pairwise(order[::-1]):
            if p.scores[b][idx] < p.scores[a][idx] and rows[b] <= rows[a]:
                rows[b] = rows[a] + 1
            elif p.scores[b][idx] == p.scores[a][idx]:
                rows[b] = rows[a]
    return {s: min(max(r, top), bottom) for s, r in rows.items()}


def text_chart(p: Progression, width: int = 80, height: int = 16) -> TextChart:
    """A step chart: each hand a short flat step per side, the target a dotted row.

    Fits `width` columns (at least 30): hands are squeezed (sampled) when there are more than
    the columns allow, the last hand always shown.
    """
    width = max(30, width)
    lo, hi = p.lo, p.hi
    step = scale_step(hi - lo, height, p.target)
    lo = p.line - math.ceil((p.line - lo) / step) * step
    top = p.line + math.ceil((hi - p.line) / step) * step
    nrows = (top - lo) // step + 1
    label_w = max(len(str(lo)), len(str(top))) + 1
    plot_w = width - label_w - 1
    n = len(p.hands)
    block = max(1, min(4, plot_w // n))
    shown = n if n * block <= plot_w else plot_w // block
    # Which entries of p.hands each column block shows (evenly sampled, first and last kept).
    picks = list(range(n)) if shown >= n else sorted({round(i * (n - 1) / (shown - 1)) for i in range(shown)})

    def row_of(v: int) -> int:
        return nrows - 1 - round((v - lo) / step)

    grid: list[list[Cell]] = [[Cell(" ", None, "plot") for _ in range(len(picks) * block)] for _ in range(nrows)]
    trow = row_of(p.line)
    for x in range(len(picks) * block):
        grid[trow][x] = Cell(".", None, "target")
    for b, idx in enumerate(picks):
        rows_at = _rows_in_order(p, idx, row_of, nrows)
        for si, s in enumerate(p.sides):
            r = rows_at[s]
            for x in range(b * block, b * block + block):
                here = grid[r][x]
                if (here.kind == "plot" and here.side is not None and here.side != si) or here.kind == "clash":
                    grid[r][x] = Cell(CLASH, None, "clash")
                else:
                    grid[r][x] = Cell(SYMBOLS[si % len(SYMBOLS)], si, "plot")
    rows: list[tuple[Cell, ...]] = []
    for r in range(nrows):
        v = lo + (nrows - 1 - r) * step
        label = str(v).rjust(label_w - 1) + " "
        marker = "+" if r == trow else "|"
        rows.append(tuple([Cell(ch, None, "label") for ch in label] + [Cell(marker, None, "axis")] + grid[r]))
    # x axis: a rule with a tick under each labelled block, then the hand numbers.
    axis = [Cell(" ", None, "axis")] * label_w + [Cell("+", None, "axis")]
    labels = [" "] * (label_w + 1 + len(picks) * block)
    last_text = str(p.hands[picks[-1]])
    last_start = min(label_w + 1 + (len(picks) - 1) * block, len(labels) - len(last_text))
    labels[last_start:last_start + len(last_text)] = list(last_text)  # the last hand is always labelled
    free_from = 0
    for b, idx in enumerate(picks[:-1]):
        text = str(p.hands[idx])
        start = label_w + 1 + b * block
        if start >= free_from and start + len(text) + 1 < last_start:
            labels[start:start + len(text)] = list(text)
            free_from = start + len(text) + 2
    axis += [Cell("-", None, "axis")] * (len(picks) * block)
    rows.append(tuple(axis))
    rows.append(tuple(Cell(ch, None, "label") for ch in "".join(labels)))
    legend: list[tuple[str, int | None, str]] = [(SYMBOLS[i % len(SYMBOLS)], i, s) for i, s in enumerate(p.sides)]
    legend.append(("...", None, p.goal))
    if any(c.kind == "clash" for row in rows for c in row):
        legend.append((CLASH, None, "sides level"))
    if shown < n:
        legend.append(("", None, f"x: hands, {len(picks)} of {n - 1} shown"))
    return TextChart(tuple(rows), tuple(legend), width)
