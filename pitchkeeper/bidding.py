"""The auction: checking a hand's calls against the ruleset's bidding rules.

(To be completed: stuck dealer, dealer's steal, eldest hand's sale, pitching a card to bid.)
"""

from __future__ import annotations

from pitchkeeper.records import Hand, Table
from pitchkeeper.rulesets import Ruleset


def check_auction(ruleset: Ruleset, table: Table, hand: Hand) -> None:
    """Raise PitchError (naming `auction[N]`) when the calls break the ruleset's bidding rules."""
    return None
