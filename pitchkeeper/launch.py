"""The console script. It marks the CLI as lazy before loading it, so that `cli.main` loads only
the area of the CLI that the command line runs (every command module costs start-up time).

It is also where a run ends that something unforeseen broke: one line on stderr that says it is a
bug and where to report it, exit status 1 (bad input is a PitchError: exit 2). The traceback is
shown only with `--debug` (anywhere on the command line) or PITCHKEEPER_DEBUG=1.
"""

from __future__ import annotations

import os
import sys

REPORT = "please report it (see 'Reporting a bug' in the README: the command and its --debug output)"
DEBUG = False  # --debug was given
PAUSED: list[bool] = []  # the collector is off while the console script starts (see main)


def started() -> None:
    """The command is about to run: what the start made lives on, so freeze it, and collect again."""
    if PAUSED:
        import gc

        PAUSED.clear()
        gc.freeze()
        gc.enable()


def debugging() -> bool:
    return DEBUG or os.environ.get("PITCHKEEPER_DEBUG", "") not in ("", "0")


def crash(e: BaseException) -> None:
    """An exception nobody foresaw, as one line naming it a bug (with its traceback under --debug)."""
    from pitchkeeper.errors import shown

    if debugging():
        import traceback

        traceback.print_exception(e)
    what = shown(f"{type(e).__name__}: {e}" if str(e) else type(e).__name__)
    if len(what) > 300:
        what = what[:297] + "..."
    sys.stderr.write(f"error: internal error (a bug): {what} - {REPORT}\n")


def take_debug(args: list[str]) -> list[str]:
    """The arguments without `--debug` (before a `--`), noting that it was given."""
    global DEBUG
    end = args.index("--") if "--" in args else len(args)
    if "--debug" in args[:end]:
        DEBUG = True
        return [a for a in args[:end] if a != "--debug"] + args[end:]
    return args


def main() -> None:
    import gc

    # No garbage collection while the CLI starts: the imports make tens of thousands of objects that
    # live as long as the process, and the collector would walk them again and again (a twentieth of
    # a command's time). `started` freezes them and turns it back on for the command itself.
    gc.disable()
    PAUSED[:] = [True]
    sys.argv[1:] = take_debug(sys.argv[1:])
    try:
        import pitchkeeper

        pitchkeeper.LAZY_CLI = True
        from pitchkeeper import cli

        cli.main()
    except Exception as e:  # cli.main handles what it can; this is the last line of defence (an import, say)
        crash(e)
        sys.exit(1)
