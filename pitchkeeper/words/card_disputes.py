"""The disputes about the cards: which are trumps, what may be played, who scores which point, and what
happens to cards between the deal and the first lead (a kitty, a draw). Each answer reads only the
ruleset's settings and point catalogue; where a play or a lay-away is at stake the example is worked out
by the rules layer itself (`play.allowed`, `play.winner_index`, `deal.must_throw`, `deal.may_lay_away`),
so the words cannot drift from what `judge` decides. (words.disputes lists the topics.)"""

from __future__ import annotations

from collections.abc import Sequence

from pitchkeeper.errors import or_list
from pitchkeeper.game import vocabulary
from pitchkeeper.game.cards import JOKERS, SUIT_NAMES, pretty
from pitchkeeper.game.deal import sizes
from pitchkeeper.game.play import TRUMP, allowed, card_list, first_lead_suits, winner_index
from pitchkeeper.game.rulesets import PointRule, Ruleset
from pitchkeeper.words import samples as sm
from pitchkeeper.words.explain import symbol_words
from pitchkeeper.words.samples import PARTNER, SAMPLE, Parts


def _odd(sym: str) -> bool:
    """A trump that is not a card of the trump suit itself: a joker or an off-card."""
    return sym in JOKERS or sym.startswith("off-")


def off_jack(r: Ruleset) -> Parts:
    order = r.settings["trump"]["order"]
    jack = "J" + PARTNER
    filler = sm.plain(r, "H") + sm.plain(r, "D")
    keys: tuple[str, ...] = ("trump.order", "play.follow")
    if jack not in r.deck:
        return Parts("no jacks in this deck", "The deck has no jacks, so there is no off-jack.", "-", ("deck.ranks",))
    holding = [jack, *filler]
    club_lead = sm.may(r, holding, PARTNER)
    if "off-J" not in order:
        return Parts(f"no off-jack: {pretty(jack)} stays an ordinary {SUIT_NAMES[PARTNER][:-1]}",
                     "No. There is no off-jack: the jack of the suit of the same colour as trumps is an ordinary card "
                     "of its own suit, and scores nothing special.",
                     f"spades trump: {pretty(jack)} is a {SUIT_NAMES[PARTNER][:-1]}, so a player holding "
                     f"{card_list(holding)} {club_lead} to a {SUIT_NAMES[PARTNER][:-1]} lead", keys)
    extra = [s for s in order if s.startswith("off-") and s != "off-J"]
    also = ""
    if extra:
        also = " " + " ".join(f"{sm.short(s).capitalize()} ({pretty(sm.trump(r, s))} with spades trump) is a trump "
                              f"too, ranking {sm.order_words(order, s)}." for s in extra)
    pt = sm.card_point(r, "off-J")
    scores = f" Whoever captures it scores {sm.worth(pt.value)} (off-jack)." if pt else ""
    g = sm.game_points(r)
    count = f" It counts {g[0].counts.get('J', 0)} toward game, like any jack." if g else ""
    follow = (f"a player whose only {SUIT_NAMES[PARTNER][:-1]} is {pretty(jack)} "
              f"{club_lead} to a {SUIT_NAMES[PARTNER][:-1]} lead")
    note = f"{pretty(jack)} is a {SUIT_NAMES[SAMPLE][:-1]} for this hand"
    answer = (f"Yes. The off-jack (the jack of the other suit of trump's colour) is a trump, ranking "
              f"{sm.order_words(order, 'off-J')}. It leaves its printed suit for the hand: it never follows that "
              f"suit, and when trump is led it is a trump that must be played by a player with no other."
              f"{scores}{count}{also}")
    if r.trump_only:
        follow = f"a player holding {card_list(holding)} {sm.may(r, holding, TRUMP)} (only trumps are played)"
        note = f"{pretty(jack)} is a trump for this hand"
    return Parts(f"yes: {pretty(jack)} is a trump with spades trump and leaves its suit",
                 answer, f"spades trump: {note}, so {follow}", (*keys, *(("points.off-jack",) if pt else ())))


# ---------------------------------------------------------------------------
# Jokers


def _place(order: Sequence[str], sym: str) -> str:
    """One trump's rank for a one-line summary: 'the lowest trump, below the two of trumps'."""
    i = order.index(sym)
    if len(order) == 1:
        return "the only trump"
    if i == 0:
        return f"the highest trump, above {sm.short(order[1])}"
    if i == len(order) - 1:
        return f"the lowest trump, below {sm.short(order[-2])}"
    return f"below {sm.short(order[i - 1])} and above {sm.short(order[i + 1])}"


