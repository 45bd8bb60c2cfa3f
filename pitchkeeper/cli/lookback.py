"""Commands that look back: export, chart, stats.

Each command parses, calls the domain (export, chart, stats) and writes; Rich is imported only
by the drawing paths (render_chart), never for export or --json.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from pitchkeeper.cli import JsonOpt, MatchOpt, emit_json, topic, warn
from pitchkeeper.cli.library import may_write_over
from pitchkeeper.errors import PitchError, shown
from pitchkeeper.game import rulesets
from pitchkeeper.game.vocabulary import target_words
from pitchkeeper.logbook import loader, paths, store
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

    store.write_atomic(out, text)
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


@commands.command("stats")
def stats_cmd(
    matches: Annotated[list[Path] | None, typer.Argument(help="Match logs (default: the current match).",
                                                         metavar="[MATCH]...", show_default=False)] = None,
    all_logs: Annotated[bool, typer.Option("--all", "-a", help="Every match log in the data folder.")] = False,
    rules: Annotated[str | None, typer.Option("--rules", "-r", help="Only matches played under this ruleset "
                                              "(its name).", show_default=False)] = None,
    since: Annotated[str | None, typer.Option("--since", metavar="YYYY-MM-DD", help="Only matches begun on or "
                                              "after this day.", show_default=False)] = None,
    until: Annotated[str | None, typer.Option("--until", metavar="YYYY-MM-DD", help="Only matches begun on or "
                                              "before this day.", show_default=False)] = None,
    strict: Annotated[bool, typer.Option("--strict", help="Exit 2 at the end if any log could not be read.")] = False,
    ratings: Annotated[bool, typer.Option("--ratings", help="Add each player's rating from every game kept in the "
                                          "data folder (match logs and tournaments).")] = False,
    as_json: JsonOpt = False,
) -> None:
    """Bids made (in percent) and set, who is set most, the best partnership, points per hand, who takes
    each point, games won: per player and team.

    A log that cannot be read is named on standard error (one line) and left out; the others are
    still counted. The exit status is 0 unless --strict is given, or no log at all could be read.
    """
    from pitchkeeper.reports import gather, stats

    since = stats.day(since, "--since") if since is not None else None
    until = stats.day(until, "--until") if until is not None else None
    if rules is not None:
        try:  # a typo is one line naming the known rulesets, not an empty table
            rules = rulesets.load(rules).name
        except PitchError as e:
            raise e.at("--rules") from None
    files: list[Path] = list(matches or [])
    if not all_logs and not files:
        files = [store.resolve_match_path(None)]
    got = gather.gather(files, all_logs, rules, since, until, progress=_progress)
    for error in got.errors:
        sys.stderr.write(f"error: {error}\n")
    if got.folder_empty:
        sys.stderr.write(f"no match logs in {paths.data_dir()}\n")
    result, problems, n_read, n_chosen = got.figures, len(got.errors), got.read, got.chosen
    rated = None
    if ratings:
        from pitchkeeper.reports import ratings as rating_mod

        rated = rating_mod.rate_kept(stamps=got.stamps)
    if as_json:
        obj = result.to_json()
        obj["skipped"] = problems
        obj["filtered_out"] = n_read - n_chosen
        if rated is not None:
            obj["ratings"] = [r.to_json() for r in rated]
        emit_json(obj)
    else:
        render_chart.stats(result)
        if n_chosen < n_read:
            sys.stderr.write(f"{n_read - n_chosen} match(es) left out by --rules/--since/--until\n")
        if rated is not None:
            sys.stdout.write(rating_mod.ratings_text(rated))
    if problems and (strict or not n_read):
        raise typer.Exit(2)


# Below this many logs reading is over before a bar would be seen.
PROGRESS_FROM = 50


class _progress:
    """A Rich progress bar on standard error while many logs are read, only when it is a terminal
    (never in a pipe, a log file or --json consumer's stdout); otherwise a no-op."""

    def __init__(self, total: int) -> None:
        self.total = total
        self.bar: Any = None

    def __enter__(self) -> Any:
        if self.total < PROGRESS_FROM or not _stderr_is_terminal():
            return lambda n: None
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

        self.bar = Progress(TextColumn("reading logs"), BarColumn(), MofNCompleteColumn(),
                            console=Console(stderr=True), transient=True)
        self.bar.start()
        task = self.bar.add_task("read", total=self.total)
        return lambda n: self.bar.advance(task, n)

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            self.bar.stop()


def _stderr_is_terminal() -> bool:
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):
        return False
