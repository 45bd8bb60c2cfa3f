"""The command line: parse arguments, call the domain, print (plain drawing: pitchkeeper.show.ansi).

Errors from the domain (PitchError) become one line on stderr and exit status 2.
Drawing code is imported inside the commands that draw, to keep --json fast; Rich is never loaded.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from typer.core import TyperGroup

from pitchkeeper import __version__
from pitchkeeper.errors import PitchError


class Group(TyperGroup):
    """Turns bad input from any command into one line on stderr and exit status 2."""

    def invoke(self, ctx: Any) -> Any:
        try:
            return super().invoke(ctx)
        except PitchError as e:
            sys.stderr.write(f"error: {e}\n")
            raise typer.Exit(2) from None


CONTEXT = {"help_option_names": ["-h", "--help"]}

app = typer.Typer(
    name="pitchkeeper",
    cls=Group,
    help="Keeps the score of Pitch (Setback, Auction Pitch, Smear) at a real table, settles rules "
    "arguments, and keeps every match as a plain TOML file.",
    context_settings=CONTEXT,
    no_args_is_help=True,
    add_completion=True,
    rich_markup_mode=None,
    pretty_exceptions_enable=False,
)
judge_app = typer.Typer(help="Judge a hand, a trick or a whole match from a record file.", context_settings=CONTEXT,
                        no_args_is_help=True, rich_markup_mode=None)
rules_app = typer.Typer(help="List, show, check, compare and start rulesets.", context_settings=CONTEXT,
                        no_args_is_help=True, rich_markup_mode=None)
app.add_typer(judge_app, name="judge")
app.add_typer(rules_app, name="rules")

RulesOpt = Annotated[str | None, typer.Option("--rules", "-r", help="Ruleset: a built-in name or a .toml file.")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON (the machine interface) instead of a table.")]
MatchOpt = Annotated[str | None, typer.Option("--match", "-m", metavar="FILE", show_default=False,
                                              help="The match log (default: the current match).")]


def fail(message: str) -> NoReturn:
    raise PitchError(message)


def emit_json(obj: Any) -> None:
    """JSON on stdout: indented for a person at a terminal, compact (and several times faster) for tools."""
    import json

    indent = 2 if sys.stdout.isatty() else None
    sys.stdout.write(json.dumps(obj, ensure_ascii=False, indent=indent) + "\n")


def _version(value: bool) -> None:
    if value:
        sys.stdout.write(f"pitchkeeper {__version__}\n")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[bool, typer.Option("--version", "-V", callback=_version, is_eager=True,
                                          help="Show the version and exit.")] = False,
) -> None:
    """pitchkeeper: the score, the verdict and the record of every Pitch game."""


# ---------------------------------------------------------------------------
# judge


@judge_app.command("hand")
def judge_hand(
    file: Annotated[Path, typer.Argument(help="A hand record (TOML).", show_default=False)],
    rules: RulesOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Judge one hand: every point with its reason, the game count, the bid and the score change."""
    from pitchkeeper.game import scoring
    from pitchkeeper.logbook import loader

    ruleset, table, hand = loader.load_hand(file, rules)
    try:
        v = scoring.verdict(ruleset, table, hand)
    except PitchError as e:
        raise e.at(str(file)) from None
    if as_json:
        emit_json(v.to_json())
        return
    from pitchkeeper.show import scorecard

    scorecard.draw(v, table, ruleset.name)


def load_match(path: Path, rules: str | None) -> Any:
    """Read a match record file through the one loader; its warnings go to stderr."""
    from pitchkeeper.logbook import loader

    k = loader.load(path, rules=rules, kind="file")
    for w in k.warnings:
        sys.stderr.write(f"warning: {w}\n")
    return k


