"""A ruleset in plain words: what `rules show` prints and what `rules diff` compares.

Each topic has a stable id and one sentence drawn only from the ruleset's data, so two
rulesets can be compared topic by topic ("low: to the player dealt it / to the captor").
"""

from __future__ import annotations

from pitchkeeper.errors import or_list
from pitchkeeper.game import vocabulary
from pitchkeeper.game.rulesets import PointRule, Ruleset


def symbol_words(sym: str) -> str:
    """A trump symbol in words, explained: 'the off-jack (the jack of the same colour)'."""
    return vocabulary.symbol_words(sym, explained=True)


def point_words(p: PointRule) -> str:
    worth = f"{p.value} point" + ("" if p.value == 1 else "s")
    to = "to the player dealt it" if p.to == "dealt" else "to whoever captures it"
    return p.kind.words(p, worth, to)  # each kind words itself (game.kinds)


def describe(r: Ruleset) -> dict[str, tuple[str, str]]:
    """topic id -> (heading, sentence), in reading order."""
    s = r.settings
    out: dict[str, tuple[str, str]] = {}
    d = s["deck"]
    jokers = {0: "no jokers", 1: "one joker (JK)", 2: "two jokers (HJ the high, LJ the low)"}[d["jokers"]]
    n = len(r.deck)
    stripped = "" if len(d["ranks"]) == 13 else f" (ranks {' '.join(d['ranks'])})"
    out["deck"] = ("Deck", f"{n} cards: {len(d['ranks']) * 4}{stripped} with {jokers}")
    deal = f"; {d['deal_size']} dealt, played down to {d['hand_size']}" if d["deal_size"] else ""
    out["hand"] = ("Deck", f"{d['hand_size']} cards each{deal}")
    p = s["players"]
    counts = or_list([str(c) for c in p["counts"]])
    modes = []
    if 1 in p["team_sizes"]:
        modes.append("each for himself")
    modes += [f"in teams of {t}" for t in p["team_sizes"] if t > 1]
    out["players"] = ("Players", f"{counts} players, {or_list(modes)}")
    order = ", ".join(o if o in ("A", "K", "Q", "J", "10") or o.isdigit() else symbol_words(o)
                      for o in s["trump"]["order"])
    out["trump-order"] = ("Trump", f"trumps from high to low: {order}")
    extra = [symbol_words(o) for o in s["trump"]["order"] if o.startswith("off-") or o in ("HJ", "LJ", "JK")]
    if extra:
        out["trump-extra"] = ("Trump", f"{', '.join(extra)} {'is' if len(extra) == 1 else 'are'} trump and "
                                       "leave their printed suit")
    out["trump-set"] = ("Trump", {
        "first-lead": "the pitcher's first card sets trump",
        "first-lead-announced": "the pitcher's first card sets trump; the pitcher announces it when the card "
                                "leaves it unclear (a joker, or a jack that could be the off-jack)",
        "named": "the pitcher names trump before play",
    }[s["trump"]["set_by"]])
    pl = s["play"]
    out["follow"] = ("Play", {
        "suit-or-trump": "to a plain-suit lead, follow suit or play a trump (trumping is allowed even when you "
                         "can follow); with neither, play anything",
        "suit": "to a plain-suit lead you must follow suit if you can; trump only when void",
        "trump-only": "only trumps are played; a player out of trumps folds",
    }[pl["follow"]])
    out["trump-lead"] = ("Play", "when trump is led you must play a trump if you hold one")
    out["first-lead"] = ("Play", ("the pitcher leads first" if pl["first_leader"] == "bidder"
                                  else "the player on the dealer's left leads first")
                         + (", and must lead a trump" if pl["first_lead_trump"] else ", any card"))
    for pt in r.points:
        out[f"point:{pt.id}"] = ("Points", f"{pt.id}: {point_words(pt)}")
    total = r.max_points
    out["points-total"] = ("Points", f"at most {total} points a hand")
    b = s["bidding"]
    smudge = f", or {b['smudge_name']} (worth {b['smudge']})" if b["smudge"] else f"; no {b['smudge_name']} bid"
    out["bids"] = ("Bidding", f"bids from {b['min']} to {b['max']}{smudge}")
    out["auction"] = ("Bidding", {
        "once-around": "one round of bidding from the dealer's left, each bid higher than the last",
        "sell-out": "the eldest hand pitches at once or offers the pitch for sale; the others bid once each; "
                    "the eldest then sells to the top bidder or keeps the pitch at that price",
    }[b["auction"]])
    forced = b["forced_bid"] or b["min"]
    out["all-pass"] = ("Bidding", {
        "dealer-forced": f"if all the others pass, the dealer is stuck and must bid at least {forced}",
        "redeal": "if everyone passes, the hand is thrown in and dealt again",
        "eldest-pitches": "if nobody bids, the eldest hand pitches without a contract (bid 0)",
    }[b["all_pass"]])
    last = "the eldest hand" if b["auction"] == "sell-out" else "the dealer"
    out["steal"] = ("Bidding", {
        "none": f"{last} has no privilege: to take the bid you must bid higher",
        "below-top": f"{last} may take the bid by equalling the highest bid, except the top bid "
                     f"({b['smudge_name'] if b['smudge'] else b['max']})",
        "any": f"{last} may take the bid by equalling the highest bid, at any level",
    }[b["steal"]])
    if b["pitch_bid"]:
        out["pitch-bid"] = ("Bidding", f"laying a card face up at once is a bid of {b['pitch_bid']}")
    if b["auction"] == "sell-out":
        if b["pitch_at_once"]:
            out["pitch-at-once"] = ("Bidding", f"an eldest hand who pitches without selling must make "
                                               f"{b['pitch_at_once']}")
        out["sale-credit"] = ("Bidding", {
            "none": "a sale scores nothing for the seller",
            "seller": "the seller scores the price of the sale at once",
            "buyer": "if the eldest keeps the pitch, the top bidder scores the price",
        }[b["sale_credit"]])
    st = s["settle"]
    out["made"] = ("Scoring", "a bidding side that makes its bid scores every point it took")
    out["setback"] = ("Scoring", "a bidding side short of its bid is set back by the amount bid"
                      if st["setback"] == "bid" else "a bidding side short of its bid scores nothing")
    out["defenders"] = ("Scoring", "the other sides always score what they take" if st["defenders_score"]
                        else "the other sides score nothing")
    out["negative"] = ("Scoring", "scores may go below zero (in the hole)" if st["negative"]
                       else "scores never go below zero")
    w = s["win"]
    reach = f"{w['target']} or more" if w["reach"] == "reach" else f"more than {w['target']}"
    out["target"] = ("Winning", f"the game is won with {reach} points")
    if w["only_bidder"]:
        made = " that made its bid" if w["bidder_must_make"] else ""
        out["who-wins"] = ("Winning", f"only the bidding side can win, at the end of a hand it bid{made}; "
                                      "the winner may have fewer points than a loser")
    else:
        out["who-wins"] = ("Winning", "any side that gets there wins, bidding or not")
    prec = {
        "bidder": "the bidding side goes out first, even with fewer points (a pitch without a contract has no bidder)",
        "higher": "the higher score wins",
        "count-out": f"count the points in order ({', '.join(w['count_out'])}); the first side there wins",
    }
    out["several-out"] = ("Winning", "when several sides get there in one hand: "
                          + "; then ".join(prec[x] for x in w["precedence"]))
    rv = s["revoke"]
    if rv["setback"] == "none":
        out["revoke"] = ("Penalties", "a revoke carries no penalty in these rules")
    else:
        cost = "the amount bid" if rv["setback"] == "bid" else f"{rv['points']} points"
        extra = []
        if not rv["offender_scores"]:
            extra.append("scores nothing that hand")
        if rv["counters"]:
            extra.append(f"forfeits {rv['counters']} {s['stakes']['unit']} to the pool")
        if rv["bidder_excused"]:
            extra.append("and the bidder is not set back for failing")
        out["revoke"] = ("Penalties", f"a player who revokes is set back {cost}"
                         + (", " + ", ".join(extra) if extra else ""))
    sk = s["stakes"]
    if sk["per_game"]:
        out["stakes"] = ("Stakes", f"each player stakes {sk['per_game']} {sk['unit']} a game; the winner takes all")
    return out


