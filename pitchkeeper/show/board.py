"""The table commands' drawing (show.ansi, not Rich): the scoreboard, the verdict on a hand, the
history, and a correction before and after.

The scoreboard is drawn from the `status --json` object (game.scoreboard): the terminal shows what the
JSON says.
"""

from __future__ import annotations

from typing import Any

from pitchkeeper.errors import shown
from pitchkeeper.game.cards import pretty
from pitchkeeper.game.vocabulary import target_words
from pitchkeeper.show import history as narrow
from pitchkeeper.show import palette, scorecard
from pitchkeeper.show.ansi import Console, Text, fitted_grid, grid, signed, suit
from pitchkeeper.words.verdict import bid_name, bidders, called_words, changes, points_line, sale_tag


def verdict(v: Any, table: Any) -> None:
    """The verdict on the hand just recorded (the scorecard without the card-by-card game count)."""
    scorecard.draw(v, table, breakdown=False)


def draw(st: dict[str, Any], last: bool = False, preview: bool = False, points: tuple[tuple[str, str], ...] = ()
         ) -> None:
    """The scoreboard, drawn from `status --json` data. `preview`: of a hand not yet saved (`play` before
    "save this hand?"): a win is what saving it would do, not yet the game's end. `points`: (id, label) of
    the ruleset's points (Scoreboard.points), so that the last hand names every point, those not out too."""
    rows: list[list[Any]] = [["side"] + (["players"] if st["teams"] else []) + ["score", "needs", ""]]
    sets, gone = st.get("sets"), st.get("out") or []
    for s, v in st["scores"].items():
        need = st["needed"][s]
        hole = s in st["in_the_hole"]
        flag = Text("in the hole", style=palette.BAD) if hole else Text("")
        if sets is not None and s in gone:
            flag = Text(f"out: set {sets.get(s, 0)} times", style=palette.BAD)
        elif sets and sets.get(s):
            flag = Text.assemble(flag, " " if hole else "", (f"{sets[s]} set{'s' if sets[s] > 1 else ''}", "dim"))
        if st["winner"] == s:
            flag = Text("would win" if preview else "winner", style=palette.WINNER)
        cells: list[Any] = [Text(s, style="bold")] + ([" & ".join(st["sides"][s])] if st["teams"] else [])
        rows.append([*cells, Text(*palette.score(v, hole)), "-" if s in gone else str(need) if need else "out", flag])
    out = Console()
    t = grid(rows, right=(len(rows[0]) - 3, len(rows[0]) - 2), width=out.width)

    head = (f"{shown(st['rules'])} {target_words(st['reach'], st['target'], st.get('direction', 'up'))}"
            + (f" - {shown(st['title'])}" if st["title"] else "")
            + f"  (hand {st['hands']})")
    out.print(Text(head, style="bold"))
    for line in t:
        out.print(line)
    h = st["last_hand"]
    if last and h:
        pts = points_line(h, dict(points), points=[p for p, _ in points])
        delta = ", ".join(f"{s} {d:+d}" for s, d in h["delta"].items())
        made = h["bid"]["made"]
        called = called_words(h)
        out.print(Text.assemble(("last hand ", "dim"), f"{h['number']}: {h['bid']['player']} bid "
                                f"{bid_name(h['bid'])} in {h['trump']}, " + (f"{called}: {bidders(h)} " if called
                                                                              else ""),
                                palette.made(made), f"; {pts}; {delta}"))
    if st["winner"] and preview:
        out.print(Text.assemble("if this hand is saved, ", (st["winner"], palette.WINNER), f" wins - {st['reason']}"))
    elif st["winner"]:
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


NARROW = 72  # below this many columns, `history` draws each hand as stacked lines (a phone is 40)


