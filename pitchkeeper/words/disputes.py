"""The table's usual arguments (the rules digest's disputes D1-D24), answered from a ruleset's data.

Each topic reads only the ruleset's settings and point catalogue, never its name, so a house ruleset gets
answers of its own. Examples use spades as trump and real cards of the ruleset's deck; where a follow rule
is at stake the example is worked out by the play model itself (`play.allowed`), so the words cannot drift
from what `judge` decides."""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from pitchkeeper.errors import PitchError, nearest, or_list
from pitchkeeper.game import vocabulary
from pitchkeeper.game.cards import PARTNER_SUIT, SUIT_NAMES, Card, pretty
from pitchkeeper.game.kinds import KINDS
from pitchkeeper.game.play import TRUMP, allowed, card_list, first_lead_suits
from pitchkeeper.game.rulesets import PointRule, Ruleset, symbol_card
from pitchkeeper.words.explain import symbol_words

SAMPLE = "S"  # examples are told with spades as trump
PARTNER = PARTNER_SUIT[SAMPLE]


class Answer(NamedTuple):
    """One ruleset's answer to one dispute."""

    topic: str
    question: str
    dispute: str  # the rules digest's number for it (D1...), or its section
    summary: str  # one line, for the list of topics
    answer: str  # the answer in plain words
    example: str  # one line, with cards where useful
    keys: tuple[str, ...]  # the ruleset settings the answer is drawn from

    def to_json(self, rules: str) -> dict[str, object]:
        return {"rules": rules, "topic": self.topic, "question": self.question, "dispute": self.dispute,
                "summary": self.summary, "answer": self.answer, "example": self.example, "from": list(self.keys)}


class Parts(NamedTuple):
    """What a topic's answer is made of, for one ruleset."""

    summary: str  # one line, for the list of topics
    answer: str  # the answer in plain words
    example: str  # one line, with cards where useful
    keys: tuple[str, ...]  # the ruleset settings the answer is drawn from


class Topic(NamedTuple):
    id: str
    question: str
    dispute: str
    aliases: tuple[str, ...]
    answer: Callable[[Ruleset], Parts]


# ---------------------------------------------------------------------------
# Helpers: sample cards from the ruleset's own deck


def _trump(r: Ruleset, sym: str) -> Card:
    return symbol_card(sym, SAMPLE)


def _plain(r: Ruleset, suit: str, k: int = 1, high: bool = False) -> list[Card]:
    """`k` cards of `suit` that stay in their suit with spades trump, low ones first (or high)."""
    view = r.views[SAMPLE]
    ranks = r.settings["play"]["plain_order"]
    cards = [rk + suit for rk in (ranks if high else reversed(ranks))
             if rk + suit in r.deck and view.suit[rk + suit] != TRUMP]
    return cards[:k]


def _lowest_trump(r: Ruleset) -> Card:
    return _trump(r, r.settings["trump"]["order"][-1])


def _partners(r: Ruleset) -> bool:
    """Whether the usual game (the first of `players.team_sizes`) is played in partnerships."""
    return r.settings["players"]["team_sizes"][0] > 1


def _sides(r: Ruleset) -> tuple[str, str]:
    return ("Us", "Them") if _partners(r) else ("Ann", "Bob")


def _who(r: Ruleset, player: str) -> str:
    """'Ann', or in partnership play 'Ann's side (Us)': Ann and Cy are Us, Bob and Dee Them."""
    if not _partners(r):
        return player
    return f"{player}'s side ({'Us' if player in ('Ann', 'Cy') else 'Them'})"


def _game_is(side: str) -> str:
    return f"the game goes to {side}"


def _bid(r: Ruleset) -> int:
    """A middling bid of this ruleset, for examples."""
    b = r.settings["bidding"]
    return min(max(b["min"], 3), b["max"])


def _short(sym: str) -> str:
    """'the off-jack', 'the high joker', 'the ten of trumps'."""
    return vocabulary.symbol_words(sym)


def _may(r: Ruleset, holding: list[Card], led: str | None) -> str:
    """What the play model allows from `holding`, in words."""
    a = allowed(r, r.views[SAMPLE], holding, led)
    if len(a.cards) == len(holding):
        return "may play any card"
    if not a.cards:
        return "may play nothing (folds)"
    return f"must play {' or '.join(pretty(c) for c in a.cards)}" if len(a.cards) <= 2 else \
        f"must play one of {card_list(a.cards)}"


def _points(r: Ruleset, of: str) -> list[PointRule]:
    """The ruleset's points of one kind: a topic is a dispute about a particular kind of point."""
    assert of in KINDS, of  # a topic names a registered kind (game.kinds)
    return [p for p in r.points if p.of == of]


def _game_points(r: Ruleset) -> list[PointRule]:
    return [p for p in r.points if p.kind.game]


