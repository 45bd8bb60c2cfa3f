"""Words of the CLI a player reads (tester19 F5): `hand --help`/`edit --help` say what `--rest` answers in
the match's own terms (no game where the ruleset has none, the option named once), and a planted file
that is not a regular file is called just that - the pointer, a log's ruleset - never "not found" nor
"not a file" twice over."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

import pitchkeeper
from pitchkeeper.cli import app

runner = CliRunner()
PLAYERS = ["Ann", "Bob", "Cy", "Dee"]
PIPE = "is not a regular file (a pipe, socket or device)"


def rest_help(command: list[str], log: Path) -> str:
    """The help of --rest, its lines joined: from the option to the next option."""
    r = runner.invoke(app, [*command, "--help", "--match", str(log)])
    assert r.exit_code == 0, r.output
    text = " ".join(r.stdout.split())
    start = text.index("Options:")
    return text[text.index("--rest none", start):text.index(" -p, --point")]


@pytest.mark.parametrize("command", [["hand"], ["edit", "1"]])
def test_rest_is_worded_for_the_match_and_names_its_option_once(tmp_path: Path, command: list[str]) -> None:
    trick = tmp_path / "t.toml"
    pitchkeeper.Logbook.create(trick, "trickster-10", PLAYERS)
    words = rest_help(command, trick)
    assert words == "--rest none The points not named were not out."  # trickster-10 has no game point
    r = runner.invoke(app, [*command, "--help", "--match", str(trick)])
    assert not re.search(r"\bgame\b", r.stdout, re.IGNORECASE), r.stdout  # nothing of game anywhere

    seven = tmp_path / "s.toml"
    pitchkeeper.Logbook.create(seven, "seven-point", PLAYERS)
    assert rest_help(command, seven) == ("--rest none The points not named were not out. It never answers high "
                                         "or low (always out), nor a tied game (--game tie).")


@pytest.fixture
def pointer(_home: Path) -> Path:
    r = runner.invoke(app, ["new", "seven-point", *PLAYERS])
    assert r.exit_code == 0, r.output
    return _home / "current"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX")
def test_a_pointer_that_is_a_pipe_or_a_folder_is_called_just_that(pointer: Path) -> None:
    pointer.unlink()
    os.mkfifo(pointer)
    r = runner.invoke(app, ["status"])
    assert r.exit_code == 2 and r.stderr == f"error: {pointer}: {PIPE}\n"
    pointer.unlink()
    pointer.mkdir()
    r = runner.invoke(app, ["status"])
    assert r.exit_code == 2 and r.stderr == f"error: {pointer}: is a folder\n"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX")
def test_a_log_whose_ruleset_is_a_pipe_or_a_device_says_so_not_missing(tmp_path: Path) -> None:
    log = tmp_path / "m.toml"
    pitchkeeper.Logbook.create(log, "seven-point", PLAYERS)
    text = log.read_text(encoding="utf-8")
    fifo = tmp_path / "rules.toml"
    os.mkfifo(fifo)
    for ref in (str(fifo), "/dev/zero"):
        log.write_text(text.replace('rules = "seven-point"', f'rules = "{ref}"'), encoding="utf-8")
        r = runner.invoke(app, ["status", "--match", str(log)])
        assert r.exit_code == 0, r.output  # the pinned copy keeps the game going, and the warning says why
        assert f"ruleset file {ref} {PIPE}" in r.stderr and "not found" not in r.stderr, r.stderr
        assert "has changed" not in r.stderr  # it was not changed: it cannot be read
        # with no pinned copy to fall back on, the same words end the command (one line, exit 2)
        bare = text.replace('rules = "seven-point"', f'rules = "{ref}"').split("\n[ruleset]")[0] + "\n"
        log.write_text(bare, encoding="utf-8")
        r = runner.invoke(app, ["status", "--match", str(log)])
        assert r.exit_code == 2 and r.stderr.count("\n") == 1, r.stderr
        assert f"ruleset file {ref} {PIPE}" in r.stderr
