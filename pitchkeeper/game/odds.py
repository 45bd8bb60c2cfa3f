"""The odds of a bid: the pitcher's cards known, every layout of the others' cards sampled and solved exactly.

From the pitcher's cards, the cards it cannot see are dealt at random among the other players and the
undealt stock, `samples` times, from one seeded generator (the same seed, the same layouts, the same
answer). Each layout is solved with every card known (game.solver), the pitcher leading the first trick.
For each trump: the share of layouts in which the bidding side takes each number of points, the chance
to make each bid, the mean, and the bid whose expected score change under the ruleset's own settlement
(game.scoring) is best. Spec section 9's `analyse odds`.

Sampling follows the deck (jokers, stripped decks, the stock left undealt) and the number of players.
A ruleset that deals more cards than are played (a discard and draw before play) is sampled as if the
other players' hands were dealt from the unseen cards at once; `draw` in the answer says so, since real
players keep their trumps when they discard, and the odds against the pitcher are then worse.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from pitchkeeper.errors import PitchError, or_list
from pitchkeeper.game import match, play, rulesets, scoring
from pitchkeeper.game.cards import SUITS, Card, parse_card, parse_suit
from pitchkeeper.game.records import Bid, Hand, Table
from pitchkeeper.game.rulesets import Ruleset
from pitchkeeper.game.solver import Deal, Solver, start_of_play
from pitchkeeper.game.verdicts import BidResult

PITCHER = "pitcher"


def seating(ruleset: Ruleset, players: int | None) -> tuple[tuple[str, ...], dict[str, str]]:
    """The seats (the pitcher first) and each seat's side: partners sit crosswise in the first team size
    the ruleset allows for that many players, or each plays for himself."""
    ps = ruleset.settings["players"]
    n = players if players is not None else (4 if 4 in ps["counts"] else ps["counts"][0])
    if n not in ps["counts"]:
        raise PitchError(f"{ruleset.name} is played by {or_list(ps['counts'])} players, not {n}", "--players")
    seats = (PITCHER, *(f"P{i + 1}" for i in range(1, n)))
    size = next(s for s in ps["team_sizes"] if s == 1 or (n % s == 0 and n // s >= 2))
    if size == 1:
        return seats, {p: p for p in seats}
    k = n // size  # teams: seat i plays in team i % k
    names = ["pitcher's side", *(f"side {t + 1}" for t in range(1, k))]
    return seats, {p: names[i % k] for i, p in enumerate(seats)}


def settlement(ruleset: Ruleset, trump: str, amount: int | str, took: int) -> int:
    """The bidding side's score change when it bid `amount` and took `took` (scoring's settlement)."""
    smudge = amount == "smudge"
    worth = scoring.amount_worth(ruleset, 0 if smudge else int(amount), smudge)
    table = Table(("A", "B"), None)
    hand = Hand("B", trump, Bid("A", worth, smudge))
    result = BidResult("A", "A", worth, amount, worth == 0 or took >= worth, took)  # made as the engine decides it
    delta, _, _ = scoring._settle(ruleset, table, hand, {"A": took, "B": 0}, result, "A", ())
    return match.gain(ruleset, delta["A"])  # counting down, a score change towards 0 is a gain


def bids(ruleset: Ruleset) -> list[int | str]:
    """Every bid the pitcher may make: the numbers, and the smudge where the ruleset has one."""
    b = ruleset.settings["bidding"]
    out: list[int | str] = list(range(max(b["min"], 1), b["max"] + 1))
    if b["smudge"]:
        out.append("smudge")
    return out


def parse_hand_cards(ruleset: Ruleset, cards: str | Sequence[str]) -> tuple[Card, ...]:
    """The pitcher's cards, checked: cards of this deck, none twice, a whole hand."""
    items = cards.replace(",", " ").split() if isinstance(cards, str) else list(cards)
    out: list[Card] = []
    for item in items:
        try:
            c = parse_card(item)
        except PitchError as e:
            raise e.at("--cards") from None
        if c not in ruleset.deck:
            raise PitchError(f"{c} is not in {ruleset.name}'s deck ({ruleset.deck_words()})", "--cards")
        if c in out:
            raise PitchError(f"{c} is given twice", "--cards")
        out.append(c)
    size = ruleset.settings["deck"]["hand_size"]
    if len(out) != size:
        raise PitchError(f"{len(out)} cards given; a hand in {ruleset.name} holds {size}", "--cards")
    return tuple(out)


