"""Everything pitchkeeper takes from Typer's and Click's insides, in one module.

Typer moves its insides between releases (0.28 carries its own copy of Click, earlier releases use the
package; a helper's arguments change), so what the CLI needs beyond Typer's documented API is here and
nowhere else, each piece tested in tests/test_cli_adapter.py:

- `LazyGroup`, a TyperGroup whose commands are built on first use from the module each is defined in
  (a command line builds only the command it runs), listed in the help without being built, and
  suggested when mistyped;
- how a run ends: bad input (PitchError, a Click usage error, a file the system refused) as one line
  and exit status 2, a bug as one line and exit status 1 (its traceback with --debug);
- Click's exception classes, found through Typer's public `BadParameter`;
- `fitted`, a command whose `--help` shows only the options that apply now (`hand --help` in a match
  of solo-pitch lists high, low, jack and game, not the jokers).
"""

from __future__ import annotations

import difflib
import importlib
import inspect
import re
import sys
import traceback
from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import Any, NoReturn, TypeAlias

import typer
from typer.core import TyperCommand, TyperGroup
from typer.main import get_command_from_info, get_command_name
from typer.models import CommandInfo

from pitchkeeper.errors import PitchError, bug_line, debug_wanted, shown

# Click's exceptions, whether Typer carries its own Click (0.28) or uses the package (0.26)
_CLICK = typer.BadParameter.__mro__
UsageError: type[Exception] = next(c for c in _CLICK if c.__name__ == "UsageError")
ClickException: type[Exception] = next(c for c in _CLICK if c.__name__ == "ClickException")

CONTEXT: dict[str, Any] = {"help_option_names": ["-h", "--help"]}

# command -> the module (pitchkeeper.cli.<module>) that defines it, or a group: (its own map, its help)
Commands: TypeAlias = Mapping[str, "str | tuple[Commands, str]"]


class Debug:
    """Whether a bug shows its traceback: --debug (anywhere on the command line) or PITCHKEEPER_DEBUG=1."""

    on = False

    @classmethod
    def wanted(cls) -> bool:
        return cls.on or debug_wanted()


def crash(e: BaseException) -> None:
    """Report a bug on stderr: its traceback under --debug, then its one line."""
    if Debug.wanted():
        traceback.print_exception(e)
    sys.stderr.write(bug_line(e))


class LazyGroup(TyperGroup):
    """A group whose commands are built on first use, from the module `lazy` names for each.

    Typer builds every command's parameters when the group is made; here a command line builds the one
    it runs, and `--help` lists each command from its help text alone. It also ends every run as a
    person should see it (see `main`).
    """

    lazy: Commands = MappingProxyType({})
    listing = False  # while a help lists the commands: each is only its line of help (see format_commands)

    def list_commands(self, ctx: Any) -> list[str]:
        return [*self.commands, *(n for n in self.lazy if n not in self.commands)]

    def get_command(self, ctx: Any, name: str) -> Any:
        cmd = self.commands.get(name)
        if cmd is None and name in self.lazy:
            target = self.lazy[name]
            if self.listing and isinstance(target, str):
                return listed(name, target)
            cmd = self.commands[name] = build(name, target)
        return cmd

    def format_commands(self, ctx: Any, formatter: Any) -> None:
        """The list of commands builds none of them: a line of help needs the command's help text, not its
        parameters."""
        self.listing = True
        try:
            super().format_commands(ctx, formatter)
        finally:
            self.listing = False

    def resolve_command(self, ctx: Any, args: list[str]) -> tuple[str | None, Any, list[str]]:
        """An unknown command names the ones it is close to ("Did you mean 'status'?")."""
        try:
            return super().resolve_command(ctx, args)
        except UsageError as e:
            matches = difflib.get_close_matches(args[0], self.list_commands(ctx)) if args else []
            if matches:
                e.message = f"{e.message.rstrip('.')}. Did you mean {', '.join(repr(m) for m in matches)}?"  # type: ignore[attr-defined]
            raise

    def invoke(self, ctx: Any) -> Any:
        try:
            return super().invoke(ctx)
        except PitchError as e:
            sys.stderr.write(f"error: {e}\n")
            raise typer.Exit(2) from None

    def note(self) -> str:
        """A paragraph under the root help (a subclass says where the logs are kept)."""
        return ""

    def format_epilog(self, ctx: Any, formatter: Any) -> None:
        super().format_epilog(ctx, formatter)
        note = self.note() if ctx.parent is None else ""
        if note:
            formatter.write_paragraph()
            formatter.write_text(note)

    def main(self, args: Sequence[str] | None = None, prog_name: str | None = None, complete_var: str | None = None,
             standalone_mode: bool = True, windows_expand_args: bool = True, **kw: Any) -> Any:
        """Every way a run can end badly, as one line on stderr.

        Bad input (PitchError) and usage errors (an unknown option, a missing argument, a value out
        of range) -> `error: ...` and exit status 2 (Click's usage hint follows only on a terminal);
        anything unforeseen -> a line that calls it a bug and where to report it, exit status 1.
        """
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, False, windows_expand_args, **kw)
        try:
            rv = super().main(args, prog_name, complete_var, False, windows_expand_args, **kw)
        except PitchError as e:  # raised while the arguments were read (an option's callback)
            end(2, f"error: {e}\n")
        except ClickException as e:
            if type(e).__name__ == "NoArgsIsHelpError":  # a bare group: its help is the answer
                e.show()  # type: ignore[attr-defined]
                end(2)
            end(2, usage_line(e))
        except typer.Abort:
            end(1, "aborted\n")
        except Exception as e:
            where = getattr(e, "filename", None)
            if isinstance(e, OSError) and where is not None and e.strerror:  # the system refused a file named
                end(2, f"error: {shown(where)}: {shown(e.strerror)}\n")
            crash(e)
            end(1)
        end(rv if isinstance(rv, int) and not isinstance(rv, bool) else 0)


