"""Random deals for the benchmarks, in the three entry forms: captured cards, quick entry, tricks.

Every form is a record as a person would write it (pitchkeeper.game.sampling), spread evenly over the
built-in rulesets. Tricks are a random deal played out legally card by card (`play.allowed`).
"""

from __future__ import annotations

import random
from collections.abc import Callable
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
    def record_of(rs: rulesets.Ruleset, rng: random.Random, players: list[str], teams: Any) -> dict[str, Any] | None:
        record = sampling.random_hand(rs, rng, players, teams, quick=quick)
        return None if quick and "points" not in record else record  # nothing was won: the sampler kept the cards

    return _judged(n, seed, record_of)


def played(n: int, seed: int = 11) -> list[Deal]:
    """n hands recorded trick by trick, with the held cards (every play checked), every ruleset in turn."""
    return _judged(n, seed, lambda rs, rng, players, teams: sampling.random_played(rs, rng, players, teams,
                                                                                  rng.choice(players)))


def _judged(n: int, seed: int, record_of: Callable[[rulesets.Ruleset, random.Random, list[str], Any],
                                                   dict[str, Any] | None]) -> list[Deal]:
    """n records from `record_of` (None: none this time) at a random table, every ruleset in turn, each one
    its ruleset judges (a sampled hand a ruleset refuses - a bid of 0 by the wrong player, say - is left out)."""
    rng = random.Random(seed)
    out: list[Deal] = []
    i = 0
    while len(out) < n:
        rs = LOADED[NAMES[i % len(NAMES)]]
        i += 1
        players, teams, table = _table(rs, rng)
        record = record_of(rs, rng, players, teams)
        if record is None:
            continue
        try:
            hand = records.parse_hand(record, table)
            scoring.verdict(rs, table, hand)
        except PitchError:
            continue
        out.append((rs, table, hand, {"players": players, **({"teams": teams} if teams else {}), **record}))
    return out
