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
from pitchkeeper.errors import PitchError, shown

# click's UsageError, whether Typer carries its own click (0.28) or uses the package
UsageError = typer.BadParameter.__mro__[1]

CONTEXT = {"help_option_names": ["-h", "--help"]}

# command -> the module (pitchkeeper.cli.<module>) that defines it; a group -> its own map and help
JUDGE = {"hand": "judge", "match": "judge", "trick": "judge"}
RULES = {"list": "rules", "show": "rules", "check": "rules", "diff": "rules", "new": "rules", "explain": "rules"}
TOURNAMENT = dict.fromkeys(("new", "seat", "record", "standings", "cards", "check"), "tournament")
ANALYSE = dict.fromkeys(("hand", "match", "odds"), "analyse")
COMMANDS: dict[str, Any] = {  # in the order `pitchkeeper --help` lists them
    **dict.fromkeys(("new", "hand", "edit", "status", "history", "undo", "check"), "table"),
    "play": "guided",
    **dict.fromkeys(("matches", "use", "where", "sheet"), "shelf"),
    **dict.fromkeys(("export", "chart", "stats"), "lookback"),
    "serve": "serve",
    "judge": (JUDGE, "Judge a hand, a trick or a whole match from a record file."),
    "rules": (RULES, "List, show, check, compare and explain rulesets, and start house rules."),
    "tournament": (TOURNAMENT, "Tournaments and leagues: seat the room, take every table's result, rank the players."),
    "analyse": (ANALYSE, "With every card known: par of a hand, what each card cost, the odds of a bid."),
}


class LazyGroup(TyperGroup):
    """A group whose commands are loaded on first use, from the module `lazy` names for each.

    It also turns bad input from any command into one line on stderr and exit status 2.
    """

    lazy: dict[str, Any] = COMMANDS
    listing = False  # while a help lists the commands: each is only its line of help (see format_commands)

    def list_commands(self, ctx: Any) -> list[str]:
        return [*self.commands, *(n for n in self.lazy if n not in self.commands)]

    def get_command(self, ctx: Any, name: str) -> Any:
        cmd = self.commands.get(name)
        if cmd is None and name in self.lazy:
            if self.listing and not isinstance(self.lazy[name], tuple):
                return listed(name, self.lazy[name])
            cmd = self.commands[name] = build(name, self.lazy[name])
        return cmd

    def format_commands(self, ctx: Any, formatter: Any) -> None:
        """The list of commands builds none of them: a line of help needs the command's help text,
        not its parameters (building every command is most of what `pitchkeeper --help` would cost)."""
        self.listing = True
        try:
            super().format_commands(ctx, formatter)
        finally:
            self.listing = False

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
        if ctx.parent is None:
            from pitchkeeper import launch

            launch.started()
        try:
            return super().invoke(ctx)
        except PitchError as e:
            sys.stderr.write(f"error: {e}\n")
            raise typer.Exit(2) from None

    def format_epilog(self, ctx: Any, formatter: Any) -> None:
        """The data folder in the root help: a person looking for the logs finds them here."""
        super().format_epilog(ctx, formatter)
        if ctx.parent is None:
            from pitchkeeper.logbook.paths import data_dir

            formatter.write_paragraph()
            formatter.write_text(f"Match logs are kept in {data_dir()} (PITCHKEEPER_HOME moves them; "
                                 "`pitchkeeper where` shows it, `pitchkeeper matches` lists them).")

    def main(self, *args: Any, standalone_mode: bool = True, **kw: Any) -> Any:
        """Every way a run can end badly, as one line on stderr.

        Bad input (PitchError) and usage errors (an unknown option, a missing argument, a value out
        of range) -> `error: ...` and exit status 2 (Click's usage hint follows only on a terminal);
        anything unforeseen -> a line that calls it a bug and where to report it, exit status 1.
        """
        if not standalone_mode:
            return super().main(*args, standalone_mode=False, **kw)
        from pitchkeeper import launch

        # Click's base error, whether Typer bundles Click (0.28) or depends on it (0.26)
        ClickException = next(c for c in typer.BadParameter.__mro__ if c.__name__ == "ClickException")
        try:
            rv = super().main(*args, standalone_mode=False, **kw)
        except PitchError as e:  # raised while the arguments were read (an option's callback)
            sys.stderr.write(f"error: {e}\n")
            sys.exit(2)
        except ClickException as e:
            if type(e).__name__ == "NoArgsIsHelpError":  # a bare group: its help is the answer
                e.show()
            else:
                sys.stderr.write(usage_line(e))
            sys.exit(2)
        except typer.Abort:
            sys.stderr.write("aborted\n")
            sys.exit(1)
        except Exception as e:
            where = getattr(e, "filename", None)
            if isinstance(e, OSError) and where is not None and e.strerror:  # the system refused a file named
                sys.stderr.write(f"error: {shown(where)}: {shown(e.strerror)}\n")
                sys.exit(2)
            launch.crash(e)
            sys.exit(1)
        sys.exit(rv if isinstance(rv, int) and not isinstance(rv, bool) else 0)


