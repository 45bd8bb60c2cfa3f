"""The command line: parse arguments, call the library, show (plain drawing, pitchkeeper.show.ansi; never Rich).

Commands live in modules by topic - `table` (writing a match), `scores` (status, history), `check`,
`guided` (play), `judge`, `rules`, `lookback` (export, chart), `tally` (stats) - each on a `commands` Typer of its
own; what their options name in the library (the match of --match, the ruleset of --rules) is found by
`cli.library`. The groups here are lazy: `COMMANDS` maps each command to its module, and a command line
loads and builds only the command it runs (Typer would otherwise build every command's parameters at each
start). A new command is one function in the module of its topic plus one entry in `COMMANDS`.

Errors from the library (PitchError) become one line on stderr and exit status 2.
"""

from __future__ import annotations

import codecs
import json
import signal
import sys
from typing import Annotated, Any, NoReturn

import typer

from pitchkeeper import __version__
from pitchkeeper.cli.adapter import CONTEXT, Commands, Debug, LazyGroup
from pitchkeeper.errors import PitchError, shown
from pitchkeeper.logbook.paths import data_dir

# command -> the module (pitchkeeper.cli.<module>) that defines it; a group -> its own map and help
JUDGE = {"hand": "judge", "match": "judge", "trick": "judge"}
RULES = {"list": "rules", "show": "rules", "check": "rules", "diff": "rules", "new": "rules", "explain": "rules"}
TOURNAMENT = dict.fromkeys(("new", "seat", "record", "standings", "cards", "check"), "tournament")
ANALYSE = dict.fromkeys(("hand", "match", "odds"), "analyse")
COMMANDS: Commands = {  # in the order `pitchkeeper --help` lists them
    **dict.fromkeys(("new", "hand", "edit"), "table"),
    **dict.fromkeys(("status", "history"), "scores"),
    "undo": "table",
    "check": "check",
    "play": "guided",
    **dict.fromkeys(("matches", "use", "where", "sheet"), "shelf"),
    **dict.fromkeys(("export", "chart"), "lookback"),
    "stats": "tally",
    "serve": "serve",
    "judge": (JUDGE, "Judge a hand, a trick or a whole match from a record file."),
    "rules": (RULES, "List, show, check, compare and explain rulesets, and start house rules."),
    "tournament": (TOURNAMENT, "Tournaments and leagues: seat the room, take every table's result, rank the players."),
    "analyse": (ANALYSE, "With every card known: par of a hand, what each card cost, the odds of a bid."),
}


class Root(LazyGroup):
    """`pitchkeeper`: the commands of COMMANDS, and where the logs are kept under its help."""

    lazy = COMMANDS

    def note(self) -> str:
        return (f"Match logs are kept in {data_dir()} (PITCHKEEPER_HOME moves them; "
                "`pitchkeeper where` shows it, `pitchkeeper matches` lists them).")


def topic() -> typer.Typer:
    """The Typer a topic module registers its commands on (never run itself: the lazy group builds them)."""
    return typer.Typer(context_settings=CONTEXT, rich_markup_mode=None)


app = typer.Typer(
    name="pitchkeeper",
    cls=Root,
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
    """JSON on stdout: indented for a person at a terminal, compact for tools."""
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


def interactive() -> bool:
    """Is standard input a terminal (someone to ask)?"""
    try:
        return sys.stdin.isatty()
    except (AttributeError, ValueError):
        return False


def yes_no(text: str, default: bool) -> bool:
    """An answer to a yes-or-no question: y, yes, n or no (any case); nothing at all is the default."""
    t = text.strip().lower()
    if not t:
        return default
    if t in ("y", "yes"):
        return True
    if t in ("n", "no"):
        return False
    raise PitchError(f"type y or n (Enter is {'yes' if default else 'no'})")


def ask(question: str, default: bool = False) -> bool:
    """A yes-or-no question at the terminal, asked one way everywhere: `question [y/N]: ` - the capital
    letter is what Enter answers - until the answer is y or n. Input ended: the default."""
    while True:
        sys.stdout.write(f"{question} {'[Y/n]' if default else '[y/N]'}: ")
        sys.stdout.flush()
        line = sys.stdin.readline()
        if not line:
            sys.stdout.write("\n")
            return default
        try:
            return yes_no(line, default)
        except PitchError as e:
            sys.stdout.write(f"  ? {e.message}\n")


def kept(line: str, as_json: bool = False) -> NoReturn:
    """A question answered no: said in one line ("Kept hand 3: nothing changed."; on standard error under
    --json, whose output is JSON only), and exit status 0 - nothing went wrong and nothing was written
    (1 is a bug, 2 bad input)."""
    (sys.stderr if as_json else sys.stdout).write(f"{line}\n")
    raise typer.Exit(0)


def warn(lines: Any) -> None:
    for w in lines:
        sys.stderr.write(f"warning: {shown(w)}\n")


def _debug(value: bool) -> None:
    if value:
        Debug.on = True


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


def _letters(e: UnicodeError) -> tuple[str, int]:
    assert isinstance(e, UnicodeEncodeError)  # registered for writing only
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
        codecs.register_error("pitchkeeper-letters", _letters)
        try:
            stream.reconfigure(errors="pitchkeeper-letters")  # type: ignore[union-attr]
        except (AttributeError, ValueError):
            pass


def take_debug(args: list[str]) -> list[str]:
    """The arguments without `--debug` (before a `--`), noting that it was given: it counts anywhere on the
    command line, even after the command or where the command line fails to parse."""
    end = args.index("--") if "--" in args else len(args)
    if "--debug" not in args[:end]:
        return args
    Debug.on = True
    return [a for a in args[:end] if a != "--debug"] + args[end:]


def main(args: list[str] | None = None) -> None:
    """Run the CLI on `args` (default: the command line): bad input ends in one line and exit status 2,
    a bug in one line and exit status 1, Ctrl-C in exit status 130."""
    signal.signal(signal.SIGINT, _on_sigint)
    plain_streams()
    try:
        app(args=take_debug(sys.argv[1:] if args is None else args))
    except Interrupted:
        sys.stderr.write("interrupted\n")
        sys.exit(130)
