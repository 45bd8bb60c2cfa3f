"""game.frozen records behave as the frozen dataclasses they replaced: immutable, equal by value within
their class, hashable, picklable (stats sends them between processes), and copied with changes."""

from __future__ import annotations

import pickle

import pytest

from pitchkeeper.game import rulesets
from pitchkeeper.game.records import Bid, Hand, Table
from pitchkeeper.reports.stats import Line, Read


def test_a_record_cannot_be_changed() -> None:
    h = Hand("Ann", "S", Bid("Bob", 2))
    with pytest.raises(AttributeError, match="cannot assign to field 'dealer'"):
        h.dealer = "Bob"  # type: ignore[misc]
    with pytest.raises(AttributeError):
        del h.trump
    with pytest.raises(AttributeError):
        h.extra = 1  # type: ignore[attr-defined]  # slots: no new attributes either


def test_equal_by_value_within_its_class_and_hashable() -> None:
    a, b = Hand("Ann", "S", Bid("Bob", 2)), Hand("Ann", "S", Bid("Bob", 2))
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    assert a != Hand("Ann", "H", Bid("Bob", 2))
    assert Table(("A", "B"), None) != ("A", "B")  # never equal to a tuple of its fields
    assert repr(Table(("A", "B"), None)) == "Table(players=('A', 'B'), teams=None)"


def test_copied_with_changes_and_pickled() -> None:
    h = Hand("Ann", "S", Bid("Bob", 2), note="x")
    h2 = h._replace(revokes=("Ann",))
    assert (h2.revokes, h2.note, h.revokes) == (("Ann",), "x", ())
    rs = rulesets.load("seven-point")
    back = pickle.loads(pickle.dumps(rs))
    assert back == rs and back.digest == rs.digest and back.points[0].kind is rs.points[0].kind
    assert "raw=" not in repr(rs)  # the merged TOML is left out of the repr, as before


def test_the_generic_init_takes_positions_keywords_and_defaults() -> None:
    r = Read("p", error="bad")
    assert (r.path, r.figures, r.error, r.skipped) == ("p", None, "bad", False)
    line = Line("Ann", ("Ann",), ("Ann",), *[1] * 11, {}, own=2)
    assert (line.own, line.own_hands, line.points) == (2, 0, {})
    with pytest.raises(TypeError, match="unexpected or repeated argument 'nope'"):
        Read("p", nope=1)
    with pytest.raises(TypeError, match="missing the argument 'path'"):
        Read(error="bad")
