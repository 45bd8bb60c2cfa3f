"""`check`: a hand-edited match log checked like a ledger, every problem with its hand and line."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from pitchkeeper.cli import JsonOpt, emit_json, topic
from pitchkeeper.errors import shown
from pitchkeeper.logbook import problems, store

commands = topic()


@commands.command("check")
def check(
    file: Annotated[str | None, typer.Argument(help="A match log (default: the current match).",
                                               show_default=False)] = None,
    as_json: JsonOpt = False,
) -> None:
    """Check a hand-edited match log: every problem with its hand and line; exit 2 if there is any."""
    report = problems.check_log(store.resolve_match_path(file))
    path, warnings = report.path, report.warnings
    found = [f.to_json() for f in report.problems]
    if as_json:
        emit_json({"match": str(path), "ok": not report.errors, "problems": found, "warnings": list(warnings)})
    else:
        for w in warnings:
            sys.stderr.write(f"warning: {shown(w)}\n")
        for f in report.problems:
            sys.stderr.write(f"{f}\n")
        if report.errors:  # the verdict on stdout agrees with the exit status and --json's "ok", for one error
            # or many; stderr holds the problems alone (one error is one line)
            sys.stdout.write(f"{len(report.errors)} problem(s) in {shown(path)}\n")
        else:
            cautions = len(report.problems) + len(warnings)  # every problem found here is a warning
            sys.stdout.write(f"{path}: ok - {report.hands} hand(s), {report.ruleset.name}"
                             + (f", {cautions} warning(s)" if cautions else "") + "\n")
    if report.errors:
        raise typer.Exit(2)