def history(k: Any, state: Any) -> None:
    """`history`: the match hand by hand, with each side's running score and change, every point named
    (game always, a tie too, and those not out) and a sale of the pitch. As a table where one fits the
    terminal with every side's column under its name (the points broken onto more lines if they must);
    else, and in a narrow terminal (a phone), each hand as a few short lines, every side named."""
    out = Console()
    head = (f"{shown(k.ruleset.name)} "
            f"{target_words(k.ruleset.settings['win']['reach'], state.target, k.ruleset.direction)}")
    game = k.ruleset.game_point
    game_id = game.id if game else "game"
    others = tuple(p.id for p in k.ruleset.points if p is not game)
    labels = {p.id: p.label for p in k.ruleset.points}
    down = k.ruleset.direction == "down"
    table = None
    if out.width >= NARROW:
        rows: list[list[Any]] = [["#", "dealer", "bid", "trump", "points", *state.scores]]
        for h, hand in zip(state.hands, k.record.hands, strict=True):
            v = h.verdict
            j = v.to_json()
            tag = sale_tag(v.auction)
            called = f" ({pretty(v.bid.called)})" if v.bid.team is not None and v.bid.called else ""
            bid = Text.assemble(f"{bidders(j)} {bid_name(v.bid)}{called}{' ' + tag if tag else ''} ",
                                palette.made(v.bid.made))
            pts = Text(points_line(j, labels, game_id, others), style=palette.DIM)
            cells = [Text.assemble((str(h.scores[s]), "bold"), " ", signed(v.delta[s], down)) for s in state.scores]
            rows.append([str(h.number), hand.dealer, bid, suit(v.trump), pts, *cells])
        table = fitted_grid(rows, right=(0, *range(5, 5 + len(state.scores))), width=out.width, fold=4)
    if table is None:
        for line in narrow.lines(state, k.record, head, shown(k.path), out.width, game_id, others, labels,
                                 out.screen):
            out.print(line, wrap=False)
    else:
        for line in Text(f"{head}  {shown(k.path)}", style="bold").wrap(out.width, indent=0, cut=out.screen):
            out.print(line, wrap=False)
        for line in table:
            out.print(line, wrap=False)
    if state.ending:
        out.print(Text.assemble(("winner: ", "bold"), (state.ending.winner, palette.WINNER),
                                f" on hand {state.ending.hand} - {state.ending.reason}"))


def change(before: Any, after: Any, number: int) -> None:
    """`edit`: hand `number` and the scores, before and after the correction, and what changes in words."""
    old, new = before.hands[number - 1], after.hands[number - 1]

    def summary(h: Any) -> str:
        v = h.verdict
        j = v.to_json()
        called = called_words(j)
        return (f"{v.bid.player} {bid_name(v.bid)} in {v.trump}" + (f", {called}" if called else "")
                + f", {'made' if v.bid.made else 'set'}; {points_line(j)}")

    rows: list[list[Any]] = [["", "before", "after"]]
    for s in before.scores:
        rows.append([f"{s} change", f"{old.verdict.delta[s]:+d}", f"{new.verdict.delta[s]:+d}"])
    for s in before.scores:
        moved = after.scores[s] != before.scores[s]
        rows.append([f"{s} now", str(before.scores[s]), Text(str(after.scores[s]), style="bold" if moved else "")])
    rows.append(["winner", str(before.winner or "-"), str(after.winner or "-")])
    out = Console()
    out.print(Text(f"hand {number}", style="bold"))
    hand = ["hand", summary(old), summary(new)]
    table = grid([rows[0], hand, *rows[1:]], width=out.width)
    if max(line.cell_len for line in table) <= out.width and len(table) == len(rows) + 2:
        lines = table  # the hands fit side by side: one table, before | after
    else:  # the hands on labelled lines of their own (wrapped), then the numbers, before | after
        label = max(len("before"), len("after")) + 2
        lines = []
        for name, text in (("before", hand[1]), ("after", hand[2])):
            lines += Text(f"{name:<{label}}{text}").wrap(out.width, indent=label)
        lines += grid(rows, width=out.width)
    for line in lines:
        out.print(line, wrap=False)
    what = changes(old.verdict.to_json(), new.verdict.to_json())
    head = Text("what changes: ", style="bold")
    for line in head.append_text(Text("; ".join(what) or "nothing")).wrap(out.width, indent=2):
        out.print(line, wrap=False)