def _card_point(r: Ruleset, sym: str) -> PointRule | None:
    """The point for one particular card (a kind that takes `card`), if any."""
    return next((p for p in r.points if "card" in p.kind.keys and p.card == sym), None)


def _worth(n: int) -> str:
    return f"{n} point" + ("" if n == 1 else "s")


def _to(p: PointRule) -> str:
    return "the player dealt it" if p.to == "dealt" else "whoever captures it"


def _order_words(order: list[str], sym: str) -> str:
    i = order.index(sym)
    above = f"below {_short(order[i - 1])}" if i else "the highest trump"
    below = f" and above {_short(order[i + 1])}" if i + 1 < len(order) else " (the lowest trump)"
    return f"{above}{below}"


# ---------------------------------------------------------------------------
# The topics


def _off_jack(r: Ruleset) -> Parts:
    order = r.settings["trump"]["order"]
    jack = "J" + PARTNER
    filler = _plain(r, "H") + _plain(r, "D")
    keys: tuple[str, ...] = ("trump.order", "play.follow")
    if jack not in r.deck:
        return Parts("no jacks in this deck", "The deck has no jacks, so there is no off-jack.",
                "-", ("deck.ranks",))
    holding = [jack, *filler]
    club_lead = _may(r, holding, PARTNER)
    if "off-J" not in order:
        return Parts(f"no off-jack: {pretty(jack)} stays an ordinary {SUIT_NAMES[PARTNER][:-1]}",
                "No. There is no off-jack: the jack of the suit of the same colour as trumps is an ordinary card "
                "of its own suit, and scores nothing special.",
                f"spades trump: {pretty(jack)} is a {SUIT_NAMES[PARTNER][:-1]}, so a player holding "
                f"{card_list(holding)} {club_lead} to a {SUIT_NAMES[PARTNER][:-1]} lead", keys)
    extra = [s for s in order if s.startswith("off-") and s != "off-J"]
    also = ""
    if extra:
        also = " " + " ".join(f"{_short(s).capitalize()} ({pretty(_trump(r, s))} with spades trump) is a trump "
                              f"too, ranking {_order_words(order, s)}." for s in extra)
    pt = _card_point(r, "off-J")
    scores = f" Whoever captures it scores {_worth(pt.value)} (off-jack)." if pt else ""
    g = _game_points(r)
    count = f" It counts {g[0].counts.get('J', 0)} toward game, like any jack." if g else ""
    follow = (f"a player whose only {SUIT_NAMES[PARTNER][:-1]} is {pretty(jack)} "
              f"{club_lead} to a {SUIT_NAMES[PARTNER][:-1]} lead")
    note = f"{pretty(jack)} is a {SUIT_NAMES[SAMPLE][:-1]} for this hand"
    answer = (f"Yes. The off-jack (the jack of the other suit of trump's colour) is a trump, ranking "
              f"{_order_words(order, 'off-J')}. It leaves its printed suit for the hand: it never follows that "
              f"suit, and when trump is led it is a trump that must be played by a player with no other."
              f"{scores}{count}{also}")
    if r.settings["play"]["follow"] == "trump-only":
        follow = f"a player holding {card_list(holding)} {_may(r, holding, TRUMP)} (only trumps are played)"
        note = f"{pretty(jack)} is a trump for this hand"
    return Parts(f"yes: {pretty(jack)} is a trump with spades trump and leaves its suit",
            answer, f"spades trump: {note}, so {follow}", (*keys, *(("points.off-jack",) if pt else ())))


def _jokers(r: Ruleset) -> Parts:
    order = r.settings["trump"]["order"]
    jokers = [s for s in order if s in ("HJ", "LJ", "JK")]
    if not jokers:
        return Parts("no jokers in this deck", f"There are no jokers: the deck is {len(r.deck)} cards, and a joker "
                "in a record is an error.", "HJ in a hand record: not a card of this deck", ("deck.jokers",))
    places = "; ".join(f"{_short(j)} ({j}) ranks {_order_words(order, j)}" for j in jokers)
    pts = [p for p in r.points if "card" in p.kind.keys and p.card in jokers]
    scoring = (" " + "; ".join(f"{_short(p.card)} scores {_worth(p.value)} to {_to(p)}" for p in pts)
               .capitalize() + ".") if pts else " No point is scored for a joker itself."
    lows = _points(r, "lowest-trump")
    low = ""
    if lows:
        never = [j for j in jokers if j in lows[0].skip]
        low = (" A joker never counts as low." if len(never) == len(jokers) else
               " A joker can be low only when no lower trump is in play.")
    g = _game_points(r)
    game = ""
    if g:
        vals = {j: g[0].counts.get(j, 0) for j in jokers}
        game = (" Jokers count nothing toward game." if not any(vals.values()) else
                " Toward game: " + ", ".join(f"{j} {v}" for j, v in vals.items()) + ".")
    lead = ""
    if r.settings["trump"]["set_by"] != "named":
        lead = (f" Pitched first, a joker could make {or_list([SUIT_NAMES[s] for s in first_lead_suits(r, jokers[0])])} "
                "trump, so the pitcher names the suit.")
    joker = jokers[-1]
    holding = [joker, *_plain(r, "H"), *_plain(r, "D")]
    return Parts(f"{', '.join(jokers)}: always trumps, {_order_words(order, jokers[0])}",
            f"Jokers are always trumps and belong to no plain suit: {places}.{scoring}{low}{game}{lead}",
            f"spades trump, trump led: a player holding {card_list(holding)} {_may(r, holding, TRUMP)}",
            ("trump.order", "deck.jokers", "points", "trump.set_by"))


