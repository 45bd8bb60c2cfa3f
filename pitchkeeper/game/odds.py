"""The odds of a bid: the pitcher's cards known, every layout of the others' cards sampled and solved exactly.

From the pitcher's cards, the cards it cannot see are dealt at random among the other players and the
undealt stock, `samples` times, from one seeded generator (the same seed, the same layouts, the same
answer). Each layout is solved with every card known (game.solver), the pitcher leading the first trick.
For each trump: the share of layouts in which the bidding side takes each number of points, the chance
to make each bid, the mean, and the bid whose expected score change under the ruleset's own settlement
(game.scoring) is best. Spec section 9's `analyse odds`.

Sampling follows the deck (jokers, stripped decks, the stock left undealt) and the number of players.
Where every player throws the non-trumps after trump and is dealt back from the stock (draw.discard =
"non-trumps"), the throw is forced by the cards: the pitcher gives the cards it was dealt, the stock's
order is sampled too, and the draw is played out layout by layout as game.deal's rules say (`draw` in the
answer says how, with the one choice the rules leave: what the pitcher lays away after taking the rest
of the stock). A ruleset that deals more cards than are played with no rule for the draw is sampled as
if the other players' hands were dealt from the unseen cards at once, and `draw` says so. A smudge (moon)
is made as the engine makes it (smudge.needs: every point, every trick...), which may take a second,
smaller search of the layout; `notes` says how each house rule in play is treated.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from pitchkeeper.errors import PitchError, or_list
from pitchkeeper.game import match, play, rulesets, scoring
from pitchkeeper.game.cards import SUITS, Card, parse_card, parse_suit
from pitchkeeper.game.deal import TRUMP, may_lay_away, must_throw
from pitchkeeper.game.kinds import InPlay
from pitchkeeper.game.partners import crosswise
from pitchkeeper.game.records import team_sizes_for
from pitchkeeper.game.rulesets import Ruleset, TrumpView
from pitchkeeper.game.solver import Deal, Position, Shared, Solver, start_of_play

PITCHER = "pitcher"


def seating(ruleset: Ruleset, players: int | None) -> tuple[tuple[str, ...], dict[str, str]]:
    """The seats (the pitcher first) and each seat's side: partners sit crosswise in the first team size
    the ruleset allows for that many players, or each plays for himself."""
    ps = ruleset.settings["players"]
    n = players if players is not None else (4 if 4 in ps["counts"] else ps["counts"][0])
    if n not in ps["counts"]:
        raise PitchError(f"{ruleset.name} is played by {or_list(ps['counts'])} players, not {n}", "players")
    seats = (PITCHER, *(f"P{i + 1}" for i in range(1, n)))
    teams = crosswise(seats, team_sizes_for(ps["team_sizes"], n)[0])
    if teams is None:
        return seats, {p: p for p in seats}
    names = ["pitcher's side", *(f"side {t + 1}" for t in range(1, len(teams)))]  # the pitcher's team first
    return seats, {p: names[t] for t, (_, members) in enumerate(teams) for p in members}


def settlement(ruleset: Ruleset, amount: int | str, took: int, made: bool | None = None) -> int:
    """The bidding side's gain when it bid `amount` and took `took`, settled by the engine (scoring.settle;
    `made`: whether a smudge was made, as smudge.needs asks, where that is more than its worth). Counting
    down, a score change towards 0 is a gain."""
    return match.gain(ruleset, scoring.settle(ruleset, amount, took, made))


def bids(ruleset: Ruleset) -> list[int | str]:
    """Every bid the pitcher may make: the numbers, and the smudge where the ruleset has one."""
    b = ruleset.settings["bidding"]
    out: list[int | str] = list(range(max(b["min"], 1), b["max"] + 1))
    if b["smudge"]:
        out.append("smudge")
    return out


def forced_draw(ruleset: Ruleset) -> bool:
    """Does every player throw the non-trumps after trump and draw back (a draw the cards decide)?"""
    return bool(ruleset.settings["draw"]["discard"] == "non-trumps")


def parse_hand_cards(ruleset: Ruleset, cards: str | Sequence[str]) -> tuple[Card, ...]:
    """The pitcher's cards, checked: cards of this deck, none twice, a whole hand (as dealt, where a forced
    draw comes before play)."""
    items = cards.replace(",", " ").split() if isinstance(cards, str) else list(cards)
    out: list[Card] = []
    for item in items:
        try:
            c = parse_card(item)
        except PitchError as e:
            raise e.at("cards") from None
        if c not in ruleset.deck:
            raise PitchError(f"{c} is not in {ruleset.name}'s deck ({ruleset.deck_words()})", "cards")
        if c in out:
            raise PitchError(f"{c} is given twice", "cards")
        out.append(c)
    d = ruleset.settings["deck"]
    if forced_draw(ruleset) and d["deal_size"] and d["deal_size"] != d["hand_size"]:
        if len(out) != d["deal_size"]:
            raise PitchError(f"{len(out)} cards given; {ruleset.name} deals {d['deal_size']} and draws before play: "
                             f"give the pitcher's {d['deal_size']} cards as dealt", "cards")
    elif len(out) != d["hand_size"]:
        raise PitchError(f"{len(out)} cards given; a hand in {ruleset.name} holds {d['hand_size']}", "cards")
    return tuple(out)


class Layout(NamedTuple):
    """One sample of the cards the pitcher cannot see: each other player's cards as dealt, and the stock
    left undealt in the order it would be dealt from."""

    hands: Mapping[str, tuple[Card, ...]]
    stock: tuple[Card, ...]


def bid_odds(cards: str | Sequence[str], rules: str | Ruleset, players: int | None = None, trump: str | None = None,
             samples: int = 200, seed: int | None = None, core: str | None = None) -> dict[str, Any]:
    """The `analyse odds` object (spec section 9). PitchError on bad input."""
    ruleset = rules if isinstance(rules, Ruleset) else rulesets.load(rules)
    seats, side_of = seating(ruleset, players)
    _sampled_fairly(ruleset, len(seats))
    hand = parse_hand_cards(ruleset, cards)
    if not isinstance(samples, int) or isinstance(samples, bool) or not 1 <= samples <= 100_000:
        raise PitchError(f"expected a number of layouts from 1 to 100000, got {samples!r}", "samples")
    if seed is None:
        seed = random.SystemRandom().randrange(1 << 31)
    elif not isinstance(seed, int) or isinstance(seed, bool):
        raise PitchError(f"expected a whole number, got {seed!r}", "seed")
    suits = SUITS if trump is None else (parse_suit(trump),)
    dealt = layouts(ruleset, hand, seats[1:], samples, seed)
    out: dict[str, Any] = {"rules": ruleset.name, "cards": list(hand), "samples": samples, "seed": seed,
                           "players": len(seats), "teams": len(set(side_of.values())) < len(seats)}
    draw = draw_words(ruleset)
    if draw:
        out["draw"] = draw
    smudge = Smudge(ruleset)
    notes = [*smudge.notes, *_seating_notes(ruleset)]
    if notes:
        out["notes"] = notes
    out["trumps"] = [_one_trump(ruleset, s, hand, seats, side_of, dealt, core, trump is not None, smudge) for s in suits]
    return out


def draw_words(ruleset: Ruleset) -> str:
    """How the odds treat a draw before play (empty: there is none)."""
    d = ruleset.settings["deck"]
    size, deal_size = d["hand_size"], d["deal_size"]
    if forced_draw(ruleset):
        rest = (f"; the pitcher then takes the rest of the stock and lays away down to {size}: its weakest non-trumps "
                "first (least for game, then lowest), then the trumps the lay-away rules let go, lowest first"
                if ruleset.settings["draw"]["rest"] else "")
        return (f"{ruleset.name} deals {deal_size or size} and draws after trump: in each layout every player, from the "
                f"pitcher's left and the pitcher last, throws what the rules make it throw (every non-trump, and "
                f"trumps beyond {size}) and is dealt back to {size} from the stock while it lasts{rest}")
    if deal_size and deal_size != size:
        return (f"{ruleset.name} deals {deal_size} cards and plays {size} after a discard and draw: the other "
                f"players' {size} cards are dealt at random from the cards the pitcher cannot see, as if drawn "
                "blind; real players keep their trumps, so the real odds are worse than these")
    return ""


def _seating_notes(ruleset: Ruleset) -> list[str]:
    g = ruleset.game_point
    if g is not None and g.tie == "elder":
        return ["a tie for game goes to the elder hand (points.game.tie): the pitcher is taken as the elder hand, "
                "the dealer on its right"]
    return []


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
                         "the cards held when play begins are unknown, so no odds are given", "rules")
    if ruleset.calls_partner(players):
        raise PitchError(f"{ruleset.name} calls a partner's card with {players} players (partner.counts): the odds "
                         "would need the card called, so none are given", "players")


def layouts(ruleset: Ruleset, hand: Sequence[Card], others: Sequence[str], samples: int, seed: int) -> list[Layout]:
    """`samples` deals of the cards the pitcher cannot see (the deck less its hand, jokers and all) to the
    other players, a hand each as the pitcher's was dealt; what is left is the undealt stock, in the order
    it is dealt from. One generator, seeded: repeatable."""
    size = len(hand)
    unseen = sorted(ruleset.deck - set(hand))
    rng = random.Random(seed)
    out = []
    for _ in range(samples):
        rng.shuffle(unseen)
        out.append(Layout({p: tuple(unseen[i * size:(i + 1) * size]) for i, p in enumerate(others)},
                          tuple(unseen[len(others) * size:])))
    return out


class Drawn(NamedTuple):
    """A forced draw played out: what each player holds as play begins, threw (or laid away), and drew."""

    held: dict[str, list[Card]]
    thrown: dict[str, list[Card]]
    drawn: dict[str, list[Card]]


def after_draw(ruleset: Ruleset, view: TrumpView, seats: Sequence[str], dealt: Mapping[str, Sequence[Card]],
               stock: Sequence[Card]) -> Drawn:
    """A forced draw (draw.discard = "non-trumps") played out: from the pitcher's left, the pitcher (seats[0])
    last, each throws what game.deal.must_throw says and is dealt back to the hand size from the stock while
    it lasts; with draw.rest the pitcher takes the rest and lays away by `pitcher_lays_away`."""
    keep = ruleset.settings["deck"]["hand_size"]
    held = {p: list(cs) for p, cs in dealt.items()}
    thrown: dict[str, list[Card]] = {p: [] for p in held}
    drawn: dict[str, list[Card]] = {p: [] for p in held}
    left = list(stock)
    for p in (*seats[1:], seats[0]):
        for c in must_throw(ruleset, view, held[p]):
            held[p].remove(c)
            thrown[p].append(c)
        got = left[:max(0, keep - len(held[p]))]
        del left[:len(got)]
        held[p] += got
        drawn[p] += got
    if ruleset.settings["draw"]["rest"] and left:
        pitcher = seats[0]
        held[pitcher] += left
        drawn[pitcher] += left
        for c in pitcher_lays_away(ruleset, view, held[pitcher], len(held[pitcher]) - keep):
            held[pitcher].remove(c)
            thrown[pitcher].append(c)
    return Drawn(held, thrown, drawn)


def pitcher_lays_away(ruleset: Ruleset, view: TrumpView, holding: Sequence[Card], n: int) -> list[Card]:
    """The odds' one choice in a forced draw: the `n` cards the pitcher lays away after taking the rest of the
    stock, of those the lay-away rules let go (game.deal.may_lay_away): its weakest non-trumps first (least
    for game, then lowest), then the trumps, lowest first (as the rules shed them)."""
    free = may_lay_away(ruleset, view, holding, ruleset.settings["deck"]["hand_size"])
    g = ruleset.game_point
    plain = sorted((c for c in free if view.suit[c] != TRUMP),
                   key=lambda c: (g.card_values.get(c, 0) if g else 0, view.plain_strength[c], c))
    return (plain + [c for c in free if view.suit[c] == TRUMP])[:max(0, n)]


class Smudge:
    """How a smudge (moon) bid is made and what it scores, as the engine settles it (scoring.bid_made,
    scoring._settle): what the solver must tell of a layout besides its value, and what the answer says."""

    def __init__(self, ruleset: Ruleset) -> None:
        self.ruleset = ruleset
        b = ruleset.settings["bidding"]
        self.on = bool(b["smudge"])
        house = "smudge-rules" in ruleset.features
        sm = ruleset.settings["smudge"]
        self.needs = sm["needs"] if house else "worth"
        self.name = b["smudge_name"]
        # a smudge that wins or loses the game at once has no score change to average
        self.ends_game = house and (sm["made"] == "win" or sm["set"] == "lose")
        pts = ruleset.raw.get("points", {})
        sweep = {"sweep": {"of": "all-tricks", "only_bidder": True}}
        # the same game with one point, for taking every trick (the engine's sweep kind): its value is 1
        # exactly when the bidding side can take every trick
        self.sweep = rulesets.compile_ruleset({**ruleset.raw, "points": sweep}) if "trick" in self.needs else None
        # every point that is out: the catalogue without the points for taking every trick
        self.no_sweep: Ruleset | None = None
        if self.needs == "every-point-out" and any(p.kind.sweep for p in ruleset.points):
            kept = {k: v for k, v in pts.items() if not (ruleset.by_id.get(k) and ruleset.by_id[k].kind.sweep)}
            self.no_sweep = rulesets.compile_ruleset({**ruleset.raw, "points": kept})

    @property
    def notes(self) -> list[str]:
        if not self.on:
            return []
        needs = {"worth": "", "every-point": "every point of the catalogue",
                 "every-point-out": "every point that is out (game included)", "every-trick": "every trick",
                 "every-point-and-trick": "every point and every trick"}[self.needs]
        out = []
        if needs:
            out.append(f"the {self.name} is made only by taking {needs} (smudge.needs), with every card known")
        if self.ends_game:
            out.append(f"the {self.name} wins or loses the game at once (smudge.made, smudge.set): its expected score "
                       "change is shown but it is never the best bid")
        return out

    def made(self, trump: str, deal: Deal, pos: Position, value: int, core: str | None) -> bool:
        """Is the smudge made in this layout (`value`: the bidding side's points with perfect play)?"""
        r = self.ruleset
        if self.needs == "worth":
            return value >= r.settings["bidding"]["smudge"]
        if self.needs in ("every-point", "every-point-and-trick") and value != r.max_points:
            return False
        if self.needs == "every-point-out":
            return self._every_point_out(trump, deal, pos, value, core)
        if self.sweep is None:
            return True
        return Solver(deal._replace(ruleset=self.sweep), pos, core).value() == 1

    def _every_point_out(self, trump: str, deal: Deal, pos: Position, value: int, core: str | None) -> bool:
        """Every point that is out: every card point of the cards in play (whoever it goes to) and game, the
        bidding side's in every line. With no game point, a defender's sweep could still score: it cannot
        once the bidding side takes a card point from its captor, which every point out then includes."""
        r = self.ruleset
        view = r.views[trump]
        held = frozenset(c for cs in pos.hands.values() for c in cs)
        cards = InPlay(view, held)
        out = 0
        captor = False
        for rule in r.points:
            if rule.kind.card is not None and rule.kind.card(rule, cards) is not None:
                out += rule.value
                captor = captor or rule.to != "dealt"
        g = r.game_point
        if g is not None:
            if not any(g.card_values.get(c, 0) for c in held):  # nothing counts: game goes to nobody
                return False
            out += g.value
        elif not captor and any(p.kind.sweep for p in r.points):
            raise PitchError(f"{r.name}: the odds cannot tell whether a defender takes every trick against a "
                             f"{self.name} that needs every point that is out; no odds are given", "rules")
        if self.no_sweep is not None:
            value = Solver(deal._replace(ruleset=self.no_sweep), pos, core).value()
        return out > 0 and value == out


def _one_trump(ruleset: Ruleset, trump: str, hand: tuple[Card, ...], seats: tuple[str, ...], side_of: dict[str, str],
               layouts: list[Layout], core: str | None, named: bool, smudge: Smudge) -> dict[str, Any]:
    view = ruleset.views[trump]
    lead = play.allowed(ruleset, view, hand, None, first=True)
    if play.sets_trump(ruleset) and not lead.cards:  # a trump the pitcher cannot make with the first card pitched
        why = f"the pitcher holds no card that can lead with {trump} trump ({lead.words})"
        if named:
            raise PitchError(why, "trump")
        return {"trump": trump, "possible": False, "why": why}
    deal = Deal(ruleset, trump, seats, side_of, side_of[PITCHER], dealer=seats[-1])
    draw = forced_draw(ruleset)
    short = ruleset.settings["deck"]["hand_size"]
    top = ruleset.max_points
    tally = [0] * (top + 1)
    values: list[int] = []
    smudged: list[bool] = []
    dropped = 0
    shared = Shared(deal)  # the side points of each summary of what was taken, for every layout
    for layout in layouts:
        held: Mapping[str, Sequence[Card]] = {PITCHER: hand, **layout.hands}
        if draw:
            held = after_draw(ruleset, view, seats, held, layout.stock).held
            if not ruleset.trump_only and any(len(cs) != short for cs in held.values()):
                dropped += 1  # the stock ran out: a short hand, which suit-following play does not deal
                continue
        pos = start_of_play(deal, held, PITCHER)
        v = Solver(deal, pos, core, shared=shared).value()
        values.append(v)
        tally[min(v, top)] += 1
        if smudge.on:
            smudged.append(smudge.made(trump, deal, pos, v, core))
    k = len(values)
    if not k:
        return {"trump": trump, "possible": False, "why": f"the stock ran out before every hand was dealt back to "
                                                          f"{short} in each of the {dropped} layouts"}
    make: dict[str, float] = {}
    expected: dict[str, float] = {}
    for b in bids(ruleset):
        if b == "smudge":
            make[str(b)] = sum(smudged) / k
            expected[str(b)] = sum(settlement(ruleset, b, v, m) for v, m in zip(values, smudged, strict=True)) / k
        else:
            make[str(b)] = sum(1 for v in values if v >= int(b)) / k
            expected[str(b)] = sum(settlement(ruleset, b, v) * tally[v] for v in range(top + 1)) / k
    candidates = [b for b in bids(ruleset) if not (b == "smudge" and smudge.ends_game)]
    best = max(candidates, key=lambda b: (expected[str(b)], -candidates.index(b)))
    out = {"trump": trump, "possible": True,
           "points": {str(v): round(tally[v] / k, 4) for v in range(top + 1)},
           "make": {b: round(x, 4) for b, x in make.items()},
           "mean": round(sum(values) / k, 4),
           "expected": {b: round(x, 4) for b, x in expected.items()},
           "best_bid": best}
    if draw:
        out["layouts"] = k  # those whose draw dealt every hand back in full
        if dropped:
            out["dropped"] = dropped
    return out
