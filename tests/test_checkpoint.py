"""The replay checkpoint: `hand`, `undo` and `edit` of the last hand made on it give exactly what a
full replay of the file gives, whatever happened to the file in between (a person editing a hand,
another tool appending one, a corrupt checkpoint)."""

from __future__ import annotations

import json
import os
import pickle
import signal
import subprocess
import sys
import zlib
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pitchkeeper import PitchError
from pitchkeeper.logbook import checkpoint, store
from pitchkeeper.logbook.book import Logbook

PLAYERS = ["Ann", "Bob", "Cy", "Dee"]

hands = st.fixed_dictionaries(
    {"trump": st.sampled_from("SHDC"),
     "bid": st.fixed_dictionaries({"player": st.sampled_from(PLAYERS), "amount": st.integers(2, 4)}),
     "points": st.fixed_dictionaries({"high": st.sampled_from(["Us", "Them"]), "low": st.sampled_from(["Us", "Them"])},
                                     optional={"jack": st.sampled_from(["Us", "Them"]),
                                               "game": st.sampled_from(["Us", "Them"])})},
    optional={"dealer": st.sampled_from(PLAYERS)},  # a dealer out of turn is a warning
)
ops = st.one_of(
    st.tuples(st.just("append"), hands),
    st.tuples(st.just("undo"), st.none()),
    st.tuples(st.just("edit-last"), hands),
    st.tuples(st.just("edit-earlier"), hands),
    st.tuples(st.just("person edits a hand"), st.integers(2, 4)),
    st.tuples(st.just("another tool appends"), hands),
    st.tuples(st.just("checkpoint corrupted"), st.none()),
)


def full(path: Path) -> dict:
    """The scoreboard of a fresh full replay of the file (no checkpoint involved)."""
    return Logbook(path).scoreboard().to_json()


def new_log(folder: Path) -> Path:
    path = folder / "m.toml"
    Logbook.create(path, "seven-point", PLAYERS, target=15)
    return path


def apply(path: Path, op: str, arg: object) -> tuple[object, bool]:
    """Run one step; (the quick change made or None, whether the checkpoint should have served)."""
    book = Logbook(path)
    count = len(book.load()[1].hands)
    text = path.read_text()
    if op == "append":
        return book.record(dict(arg), quick=True), True
    if op == "undo":
        if not count:
            return None, False
        change = book.prepare_drop(quick=True)
        book.commit(change)
        return change, False  # served when the one-before point is known
    if op == "edit-last":
        if not count:
            return None, False
        change = book.prepare_replace(count, dict(arg), quick=True)
        book.commit(change)
        return change, False
    if op == "edit-earlier":
        if count < 2:
            return None, False
        book.replace(1, dict(arg))
        return None, False
    if op == "person edits a hand":
        path.write_text(text.replace(f"amount = {arg}", f"amount = {7 - arg}", 1))
        return None, False
    if op == "another tool appends":
        h = dict(arg)
        h.setdefault("dealer", "Ann")
        path.write_text(store.append_hand(text, store.hand_toml(h)))
        return None, False
    store.cache_path(path, checkpoint.SUFFIX).write_bytes(b"not a pickle")
    return None, False


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=st.lists(ops, min_size=1, max_size=14))
def test_every_change_on_the_checkpoint_is_what_a_full_replay_gives(tmp_path_factory, steps):
    path = new_log(tmp_path_factory.mktemp("ckpt"))
    ours = True  # the log was last written by pitchkeeper (so its checkpoint is the file's)
    for op, arg in steps:
        before = path.read_text()
        try:
            change, must = apply(path, op, arg)
        except PitchError:
            # refused (a hand after the game was won, say): the file is as it was, and still replays
            assert path.read_text() == before
            full(path)
            continue
        board = full(path)
        if change is not None:
            assert change.scoreboard().to_json() == board  # the board the command shows is the full replay's
            assert change.state.scores == board["scores"]
            if must and ours:
                assert change.points is not None  # the checkpoint served: the log was last written by pitchkeeper
        wrote = path.read_text() != before
        ours = (op in ("append", "undo", "edit-last", "edit-earlier") and wrote) or (
            ours and not wrote and op != "checkpoint corrupted")
        last = json.loads(json.dumps(Logbook(path).state()))
        assert last["scores"] == board["scores"]