def end(status: int, line: str = "") -> NoReturn:
    if line:
        sys.stderr.write(line)
    sys.exit(status)


def usage_line(e: Any) -> str:
    """A Click usage error as `error: COMMAND: what` (one line); the hint to try -h only on a terminal."""
    msg = e.format_message()
    if re.match(r"No such option: -\d", msg):
        msg += " (a negative number is read as an option; write -- before it)"
    ctx = getattr(e, "ctx", None)
    # the command's words after the program's name ("judge hand"), however the program was started
    path = ctx.command_path.removeprefix(ctx.find_root().command_path).strip() if ctx is not None else ""
    line = f"error: {shown(path + ': ' if path else '')}{shown(msg)}\n"
    try:
        tty = sys.stderr.isatty()
    except (AttributeError, ValueError):
        tty = False
    if tty and ctx is not None:
        line += f"usage: {shown(ctx.get_usage().replace('Usage: ', '', 1))}\n" \
                f"Try '{shown(ctx.command_path)} {ctx.help_option_names[0]}' for help.\n"
    return line


def build(name: str, target: str | tuple[Commands, str]) -> Any:
    """The click command `name`: a group of its own (a map), or the command its module defines."""
    if not isinstance(target, str):
        lazy, help_text = target
        group = LazyGroup(name=name, help=help_text, no_args_is_help=True, context_settings=CONTEXT,
                          rich_markup_mode=None)
        group.lazy = lazy
        return group
    info = command_info(name, target)
    if not info.context_settings:
        info.context_settings = CONTEXT
    return get_command_from_info(info, pretty_exceptions_short=True, rich_markup_mode=None)


def listed(name: str, target: str) -> Any:
    """The command `name` as its group's help lists it: its help text, hidden and deprecated flags taken as
    Typer takes them (typer.main.get_command_from_info), and no parameters."""
    info = command_info(name, target)
    text = inspect.getdoc(info.callback) if info.help is None else inspect.cleandoc(info.help)
    return TyperCommand(name=name, help=text, short_help=info.short_help, hidden=info.hidden,
                        deprecated=info.deprecated, rich_markup_mode=None)


def registered(target: str) -> list[CommandInfo]:
    """The commands module pitchkeeper.cli.<target> registers on its `commands` Typer."""
    return list(importlib.import_module(f"pitchkeeper.cli.{target}").commands.registered_commands)


def command_info(name: str, target: str) -> CommandInfo:
    for info in registered(target):
        if command_name(info) == name:
            return info
    raise LookupError(f"pitchkeeper.cli.{target} defines no command {name!r}")


def command_name(info: CommandInfo) -> str:
    """The name a registered command is run by (its function's name, dashed, unless it was given one)."""
    assert info.callback is not None
    return info.name or get_command_name(info.callback.__name__)


# fit(the command line's arguments) -> (the parameters to leave out of the help, a paragraph to add under it,
# the help of parameters whose words depend on the match: parameter name -> its help)
Fit: TypeAlias = Callable[[list[str]], tuple[set[str], str, dict[str, str]]]


def fitted(fit: Fit) -> type:
    """A command class (Typer's `cls=`) whose --help leaves out the parameters `fit` names, words others
    for the match at hand and ends with its paragraph; the parameters still work (hidden from the help
    only), so nothing a script types is refused."""

    class Fitted(TyperCommand):
        args: tuple[str, ...] = ()

        def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
            self.args = tuple(args)  # --help is handled while they are read: what else was typed is known here
            return list(super().parse_args(ctx, args))

        def format_help(self, ctx: Any, formatter: Any) -> None:
            try:
                hide, note, helps = fit(list(self.args))
            except Exception:  # the help must show whatever the data folder holds: everything, then
                hide, note, helps = set(), "", {}
            shown = [(p, p.hidden) for p in self.params if p.name in hide and hasattr(p, "hidden")]
            worded = [(p, p.help) for p in self.params if p.name in helps and hasattr(p, "help")]
            for p, _ in shown:
                p.hidden = True
            for p, _ in worded:
                p.help = helps[p.name or ""]
            try:
                super().format_help(ctx, formatter)
                if note:
                    formatter.write_paragraph()
                    formatter.write_text(note)
            finally:
                for p, was in shown:
                    p.hidden = was
                for p, words in worded:
                    p.help = words

    return Fitted


def root_command(app: typer.Typer) -> Any:
    """The click group Typer makes of `app` (what the console script runs)."""
    return typer.main.get_command(app)
