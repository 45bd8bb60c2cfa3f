"""Bad input of every kind, at every command: one line on stderr, exit 2, no traceback, nothing changed.

Each case builds a hostile file, command line or environment in a fresh data folder holding a
current match of two hands, runs the command as a user would (CliRunner on the app the console
script runs), and checks the promise of the README: exactly one line `error: ...` on stderr with
no raw control character in it, exit status 2, no traceback, and every file in the folder byte for
byte as it was (no log, lock, temp or cache file written or removed).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pitchkeeper.cli import app

runner = CliRunner()
EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
HAND = Path(__file__).resolve().parent / "data" / "match" / "trickster-4-hand.toml"
HEADER = 'rules = "seven-point"\nplayers = ["Ann", "Bob", "Cy", "Dee"]\n'
RAW_CONTROL = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029]")


class Table:
    """A data folder with a current match (two hands) and the paths a case may use."""

    def __init__(self, root: Path, home: Path) -> None:
        self.root = root  # holds the data folder (home) too: every file below it is watched
        self.log = home / "matches" / "game.toml"
        self.bad = root / "bad.toml"
        self.pointer = home / "current"


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The data folder every case starts from, made once: a current match of two hands."""
    home = tmp_path_factory.mktemp("template") / "pitchkeeper-home"
    log = home / "matches" / "game.toml"
    env = {"PITCHKEEPER_HOME": str(home)}
    for args in (["new", "seven-point", "Ann", "Bob", "Cy", "Dee", "--match", str(log)],
                 ["hand", "Ann", "2", "S", "--high", "Us", "--rest", "none", "--game", "tie", "--low", "Them"],
                 ["hand", "Bob", "3", "H", "--high", "Them", "--rest", "none", "--low", "Them", "--game", "Us"]):
        r = runner.invoke(app, args, env=env)
        assert r.exit_code == 0, r.stderr
    return home


@pytest.fixture
def t(tmp_path: Path, _home: Path, template: Path) -> Table:
    import shutil

    shutil.copytree(template, _home)
    t = Table(tmp_path, _home)
    t.pointer.write_text(f"{t.log}\n", encoding="utf-8")
    r = runner.invoke(app, ["status"])  # the cache of the log as it is (a refused command must not touch it)
    assert r.exit_code == 0, r.stderr
    return t


def snapshot(root: Path) -> dict[str, bytes | str]:
    out: dict[str, bytes | str] = {}
    for p in sorted(root.rglob("*")):
        if p.is_symlink() or not (p.is_file() or p.is_dir()):
            out[str(p)] = "special"
        elif p.is_file():
            out[str(p)] = p.read_bytes()
        else:
            out[str(p)] = "dir"
    return out


def refused(t: Table, args: list[str], env: dict[str, str] | None = None) -> str:
    before = snapshot(t.root)
    r = runner.invoke(app, args, env=env)
    assert r.exit_code == 2, (r.exit_code, r.stdout, r.stderr)
    assert "Traceback" not in r.stdout + r.stderr
    assert r.stderr.endswith("\n") and r.stderr.count("\n") == 1, r.stderr
    line = r.stderr[:-1]
    assert line.startswith("error: "), line
    assert not RAW_CONTROL.search(line), repr(line)
    assert snapshot(t.root) == before
    return line


# -- hostile files, given to every command that reads that kind of file

def deep_array(n: int = 400) -> str:
    return HEADER + "x = " + "[" * n + "]" * n + "\n"


def deep_table(n: int = 400) -> str:
    return HEADER + "x = " + "{a = " * n + "1" + "}" * n + "\n"


def deep_headers(n: int = 300) -> str:
    return HEADER + "[" + ".".join(["a"] * n) + "]\nb = 1\n"


def bad_match(extra: str) -> Callable[[Table], str]:
    """A match log: the current one's text, then `extra` (which may undo it)."""
    return lambda t: t.log.read_text(encoding="utf-8") + extra


