"""The match log on disk: text blocks, TOML writing, the data dir, locking, and surviving kills and races."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from pitchkeeper.cli import app
from pitchkeeper.errors import PitchError
from pitchkeeper.game import rulesets
from pitchkeeper.logbook import paths, store, writing

runner = CliRunner()

LOG = """# header comment
rules = "seven-point"
players = ["A", "B", "C", "D"]

[[hands]]
dealer = "A"   # first
trump = "S"

# about the second hand
[[hands]]
dealer = "B"
# inside the second
trump = "H"
"""


def test_hand_spans_take_the_comments_right_above_a_hand():
    spans = store.hand_spans(LOG, 2)
    first, second = (LOG[a:b] for a, b in spans)
    assert first.startswith("[[hands]]\ndealer = \"A\"") and first.endswith("\n\n")
    assert second.startswith("# about the second hand\n[[hands]]")
    assert store.hand_line(LOG, 2) == 10


def test_append_then_remove_gives_the_text_back():
    block = writing.hand_toml({"dealer": "C", "trump": "D"})
    longer = store.append_hand(LOG, block)
    assert longer.startswith(LOG) and tomllib.loads(longer)["hands"][2] == {"dealer": "C", "trump": "D"}
    assert store.remove_hand(longer, 3, 3) == LOG
    no_newline = LOG.rstrip("\n")
    assert store.remove_hand(store.append_hand(no_newline, block), 3, 3) == no_newline + "\n"


def test_remove_a_middle_hand():
    out = store.remove_hand(LOG, 1, 2)
    assert tomllib.loads(out)["hands"] == [{"dealer": "B", "trump": "H"}]
    assert "# header comment" in out and "# about the second hand" in out


def test_replace_keeps_the_comments_of_the_hand():
    out = store.replace_hand(LOG, 2, 2, writing.hand_toml({"dealer": "B", "trump": "C"}))
    assert tomllib.loads(out)["hands"][1] == {"dealer": "B", "trump": "C"}
    assert "# about the second hand\n[[hands]]\n# inside the second\ndealer" in out
    out = store.replace_hand(LOG, 1, 2, writing.hand_toml({"dealer": "A", "trump": "D"}))
    assert out.endswith(LOG[LOG.index("# about"):])  # the rest of the file is untouched


def test_hands_that_cannot_be_cut_safely_are_refused():
    inline = 'rules = "x"\nhands = [{ dealer = "A" }]\n'
    with pytest.raises(PitchError, match=r"written as an inline array \(hands = \[\.\.\.\]\), which pitchkeeper "
                                         r"cannot change safely: write each hand as a \[\[hands\]\] block"):
        store.hand_spans(inline, 1)
    hidden = 'note = """\n[[hands]]\n"""\n'
    with pytest.raises(PitchError):
        store.hand_spans(hidden, 0)


@pytest.mark.parametrize("value", ['say "hi"\\now', "tab\there\nnewline", "Zoë ♠ 10♥", "", "back\\slash"])
def test_toml_values_read_back(value: str):
    text = writing.hand_toml({"note": value, "bid": {"player": value or "x", "amount": 3}, "auction": [value, "B:2"],
                            "odd key": True})
    assert tomllib.loads(text)["hands"][0] == {"note": value, "bid": {"player": value or "x", "amount": 3},
                                              "auction": [value, "B:2"], "odd key": True}


# what `writing.hand_toml` writes reads back as exactly the table written
_text = st.text(st.characters(codec="utf-8"), max_size=12)
_plain = st.recursive(st.one_of(_text, st.integers(-2**63, 2**63 - 1), st.booleans()),
                      lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_text, inner, max_size=4), max_leaves=12)


@given(st.dictionaries(_text, _plain, max_size=6))
def test_a_plain_hand_reads_back_as_the_very_table_written(hand: dict):
    assert tomllib.loads(writing.hand_toml(hand)) == {"hands": [hand]}


@given(st.text(st.characters(codec="utf-8")))
def test_a_string_is_escaped_as_json_escapes_it(s: str):
    import json

    assert writing.toml_value(s) == json.dumps(s, ensure_ascii=False).replace("\x7f", "\\u007f")


def test_tricks_are_written_one_a_line():
    text = writing.hand_toml({"tricks": [{"leader": "A", "cards": ["AS", "2S"]}, {"leader": "B", "cards": ["3S"]}]})
    assert text.count("\n") == 5 and tomllib.loads(text)["hands"][0]["tricks"][1] == {"leader": "B", "cards": ["3S"]}


def test_every_built_in_ruleset_pins_and_reads_back():
    for name in rulesets.builtin_names():
        merged, _ = rulesets.load_merged(name)
        copy = tomllib.loads("copy = " + writing.multiline(writing.table_toml(merged)))["copy"]
        assert rulesets.compile_ruleset(tomllib.loads(copy)).digest == rulesets.load(name).digest


def test_the_data_dir_and_the_current_match(_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    assert paths.data_dir() == _home and paths.matches_dir() == _home / "matches"
    with pytest.raises(PitchError, match="no current match"):
        store.resolve_match_path(None)
    assert store.resolve_match_path("x.toml") == Path("x.toml")
    log = tmp_path / "m.toml"
    writing.write_pointer(log)
    assert store.resolve_match_path(None) == log.resolve()
    monkeypatch.delenv("PITCHKEEPER_HOME")
    assert paths.data_dir().name == "pitchkeeper"


@pytest.mark.skipif(sys.platform != "linux", reason="the fast answer is Linux's")
@pytest.mark.parametrize("xdg", [None, "", "/srv/data", "relative/data", " /lead"])
@pytest.mark.parametrize("home", ["/home/ann", "/home/zoë/x y", ""])
def test_the_data_dir_on_linux_is_what_platformdirs_says(monkeypatch: pytest.MonkeyPatch, xdg, home):
    import platformdirs

    monkeypatch.delenv("PITCHKEEPER_HOME")
    monkeypatch.setenv("HOME", home)
    if xdg is None:
        monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    else:
        monkeypatch.setenv("XDG_DATA_HOME", xdg)
    fast = paths._xdg_data_dir()
    assert fast is not None or not home
    assert paths.data_dir() == Path(platformdirs.user_data_dir("pitchkeeper"))


def test_write_atomic_leaves_no_temp_file(tmp_path: Path):
    p = tmp_path / "f.toml"
    writing.write_atomic(p, "a = 1\n")
    writing.write_atomic(p, "a = 2\n")
    assert p.read_text() == "a = 2\n" and sorted(x.name for x in tmp_path.iterdir()) == ["f.toml"]


def test_the_lock_is_exclusive_and_gives_up_clearly(tmp_path: Path):
    p = tmp_path / "m.toml"
    with writing.locked(p):
        t = time.monotonic()
        with pytest.raises(PitchError) as e, writing.locked(p, wait=0.1):
            pass
        assert time.monotonic() - t >= 0.1
        assert str(e.value) == f"another pitchkeeper is writing {p}; try again"
    with writing.locked(p, wait=0):
        pass  # released


# -- crashes and races, with real processes


def _new_log(path: Path, target: int = 100_000) -> None:
    r = runner.invoke(app, ["new", "seven-point", "Ann", "Bob", "Cy", "Dee", "--target", str(target),
                            "--match", str(path)])
    assert r.exit_code == 0, r.stderr


WRITER = """
import sys
from pitchkeeper.cli import app
path, name, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
i = 0
while count < 0 or i < count:
    args = ["hand", "Ann", "2", "S", "--high", "Us", "--rest", "none", "--game", "tie", "--low", "Them", "--note", f"{name}-{i}",
            "--match", path, "--json"]
    try:
        app(args)
    except SystemExit as e:
        if e.code:
            sys.exit(e.code)
    i += 1