@judge_app.command("match")
def judge_match(
    file: Annotated[Path, typer.Argument(help="A match record (TOML), such as a match log.", show_default=False)],
    rules: RulesOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Replay a whole match: each hand's verdict, the running scores, and who won by which rule."""
    state = load_match(file, rules).replay()
    if as_json:
        emit_json(state.to_json())
        return
    from pitchkeeper.show import render

    render.match_sheet(state)


# ---------------------------------------------------------------------------
# rules


@rules_app.command("list")
def rules_list(as_json: JsonOpt = False) -> None:
    """The built-in rulesets."""
    from pitchkeeper.game import rulesets

    rows = []
    for name in rulesets.builtin_names():
        r = rulesets.load(name)
        rows.append({"name": name, "title": r.title, "source": r.source, "target": r.settings["win"]["target"],
                     "points": r.max_points, "jokers": r.settings["deck"]["jokers"]})
    if as_json:
        emit_json(rows)
        return
    from pitchkeeper.show import render

    render.rules_list(rows)


@rules_app.command("show")
def rules_show(
    name: Annotated[str, typer.Argument(help="A built-in name or a ruleset file.", show_default=False)],
    as_json: JsonOpt = False,
) -> None:
    """A ruleset in plain words."""
    from pitchkeeper.game import rulesets
    from pitchkeeper.words import explain

    r = rulesets.load(name)
    words = explain.describe(r)
    if as_json:
        emit_json({"name": r.name, "title": r.title, "source": r.source, "files": list(r.chain),
                   "rules": {k: v[1] for k, v in words.items()}, "notes": list(r.notes),
                   "settings": r.settings, "points": [p.id for p in r.points]})
        return
    from pitchkeeper.show import render

    render.rules_show(r, words)


@rules_app.command("check")
def rules_check(
    file: Annotated[str, typer.Argument(help="A ruleset file (or built-in name).", show_default=False)],
) -> None:
    """Validate a ruleset file: every problem with its key, exit 2 if there is any."""
    from pitchkeeper.game import rulesets

    problems, chain = rulesets.check(file)
    if problems:
        for p in problems:
            sys.stderr.write(f"{chain[-1]}: {p}\n")
        sys.stderr.write(f"{len(problems)} problem(s) in {file}\n")
        raise typer.Exit(2)
    r = rulesets.load(file)
    via = f" (extends {', '.join(Path(c).stem for c in r.chain[:-1])})" if len(r.chain) > 1 else ""
    sys.stdout.write(f"{file}: ok - {r.name}{via}, {len(r.points)} points, "
                     f"{r.max_points} a hand at most, target {r.settings['win']['target']}\n")


@rules_app.command("diff")
def rules_diff(
    a: Annotated[str, typer.Argument(help="A ruleset (name or file).", show_default=False)],
    b: Annotated[str, typer.Argument(help="Another ruleset.", show_default=False)],
    as_json: JsonOpt = False,
) -> None:
    """What two rulesets disagree on, in words."""
    from pitchkeeper.game import rulesets
    from pitchkeeper.words import explain

    ra, rb = rulesets.load(a), rulesets.load(b)
    rows = explain.diff(ra, rb)
    if as_json:
        emit_json([{"topic": t, ra.name: x, rb.name: y} if ra.name != rb.name else
                   {"topic": t, "a": x, "b": y} for t, x, y in rows])
        return
    from pitchkeeper.show import render

    render.rules_diff(ra, rb, rows)


@rules_app.command("new")
def rules_new(
    file: Annotated[Path, typer.Argument(help="The house-rules file to write.", show_default=False)],
    extends: Annotated[str, typer.Option("--extends", "-e", help="The ruleset it changes.")] = "seven-point",
    force: Annotated[bool, typer.Option("--force", help="Overwrite an existing file.")] = False,
) -> None:
    """Start a house-rules file that extends a ruleset, naming every setting it may change."""
    from pitchkeeper.game import rulesets
    from pitchkeeper.reports import houserules

    base = rulesets.load(extends)
    if file.exists() and not force:
        fail(f"{file}: already exists (use --force to overwrite)")
    text = houserules.starter(base, extends, file.stem)
    from pitchkeeper.logbook import store

    store.write_atomic(file, text)
    sys.stdout.write(f"wrote {file}: uncomment and change what your table plays differently, "
                     f"then run: pitchkeeper rules check {file}\n")


# ---------------------------------------------------------------------------


# Command modules add their commands to the apps above, one module per area of the CLI. The
# console script (pitchkeeper.launch) loads only the area a command line needs and builds only
# the command it runs: Typer otherwise makes every command's parameters at each start (~10 ms).
AREAS = ("table", "guided", "referee", "lookback")
# Which area defines each command ("judge trick" is a command of the judge group).
COMMAND_AREAS = {
    **dict.fromkeys(("new", "hand", "status", "history", "undo", "edit", "matches", "check"), "table"),
    "play": "guided",
    **dict.fromkeys(("export", "chart", "stats"), "lookback"),
    "judge trick": "referee",
    "rules explain": "referee",
}


def load_areas(names: tuple[str, ...] = AREAS) -> None:
    import importlib

    for name in names:
        importlib.import_module(f"pitchkeeper.cli.{name}")


def _command_name(info: Any) -> str:
    from typer.main import get_command_name

    return info.name or get_command_name(info.callback.__name__)


def select(args: list[str]) -> None:
    """Load and keep only what `args` runs; anything else (help, completion, a typo) keeps all."""
    import os

    words = [a for a in args if not a.startswith("-")][:2]
    if not words and ("--version" in args or "-V" in args):
        app.registered_commands, app.registered_groups = [], []  # the version needs no command at all
        return None
    if not words or any(k.endswith("_COMPLETE") for k in os.environ):
        return load_areas()
    name = words[0]
    groups = {g.name: g.typer_instance for g in app.registered_groups}
    if name in groups:
        group = groups[name]
        sub = words[1] if len(words) > 1 else ""
        area = COMMAND_AREAS.get(f"{name} {sub}")
        if area:
            load_areas((area,))
        elif sub not in _names(group):
            load_areas()  # the group's help, or a typo: every command of it, for the listing
        if sub in _names(group):
            group.registered_commands = [c for c in group.registered_commands if _command_name(c) == sub]
        app.registered_groups = [g for g in app.registered_groups if g.name == name]
        app.registered_commands = []
        return None
    area = COMMAND_AREAS.get(name)
    if area is None:
        return load_areas()
    load_areas((area,))
    app.registered_commands = [c for c in app.registered_commands if _command_name(c) == name]
    app.registered_groups = []
    return None


def _names(typer_app: Any) -> list[str]:
    return [_command_name(c) for c in typer_app.registered_commands]


import pitchkeeper as _package  # noqa: E402

if not getattr(_package, "LAZY_CLI", False):
    load_areas()  # imported as a library (or by tests): every command is there


class Interrupted(BaseException):
    """Ctrl-C, raised past click (which would turn it into exit 1) so we can exit 130."""


def _on_sigint(signum: int, frame: object) -> None:
    raise Interrupted()


def main() -> None:
    """Entry point: run the app, turning bad input into one line and exit 2."""
    import signal

    signal.signal(signal.SIGINT, _on_sigint)
    if getattr(_package, "LAZY_CLI", False):
        select(sys.argv[1:])
    try:
        app()
    except Interrupted:
        sys.stderr.write("interrupted\n")
        sys.exit(130)