def _follow(r: Ruleset) -> Parts:
    f = r.settings["play"]["follow"]
    holding = [*_plain(r, "H"), _lowest_trump(r), *_plain(r, "D")]
    ex = f"spades trump, hearts led: a player holding {card_list(holding)} {_may(r, holding, 'H')}"
    if f == "suit-or-trump":
        return Parts("yes: follow suit or trump, even when able to follow",
                "Yes. To a plain-suit lead a player may follow suit or play a trump, even while holding the suit "
                "led; a player with neither may play any card.", ex, ("play.follow",))
    if f == "suit":
        return Parts("no: follow suit when able; trump only when out of the suit led",
                "No. To a plain-suit lead a player holding that suit must follow it; only a player out of it may "
                "trump (or throw any card).", ex, ("play.follow",))
    return Parts("the question does not arise: only trumps are played",
            "The question does not arise: only trumps are ever played, and a player out of trumps folds.",
            f"spades trump: a player holding {card_list(holding)} {_may(r, holding, 'H')}", ("play.follow",))


def _trump_lead(r: Ruleset) -> Parts:
    order = r.settings["trump"]["order"]
    odd = [s for s in order if s.startswith("off-") or s in ("HJ", "LJ", "JK")]
    special = _trump(r, odd[-1]) if odd else _lowest_trump(r)
    holding = [special, *_plain(r, PARTNER if not odd else "H"), *_plain(r, "D")]
    counts = f" ({or_list([vocabulary.symbol_words(s) for s in odd])} included)" if odd else ""
    ex = f"spades trump, trump led: a player holding {card_list(holding)} {_may(r, holding, TRUMP)}"
    if r.settings["play"]["follow"] == "trump-only":
        return Parts("only trumps are played; a player with none folds",
                f"Only trumps are ever played{counts}, so nobody throws off a plain card: a player out of trumps "
                "folds.", ex, ("play.follow", "trump.order"))
    return Parts("no: a player holding a trump must play one",
            f"No. When trump is led, a player holding any trump{counts} must play a trump; only a player with none "
            "may play another card.", ex, ("play.follow", "trump.order"))


def _fold(r: Ruleset) -> Parts:
    size = r.settings["deck"]["hand_size"]
    if r.settings["play"]["follow"] != "trump-only":
        return Parts("nobody folds: every player plays to every trick",
                f"Nobody folds: every player plays a card to each of the {size} tricks, and the winner of a "
                "trick leads the next.",
                f"{size} tricks: each player plays all {size} cards", ("play.follow", "deck.hand_size"))
    t = _trump(r, r.settings["trump"]["order"][-2])
    return Parts("a player out of trumps folds; the next player still in leads",
            "Only trumps are played. A player out of trumps folds and takes no further part in the hand. If the "
            "winner of a trick has folded, the lead passes clockwise to the next player still holding a trump. "
            "Play goes on until every trump is played.",
            f"Ann wins a trick with her last trump; Bob, on her left, still holds {pretty(t)}, so Bob leads next "
            f"(record it as \"Bob:{t}\" and leave Ann out)", ("play.follow",))


