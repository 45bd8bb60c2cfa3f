"""The disputes about what happens between the deal and the first lead: a kitty (widow) the bidder takes and
lays away from, and a draw after trump. The examples are worked out by the rules layer's own lay-away rules
(`deal.may_lay_away`, `deal.must_throw`), so the words cannot drift from the checks a record meets.
(words.disputes lists the topics.)"""

from __future__ import annotations

from pitchkeeper.game.cards import Card
from pitchkeeper.game.deal import may_lay_away, must_throw, sizes
from pitchkeeper.game.play import TRUMP
from pitchkeeper.game.rulesets import Ruleset
from pitchkeeper.words import explain
from pitchkeeper.words import samples as sm
from pitchkeeper.words.samples import SAMPLE, Parts


def lay_away_words(r: Ruleset) -> str:
    """The lay-away rules ([discard]) in words, as `deal.lay_away_problem` applies them."""
    return explain.discard_rule_words(r) or "any card may go, trumps included"


_COUNTS = {"nothing": "the laid-away cards count for nobody",
           "game": "the discard counts for game to the bidding side (and for nothing else)",
           "all": "the discard counts as the bidding side's tricks, for every point and for game"}


def _pool(r: Ruleset, used: set[Card]) -> list[Card]:
    """Plain cards of the deck (with spades trump), the lowest first, a heart, a diamond and a club in turn."""
    suits = [sm.plain(r, s, 13) for s in ("H", "D", "C")]
    out = [s[i] for i in range(max(map(len, suits))) for s in suits if i < len(s)]
    return [c for c in out if c not in used]


def _trumps(r: Ruleset, *syms: str) -> list[Card]:
    """The trumps (spades) of these symbols of the trump order, each once."""
    return list(dict.fromkeys(sm.trump(r, s) for s in syms))


