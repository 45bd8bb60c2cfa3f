"""The verdict on a hand, drawn for a person: each award with its reason, the game count card by
card, illegal plays, and the settlement. Used by `judge hand` and by `hand` after recording.

Drawn with pitchkeeper.show.ansi, as every table command draws.
"""

from __future__ import annotations

from typing import Any

from pitchkeeper.show import palette
from pitchkeeper.show.ansi import Console, Text, card, grid, signed, suit
from pitchkeeper.words.verdict import bid_name, partnership


def draw(v: Any, table: Any, rules: str = "", breakdown: bool = True) -> None:
    """Print the scorecard; `breakdown` adds the game count card by card per side."""
    out = Console()
    for line in lines(v, table, rules, breakdown, out.width):
        out.print(line)


def lines(v: Any, table: Any, rules: str = "", breakdown: bool = True, width: int = 80) -> list[Text]:
    who = f"{v.bid.player} ({v.bid.side})" if table.teams else v.bid.player
    called = partnership(v.to_json())  # a called partner: who held the card, and the hand's sides
    head = Text.assemble(*([(rules, "bold"), "  "] if rules else []), (who, "bold"), f" bid {bid_name(v.bid)} in ",
                         suit(v.trump), f", {called}" if called else "", ": ",
                         palette.made(v.bid.made, strong=True))
    out = head.wrap(width, indent=2)
    if v.awards:
        rows: list[list[Any]] = [["point", "card", "to", "", "why"]]
        for a in v.awards:
            to = a.side if a.player in (None, a.side) else f"{a.player} ({a.side})"
            rows.append([a.point, card(a.card), to, str(a.value), Text(a.reason, style="dim")])
        out += grid(rows, right=(3,), width=width)
    else:
        out.append(Text("no points were won", style="dim"))
    if v.game is not None:
        counted = v.game.cards if breakdown else {}
        if any(counted.values()):
            sides = list(v.game.counts)
            rows = [[s + (" *" if s == v.game.side else "") for s in sides]]
            for i in range(max(len(counted[s]) for s in sides)):
                rows.append([Text.assemble(card(counted[s][i][0]), f" {counted[s][i][1]}") if i < len(counted[s])
                             else "" for s in sides])
            rows.append([Text(f"total {v.game.counts[s]}", style="bold") for s in sides])
            out.append(Text("game count", style="bold"))
            out += grid(rows, width=width)
        if v.game.side is None:  # a won game is in its award's row already
            out.append(Text(v.game.reason, style="dim"))
    for i in v.illegal:
        out.append(Text(f"illegal: trick {i.trick}: {i.why} [{i.rule}]", style="red"))
    down = v.direction == "down"
    out += Text("   ").join(Text.assemble(f"{s} took {v.taken[s]}: ", signed(d, down=down))
                            for s, d in v.delta.items()).wrap(width, indent=2)
    out += [Text(line, style="dim") for line in v.settlement]
    return out