def _block(order: Sequence[str], first: str, last: str) -> str:
    """Two trumps next to each other in the order, placed as one: 'both below the off-jack and above the ten'."""
    i, j = order.index(first), order.index(last)
    if i == 0 and j == len(order) - 1:
        return "the only trumps"
    if i == 0:
        return f"both above {sm.short(order[j + 1])}, the highest trumps"
    if j == len(order) - 1:
        return f"both below {sm.short(order[i - 1])}, the lowest trumps"
    return f"both below {sm.short(order[i - 1])} and above {sm.short(order[j + 1])}"


_ALIKE = {"first-higher": "the first played in a hand is the higher",
          "later-higher": "of two in one trick the later played wins"}


def jokers_summary(r: Ruleset) -> str:
    """The jokers' rank in one line: a pair next to each other in the trump order is placed as a block (the
    trump above the higher, the trump below the lower), jokers apart each in its own place."""
    order = r.settings["trump"]["order"]
    jokers = [s for s in order if s in JOKERS]
    alike = r.settings["trump"]["identical_jokers"]
    if len(jokers) == 2 and abs(order.index(jokers[0]) - order.index(jokers[1])) == 1:
        if alike != "no":
            return f"two look-alike jokers: always trumps, {_block(order, *jokers)}; {_ALIKE[alike]}"
        return (f"{jokers[0]}, {jokers[1]}: always trumps, {jokers[0]} over {jokers[1]}, "
                f"{_block(order, *jokers)}")
    if len(jokers) == 1:
        return f"{jokers[0]}: always trumps, {_place(order, jokers[0])}"
    return f"{', '.join(jokers)}: always trumps; " + "; ".join(f"{j} {_place(order, j)}" for j in jokers)


def _never_low_words(r: Ruleset, low: PointRule, syms: Sequence[str], what: str) -> str:
    """Which of `syms` (jokers, off-cards) may be low, in a sentence, naming the setting that says so."""
    never = [s for s in syms if s in low.never_low]
    if not never:
        return f" {what.capitalize()} can be low only when no lower trump is in play."
    why = f"points.{low.id}.natural" if low.natural else f"points.{low.id}.skip"
    if len(never) == len(syms):
        return f" {what.capitalize()} never counts as low ({why})."
    may = [s for s in syms if s not in never]
    return (f" {or_list([sm.short(s) for s in never]).capitalize()} never counts as low ({why}); "
            f"{or_list([sm.short(s) for s in may])} can be low only when no lower trump is in play.")


def jokers(r: Ruleset) -> Parts:
    order = r.settings["trump"]["order"]
    js = [s for s in order if s in JOKERS]
    if not js:
        return Parts("no jokers in this deck", f"There are no jokers: the deck is {len(r.deck)} cards, and a joker "
                     "in a record is an error.", "HJ in a hand record: not a card of this deck", ("deck.jokers",))
    places = "; ".join(f"{sm.short(j)} ({j}) ranks {sm.order_words(order, j)}" for j in js)
    pts = [p for p in r.points if "card" in p.kind.keys and p.card in js]
    scoring = (" " + "; ".join(f"{sm.short(p.card)} scores {sm.worth(p.value)} to {sm.to(p)}" for p in pts)
               .capitalize() + ".") if pts else " No point is scored for a joker itself."
    keys: list[str] = ["trump.order", "deck.jokers", "points", "trump.set_by"]
    lows = sm.points_of(r, "lowest-trump")
    low = ""
    if lows:
        low = _never_low_words(r, lows[0], js, "a joker")
        if lows[0].natural:
            keys.append(f"points.{lows[0].id}.natural")
    g = sm.game_points(r)
    game = ""
    if g:
        vals = {j: g[0].counts.get(j, 0) for j in js}
        game = (" Jokers count nothing toward game." if not any(vals.values()) else
                " Toward game: " + ", ".join(f"{j} {v}" for j, v in vals.items()) + ".")
    lead = ""
    if r.settings["trump"]["set_by"] != "named":
        lead = (f" Pitched first, a joker could make {or_list([SUIT_NAMES[s] for s in first_lead_suits(r, js[0])])} "
                "trump, so the pitcher names the suit.")
    alike = r.settings["trump"]["identical_jokers"]
    same = ""
    if alike != "no":
        same = f" The two jokers look alike: {_ALIKE[alike]} (rules explain identical-jokers)."
        keys.append("trump.identical_jokers")
    holding = [js[-1], *sm.plain(r, "H"), *sm.plain(r, "D")]
    return Parts(jokers_summary(r),
                 f"Jokers are always trumps and belong to no plain suit: {places}.{scoring}{low}{game}{lead}{same}",
                 f"spades trump, trump led: a player holding {card_list(holding)} {sm.may(r, holding, TRUMP)}",
                 tuple(keys))