def kitty(r: Ruleset) -> Parts:
    deal, size, hand = sizes(r)
    keys = ("kitty.size", "kitty.discard_counts", "discard.trumps", "discard.point_trumps")
    if not size:
        return Parts("no kitty: the cards not dealt stay out of play",
                     "There is no kitty (widow): the cards not dealt stay out of play, and nobody takes them.", "-",
                     ("kitty.size",))
    counts = r.settings["kitty"]["discard_counts"]
    away = deal + size - hand
    unheld = ""
    if r.settings["partner"]["counts"]:
        unheld = (" Where the bidder calls a partner, a called card in the kitty goes to the bidder: "
                  + ("the bidder plays alone." if r.settings["partner"]["unheld"] == "alone"
                     else "the hand is dealt again (partner.unheld)."))
    draw = r.settings["draw"]["discard"]
    also = {"none": "", "down-to-hand": " The others throw down to the hand size too (draw.discard).",
            "non-trumps": " Then comes the draw (rules explain draw).",
            "any": " Then comes the draw (rules explain draw)."}[draw]
    answer = (f"Yes: {size} cards are dealt face down to a kitty. The bidder takes them after the auction, holds "
              f"{deal + size}, and lays away {away} to keep {hand} ({lay_away_words(r)}); {_COUNTS[counts]}."
              f"{also}{unheld}")
    view = r.views[SAMPLE]
    order = r.settings["trump"]["order"]
    mine = _trumps(r, order[0], order[len(order) // 2])
    ten = "10H" if "10H" in r.deck and view.suit["10H"] != TRUMP else sm.plain(r, "H", high=True)[0]
    extra = _trumps(r, order[1])[: max(0, min(1, size - 1))]
    pool = _pool(r, {*mine, ten, *extra})
    kit = [ten, *extra, *pool[: size - 1 - len(extra)]]
    pool = [c for c in pool if c not in kit]
    dealt = (mine + pool)[:deal]
    holding = dealt + kit
    allowed_away = may_lay_away(r, view, holding, hand)
    plain_first = sorted((c for c in allowed_away if view.suit[c] != TRUMP),
                         key=lambda c: (c not in kit, view.plain_strength.get(c, 0)))
    laid = (plain_first + [c for c in allowed_away if c not in plain_first])[:away]
    side = sm.sides(r)[0]
    g = sm.game_points(r)
    if counts == "game" and g:
        worth_words = f"they count for game to {side} ({sum(g[0].card_values[c] for c in laid)})"
    elif counts == "all":
        worth_words = f"they count as {side}'s tricks"
    else:
        worth_words = "they count for nobody"
    ex = (f"spades trump: Ann bid {sm.bid(r)} and takes {sm.cards_words(kit)}: she holds {len(holding)} and lays "
          f"away {sm.cards_words(laid)}; {worth_words}")
    summary = f"{size} cards to the bidder, who lays away {away}; " + {
        "nothing": "they count for nobody", "game": "they count for game", "all": "they count as tricks"}[counts]
    return Parts(summary, answer, ex, keys)


def draw(r: Ruleset) -> Parts:
    deal, size, hand = sizes(r)
    d = r.settings["draw"]
    mode = d["discard"]
    keys = ("draw.discard", "draw.most", "draw.rest", "discard.trumps", "discard.point_trumps", "deck.deal_size",
            "deck.hand_size")
    if mode == "none":
        if deal > hand and not size:
            return Parts(f"{deal} dealt and {hand} played; the rules do not say how the hands come down",
                         f"{deal} cards are dealt and {hand} played; these rules do not say how the hands come down. "
                         "A record's held cards are those held when play began (deck.deal_size); a record may give "
                         "what each threw (discard) and drew (drawn), and pitchkeeper checks their cards.", "-",
                         ("deck.deal_size", "draw.discard"))
        return Parts("no draw: the cards dealt are the cards played",
                     "There is no draw: the cards dealt are the cards played.", "-", ("draw.discard",))
    view = r.views[SAMPLE]
    order = r.settings["trump"]["order"]
    trumps = _trumps(r, order[min(3, len(order) - 1)], order[-1], order[len(order) // 2])
    holding = (trumps + _pool(r, set(trumps)))[:deal]
    rule = lay_away_words(r)
    rest = (f" The bidder then takes the rest of the stock and lays away down to {hand}, by the same rules."
            if d["rest"] else "")
    short = " If the stock runs out, the last players to draw get fewer cards."
    if mode == "non-trumps":
        thrown = must_throw(r, view, holding)
        back = hand - (len(holding) - len(thrown))
        answer = (f"After trump is named, in turn from the bidder's left (the bidder last), each player throws every "
                  f"non-trump and is dealt back to {hand} from the stock; cards drawn are kept, whatever they are. A "
                  f"player holding more than {hand} trumps throws the excess ({rule}).{rest}{short}")
        ex = (f"spades trump: Bob holds {sm.cards_words(holding)}: he throws {sm.cards_words(thrown)} and is dealt "
              f"{back} back")
        summary = f"after trump, every non-trump is thrown and hands refilled to {hand}" + (
            "; the bidder takes the rest" if d["rest"] else "")
    elif mode == "any":
        most = d["most"]
        many = f"up to {most}" if most else "any number of"
        may_go = may_lay_away(r, view, holding, hand)
        k = min(most or 3, len(may_go))
        thrown = tuple(sorted((c for c in may_go if view.suit[c] != TRUMP),
                              key=lambda c: view.plain_strength.get(c, 0))[:k])
        answer = (f"After trump is named, each player in turn from the bidder's left may throw {many} cards "
                  f"({rule}) and is dealt as many back from the stock.{rest}{short}")
        ex = (f"spades trump: Bob holds {sm.cards_words(holding)}: he may throw {sm.cards_words(thrown)} and is dealt "
              f"{len(thrown)} back")
        summary = f"after trump, each may exchange {many} cards" + ("; the bidder takes the rest" if d["rest"] else "")
    else:
        k = deal - hand
        may_go = may_lay_away(r, view, holding, hand)
        thrown = tuple(sorted((c for c in may_go if view.suit[c] != TRUMP),
                              key=lambda c: view.plain_strength.get(c, 0))[:k])
        kit = f" (the bidder after taking the kitty, down from {deal + size})" if size else ""
        answer = (f"After trump is named, everyone{kit} throws down to {hand} cards ({rule}); nobody draws.")
        ex = f"spades trump: Bob holds {sm.cards_words(holding)}: he throws {sm.cards_words(thrown)}"
        summary = f"after trump, everyone throws down to {hand}; no drawing"
    return Parts(summary, answer, ex, keys)
