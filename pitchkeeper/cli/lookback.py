"""Commands that look back at one match: export, chart (`stats`, over many logs, is cli.tally's).

Each command parses, calls the domain (export, chart) and writes; Rich is never imported.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from pitchkeeper.cli import JsonOpt, MatchOpt, emit_json, topic, warn
from pitchkeeper.cli.library import may_write_over
from pitchkeeper.errors import PitchError, shown
from pitchkeeper.game.vocabulary import target_words
from pitchkeeper.logbook import loader, store, writing
from pitchkeeper.reports import chart, export
from pitchkeeper.show import render_chart

commands = topic()


def _replayed(match_opt: str | None) -> tuple[Any, Any, Any, Path]:
    """The match log named by --match (or the current one), read and replayed: errors name the file."""
    path = store.resolve_match_path(match_opt)
    k = loader.load(path, kind="file")
    warn(k.warnings)
    return k.ruleset, k.record, k.replay(), path


def _write_stdout(text: str) -> None:
    """Text as UTF-8 whatever the locale (a CSV's names and BOM must survive a pipe)."""
    buf = getattr(sys.stdout, "buffer", None)
    if buf is None:
        sys.stdout.write(text)
        return
    sys.stdout.flush()
    buf.write(text.encode("utf-8"))
    buf.flush()


@commands.command("export")
def export_cmd(
    match_opt: MatchOpt = None,
    fmt: Annotated[str | None, typer.Option("--format", "-f", show_default=False, metavar="csv|json|md|html|text",
                                            help="csv, json, md (Markdown), html, or text (a few lines to paste "
                                            "into a group chat); default: from OUT's suffix.")] = None,
    out: Annotated[Path | None, typer.Option("--output", "-o", show_default=False, metavar="OUT",
                                             help="Write to this file (atomically) instead of standard output.")] = None,
    bom: Annotated[bool, typer.Option("--bom", help="CSV: start with a byte-order mark, so that Excel reads "
                                      "the names as UTF-8 (tools reading the CSV do not want one).")] = False,
    force: Annotated[bool, typer.Option("--force", help="Write over OUT if it exists (never over a match "
                                        "log).")] = False,
) -> None:
    """Export a match: CSV for spreadsheets, JSON (judge match + the log's keys), Markdown, or a printable HTML page."""
    if fmt is None:
        if out is None:
            raise PitchError("say which format: csv, json, md, html or text", "--format")
        try:
            name = export.format_name(out.suffix)
        except PitchError:
            raise PitchError(f"cannot tell the format from {out.name}: give csv, json, md, html or text",
                             "--format") from None
    else:
        name = export.format_name(fmt)
    if out is not None:
        may_write_over(out, force)
    ruleset, record, state, _ = _replayed(match_opt)
    ex = export.build(ruleset, record, state)
    text = export.render(name, ex)
    if bom and name == "csv":
        text = export.BOM + text
    if out is None:
        _write_stdout(text)
        return

    writing.write_atomic(out, text)
    sys.stderr.write(f"wrote {shown(out)} ({name}, {len(state.hands)} hands)\n")


@commands.command("chart")
def chart_cmd(match_opt: MatchOpt = None, as_json: JsonOpt = False) -> None:
    """The score after each hand as a chart in the terminal: one symbol per side, the target dotted."""
    ruleset, record, state, path = _replayed(match_opt)
    p = chart.progression(state, ruleset.settings["win"]["reach"])
    if as_json:
        emit_json(p.to_json())
        return

    title = record.header.get("title") if isinstance(record.header.get("title"), str) else None
    what = f"{state.rules}, {target_words(ruleset.settings['win']['reach'], state.target, ruleset.direction)}"
    render_chart.chart(p, f"{title} - {what}" if title else f"{path.name}: {what}")
