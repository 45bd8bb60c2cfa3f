"""The command line: parse arguments, call the library, show (plain drawing, pitchkeeper.show.ansi; never Rich).

Commands live in modules by topic - `table` (keeping a match), `guided` (play), `judge`, `rules`,
`lookback` (export, chart, stats) - each on a `commands` Typer of its own. The groups here are lazy:
`COMMANDS` maps each command to its module, and a command line loads and builds only the command it
runs (Typer would otherwise build every command's parameters at each start). A new command is one
function in the module of its topic plus one entry in `COMMANDS`.

Errors from the library (PitchError) become one line on stderr and exit status 2.
"""

from __future__ import annotations

import sys
from typing import Annotated, Any, NoReturn

import typer
from typer.core import TyperGroup

from pitchkeeper import __version__
from pitchkeeper.errors import PitchError

# click's UsageError, whether Typer carries its own click (0.28) or uses the package
UsageError = typer.BadParameter.__mro__[1]

CONTEXT = {"help_option_names": ["-h", "--help"]}

# command -> the module (pitchkeeper.cli.<module>) that defines it; a group -> its own map and help
JUDGE = {"hand": "judge", "match": "judge", "trick": "judge"}
RULES = {"list": "rules", "show": "rules", "check": "rules", "diff": "rules", "new": "rules", "explain": "rules"}
COMMANDS: dict[str, Any] = {  # in the order `pitchkeeper --help` lists them
    **dict.fromkeys(("new", "hand", "edit", "status", "history", "undo", "matches", "check"), "table"),
    "play": "guided",
    **dict.fromkeys(("export", "chart", "stats"), "lookback"),
    "judge": (JUDGE, "Judge a hand, a trick or a whole match from a record file."),
    "rules": (RULES, "List, show, check, compare and explain rulesets, and start house rules."),
}


class LazyGroup(TyperGroup):
    """A group whose commands are loaded on first use, from the module `lazy` names for each.

    It also turns bad input from any command into one line on stderr and exit status 2.
    """

    lazy: dict[str, Any] = COMMANDS

    def list_commands(self, ctx: Any) -> list[str]:
        return [*self.commands, *(n for n in self.lazy if n not in self.commands)]

    def get_command(self, ctx: Any, name: str) -> Any:
        cmd = self.commands.get(name)
        if cmd is None and name in self.lazy:
            cmd = self.commands[name] = build(name, self.lazy[name])
        return cmd

    def resolve_command(self, ctx: Any, args: list[str]) -> tuple[str | None, Any, list[str]]:
        try:
            return super().resolve_command(ctx, args)
        except UsageError as e:
            import difflib

            matches = difflib.get_close_matches(args[0], self.list_commands(ctx)) if args else []
            if matches:
                e.message = f"{e.message.rstrip('.')}. Did you mean {', '.join(repr(m) for m in matches)}?"
            raise

    def invoke(self, ctx: Any) -> Any:
        try:
            return super().invoke(ctx)
        except PitchError as e:
            sys.stderr.write(f"error: {e}\n")
            raise typer.Exit(2) from None


def build(name: str, target: Any) -> Any:
    """The click command `name`: a group of its own (a map), or the command its module defines."""
    if isinstance(target, tuple):
        lazy, help_text = target
        group = LazyGroup(name=name, help=help_text, no_args_is_help=True, context_settings=CONTEXT,
                          rich_markup_mode=None)
        group.lazy = lazy
        return group
    import importlib

    from typer.main import get_command_from_info

    holder = importlib.import_module(f"pitchkeeper.cli.{target}").commands
    for info in holder.registered_commands:
        if command_name(info) == name:
            if not info.context_settings:
                info.context_settings = CONTEXT
            return get_command_from_info(info, pretty_exceptions_short=True, rich_markup_mode=None)
    raise LookupError(f"pitchkeeper.cli.{target} defines no command {name!r}")


def command_name(info: Any) -> str:
    from typer.main import get_command_name

    return info.name or get_command_name(info.callback.__name__)


def topic() -> typer.Typer:
    """The Typer a topic module registers its commands on (never run itself: the lazy group builds them)."""
    return typer.Typer(context_settings=CONTEXT, rich_markup_mode=None)


app = typer.Typer(
    name="pitchkeeper",
    cls=LazyGroup,
    help="Keeps the score of Pitch (Setback, Auction Pitch, Smear) at a real table, settles rules "
    "arguments, and keeps every match as a plain TOML file.",
    context_settings=CONTEXT,
    no_args_is_help=True,
    add_completion=True,
    rich_markup_mode=None,
    pretty_exceptions_enable=False,
)

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


def need_ruleset(rules: str | None, command: str) -> Any:
    """The ruleset of a --rules option that the command cannot do without."""
    from pitchkeeper.game import rulesets

    if not rules:
        fail(f"--rules: say which ruleset ({command} --rules seven-point, or a .toml file); "
             "'pitchkeeper rules list' names the built-in ones")
    return rulesets.load(rules)


def book_of(match: str | None) -> Any:
    """The Logbook of --match (or of the current match)."""
    from pitchkeeper.logbook import store
    from pitchkeeper.logbook.book import Logbook

    return Logbook(store.resolve_match_path(match))


def interactive() -> bool:
    """Is standard input a terminal (someone to ask)?"""
    try:
        return sys.stdin.isatty()
    except (AttributeError, ValueError):
        return False


def warn(lines: Any) -> None:
    for w in lines:
        sys.stderr.write(f"warning: {w}\n")


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


class Interrupted(BaseException):
    """Ctrl-C, raised past click (which would turn it into exit 1) so we can exit 130."""


def _on_sigint(signum: int, frame: object) -> None:
    raise Interrupted()


def main() -> None:
    """Entry point: run the app, turning bad input into one line and exit 2."""
    import signal

    signal.signal(signal.SIGINT, _on_sigint)
    try:
        app()
    except Interrupted:
        sys.stderr.write("interrupted\n")
        sys.exit(130)
