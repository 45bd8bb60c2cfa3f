"""stats: figures per player and team, worked out by hand from the logs in tests/data/export.

The hand-by-hand scores are in each log's comments; the sums below are made from them.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from typer.testing import CliRunner

from pitchkeeper.cli import app
from pitchkeeper.logbook import pool
from pitchkeeper.reports import gather

DATA = Path(__file__).parent / "data" / "export"
runner = CliRunner()


def stats_json(*args: str) -> tuple[int, dict, str]:
    r = runner.invoke(app, ["stats", *args, "--json"])
    return r.exit_code, (json.loads(r.stdout) if r.stdout.strip() else {}), r.stderr


def by_name(lines: list[dict]) -> dict[str, dict]:
    return {ln["name"]: ln for ln in lines}


def test_partnership_players_and_teams() -> None:
    code, s, err = stats_json(str(DATA / "partners.toml"))
    assert code == 0, err
    assert (s["matches"], s["finished"], s["hands"]) == (1, 1, 5)
    p = by_name(s["players"])
    # Bids: North 2 (h1) and 2 (h5), both made; South 4 (h3), set; East 3 (h2) made; West 2 (h4) made.
    assert [(p[n]["bids"], p[n]["made"], p[n]["set"], p[n]["average_bid"]) for n in ("North", "South", "East", "West")] \
        == [(2, 2, 0, 2.0), (1, 0, 1, 4.0), (1, 1, 0, 3.0), (1, 1, 0, 2.0)]
    # Points per hand are the side's: Us took 2+1+1+2+2 = 8 in 5 hands, Them 2+3+3+2+2 = 12.
    assert (p["North"]["taken"], p["North"]["points_per_hand"]) == (8, 1.6)
    assert (p["West"]["taken"], p["West"]["points_per_hand"]) == (12, 2.4)
    # Cards captured per player say who won each point; game belongs to a side, never a player.
    # high: QS North (h1), AH East (h2), AD South (h3), AC West (h4), AS East (h5)
    # low (to the player dealt it): West (h1), South (h2), East (h3), North (h4), East (h5)
    # jack: East (h1), West (h2), East (h3), West (h4), North (h5)
    assert p["East"]["points"] == {"high": 2, "low": 2, "jack": 2}
    assert p["West"]["points"] == {"high": 1, "low": 1, "jack": 2}
    assert p["North"]["points"] == {"high": 1, "low": 1, "jack": 1}
    assert p["South"]["points"] == {"high": 1, "low": 1}
    assert [p[n]["won"] for n in ("North", "South", "East", "West")] == [0, 0, 1, 1]
    t = by_name(s["teams"])
    us, them = t["Us (North, South)"], t["Them (East, West)"]
    # Us bid 2, 4, 2: made 2, set 1, average 8/3; Them bid 3 and 2: average 2.5.
    assert (us["bids"], us["made"], us["set"], us["average_bid"]) == (3, 2, 1, 2.67)
    assert (them["bids"], them["made"], them["set"], them["average_bid"]) == (2, 2, 0, 2.5)
    assert (us["scored"], them["scored"]) == (3, 12), "the final scores"
    # game: Us on h1 (13-11), h4 (26-5), h5 (31-4); Them on h2 (34-3) and h3 (35-19).
    assert us["points"] == {"high": 2, "low": 2, "jack": 1, "game": 3}
    assert them["points"] == {"high": 3, "low": 3, "jack": 4, "game": 2}
    assert (us["won"], them["won"], us["members"]) == (0, 1, ["North", "South"])
    assert s["most_often"]["teams"]["jack"] == {"count": 4, "who": ["Them (East, West)"]}
    assert s["most_often"]["teams"]["game"] == {"count": 3, "who": ["Us (North, South)"]}


def test_two_matches_of_the_same_players_add_up() -> None:
    code, s, err = stats_json(str(DATA / "cutthroat.toml"), str(DATA / "cutthroat-2.toml"))
    assert code == 0, err
    assert (s["matches"], s["finished"], s["hands"]) == (2, 1, 7)
    assert s["teams"] == []
    p = by_name(s["players"])
    # Ann: bids 4 and 2 (made) in the first game, 3 (set) in the second -> 3 bids, average 3.0;
    # took 1+1+4+1+2 = 9, then 1+2 = 3 -> 12 in 7 hands = 1.71; won the first game.
    ann = p["Ann"]
    assert (ann["matches"], ann["won"], ann["hands"]) == (2, 1, 7)
    assert (ann["bids"], ann["made"], ann["set"], ann["average_bid"]) == (3, 2, 1, 3.0)
    assert (ann["taken"], ann["points_per_hand"], ann["scored"]) == (12, 1.71, 9 - 2)
    assert ann["points"] == {"high": 3, "low": 2, "jack": 2, "game": 5}
    # Bob: bids 2 and 2, both made; took 2+0+0+2+1 = 5 and 1+1 = 2 -> 7 in 7 hands.
    bob = p["Bob"]
    assert (bob["bids"], bob["made"], bob["average_bid"], bob["taken"], bob["points_per_hand"]) == (2, 2, 2.0, 7, 1.0)
    assert bob["points"] == {"high": 2, "low": 2, "jack": 2, "game": 1}
    # Cy: bid 3 (set) and 2 (made) -> average 2.5; took 1+2+0+1+0 = 4 and 2 -> 6 in 7 = 0.86.
    cy = p["Cy"]
    assert (cy["bids"], cy["made"], cy["set"], cy["average_bid"], cy["points_per_hand"]) == (2, 1, 1, 2.5, 0.86)
    assert cy["points"] == {"high": 2, "low": 3, "game": 1}
    most = s["most_often"]["players"]
    assert most["high"] == {"count": 3, "who": ["Ann"]}
    assert most["low"] == {"count": 3, "who": ["Cy"]}
    assert most["jack"] == {"count": 2, "who": ["Ann", "Bob"]}
    assert most["game"] == {"count": 5, "who": ["Ann"]}


def _home_with_logs(home: Path) -> Path:
    logs = home / "matches"
    (logs / "2024").mkdir(parents=True)
    shutil.copy(DATA / "cutthroat.toml", logs / "a.toml")
    shutil.copy(DATA / "cutthroat-2.toml", logs / "2024" / "b.toml")
    shutil.copy(DATA / "partners.toml", logs / "c.toml")
    # Not match logs: a house-rules file and a single-hand record are skipped without a word.
    (home / "house.toml").write_text('extends = "cutthroat-pitch"\n[win]\ntarget = 11\n', encoding="utf-8")
    (logs / "one-hand.toml").write_text((Path(__file__).parent.parent / "examples" / "trickster-4-game-point.toml")
                                        .read_text(encoding="utf-8"), encoding="utf-8")
    return logs


def test_all_reads_every_log_of_the_data_dir(_home: Path) -> None:
    _home_with_logs(_home)
    code, s, err = stats_json("--all")
    assert code == 0
    assert err == ""
    assert (s["matches"], s["hands"], s["skipped"]) == (3, 12, 0)
    assert by_name(s["players"])["Ann"]["hands"] == 7
    # A log named as well as found by --all counts once.
    code, s2, _ = stats_json("--all", str(_home / "matches" / "a.toml"))
    assert s2["matches"] == 3


def test_a_broken_log_is_named_and_the_rest_still_counted(_home: Path) -> None:
    logs = _home_with_logs(_home)
    (logs / "torn.toml").write_text('rules = "cutthroat-pitch"\nplayers = ["Ann", "Bob"\n', encoding="utf-8")
    (logs / "late.toml").write_text(
        (DATA / "cutthroat.toml").read_text(encoding="utf-8")
        + '\n[[hands]]\ndealer = "Cy"\ntrump = "S"\nbid = { player = "Bob", amount = 2 }\n'
          'points = { high = "Bob", low = "Bob" }\n', encoding="utf-8")
    code, s, err = stats_json("--all")
    assert code == 0, "broken logs do not fail the run unless --strict"
    lines = err.splitlines()
    assert len(lines) == 2 and all(ln.startswith("error: ") for ln in lines)  # as every other message
    assert any("torn.toml: line 3: not valid TOML" in ln for ln in lines)
    late = (logs / "late.toml").read_text(encoding="utf-8")
    line = late[: late.rindex("[[hands]]")].count("\n") + 1
    assert any(f"late.toml:{line}: hands[6]: the game was already won on hand 5" in ln for ln in lines)
    assert (s["matches"], s["skipped"]) == (3, 2)
    code, _, err = stats_json("--all", "--strict")
    assert code == 2 and len(err.splitlines()) == 2


def test_all_through_the_index_counts_as_reading_each_file(_home: Path) -> None:
    """`--all` sums what the index kept (SQLite adding up per table layout); naming the files reads and sums
    each one: the same figures, filters and problems, on the run that builds the index and the runs after."""
    import datetime
    import os

    logs = _home_with_logs(_home)
    for name, day in (("a.toml", "2024-05-01"), ("2024/b.toml", "2024-06-01")):  # no `created`: the file's day
        t = datetime.datetime.fromisoformat(f"{day}T12:00:00").timestamp()
        os.utime(logs / name, (t, t))
    (logs / "torn.toml").write_text('rules = "cutthroat-pitch"\nplayers = [\n', encoding="utf-8")
    shutil.copy(DATA / "cutthroat.toml", logs / "again.toml")  # a second game of one table: one layout, twice
    named = [str(logs / n) for n in ("2024/b.toml", "a.toml", "again.toml", "c.toml", "torn.toml")]  # by path

    def same(*args: str) -> None:
        code, every, err = stats_json("--all", *args)
        code2, each, err2 = stats_json(*named, *args)
        assert (code, every) == (code2, each), args
        assert len(err.splitlines()) == len(err2.splitlines()) == 1 and "torn.toml" in err, args

    for args in ((), ("--rules", "cutthroat-pitch"), ("--since", "2024-05-02"), ("--until", "2024-05-04"),
                 ("--since", "2024-05-04", "--until", "2024-05-04"), ("--rules", "trickster-4", "--until", "2024-05-03")):
        same(*args)
        same(*args)  # from the index, nothing read again
    assert stats_json("--all", "--rules", "cutthroat-pitch")[1]["filtered_out"] == 1
    text = (logs / "a.toml").read_text(encoding="utf-8")
    (logs / "a.toml").write_text(text[: text.rindex("[[hands]]")], encoding="utf-8")  # a hand undone
    same()
    assert runner.invoke(app, ["stats", "--all"]).stdout == runner.invoke(app, ["stats", *named]).stdout


def test_all_sees_a_log_edited_to_the_same_size_with_its_time_put_back(_home: Path) -> None:
    """The index keys a log on its bytes: an edit that keeps the size and puts the time back still counts."""
    import os

    logs = _home_with_logs(_home)
    log = logs / "a.toml"
    first = stats_json("--all")[1]
    st = log.stat()
    text = log.read_bytes()
    old, new = b"amount = 2", b"amount = 3"
    assert old in text
    with open(log, "r+b") as f:
        f.write(text.replace(old, new, 1))
    os.utime(log, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert log.stat().st_size == st.st_size and log.stat().st_mtime_ns == st.st_mtime_ns
    code, every, _ = stats_json("--all")
    code2, each, _ = stats_json(*[str(logs / n) for n in ("2024/b.toml", "a.toml", "c.toml")])
    assert code == code2 == 0 and every == each and every != first


def test_nothing_readable_is_exit_2(tmp_path: Path) -> None:
    r = runner.invoke(app, ["stats", str(tmp_path / "gone.toml")])
    assert r.exit_code == 2
    assert r.stderr.strip().endswith("gone.toml: no such file")


def test_no_logs_and_no_current_match() -> None:
    r = runner.invoke(app, ["stats", "--all", "--json"])
    assert r.exit_code == 0
    assert json.loads(r.stdout)["matches"] == 0
    assert "no match logs in" in r.stderr
    r = runner.invoke(app, ["stats"])
    assert r.exit_code == 2 and "no current match" in r.stderr


def test_table_output_fits_80_columns() -> None:
    r = runner.invoke(app, ["stats", str(DATA / "partners.toml"), str(DATA / "cutthroat.toml")],
                      env={"COLUMNS": "80", "NO_COLOR": "1"})
    assert r.exit_code == 0, r.stderr
    assert max(len(ln) for ln in r.stdout.splitlines()) <= 80
    assert "\x1b[" not in r.stdout
    assert "Us (North, South)" in r.stdout and "high 3, low 3, jack 4, game 2" in r.stdout


def test_many_logs_read_in_parallel_give_the_same_figures_in_order(tmp_path: Path) -> None:
    from pitchkeeper.reports import stats

    files: list[tuple[Path, bool]] = []
    for i in range(pool.PARALLEL_FROM + 6):
        src = (DATA / "partners.toml", DATA / "cutthroat.toml", DATA / "cutthroat-2.toml")[i % 3]
        dst = tmp_path / f"m{i:03d}.toml"
        shutil.copy(src, dst)
        files.append((dst, True))
    (tmp_path / "m007.toml").write_text("players = [\n", encoding="utf-8")  # broken, in the middle
    one = stats.read_many(files, workers=1)
    two = stats.read_many(files, workers=2)
    assert [r.path for r in two] == [p for p, _ in files]
    assert [(r.figures, r.error) for r in one] == [(r.figures, r.error) for r in two]
    assert [r.path.name for r in two if r.error] == ["m007.toml"]
    merged = stats.merge(r.figures for r in two if r.figures is not None).to_json()
    # 70 files: i % 3 == 0 partners (24), 1 cutthroat (23, m007 broken: 22 read), 2 cutthroat-2 (23).
    # Ann plays 5 hands in each cutthroat log and 2 in each cutthroat-2 log.
    assert merged["matches"] == len(files) - 1 == 69
    assert by_name(merged["players"])["Ann"]["hands"] == 22 * 5 + 23 * 2


def test_a_program_gathers_what_stats_shows_through_the_library(tmp_path: Path) -> None:
    """`stats` is the library's gather drawn: a log named twice counts once, a broken one is a line."""
    torn = tmp_path / "torn.toml"
    torn.write_text('rules = "cutthroat-pitch"\nplayers = ["Ann", "Bob"\n', encoding="utf-8")
    one = DATA / "cutthroat.toml"
    got = gather.gather([one, one.parent / ".." / "export" / one.name, torn])
    assert (got.read, got.chosen) == (1, 1)
    assert len(got.errors) == 1 and "torn.toml" in got.errors[0] and "\n" not in got.errors[0]
    code, shown, _ = stats_json(str(one))
    assert got.figures.to_json()["players"] == shown["players"] and code == 0
    assert gather.gather([one], rules="seven-point").chosen == 0