def identical_jokers(r: Ruleset) -> Parts:
    order = r.settings["trump"]["order"]
    js = [s for s in order if s in JOKERS]
    alike = r.settings["trump"]["identical_jokers"]
    keys = ("trump.identical_jokers", "deck.jokers", "trump.order")
    if not js:
        return Parts("does not arise: no jokers in this deck", "It does not arise: there are no jokers.", "-",
                     ("deck.jokers",))
    if len(js) == 1:
        return Parts("one joker: nothing to tell apart", "There is one joker (JK), so there is nothing to tell apart.",
                     "-", ("deck.jokers",))
    view = r.views[SAMPLE]
    hi, lo = ("HJ", "LJ") if order.index("HJ") < order.index("LJ") else ("LJ", "HJ")
    if alike == "no":
        trick = ["LJ", "HJ"]
        won = trick[winner_index(view, trick)]
        return Parts(f"they are told apart: {hi} ranks above {lo} (trump.order)",
                     f"The two jokers are told apart: {sm.short(hi)} ({hi}) ranks above {sm.short(lo)} ({lo}) "
                     "in the trump order, whichever is played first.",
                     f"spades trump: LJ led and HJ played on it: {won} wins", keys)
    if alike == "first-higher":
        return Parts("the first joker played in a hand is the higher",
                     "The two jokers look alike. The first one played in a hand is the higher for the whole hand (it "
                     f"takes {hi}'s place in the trump order), the other the lower. In a hand played card by card "
                     "pitchkeeper names them so itself; in a record of captured cards or points, write HJ for the one "
                     "the table counted as the higher.",
                     "Bob plays a joker to trick 2 and Cy the other to trick 4: Bob's was the higher all hand",
                     keys)
    trick = ["HJ", "LJ"]
    later = trick[winner_index(view, trick, jokers="later-higher")]
    return Parts("of two jokers in one trick, the later played wins",
                 "The two jokers look alike. When both fall in one trick, the one played later wins it; otherwise "
                 f"each ranks as the record writes it ({hi} above {lo}).",
                 f"spades trump: Ann leads a joker (HJ) and Bob plays the other (LJ) on it: {later}, played later, "
                 "wins", keys)


# ---------------------------------------------------------------------------
# Following


def follow(r: Ruleset) -> Parts:
    f = r.settings["play"]["follow"]
    holding = [*sm.plain(r, "H"), sm.lowest_trump(r), *sm.plain(r, "D")]
    ex = f"spades trump, hearts led: a player holding {card_list(holding)} {sm.may(r, holding, 'H')}"
    keys: tuple[str, ...] = ("play.follow",)
    must = ""
    if r.settings["play"]["must_trump"] and f != "trump-only":
        void = [sm.lowest_trump(r), *sm.plain(r, "D", 2)]
        ex += f"; holding {card_list(void)}, with no heart, {sm.may(r, void, 'H')}"
        must = " With none of the suit led, a player holding a trump must play one (play.must_trump)."
        keys = ("play.follow", "play.must_trump")
    if f == "suit-or-trump":
        return Parts("yes: follow suit or trump, even when able to follow" + ("; void, trump" if must else ""),
                     "Yes. To a plain-suit lead a player may follow suit or play a trump, even while holding the suit "
                     "led; " + ("a player with neither may play any card." if not must else
                                "a player out of the suit led must play a trump if holding one; with neither, any "
                                "card (play.must_trump)."), ex, keys)
    if f == "suit":
        return Parts("no: follow suit when able; trump only when out of the suit led" + (
                         ", and then trump if able" if must else ""),
                     "No. To a plain-suit lead a player holding that suit must follow it; only a player out of it may "
                     "trump" + ("." + must if must else " (or throw any card)."), ex, keys)
    return Parts("the question does not arise: only trumps are played",
                 "The question does not arise: only trumps are ever played, and a player out of trumps folds.",
                 f"spades trump: a player holding {card_list(holding)} {sm.may(r, holding, 'H')}", keys)


