"""A ruleset in plain words: what `rules show` prints and what `rules diff` compares.

Each topic has a stable id and one sentence drawn only from the ruleset's data, so two
rulesets can be compared topic by topic ("low: to the player dealt it / to the captor").
"""

from __future__ import annotations

from pathlib import Path

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
    """topic id -> (heading, sentence), in reading order: a heading's topics each from one step below, so
    that `rules show` reads as a player explains the game (the cards, who plays, trump, play, the points,
    the bidding, the score, the end of the game, the penalties)."""
    out: dict[str, tuple[str, str]] = {}
    for topics in (_deck_topics, _player_topics, _trump_topics, _play_topics, _point_topics, _bidding_topics,
                   _scoring_topics, _winning_topics, _penalty_topics):
        out.update(topics(r))
    return out


def _deck_topics(r: Ruleset) -> dict[str, tuple[str, str]]:
    """The deck, the hand and the deal, the kitty and what may be laid away."""
    s = r.settings
    out: dict[str, tuple[str, str]] = {}
    d = s["deck"]
    jokers = {0: "no jokers", 1: "one joker (JK)", 2: "two jokers (HJ the high, LJ the low)"}[d["jokers"]]
    n = len(r.deck)
    stripped = "" if len(d["ranks"]) == 13 else f" (ranks {' '.join(d['ranks'])})"
    out["deck"] = ("Deck", f"{n} cards: {len(d['ranks']) * 4}{stripped} with {jokers}")
    out["hand"] = ("Deck", hand_words(r))
    k = s["kitty"]
    if k["size"]:
        out["kitty"] = ("Kitty and draw", kitty_words(r))
    rule = discard_rule_words(r)
    if rule:
        out["discard-rule"] = ("Kitty and draw", rule)
    return out


def _player_topics(r: Ruleset) -> dict[str, tuple[str, str]]:
    """How many play, alone or in teams, and the called partner."""
    s = r.settings
    out: dict[str, tuple[str, str]] = {}
    p = s["players"]
    counts = or_list([str(c) for c in p["counts"]])
    modes = []
    if 1 in p["team_sizes"]:
        modes.append("each for himself")
    modes += [f"in teams of {t}" for t in p["team_sizes"] if t > 1]
    calling = s["partner"]["counts"]
    if calling and set(p["counts"]) <= set(calling) and modes == ["each for himself"]:
        out["players"] = ("Players", f"{counts} players, the bidder calling a partner each hand")
    elif calling:
        out["players"] = ("Players", f"{counts} players, {or_list(modes)}; at {or_list([str(c) for c in calling])} "
                                     "the bidder calls a partner each hand")
    else:
        out["players"] = ("Players", f"{counts} players, {or_list(modes)}")
    if calling:
        out["partner"] = ("Players", partner_words(r))
    return out


def _trump_topics(r: Ruleset) -> dict[str, tuple[str, str]]:
    """The trump order, the cards that leave their printed suit, look-alike jokers, how trump is set."""
    s = r.settings
    out: dict[str, tuple[str, str]] = {}
    order = ", ".join(o if o in ("A", "K", "Q", "J", "10") or o.isdigit() else symbol_words(o)
                      for o in s["trump"]["order"])
    out["trump-order"] = ("Trump", f"trumps from high to low: {order}")
    extra = [symbol_words(o) for o in s["trump"]["order"] if o.startswith("off-") or o in ("HJ", "LJ", "JK")]
    if extra:
        out["trump-extra"] = ("Trump", f"{', '.join(extra)} {'is' if len(extra) == 1 else 'are'} trump and "
                                       "leave their printed suit")
    alike = s["trump"]["identical_jokers"]
    if alike != "no":
        out["jokers-alike"] = ("Trump", {
            "first-higher": "the two jokers look alike: the first one played in a hand is the higher",
            "later-higher": "the two jokers look alike: of two jokers in one trick, the one played later wins",
        }[alike])
    out["trump-set"] = ("Trump", {
        "first-lead": "the pitcher's first card sets trump",
        "first-lead-announced": "the pitcher's first card sets trump; the pitcher announces it when the card "
                                "leaves it unclear (a joker, or a jack that could be the off-jack)",
        "named": "the pitcher names trump before play",
    }[s["trump"]["set_by"]])
    return out