def _first_lead(r: Ruleset) -> Parts:
    pl = r.settings["play"]
    by = r.settings["trump"]["set_by"]
    who = "The pitcher" if pl["first_leader"] == "bidder" else "The player on the dealer's left"
    keys = ("play.first_leader", "play.first_lead_trump", "trump.set_by")
    jack = "J" + PARTNER
    if by == "named":
        if not pl["first_lead_trump"]:
            return Parts("trump is named first; any card may lead",
                    f"The pitcher names trump before play; {who.lower()} leads the first trick with any card.",
                    "spades named: any first lead is legal", keys)
        return Parts("trump is named first; the first lead must be a trump",
                f"The pitcher names trump before play; {who.lower()} leads the first trick, and must lead a trump "
                "when holding one.",
                f"spades named: a first lead of {pretty(_plain(r, 'H')[0])} by a pitcher holding "
                f"{pretty(_lowest_trump(r))} is illegal", keys)
    ambiguous = [c for c in (jack, "HJ", "LJ", "JK") if c in r.deck and len(first_lead_suits(r, c)) > 1]
    if by == "first-lead-announced":
        how = ("the first card pitched sets trump; when it could belong to more than one suit (a joker, or a jack "
               "that could be the off-jack) the pitcher announces which")
    else:
        how = "the first card pitched sets trump: its own suit" + (
            " (a joker has none, so the pitcher names it)" if any(c in r.deck for c in ("HJ", "LJ", "JK")) else "")
    answer = (f"{who} leads first, and {how}. The first lead must therefore be a trump: a card that cannot belong "
              "to the trump named in the record is an illegal first lead.")
    if ambiguous:
        c = ambiguous[0]
        ex = (f"{pretty(c)} pitched first makes {or_list([SUIT_NAMES[s] for s in first_lead_suits(r, c)])} trump: "
              "the pitcher says which, and the record's trump decides")
    else:
        suits = first_lead_suits(r, jack) if jack in r.deck else ()
        ex = (f"{pretty(jack)} pitched first makes {or_list([SUIT_NAMES[s] for s in suits])} trump, and is its jack"
              if suits else "the first card's suit is trump")
    return Parts("the pitcher's first card sets trump" + (" (announced when unclear)" if ambiguous else ""),
            answer, ex, keys)


def _low(r: Ruleset) -> Parts:
    lows = _points(r, "lowest-trump")
    if lows:
        p = lows[0]
        c = _lowest_trump(r)
        skip = f" It is never {', '.join(symbol_words(s) for s in p.skip)}." if p.skip else ""
        who = _who(r, "Ann") if p.to == "dealt" else _who(r, "Bob")
        return Parts(f"to {_to(p)}",
                f"Low ({_worth(p.value)}, the lowest trump in play) goes to {_to(p)}.{skip} It only matters when the "
                "lowest trump falls into a trick won by another side.",
                f"spades trump: Ann was dealt {pretty(c)}, the lowest trump out, and Bob won the trick it fell in: "
                f"low goes to {who}", (f"points.{p.id}.to",))
    deuce = _card_point(r, "2")
    if deuce:
        c = _trump(r, "2")
        who = _who(r, "Ann") if deuce.to == "dealt" else _who(r, "Bob")
        return Parts(f"no low as such; the deuce of trumps to {_to(deuce)}",
                f"There is no low point as such: the deuce (two) of trumps scores {_worth(deuce.value)} to "
                f"{_to(deuce)}, whether or not a lower card is in play.",
                f"spades trump: Ann was dealt {pretty(c)} and Bob won the trick it fell in: the point goes to {who}",
                (f"points.{deuce.id}.to",))
    return Parts("there is no low point", "This ruleset scores no low point.", "-", ("points",))


def _high(r: Ruleset) -> Parts:
    highs = _points(r, "highest-trump")
    if highs:
        p = highs[0]
        order = r.settings["trump"]["order"]
        second = _trump(r, order[1])
        return Parts(f"to {_to(p)}; holding and winning it are the same",
                f"High ({_worth(p.value)}, the highest trump in play) goes to {_to(p)}. The top trump always wins "
                "its own trick, so the player who held it is the player who wins it.",
                f"spades trump, {pretty(_trump(r, order[0]))} not dealt: {pretty(second)} is high and wins whatever "
                "trick it is played to", (f"points.{p.id}",))
    ace = _card_point(r, "A")
    if ace:
        return Parts(f"no high as such; the ace of trumps to {_to(ace)}",
                f"There is no high point as such: the ace of trumps scores {_worth(ace.value)} to {_to(ace)}, "
                "and nothing is scored for the highest trump when the ace is not out.",
                f"spades trump, {pretty(_trump(r, 'A'))} not dealt: nobody scores it", (f"points.{ace.id}",))
    return Parts("there is no high point", "This ruleset scores no high point.", "-", ("points",))


def _lone_trump(r: Ruleset) -> Parts:
    highs, lows = _points(r, "highest-trump"), _points(r, "lowest-trump")
    keys = ("points",)
    if not highs or not lows:
        return Parts("does not arise: points are for particular cards",
                "It does not arise: this ruleset scores particular trumps (the ace, the deuce...), not the highest "
                "and lowest in play, so a lone trump scores only what that card scores.", "-", keys)
    h, lo = highs[0], lows[0]
    if lo.apart:
        return Parts(f"high only ({_worth(h.value)})", f"No: a lone trump is high only ({_worth(h.value)}), not low too.",
                f"spades trump, only {pretty(_trump(r, 'J'))} out: high to its holder, no low", keys)
    both = h.value + lo.value
    jack = _card_point(r, "J")
    jack_words = ""
    ex = f"spades trump, only {pretty(_trump(r, '9'))} out: {_worth(both)} (high and low) to its holder" \
        if _trump(r, "9") in r.deck else f"spades trump, one trump out: {_worth(both)} to its holder"
    if jack:
        jack_words = f"; if it is the jack of trumps, {_worth(both + jack.value)} (high, low and jack)"
        ex = f"spades trump, only {pretty(_trump(r, 'J'))} out: high, low and jack, {_worth(both + jack.value)} " \
             "to its holder"
    return Parts(f"yes: high and low, {_worth(both)}",
            f"Yes: the only trump in play is both the highest and the lowest, so it scores high and low, "
            f"{_worth(both)}{jack_words}. A lone trump wins its own trick, so dealt and captured are the same "
            "player.", ex, keys)


