"""The console script loads only what a command line runs; every command must still be found."""

from __future__ import annotations

import subprocess
import sys

import pytest

from pitchkeeper import cli


def every_command() -> list[tuple[str, str]]:
    """(command line words, module that defines it) for every command, all areas loaded."""
    out = [(cli._command_name(c), c.callback.__module__) for c in cli.app.registered_commands]
    for g in cli.app.registered_groups:
        out += [(f"{g.name} {cli._command_name(c)}", c.callback.__module__) for c in g.typer_instance.registered_commands]
    return out


def test_the_area_table_names_the_module_of_every_command() -> None:
    for words, module in every_command():
        area = cli.COMMAND_AREAS.get(words)
        if module == "pitchkeeper.cli":
            assert area is None, words
        else:
            assert module == f"pitchkeeper.cli.{area}", words


@pytest.mark.parametrize("words", [w for w, _ in every_command()])
def test_every_command_runs_from_the_console_script(words: str) -> None:
    p = subprocess.run([sys.executable, "-m", "pitchkeeper", *words.split(), "--help"], capture_output=True,
                       text=True, check=False)
    assert p.returncode == 0, p.stderr
    assert f"pitchkeeper {words} [OPTIONS]" in p.stdout


def test_help_and_a_typo_still_list_every_command() -> None:
    p = subprocess.run([sys.executable, "-m", "pitchkeeper", "--help"], capture_output=True, text=True, check=False)
    for words, _ in every_command():
        assert words.split()[0] in p.stdout
    typo = subprocess.run([sys.executable, "-m", "pitchkeeper", "stauts"], capture_output=True, text=True,
                          check=False)
    assert typo.returncode == 2 and "status" in typo.stderr
