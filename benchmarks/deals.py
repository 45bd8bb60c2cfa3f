"""Random deals for the benchmarks, in the three entry forms: captured cards, quick entry, tricks.

Every form is a record as a person would write it (pitchkeeper.game.sampling), spread evenly over the
built-in rulesets. Tricks are a random deal played out legally card by card (`play.allowed`).
"""

from __future__ import annotations

import random
from typing import Any

from pitchkeeper.errors import PitchError
from pitchkeeper.game import records, rulesets, sampling, scoring

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


def played(n: int, seed: int = 11) -> list[Deal]:
    """n hands recorded trick by trick, with the held cards (every play checked), every ruleset in turn."""
    rng = random.Random(seed)
    out: list[Deal] = []
    i = 0
    while len(out) < n:
        rs = LOADED[NAMES[i % len(NAMES)]]
        i += 1
        players, teams, table = _table(rs, rng)
        record = sampling.random_played(rs, rng, players, teams, rng.choice(players))
        if record is None:
            continue
        try:
            hand = records.parse_hand(record, table)
            scoring.verdict(rs, table, hand)
        except PitchError:
            continue
        out.append((rs, table, hand, {"players": players, **({"teams": teams} if teams else {}), **record}))
    return out