FILES: dict[str, Callable[[Table], str | bytes | None]] = {
    "deep-array": lambda t: deep_array(),
    "deep-inline-table": lambda t: deep_table(),
    "deep-headers": lambda t: deep_headers(),
    "deep-in-a-hand": bad_match('\n[[hands]]\ndealer = "Cy"\nx = ' + "[" * 500 + "]" * 500 + "\n"),
    "int-5000-digits": lambda t: HEADER + "target = " + "9" * 5000 + "\n",
    "int-beyond-64-bits": lambda t: HEADER + f"target = {2**64}\n",
    "int-in-a-bid": bad_match('\n[[hands]]\ndealer = "Cy"\ntrump = "S"\nbid = { player = "Cy", amount = '
                              + "7" * 4400 + ' }\npoints = { high = "Us" }\n'),
    "not-utf8": lambda t: HEADER.encode() + b"title = \"\xff\xfe\"\n",
    "nul-in-rules": lambda t: 'rules = "seven\\u0000point"\nplayers = ["Ann", "Bob", "Cy", "Dee"]\n',
    "esc-in-rules": lambda t: 'rules = "\\u001b[2J"\nplayers = ["Ann", "Bob", "Cy", "Dee"]\n',
    "rules-ref-too-long": lambda t: f'rules = "{"r" * 300}.toml"\nplayers = ["Ann", "Bob"]\n',
    "rules-name-too-long": lambda t: f'rules = "{"r" * 5000}"\nplayers = ["Ann", "Bob"]\n',
    "esc-in-title": lambda t: HEADER + 'title = "\\u001b]0;pwned\\u0007"\n',
    "newline-in-player": lambda t: 'rules = "seven-point"\nplayers = ["Ann\\nerror: fake", "Bob", "Cy", "Dee"]\n',
    "cut-short": lambda t: HEADER + "teams = { Us = [",
    "empty": lambda t: "",
    "a-folder": lambda t: None,
    "a-pipe": lambda t: None,
}


def place(t: Table, kind: str) -> Path:
    """Make the hostile file `kind` at t.bad (a folder, a named pipe, or TOML text)."""
    if kind == "a-folder":
        t.bad.mkdir()
    elif kind == "a-pipe":
        os.mkfifo(t.bad)
    else:
        body = FILES[kind](t)
        assert body is not None
        if isinstance(body, str):
            t.bad.write_text(body, encoding="utf-8")
        else:
            t.bad.write_bytes(body)
    return t.bad


COMMANDS: dict[str, Callable[[Path], list[str]]] = {
    "judge hand": lambda f: ["judge", "hand", str(f)],
    "judge hand --json": lambda f: ["judge", "hand", str(f), "--json"],
    "judge match": lambda f: ["judge", "match", str(f)],
    "check": lambda f: ["check", str(f)],
    "status": lambda f: ["status", "--match", str(f)],
    "history": lambda f: ["history", "--match", str(f), "--json"],
    "hand": lambda f: ["hand", "Ann", "2", "S", "--high", "Us",
                       "--rest", "none", "--game", "tie", "--low", "Us", "--match", str(f)],
    "hand --from": lambda f: ["hand", "--from", str(f)],
    "undo": lambda f: ["undo", "--yes", "--match", str(f)],
    "edit": lambda f: ["edit", "1", "--high", "Them", "--yes", "--match", str(f)],
    "export": lambda f: ["export", "--match", str(f), "--format", "csv"],
    "chart": lambda f: ["chart", "--match", str(f)],
    "stats": lambda f: ["stats", str(f)],
    "rules show": lambda f: ["rules", "show", str(f)],
    "rules diff": lambda f: ["rules", "diff", "seven-point", str(f)],
    "--rules": lambda f: ["judge", "hand", str(HAND), "--rules", str(f)],
    "new": lambda f: ["new", str(f), "Ann", "Bob", "Cy", "Dee"],
    "new --rematch --of": lambda f: ["new", "--rematch", "--of", str(f)],
    "tournament standings": lambda f: ["tournament", "standings", str(f)],
    "tournament check": lambda f: ["tournament", "check", str(f)],
}

# Every file kind at every command, but for the pairs where the file is not wrong for that command
# (a ruleset command reads a record's header as unknown keys, which is also a refusal: kept).
CASES = [(c, k) for c in COMMANDS for k in FILES]


@pytest.mark.parametrize(("command", "kind"), CASES)
def test_a_hostile_file_is_one_line_and_exit_2(t: Table, command: str, kind: str) -> None:
    f = place(t, kind)
    line = refused(t, COMMANDS[command](f))
    assert "bad.toml" in line or "--from" in line or "rules" in line, line


def test_deep_and_huge_logs_among_the_kept_ones_are_named_by_stats_and_matches(t: Table) -> None:
    folder = t.log.parent
    (folder / "deep.toml").write_text(deep_array(), encoding="utf-8")
    (folder / "huge.toml").write_text(HEADER + "target = " + "9" * 5000 + "\n", encoding="utf-8")
    r = runner.invoke(app, ["stats", "--all", "--json"])
    assert r.exit_code == 0 and "Traceback" not in r.stderr
    lines = r.stderr.splitlines()
    assert len(lines) == 2 and all(ln.startswith("error: ") for ln in lines), lines
    assert '"skipped": 2' in r.stdout.replace(" ", "").replace(":", ": ")
    r = runner.invoke(app, ["matches", "--json"])
    assert r.exit_code == 0 and "Traceback" not in r.stderr
    assert r.stdout.count('"state": "broken"') == 2


# -- the current-match pointer