def usage_line(e: Any) -> str:
    """A Click usage error as `error: COMMAND: what` (one line); the hint to try -h only on a terminal."""
    import re

    msg = e.format_message()
    if re.match(r"No such option: -\d", msg):
        msg += " (a negative number is read as an option; write -- before it)"
    ctx = getattr(e, "ctx", None)
    path = ctx.command_path.split(" ", 1)[1] if ctx is not None and " " in ctx.command_path else ""
    line = f"error: {shown(path + ': ' if path else '')}{shown(msg)}\n"
    try:
        tty = sys.stderr.isatty()
    except (AttributeError, ValueError):
        tty = False
    if tty and ctx is not None:
        line += f"usage: {shown(ctx.get_usage().replace('Usage: ', '', 1))}\n" \
                f"Try '{shown(ctx.command_path)} {ctx.help_option_names[0]}' for help.\n"
    return line


def build(name: str, target: Any) -> Any:
    """The click command `name`: a group of its own (a map), or the command its module defines."""
    if isinstance(target, tuple):
        lazy, help_text = target
        group = LazyGroup(name=name, help=help_text, no_args_is_help=True, context_settings=CONTEXT,
                          rich_markup_mode=None)
        group.lazy = lazy
        return group
    from typer.main import get_command_from_info

    holder = importlib_module(target).commands
    for info in holder.registered_commands:
        if command_name(info) == name:
            if not info.context_settings:
                info.context_settings = CONTEXT
            return get_command_from_info(info, pretty_exceptions_short=True, rich_markup_mode=None)
    raise LookupError(f"pitchkeeper.cli.{target} defines no command {name!r}")


def listed(name: str, target: str) -> Any:
    """The command `name` as its group's help lists it: a command with its help text, hidden and deprecated
    flags taken as Typer takes them (typer.main.get_command_from_info), and no parameters."""
    import inspect

    from typer.core import TyperCommand

    for info in importlib_module(target).commands.registered_commands:
        if command_name(info) == name:
            text = inspect.getdoc(info.callback) if info.help is None else inspect.cleandoc(info.help)
            return TyperCommand(name=name, help=text, short_help=info.short_help, hidden=info.hidden,
                                deprecated=info.deprecated, rich_markup_mode=None)
    raise LookupError(f"pitchkeeper.cli.{target} defines no command {name!r}")


def importlib_module(target: str) -> Any:
    import importlib

    return importlib.import_module(f"pitchkeeper.cli.{target}")


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
    # JSON is data: on a stream that is not UTF-8 (a legacy console), \u escapes keep every name whole
    utf8 = (getattr(sys.stdout, "encoding", None) or "utf-8").lower().replace("-", "").replace("_", "") == "utf8"
    text = json.dumps(obj, ensure_ascii=not utf8, indent=indent)
    if utf8:
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:  # a path holding bytes that are not UTF-8: escaped, so the JSON stays UTF-8
            text = json.dumps(obj, ensure_ascii=True, indent=indent)
    sys.stdout.write(text + "\n")


def need_ruleset(rules: str | None, command: str) -> Any:
    """The ruleset of a --rules option that the command cannot do without."""
    from pitchkeeper.logbook import rulecache

    if not rules:
        fail(f"--rules: say which ruleset ({command} --rules seven-point, or a .toml file); "
             "'pitchkeeper rules list' names the built-in ones")
    return rulecache.load(rules)


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


