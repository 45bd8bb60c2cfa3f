"""Commands that look back: export, chart, stats.

Each command parses, calls the domain (export, chart, stats) and writes; drawing code is imported only
by the drawing paths (render_chart), never for export or --json.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from pitchkeeper.cli import JsonOpt, MatchOpt, emit_json, topic, warn
from pitchkeeper.errors import PitchError

commands = topic()


def _replayed(match_opt: str | None) -> tuple[Any, Any, Any, Path]:
    """The match log named by --match (or the current one), read and replayed: errors name the file."""
    from pitchkeeper.logbook import loader, store

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
    fmt: Annotated[str | None, typer.Option("--format", "-f", show_default=False, metavar="csv|json|md|html",
                                            help="csv, json, md (Markdown) or html; default: from OUT's suffix.")] = None,
    out: Annotated[Path | None, typer.Option("--output", "-o", show_default=False, metavar="OUT",
                                             help="Write to this file (atomically) instead of standard output.")] = None,
    bom: Annotated[bool, typer.Option("--bom", help="CSV: start with a byte-order mark, so that Excel reads "
                                      "the names as UTF-8 (tools reading the CSV do not want one).")] = False,
) -> None:
    """Export a match: CSV for spreadsheets, JSON (judge match + the log's keys), Markdown, or a printable HTML page."""
    from pitchkeeper.reports import export

    if fmt is None:
        if out is None:
            raise PitchError("say which format: csv, json, md or html", "--format")
        try:
            name = export.format_name(out.suffix)
        except PitchError:
            raise PitchError(f"cannot tell the format from {out.name}: give csv, json, md or html",
                             "--format") from None
    else:
        name = export.format_name(fmt)
    ruleset, record, state, _ = _replayed(match_opt)
    text = export.render(name, export.build(ruleset, record, state))
    if bom and name == "csv":
        text = export.BOM + text
    if out is None:
        _write_stdout(text)
        return
    from pitchkeeper.logbook import store

    store.write_atomic(out, text)
    sys.stderr.write(f"wrote {out} ({name}, {len(state.hands)} hands)\n")


@commands.command("chart")
def chart_cmd(match_opt: MatchOpt = None, as_json: JsonOpt = False) -> None:
    """The score after each hand as a chart in the terminal: one symbol per side, the target dotted."""
    from pitchkeeper.reports import chart

    _, record, state, path = _replayed(match_opt)
    p = chart.progression(state)
    if as_json:
        emit_json(p.to_json())
        return
    from pitchkeeper.show import render_chart

    title = record.header.get("title") if isinstance(record.header.get("title"), str) else path.name
    render_chart.chart(p, f"{title} - {state.rules}, to {state.target}")


@commands.command("stats")
def stats_cmd(
    matches: Annotated[list[Path] | None, typer.Argument(help="Match logs (default: the current match).",
                                                         metavar="[MATCH]...", show_default=False)] = None,
    all_logs: Annotated[bool, typer.Option("--all", "-a", help="Every match log in the data folder.")] = False,
    strict: Annotated[bool, typer.Option("--strict", help="Exit 2 at the end if any log could not be read.")] = False,
    as_json: JsonOpt = False,
) -> None:
    """Bids made and set, average bid, points per hand, who takes each point, games won: per player and team.

    A log that cannot be read is named on standard error (one line) and left out; the others are
    still counted. The exit status is 0 unless --strict is given, or no log at all could be read.
    """
    from pitchkeeper.logbook import paths, store
    from pitchkeeper.reports import stats

    files: list[Path] = list(matches or [])
    kept: list[Any] = []
    if all_logs:
        # every log of the data folder through the shared index: only the logs changed since are read again
        from pitchkeeper.logbook import index

        kept = index.kept()[0]
        if not kept and not files:
            sys.stderr.write(f"no match logs in {paths.data_dir()}\n")
    elif not files:
        files = [store.resolve_match_path(None)]
    seen: set[str] = set()
    todo: list[tuple[Path, bool]] = []
    for f in files:
        key = str(f.resolve())
        if key not in seen:
            seen.add(key)
            todo.append((f, False))
    read = []
    problems = 0
    outcomes: list[tuple[str | None, Any]] = [(r.error, r.figures) for r in stats.read_many(todo)]
    for k in kept:  # a file that is no match log (a tournament, other TOML) is left out quietly
        if k.path not in seen and k.kind in ("match", "error"):
            outcomes.append((k.error, k.match_figures() if k.kind == "match" else None))
    for error, figures in outcomes:
        if error:
            problems += 1
            sys.stderr.write(f"skipped: {error}\n")
        elif figures is not None:
            read.append(figures)
    result = stats.merge(read)
    if as_json:
        obj = result.to_json()
        obj["skipped"] = problems
        emit_json(obj)
    else:
        from pitchkeeper.show import render_chart

        render_chart.stats(result)
    if problems and (strict or not read):
        raise typer.Exit(2)