def bid_odds(cards: str | Sequence[str], rules: str | Ruleset, players: int | None = None, trump: str | None = None,
             samples: int = 200, seed: int | None = None, core: str | None = None) -> dict[str, Any]:
    """The `analyse odds` object (spec section 9). PitchError on bad input."""
    ruleset = rules if isinstance(rules, Ruleset) else rulesets.load(rules)
    hand = parse_hand_cards(ruleset, cards)
    seats, side_of = seating(ruleset, players)
    _sampled_fairly(ruleset, len(seats))
    if not isinstance(samples, int) or isinstance(samples, bool) or not 1 <= samples <= 100_000:
        raise PitchError(f"expected a number of layouts from 1 to 100000, got {samples!r}", "--samples")
    if seed is None:
        seed = random.SystemRandom().randrange(1 << 31)
    elif not isinstance(seed, int) or isinstance(seed, bool):
        raise PitchError(f"expected a whole number, got {seed!r}", "--seed")
    suits = SUITS if trump is None else (parse_suit(trump),)
    size = ruleset.settings["deck"]["hand_size"]
    dealt = layouts(ruleset, hand, seats[1:], samples, seed)
    out: dict[str, Any] = {"rules": ruleset.name, "cards": list(hand), "samples": samples, "seed": seed,
                           "players": len(seats), "teams": len(set(side_of.values())) < len(seats)}
    deal_size = ruleset.settings["deck"]["deal_size"]
    if deal_size and deal_size != size:
        out["draw"] = (f"{ruleset.name} deals {deal_size} cards and plays {size} after a discard and draw: the other "
                       f"players' {size} cards are dealt at random from the cards the pitcher cannot see, as if drawn "
                       "blind; real players keep their trumps, so the real odds are worse than these")
    out["trumps"] = [_one_trump(ruleset, s, hand, seats, side_of, dealt, core, trump is not None) for s in suits]
    return out


def _sampled_fairly(ruleset: Ruleset, players: int) -> None:
    """Refuse, in one line, a ruleset whose hands as play begins depend on choices the odds cannot know (a
    kitty and its lay-away, a draw of the players' choosing) or on a partner called after the bid: no
    silent wrong answer."""
    s = ruleset.settings
    chosen = [(k, v) for k, v in (("kitty.size", s["kitty"]["size"]), ("draw.discard", s["draw"]["discard"]))
              if (k == "kitty.size" and v) or v in ("any", "down-to-hand")]
    if chosen:
        key, value = chosen[0]
        raise PitchError(f"{ruleset.name} lets players choose what to lay away before play ({key} = {value}); "
                         "the cards held when play begins are unknown, so no odds are given", "--rules")
    if ruleset.calls_partner(players):
        raise PitchError(f"{ruleset.name} calls a partner's card with {players} players (partner.counts): the odds "
                         "would need the card called, so none are given", "--players")


def layouts(ruleset: Ruleset, hand: Sequence[Card], others: Sequence[str], samples: int,
            seed: int) -> list[dict[str, tuple[Card, ...]]]:
    """`samples` deals of the cards the pitcher cannot see (the deck less its hand, jokers and all) to the
    other players, a hand each; what is left is the undealt stock. One generator, seeded: repeatable."""
    size = ruleset.settings["deck"]["hand_size"]
    unseen = sorted(ruleset.deck - set(hand))
    rng = random.Random(seed)
    out = []
    for _ in range(samples):
        rng.shuffle(unseen)
        out.append({p: tuple(unseen[i * size:(i + 1) * size]) for i, p in enumerate(others)})
    return out


def _one_trump(ruleset: Ruleset, trump: str, hand: tuple[Card, ...], seats: tuple[str, ...], side_of: dict[str, str],
               layouts: list[dict[str, tuple[Card, ...]]], core: str | None, named: bool) -> dict[str, Any]:
    view = ruleset.views[trump]
    lead = play.allowed(ruleset, view, hand, None, first=True)
    if play.sets_trump(ruleset) and not lead.cards:  # a trump the pitcher cannot make with the first card pitched
        why = f"the pitcher holds no card that can lead with {trump} trump ({lead.words})"
        if named:
            raise PitchError(why, "--trump")
        return {"trump": trump, "possible": False, "why": why}
    deal = Deal(ruleset, trump, seats, side_of, side_of[PITCHER])
    top = ruleset.max_points
    tally = [0] * (top + 1)
    values = []
    for layout in layouts:
        v = Solver(deal, start_of_play(deal, {PITCHER: hand, **layout}, PITCHER), core).value()
        values.append(v)
        tally[min(v, top)] += 1
    k = len(layouts)
    make = {str(b): sum(1 for v in values if v >= _worth(ruleset, b)) / k for b in bids(ruleset)}
    expected = {str(b): sum(settlement(ruleset, trump, b, v) * tally[v] for v in range(top + 1)) / k
                for b in bids(ruleset)}
    best = max(bids(ruleset), key=lambda b: (expected[str(b)], -bids(ruleset).index(b)))
    return {"trump": trump, "possible": True,
            "points": {str(v): round(tally[v] / k, 4) for v in range(top + 1)},
            "make": {b: round(x, 4) for b, x in make.items()},
            "mean": round(sum(values) / k, 4),
            "expected": {b: round(x, 4) for b, x in expected.items()},
            "best_bid": best}


def _worth(ruleset: Ruleset, amount: int | str) -> int:
    return scoring.amount_worth(ruleset, 0 if amount == "smudge" else int(amount), amount == "smudge")
