"""What the pages show, made from the library's data (the scoreboard and the `judge match` object).

Nothing here computes a score: it arranges figures the library computed (and the chart's geometry).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import segno
from markupsafe import Markup

SUIT_SIGNS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
# one colour per side, readable on the dark scoreboard and the light entry page alike
COLOURS = ("#4f9dff", "#ff6b6b", "#3ecf8e", "#f5b942", "#b58cff", "#ff8ad8", "#3fd0d4", "#c0c6cf", "#d9a066")


@dataclass(frozen=True)
class SideRow:
    name: str
    players: list[str]
    score: int
    needed: int
    in_the_hole: bool
    winner: bool
    colour: int  # the index of the side's colour (a class: the page's CSP allows no inline style)
    delta: int | None  # the change of the last hand


def card_text(card: str | None) -> str:
    """`10S` -> `10♠` (jokers stay as they are)."""
    if not card:
        return ""
    return card[:-1] + SUIT_SIGNS[card[-1]] if card[-1] in SUIT_SIGNS and len(card) > 1 else card


def sides(board: dict[str, Any]) -> list[SideRow]:
    last = board.get("last_hand") or {}
    delta = last.get("delta") or {}
    rows = []
    for i, (s, v) in enumerate(board["scores"].items()):
        rows.append(SideRow(s, board["sides"].get(s, []), v, board["needed"][s], s in board["in_the_hole"],
                            board["winner"] == s, i % len(COLOURS), delta.get(s)))
    return rows


def colour_of(board: dict[str, Any]) -> dict[str, int]:
    """Side -> the index of its colour (class `cN`)."""
    return {s: i % len(COLOURS) for i, s in enumerate(board["scores"])}


def point_name(point: str, labels: dict[str, str]) -> str:
    return labels.get(point) or point.replace("-", " ")


def verdict_lines(hand: dict[str, Any], labels: dict[str, str], dealt: frozenset[str] = frozenset()) -> list[str]:
    """One line per point won: `high A♠ – Us (Ann)`; a point the ruleset gives to the player dealt it
    says so, as the CLI does: `Dee (Them) was dealt low 3♠`; game with its count."""
    out = []
    for a in hand.get("awards", []):
        player = a.get("player") if a.get("player") and a["player"] != a["side"] else None
        card = f" {card_text(a['card'])}" if a.get("card") else ""
        value = f" ×{a['value']}" if a.get("value", 1) != 1 else ""
        name = point_name(a["point"], labels)
        if a["point"] in dealt:
            who = f"{player} ({a['side']})" if player else a["side"]
            out.append(f"{who} was dealt {name}{card}{value}")
        else:
            out.append(f"{name}{card}{value} – {a['side']}" + (f" ({player})" if player else ""))
    g = hand.get("game")
    if g and g.get("side") is None and g.get("counts") and any(g["counts"].values()):
        out.append("game – tied, nobody")
    return out


def bid_line(hand: dict[str, Any]) -> str:
    b = hand["bid"]
    trump = SUIT_SIGNS.get(hand["trump"], hand["trump"])
    if b["amount"] == 0:
        return f"{b['player']} pitched {trump} without a contract"
    return f"{b['player']} bid {b['amount']} in {trump} – " + ("made" if b["made"] else "set")


def number(n: int) -> str:
    """A score with a real minus sign (a hyphen reads as a dash across a room)."""
    return f"−{-n}" if n < 0 else str(n)


def qr_svg(url: str) -> Any:
    """The QR code of an address as inline SVG (dark on white, as every phone camera reads it)."""
    svg = segno.make(url, error="m").svg_inline(scale=5, dark="#10151c", light="#ffffff", border=3, omitsize=True)
    return Markup(svg)  # segno's own markup, of our own address: nothing from outside


def signed(n: int | None) -> str:
    if n is None:
        return ""
    return f"+{n}" if n > 0 else ("−" + str(-n) if n < 0 else "±0")


# ---------------------------------------------------------------------------
# the score chart: an inline SVG, drawn on the server (no chart library to ship)

# wide: a TV has room across, not down. The margins hold the labels at a phone's larger font too (the
# stylesheet scales them up on a narrow screen) and the target's label above its line at the top.
W, H, PAD_L, PAD_R, PAD_T, PAD_B = 860, 260, 58, 14, 30, 38


@dataclass(frozen=True)
class Line:
    side: str
    colour: int
    points: str  # the polyline's "x,y x,y ..."
    dots: list[tuple[float, float]]


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    lines: list[Line]
    grid: list[tuple[float, int]]  # (y, label)
    target_y: float
    zero_y: float
    xticks: list[tuple[float, int]]
    left: int = PAD_L  # where the plot starts (the y labels end just before it)
    right: int = W - PAD_R


def chart(state: dict[str, Any], board: dict[str, Any]) -> Chart:
    """Running totals of each side after every hand (hand 0: everyone at 0), the target as a line."""
    colours = colour_of(board)
    names = list(board["scores"])
    series = {s: [0] + [h["scores"][s] for h in state["hands"]] for s in names}
    n = len(state["hands"])
    target = state["target"]
    lo = min([0] + [v for vs in series.values() for v in vs])
    hi = max([target] + [v for vs in series.values() for v in vs])
    span = max(hi - lo, 1)

    def x(k: int) -> float:
        return round(PAD_L + (W - PAD_L - PAD_R) * (k / max(n, 1)), 1)

    def y(v: int) -> float:
        return round(PAD_T + (H - PAD_T - PAD_B) * (1 - (v - lo) / span), 1)

    step = next(s for s in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 10**9) if span / s <= 6)
    grid = [(y(v), v) for v in range(lo - lo % step, hi + 1, step) if v >= lo]
    xstep = next(s for s in (1, 2, 5, 10, 20, 50, 100, 10**9) if n / s <= 12)
    xticks = [(x(k), k) for k in range(0, n + 1, xstep)]
    lines = []
    for s in names:
        pts = [(x(k), y(v)) for k, v in enumerate(series[s])]
        lines.append(Line(s, colours[s], " ".join(f"{a},{b}" for a, b in pts), pts if n <= 40 else []))
    return Chart(W, H, lines, grid, y(target), y(0), xticks)