def may_write_over(out: Any, force: bool | None) -> None:
    """A command's output never lands on a match log or tournament (kept data would be lost);
    over any other existing file only with --force (`force` True) or after asking on a terminal.
    `force` None: only the first rule (a command that writes its output file without asking)."""
    import os

    from pitchkeeper.logbook import store

    try:
        exists = os.path.lexists(out)
    except (OSError, ValueError):
        return  # a name no file can have: the write itself says what is wrong
    if not exists:
        return
    if store.holds_a_record(out):
        raise PitchError("is a match log (or a tournament): it is never written over; choose another file",
                         str(out))
    if force or force is None:
        return
    if not interactive():
        raise PitchError("already exists: add --force to write over it", str(out))
    if not typer.confirm(f"{shown(out)} exists: write over it?", default=False):
        raise typer.Exit(1)


def warn(lines: Any) -> None:
    for w in lines:
        sys.stderr.write(f"warning: {shown(w)}\n")


def _debug(value: bool) -> None:
    if value:
        from pitchkeeper import launch

        launch.DEBUG = True


def _version(value: bool) -> None:
    if value:
        sys.stdout.write(f"pitchkeeper {__version__}\n")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[bool, typer.Option("--version", "-V", callback=_version, is_eager=True,
                                          help="Show the version and exit.")] = False,
    debug: Annotated[bool, typer.Option("--debug", callback=_debug, is_eager=True, expose_value=False,
                                        help="On an internal error (a bug), show its traceback "
                                        "(also: PITCHKEEPER_DEBUG=1).")] = False,
) -> None:
    """pitchkeeper: the score, the verdict and the record of every Pitch game."""


class Interrupted(BaseException):
    """Ctrl-C, raised past click (which would turn it into exit 1) so we can exit 130."""


def _on_sigint(signum: int, frame: object) -> None:
    raise Interrupted()


# What a console that cannot show the suit symbols shows instead: the letters of the card tokens.
LETTERS = {"♠": "S", "♥": "H", "♦": "D", "♣": "C", "♤": "S", "♡": "H", "♢": "D", "♧": "C", "─": "-", "━": "-",
           "│": "|", "┃": "|", "┼": "+", "╇": "+", "•": "*", "…": "..."}


def _letters(e: UnicodeEncodeError) -> tuple[str, int]:
    return "".join(LETTERS.get(ch, "?") for ch in e.object[e.start:e.end]), e.end


def plain_streams() -> None:
    """On a console whose encoding cannot show the suit symbols (a Windows code page such as cp1252),
    write letters instead ('10S', 'S spades'), and '?' for anything else it cannot show, never raise."""
    for stream in (sys.stdout, sys.stderr):
        try:
            "♠♥♦♣".encode(getattr(stream, "encoding", None) or "utf-8")
            continue
        except (UnicodeEncodeError, LookupError):
            pass
        import codecs

        codecs.register_error("pitchkeeper-letters", _letters)
        try:
            stream.reconfigure(errors="pitchkeeper-letters")  # type: ignore[union-attr]
        except (AttributeError, ValueError):
            pass


def main() -> None:
    """Entry point: run the app, turning bad input into one line and exit 2."""
    import signal

    signal.signal(signal.SIGINT, _on_sigint)
    plain_streams()
    try:
        app()
    except Interrupted:
        sys.stderr.write("interrupted\n")
        sys.exit(130)
    except SystemExit as e:
        import pitchkeeper

        if getattr(pitchkeeper, "LAZY_CLI", False) and _whole_process():  # the console script or -m
            _exit_now(e)
        raise


def _whole_process() -> bool:
    """Is this command the process's own (console script, python -m), not run by a program inside itself
    (runpy.run_module, as tests probe what a command imports) that goes on afterwards?"""
    f = sys._getframe(1)
    while f is not None:
        if f.f_code.co_name == "run_module" and "runpy" in f.f_code.co_filename:  # "<frozen runpy>" in 3.11
            return False
        f = f.f_back
    return True


def _exit_now(e: SystemExit) -> None:
    """End the process at once, with its output flushed: tearing down the interpreter (freeing every
    module) costs a table command ~15% of its run, and there is nothing left to do. Every file
    pitchkeeper writes is closed (and fsynced) by then; a flush that fails takes the usual way out."""
    import os

    code = e.code
    if code is not None and not isinstance(code, int):
        sys.stderr.write(f"{code}\n")
        code = 1
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except Exception:
        return
    os._exit(code or 0)