def trump_lead(r: Ruleset) -> Parts:
    order = r.settings["trump"]["order"]
    odd = [s for s in order if _odd(s)]
    special = sm.trump(r, odd[-1]) if odd else sm.lowest_trump(r)
    holding = [special, *sm.plain(r, PARTNER if not odd else "H"), *sm.plain(r, "D")]
    counts = f" ({or_list([vocabulary.symbol_words(s) for s in odd])} included)" if odd else ""
    ex = f"spades trump, trump led: a player holding {card_list(holding)} {sm.may(r, holding, TRUMP)}"
    if r.trump_only:
        return Parts("only trumps are played; a player with none folds",
                     f"Only trumps are ever played{counts}, so nobody throws off a plain card: a player out of trumps "
                     "folds.", ex, ("play.follow", "trump.order"))
    return Parts("no: a player holding a trump must play one",
                 f"No. When trump is led, a player holding any trump{counts} must play a trump; only a player with "
                 "none may play another card.", ex, ("play.follow", "trump.order"))


def fold(r: Ruleset) -> Parts:
    size = r.settings["deck"]["hand_size"]
    if not r.trump_only:
        return Parts("nobody folds: every player plays to every trick",
                     f"Nobody folds: every player plays a card to each of the {size} tricks, and the winner of a "
                     "trick leads the next.",
                     f"{size} tricks: each player plays all {size} cards", ("play.follow", "deck.hand_size"))
    t = sm.trump(r, r.settings["trump"]["order"][-2])
    return Parts("a player out of trumps folds; the next player still in leads",
                 "Only trumps are played. A player out of trumps folds and takes no further part in the hand. If the "
                 "winner of a trick has folded, the lead passes clockwise to the next player still holding a trump. "
                 "Play goes on until every trump is played.",
                 f"Ann wins a trick with her last trump; Bob, on her left, still holds {pretty(t)}, so Bob leads next "
                 f"(record it as \"Bob:{t}\" and leave Ann out)", ("play.follow",))


def first_lead(r: Ruleset) -> Parts:
    parts = _first_lead(r)
    if not (r.settings["partner"]["counts"] and r.settings["partner"]["first_trick"]):
        return parts
    called = sm.trump(r, r.settings["trump"]["order"][0])
    holding = [called, *sm.plain(r, "H")]
    a = allowed(r, r.views[SAMPLE], holding, None, called=called)
    return Parts(parts.summary + "; the called card must be played to the first trick",
                 parts.answer + " Where the bidder calls a partner, the holder of the called card must play it to "
                 "the first trick, whatever the follow rules say (partner.first_trick).",
                 f"{parts.example}; Ann called {pretty(called)}: Cy, holding {card_list(holding)}, must play "
                 f"{' or '.join(pretty(c) for c in a.cards)} to trick 1",
                 (*parts.keys, "partner.first_trick"))


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
                     f"The pitcher names trump before play; {who.lower()} leads the first trick, and must lead a "
                     "trump when holding one.",
                     f"spades named: a first lead of {pretty(sm.plain(r, 'H')[0])} by a pitcher holding "
                     f"{pretty(sm.lowest_trump(r))} is illegal", keys)
    ambiguous = [c for c in (jack, *JOKERS) if c in r.deck and len(first_lead_suits(r, c)) > 1]
    if by == "first-lead-announced":
        how = ("the first card pitched sets trump; when it could belong to more than one suit (a joker, or a jack "
               "that could be the off-jack) the pitcher announces which")
    else:
        how = "the first card pitched sets trump: its own suit" + (
            " (a joker has none, so the pitcher names it)" if any(c in r.deck for c in JOKERS) else "")
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


# ---------------------------------------------------------------------------
# Points


def _dealt_means(r: Ruleset) -> str:
    """What 'dealt' means where cards change hands before play (a kitty, a draw)."""
    deal, kitty, hand = sizes(r)
    draw = r.settings["draw"]["discard"] != "none"
    if not (kitty or draw or deal > hand):
        return ""
    what = or_list([w for w, on in (("kitty", kitty), ("draw", draw)) if on])
    if not what:
        return f" 'Dealt' means held when play began ({deal} are dealt and {hand} played)."
    return f" 'Dealt' means held when play began, after the {what}."


