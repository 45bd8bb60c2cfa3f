"""A new kind of point is one entry in game.kinds: registered at run time, a ruleset can name it, and it is
checked, scored (by cards, by tricks or entered by hand), asked and worded with no other module touched.
And nothing outside the registry branches on a kind's name."""

from __future__ import annotations

import ast
import random
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import pitchkeeper
from pitchkeeper.errors import PitchError
from pitchkeeper.game import answers, kinds, records, rulesets, sampling, schema, scoring
from pitchkeeper.game.kinds import PointKind
from pitchkeeper.reports.houserules import starter
from pitchkeeper.words.explain import describe

TOY = Path(__file__).resolve().parent / "data" / "kinds" / "toy-kinds.toml"
PKG = Path(__file__).resolve().parent.parent / "pitchkeeper"

HAND = """
players = ["N", "E", "S", "W"]
teams = { NS = ["N", "S"], EW = ["E", "W"] }
dealer = "W"
trump = "H"
bid = { player = "N", amount = 2 }
[captured]
NS = ["AH", "2H", "KH", "3C", "QS", "4D", "5S", "6D", "KD", "7C", "8S", "9D", "10C", "JD", "3S", "4C"]
EW = ["5H", "9H", "QD", "10S", "2C", "3D", "6S", "7S"]
"""


def _most(rule: rulesets.PointRule, piles: kinds.Piles) -> kinds.SideWin:
    took = {side: len(cards) for side, cards in piles.by_side.items()}
    top = max(took.values())
    leaders = [s for s, v in took.items() if v == top]
    return kinds.SideWin(leaders[0] if len(leaders) == 1 else None, "most", took)


def _nth(rule: rulesets.PointRule, play: kinds.InPlay) -> kinds.CardWin | None:
    n = rule.extra["nth"]
    seen = [c for c in play.view.order if c in play.cards]
    return kinds.CardWin(seen[n - 1], f"trump number {n} from the top in play") if len(seen) >= n else None


@pytest.fixture
def toy_kinds() -> Iterator[None]:
    kinds.register(PointKind("most-tricks", frozenset(), lambda p, worth, to: f"{worth} for taking the most cards",
                             side=_most, reason=lambda a: f"{a.side} took the most cards ({a.why.what[a.side]})",
                             ties=True))
    kinds.register(PointKind("nth-trump", frozenset({"to", "nth"}),
                             lambda p, worth, to: f"{worth} for trump number {p.extra['nth']} from the top, {to}",
                             card=_nth, fields={"nth": rulesets.F("int", 2, "with of = nth-trump: which", lo=1, hi=16)}))
    try:
        yield
    finally:
        kinds.unregister("most-tricks")
        kinds.unregister("nth-trump")


def _judge(ruleset: rulesets.Ruleset, text: str) -> scoring.Verdict:
    table, hand = records.parse_hand_record(tomllib.loads(text))
    table.check_against(ruleset)
    return scoring.verdict(ruleset, table, hand)


def test_an_unregistered_kind_is_refused_by_name() -> None:
    problems, _ = rulesets.check(TOY)
    assert any(p.startswith("points.most.of: 'most-tricks' is not allowed") for p in problems)
    assert any(p.startswith("points.second.of: 'nth-trump' is not allowed") for p in problems)
    assert any(p.startswith("points.second.nth: unknown key") for p in problems), problems


def test_a_registered_kind_is_scored_by_cards(toy_kinds: None) -> None:
    rs = rulesets.load(TOY)
    v = _judge(rs, HAND)
    got = {a.point: (a.card, a.side, a.value) for a in v.awards}
    assert got["most"] == (None, "NS", 1)  # NS took 16 cards, EW 8
    assert got["second"] == ("KH", "NS", 1)  # AH, KH, 9H, 5H, 2H in play
    reasons = {a.point: a.reason for a in v.awards}
    assert reasons["most"] == "NS took the most cards (16)"
    assert reasons["second"] == "K♥ is trump number 2 from the top in play; NS captured it"
    assert v.taken == {"NS": 5, "EW": 0}  # high, low, game and the two new points
    tied = HAND.replace('"8S", "9D", "10C", "JD", "3S", "4C"]', '"8S", "9D"]').replace(
        '"6S", "7S"]', '"6S", "7S", "10C", "JD", "3S", "4C"]')
    assert "most" not in {a.point for a in _judge(rs, tied).awards}  # 12 cards each: nobody took the most