def _jack_out(r: Ruleset) -> Parts:
    jack = _card_point(r, "J")
    total = r.max_points
    b = r.settings["bidding"]
    if not jack:
        return Parts("there is no jack point", "This ruleset scores no point for the jack of trumps.", "-", ("points",))
    left = total - jack.value
    top = b["smudge"] or b["max"]
    name = b["smudge_name"] if b["smudge"] else str(b["max"])
    fail = [x for x in range(b["min"], b["max"] + 1) if x > left]
    if b["smudge"] and b["smudge"] > left:
        fail.append(b["smudge"])
    can = (f"bids above {left} ({or_list([str(x) if x != b['smudge'] else name for x in fail])}) cannot be made"
           if fail else f"every bid up to {top} can still be made")
    return Parts(f"nobody scores it; at most {left} points are out, so {can}",
            f"If the jack of trumps is not dealt, nobody scores its point: at most {_worth(left)} of the "
            f"{total} are out that hand, so {can}.",
            f"spades trump, {pretty(_trump(r, 'J'))} left in the stock: a side taking every other point has {left}",
            ("points", "bidding.max", "bidding.smudge"))


def _game_tie(r: Ruleset) -> Parts:
    g = _game_points(r)
    if not g:
        return Parts("there is no game point", "This ruleset has no game point: its points are for particular cards.",
                "-", ("points",))
    p = g[0]
    counts = ", ".join(f"{k} {v}" for k, v in p.counts.items() if v)
    a, b = _sides(r)
    need = ("more than half of all the counting cards" if p.need == "majority"
            else "the single highest count (with three or more sides a plurality is enough)")
    ex = f"{a} 13, {b} 13: nobody scores game"
    if not _partners(r):
        ex += "; Ann 15, Bob 12, Cy 8: " + ("Ann scores it (most of all)" if p.need == "plurality"
                                            else "nobody (15 is not more than half of 35)")
    return Parts("a tie scores nobody", f"A tie for the most scores nobody. Game goes to {need}; it counts {counts}.",
            ex, (f"points.{p.id}.tie", f"points.{p.id}.need", f"points.{p.id}.counts"))


def _smudge(r: Ruleset) -> Parts:
    b = r.settings["bidding"]
    if not b["smudge"]:
        return Parts(f"no {b['smudge_name']} bid: bids {b['min']} to {b['max']}",
                f"There is no {b['smudge_name']} (moon) bid: bids run from {b['min']} to {b['max']}, and taking "
                "everything scores only the points taken.", "-", ("bidding.smudge",))
    total = r.max_points
    sweep = _points(r, "all-tricks")
    needs = (f"every point, {sweep[0].label} included" if b["smudge"] >= total and sweep else
             f"{b['smudge']} of the {total} points")
    size = r.settings["deck"]["hand_size"]
    return Parts(f"a bid worth {b['smudge']}: it needs {needs}",
            f"{b['smudge_name'].capitalize()} is a bid worth {b['smudge']}, above every number: the bidding side "
            f"must take {needs}; made, it scores what it took, set, it loses {b['smudge']}.",
            f"{_sides(r)[0]} bid {b['smudge_name']} and took every point and all {size} tricks: +{total}; one "
            f"point short: -{b['smudge']}", ("bidding.smudge", "points"))


def _sweep(r: Ruleset) -> Parts:
    sweep = _points(r, "all-tricks")
    size = r.settings["deck"]["hand_size"]
    if not sweep:
        return Parts("no point for taking every trick", "Taking every trick scores nothing extra.", "-", ("points",))
    p = sweep[0]
    who = "the bidding side" if p.only_bidder else "any side"
    return Parts(f"yes: {_worth(p.value)} to {who} for all {size} tricks, smudge bid or not",
            f"Yes: {who} taking all {size} tricks scores {_worth(p.value)} more ({p.label}), whatever it bid.",
            f"{_sides(r)[0]} bid {_bid(r)} and took all {size} tricks: {p.label} +{p.value}", (f"points.{p.id}",))