def test_hand_after_hand_runs_on_the_checkpoint_and_an_outside_edit_is_seen(tmp_path: Path):
    path = new_log(tmp_path)
    book = Logbook(path)
    hand = {"trump": "S", "bid": {"player": "Ann", "amount": 2}, "points": {"high": "Us", "low": "Us"}}
    first = book.record(hand, quick=True)
    assert first.points is not None  # `new` leaves the checkpoint of the header
    second = book.record(hand, quick=True)
    assert second.points is not None and second.state.scores == {"Us": 4, "Them": 0}
    path.write_text(path.read_text().replace("amount = 2", "amount = 3", 1))  # a person edits hand 1
    third = book.record(hand, quick=True)  # another text: replayed whole once, the new hand scored on that
    assert third.points is not None and third.points[1].n == 2
    assert third.state.scores == full(path)["scores"] == {"Us": 1, "Them": 0}  # hand 1 is now a set: -3
    undo = book.prepare_drop(quick=True)
    assert undo.points is not None and undo.state.scores == {"Us": -1, "Them": 0}
    with pytest.raises(LookupError):
        undo.state.to_json()  # a checkpoint's state never pretends to hold every hand


def test_a_checkpoint_is_never_written_beside_the_log(tmp_path: Path):
    path = new_log(tmp_path)
    Logbook(path).record({"trump": "S", "bid": {"player": "Ann", "amount": 2}, "points": {"high": "Us", "low": "Us"}},
                         quick=True)
    assert sorted(p.name for p in tmp_path.iterdir()) == [".m.toml.lock", "m.toml", "pitchkeeper-home"]
    c = pickle.loads(store.cache_path(path, checkpoint.SUFFIX).read_bytes())
    assert c["entries"][0]["top"].n == 1 and c["entries"][0]["size"] == len(path.read_text())


def _pk(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "pitchkeeper", *args], env=env, capture_output=True, text=True)


@pytest.mark.parametrize("step", ["synced", "renamed"])
def test_a_writer_killed_before_its_checkpoint_is_saved_leaves_nothing_stale(tmp_path: Path, step: str):
    """Killed after the log is written but before its checkpoint and status cache are: the next
    commands see the file as it is (the status of the command line is the full replay's)."""
    path = new_log(tmp_path)
    env = {**os.environ, "PITCHKEEPER_HOME": str(tmp_path / "pitchkeeper-home"), "NO_COLOR": "1"}
    hand = ["hand", "Ann", "2", "S", "--high", "Us", "--low", "Us", "--rest", "none", "--game", "tie", "--match", str(path)]
    assert _pk(*hand, env=env).returncode == 0
    killed = _pk(*hand, env={**env, store.CRASH_AT: step})
    assert killed.returncode == -signal.SIGKILL
    for args in (hand, ["undo", "-y", "--match", str(path)], hand,
                 ["edit", "2", "Bob", "3", "H", "--high", "Them", "--low", "Us", "--rest", "none", "--game", "tie", "-y",
                  "--match", str(path)]):
        assert _pk(*args, env=env).returncode == 0
        status = json.loads(_pk("status", "--json", "--match", str(path), env=env).stdout)
        assert status == full(path)
    store.cache_path(path).unlink()  # no status cache: status is drawn from the replay checkpoint
    status = json.loads(_pk("status", "--json", "--match", str(path), env=env).stdout)
    assert status == full(path)