"""


def _valid(path: Path) -> list[dict]:
    """The log parses, replays and holds whole hands only."""
    from pitchkeeper.game import match

    text = path.read_text()
    data = tomllib.loads(text)
    r = rulesets.load("seven-point")
    state = match.replay(r, match.parse_match(data))
    assert len(store.hand_spans(text, len(data.get("hands", [])))) == len(state.hands)
    assert not state.warnings  # the deal went round in turn: no hand was lost or doubled
    return data.get("hands", [])


@pytest.mark.parametrize("command", ["hand", "undo", "edit"])
def test_a_writer_killed_at_every_step_of_the_write_leaves_the_old_or_the_new_log(tmp_path: Path, command: str):
    """Each writer is killed (SIGKILL, by itself: $PITCHKEEPER_CRASH_AT) at a chosen step of the write.

    Before the rename the log is the old one; after it, the new one; either way it parses and replays
    whole; the lock dies with the writer; the temp file a killed writer leaves is swept by the next.
    """
    p = tmp_path / "kill.toml"
    _new_log(p)
    for bidder in ("Ann", "Bob"):
        r = runner.invoke(app, ["hand", bidder, "2", "S", "--high", "Us",
                                "--rest", "none", "--game", "tie", "--low", "Them", "--match", str(p)])
        assert r.exit_code == 0, r.stderr
    args = {"hand": ["hand", "Cy", "2", "S", "--high", "Us",
                     "--rest", "none", "--game", "tie", "--low", "Us"], "undo": ["undo", "--yes"],
            "edit": ["edit", "1", "--yes", "--note"]}[command]
    env = {**os.environ, "PITCHKEEPER_HOME": str(tmp_path), "PITCHKEEPER_LOCK_WAIT": "0"}
    for step in writing.CRASH_STEPS:
        before = p.read_bytes()
        note = [f"{step} killed"] if command == "edit" else []  # an edit that changes the hand each time
        proc = subprocess.run([sys.executable, "-m", "pitchkeeper", *args, *note, "--match", str(p)],
                              env={**env, writing.CRASH_AT: step}, capture_output=True, text=True)
        assert proc.returncode == -signal.SIGKILL, proc.stderr
        temps = list(tmp_path.glob(".kill.toml.*.tmp"))
        if step == "renamed":
            assert p.read_bytes() != before and not temps  # the new log is whole
        else:
            assert p.read_bytes() == before  # the old log, byte for byte
            assert bool(temps) == (step != "locked")  # what the killed writer left beside it
        _valid(p)
        # the lock died with the writer (a wait of 0 would refuse a held one); the next writer sweeps
        note = [f"{step} after"] if command == "edit" else []
        r = runner.invoke(app, [*args, *note, "--match", str(p)], env={"PITCHKEEPER_LOCK_WAIT": "0"})
        assert r.exit_code == 0, r.stderr
        assert not list(tmp_path.glob(".kill.toml.*.tmp"))
        _valid(p)
        if command == "undo":  # put a hand back for the next step to drop
            r = runner.invoke(app, ["hand", "Dee", "2", "S", "--high", "Us",
                                    "--rest", "none", "--game", "tie", "--low", "Us", "--match", str(p)])
            assert r.exit_code == 0, r.stderr


def test_two_writers_at_once_lose_nothing(tmp_path: Path):
    p = tmp_path / "race.toml"
    _new_log(p)
    env = {**os.environ, "PITCHKEEPER_HOME": str(tmp_path), "PITCHKEEPER_LOCK_WAIT": "60"}
    n = 8
    procs = [subprocess.Popen([sys.executable, "-c", WRITER, str(p), f"w{w}", str(n)], env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE) for w in range(3)]
    for proc in procs:
        _, err = proc.communicate(timeout=240)
        assert proc.returncode == 0, err
    notes = sorted(h["note"] for h in _valid(p))
    assert notes == sorted(f"w{w}-{i}" for w in range(3) for i in range(n))


def test_an_atomic_write_keeps_the_files_mode_or_takes_the_usual_one(tmp_path: Path) -> None:
    import os
    import stat

    from pitchkeeper.logbook.writing import write_atomic

    new = tmp_path / "new.txt"
    old_umask = os.umask(0o022)
    try:
        write_atomic(new, "a")
    finally:
        os.umask(old_umask)
    assert stat.S_IMODE(new.stat().st_mode) == 0o644  # not mkstemp's private 0600
    kept = tmp_path / "kept.txt"
    kept.write_text("x", encoding="utf-8")
    kept.chmod(0o640)
    write_atomic(kept, "y")
    assert stat.S_IMODE(kept.stat().st_mode) == 0o640 and kept.read_text(encoding="utf-8") == "y"


def test_a_match_record_with_an_empty_hands_array_takes_new_hands(tmp_path: Path) -> None:
    """A tool writing a match with no hands (tomli_w) gives `hands = []`; [[hands]] must still be appended."""
    import tomli_w
    from typer.testing import CliRunner

    from pitchkeeper.cli import app

    log = tmp_path / "m.toml"
    log.write_text(tomli_w.dumps({"rules": "cutthroat-pitch", "players": ["Ann", "Bob", "Cy"], "hands": []}),
                   encoding="utf-8")
    r = CliRunner().invoke(app, ["hand", "Ann", "2", "S", "--high", "Ann",
                                 "--rest", "none", "--game", "tie", "--low", "Bob", "--dealer", "Cy",
                                 "--match", str(log)])
    assert r.exit_code == 0, r.stderr
    r2 = CliRunner().invoke(app, ["hand", "Bob", "2", "H", "--high", "Bob", "--rest", "none", "--game", "tie", "--low", "Bob",
                                  "--match", str(log)])
    assert r2.exit_code == 0, r2.stderr
    text = log.read_text(encoding="utf-8")
    assert "hands = []" not in text and text.count("[[hands]]") == 2


def test_undo_and_edit_keep_a_table_written_after_the_hands(tmp_path: Path) -> None:
    """A person (or a TOML writer) may put [ruleset] or another table below the hands: it is not a hand's."""
    from typer.testing import CliRunner

    from pitchkeeper.cli import app

    runner = CliRunner()
    log = tmp_path / "m.toml"
    assert runner.invoke(app, ["new", "seven-point", "Ann", "Bob", "Cy", "Dee", "--match", str(log)]).exit_code == 0
    for bidder in ("Ann", "Bob"):
        r = runner.invoke(app, ["hand", bidder, "2", "S", "--high", "Us",
                                "--rest", "none", "--game", "tie", "--low", "Them", "--match", str(log)])
        assert r.exit_code == 0, r.stderr
    text = log.read_text(encoding="utf-8")
    start = text.index("# The ruleset as it was") if "# The ruleset as it was" in text else text.index("[ruleset]")
    end = text.index("\n[[hands]]") + 1
    moved = text[:start] + text[end:].rstrip("\n") + "\n\n# kept below the hands\n" + text[start:end]
    log.write_text(moved, encoding="utf-8")
    r = runner.invoke(app, ["edit", "2", "--high", "Them", "--yes", "--match", str(log)])
    assert r.exit_code == 0, r.stderr
    assert log.read_text(encoding="utf-8").count("[ruleset]") == 1
    r = runner.invoke(app, ["undo", "--yes", "--match", str(log)])
    assert r.exit_code == 0, r.stderr
    after = log.read_text(encoding="utf-8")
    assert after.count("[ruleset]") == 1 and after.count("\n[[hands]]") == 1 and "# kept below the hands" in after