POINTERS = {
    "binary": b"\x00\xff\xfe",
    "relative": b"game.toml\n",
    "two-lines": b"/a.toml\n/b.toml\n",
    "nul": b"/tmp/a\x00b.toml\n",
    "escape": b"/tmp/\x1b[2Ja.toml\n",
    "too-long": b"/" + b"a" * 5000 + b"\n",
    "a-folder": None,
    "missing-log": b"/nonexistent/pitchkeeper/gone.toml\n",
}


@pytest.mark.parametrize("kind", POINTERS)
@pytest.mark.parametrize("args", [["status"], ["history"], ["undo", "--yes"], ["chart"], ["export", "-f", "md"],
                                  ["hand", "Ann", "2", "S", "--high", "Us", "--rest", "none", "--game", "tie", "--low", "Us"],
                                  ["new", "--rematch"],
                                  ["edit", "1", "--high", "Them", "--yes"], ["check"], ["stats"]])
def test_a_corrupt_current_pointer_is_one_line(t: Table, kind: str, args: list[str]) -> None:
    body = POINTERS[kind]
    t.pointer.unlink()
    if body is None:
        t.pointer.mkdir()
    else:
        t.pointer.write_bytes(body)
    line = refused(t, args)
    assert "current" in line or "gone.toml" in line, line


# -- command lines: usage errors are one line too

USAGE = [
    ["status", "--frob"], ["hand", "--nope"], ["new", "seven-point", "A", "B", "--target", "0"],
    ["new", "seven-point", "A", "B", "--stake", "-1"], ["hand", "Ann", "-3", "S"], ["judge", "hand"],
    ["judge", "match"], ["rules", "show"], ["rules", "diff", "seven-point"], ["edit"], ["edit", "x"],
    ["edit", "-1"], ["frob"], ["judge", "frob"], ["rules", "frob"], ["export", "--format"],
    ["stats", "--strict=3"], ["chart", "extra"], ["undo", "extra"], ["status", "--json", "--json=x"],
]


@pytest.mark.parametrize("args", USAGE, ids=" ".join)
def test_a_usage_error_is_one_line(t: Table, args: list[str]) -> None:
    refused(t, args)


def test_a_negative_number_read_as_an_option_says_so(t: Table) -> None:
    assert "write -- before it" in refused(t, ["hand", "Ann", "-3", "S"])


# -- input echoed in messages is shown escaped

ECHOED = [
    ["judge", "trick", "--rules", "seven-point", "--trump", "S", "--cards", "Ann:Q\x1b[31mC Bob:AC"],
    ["judge", "trick", "--rules", "seven-point", "--trump", "X\n", "--cards", "Ann:QC Bob:AC"],
    ["hand", "Ann", "2", "S", "--high", "U\x1bs", "--rest", "none", "--game", "tie", "--low", "Us"],
    ["hand", "Ann\x00", "2", "S", "--high", "Us", "--rest", "none", "--game", "tie", "--low", "Us"],
    ["hand", "Ann", "2\x1bx", "S", "--high", "Us", "--rest", "none", "--game", "tie", "--low", "Us"],
    ["hand", "Ann", "2", "S", "--point", "hi\x07gh=Us"],
    ["hand", "Ann", "2", "S", "--cards", "Us: AS\x1b[2J JS"],
    ["new", "seven-point", "Ann\nerror: fake", "Bob", "Cy", "Dee"],
    ["new", "seven-point", "Ann", "Bob", "Cy", "Dee", "--title", "\x1b]0;owned\x07"],
    ["new", "seven-point", "Ann", "Bob", "Cy", "Dee", "--title", "two\nlines"],
    ["new", "seven\x1b[31m", "Ann", "Bob"],
    ["rules", "show", "x\x1b[2Jy"],
    ["rules", "explain", "off\x1bjack", "--rules", "seven-point"],
    ["status", "--match", "a\nb.toml"],
    ["status", "--fr\x1bob"],
]


@pytest.mark.parametrize("args", ECHOED, ids=lambda a: repr(" ".join(a)))
def test_echoed_input_is_escaped(t: Table, args: list[str]) -> None:
    refused(t, args)


LONG = "Zed" * 3000


@pytest.mark.parametrize("args", [
    ["hand", LONG, "2", "S", "--high", "Us", "--rest", "none", "--game", "tie", "--low", "Us"],
    ["hand", "Ann", "2", "S", "--high", LONG, "--rest", "none", "--game", "tie", "--low", "Us"],
    ["rules", "show", LONG],
    ["status", "--match", f"{LONG}.toml"],
], ids=["bidder", "answer", "ruleset", "log"])
def test_a_long_input_is_echoed_cut_to_a_readable_line(t: Table, args: list[str]) -> None:
    line = refused(t, args)
    assert len(line) < 800 and "characters)" in line, line
    assert line.endswith(("(players: Ann, Bob, Cy, Dee)", "(teams: Us, Them)", "or give a .toml file)",
                          "File name too long")), line  # what is wrong is never cut


