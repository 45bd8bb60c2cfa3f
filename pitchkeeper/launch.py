"""The console script (`pitchkeeper`, and `python -m pitchkeeper`).

It runs the CLI, which ends every run as a person should see it (pitchkeeper.cli.adapter): bad input in
one line and exit status 2, a bug in one line and exit status 1. What is left for this module is the
one failure the CLI cannot report itself: the CLI failing to load (a broken install, say), which is a
bug too - one line, exit status 1, its traceback with `--debug` or PITCHKEEPER_DEBUG=1.
"""

from __future__ import annotations

import sys
import traceback

from pitchkeeper.errors import bug_line, debug_wanted


def main() -> None:
    try:
        # imported here, not at the top, so that an import that fails is reported below in one line
        from pitchkeeper import cli
    except Exception as e:
        if debug_wanted(sys.argv[1:]):
            traceback.print_exception(e)
        sys.stderr.write(bug_line(e))
        sys.exit(1)
    cli.main()
