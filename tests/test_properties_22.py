"""Properties of the house-rule mechanisms of issue 22 over random deals of every built-in and every house
file (hypothesis): every card once across the hands, the kitty, the discards and the stock; each point
at most once; what the sides of a hand took adds up; partners score alike; every new key written at its
default changes nothing; a record judges as its canonical text does; a hand played out trick by trick
judges as the cards its tricks captured."""

from __future__ import annotations

import random
import tomllib
from collections import Counter
from pathlib import Path
from typing import Any

import tomli_w
from helpers import variant
from hypothesis import given, settings
from hypothesis import strategies as st

from pitchkeeper.game import deal, play, records, rulesets, sampling, scoring
from pitchkeeper.game.match import parse_match, replay

ROOT = Path(__file__).resolve().parent.parent
HOUSE = {p.stem: rulesets.load(p) for p in sorted((ROOT / "examples" / "house-rules").glob("*.toml"))}
BUILT = {n: rulesets.load(n) for n in rulesets.builtin_names()}
# a called card of any suit in suit-following play: the holder must play it to trick 1 whatever the lead
CALLING = {"cutthroat-call": variant("cutthroat-pitch", partner={"counts": [5, 6], "first_trick": True})}
EVERY = {**BUILT, **HOUSE, **CALLING}
NEW = ("partner", "kitty", "draw", "discard", "smudge")


def dealt(name: str, seed: int, quick: bool = False) -> tuple[rulesets.Ruleset, dict[str, Any], records.Table, records.Hand]:
    rs = EVERY[name]
    rng = random.Random(seed)
    players, teams = sampling.random_table(rs, rng, seating="any")
    record = {"players": players, **({"teams": teams} if teams else {}),
              **sampling.random_hand(rs, rng, players, teams, quick=quick)}
    table = records.parse_table(record)
    return rs, record, table, records.parse_hand(record, table, extra_keys=("players", "teams"))


every = st.tuples(st.sampled_from(sorted(EVERY)), st.integers(0, 2**32 - 1))
house = st.tuples(st.sampled_from(sorted(HOUSE)), st.integers(0, 2**32 - 1))


@settings(max_examples=300, deadline=None)
@given(every)
def test_each_card_counts_once_and_each_point_is_awarded_once(h: tuple[str, int]) -> None:
    rs, _, table, hand = dealt(*h)
    v = scoring.verdict(rs, table, hand)
    points = [a.point for a in v.awards]
    assert len(points) == len(set(points)) and set(points) <= {p.id for p in rs.points}
    if v.game is not None and v.game.piles:
        counted = [c for side in v.game.cards.values() for c, _ in side]
        assert len(counted) == len(set(counted))  # trick cards and a counted discard, never twice
        assert sum(v.game.counts.values()) == sum(n for side in v.game.cards.values() for _, n in side)
    # what the sides of the hand took adds up to the points awarded; every player of a side is credited it
    by_side = Counter[str]()
    for a in v.awards:
        by_side[a.side] += a.value
    assert sum(by_side.values()) == sum(a.value for a in v.awards) <= rs.max_points
    members = dict(v.hand_sides or ((s, table.members(s)) for s in table.sides))
    for side, players in members.items():
        for p in players:
            assert v.taken[table.side_of(p)] == by_side[side]
    if v.hand_sides is not None and not hand.revokes and not v.illegal:
        for _, players in v.hand_sides:
            assert len({v.delta[p] for p in players}) == 1  # partners score alike


@settings(max_examples=200, deadline=None)
@given(house)
def test_every_card_is_in_one_place_after_the_deal(h: tuple[str, int]) -> None:
    rs, record, table, hand = dealt(*h)
    if "held" not in record:
        return
    held = record["held"]
    laid = record.get("discard", {})
    laid = {hand.bid.player: laid} if isinstance(laid, list) else laid
    places = [c for cs in held.values() for c in cs] + [c for cs in laid.values() for c in cs]
    assert len(places) == len(set(places)) and set(places) <= rs.deck
    bidder = hand.bid.player
    for c in record.get("kitty", []):
        assert c in held[bidder] or c in laid.get(bidder, [])
    for p, cs in record.get("drawn", {}).items():
        assert all(c in held[p] or c in laid.get(p, []) for c in cs)
    d = deal.check_deal(rs, table, hand)
    assert d is not None and set(d.gone) == {c for cs in laid.values() for c in cs}


@settings(max_examples=150, deadline=None)
@given(st.tuples(st.sampled_from(sorted(BUILT)), st.integers(0, 2**32 - 1)), st.booleans())
def test_every_new_key_written_at_its_default_changes_nothing(h: tuple[str, int], quick: bool) -> None:
    rs, _, table, hand = dealt(*h, quick=quick)
    merged, _ = rulesets.load_merged(rs.name)
    for sec in NEW:
        merged[sec] = {k: f.default for k, f in rulesets.SECTIONS[sec].items()}
    for sec, keys in (("trump", ("identical_jokers",)), ("play", ("must_trump",)), ("bidding", ("forced_exact",)),
                      ("win", ("direction", "set_and_win", "defenders_stop_short", "instant", "instant_by",
                               "sets_out"))):
        merged[sec] = {**merged[sec], **{k: rulesets.SECTIONS[sec][k].default for k in keys}}
    for p in merged["points"].values():
        if p.get("of") == "lowest-trump":
            p["natural"] = False
    assert rulesets.validate(merged) == []
    explicit = rulesets.compile_ruleset(merged)
    assert explicit.features == frozenset() and explicit.play_digest != rs.play_digest
    assert scoring.verdict(explicit, table, hand).to_json() == scoring.verdict(rs, table, hand).to_json()