def diff(a: Ruleset, b: Ruleset) -> list[tuple[str, str, str]]:
    """(topic, a's words, b's words) for every topic on which the two rulesets disagree."""
    da, db = describe(a), describe(b)
    out = []
    for key in list(da) + [k for k in db if k not in da]:
        wa = da.get(key, ("", "-"))[1]
        wb = db.get(key, ("", "-"))[1]
        if wa != wb:
            topic = key.split(":", 1)[1] if key.startswith("point:") else key
            wa, wb = _strip_topic(topic, wa), _strip_topic(topic, wb)
            out.append((topic, *_narrow(wa, wb)))
    return out


def _narrow(a: str, b: str) -> tuple[str, str]:
    """Only the clauses that differ: 'to the player dealt it' / 'to whoever captures it'."""
    pa, pb = a.replace("; ", ", ").split(", "), b.replace("; ", ", ").split(", ")
    if len(pa) != len(pb) or len(pa) < 2:
        return a, b
    keep = [i for i in range(len(pa)) if pa[i] != pb[i]]
    return ", ".join(pa[i] for i in keep), ", ".join(pb[i] for i in keep)


def _strip_topic(topic: str, words: str) -> str:
    if words == "-":
        return "not in these rules"
    return words[len(topic) + 2:] if words.startswith(topic + ": ") else words
