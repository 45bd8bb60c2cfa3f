"""Every play of a replayed hand is judged by the one follow mechanism (hypothesis).

Random deals of every built-in ruleset, every house file and a called card of any suit are played out
with some plays drawn from the whole holding instead of from what the rules allow. The illegal plays a
verdict reports are exactly the plays `play.allowed` rules out, card by card, each with the rule
`allowed` names - the called card's first trick and a first lead that must fit trump among them.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from helpers import variant
from hypothesis import given, settings
from hypothesis import strategies as st

from pitchkeeper.game import records, rulesets, sampling, scoring
from pitchkeeper.game.play import TRUMP, allowed, winner_index

ROOT = Path(__file__).resolve().parent.parent
EVERY = {**{n: rulesets.load(n) for n in rulesets.builtin_names()},
         **{p.stem: rulesets.load(p) for p in sorted((ROOT / "examples" / "house-rules").glob("*.toml"))},
         "cutthroat-call": variant("cutthroat-pitch", partner={"counts": [5, 6], "first_trick": True})}
HAND_KEYS = {"dealer", "trump", "bid", "held", "tricks"}
Expected = list[tuple[int, str, str, str]]  # (trick, player, card, rule) of each play `allowed` rules out


def played_out(rs: rulesets.Ruleset, rng: random.Random, players: list[str], teams: dict[str, list[str]] | None,
               wild: float) -> tuple[dict[str, Any], Expected] | None:
    """A random deal played out, each card drawn from the whole holding with chance `wild` (else from what
    `allowed` permits), and the plays `allowed` rules out."""
    rec = sampling.random_played(rs, rng, players, teams)
    if rec is None:
        return None
    view = rs.views[rec["trump"]]
    trump_only = rs.settings["play"]["follow"] == "trump-only"
    called = rec.get("called") if rs.settings["partner"]["first_trick"] else None
    jokers = rs.settings["trump"]["identical_jokers"]
    bidder = rec["bid"]["player"]
    hands = {p: list(cs) for p, cs in rec["held"].items()}
    leader = rec["tricks"][0]["leader"]
    swap: bool | None = None  # first-higher: the first joker played was written LJ
    tricks: list[dict[str, Any]] = []
    expected: Expected = []
    n = len(players)
    for t in range(rs.settings["deck"]["hand_size"]):
        out = {p for p in players if not any(view.suit[c] == TRUMP for c in hands[p])} if trump_only else set()
        if len(out) == n:
            break
        start = players.index(leader)
        seats = [players[(start + k) % n] for k in range(n) if players[(start + k) % n] not in out]
        cards: list[str] = []
        led = None
        for k, p in enumerate(seats):
            a = allowed(rs, view, hands[p], led, t == 0 and not cards, called=called if t == 0 and p != bidder else None)
            none_kept = trump_only and k == len(seats) - 1 and not any(view.suit[c] == TRUMP for c in cards)
            card = rng.choice(hands[p] if rng.random() < wild and not none_kept else list(a.cards))
            if card not in a.cards:
                expected.append((t + 1, p, card, str(a.rule)))
            hands[p].remove(card)
            cards.append(card)
            led = led or view.suit[card]
            if swap is None and card in ("HJ", "LJ"):
                swap = card == "LJ"
        tricks.append({"leader": seats[0], "cards": [f"{p}:{c}" for p, c in zip(seats, cards, strict=True)]})
        who = [(p, c) for p, c in zip(seats, cards, strict=True) if not trump_only or view.suit[c] == TRUMP]
        seen = [{"HJ": "LJ", "LJ": "HJ"}.get(c, c) if jokers == "first-higher" and swap else c for _, c in who]
        leader = who[winner_index(view, seen, jokers=jokers)][0]
    return {**rec, "tricks": tricks}, expected


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(sorted(EVERY)), st.integers(0, 2**32 - 1), st.sampled_from([0.0, 0.2, 0.5, 1.0]),
       st.booleans())
def test_the_illegal_plays_are_those_allowed_rules_out(name: str, seed: int, wild: float, shown: bool) -> None:
    """Held cards given, or (in suit-following play, where every card is played) left for the tricks to show."""
    rs = EVERY[name]
    rng = random.Random(seed)
    players, teams = sampling.random_table(rs, rng, seating="any")
    made = played_out(rs, rng, players, teams, wild)
    if made is None:
        return
    rec, expected = made
    if shown and rs.settings["play"]["follow"] != "trump-only" and set(rec) <= HAND_KEYS:
        rec = {k: v for k, v in rec.items() if k != "held"}
    table = records.parse_table({"players": players, **({"teams": teams} if teams else {})})
    v = scoring.verdict(rs, table, records.parse_hand(rec, table))
    jokers = ("HJ", "LJ")  # look-alike jokers are renamed by the order they fall; the rule is the same
    assert [(i.trick, i.player, "joker" if i.card in jokers else i.card, i.rule) for i in v.illegal] == \
        [(t, p, "joker" if c in jokers else c, r) for t, p, c, r in expected]
    for i in v.illegal:
        assert i.why.startswith(f"{i.player} played ") and len(i.why) > 40  # says what the rule asked