def _setback(r: Ruleset) -> Parts:
    st = r.settings["settle"]
    a, b = _sides(r)
    set_back = st["setback"] == "bid"
    n = _bid(r)
    ex = f"{a} bid {n} and took {n - 1}: {a} " + (f"-{n}" if set_back else "+0")
    if st["defenders_score"]:
        ex += f"; {b}, who took 1, +1"
    return Parts("no: it scores nothing" + (" and is set back the amount bid" if set_back else ""),
            "No. A bidding side short of its bid scores none of the points it took"
            + (" and is set back the amount bid. " if set_back else ". ")
            + ("The other sides still score what they took." if st["defenders_score"]
               else "The other sides score nothing either."),
            ex, ("settle.setback", "settle.defenders_score"))


def _negative(r: Ruleset) -> Parts:
    a, n = _sides(r)[0], _bid(r)
    if r.settings["settle"]["negative"]:
        return Parts("yes: scores may go below zero", "Yes: a score may go below zero (\"in the hole\").",
                f"{a}, on 1, bid {n} and got set: {a} now on {1 - n}", ("settle.negative",))
    return Parts("no: scores stop at zero", "No: a score never goes below zero.",
            f"{a}, on 1, bid {n} and got set: {a} now on 0", ("settle.negative",))


def _all_pass(r: Ruleset) -> Parts:
    b = r.settings["bidding"]
    forced = b["forced_bid"] or b["min"]
    if b["all_pass"] == "dealer-forced":
        return Parts(f"the dealer is stuck and must bid at least {forced}",
                f"If all the others pass, the dealer is stuck: the dealer must bid at least {forced}"
                + (f" ({b['min']} is not enough)" if forced > b["min"] else "") + ".",
                f"Bob, Cy and Dee pass: Ann, the dealer, must bid {forced} or more", ("bidding.all_pass",
                                                                                    "bidding.forced_bid"))
    if b["all_pass"] == "redeal":
        return Parts("the hand is thrown in and dealt again", "If everyone passes, the hand is thrown in and dealt "
                "again.", "all four pass: no score, a new deal", ("bidding.all_pass",))
    return Parts("the eldest hand pitches without a contract",
            "If nobody bids, the eldest hand (left of the dealer) pitches without having to make anything: it "
            "cannot be set back (record the bid as 0).",
            "everyone passes: Bob, left of the dealer, pitches; bid = { player = \"Bob\", amount = 0 }",
            ("bidding.all_pass",))


def _steal(r: Ruleset) -> Parts:
    b = r.settings["bidding"]
    last = "the eldest hand" if b["auction"] == "sell-out" else "the dealer"
    top = b["smudge_name"] if b["smudge"] else str(b["max"])
    low = max(b["min"], min(3, b["max"] - 1))
    if b["steal"] == "none":
        return Parts(f"no: {last} must outbid like everyone else",
                f"No. {last.capitalize()} has no privilege: to take the contract, bid higher.",
                f"Bob bids {low}: the dealer must bid {low + 1} to take it", ("bidding.steal",))
    if b["steal"] == "below-top":
        return Parts(f"yes, by equalling any bid but the top ({top})",
                f"Yes. {last.capitalize()}, speaking last, may take the contract by equalling the highest bid, "
                f"except the top bid ({top}), which nobody can take away.",
                f"Bob bids {low}: the dealer may say {low} and pitch; Bob bids {top}: the dealer cannot take it",
                ("bidding.steal",))
    return Parts("yes, by equalling the high bid at any level",
            f"Yes. {last.capitalize()}, speaking last, may take the contract by equalling the highest bid, even "
            f"the top bid ({top}).", f"Bob bids {top}: {last} may say {top} and pitch", ("bidding.steal",))


def _sell_out(r: Ruleset) -> Parts:
    b = r.settings["bidding"]
    if b["auction"] != "sell-out":
        return Parts("no sale: one round of bidding", "There is no sale: the auction is one round of bidding from the "
                "dealer's left, each bid higher than the last.", "-", ("bidding.auction",))
    at_once = (f" Pitching at once, without offering it, the eldest must make {b['pitch_at_once']}."
               if b["pitch_at_once"] else "")
    credit = {"none": "The seller scores nothing for the sale.",
              "seller": "The seller scores the price of the sale at once.",
              "buyer": "If the eldest keeps the pitch at the top price, the top bidder scores that price."}
    return Parts("the eldest pitches or sells; " + {"none": "a sale scores nothing", "seller": "the seller scores the price",
                                                "buyer": "keeping it credits the bidder"}[b["sale_credit"]],
            f"The eldest hand owns the pitch: it may pitch at once or offer it for sale; the others bid once each, "
            f"and the eldest then sells to the top bidder or keeps the pitch by undertaking as many.{at_once} "
            f"{credit[b['sale_credit']]}",
            "Ann (eldest) passes, Bob bids 2, Cy 3: Ann sells to Cy, or keeps the pitch and must make 3",
            ("bidding.auction", "bidding.pitch_at_once", "bidding.sale_credit", "bidding.steal"))