def low(r: Ruleset) -> Parts:
    lows = sm.points_of(r, "lowest-trump")
    if lows:
        p = lows[0]
        view = r.views[SAMPLE]
        c = view.low_order[0] if view.low_order else sm.lowest_trump(r)
        if p.natural:
            skip = (" It is never a joker or an off-card: only a card of the trump suit itself can be low "
                    f"(points.{p.id}.natural).")
            rest = [s for s in p.skip if not _odd(s)]
            if rest:
                skip += f" Nor is it ever {', '.join(symbol_words(s) for s in rest)}."
        else:
            skip = f" It is never {', '.join(symbol_words(s) for s in p.skip)}." if p.skip else ""
        dealt = _dealt_means(r) if p.to == "dealt" else ""
        who = sm.who(r, "Ann") if p.to == "dealt" else sm.who(r, "Bob")
        return Parts(f"to {sm.to(p)}" + ("; never a joker or an off-card" if p.natural else ""),
                     f"Low ({sm.worth(p.value)}, the lowest trump in play) goes to {sm.to(p)}.{skip}{dealt} It only "
                     "matters when the lowest trump falls into a trick won by another side.",
                     f"spades trump: Ann was dealt {pretty(c)}, the lowest trump out, and Bob won the trick it fell "
                     f"in: low goes to {who}",
                     (f"points.{p.id}.to", *((f"points.{p.id}.natural",) if p.natural else ())))
    deuce = sm.card_point(r, "2")
    if deuce:
        c = sm.trump(r, "2")
        who = sm.who(r, "Ann") if deuce.to == "dealt" else sm.who(r, "Bob")
        dealt = _dealt_means(r) if deuce.to == "dealt" else ""
        return Parts(f"no low as such; the deuce of trumps to {sm.to(deuce)}",
                     f"There is no low point as such: the deuce (two) of trumps scores {sm.worth(deuce.value)} to "
                     f"{sm.to(deuce)}, whether or not a lower card is in play.{dealt}",
                     f"spades trump: Ann was dealt {pretty(c)} and Bob won the trick it fell in: the point goes to "
                     f"{who}", (f"points.{deuce.id}.to",))
    return Parts("there is no low point", "This ruleset scores no low point.", "-", ("points",))


def high(r: Ruleset) -> Parts:
    highs = sm.points_of(r, "highest-trump")
    if highs:
        p = highs[0]
        order = r.settings["trump"]["order"]
        second = sm.trump(r, order[1])
        return Parts(f"to {sm.to(p)}; holding and winning it are the same",
                     f"High ({sm.worth(p.value)}, the highest trump in play) goes to {sm.to(p)}. The top trump always "
                     "wins its own trick, so the player who held it is the player who wins it.",
                     f"spades trump, {pretty(sm.trump(r, order[0]))} not dealt: {pretty(second)} is high and wins "
                     "whatever trick it is played to", (f"points.{p.id}",))
    ace = sm.card_point(r, "A")
    if ace:
        return Parts(f"no high as such; the ace of trumps to {sm.to(ace)}",
                     f"There is no high point as such: the ace of trumps scores {sm.worth(ace.value)} to "
                     f"{sm.to(ace)}, and nothing is scored for the highest trump when the ace is not out.",
                     f"spades trump, {pretty(sm.trump(r, 'A'))} not dealt: nobody scores it", (f"points.{ace.id}",))
    return Parts("there is no high point", "This ruleset scores no high point.", "-", ("points",))


