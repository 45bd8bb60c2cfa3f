"""Terminal output of the reports (rules, judge match), drawn with pitchkeeper.show.ansi (not Rich).
Never imported by the domain."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pitchkeeper.errors import shown
from pitchkeeper.show import palette
from pitchkeeper.show.ansi import Console, Text
from pitchkeeper.show.ansi import Table as RTable
from pitchkeeper.words import explain
from pitchkeeper.words.verdict import bid_name, bidders, winner_of


def console() -> Console:
    """A console for this output (made per call: it reads the terminal width and NO_COLOR now)."""
    return Console()


def err() -> Console:
    return Console(stderr=True)


def card_text(card: str | None) -> Text:
    return Text(*palette.card(card))


def suit_text(suit: str) -> Text:
    return Text(*palette.suit(suit))


def signed(n: int, down: bool = False) -> Text:
    return Text(*palette.signed(n, down))


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
    console().print(Text.assemble((shown(r.name), "bold"), f"  {shown(r.title)}"))
    if r.source:
        console().print(Text(f"source: {shown(r.source)}", style="dim"))
    if len(r.chain) > 1:
        console().print(Text("extends: " + " <- ".join(shown(c) for c in r.chain), style="dim"))
    heading = None
    for h, line in words.values():
        if h != heading:
            console().print(Text(h, style="bold cyan"))
            heading = h
        console().print(Text(f"  {shown(line)}"))
    kept, dropped = explain.notes(r)
    if kept:
        console().print(Text("Choices where the source is silent", style="bold cyan"))
        for n in kept:
            console().print(Text(f"  {shown(n)}", style="dim"))
    if dropped:
        parents = ", ".join(Path(c).stem for c in r.chain[:-1])
        console().print(Text(f"Notes of {parents} that these house rules override", style="bold cyan"))
        for n in dropped:
            console().print(Text(f"  {shown(n)}", style="dim"))


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
        j = v.to_json()
        bid = Text.assemble(f"{bidders(j)} {bid_name(v.bid)} ", ("made" if v.bid.made else "set",
                                                             "green" if v.bid.made else "red"))
        pts = ", ".join(f"{a['point']}:{winner_of(j, a)}" for a in j["awards"])
        cells = [Text.assemble((f"{h.scores[s]}", "bold"), " ", signed(v.delta[s], v.direction == "down"))
                 for s in sides]
        t.add_row(str(h.number), suit_text(v.trump), bid, Text(pts, style="dim"), *cells)
    goal = f"down from {state.target} to 0" if state.direction == "down" else f"to {state.target}"
    console().print(Text.assemble((state.rules, "bold"), f"  {goal}"))
    console().print(t)
    if state.ending:
        console().print(Text.assemble(("winner: ", "bold"), (state.ending.winner, "bold green"),
                                    f" on hand {state.ending.hand} - {state.ending.reason}"))
    else:
        console().print(Text("the game goes on", style="dim"))
    for w in state.warnings:
        err().print(Text(f"warning: {shown(w)}", style="yellow"))
