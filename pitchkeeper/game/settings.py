"""The ruleset format: every setting, its type, default, allowed values and its words, in one table.

`SECTIONS` (and `POINT_FIELDS` with the point kinds' own keys) drives the validator (game.validation),
the defaults, the JSON Schema (game.schema) and `rules new`, so they cannot drift apart. Every default
is the behaviour a ruleset that does not write the key has always had. game.rulesets re-exports it all.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from pitchkeeper.game.cards import JOKERS, RANKS
from pitchkeeper.game.kinds import KINDS


class F(NamedTuple):
    """One setting: its type, default, allowed values and the words that explain it."""

    kind: str  # int | str | bool | enum | strlist | enumlist | intlist | counts
    default: Any
    doc: str
    choices: tuple[str, ...] = ()
    lo: int | None = None
    hi: int | None = None
    nonempty: bool = False  # a list that must name at least one thing


TRUMP_SYMBOLS: tuple[str, ...] = tuple(reversed(RANKS)) + ("off-A", "off-J", "off-3") + JOKERS
FULL_TRUMP = ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"]

SECTIONS: dict[str, dict[str, F]] = {
    "deck": {
        "ranks": F("enumlist", list(RANKS), "ranks in each suit (a stripped deck lists fewer)", RANKS, nonempty=True),
        "jokers": F("int", 0, "0, 1 (JK) or 2 (HJ the high joker, LJ the low joker)", lo=0, hi=2),
        "hand_size": F("int", 6, "cards each player plays out (after any discard and refill)", lo=1, hi=13),
        "deal_size": F("int", 0, "cards first dealt to each player when it differs from hand_size (0: the same)", lo=0, hi=13),
        "misdeal": F("enum", "same-dealer", "after a misdeal the cards are dealt again by the same dealer, or the deal "
                     "passes to the next player", ("same-dealer", "next-dealer")),
    },
    "players": {
        "counts": F("intlist", [4], "how many may play", lo=2, hi=9, nonempty=True),
        "team_sizes": F("intlist", [1], "1 = each for himself; 2 or 3 = partnerships of that size", lo=1, hi=3, nonempty=True),
    },
    "partner": {
        "counts": F("intlist", [], "table sizes at which the bidder calls a partner's card (each for himself otherwise)",
                    lo=3, hi=9),
        "may_call": F("enum", "any", "which cards the bidder may call", ("any", "trump", "non-trump")),
        "unheld": F("enum", "alone", "when no other player holds the called card as play begins: the bidder plays "
                    "alone, or the hand is dealt again", ("alone", "redeal")),
        "first_trick": F("bool", False, "the holder of the called card must play it to the first trick"),
        "defenders": F("enum", "together", "the other players are one side for the hand, or each plays for himself",
                       ("together", "each")),
    },
    "trump": {
        "order": F("enumlist", FULL_TRUMP, "the trumps from highest to lowest; A..2 are the trump suit, "
                   "off-J/off-A/off-3 the same-colour jack/ace/three, HJ/LJ/JK the jokers", TRUMP_SYMBOLS, nonempty=True),
        "set_by": F("enum", "first-lead", "how trump is fixed", ("first-lead", "first-lead-announced", "named")),
        "identical_jokers": F("enum", "no", "two jokers that look alike: no (HJ and LJ told apart); the first played "
                              "in the hand is the higher; or of two in one trick the later wins",
                              ("no", "first-higher", "later-higher")),
    },
    "kitty": {
        "size": F("int", 0, "cards dealt face down to a kitty (widow) that the bidder takes", lo=0, hi=20),
        "discard_counts": F("enum", "nothing", "what the bidder's laid-away cards count for, to the bidding side",
                            ("nothing", "game", "all")),
    },
    "draw": {
        "discard": F("enum", "none", "after trump: every non-trump thrown and refilled; any cards thrown and "
                     "refilled; or everyone throws down to deck.hand_size without drawing",
                     ("none", "non-trumps", "any", "down-to-hand")),
        "most": F("int", 0, "with any: the most cards one player may throw (0: no limit)", lo=0, hi=13),
        "rest": F("bool", False, "after the draw the bidder takes the rest of the stock and lays away down to "
                  "deck.hand_size"),
    },
    "discard": {
        "trumps": F("enum", "allowed", "may a trump be laid away or thrown: yes, or only by a hand keeping more "
                    "trumps than deck.hand_size, and only the excess", ("allowed", "excess-only")),
        "point_trumps": F("bool", True, "false: a point trump is never laid away while a trump that scores nothing "
                          "could go"),
    },
    "play": {
        "follow": F("enum", "suit-or-trump", "what a player must play to a plain-suit lead",
                    ("suit-or-trump", "suit", "trump-only")),
        "first_lead_trump": F("bool", True, "the pitcher's first lead must be a trump"),
        "first_leader": F("enum", "bidder", "who leads the first trick", ("bidder", "eldest")),
        "plain_order": F("enumlist", FULL_TRUMP, "plain-suit ranks from highest to lowest", RANKS, nonempty=True),
        "must_trump": F("bool", False, "a player out of the suit led must play a trump if holding one"),
    },
    "bidding": {
        "min": F("int", 1, "lowest bid", lo=0, hi=99),
        "max": F("int", 4, "highest numeric bid", lo=1, hi=99),
        "smudge": F("int", 0, "what a smudge (moon) bid is worth; 0 = no such bid", lo=0, hi=99),
        "smudge_name": F("str", "smudge", "what the table calls that bid"),
        "auction": F("enum", "once-around", "the auction's shape", ("once-around", "sell-out")),
        "all_pass": F("enum", "dealer-forced", "what happens when nobody bids",
                      ("dealer-forced", "redeal", "eldest-pitches")),
        "forced_bid": F("int", 0, "the stuck dealer's least bid (0: the minimum bid)", lo=0, hi=99),
        "forced_exact": F("bool", False, "the stuck dealer bids exactly forced_bid (or the minimum), not more"),
        "over_partner": F("bool", True, "a player may bid over its own partner's bid (false: a partner's high bid "
                          "may not be raised by its partner)"),
        "steal": F("enum", "none", "may the last speaker (dealer, or eldest in a sell-out) take the "
                   "contract by equalling the high bid", ("none", "below-top", "any")),
        "pitch_bid": F("int", 0, "laying a card face up at once bids this much (0: not allowed)", lo=0, hi=99),
        "pitch_at_once": F("int", 0, "sell-out: eldest pitching without selling contracts for this", lo=0, hi=99),
        "sale_credit": F("enum", "none", "sell-out: who scores the price of a sale",
                         ("none", "seller", "buyer")),
    },
    "smudge": {
        "needs": F("enum", "worth", "what the smudge (moon) bid must take: at least its worth; every point; every "
                   "point that is out (game included); every trick; every point and every trick",
                   ("worth", "every-point", "every-point-out", "every-trick", "every-point-and-trick")),
        "made": F("enum", "taken", "made: it scores what it took, its worth, made_points, or wins the game at once",
                  ("taken", "worth", "points", "win")),
        "made_points": F("int", 0, "with made = points: what a made smudge scores", lo=0, hi=10_000),
        "set": F("enum", "settle", "set: as settle.setback says, set back set_points, set back the target, or the "
                 "game is lost at once", ("settle", "points", "target", "lose")),
        "set_points": F("int", 0, "with set = points: what a failed smudge is set back", lo=0, hi=10_000),
        "in_the_hole": F("enum", "may", "a side in the hole may bid it; may not; or (with made = win) goes to zero "
                         "instead of winning", ("may", "may-not", "to-zero")),
    },
    "settle": {
        "setback": F("enum", "bid", "a bidding side short of its bid", ("bid", "none")),
        "defenders_score": F("bool", True, "the other sides always score what they take"),
        "negative": F("bool", True, "scores may go below zero (in the hole)"),
    },
    "win": {
        "target": F("int", 21, "the winning score", lo=1, hi=10_000),
        "reach": F("enum", "reach", "reach (at least) or exceed (more than) the target", ("reach", "exceed")),
        "only_bidder": F("bool", False, "only the bidding side can win, at the end of a hand it bid"),
        "bidder_must_make": F("bool", True, "with only_bidder: and only if it made the bid"),
        "precedence": F("enumlist", ["bidder", "higher", "count-out"],
                        "who wins when several sides are out in one hand, rule by rule",
                        ("bidder", "higher", "count-out"), nonempty=True),
        "count_out": F("strlist", ["high", "low", "jack", "game"],
                       "the order points are counted when counting out"),
        "direction": F("enum", "up", "count up from 0 to the target, or start at the target and count down to 0",
                       ("up", "down")),
        "set_and_win": F("bool", False, "a defending side that sets the bidder and reaches the target wins, even "
                         "where only the bidding side can win"),
        "defenders_stop_short": F("bool", False, "a defending side's score stops one short of getting out: it must "
                                  "bid to go out"),
        "instant": F("enum", "none", "a side that takes every point of a hand wins at once, whatever the score "
                     "(Bicycle's smudge)", ("none", "every-point", "every-point-out")),
        "instant_by": F("enum", "anyone", "who can win that way", ("anyone", "bidder")),
        "sets_out": F("int", 0, "a side set this many times is out of the game (0: never)", lo=0, hi=99),
    },
    "revoke": {
        "setback": F("enum", "none", "the penalty for a revoke", ("none", "bid", "points")),
        "points": F("int", 0, "with setback = points: how many", lo=0, hi=99),
        "bidder_excused": F("bool", False, "the bidder is not set back for failing when another revoked"),
        "offender_scores": F("bool", False, "the offender still scores what it took"),
        "counters": F("int", 0, "stake counters the offender forfeits to the pool", lo=0, hi=99),
    },
    "stakes": {
        "per_game": F("int", 0, "stake each player puts up per game, paid to the winner (0: none)", lo=0, hi=1_000_000),
        "unit": F("str", "counter", "what the stake is counted in"),
    },
}

POINT_FIELDS: dict[str, F] = {
    "of": F("enum", "card", "what the point is for", tuple(KINDS)),  # its choices are read live: point_fields
    "value": F("int", 1, "what it is worth", lo=0, hi=99),
    "to": F("enum", "captor", "who scores it: whoever captures the card, or the player dealt it",
            ("captor", "dealt")),
    "card": F("enum", "", "with of = card: which trump (A..2, off-J, off-A, off-3, HJ, LJ, JK)", TRUMP_SYMBOLS),
    "label": F("str", "", "a name for the point in verdicts"),
    "skip": F("enumlist", [], "with of = lowest-trump: trumps that never count as low", TRUMP_SYMBOLS),
    "apart": F("bool", False, "with of = lowest-trump: a lone trump is high only, not low too"),
    "natural": F("bool", False, "with of = lowest-trump: only a card of the trump suit itself can be low, never a "
                 "joker or an off-card"),
    "counts": F("counts", {"A": 4, "K": 3, "Q": 2, "J": 1, "10": 10},
                "with of = game: what each rank (or joker) counts"),
    "tie": F("enum", "nobody", "with of = game: a tie for the most scores nobody; goes to the bidding side, if tied "
             "for the most; or to the tied side seated first from the dealer's left (elder)",
             ("nobody", "bidder", "elder")),
    "need": F("enum", "plurality", "with of = game: most of all (plurality) or more than half (majority)",
              ("plurality", "majority")),
    "only_bidder": F("bool", True, "with of = all-tricks: only the bidding side can score it"),
    "enabled": F("bool", True, "false drops a point inherited through extends"),
}
COMMON_POINT_KEYS = frozenset({"of", "value", "label", "enabled"})  # every kind takes these (game.kinds: the rest)


def point_fields() -> dict[str, F]:
    """Every [points.ID] key's field: POINT_FIELDS, `of` allowing every kind registered now, then the keys
    of a kind's own (game.kinds)."""
    out = dict(POINT_FIELDS)
    if out["of"].choices != tuple(KINDS):
        out["of"] = out["of"]._replace(choices=tuple(KINDS))
    for kind in KINDS.values():
        for k, f in kind.fields.items():
            out.setdefault(k, f)
    return out


TOP_KEYS: dict[str, F] = {
    "name": F("str", "", "the ruleset's name"),
    "title": F("str", "", "one line saying what it is"),
    "source": F("str", "", "where the rules come from"),
    "extends": F("str", "", "a built-in ruleset name or a ruleset file this one changes"),
    "notes": F("strlist", [], "assumptions and choices, in words"),
}


def settings_of(data: Any) -> dict[str, dict[str, Any]]:
    """Every section's settings of a merged ruleset, the defaults filled in."""
    out: dict[str, dict[str, Any]] = {}
    for sec, fields in SECTIONS.items():
        given = data.get(sec, {})
        out[sec] = {k: given.get(k, f.default) for k, f in fields.items()}
    return out