def lone_trump(r: Ruleset) -> Parts:
    highs, lows = sm.points_of(r, "highest-trump"), sm.points_of(r, "lowest-trump")
    keys: tuple[str, ...] = ("points",)
    if not highs or not lows:
        return Parts("does not arise: points are for particular cards",
                     "It does not arise: this ruleset scores particular trumps (the ace, the deuce...), not the "
                     "highest and lowest in play, so a lone trump scores only what that card scores.", "-", keys)
    h, lo = highs[0], lows[0]
    if lo.apart:
        return Parts(f"high only ({sm.worth(h.value)})",
                     f"No: a lone trump is high only ({sm.worth(h.value)}), not low too.",
                     f"spades trump, only {pretty(sm.trump(r, 'J'))} out: high to its holder, no low", keys)
    both = h.value + lo.value
    jack = sm.card_point(r, "J")
    jack_words = ""
    ex = f"spades trump, only {pretty(sm.trump(r, '9'))} out: {sm.worth(both)} (high and low) to its holder" \
        if sm.trump(r, "9") in r.deck else f"spades trump, one trump out: {sm.worth(both)} to its holder"
    if jack:
        jack_words = f"; if it is the jack of trumps, {sm.worth(both + jack.value)} (high, low and jack)"
        ex = f"spades trump, only {pretty(sm.trump(r, 'J'))} out: high, low and jack, {sm.worth(both + jack.value)} " \
             "to its holder"
    never = [s for s in lo.never_low if s in r.settings["trump"]["order"]]
    alone = ""
    if never:
        alone = (f" But {or_list([sm.short(s) for s in never])} never counts as low: alone in play, it is high only "
                 f"({sm.worth(h.value)}).")
        ex += f"; only {pretty(sm.trump(r, never[0]))} out: high only, {sm.worth(h.value)}"
        keys = ("points", f"points.{lo.id}.natural" if lo.natural else f"points.{lo.id}.skip")
    what = "a joker or an off-card" if lo.natural else or_list([sm.short(s) for s in never])
    return Parts(f"yes: high and low, {sm.worth(both)}" + (f"; but alone, {what} is high only" if never else ""),
                 f"Yes: the only trump in play is both the highest and the lowest, so it scores high and low, "
                 f"{sm.worth(both)}{jack_words}. A lone trump wins its own trick, so dealt and captured are the same "
                 f"player.{alone}", ex, keys)


def game_tie(r: Ruleset) -> Parts:
    g = sm.game_points(r)
    if not g:
        return Parts("there is no game point", "This ruleset has no game point: its points are for particular cards.",
                     "-", ("points",))
    p = g[0]
    counts = ", ".join(f"{k} {v}" for k, v in p.counts.items() if v)
    seats = sm.seats(r)
    a, b = seats.sides
    need = ("more than half of all the counting cards" if p.need == "majority"
            else "the single highest count (with three or more sides a plurality is enough)")
    tie = {"nobody": ("a tie scores nobody", "A tie for the most scores nobody.", "nobody scores game"),
           "bidder": ("a tie goes to the bidding side", "A tie for the most goes to the bidding side, when it is "
                      "among the tied; otherwise nobody scores it.", f"game goes to {a}, the bidding side"),
           "elder": ("a tie goes to the elder hand (first from the dealer's left)",
                     "A tie for the most goes to the tied side seated first clockwise from the dealer's left (the "
                     "elder hand; in two-hand play, the non-dealer).",
                     f"game goes to {b}, seated first from the dealer's left (Ann dealt)")}[p.tie]
    ex = f"{a} bid; {a} 13, {b} 13: {tie[2]}"
    if not sm.partners(r) and len(seats.players) > 2:
        ex += f"; {', '.join(f'{n} {c}' for n, c in zip(seats.players, (15, 12, 8), strict=False))}: " + (
            f"{seats.players[0]} scores it (most of all)" if p.need == "plurality" else "nobody (15 is not more than "
                                                                                           "half of 35)")
    return Parts(tie[0], f"{tie[1]} Game goes to {need}; it counts {counts}.", ex,
                 (f"points.{p.id}.tie", f"points.{p.id}.need", f"points.{p.id}.counts"))


def ten_for_game(r: Ruleset) -> Parts:
    g = sm.game_points(r)
    ten = sm.card_point(r, "10")
    keys = ("points", *((f"points.{g[0].id}",) if g else ()), *((f"points.{ten.id}",) if ten else ()))
    t = pretty(sm.trump(r, "10"))
    if g and not ten:
        counts = g[0].counts.get("10", 0)
        return Parts(f"game is a point; the ten counts {counts} toward it",
                     f"There is a game point ({sm.worth(g[0].value)}), and the ten of trumps scores nothing of its "
                     f"own: like every ten it counts {counts} toward game.",
                     f"spades trump: Bob captures {t}: {counts} toward his side's count for game", keys)
    if ten and not g:
        return Parts(f"no game point: the ten of trumps scores {ten.value} to {sm.to(ten)} instead",
                     f"There is no game point: the ten of trumps scores {sm.worth(ten.value)} to {sm.to(ten)} "
                     "in its place, and nothing is counted for game.",
                     f"spades trump: Bob captures {t}: {sm.who(r, 'Bob')} +{ten.value} ({ten.label})", keys)
    if ten and g:
        return Parts(f"both: game ({g[0].value}) and the ten of trumps ({ten.value})",
                     f"Both score: game ({sm.worth(g[0].value)}) to the side with the best count, and the ten of "
                     f"trumps ({sm.worth(ten.value)}) to {sm.to(ten)}.",
                     f"spades trump: Bob captures {t}: {ten.label} +{ten.value}, and {g[0].counts.get('10', 0)} toward "
                     "game", keys)
    return Parts("neither: no game point and no point for the ten",
                 "Neither: this ruleset has no game point and no point for the ten of trumps.", "-", keys)