_PRECEDENCE = {
    "bidder": "the bidding side goes out first, even with fewer points",
    "higher": "the higher total wins",
    "count-out": "the points are counted in order ({order}) and the first side there wins",
}


def _both_over(r: Ruleset) -> Parts:
    w = r.settings["win"]
    a, b = _sides(r)
    t = w["target"]
    if w["only_bidder"]:
        return Parts("only the bidding side can win, so the others' totals do not matter",
                "Only the bidding side can win, at the end of a hand it bid, so a defender over the target does not "
                "win; the bidding side wins even with fewer points.",
                f"{b} on {t + 2}, {a} bid, made it and reached {t + (1 if w['reach'] == 'exceed' else 0)}: "
                f"{_game_is(a)}",
                ("win.only_bidder",))
    steps = "; then ".join(_PRECEDENCE[x].format(order=", ".join(w["count_out"])) for x in w["precedence"])
    first = w["precedence"][0]
    outcome = {"bidder": _game_is(a),
               "higher": f"{_game_is(b)} (higher)" + (f"; level at {t + 1}, it would be {a}'s"
                                                       if w["precedence"][1:2] == ["bidder"] else ""),
               "count-out": f"count {', '.join(w['count_out'])} in order: the first side to {t} wins"}[first]
    ex = f"{a} (bidding) reached {t} and {b} {t + 2} in the same hand: {outcome}"
    return Parts(_PRECEDENCE[first].format(order=", ".join(w["count_out"])),
            f"When several sides get there in the same hand: {steps}.", ex, ("win.precedence", "win.count_out"))


def _defenders(r: Ruleset) -> Parts:
    w = r.settings["win"]
    a, b = _sides(r)
    t = w["target"]
    if w["only_bidder"]:
        made = " and only if it made its bid" if w["bidder_must_make"] else ""
        return Parts("no: only the bidding side can win",
                f"No. Only the bidding side can win, at the end of a hand it bid{made}; the winner may have fewer "
                "points than a loser.",
                f"{b} reached {t + 3} while defending: no win yet; a hand later {a} bid, made it and reached "
                f"{t + (1 if w['reach'] == 'exceed' else 0)}: {_game_is(a)}",
                ("win.only_bidder", "win.bidder_must_make"))
    return Parts("yes: any side that gets there wins",
            "Yes. Any side that reaches the target wins, bidding or not.",
            f"{b} reached {t + (1 if w['reach'] == 'exceed' else 0)} while defending: {_game_is(b)}",
            ("win.only_bidder",))


def _reach(r: Ruleset) -> Parts:
    w = r.settings["win"]
    t = w["target"]
    if w["reach"] == "reach":
        return Parts(f"reach: {t} is enough", f"Reaching the target is enough: {t} or more wins.",
                f"a side on exactly {t}: it has won", ("win.reach", "win.target"))
    return Parts(f"exceed: {t} is not enough, {t + 1} is", f"The target must be passed: more than {t} wins, {t} "
            "does not.", f"a side on exactly {t}: not yet; on {t + 1}: won", ("win.reach", "win.target"))


def _a_revoke(r: Ruleset) -> str:
    """A play the follow rules forbid, worked out by the play model: 'Bob held 2♥ but played 2♦ to a heart lead'."""
    holding = [*_plain(r, "H"), _lowest_trump(r), *_plain(r, "D")]
    ok = allowed(r, r.views[SAMPLE], holding, "H").cards
    bad = next(c for c in holding if c not in ok)
    return f"Bob held {card_list(holding)} and played {pretty(bad)} to a heart lead (spades trump)"


def _revoke(r: Ruleset) -> Parts:
    rv = r.settings["revoke"]
    keys = ("revoke.setback", "revoke.points", "revoke.offender_scores", "revoke.counters", "revoke.bidder_excused")
    judged = (" pitchkeeper finds a revoke in a hand record with tricks and held cards (judge hand lists it under "
              "illegal) or takes it from the record's revokes.")
    if rv["setback"] == "none":
        return Parts("no penalty in these rules", "These rules set no penalty for a revoke (a play against the follow "
                f"rules): the hand scores as played.{judged}",
                f"{_a_revoke(r)}: reported, the score unchanged",
                keys)
    cost = "the amount bid" if rv["setback"] == "bid" else _worth(rv["points"])
    extra = []
    if not rv["offender_scores"]:
        extra.append("scores nothing of its own that hand")
    if rv["counters"]:
        extra.append(f"forfeits {rv['counters']} {r.settings['stakes']['unit']} to the pool")
    excused = " The bidder is not set back for failing when another player revoked." if rv["bidder_excused"] else ""
    n = _bid(r) if rv["setback"] == "bid" else rv["points"]
    return Parts(f"the offender is set back {cost}",
            f"A player who revokes is set back {cost}" + (" and " + " and ".join(extra) if extra else "")
            + f".{excused}{judged}",
            f"Ann bid {_bid(r)}; {_a_revoke(r)}: {_who(r, 'Bob')} -{n}"
            + (f" and {rv['counters']} {r.settings['stakes']['unit']}" if rv["counters"] else ""), keys)


