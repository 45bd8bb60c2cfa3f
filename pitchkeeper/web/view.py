"""What the pages show, made from the library's data (the scoreboard and the `judge match` object).

Nothing here computes a score: it arranges figures the library computed (and the chart's geometry).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import segno
from markupsafe import Markup

from pitchkeeper.game.vocabulary import target_words
from pitchkeeper.words.verdict import bid_words, game_line, not_out_words, partnership, points_line, sale_words

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
    gain: int | None = None  # that change towards the goal (counting down, a score that comes down gains)


def card_text(card: str | None) -> str:
    """`10S` -> `10♠` (jokers stay as they are)."""
    if not card:
        return ""
    return card[:-1] + SUIT_SIGNS[card[-1]] if card[-1] in SUIT_SIGNS and len(card) > 1 else card


def sides(board: dict[str, Any]) -> list[SideRow]:
    last = board.get("last_hand") or {}
    delta = last.get("delta") or {}
    down = board.get("direction") == "down"
    rows = []
    for i, (s, v) in enumerate(board["scores"].items()):
        d = delta.get(s)
        rows.append(SideRow(s, board["sides"].get(s, []), v, board["needed"][s], s in board["in_the_hole"],
                            board["winner"] == s, i % len(COLOURS), d, None if d is None else -d if down else d))
    return rows


def colour_of(board: dict[str, Any]) -> dict[str, int]:
    """Side -> the index of its colour (class `cN`)."""
    return {s: i % len(COLOURS) for i, s in enumerate(board["scores"])}


def labels_of(ruleset: Any) -> dict[str, str]:
    """Point id -> the ruleset's own name for it ("high", "off jack", ...)."""
    return {r.id: r.label or r.id.replace("-", " ") for r in ruleset.points}


def verdict_lines(hand: dict[str, Any], ruleset: Any) -> list[str]:
    """Every point of the ruleset, in its order: `high A♠ – Us (Ann)`; a point the ruleset gives to the player
    dealt it says so, as the CLI does: `Dee (Them) was dealt low 3♠`; the points nobody won on one line,
    `not out: off-jack, low joker`; and game last, always, in the one wording of game (`game: tie (13-13),
    not scored`)."""
    labels = labels_of(ruleset)
    game = ruleset.game_point
    awarded: dict[str, list[dict[str, Any]]] = {}
    for a in hand.get("awards", []):
        awarded.setdefault(a["point"], []).append(a)
    out = []
    for rule in ruleset.points:
        name = labels[rule.id]
        if rule.id not in awarded or (game is not None and rule.id == game.id):
            continue
        for a in awarded[rule.id]:
            player = a.get("player") if a.get("player") and a["player"] != a["side"] else None
            card = f" {card_text(a['card'])}" if a.get("card") else ""
            value = f" ×{a['value']}" if a.get("value", 1) != 1 else ""
            if rule.to == "dealt":
                who = f"{player} ({a['side']})" if player else a["side"]
                out.append(f"{who} was dealt {name}{card}{value}")
            elif player and "teams" in hand:  # a called partner's hand: the player first, then the hand's side
                out.append(f"{name}{card}{value} – {player} ({a['side']})")
            else:
                out.append(f"{name}{card}{value} – {a['side']}" + (f" ({player})" if player else ""))
    nobody = not_out_words(hand, [r.id for r in ruleset.points if r is not game], labels)
    if nobody:  # one line for them all: a ruleset of thirteen points still fits a TV
        out.append(nobody)
    line = game_line(hand.get("game")) if game is not None else None
    if line is not None:
        out.append(line)
    return out


def bid_line(hand: dict[str, Any], sale: Any = None) -> str:
    """"Bob bid 3 in ♠ – made", a sale of the pitch named ("Cy bid 3 in ♠, bought from Ann – made")."""
    return bid_words(hand, sale, SUIT_SIGNS.get(hand["trump"], hand["trump"]))


def sale_of(s: Any, n: int) -> Any:
    """What hand n's auction decided (a sale of the pitch), from the snapshot's replay."""
    replayed = getattr(s, "replayed", None)
    return replayed.hands[n - 1].verdict.auction if replayed is not None and 0 < n <= len(replayed.hands) else None


def hand_rows(s: Any) -> list[dict[str, Any]]:
    """The phone's list of hands, newest first: the bid, every point (game always said), the totals."""
    labels = labels_of(s.ruleset)
    game = s.ruleset.game_point
    rows = []
    for i, h in enumerate(s.state["hands"], 1):
        sale = sale_of(s, i)
        rows.append({"number": i, "line": bid_line(h, sale), "sale": sale_words(sale),
                     "points": points_line(h, labels, game.id if game else "game"), "scores": h["scores"]})
    return list(reversed(rows))


def title_of(s: Any) -> str:
    """The match's own title, or who plays whom ("Us vs Them"); the ruleset is named under it."""
    sides_ = list(s.board["scores"])
    return s.board.get("title") or (" vs ".join(sides_) if len(sides_) <= 4 else s.ruleset.name)


def board_context(s: Any) -> dict[str, Any]:
    """What the scoreboard (and every page's head) shows of a snapshot."""
    last = s.state["hands"][-1] if s.state["hands"] else None
    sale = sale_of(s, len(s.state["hands"])) if last else None
    return {
        "board": s.board, "state": s.state, "version": s.version, "match": s.match, "sides": sides(s.board),
        "chart": chart(s.state, s.board), "title": title_of(s),
        "last": last, "last_lines": verdict_lines(last, s.ruleset) if last else [],
        "bid_line": bid_line(last, sale) if last else "", "sale": sale_words(sale),
        "partnership": partnership(last) if last else None,
        "reach_words": "must pass" if s.board["reach"] == "exceed" else "to",
        "goal_words": target_words(s.board["reach"], s.board["target"], s.board.get("direction", "up")),
    }


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

# wide: a TV has room across, not down. The labels are drawn 28 units high (style.css), which on a 1080p TV
# is more than 2% of the screen's height (read from 3 m); the margins hold them, at a phone's larger font
# too, and the target's label above its line at the top.
W, H, PAD_L, PAD_R, PAD_T, PAD_B = 860, 280, 80, 16, 40, 50


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
    """Running totals of each side after every hand (hand 0: everyone at 0; counting down, everyone at the
    target), the goal as a line (the target; counting down, 0)."""
    colours = colour_of(board)
    names = list(board["scores"])
    down = board.get("direction") == "down"
    start = state["target"] if down else 0
    series = {s: [start] + [h["scores"][s] for h in state["hands"]] for s in names}
    n = len(state["hands"])
    target = 0 if down else state["target"]
    lo = min([0] + [v for vs in series.values() for v in vs])
    hi = max([target, start] + [v for vs in series.values() for v in vs])
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
