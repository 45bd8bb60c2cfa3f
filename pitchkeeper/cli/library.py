"""What a command's options name, found in the library: the match of --match (read and replayed), the ruleset
of --rules, and whether an output file may be written. Apart from the package's own module, so that a
command that names no match (`--version`, `rules list`, `judge hand`) loads no match log code; and a command
that only reads a match loads no Logbook (its versions and its write half): those that write find it with
cli.table's `book_of`.
"""

from __future__ import annotations

import os
from typing import Any

from pitchkeeper.cli import ask, fail, interactive, kept
from pitchkeeper.errors import PitchError, shown
from pitchkeeper.game import rulesets
from pitchkeeper.logbook import loader, store


def need_ruleset(rules: str | None, command: str) -> Any:
    """The ruleset of a --rules option that the command cannot do without."""
    if not rules:
        fail(f"--rules: say which ruleset ({command} --rules seven-point, or a .toml file); "
             "'pitchkeeper rules list' names the built-in ones")
    return rulesets.load(rules)


def match_path(match: str | None) -> Any:
    """The log of --match (or the current match), checked as the Logbook checks a path it is given."""
    return loader.log_path(store.resolve_match_path(match))


def replayed(match: str | None) -> tuple[Any, Any]:
    """The log of --match (or the current match), read and replayed: (Loaded, MatchState), as
    `Logbook.load` gives them."""
    return loader.replayed(store.resolve_match_path(match))


def may_write_over(out: Any, force: bool | None) -> None:
    """A command's output never lands on a match log or tournament (kept data would be lost);
    over any other existing file only with --force (`force` True) or after asking on a terminal.
    `force` None: only the first rule (a command that writes its output file without asking)."""
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
    if not ask(f"{shown(out)} exists: write over it?"):
        kept(f"Kept {shown(out)}: nothing written.")
