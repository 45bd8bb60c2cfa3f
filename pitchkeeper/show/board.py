"""The table commands' drawing without Rich (show.ansi): the scoreboard and the verdict on a hand.

The scoreboard is drawn from the `status --json` object (game.scoreboard), so a cached status draws
without replaying the log.
"""

from __future__ import annotations

from typing import Any

from pitchkeeper.show import palette
from pitchkeeper.show.ansi import Console, Text, grid


def verdict(v: Any, table: Any) -> None:
    """The verdict on the hand just recorded (the scorecard without the card-by-card game count)."""
    from pitchkeeper.show import scorecard

    scorecard.draw(v, table, breakdown=False)


def draw(st: dict[str, Any], last: bool = False) -> None:
    """The scoreboard, drawn from `status --json` data (so a cached status draws without replaying)."""
    rows: list[list[Any]] = [["side"] + (["players"] if st["teams"] else []) + ["score", "needs", ""]]
    for s, v in st["scores"].items():
        need = st["needed"][s]
        flag = Text("in the hole", style=palette.BAD) if v < 0 else Text("")
        if st["winner"] == s:
            flag = Text("winner", style=palette.WINNER)
        cells: list[Any] = [Text(s, style="bold")] + ([" & ".join(st["sides"][s])] if st["teams"] else [])
        rows.append([*cells, Text(*palette.score(v)), str(need) if need else "out", flag])
    out = Console()
    t = grid(rows, right=(len(rows[0]) - 3, len(rows[0]) - 2), width=out.width)
    head = (f"{st['rules']} to {st['target']}" + (f" - {st['title']}" if st["title"] else "")
            + f"  (hand {st['hands']})")
    out.print(Text(head, style="bold"))
    for line in t:
        out.print(line)
    h = st["last_hand"]
    if last and h:
        pts = ", ".join(f"{a['point']} {a['side']}" for a in h["awards"]) or "no points"
        delta = ", ".join(f"{s} {d:+d}" for s, d in h["delta"].items())
        made = h["bid"]["made"]
        out.print(Text.assemble(("last hand ", "dim"), f"{h['number']}: {h['bid']['player']} bid "
                                f"{h['bid']['amount']} in {h['trump']}, ", palette.made(made),
                                f"; {pts}; {delta}"))
    if st["winner"]:
        out.print(Text.assemble(("winner: ", "bold"), (st["winner"], palette.WINNER),
                                f" on hand {st['won_on_hand']} - {st['reason']}"))
        out.print(Text("start the next game with: pitchkeeper new --rematch", style="dim"))
    else:
        only = " (only the bidding side can win)" if st["only_bidder"] else ""
        out.print(Text(f"{st['next_dealer']} deals next{only}"))
    sk = st["stakes"]
    if sk:
        parts = [f"stake {sk['stake']} {sk['unit']} a player"] if sk["stake"] else []
        if sk["forfeits"]:
            parts.append(f"pool {sk['pool']} (" + ", ".join(f"{p} {n}" for p, n in sk["forfeits"].items()) + ")")
        if sk["settled"]:
            parts.append("settled: " + ", ".join(f"{s} {n:+d}" for s, n in sk["settled"].items()))
        out.print(Text("; ".join(parts), style="cyan"))