def _play_topics(r: Ruleset) -> dict[str, tuple[str, str]]:
    """Following suit, trump leads, and the first lead."""
    out: dict[str, tuple[str, str]] = {}
    pl = r.settings["play"]
    out["follow"] = ("Play", {
        "suit-or-trump": "to a plain-suit lead, follow suit or play a trump (trumping is allowed even when you "
                         "can follow); with neither, play anything",
        "suit": "to a plain-suit lead you must follow suit if you can; trump only when void",
        "trump-only": "only trumps are played; a player out of trumps folds",
    }[pl["follow"]] + ("; with none of the suit led, a player holding a trump must play one"
                       if pl["must_trump"] and pl["follow"] != "trump-only" else ""))
    out["trump-lead"] = ("Play", "when trump is led you must play a trump if you hold one")
    out["first-lead"] = ("Play", ("the pitcher leads first" if pl["first_leader"] == "bidder"
                                  else "the player on the dealer's left leads first")
                         + (", and must lead a trump" if pl["first_lead_trump"] else ", any card"))
    return out


def _point_topics(r: Ruleset) -> dict[str, tuple[str, str]]:
    """Each point of the catalogue, and the most a hand can score."""
    out: dict[str, tuple[str, str]] = {}
    for pt in r.points:
        out[f"point:{pt.id}"] = ("Points", f"{pt.id}: {point_words(pt)}")
    total = r.max_points
    out["points-total"] = ("Points", f"at most {total} points a hand")
    return out