@pytest.mark.parametrize("args", [  # what Python makes of bytes that are not UTF-8 on the command line
    ["hand", "Ann", "2", "S", "--high", "Us", "--low", "Us", "--rest", "none", "--game", "tie", "--note", "ab\udcffcd"],
    ["new", "seven-point", "An\udcffn", "Bob", "Cy", "Dee"],
    ["new", "seven-point", "Ann", "Bob", "Cy", "Dee", "--title", "T\udcff"],
    ["hand", "Ann", "2", "S", "--high", "U\udcffs", "--low", "Us", "--rest", "none", "--game", "tie"],
], ids=["note", "player", "title", "answer"])
def test_bytes_that_are_not_utf8_are_refused_in_one_line(t: Table, args: list[str]) -> None:
    line = refused(t, args)
    assert "\\udcff" in line and "\udcff" not in line, line


def test_a_new_log_path_that_is_not_utf8_is_refused_before_anything_is_written(t: Table) -> None:
    """The current-match pointer keeps the path as UTF-8 text: `new` refuses such a path, not half-way."""
    line = refused(t, ["new", "seven-point", "Ann", "Bob", "Cy", "Dee", "--match", str(t.root / "ab\udcffcd.toml")])
    assert line.startswith("error: --match: ") and "not UTF-8" in line


def test_json_naming_a_path_that_is_not_utf8_is_still_utf8(t: Table, tmp_path: Path) -> None:
    odd = tmp_path / "ab\udcffcd.toml"
    odd.write_bytes(t.log.read_bytes())
    r = runner.invoke(app, ["status", "--json", "--match", str(odd)])
    assert r.exit_code == 0, r.stderr
    assert json.loads(r.stdout_bytes.decode("utf-8"))["match"] == str(odd)


def test_a_ruleset_name_or_title_with_a_control_character_is_refused(t: Table) -> None:
    t.bad.write_text('name = "our\\u001b[31mtable"\nextends = "seven-point"\n', encoding="utf-8")
    assert "control character" in refused(t, ["rules", "show", str(t.bad)])
    t.bad.write_text('title = "a\\nb"\nextends = "seven-point"\n', encoding="utf-8")
    assert "control character" in refused(t, ["rules", "check", str(t.bad)])


# -- the environment

@pytest.mark.parametrize("wait", ["nan", "inf", "-inf", "-1", "1e400", "soon", ""])
@pytest.mark.parametrize("args", [["hand", "Ann", "2", "S", "--high", "Us",
                                   "--rest", "none", "--game", "tie", "--low", "Us"], ["undo", "--yes"],
                                  ["edit", "1", "--high", "Them", "--yes"]])
def test_a_lock_wait_that_is_no_finite_time_is_refused(t: Table, wait: str, args: list[str]) -> None:
    line = refused(t, args, env={"PITCHKEEPER_LOCK_WAIT": wait})
    assert "PITCHKEEPER_LOCK_WAIT" in line


# -- the console script itself (a real process)

def console(*args: str, env: dict[str, str] | None = None, timeout: float = 20) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pitchkeeper", *args], capture_output=True, text=True,
                          timeout=timeout, env={**os.environ, **(env or {})}, stdin=subprocess.DEVNULL)


def test_a_named_pipe_is_refused_without_waiting(t: Table) -> None:
    os.mkfifo(t.bad)
    p = console("judge", "match", str(t.bad), timeout=20)  # would hang for ever if the pipe were opened
    assert p.returncode == 2 and p.stderr.count("\n") == 1 and "not a regular file" in p.stderr


def test_a_bug_is_one_line_and_its_traceback_only_with_debug(t: Table) -> None:
    """An unforeseen exception (here: a function of the library that divides by zero) is a bug: exit 1, where to report it."""
    boom = t.root / "sitecustomize.py"
    boom.write_text("import pitchkeeper.reports.stats as s\ns.total = lambda *a: 1 / 0\n", encoding="utf-8")
    env = {"PYTHONPATH": str(t.root)}
    p = console("stats", str(t.log), env=env)
    assert p.returncode == 1, p.stderr
    assert p.stderr.count("\n") == 1 and "Traceback" not in p.stderr
    assert p.stderr.startswith("error: internal error (a bug): ZeroDivisionError: division by zero - please report it")
    for extra, env2 in ((["--debug"], {}), ([], {"PITCHKEEPER_DEBUG": "1"})):
        p = console("stats", *extra, str(t.log), env={**env, **env2})
        assert p.returncode == 1 and "Traceback" in p.stderr and "ZeroDivisionError" in p.stderr