@settings(max_examples=150, deadline=None)
@given(every, st.booleans())
def test_a_record_judges_as_its_canonical_text(h: tuple[str, int], quick: bool) -> None:
    rs, record, table, hand = dealt(*h, quick=quick)
    again = tomllib.loads(tomli_w.dumps(record))
    table2 = records.parse_table(again)
    hand2 = records.parse_hand(again, table2, extra_keys=("players", "teams"))
    assert scoring.verdict(rs, table2, hand2).to_json() == scoring.verdict(rs, table, hand).to_json()


@settings(max_examples=150, deadline=None)
@given(every)
def test_a_hand_played_out_judges_as_the_cards_its_tricks_captured(h: tuple[str, int]) -> None:
    """A random deal played legally card by card (through any kitty, draw, called partner, must-trump and
    look-alike jokers) has no illegal play, and judges as the same hand entered as captured cards."""
    name, seed = h
    rs = EVERY[name]
    rng = random.Random(seed)
    players, teams = sampling.random_table(rs, rng, seating="any")
    rec = sampling.random_played(rs, rng, players, teams)
    if rec is None:
        return
    table = records.parse_table({"players": players, **({"teams": teams} if teams else {})})
    hand = records.parse_hand(rec, table)
    v = scoring.verdict(rs, table, hand)
    assert v.illegal == ()
    named = deal.name_jokers(rs, hand)
    rep = play.replay(rs, table, named, deal=deal.check_deal(rs, table, named))
    who = {p: tuple(c for t in rep.tricks for q, c in t.plays if q == p) for p in players}
    flat = named._replace(tricks=None, held=(), captured=rep.captured,
                          dealt=tuple((p, cs) for p, cs in who.items() if cs), partner=v.bid.partner or "")
    if hand.called is None:
        flat = flat._replace(partner=None)
    w = scoring.verdict(rs, table, flat)
    assert (w.taken, w.delta, w.bid, w.instant) == (v.taken, v.delta, v.bid, v.instant)
    assert [(a.point, a.side) for a in w.awards] == [(a.point, a.side) for a in v.awards]


@settings(max_examples=60, deadline=None)
@given(every)
def test_a_log_replays_to_the_same_scores_hand_by_hand(h: tuple[str, int]) -> None:
    """Each hand scored on the replay of the hands before it gives the totals the whole log's replay gives."""
    name, seed = h
    rs = EVERY[name]
    rng = random.Random(seed)
    players, teams = sampling.random_table(rs, rng, seating="any")
    header: dict[str, Any] = {"rules": name, "players": players, **({"teams": teams} if teams else {})}
    hands: list[dict[str, Any]] = []
    dealer = players[0]
    parts = []
    while len(hands) < 8:
        state = parts[-1] if parts else None
        if state is not None and state.ending is not None:
            break
        gone = {p for s in (state.out if state else ()) for p in (teams or {}).get(s, [s])}
        if dealer in gone:
            dealer = players[(players.index(dealer) + 1) % len(players)]
            continue
        left = [p for p in players if p not in gone]
        left_teams = None if teams is None else {t: ms for t, ms in teams.items() if t not in (state.out if state else ())}
        hands.append(sampling.random_hand(rs, rng, left, left_teams, dealer=dealer, quick=rng.random() < 0.5))
        parts.append(replay(rs, parse_match({**header, "hands": hands})))
        dealer = players[(players.index(dealer) + 1) % len(players)]
    whole = parts[-1]
    for n, part in enumerate(parts, 1):
        assert part.scores == whole.hands[n - 1].scores
        assert part.hands[-1].verdict.to_json() == whole.hands[n - 1].verdict.to_json()


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(sorted(BUILT["partnership-pitch"].deck)), min_size=1, max_size=8, unique=True),
       st.sampled_from(["S", "H", "D", "C"]), st.sampled_from(["S", "H", "D", "C"]))
def test_must_trump_narrows_what_a_void_player_may_play_to_trumps(holding: list[str], trump: str, led: str) -> None:
    strict = HOUSE["strict-follow"]
    view = strict.views[trump]
    led_suit = "T" if led == trump else led
    a = play.allowed(strict, view, holding, led_suit)
    same = [c for c in holding if view.suit[c] == led_suit]
    trumps = [c for c in holding if view.suit[c] == "T"]
    if same:
        assert set(a.cards) == set(same)
    elif trumps:
        assert set(a.cards) == set(trumps) and a.rule in ("must-trump", "must-follow-trump")
    else:
        assert set(a.cards) == set(holding)
