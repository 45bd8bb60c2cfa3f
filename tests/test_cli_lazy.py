"""The CLI is grouped by topic behind a lazy group: a command line loads only the module of the
command it runs, and every command is still found, listed and suggested."""

from __future__ import annotations

import subprocess
import sys

import pytest

from pitchkeeper import cli


def every_command() -> list[tuple[str, str]]:
    """(command line words, module named for it in cli.COMMANDS) for every command."""
    out = []
    for name, target in cli.COMMANDS.items():
        if isinstance(target, tuple):
            out += [(f"{name} {sub}", module) for sub, module in target[0].items()]
        else:
            out.append((name, target))
    return out


@pytest.mark.parametrize(("words", "module"), every_command())
def test_each_command_is_defined_in_the_module_the_map_names(words: str, module: str) -> None:
    """...and only there: a command line that runs it loads that module and no other topic module."""
    code = ("import sys\nfrom pitchkeeper import cli\nfrom typer.main import get_command\n"
            f"group = get_command(cli.app)\nfor w in {words.split()!r}:\n    group = group.get_command(None, w)\n"
            "print(group.callback.__module__ if hasattr(group.callback, '__module__') else '')\n"
            "print(sorted(m for m in sys.modules if m.startswith('pitchkeeper.cli.')))")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    loaded = p.stdout.splitlines()[1]
    assert loaded == str([f"pitchkeeper.cli.{module}"]), (words, loaded)


def test_the_map_names_every_command_its_modules_define() -> None:
    mapped = {(w.split()[-1], m) for w, m in every_command()}
    for module in {m for _, m in every_command()}:
        mod = __import__(f"pitchkeeper.cli.{module}", fromlist=["commands"])
        for info in mod.commands.registered_commands:
            assert (cli.command_name(info), module) in mapped, (module, cli.command_name(info))


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
    typo = subprocess.run([sys.executable, "-m", "pitchkeeper", "judge", "hnd"], capture_output=True, text=True,
                          check=False)
    assert typo.returncode == 2 and "'hand'" in typo.stderr
