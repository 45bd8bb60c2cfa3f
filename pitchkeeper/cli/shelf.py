"""Commands about the kept matches and the data folder: matches, use, where, sheet.

Drawn with pitchkeeper.show.ansi (no Rich): a list of matches is read at the table, on a phone too.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from pitchkeeper.cli import JsonOpt, emit_json, topic
from pitchkeeper.errors import PitchError, shown
from pitchkeeper.game import rulesets
from pitchkeeper.game.vocabulary import target_words
from pitchkeeper.logbook import paths, shelf, store, writing
from pitchkeeper.logbook.book import Logbook
from pitchkeeper.reports.sheet import blank_sheet
from pitchkeeper.show.ansi import Console, Text

commands = topic()


def _row(number: int, f: Path, current: Path | None) -> dict[str, Any]:
    row: dict[str, Any] = {"number": number, "id": f.stem, "match": str(f),
                           "current": current is not None and f.resolve() == current.resolve()}
    try:
        k, state = Logbook(f).load()
        row.update(rules=k.ruleset.name, title=k.data.get("title"), players=list(k.record.table.players),
                   goal=target_words(k.ruleset.settings["win"]["reach"], state.target, k.ruleset.direction),
                   hands=len(state.hands), scores=state.scores, winner=state.winner,
                   state="won" if state.ending else "playing", error=None)
    except PitchError as e:
        row.update(rules=None, title=None, players=None, goal=None, hands=None, scores=None, winner=None,
                   state="broken", error=str(e))
    return row


@commands.command("matches")
def matches(
    show_path: Annotated[bool, typer.Option("--path", help="Print only the data folder the logs are kept in.")]
    = False,
    as_json: JsonOpt = False,
) -> None:
    """The kept matches, numbered in the order they began: name, title, ruleset, score and state; * marks the
    current one.

    `pitchkeeper use NUMBER` (or a part of the name) makes one the current match again.
    """
    if show_path:
        sys.stdout.write(f"{paths.matches_dir()}\n")
        return
    try:
        current = store.current_match()
    except PitchError:
        current = None
    rows = [_row(i, f, current) for i, f in enumerate(shelf.kept(), 1)]
    if as_json:
        emit_json(rows)
        return
    if not rows:
        sys.stdout.write(f"no matches yet in {paths.matches_dir()}: start one with `pitchkeeper new`\n")
        return

    out = Console()

    def say(line: Text) -> None:
        for part in line.wrap(out.width, indent=6):
            out.print(part, wrap=False)

    for row in rows:
        mark = "*" if row["current"] else " "
        out.print(Text.assemble((f"{mark}{row['number']:>3}  ", "bold"), (shown(row["id"]), "bold")))
        if row["title"]:
            say(Text(f"      {shown(row['title'])}"))
        if row["state"] == "broken":
            say(Text(f"      broken: {shown(row['error'])}", style="red"))
            continue
        scores = ", ".join(f"{s} {n}" for s, n in row["scores"].items())
        state = (Text(f"won by {row['winner']}", style="green") if row["winner"]
                 else Text(f"playing, hand {row['hands']}" if row["hands"] else "not begun"))
        say(Text.assemble(f"      {row['rules']} {row['goal']}; {scores}; ", state))
    out.print(Text(f"kept in {shown(paths.matches_dir())}; * is the current match; `pitchkeeper use N` makes "
                   "match N current", style="dim"))


@commands.command("use")
def use(
    which: Annotated[str, typer.Argument(metavar="MATCH", help="The match's number in `matches`, its name, a "
                                         "unique part of its name or title, or a log file.", show_default=False)],
    as_json: JsonOpt = False,
) -> None:
    """Make a kept match the current one again (every table command then works on it)."""
    path = shelf.find(which)
    _, state = shelf.make_current(path)  # a broken log is refused: the table would meet its error on every command
    if as_json:
        emit_json({"match": str(path), "rules": state["rules"], "hands": len(state["hands"]), "scores": state["scores"],
                   "winner": state["winner"]})
        return
    scores = ", ".join(f"{s} {n}" for s, n in state["scores"].items())
    sys.stdout.write(f"current match: {shown(path.stem)} ({state['rules']}, hand {len(state['hands'])}; {scores})\n")


@commands.command("where")
def where(as_json: JsonOpt = False) -> None:
    """The data folder (match logs, the current-match pointer) and the current match."""
    try:
        current = store.current_match()
    except PitchError:
        current = None
    info = {"data": str(paths.data_dir()), "matches": str(paths.matches_dir()),
            "current": str(current) if current else None,
            "override": "PITCHKEEPER_HOME"}
    if as_json:
        emit_json(info)
        return
    sys.stdout.write(f"data folder:   {info['data']}\nmatch logs:    {info['matches']}\n"
                     f"current match: {info['current'] or '(none: start one with `pitchkeeper new`)'}\n"
                     "(set PITCHKEEPER_HOME to keep them elsewhere)\n")


@commands.command("sheet")
def sheet(
    rules: Annotated[str, typer.Argument(metavar="RULESET", help="A built-in name or a ruleset file.",
                                         show_default=False)],
    out: Annotated[Path | None, typer.Option("--output", "-o", metavar="FILE", show_default=False,
                                             help="Write the page here (default: standard output).")] = None,
    sides: Annotated[str | None, typer.Option("--sides", show_default=False, help="The sides' names, such as "
                                              "\"Us,Them\" or the players (default: Us and Them where partners "
                                              "play, else 4 players).")] = None,
    rows: Annotated[int, typer.Option("--rows", min=1, max=60, help="Rows for hands.")] = 16,
    title: Annotated[str | None, typer.Option("--title", help="A heading for the sheet.", show_default=False)]
    = None,
) -> None:
    """A printable blank score sheet for a ruleset: one HTML page with a column for each of its points."""
    try:
        r = rulesets.load(rules)
    except PitchError as e:
        raise e.at("RULESET") from None
    if sides:
        names = [s.strip() for s in sides.split(",") if s.strip()]
    elif r.partnerships_ok:
        names = ["Us", "Them"]
    else:
        names = [f"Player {i}" for i in range(1, min(max(r.settings["players"]["counts"]), 4) + 1)]
    text = blank_sheet(r, names, rows, title)
    if out is None:
        sys.stdout.write(text)
        return

    writing.write_atomic(out, text)
    sys.stderr.write(f"wrote {out}: a blank {r.name} score sheet ({len(r.points)} point columns)\n")
