"""Random deals for the benchmarks, in the three entry forms: captured cards, quick entry, tricks.

Every form is a record as a person would write it (pitchkeeper.game.sampling), spread evenly over the
built-in rulesets. Tricks are a random deal played out legally card by card (`play.allowed`).
"""

from __future__ import annotations

import random
from typing import Any

from pitchkeeper.errors import PitchError
from pitchkeeper.game import records, rulesets, sampling, scoring
from pitchkeeper.game.cards import SUITS
from pitchkeeper.game.play import TRUMP, allowed, first_lead_suits, sets_trump, winner_index

NAMES = rulesets.builtin_names()
LOADED = {n: rulesets.load(n) for n in NAMES}

Deal = tuple[rulesets.Ruleset, records.Table, records.Hand, dict[str, Any]]


def _table(rs: rulesets.Ruleset, rng: random.Random) -> tuple[list[str], Any, records.Table]:
    players, teams = sampling.random_table(rs, rng)
    return players, teams, records.parse_table({"players": players, **({"teams": teams} if teams else {})})


def sampled(n: int, quick: bool, seed: int = 7) -> list[Deal]:
    """n hands entered as captured cards (quick=False) or as quick entry (points), every ruleset in turn."""
    rng = random.Random(seed)
    out: list[Deal] = []
    i = 0
    while len(out) < n:
        rs = LOADED[NAMES[i % len(NAMES)]]
        i += 1
        players, teams, table = _table(rs, rng)
        record = sampling.random_hand(rs, rng, players, teams, quick=quick)
        if quick and "points" not in record:
            continue  # nothing was won: the sampler kept the cards
        try:
            hand = records.parse_hand(record, table)
            scoring.verdict(rs, table, hand)
        except PitchError:
            continue  # a sampled hand this ruleset refuses (a bid of 0 by the wrong player, say)
        out.append((rs, table, hand, {"players": players, **({"teams": teams} if teams else {}), **record}))
    return out


def play_out(rs: rulesets.Ruleset, rng: random.Random, players: list[str], teams: Any,
             dealer: str) -> dict[str, Any] | None:
    """A random deal played out legally: the per-hand keys with `tricks` and `held` (None: no trump out)."""
    n = len(players)
    size = rs.settings["deck"]["hand_size"]
    bid = sampling.random_bid(rs, rng, players, dealer)
    deck = sorted(rs.deck)
    rng.shuffle(deck)
    held = {p: deck[i * size:(i + 1) * size] for i, p in enumerate(players)}
    leader = bid["player"] if rs.settings["play"]["first_leader"] == "bidder" else \
        players[(players.index(dealer) + 1) % n]
    pitched = None
    if sets_trump(rs):
        pitched = rng.choice(held[leader])
        trump = rng.choice(first_lead_suits(rs, pitched))
    else:
        trump = rng.choice(SUITS)
    view = rs.views[trump]
    trump_only = rs.settings["play"]["follow"] == "trump-only"
    hands = {p: list(cs) for p, cs in held.items()}
    out: set[str] = set()
    tricks = []
    for t in range(size):
        if trump_only:
            out |= {p for p in players if not any(view.suit[c] == TRUMP for c in hands[p])}
            if len(out) == n:
                break
        start = players.index(leader)
        seats = [players[(start + k) % n] for k in range(n) if players[(start + k) % n] not in out]
        leader = seats[0]
        cards: list[str] = []
        led = None
        for p in seats:
            first = t == 0 and not cards
            card = pitched if first and pitched else rng.choice(allowed(rs, view, hands[p], led, first).cards)
            hands[p].remove(card)
            cards.append(card)
            led = led or view.suit[card]
        tricks.append({"leader": leader, "cards": [f"{p}:{c}" for p, c in zip(seats, cards, strict=True)]})
        leader = seats[winner_index(view, cards)]
    if not tricks:
        return None
    return {"dealer": dealer, "trump": trump, "bid": bid, "held": held, "tricks": tricks}


def played(n: int, seed: int = 11) -> list[Deal]:
    """n hands recorded trick by trick, with the held cards (every play checked), every ruleset in turn."""
    rng = random.Random(seed)
    out: list[Deal] = []
    i = 0
    while len(out) < n:
        rs = LOADED[NAMES[i % len(NAMES)]]
        i += 1
        players, teams, table = _table(rs, rng)
        record = play_out(rs, rng, players, teams, rng.choice(players))
        if record is None:
            continue
        try:
            hand = records.parse_hand(record, table)
            scoring.verdict(rs, table, hand)
        except PitchError:
            continue
        out.append((rs, table, hand, {"players": players, **({"teams": teams} if teams else {}), **record}))
    return out
