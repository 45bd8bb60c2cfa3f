"""`history` in a narrow terminal (a phone, 40 columns): each hand as a few short lines instead of a
table whose columns would be cut to ellipses. Drawn without Rich, like the other table screens."""

from __future__ import annotations

from typing import Any

from pitchkeeper.game.cards import SUIT_SYMBOLS
from pitchkeeper.show.ansi import Text, signed


def lines(state: Any, record: Any, head: str, where: str, width: int) -> list[Text]:
    """The match hand by hand: who dealt and bid, the points, each side's change and total."""
    out = Text(head, style="bold").wrap(width) + Text(where, style="dim").wrap(width, indent=0)
    for h, hand in zip(state.hands, record.hands, strict=True):
        v = h.verdict
        made = ("made", "green") if v.bid.made else ("set", "red")
        out += Text.assemble((f"{h.number:>2} ", "bold"), f"{hand.dealer} dealt; {v.bid.player} bid {v.bid.label} "
                             f"{SUIT_SYMBOLS[v.trump]} ", made).wrap(width, indent=3)
        pts = ", ".join(f"{a.point} {a.side}" for a in v.awards) or "no points"
        out += Text.assemble("   ", (pts, "dim")).wrap(width, indent=3)
        scores = Text("   ").join(Text.assemble((f"{s} {h.scores[s]}", "bold"), " ", signed(v.delta[s]))
                                  for s in state.scores)
        out += Text("   ").append_text(scores).wrap(width, indent=3)
        if hand.note:
            out += Text.assemble("   ", (f"note: {hand.note}", "dim")).wrap(width, indent=3)
    return out