TOPICS: tuple[Topic, ...] = (
    Topic("off-jack", "Is the off-jack a trump, and must it follow its printed suit?", "D1",
          ("jick", "left-bower", "jack-of-colour", "jack-of-color", "off-ace", "off-three"), _off_jack),
    Topic("jokers", "Where do jokers rank; do they score, count for game, or count as low?", "D14",
          ("joker", "high-joker", "low-joker"), _jokers),
    Topic("follow", "May I trump when I could follow suit?", "D4",
          ("trumping", "trump-anytime", "must-follow", "following"), _follow),
    Topic("trump-lead", "When trump is led, may I throw off a plain card while holding trump?", "D5",
          ("must-follow-trump", "throw-off"), _trump_lead),
    Topic("fold", "What happens to a player out of trumps, and who leads then?", "1.4",
          ("folding", "trump-only", "out-of-trumps", "leader"), _fold),
    Topic("first-lead", "Must the first lead be trump? What if it is a joker or a jack of either colour?", "D15",
          ("pitch", "first-trick", "announce", "opening-lead"), _first_lead),
    Topic("low", "Who gets low: the player dealt it or the one who captures it?", "D2",
          ("who-gets-low", "deuce", "two"), _low),
    Topic("high", "Must the highest trump be won, or just held?", "D24",
          ("highest-trump", "ace"), _high),
    Topic("lone-trump", "Only one trump is in play: is it both high and low?", "D3",
          ("only-trump", "single-trump", "one-trump"), _lone_trump),
    Topic("jack-out", "The jack of trumps was never dealt: can the top bid still be made?", "D11",
          ("no-jack", "jack-not-dealt"), _jack_out),
    Topic("game-tie", "The game point is tied: who scores it?", "D10",
          ("game", "game-point", "tie"), _game_tie),
    Topic("smudge", "What is a smudge (moon), and what does it need and pay?", "D12",
          ("moon", "shoot-the-moon", "slam"), _smudge),
    Topic("sweep", "Does taking all the tricks score a point of its own?", "D21",
          ("all-tricks", "fifth-point"), _sweep),
    Topic("setback", "Does a set bidder keep the points it took?", "D13",
          ("set", "set-back", "failed-bid"), _setback),
    Topic("negative", "Can a score go below zero?", "D23",
          ("negative-scores", "in-the-hole", "below-zero"), _negative),
    Topic("all-pass", "Everybody passes: what now?", "D8",
          ("everyone-passes", "stuck-dealer", "stick-the-dealer", "force-bid"), _all_pass),
    Topic("dealer-steal", "May the dealer take the bid by equalling it?", "D9",
          ("steal", "dealer-privilege", "match"), _steal),
    Topic("sell-out", "Selling the pitch: who scores, and what if the eldest keeps it?", "D20",
          ("sale", "sell", "commercial-pitch"), _sell_out),
    Topic("both-over", "Both sides reach the target in the same hand: who wins?", "D6",
          ("both-sides-over", "count-out", "counting-out", "several-out", "bidder-goes-out"), _both_over),
    Topic("defenders-win", "Can the defending side win the game?", "D7",
          ("defenders", "who-can-win", "only-bidder"), _defenders),
    Topic("reach", "Must the target be reached or passed?", "D16",
          ("exceed", "target", "reach-or-exceed"), _reach),
    Topic("revoke", "What is the penalty for a revoke?", "D18",
          ("renege", "penalty", "illegal-play"), _revoke),
)
_BY_NAME = {t.id: t for t in TOPICS} | {a: t for t in TOPICS for a in t.aliases}


def find(topic: str) -> Topic:
    """A topic by id or alias (any case, spaces for dashes); else the nearest one in the message."""
    key = "-".join(topic.strip().lower().replace("_", " ").split())
    if key in _BY_NAME:
        return _BY_NAME[key]
    guess = nearest(key, list(_BY_NAME))
    hint = f" - did you mean {_BY_NAME[guess].id}?" if guess else ""
    raise PitchError(f"unknown topic '{topic}'{hint} (topics: {', '.join(t.id for t in TOPICS)})")


def explain(r: Ruleset, topic: str) -> Answer:
    """This ruleset's answer to one dispute."""
    t = find(topic)
    summary, answer, example, keys = t.answer(r)
    return Answer(t.id, t.question, t.dispute, summary, answer, example, keys)


def explain_all(r: Ruleset) -> list[Answer]:
    """Every topic, answered for this ruleset (the list `rules explain` shows)."""
    return [explain(r, t.id) for t in TOPICS]
