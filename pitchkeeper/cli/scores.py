"""Commands that read a match without changing it: status and history.

They read and replay the log (pitchkeeper.logbook.loader) and draw it (pitchkeeper.show.board); what only the
commands that write need (the Logbook, the entry of a hand, the write path) is not loaded here.
"""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from pitchkeeper.cli import JsonOpt, MatchOpt, emit_json, topic, warn
from pitchkeeper.cli.library import replayed
from pitchkeeper.show import board

commands = topic()


@commands.command("status")
def status(
    match: MatchOpt = None,
    share: Annotated[bool, typer.Option("--share", help="A few plain lines to paste into a group chat "
                                        "(as `export --format text`).")] = False,
    as_json: JsonOpt = False,
) -> None:
    """The scoreboard: scores, who deals next, points needed, who is in the hole, the last hand."""
    if share:
        from pitchkeeper.reports import export

        k, state = replayed(match)
        sys.stdout.write(export.to_text(export.build(k.ruleset, k.record, state)))
        return
    k, state = replayed(match)
    sb = k.scoreboard(state)
    st = sb.to_json()
    warn(st["warnings"])
    if as_json:
        emit_json(st)
        return
    board.draw(st, last=True, points=sb.points)


@commands.command("history")
def history(match: MatchOpt = None, as_json: JsonOpt = False) -> None:
    """The match hand by hand: dealer, bid, points, score changes and running totals."""
    k, state = replayed(match)
    if as_json:
        rows = []
        for h, hand in zip(state.hands, k.record.hands, strict=True):
            v = h.verdict.to_json()
            rows.append({"number": h.number, "dealer": hand.dealer, "trump": v["trump"], "bid": v["bid"],
                         "awards": v["awards"], "taken": v["taken"], "delta": v["delta"], "scores": h.scores,
                         "note": hand.note or None})
        emit_json({"match": str(k.path), "rules": k.ruleset.name, "target": state.target, "hands": rows,
                   "scores": state.scores, "winner": state.winner,
                   "won_on_hand": state.ending.hand if state.ending else None})
        return

    board.history(k, state)
    warn(list(k.warnings) + list(state.warnings))
