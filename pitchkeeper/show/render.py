"""Terminal output of the reports (rules, judge match, history, edit's change, matches). Drawn with
pitchkeeper.show.ansi, not Rich: a command that draws starts as fast as one that prints JSON, and
1,000 hands are drawn as fast as they are computed. Never imported by the domain."""

from __future__ import annotations

from typing import Any

from pitchkeeper.show import palette
from pitchkeeper.show.ansi import Console, Text
from pitchkeeper.show.ansi import Table as RTable


def console() -> Console:
    """A console for this output (made per call: it reads the terminal width and NO_COLOR now)."""
    return Console()


def err() -> Console:
    return Console(stderr=True)


def card_text(card: str | None) -> Text:
    return Text(*palette.card(card))


def suit_text(suit: str) -> Text:
    return Text(*palette.suit(suit))


def signed(n: int) -> Text:
    return Text(*palette.signed(n))


def rules_list(rows: list[dict[str, Any]]) -> None:
    t = RTable()
    t.add_column("name", style="bold")
    t.add_column("points", justify="right")
    t.add_column("to", justify="right")
    t.add_column("what it is")
    for r in rows:
        t.add_row(r["name"], str(r["points"]), str(r["target"]), r["title"])
    console().print(t)


def rules_show(r: Any, words: dict[str, tuple[str, str]]) -> None:
    console().print(Text.assemble((r.name, "bold"), f"  {r.title}"))
    if r.source:
        console().print(Text(f"source: {r.source}", style="dim"))
    if len(r.chain) > 1:
        console().print(Text("extends: " + " <- ".join(r.chain), style="dim"))
    heading = None
    for h, line in words.values():
        if h != heading:
            console().print(Text(h, style="bold cyan"))
            heading = h
        console().print(Text(f"  {line}"))
    if r.notes:
        console().print(Text("Choices where the source is silent", style="bold cyan"))
        for n in r.notes:
            console().print(Text(f"  {n}", style="dim"))


def rules_diff(a: Any, b: Any, rows: list[tuple[str, str, str]]) -> None:
    if not rows:
        console().print(f"{a.name} and {b.name} agree on everything.")
        return
    t = RTable()
    t.add_column("topic", style="bold")
    t.add_column(a.name)
    t.add_column(b.name)
    for topic, x, y in rows:
        t.add_row(topic, x, y)
    console().print(t)


def match_sheet(state: Any) -> None:
    """A match hand by hand: bid, points, score change and running totals."""
    sides = list(state.scores)
    t = RTable()
    t.add_column("#", justify="right")
    t.add_column("trump")
    t.add_column("bid")
    t.add_column("points")
    for s in sides:
        t.add_column(s, justify="right")
    for h in state.hands:
        v = h.verdict
        bid = Text.assemble(f"{v.bid.player} {v.bid.label} ", ("made" if v.bid.made else "set",
                                                               "green" if v.bid.made else "red"))
        pts = ", ".join(f"{a.point}:{a.side}" for a in v.awards)
        cells = [Text.assemble((f"{h.scores[s]}", "bold"), " ", signed(v.delta[s])) for s in sides]
        t.add_row(str(h.number), suit_text(v.trump), bid, Text(pts, style="dim"), *cells)
    console().print(Text.assemble((state.rules, "bold"), f"  to {state.target}"))
    console().print(t)
    if state.ending:
        console().print(Text.assemble(("winner: ", "bold"), (state.ending.winner, "bold green"),
                                    f" on hand {state.ending.hand} - {state.ending.reason}"))
    else:
        console().print(Text("the game goes on", style="dim"))
    for w in state.warnings:
        err().print(Text(f"warning: {w}", style="yellow"))


def history(k: Any, state: Any) -> None:
    """`history`: the match hand by hand."""
    t = RTable()
    for col, just in (("#", "right"), ("dealer", "left"), ("bid", "left"), ("trump", "left"), ("points", "left")):
        t.add_column(col, justify=just)  # type: ignore[arg-type]
    for s in state.scores:
        t.add_column(s, justify="right")
    for h, hand in zip(state.hands, k.record.hands, strict=True):
        v = h.verdict
        bid = Text.assemble(f"{v.bid.player} {v.bid.label} ", palette.made(v.bid.made))
        pts = ", ".join(f"{a.point}:{a.side}" for a in v.awards)
        cells = [Text.assemble((str(h.scores[s]), "bold"), " ", signed(v.delta[s])) for s in state.scores]
        t.add_row(str(h.number), hand.dealer, bid, suit_text(v.trump), Text(pts, style="dim"), *cells)
    console().print(Text(f"{k.ruleset.name} to {state.target}  {k.path}", style="bold"))
    console().print(t)
    if state.ending:
        console().print(Text.assemble(("winner: ", "bold"), (state.ending.winner, palette.WINNER),
                                           f" on hand {state.ending.hand} - {state.ending.reason}"))


def change(before: Any, after: Any, number: int) -> None:
    """`edit`: hand `number` and the scores before and after the correction."""
    old, new = before.hands[number - 1], after.hands[number - 1]
    t = RTable(title=f"hand {number}")
    t.add_column("")
    t.add_column("before")
    t.add_column("after")

    def summary(h: Any) -> str:
        v = h.verdict
        pts = ", ".join(f"{a.point}:{a.side}" for a in v.awards) or "-"
        return f"{v.bid.player} {v.bid.label} in {v.trump}, {'made' if v.bid.made else 'set'}; {pts}"

    t.add_row("hand", summary(old), summary(new))
    for s in before.scores:
        t.add_row(f"{s} change", f"{old.verdict.delta[s]:+d}", f"{new.verdict.delta[s]:+d}")
    for s in before.scores:
        t.add_row(f"{s} now", str(before.scores[s]), Text(str(after.scores[s]), style="bold"
                                                          if after.scores[s] != before.scores[s] else ""))
    t.add_row("winner", str(before.winner or "-"), str(after.winner or "-"))
    console().print(t)


def matches(rows: list[dict[str, Any]]) -> None:
    """`matches`: every kept log with its state."""
    from pathlib import Path

    t = RTable()
    for col in ("", "match", "rules", "hands", "scores", "state"):
        t.add_column(col)
    for row in rows:
        if row["state"] == "broken":
            st = Text(f"broken: {row['error']}", style=palette.BAD)
        elif row["winner"]:
            st = Text(f"won by {row['winner']}", style=palette.GOOD)
        else:
            st = Text("playing")
        scores = ", ".join(f"{s} {n}" for s, n in (row["scores"] or {}).items())
        t.add_row("*" if row["current"] else "", Path(row["match"]).name, row["rules"] or "", str(row["hands"] or 0),
                  scores, st)
    console().print(t)
