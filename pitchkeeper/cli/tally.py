"""`stats`: the figures of many match logs (bids made and set, points per hand, who takes each point).

Its own topic, apart from the commands that look back at one match (cli.lookback): it reads logs through
reports.gather and draws with show.render_stats, and loads neither the export formats nor the chart.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from pitchkeeper.cli import JsonOpt, emit_json, topic
from pitchkeeper.errors import PitchError
from pitchkeeper.game import rulesets
from pitchkeeper.logbook import paths, store
from pitchkeeper.reports import gather, stats
from pitchkeeper.show import render_stats

commands = topic()


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
        from pitchkeeper.reports import ratings as rating_mod  # openskill: loaded for --ratings only

        rated = rating_mod.rate_kept(stamps=got.stamps)
    if as_json:
        obj = result.to_json()
        obj["skipped"] = problems
        obj["filtered_out"] = n_read - n_chosen
        if rated is not None:
            obj["ratings"] = [r.to_json() for r in rated]
        emit_json(obj)
    else:
        render_stats.stats(result)
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