def test_a_registered_kind_is_entered_asked_and_worded(toy_kinds: None) -> None:
    rs = rulesets.load(TOY)
    quick = HAND.split("[captured]")[0] + ('points = { high = "NS", low = "EW", most = "EW", second = "N" }\n')
    v = _judge(rs, quick)
    assert {a.point: a.side for a in v.awards} == {"high": "NS", "low": "EW", "second": "NS", "most": "EW"}
    most, second = rs.point("most"), rs.point("second")
    assert most is not None and second is not None
    assert answers.question(most) == "who won most?" and answers.nobody(most, "tie", False)
    with pytest.raises(PitchError, match="only game can be tied"):
        answers.nobody(second, "tie", False)
    words = describe(rs)
    assert words["point:most"] == ("Points", "most: 1 point for taking the most cards")
    assert words["point:second"] == ("Points", "second: 1 point for trump number 2 from the top, "
                                     "to whoever captures it")
    props = schema.json_schema()["properties"]["points"]["additionalProperties"]["properties"]
    assert props["of"]["enum"][-2:] == ["most-tricks", "nth-trump"]
    assert props["nth"] == {"description": "with of = nth-trump: which", "type": "integer", "minimum": 1,
                            "maximum": 16, "default": 2}
    assert "# nth = 2    # with of = nth-trump: which" in starter(rs, "toy-kinds", "house")


def test_a_registered_kind_takes_only_its_own_keys(toy_kinds: None) -> None:
    merged, _ = rulesets.load_merged(str(TOY))
    merged["points"]["most"] = {"of": "most-tricks", "to": "dealt", "need": "majority"}
    merged["points"]["second"] = {"of": "nth-trump", "to": "dealt", "nth": 3}
    merged["points"]["third"] = {"of": "nth-trump", "nth": 0}
    merged["points"]["fourth"] = {"of": "most-tricks", "nth": 3}
    problems = rulesets.validate(merged)
    assert 'points.most.to: does not apply to a point of = "most-tricks"' in problems
    assert 'points.most.need: does not apply to a point of = "most-tricks"' in problems
    assert "points.most.to: only a card's point can go to the player dealt it" in problems
    assert not any(p.startswith("points.second") for p in problems)  # a card's point may go to the dealt player
    assert "points.third.nth: 0 is out of range (1 to 16)" in problems  # its own key, checked by its field
    assert 'points.fourth.nth: does not apply to a point of = "most-tricks"' in problems


def test_a_kind_gives_exactly_one_way_to_find_its_winner() -> None:
    with pytest.raises(ValueError, match="exactly one of card and side"):
        kinds.register(PointKind("nothing", frozenset(), lambda p, w, t: w))
    with pytest.raises(ValueError, match="among its keys"):
        kinds.register(PointKind("nothing", frozenset(), lambda p, w, t: w, card=_nth, fields={"nth": None}))
    assert "nothing" not in kinds.KINDS


def _branches_on_a_kind(tree: ast.AST) -> list[int]:
    """Lines comparing a point's `.of` with a literal ("game", ("card", ...)): dispatch by a kind's name."""
    def literal(n: ast.AST) -> bool:
        return isinstance(n, ast.Constant) or (isinstance(n, (ast.Tuple, ast.List, ast.Set)) and
                                               all(isinstance(e, ast.Constant) for e in n.elts))

    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            if any(isinstance(s, ast.Attribute) and s.attr == "of" for s in sides) and any(map(literal, sides)):
                out.append(node.lineno)
    return out


def test_nothing_outside_the_registry_branches_on_a_kinds_name() -> None:
    found = {}
    for f in sorted(PKG.rglob("*.py")):
        if f.name == "kinds.py":
            continue
        lines = _branches_on_a_kind(ast.parse(f.read_text(encoding="utf-8")))
        if lines:
            found[str(f.relative_to(PKG))] = lines
    assert found == {}
    # and the check itself sees such a branch
    assert _branches_on_a_kind(ast.parse('if rule.of == "game": pass\nx = p.of in ("card", "game")')) == [1, 2]


