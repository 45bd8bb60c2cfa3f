"""The per-log index: the files stay the truth; a refresh re-reads exactly the files that changed."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from pitchkeeper.logbook import loader
from pitchkeeper.reports import index, stats

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"


def _folder(tmp_path: Path) -> Path:
    root = tmp_path / "data"
    (root / "matches").mkdir(parents=True)
    for name in ("kitchen-table.toml", "partnership-match.toml", "solo-pitch-lone-jack.toml"):  # the last is a hand record
        shutil.copy(EXAMPLES / name, root / "matches" / name)
    (root / "matches" / "notes.toml").write_text('title = "not a match"\n', encoding="utf-8")
    (root / "matches" / "broken.toml").write_text('rules = "seven-point"\nplayers = [\n', encoding="utf-8")
    return root


def test_first_refresh_reads_every_file_and_the_second_none(tmp_path: Path) -> None:
    root = _folder(tmp_path)
    first, r1 = index.kept(root, workers=1)
    assert (r1.read, r1.reused) == (5, 0)
    assert index.index_path(root) == root / "cache" / index.INDEX_NAME  # in the cache, never beside the logs
    assert index.index_path(root).is_file() and not (root / index.INDEX_NAME).exists()
    kinds = {Path(s.path).name: s.kind for s in first}
    assert kinds == {"kitchen-table.toml": "match", "partnership-match.toml": "match",
                     "solo-pitch-lone-jack.toml": "other", "notes.toml": "other", "broken.toml": "error"}
    second, r2 = index.kept(root, workers=1)
    assert (r2.read, r2.reused) == (0, 5)
    assert second == first


def test_a_changed_file_is_read_again_and_a_removed_one_forgotten(tmp_path: Path) -> None:
    root = _folder(tmp_path)
    index.kept(root, workers=1)
    log = root / "matches" / "kitchen-table.toml"
    text = log.read_text(encoding="utf-8")
    cut = text[: text.rindex("[[hands]]")]  # the last hand undone: the game is no longer won
    log.write_text(cut, encoding="utf-8")
    os.utime(log, ns=(1, 1))
    (root / "matches" / "notes.toml").unlink()
    after, r = index.kept(root, workers=1)
    assert (r.read, r.reused, r.removed) == (1, 3, 1)
    kt = next(s for s in after if s.path.endswith("kitchen-table.toml"))
    assert kt.winner is None and not kt.finished


def test_a_summary_holds_what_stats_sums(tmp_path: Path) -> None:
    root = _folder(tmp_path)
    summaries, _ = index.kept(root, workers=1)
    index.kept(root, workers=1)  # and the same from the stored rows
    stored, _ = index.kept(root, workers=1)
    for s in stored:
        if s.kind != "match":
            continue
        direct = stats.read_match(Path(s.path), stats.RulesetCache())
        assert s.match_figures() == direct.figures
        assert sum(direct.figures.scored.values()) == sum(s.scores.values())
    kt = next(s for s in summaries if s.path.endswith("kitchen-table.toml"))
    assert kt.rules == "seven-point" and kt.winner == "Us" and kt.scores == {"Us": 21, "Them": 22}
    assert kt.teams == (("Us", ("Ann", "Cy")), ("Them", ("Bob", "Dee")))


def test_a_damaged_index_is_rebuilt_from_the_files(tmp_path: Path) -> None:
    root = _folder(tmp_path)
    index.kept(root, workers=1)
    index.index_path(root).write_bytes(b"this is no database" * 100)
    again, r = index.kept(root, workers=1)
    assert r.read == 5 and len(again) == 5


def test_walk_finds_the_files_stats_finds(tmp_path: Path) -> None:
    root = _folder(tmp_path)
    (root / "matches" / "2026" / "march").mkdir(parents=True)
    shutil.copy(EXAMPLES / "kitchen-table.toml", root / "matches" / "2026" / "march" / "deep.toml")
    (root / "matches" / ".hidden.toml").write_text("x = 1\n", encoding="utf-8")
    (root / "matches" / "notes.txt").write_text("not toml\n", encoding="utf-8")
    (root / "cache").mkdir(exist_ok=True)  # derived state: never walked
    (root / "cache" / "stray.toml").write_text("x = 1\n", encoding="utf-8")
    walked = [p for p, *_stamp in index.walk(root)]
    assert walked == [str(p.resolve()) for p in stats.find_logs(root)]
    assert len(walked) == 6 and all(os.path.isabs(p) for p in walked)


def test_a_file_replaced_by_one_of_the_same_size_and_time_is_read_again(tmp_path: Path) -> None:
    root = _folder(tmp_path)
    index.kept(root, workers=1)
    log = root / "matches" / "kitchen-table.toml"
    st = log.stat()
    text = log.read_text(encoding="utf-8")
    swapped = text.replace("Ann", "Ana").replace("Bob", "Rob")  # the same size, other players
    assert len(swapped) == len(text)
    other = root / "matches" / "kitchen-table.toml.new"
    other.write_text(swapped, encoding="utf-8")
    os.utime(other, ns=(st.st_atime_ns, st.st_mtime_ns))  # and the same modification time
    os.replace(other, log)
    after, r = index.kept(root, workers=1)
    assert r.read == 1
    kt = next(s for s in after if s.path.endswith("kitchen-table.toml"))
    assert "Ana" in kt.players and "Ann" not in kt.players


def test_a_file_edited_in_place_to_the_same_size_with_its_time_put_back_is_read_again(tmp_path: Path) -> None:
    """The same file (its inode), the same size, its modification time put back: its bytes say it changed."""
    root = _folder(tmp_path)
    log = root / "matches" / "kitchen-table.toml"
    before = {Path(s.path).name: s for s in index.kept(root, workers=1)[0]}["kitchen-table.toml"]
    st = log.stat()
    data = log.read_bytes()
    old, new = b'low = "Them", jack = "Us", off-jack', b'low = "Us"  , jack = "Us", off-jack'  # Us took low too
    assert len(old) == len(new) and data.count(old) == 1
    with open(log, "r+b") as f:  # in place: no new file, no rename
        f.write(data.replace(old, new))
    os.utime(log, ns=(st.st_atime_ns, st.st_mtime_ns))
    now = log.stat()
    assert (now.st_size, now.st_mtime_ns, now.st_ino) == (st.st_size, st.st_mtime_ns, st.st_ino)
    after, r = index.kept(root, workers=1)
    assert (r.read, r.reused) == (1, 4)
    kt = {Path(s.path).name: s for s in after}["kitchen-table.toml"]
    assert kt.scores != before.scores
    assert kt.scores == dict(loader.load(log).replay().scores)


def test_an_edit_that_leaves_every_stat_field_as_it_was_is_read_again(tmp_path: Path, monkeypatch) -> None:
    """A file system with coarse times, or whose "ctime" is the creation time (Windows), can show an edited
    file with every field of its stat unchanged: the index goes by the bytes, not the stat."""
    root = _folder(tmp_path)
    log = root / "matches" / "kitchen-table.toml"
    index.kept(root, workers=1)
    frozen, real = os.stat(log), os.stat
    data = log.read_bytes()
    with open(log, "r+b") as f:
        f.write(data.replace(b'low = "Them", jack = "Us", off-jack', b'low = "Us"  , jack = "Us", off-jack'))
    monkeypatch.setattr(os, "stat", lambda p, *a, **k: frozen if str(p) == str(log) else real(p, *a, **k))
    after, r = index.kept(root, workers=1)
    assert r.read == 1
    monkeypatch.undo()
    kt = {Path(s.path).name: s for s in after}["kitchen-table.toml"]
    assert kt.scores == dict(loader.load(log).replay().scores)


@pytest.mark.parametrize("kind", ["fifo", "dev-zero", "elsewhere"])
def test_a_pipe_or_a_link_planted_where_the_index_lives_is_replaced_by_the_index(tmp_path: Path, kind: str) -> None:
    root = _folder(tmp_path)
    db = index.index_path(root)
    db.parent.mkdir(parents=True)
    outside = tmp_path / "outside.sqlite3"
    for at in (db, db.with_name(db.name + "-journal")):
        if kind == "fifo":
            os.mkfifo(at)
        else:
            os.symlink("/dev/zero" if kind == "dev-zero" else outside, at)
    first, r1 = index.kept(root, workers=1)
    assert r1.read == 5 and db.is_file() and not db.is_symlink()
    again, r2 = index.kept(root, workers=1)
    assert (r2.read, r2.reused) == (0, 5) and again == first
    assert not outside.exists()  # nothing written through a link


def test_tallies_add_up_what_the_files_hold_and_a_damaged_row_rebuilds_the_index(tmp_path: Path) -> None:
    import sqlite3

    root = _folder(tmp_path)
    (root / "matches" / "again.toml").write_bytes((EXAMPLES / "kitchen-table.toml").read_bytes())  # one layout twice
    t = index.kept_tallies(root, workers=1)
    assert (t.files, t.matches, [Path(p).name for p, _e in t.errors]) == (6, 3, ["broken.toml"])
    logs = [root / "matches" / n for n in ("again.toml", "kitchen-table.toml", "partnership-match.toml")]
    direct = [stats.read_match(p, stats.RulesetCache()).figures for p in logs]
    assert stats.total(t.groups) == stats.merge(direct)
    assert [n for _layout, n, _sums in t.groups] == [2, 1]  # the two copies added up by SQLite, as one layout
    only = index.kept_tallies(root, workers=1, rules="seven-point", leave_out=[str(logs[0])])
    assert stats.total(only.groups) == stats.merge(f for f in direct[1:] if f.rules == "seven-point")
    assert only.matches == 2 and only.errors == t.errors  # --rules chose 1 of the 2 logs not left out
    with sqlite3.connect(index.index_path(root)) as db:  # a row damaged behind the index's back
        db.execute("UPDATE logs SET sums = '1,2' WHERE path LIKE '%kitchen-table.toml'")
    db.close()
    assert index.kept_tallies(root, workers=1) == t  # read again from the files, not trusted
    with index.open_kept(root) as idx:
        assert idx.sync(index.walk(root), workers=1) == index.Refresh(0, 6, 0)


def test_an_index_left_beside_the_logs_by_an_earlier_version_is_removed(tmp_path: Path) -> None:
    root = _folder(tmp_path)
    (root / index.INDEX_NAME).write_bytes(b"an old index")
    index.kept(root, workers=1)
    assert not (root / index.INDEX_NAME).exists() and index.index_path(root).is_file()


def test_an_unchanged_folder_reads_no_file_and_starts_no_pool(tmp_path: Path, monkeypatch) -> None:
    from pitchkeeper.logbook import pool

    root = _folder(tmp_path)
    first = index.kept_tallies(root, workers=1)

    def no_reading(*args: object, **kw: object) -> None:
        raise AssertionError("a file was read, or a pool started, for a folder that did not change")

    monkeypatch.setattr(pool, "in_order", no_reading)
    assert index.kept_tallies(root, workers=2) == first
    assert index.kept(root, workers=2)[1] == index.Refresh(0, 5, 0)


def test_a_name_sqlite_cannot_hold_is_named_as_a_problem_and_the_rest_counted(tmp_path: Path) -> None:
    root = _folder(tmp_path)
    odd = (str(root / "matches" / "bad-\udcff.toml"), 1, 2, "never read")  # a file name that is not UTF-8
    wanted = sorted([*index.walk(root), odd])
    with index.open_kept(root) as idx:
        summaries, _ = idx.refresh_stated(wanted, workers=1)
        t = idx.tallies()
    bad = next(s for s in summaries if s.path == odd[0])
    assert bad.kind == "error" and bad.error.endswith("bad-\ufffd.toml: its name is not valid UTF-8: rename it to count it")
    assert [Path(p).name for p, _e in t.errors] == ["bad-\udcff.toml", "broken.toml"] and t.matches == 2
    assert t.files == 6


def test_an_index_made_by_other_code_is_read_again(tmp_path: Path, monkeypatch) -> None:
    root = _folder(tmp_path)
    index.kept(root, workers=1)
    assert index.kept(root, workers=1)[1].read == 0
    monkeypatch.setattr(index, "_code", lambda: "another engine")  # an edit, or an upgrade that kept the version
    assert index.kept(root, workers=1)[1] == index.Refresh(5, 0, 0)
    assert index.kept(root, workers=1)[1].read == 0
