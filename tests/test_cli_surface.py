"""The command line as a person first meets it: the list of commands, each command's help, a mistyped
command, the version. Run through the console script, as a user runs it."""

from __future__ import annotations

import inspect
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from pitchkeeper import __version__, cli
from pitchkeeper.cli import adapter


def pk(*args: str, home: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COLUMNS": "100", **({"PITCHKEEPER_HOME": str(home)} if home else {})}
    return subprocess.run([sys.executable, "-m", "pitchkeeper", *args], capture_output=True, text=True, env=env,
                          stdin=subprocess.DEVNULL, timeout=60, check=False)


def every_command() -> list[tuple[str, str]]:
    """(command line words, module named for it in cli.COMMANDS) for every command."""
    out = []
    for name, target in cli.COMMANDS.items():
        if isinstance(target, str):
            out.append((name, target))
        else:
            out += [(f"{name} {sub}", module) for sub, module in target[0].items() if isinstance(module, str)]
    return out


def first_line(words: str, module: str) -> str:
    """The first line of a command's help, as its module writes it."""
    info = adapter.command_info(words.split()[-1], module)
    assert info.callback is not None
    return (inspect.getdoc(info.callback) if info.help is None else inspect.cleandoc(info.help)).splitlines()[0]


def listing(help_text: str) -> dict[str, str]:
    """The "Commands:" section of a help as {command: its line}, the lines a long help folds joined."""
    section = help_text.split("Commands:", 1)[1]
    out: dict[str, str] = {}
    last = ""
    for line in section.splitlines():
        m = re.match(r"^  (\S+)\s{2,}(.*)$", line)
        if m:
            last = m.group(1)
            out[last] = m.group(2).strip()
        elif line.startswith("    ") and last:
            out[last] += " " + line.strip()
        elif line.strip() and not line.startswith(" "):
            break
    return out


def test_the_help_lists_every_command_with_its_help_line(tmp_path: Path) -> None:
    p = pk("--help", home=tmp_path)
    assert p.returncode == 0 and p.stderr == ""
    assert p.stdout.startswith("Usage: ")
    listed = listing(p.stdout)
    assert list(listed) == list(cli.COMMANDS)  # every command, in the order of the map, nothing else
    for words, module in every_command():
        if " " in words:
            continue
        line = listed[words].removesuffix("...")
        assert first_line(words, module).startswith(line), (words, line)
    assert listed["judge"] == "Judge a hand, a trick or a whole match from a record file."
    assert f"Matchlogsarekeptin{tmp_path}(" in "".join(p.stdout.split())  # where to find the logs


@pytest.mark.parametrize("group", [n for n, t in cli.COMMANDS.items() if not isinstance(t, str)])
def test_a_group_lists_its_commands_with_their_help(group: str) -> None:
    p = pk(group, "--help")
    assert p.returncode == 0, p.stderr
    listed = listing(p.stdout)
    subs = [w.split()[1] for w, _ in every_command() if w.split()[0] == group]
    assert list(listed) == subs
    for sub in subs:
        assert first_line(f"{group} {sub}", str(dict(every_command())[f"{group} {sub}"])).startswith(
            listed[sub].removesuffix("...")), sub


@pytest.mark.parametrize("words", [w for w, _ in every_command()])
def test_each_command_answers_dash_h_with_its_usage_and_help(words: str) -> None:
    p = pk(*words.split(), "-h")
    assert p.returncode == 0, p.stderr
    assert re.search(rf"^Usage: .*pitchkeeper {words} \[OPTIONS\]", p.stdout, re.M), p.stdout[:300]
    assert first_line(words, dict(every_command())[words]) in " ".join(p.stdout.split())
    assert "-h, --help" in p.stdout and p.stderr == ""


def test_every_command_a_module_defines_can_be_run() -> None:
    """A command registered in a topic module but missing from cli.COMMANDS could never be run."""
    mapped = {(w.split()[-1], m) for w, m in every_command()}
    for module in {m for _, m in every_command()}:
        for info in adapter.registered(module):
            assert (adapter.command_name(info), module) in mapped, (module, adapter.command_name(info))


@pytest.mark.parametrize(("typed", "meant"), [("stauts", "'status'"), ("hsitory", "'history'"),
                                              ("rule", "'rules'"), ("judge hnd", "'hand'"),
                                              ("rules lst", "'list'"), ("tournament standing", "'standings'")])
def test_a_mistyped_command_gets_a_did_you_mean(typed: str, meant: str) -> None:
    p = pk(*typed.split())
    assert p.returncode == 2 and p.stdout == ""
    assert p.stderr.count("\n") == 1, p.stderr
    assert p.stderr.startswith("error: ") and f"No such command '{typed.split()[-1]}'" in p.stderr
    assert "Did you mean" in p.stderr and meant in p.stderr


def test_a_command_nothing_resembles_gets_no_guess() -> None:
    p = pk("xyzzy")
    assert p.returncode == 2 and p.stderr == "error: No such command 'xyzzy'.\n"


@pytest.mark.parametrize("flag", ["--version", "-V"])
def test_version(flag: str) -> None:
    p = pk(flag)
    assert p.returncode == 0 and p.stdout == f"pitchkeeper {__version__}\n" and p.stderr == ""


def test_no_command_shows_the_help() -> None:
    p = pk()
    assert "Usage: " in p.stdout + p.stderr and "Commands:" in p.stdout + p.stderr
    p = pk("judge")  # a bare group: its own help
    assert "hand" in p.stdout + p.stderr and "trick" in p.stdout + p.stderr


def test_debug_counts_anywhere_on_the_command_line_and_is_no_argument() -> None:
    """--debug after the command is taken off (it never reaches the command as an unknown option)."""
    p = pk("rules", "list", "--debug")
    assert p.returncode == 0 and "seven-point" in p.stdout, p.stderr
    p = pk("--debug", "rules", "list")
    assert p.returncode == 0 and "seven-point" in p.stdout, p.stderr


def test_a_cli_that_cannot_load_ends_in_one_line_and_its_traceback_with_debug() -> None:
    """A broken install (here: Typer missing) is a bug too: one line, exit 1; the traceback with --debug."""
    code = ("import sys; sys.modules['typer'] = None; sys.argv = ['pitchkeeper', *sys.argv[1:]]\n"
            "from pitchkeeper.launch import main; main()")
    for extra in ([], ["--debug"]):
        p = subprocess.run([sys.executable, "-c", code, "status", *extra], capture_output=True, text=True,
                           timeout=60, check=False)
        assert p.returncode == 1 and p.stdout == ""
        last = p.stderr.splitlines()[-1]
        assert last.startswith("error: internal error (a bug): ModuleNotFoundError: import of typer halted")
        assert ("Traceback" in p.stderr) == bool(extra) and (p.stderr.count("\n") == 1) != bool(extra)