def sweep(r: Ruleset) -> Parts:
    ps = sm.points_of(r, "all-tricks")
    size = r.settings["deck"]["hand_size"]
    if not ps:
        return Parts("no point for taking every trick", "Taking every trick scores nothing extra.", "-", ("points",))
    p = ps[0]
    whose = "the bidding side" if p.only_bidder else "any side"
    return Parts(f"yes: {sm.worth(p.value)} to {whose} for all {size} tricks, smudge bid or not",
                 f"Yes: {whose} taking all {size} tricks scores {sm.worth(p.value)} more ({p.label}), whatever it bid.",
                 f"{sm.sides(r)[0]} bid {sm.bid(r)} and took all {size} tricks: {p.label} +{p.value}",
                 (f"points.{p.id}",))


# ---------------------------------------------------------------------------
# Revokes


def _a_revoke(r: Ruleset) -> str:
    """A play the follow rules forbid, worked out by the play model: 'Bob held 2♥ but played 2♦ to a heart lead'."""
    holding = [*sm.plain(r, "H"), sm.lowest_trump(r), *sm.plain(r, "D")]
    ok = allowed(r, r.views[SAMPLE], holding, "H").cards
    bad = next(c for c in holding if c not in ok)
    return f"Bob held {card_list(holding)} and played {pretty(bad)} to a heart lead (spades trump)"


def _offences(r: Ruleset) -> tuple[str, tuple[str, ...]]:
    """The house rules' own illegal plays, which count as revokes: in words, and the settings that make them."""
    out, keys = [], []
    if r.settings["play"]["must_trump"] and not r.trump_only:
        out.append("not trumping when out of the suit led while holding a trump (rule must-trump)")
        keys.append("play.must_trump")
    if r.settings["partner"]["counts"] and r.settings["partner"]["first_trick"]:
        out.append("keeping the called card back from the first trick (rule called-first-trick)")
        keys.append("partner.first_trick")
    return (f" These rules make {' and '.join(out)} a revoke too." if out else ""), tuple(keys)


def revoke(r: Ruleset) -> Parts:
    rv = r.settings["revoke"]
    keys: tuple[str, ...] = ("revoke.setback", "revoke.points", "revoke.offender_scores", "revoke.counters",
                             "revoke.bidder_excused")
    judged = (" pitchkeeper finds a revoke in a hand record with tricks and held cards (judge hand lists it under "
              "illegal) or takes it from the record's revokes.")
    also, more = _offences(r)
    keys += more
    if rv["setback"] == "none":
        return Parts("no penalty in these rules", "These rules set no penalty for a revoke (a play against the "
                     f"follow rules): the hand scores as played.{also}{judged}",
                     f"{_a_revoke(r)}: reported, the score unchanged", keys)
    cost = "the amount bid" if rv["setback"] == "bid" else sm.worth(rv["points"])
    extra = []
    if not rv["offender_scores"]:
        extra.append("scores nothing of its own that hand")
    if rv["counters"]:
        extra.append(f"forfeits {rv['counters']} {r.settings['stakes']['unit']} to the pool")
    excused = " The bidder is not set back for failing when another player revoked." if rv["bidder_excused"] else ""
    n = sm.bid(r) if rv["setback"] == "bid" else rv["points"]
    return Parts(f"the offender is set back {cost}",
                 f"A player who revokes is set back {cost}" + (" and " + " and ".join(extra) if extra else "")
                 + f".{excused}{also}{judged}",
                 f"Ann bid {sm.bid(r)}; {_a_revoke(r)}: {sm.who(r, 'Bob')} -{n}"
                 + (f" and {rv['counters']} {r.settings['stakes']['unit']}" if rv["counters"] else ""), keys)
