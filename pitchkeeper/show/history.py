"""`history` in a narrow terminal (a phone, 40 columns): each hand as a few short lines instead of a
table whose columns would be cut to ellipses. Drawn without Rich, like the other table screens."""

from __future__ import annotations

from typing import Any

from pitchkeeper.game.cards import SUIT_SYMBOLS, pretty
from pitchkeeper.show.ansi import Text, signed
from pitchkeeper.words.verdict import bid_name, bidders, points_line, sale_words


def lines(state: Any, record: Any, head: str, where: str, width: int, game_id: str = "game",
          points: tuple[str, ...] = (), labels: dict[str, str] | None = None, cut: bool = False) -> list[Text]:
    """The match hand by hand: who dealt and bid (and a sale of the pitch), every point (game always said,
    a tie too, and of `points`, the ruleset's others, those not out), by their `labels` as the TV names them;
    each side's change and total. `cut`: a path longer than the screen is cut after a / (Text.wrap)."""
    out = Text(head, style="bold").wrap(width) + Text(where, style="dim").wrap(width, indent=0, cut=cut)
    for h, hand in zip(state.hands, record.hands, strict=True):
        v = h.verdict
        made = ("made", "green") if v.bid.made else ("set", "red")
        sale = sale_words(v.auction)
        j = v.to_json()
        called = f" ({pretty(v.bid.called)})" if v.bid.team is not None and v.bid.called else ""
        out += Text.assemble((f"{h.number:>2} ", "bold"), f"{hand.dealer} dealt; " + (f"{sale}; " if sale else "")
                             + f"{bidders(j)} bid {bid_name(v.bid)} {SUIT_SYMBOLS[v.trump]}{called} ", made
                             ).wrap(width, indent=3)
        pts = points_line(j, labels, game_id, points)
        out += Text.assemble("   ", (pts, "dim")).wrap(width, indent=3)
        down = v.direction == "down"
        out += packed([Text.assemble((f"{s} {h.scores[s]}", "bold"), " ", signed(v.delta[s], down))
                       for s in state.scores], width)
        if hand.note:
            out += Text.assemble("   ", (f"note: {hand.note}", "dim")).wrap(width, indent=3)
    return out


def packed(items: list[Text], width: int, indent: int = 3, gap: int = 3) -> list[Text]:
    """Short items (each side's score and change) on as few lines as fit, indented, never one cut in two."""
    lines: list[Text] = []
    row: Text | None = None
    for item in items:
        if row is not None and row.cell_len + gap + item.cell_len <= width:
            row = row.append_text(Text(" " * gap)).append_text(item)
            continue
        if row is not None:
            lines.append(row)
        row = Text(" " * indent).append_text(item)
    if row is not None:
        lines.append(row)
    return lines