pieces = st.sampled_from(["[[hands]]\n", "  [[ hands ]]  # a comment\n", "# a comment\n", "\n", "a = 1\n",
                          "[hands.captured]\n", "[ruleset]\n", "[[other]]\n", "x = \"[[hands]]\"\n", "# " + "y" * 3000 + "\n"])


@given(st.lists(pieces, max_size=40))
def test_the_last_span_read_from_the_end_is_the_last_of_every_span(parts):
    text = "".join(parts)
    spans = store.hand_spans(text)
    assert store.last_span(text) == (spans[-1] if spans else None)


def _same_checksums(text: bytes, at: int, free: range) -> bytes:
    """`text` with the byte at `at` one higher, and bytes in `free` (a comment of P's) changed so that the
    length, zlib.crc32 and zlib.adler32 stay the same: a forged edit (an outside tester's, made small).

    Adler-32's two sums are kept by +1 at `at`, -1 at free[0], then -m/+m at free[1]/free[2] (m =
    free[0] - at); CRC-32 is linear over GF(2), so a subset of three-byte groups (+1, -2, +1: Adler-32
    neutral) that cancels the CRC change is found by Gaussian elimination.
    """
    n = len(text)
    base = bytearray(text)
    m = free[0] - at
    for i, v in ((at, 1), (free[0], -1), (free[1], -m), (free[2], m)):
        base[i] += v
    zeros = zlib.crc32(bytes(n))

    def lin(x: bytes) -> int:
        return zlib.crc32(x) ^ zeros

    target = lin(bytes(a ^ b for a, b in zip(text, base, strict=True)))
    groups = []
    for i in range(free[3], free[-1] - 2, 3):
        pat = bytearray(n)
        pat[i], pat[i + 1], pat[i + 2] = ord("P") ^ ord("Q"), ord("P") ^ ord("N"), ord("P") ^ ord("Q")
        groups.append((i, lin(bytes(pat))))
    basis: dict[int, tuple[int, set[int]]] = {}
    for gi, (_, v) in enumerate(groups):
        chosen = {gi}
        for bit in sorted(basis, reverse=True):
            if v >> bit & 1:
                v ^= basis[bit][0]
                chosen ^= basis[bit][1]
        if v:
            basis[v.bit_length() - 1] = (v, chosen)
    v, chosen = target, set()
    for bit in sorted(basis, reverse=True):
        if v >> bit & 1:
            v ^= basis[bit][0]
            chosen ^= basis[bit][1]
    assert v == 0
    for gi in chosen:
        i = groups[gi][0]
        base[i] += 1
        base[i + 1] -= 2
        base[i + 2] += 1
    out = bytes(base)
    assert out != text and zlib.crc32(out) == zlib.crc32(text) and zlib.adler32(out) == zlib.adler32(text)
    return out


def test_an_edit_forged_to_keep_the_checksums_is_still_another_text(tmp_path: Path):
    """The checkpoint knows its text by a blake2 digest: an edit made to keep the length and both zlib
    checksums (which a person can compute) is seen, and the score is the file's."""
    path = new_log(tmp_path)
    book = Logbook(path)
    hand = {"trump": "S", "bid": {"player": "Ann", "amount": 3}, "points": {"high": "Us", "low": "Us"}}
    book.record(hand, quick=True)
    path.write_text(path.read_text().replace("amount = 3 }", "amount = 3 } # " + "P" * 160, 1))
    book.record(hand, quick=True)
    before = full(path)["scores"]
    text = path.read_bytes()
    at = text.index(b"amount = 3 }") + len(b"amount = ")
    start = text.index(b"# PPP") + 2
    forged = _same_checksums(text, at, range(start, start + 160))
    assert b"amount = 4 }" in forged
    path.write_bytes(forged)
    after = full(path)["scores"]
    assert after != before  # hand 1 is now a bid of 4, and a set
    assert book.record(hand, quick=True).state.scores == full(path)["scores"]
    assert store.blake2(forged, 16) != store.blake2(text, 16)