# ---------------------------------------------------------------------------
# "Most trumps taken": a side's point that reads the trump view, added by one register() call


def _most_trumps(rule: rulesets.PointRule, piles: kinds.Piles) -> kinds.SideWin:
    took = {side: sum(c in piles.view.strength for c in cards) for side, cards in piles.by_side.items()}
    top = max(took.values())
    leaders = [s for s, v in took.items() if v == top]
    return kinds.SideWin(leaders[0] if top and len(leaders) == 1 else None, "most-trumps", took)


@pytest.fixture
def most_trumps() -> Iterator[None]:
    kinds.register(PointKind("most-trumps", frozenset(), lambda p, worth, to: f"{worth} for taking the most trumps",
                             side=_most_trumps, ties=True,
                             reason=lambda a: f"{a.side} took the most trumps ({a.why.what[a.side]})"))
    try:
        yield
    finally:
        kinds.unregister("most-trumps")


def test_most_trumps_taken_is_one_registered_kind(most_trumps: None, tmp_path: Path) -> None:
    rules = tmp_path / "most-trumps.toml"
    rules.write_text('extends = "partnership-pitch"\n\n[points.trumps]\nof = "most-trumps"\nvalue = 2\n',
                     encoding="utf-8")
    record = tomllib.loads(HAND)
    got = pitchkeeper.judge_hand(record, str(rules))
    by_point = {a["point"]: a for a in got["awards"]}
    assert by_point["trumps"] == {"point": "trumps", "card": None, "side": "NS", "player": None, "value": 2}
    assert got["taken"] == {"NS": 5, "EW": 0}  # high, low, game, and 2 for the trumps: NS took AH KH 2H, EW 5H 9H
    rs = rulesets.load(rules)
    v = _judge(rs, HAND)
    assert {a.point: a.reason for a in v.awards}["trumps"] == "NS took the most trumps (3)"
    swapped = HAND.replace('"2H", "KH"', '"2H", "QD"').replace('"9H", "QD"', '"9H", "KH"')  # KH to EW, QD to NS
    trumps = {a.point: a for a in _judge(rs, swapped).awards}["trumps"]
    assert (trumps.side, trumps.reason) == ("EW", "EW took the most trumps (3)")  # the fewer cards, the more trumps
    quick = HAND.split("[captured]")[0] + 'points = { high = "NS", low = "NS", trumps = "EW" }\n'
    assert pitchkeeper.judge_hand(tomllib.loads(quick), str(rules))["taken"] == {"NS": 2, "EW": 2}
    assert describe(rs)["point:trumps"] == ("Points", "trumps: 2 points for taking the most trumps")


# ---------------------------------------------------------------------------
# The kinds as a solver asks them: from the cards in play and the trump view alone


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(rulesets.builtin_names()), st.integers(0, 2**32 - 1))
def test_each_kind_answers_from_the_cards_in_play_as_the_engine_judges(name: str, seed: int) -> None:
    """Asked of a hand's captured cards, each card point's kind names the card the verdict awards, and
    each side point's kind the side it awards: the engine decides nothing a kind does not say."""
    rs = rulesets.load(name)
    rng = random.Random(seed)
    players, teams = sampling.random_table(rs, rng)
    record = {"players": players, **({"teams": teams} if teams else {}),
              **sampling.random_hand(rs, rng, players, teams)}
    table, hand = records.parse_hand_record(record)
    try:
        v = scoring.verdict(rs, table, hand)
    except PitchError:
        return  # a sampled bid this ruleset refuses
    assert hand.captured is not None
    view = rs.views[hand.trump]
    cards = frozenset(c for _, cs in hand.captured for c in cs)
    piles = {s: [c for k, cs in hand.captured if table.side_of(k) == s for c in cs] for s in table.sides}
    awarded = {a.point: a for a in v.awards}
    for rule in rs.points:
        if rule.kind.card is not None:
            won = rule.kind.card(rule, kinds.InPlay(view, cards))
            assert (won and won.card) == (awarded[rule.id].card if rule.id in awarded else None)
        else:
            assert rule.kind.side is not None
            side = rule.kind.side(rule, kinds.Piles(view, piles, v.bid.side)).side
            assert side == (awarded[rule.id].side if rule.id in awarded else None)
