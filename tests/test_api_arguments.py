"""Every argument of the Python API, of any type a program may pass by mistake, is bad input: a
PitchError of one line that can be printed, never a TypeError, AttributeError, RecursionError or
UnicodeEncodeError, and the log byte for byte as it was (spec section 6: "every bad input")."""

from __future__ import annotations

import pathlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import pitchkeeper
from pitchkeeper import PitchError

PLAYERS = ["Ann", "Bob", "Cy", "Dee"]
HAND = {"trump": "S", "bid": {"player": "Ann", "amount": 2},
        "points": {"high": "Ann", "low": "Bob", "jack": "Ann", "game": "Cy"}}

# whatever a program may hand over: scalars of every kind, text with half a character, containers with
# keys that are not text, a list holding itself, and nesting no record has
scalars = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=True), st.binary(max_size=4),
                    st.text(max_size=6), st.just("\ud800"), st.just("a\0b"), st.just(pathlib.Path("no/such.toml")),
                    st.builds(object))
values = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.tuples(inner),
    st.dictionaries(st.one_of(st.text(max_size=4), st.integers(), st.none(), st.just("\udc80")), inner, max_size=3)),
    max_leaves=8)


def one_line(call: Callable[[], Any]) -> bool:
    """The call succeeds (True), or fails with a PitchError whose message prints (no lone surrogate) on
    one line (False)."""
    try:
        call()
    except PitchError as e:
        text = str(e)
        assert "\n" not in text and text.strip()
        text.encode("utf-8")  # what a terminal or a page is given: it must be text
        return False
    return True


@pytest.fixture
def log(tmp_path: Path) -> pitchkeeper.Logbook:
    book = pitchkeeper.Logbook.create(tmp_path / "m.toml", "seven-point", PLAYERS, target=1000)
    book.append(HAND)
    return book


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                   HealthCheck.function_scoped_fixture])
@given(v=values)
def test_any_value_for_any_argument_is_a_pitch_error_and_the_log_is_unchanged(
        log: pitchkeeper.Logbook, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, v: Any) -> None:
    monkeypatch.chdir(tmp_path)  # a text value is a file name to `create`: made here, not in the checkout
    before = log.path.read_bytes()
    calls: list[Callable[[], Any]] = [
        lambda: pitchkeeper.judge_hand(v), lambda: pitchkeeper.judge_match(v),
        lambda: pitchkeeper.judge_hand({**HAND, "dealer": "Dee", "rules": "seven-point", "players": PLAYERS}, rules=v),
        lambda: pitchkeeper.judge_hand({**HAND, "dealer": "Dee", "rules": "seven-point", "players": PLAYERS, "x": v}),
        lambda: pitchkeeper.judge_match({"rules": "seven-point", "players": PLAYERS, "hands": [v]}),
        lambda: pitchkeeper.Logbook.open(v), lambda: pitchkeeper.Logbook(v).state(),
        lambda: log.append(v), lambda: log.append({**HAND, "captured": v}), lambda: log.append({**HAND, "note": v}),
        lambda: log.replace(v, HAND), lambda: log.replace(1, v), lambda: log.replace(1, {**HAND, "points": v}),
        lambda: log.commit(v), lambda: log.rematch(v, force=True), lambda: log.rematch(first_dealer=v, force=True),
    ]
    for call in calls:
        if one_line(call):  # a note that is text, say: written
            before = log.path.read_bytes()
        assert log.path.read_bytes() == before  # refused: the log byte for byte as it was
    new = tmp_path / "new"
    new.mkdir(exist_ok=True)
    for i, create in enumerate([
            lambda p: pitchkeeper.Logbook.create(v, "seven-point", PLAYERS),
            lambda p: pitchkeeper.Logbook.create(p, v, PLAYERS), lambda p: pitchkeeper.Logbook.create(p, "seven-point", v),
            lambda p: pitchkeeper.Logbook.create(p, "seven-point", PLAYERS, teams=v),
            lambda p: pitchkeeper.Logbook.create(p, "seven-point", PLAYERS, first_dealer=v),
            lambda p: pitchkeeper.Logbook.create(p, "seven-point", PLAYERS, title=v),
            lambda p: pitchkeeper.Logbook.create(p, "seven-point", PLAYERS, target=v)]):
        path = new / f"{i}.toml"
        path.unlink(missing_ok=True)
        one_line(lambda: create(path))  # noqa: B023 - called at once


def test_the_calls_the_issue_names_are_pitch_errors(log: pitchkeeper.Logbook) -> None:
    before = log.path.read_bytes()
    for call, words in [
        (lambda: pitchkeeper.judge_hand(5), "mapping of its keys or the path"),
        (lambda: pitchkeeper.judge_match(None), "mapping of its keys or the path"),
        (lambda: pitchkeeper.Logbook.create(None, "seven-point", PLAYERS), "expected the path of a match log"),
        (lambda: pitchkeeper.Logbook.open(1), "expected the path of a match log"),
        (lambda: log.append("x"), "expected a table of the per-hand keys"),
        (lambda: log.replace("1", {}), r"expected the number of the hand to correct \(1 to 1\), got str '1'"),
    ]:
        with pytest.raises(PitchError, match=words):
            call()
    assert log.path.read_bytes() == before


@pytest.mark.parametrize(("call", "words"), [
    (lambda log: log.append({1: 2}), r"hand: expected a key that is text, got 1 \(int\)"),
    (lambda log: log.append({**HAND, "captured": {2: ["AS"]}}), r"hand: captured: expected a key that is text"),
    (lambda log: pitchkeeper.judge_match({"rules": "seven-point", "players": PLAYERS, 1: 2}), "key that is text"),
    (lambda log: log.append({**HAND, "captured": {"Us": [[[[[[[[["AS"]]]]]]]]]}}), "nested more than 8 deep"),
    (lambda log: pitchkeeper.Logbook("\ud800"), r"not valid text \(a lone surrogate\)"),
    (lambda log: pitchkeeper.judge_hand("\ud800.toml"), r"\\ud800.toml: no such file \(the name is not valid text\)"),
])
def test_what_was_a_crash_is_one_line(log: pitchkeeper.Logbook, call: Callable[[Any], Any], words: str) -> None:
    """Each of these raised AttributeError, RecursionError or a message that could not be printed."""
    before = log.path.read_bytes()
    with pytest.raises(PitchError, match=words) as e:
        call(log)
    str(e.value).encode("utf-8")
    assert log.path.read_bytes() == before


def test_a_hand_that_holds_itself_is_refused(log: pitchkeeper.Logbook) -> None:
    loop: list[Any] = ["AS"]
    loop.append(loop)
    before = log.path.read_bytes()
    with pytest.raises(PitchError, match=r"captured.Us\[1\]: this table or list holds itself"):
        log.append({**HAND, "captured": {"Us": loop}})
    shared = ["AS"]  # the same list twice is not a loop: judged as any hand (here: a card captured twice)
    with pytest.raises(PitchError, match="captured twice"):
        log.append({"trump": "S", "bid": {"player": "Ann", "amount": 2}, "captured": {"Us": shared, "Them": shared}})
    assert log.path.read_bytes() == before