def _bidding_topics(r: Ruleset) -> dict[str, tuple[str, str]]:
    """The bids, the smudge, the auction, a pass all round, the dealer's privilege, a sale."""
    out: dict[str, tuple[str, str]] = {}
    b = r.settings["bidding"]
    smudge = f", or {b['smudge_name']} (worth {b['smudge']})" if b["smudge"] else f"; no {b['smudge_name']} bid"
    out["bids"] = ("Bidding", f"bids from {b['min']} to {b['max']}{smudge}")
    if b["smudge"]:
        out["smudge"] = ("Bidding", smudge_words(r))
    out["auction"] = ("Bidding", {
        "once-around": "one round of bidding from the dealer's left, each bid higher than the last",
        "sell-out": "the eldest hand pitches at once or offers the pitch for sale; the others bid once each; "
                    "the eldest then sells to the top bidder or keeps the pitch at that price",
    }[b["auction"]])
    forced = b["forced_bid"] or b["min"]
    out["all-pass"] = ("Bidding", {
        "dealer-forced": f"if all the others pass, the dealer is stuck and must bid "
                         f"{'exactly' if b['forced_exact'] else 'at least'} {forced}",
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
    return out


def _scoring_topics(r: Ruleset) -> dict[str, tuple[str, str]]:
    """What a bidding side that makes or misses its bid scores, what the others score, scores below zero."""
    s = r.settings
    out: dict[str, tuple[str, str]] = {}
    st = s["settle"]
    out["made"] = ("Scoring", "a bidding side that makes its bid scores every point it took")
    w = s["win"]
    down = w["direction"] == "down"
    if st["setback"] == "bid":
        out["setback"] = ("Scoring", "a bidding side short of its bid " + (
            "scores nothing and goes back up the amount bid" if down else "is set back by the amount bid"))
    else:
        out["setback"] = ("Scoring", "a bidding side short of its bid scores nothing")
    out["defenders"] = ("Scoring", "the other sides always score what they take" if st["defenders_score"]
                        else "the other sides score nothing")
    if down:
        out["negative"] = ("Scoring", "a score may go back above the start (in the hole)" if st["negative"]
                           else "a score never goes above the start")
    else:
        out["negative"] = ("Scoring", "scores may go below zero (in the hole)" if st["negative"]
                           else "scores never go below zero")
    return out


def _winning_topics(r: Ruleset) -> dict[str, tuple[str, str]]:
    """The target, who may win, a win at once, several sides out in one hand, a side set out."""
    out: dict[str, tuple[str, str]] = {}
    w = r.settings["win"]
    down = w["direction"] == "down"
    if down:
        out["target"] = ("Winning", f"everyone starts at {w['target']} and counts down; the game is won at "
                                    + ("0" if w["reach"] == "reach" else "below 0"))
    else:
        reach = f"{w['target']} or more" if w["reach"] == "reach" else f"more than {w['target']}"
        out["target"] = ("Winning", f"the game is won with {reach} points")
    if w["only_bidder"]:
        made = " that made its bid" if w["bidder_must_make"] else ""
        who = (f"only the bidding side can win, at the end of a hand it bid{made}; "
               "the winner may have fewer points than a loser")
        if w["set_and_win"]:
            who += "; a defending side that sets the bidder and reaches the target wins too"
    else:
        who = "any side that gets there wins, bidding or not"
        if w["set_and_win"]:
            who += "; setting the bidder changes nothing: defenders can win anyway"
    if w["defenders_stop_short"]:
        who += "; a defending side's score stops one short of the target: a side must bid to go out"
    out["who-wins"] = ("Winning", who)
    if w["instant"] != "none":
        out["instant"] = ("Winning", instant_words(r))
    prec = {
        "bidder": "the bidding side goes out first, even with fewer points (a pitch without a contract has no bidder)",
        "higher": "the score nearer 0 wins" if down else "the higher score wins",
        "count-out": f"count the points in order ({', '.join(w['count_out'])}); the first side there wins",
    }
    out["several-out"] = ("Winning", "when several sides get there in one hand: "
                          + "; then ".join(prec[x] for x in w["precedence"]))
    if w["sets_out"]:
        out["sets-out"] = ("Winning", f"a side set {w['sets_out']} times is out of the game; with two sides the "
                                      "other wins")
    return out


def _penalty_topics(r: Ruleset) -> dict[str, tuple[str, str]]:
    """A revoke's cost, and the stakes."""
    s = r.settings
    out: dict[str, tuple[str, str]] = {}
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


def hand_words(r: Ruleset) -> str:
    """The hand size, the deal, and the draw: '6 cards each; 9 dealt; after trump, ...'."""
    d, dr = r.settings["deck"], r.settings["draw"]
    hand, deal = d["hand_size"], d["deal_size"] or d["hand_size"]
    mode = dr["discard"]
    out = f"{hand} cards each"
    if mode == "none":
        return out + (f"; {deal} dealt, played down to {hand}" if deal != hand else "")
    if deal != hand:
        out += f"; {deal} dealt"
    out += {"non-trumps": f"; after trump, each player from the bidder's left throws every non-trump and is dealt "
                          f"back to {hand} from the stock",
            "any": "; after trump, each player may throw " + (f"up to {dr['most']}" if dr["most"] else "any number of")
                   + " cards and is dealt as many back",
            "down-to-hand": f"; after trump, everyone throws down to {hand} (no drawing)"}[mode]
    if dr["rest"]:
        out += f"; the bidder then takes the rest of the stock and lays away down to {hand}"
    return out


def kitty_words(r: Ruleset) -> str:
    """'3 cards are dealt to a kitty; the bidder takes them and lays away 3 (down to 6 cards); ...'."""
    d, k = r.settings["deck"], r.settings["kitty"]
    hand, deal = d["hand_size"], d["deal_size"] or d["hand_size"]
    counts = {"nothing": "laid-away cards count for nobody", "game": "the discard counts for game to the bidding side",
              "all": "the discard counts as the bidding side's tricks"}[k["discard_counts"]]
    return (f"{k['size']} cards are dealt to a kitty; the bidder takes them and lays away {deal + k['size'] - hand} "
            f"(down to {hand} cards); {counts}")


def discard_rule_words(r: Ruleset) -> str:
    """The lay-away rules where they are not 'anything may go' (None of that: '')."""
    d = r.settings["discard"]
    hand = r.settings["deck"]["hand_size"]
    parts = []
    if d["trumps"] == "excess-only":
        parts.append(f"a trump is laid away only by a hand holding more than {hand} trumps, and only the excess")
    if not d["point_trumps"]:
        parts.append("never a trump that scores a point while a trump that scores none could go")
    return "; ".join(parts)


def partner_words(r: Ruleset) -> str:
    """How a table of `partner.counts` calls a partner, in one sentence."""
    p = r.settings["partner"]
    card = {"any": "a card", "trump": "a card (a trump)", "non-trump": "a card (a non-trump)"}[p["may_call"]]
    first = " and must play it to the first trick" if p["first_trick"] else ""
    unheld = "the bidder plays alone" if p["unheld"] == "alone" else "the hand is dealt again"
    them = "the others form one side" if p["defenders"] == "together" else "each of the others plays for himself"
    return (f"with {or_list([str(c) for c in p['counts']])} players the bidder calls {card}; whoever holds it is the "
            f"bidder's partner for that hand{first}; if no other player holds it {unheld}; each player of a side "
            f"scores what the side took; {them}")


SMUDGE_NEEDS = {"worth": "at least {w} points", "every-point": "every point", "every-point-out":
                "every point that is out, game included", "every-trick": "every trick",
                "every-point-and-trick": "every point and every trick"}


def smudge_made(r: Ruleset) -> str:
    """What a made smudge pays: 'scores what it took', 'wins the game at once'."""
    s = r.settings["smudge"]
    w = r.settings["bidding"]["smudge"]
    hole = " (a side in the hole goes to 0 instead)" if s["in_the_hole"] == "to-zero" else ""
    return {"taken": "scores what it took", "worth": f"scores {w}", "points": f"scores {s['made_points']}",
            "win": f"wins the game at once{hole}"}[s["made"]]


def smudge_set(r: Ruleset) -> str:
    """What a failed smudge costs: 'loses 5', 'is set back the target (21)'."""
    s = r.settings["smudge"]
    w = r.settings["bidding"]["smudge"]
    settle = f"loses {w}" if r.settings["settle"]["setback"] == "bid" else "scores nothing"
    return {"settle": settle, "points": f"is set back {s['set_points']}",
            "target": f"is set back the target ({r.settings['win']['target']})", "lose": "loses the game"}[s["set"]]


def smudge_words(r: Ruleset) -> str:
    """'moon (worth 11) needs every point; made, it wins the game at once; set, it loses the game'."""
    b, s = r.settings["bidding"], r.settings["smudge"]
    needs = SMUDGE_NEEDS[s["needs"]].format(w=b["smudge"])
    hole = "; a side in the hole may not bid it" if s["in_the_hole"] == "may-not" else ""
    return (f"{b['smudge_name']} (worth {b['smudge']}) needs {needs}; made, it {smudge_made(r)}; set, it "
            f"{smudge_set(r)}{hole}")


def instant_words(r: Ruleset) -> str:
    """'a side that takes every point of a hand wins at once, whatever the score'."""
    w = r.settings["win"]
    by = " (the bidding side only)" if w["instant_by"] == "bidder" else ""
    out = " that is out" if w["instant"] == "every-point-out" else ""
    return f"a side{by} that takes every point{out} of a hand wins at once, whatever the score"


def _by(r: Ruleset, by: str) -> str:
    """Who overrode a note: 'here' (the file shown), or the house file in between ('by smear-jick')."""
    return "here" if r.chain and by == r.chain[-1] else f"by {Path(by).stem}"


def notes(r: Ruleset) -> tuple[list[str], list[str]]:
    """The notes as `rules show` gives them: each that applies, one whose cited keys a later file changed
    followed by '(overridden here: trump.order)'; and the notes of the rulesets extended that a later file
    dropped (every key they cite changed), each with the keys."""
    marked = {o.text: o for o in r.overridden_notes if not o.dropped}
    shown = [n + (f" (overridden {_by(r, marked[n].by)}: {', '.join(marked[n].keys)})" if n in marked else "")
             for n in r.notes]
    dropped = [f"{o.text} (overridden {_by(r, o.by)}: {', '.join(o.keys)})" for o in r.overridden_notes if o.dropped]
    return shown, dropped


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
