"""The disputes about bidding, scoring and winning: the smudge (moon), a set bidder, everybody passing,
the dealer's privilege, the sale, who goes out, calling a partner, sandbagging, counting down, three
sets. Each answer reads only the ruleset's settings and point catalogue. (words.disputes lists them.)"""

from __future__ import annotations

from pitchkeeper.errors import or_list
from pitchkeeper.game.cards import pretty
from pitchkeeper.game.rulesets import SECTIONS, Ruleset
from pitchkeeper.words import explain
from pitchkeeper.words import samples as sm
from pitchkeeper.words.samples import Parts

_NUMBERS = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine"}


def _game_is(side: str) -> str:
    return f"the game goes to {side}"


def _down(r: Ruleset) -> bool:
    return r.direction == "down"


def there(r: Ruleset, beyond: int = 0) -> int:
    """The score a side shows once it has got there, `beyond` points past the least that does."""
    w = r.settings["win"]
    least = 1 if w["reach"] == "exceed" else 0
    return -(least + beyond) if _down(r) else w["target"] + least + beyond


# ---------------------------------------------------------------------------
# The smudge (moon)


def smudge(r: Ruleset) -> Parts:
    b = r.settings["bidding"]
    if not b["smudge"]:
        return Parts(f"no {b['smudge_name']} bid: bids {b['min']} to {b['max']}",
                     f"There is no {b['smudge_name']} (moon) bid: bids run from {b['min']} to {b['max']}, and taking "
                     "everything scores only the points taken.", "-", ("bidding.smudge",))
    s = r.settings["smudge"]
    total = r.max_points
    w = b["smudge"]
    if s["needs"] == "worth":
        ps = sm.points_of(r, "all-tricks")
        needs = (f"every point, {ps[0].label} included" if w >= total and ps else f"{w} of the {total} points")
    else:
        needs = explain.SMUDGE_NEEDS[s["needs"]].format(w=w)
    made, fell = explain.smudge_made(r), explain.smudge_set(r)
    hole = " A side in the hole may not bid it (smudge.in_the_hole)." if s["in_the_hole"] == "may-not" else ""
    instant = ""
    if r.settings["win"]["instant"] != "none":
        instant = f" Whatever was bid, {explain.instant_words(r)} (win.instant)."
    keys = ("bidding.smudge", "points", *(f"smudge.{k}" for k, v in s.items() if v != SECTIONS["smudge"][k].default))
    size = r.settings["deck"]["hand_size"]
    a = sm.sides(r)[0]
    paid = {"taken": f"+{total}", "worth": f"+{w}", "points": f"+{s['made_points']}",
            "win": "the game is won at once"}[s["made"]]
    lost = {"settle": f"-{w}" if r.settings["settle"]["setback"] == "bid" else "+0",
            "points": f"-{s['set_points']}", "target": f"-{r.settings['win']['target']}",
            "lose": "the game is lost at once"}[s["set"]]
    if _down(r):
        paid = paid.replace("+", "down ") if paid[0] == "+" else paid
        lost = lost.replace("-", "back up ") if lost[0] == "-" else lost
    return Parts(f"a bid worth {w}: it needs {needs}" + ("" if s["made"] == "taken" else f"; made, it {made}"),
                 f"{b['smudge_name'].capitalize()} is a bid worth {w}, above every number: the bidding side must "
                 f"take {needs}; made, it {made}; set, it {fell}.{hole}{instant}",
                 f"{a} bid {b['smudge_name']} and took every point and all {size} tricks: {paid}; one point short: "
                 f"{lost}", keys)


def jack_out(r: Ruleset) -> Parts:
    jack = sm.card_point(r, "J")
    total = r.max_points
    b = r.settings["bidding"]
    if not jack:
        return Parts("there is no jack point", "This ruleset scores no point for the jack of trumps.", "-", ("points",))
    left = total - jack.value
    top = b["smudge"] or b["max"]
    name = b["smudge_name"] if b["smudge"] else str(b["max"])
    needs = r.settings["smudge"]["needs"]
    fail: list[int | str] = [x for x in range(b["min"], b["max"] + 1) if x > left]
    keys: tuple[str, ...] = ("points", "bidding.max", "bidding.smudge")
    if b["smudge"] and ((needs == "worth" and b["smudge"] > left) or needs in ("every-point",
                                                                              "every-point-and-trick")):
        fail.append(name)
    can = (f"bids above {left} ({or_list([str(x) for x in fail])}) cannot be made"
           if fail else f"every bid up to {top} can still be made")
    out = ""
    if b["smudge"] and needs in ("every-point-out", "every-trick"):
        out = (f" A {name} needs every point that is out{', game included' if sm.game_points(r) else ''}, so it can be "
               "made without the jack." if needs == "every-point-out"
               else f" A {name} needs every trick, not every point, so it can be made without the jack.")
        keys = (*keys, "smudge.needs")
    elif b["smudge"] and needs in ("every-point", "every-point-and-trick"):
        out = f" A {name} needs every point of the {total}, so it cannot be made when a point's card is not dealt."
        keys = (*keys, "smudge.needs")
    return Parts(f"nobody scores it; at most {left} points are out, so {can}",
                 f"If the jack of trumps is not dealt, nobody scores its point: at most {sm.worth(left)} of the "
                 f"{total} are out that hand, so {can}.{out}",
                 f"spades trump, {pretty(sm.trump(r, 'J'))} left in the stock: a side taking every other point has "
                 f"{left}", keys)


# ---------------------------------------------------------------------------
# Scoring


def setback(r: Ruleset) -> Parts:
    st = r.settings["settle"]
    a, b = sm.sides(r)
    set_back = st["setback"] == "bid"
    n = sm.bid(r)
    down = _down(r)
    if down:
        ex = f"{a} bid {n} and took {n - 1}: {a} " + (f"goes back up {n}" if set_back else "stays put")
        if st["defenders_score"]:
            ex += f"; {b}, who took 1, comes down 1"
    else:
        ex = f"{a} bid {n} and took {n - 1}: {a} " + (f"-{n}" if set_back else "+0")
        if st["defenders_score"]:
            ex += f"; {b}, who took 1, +1"
    back = " and goes back up the amount bid" if down else " and is set back the amount bid"
    b_ = r.settings["bidding"]
    moon = ""
    keys: tuple[str, ...] = ("settle.setback", "settle.defenders_score")
    if b_["smudge"] and r.settings["smudge"]["set"] != "settle":
        moon = f" A failed {b_['smudge_name']} {explain.smudge_set(r)} (smudge.set)."
        keys = (*keys, "smudge.set")
    if down:
        keys = (*keys, "win.direction")
    return Parts("no: it scores nothing" + (back if set_back else ""),
                 "No. A bidding side short of its bid scores none of the points it took"
                 + (f"{back}. " if set_back else ". ")
                 + ("The other sides still score what they took." if st["defenders_score"]
                    else "The other sides score nothing either.") + moon,
                 ex, keys)


def negative(r: Ruleset) -> Parts:
    a, n = sm.sides(r)[0], sm.bid(r)
    if _down(r):
        t = r.settings["win"]["target"]
        if r.settings["settle"]["negative"]:
            return Parts("yes: a score may go back above the start",
                         f"Yes: counting down from {t}, a set side's score may go back above {t} (\"in the hole\").",
                         f"{a}, on {t - 1}, bid {n} and got set: {a} now on {t - 1 + n}",
                         ("settle.negative", "win.direction"))
        return Parts("no: a score never goes above the start",
                     f"No: counting down from {t}, a score never goes back above {t}.",
                     f"{a}, on {t - 1}, bid {n} and got set: {a} now on {t}", ("settle.negative", "win.direction"))
    if r.settings["settle"]["negative"]:
        return Parts("yes: scores may go below zero", "Yes: a score may go below zero (\"in the hole\").",
                     f"{a}, on 1, bid {n} and got set: {a} now on {1 - n}", ("settle.negative",))
    return Parts("no: scores stop at zero", "No: a score never goes below zero.",
                 f"{a}, on 1, bid {n} and got set: {a} now on 0", ("settle.negative",))


# ---------------------------------------------------------------------------
# Bidding


def all_pass(r: Ruleset) -> Parts:
    b = r.settings["bidding"]
    forced = b["forced_bid"] or b["min"]
    players = sm.seats(r).players
    dealer = players[0]
    if b["all_pass"] == "dealer-forced":
        exact = b["forced_exact"]
        how = "exactly" if exact else "at least"
        return Parts(f"the dealer is stuck and must bid {how} {forced}",
                     f"If all the others pass, the dealer is stuck: the dealer must bid {how} {forced}"
                     + (f" ({b['min']} is not enough)" if forced > b["min"] else "")
                     + (", and no more" if exact and forced < b["max"] else "") + ".",
                     f"{sm.others(players, dealer)} {'pass' if len(players) > 2 else 'passes'}: {dealer}, the "
                     f"dealer, must bid {forced}"
                     + ("" if exact else " or more"),
                     ("bidding.all_pass", "bidding.forced_bid", *(("bidding.forced_exact",) if exact else ())))
    if b["all_pass"] == "redeal":
        return Parts("the hand is thrown in and dealt again", "If everyone passes, the hand is thrown in and dealt "
                     "again.", f"all {_NUMBERS.get(len(players), len(players))} pass: no score, a new deal",
                     ("bidding.all_pass",))
    eldest = players[1]
    return Parts("the eldest hand pitches without a contract",
                 "If nobody bids, the eldest hand (left of the dealer) pitches without having to make anything: it "
                 "cannot be set back (record the bid as 0).",
                 f"everyone passes: {eldest}, left of the dealer, pitches; bid = {{ player = \"{eldest}\", amount = 0 }}",
                 ("bidding.all_pass",))


def steal(r: Ruleset) -> Parts:
    b = r.settings["bidding"]
    last = "the eldest hand" if b["auction"] == "sell-out" else "the dealer"
    top = b["smudge_name"] if b["smudge"] else str(b["max"])
    lo = max(b["min"], min(3, b["max"] - 1))
    if b["steal"] == "none":
        return Parts(f"no: {last} must outbid like everyone else",
                     f"No. {last.capitalize()} has no privilege: to take the contract, bid higher.",
                     f"Bob bids {lo}: the dealer must bid {lo + 1} to take it", ("bidding.steal",))
    if b["steal"] == "below-top":
        return Parts(f"yes, by equalling any bid but the top ({top})",
                     f"Yes. {last.capitalize()}, speaking last, may take the contract by equalling the highest bid, "
                     f"except the top bid ({top}), which nobody can take away.",
                     f"Bob bids {lo}: the dealer may say {lo} and pitch; Bob bids {top}: the dealer cannot take it",
                     ("bidding.steal",))
    return Parts("yes, by equalling the high bid at any level",
                 f"Yes. {last.capitalize()}, speaking last, may take the contract by equalling the highest bid, even "
                 f"the top bid ({top}).", f"Bob bids {top}: {last} may say {top} and pitch", ("bidding.steal",))


def sell_out(r: Ruleset) -> Parts:
    b = r.settings["bidding"]
    if b["auction"] != "sell-out":
        return Parts("no sale: one round of bidding", "There is no sale: the auction is one round of bidding from "
                     "the dealer's left, each bid higher than the last.", "-", ("bidding.auction",))
    at_once = (f" Pitching at once, without offering it, the eldest must make {b['pitch_at_once']}."
               if b["pitch_at_once"] else "")
    credit = {"none": "The seller scores nothing for the sale.",
              "seller": "The seller scores the price of the sale at once.",
              "buyer": "If the eldest keeps the pitch at the top price, the top bidder scores that price."}
    return Parts("the eldest pitches or sells; " + {"none": "a sale scores nothing",
                                                    "seller": "the seller scores the price",
                                                    "buyer": "keeping it credits the bidder"}[b["sale_credit"]],
                 f"The eldest hand owns the pitch: it may pitch at once or offer it for sale; the others bid once "
                 f"each, and the eldest then sells to the top bidder or keeps the pitch by undertaking as many."
                 f"{at_once} {credit[b['sale_credit']]}",
                 "Ann (eldest) passes, Bob bids 2, Cy 3: Ann sells to Cy, or keeps the pitch and must make 3",
                 ("bidding.auction", "bidding.pitch_at_once", "bidding.sale_credit", "bidding.steal"))


# ---------------------------------------------------------------------------
# Winning

_PRECEDENCE = {
    "bidder": "the bidding side goes out first, even with fewer points",
    "higher": "the higher total wins",
    "count-out": "the points are counted in order ({order}) and the first side there wins",
}


def both_over(r: Ruleset) -> Parts:
    w = r.settings["win"]
    a, b = sm.sides(r)
    first_of_all = ""
    keys: tuple[str, ...] = ("win.precedence", "win.count_out")
    if w["instant"] != "none":
        first_of_all = f"First, {explain.instant_words(r)}. "
        keys = (*keys, "win.instant")
    if _down(r):
        keys = (*keys, "win.direction")
    if w["only_bidder"]:
        return Parts("only the bidding side can win, so the others' totals do not matter",
                     f"{first_of_all}Only the bidding side can win, at the end of a hand it bid, so a defender over "
                     "the target does not win; the bidding side wins even with fewer points.",
                     f"{b} on {there(r, 2)}, {a} bid, made it and reached {there(r)}: {_game_is(a)}",
                     ("win.only_bidder", *keys[2:]))
    steps = "; then ".join(_PRECEDENCE[x].format(order=", ".join(w["count_out"])) for x in w["precedence"])
    first = w["precedence"][0]
    level = there(r, 1)
    outcome = {"bidder": _game_is(a),
               "higher": f"{_game_is(b)} (" + ("nearer 0" if _down(r) else "higher") + ")"
               + (f"; level at {level}, it would be {a}'s" if w["precedence"][1:2] == ["bidder"] else ""),
               "count-out": f"count {', '.join(w['count_out'])} in order: the first side there wins"}[first]
    ex = f"{a} (bidding) reached {there(r)} and {b} {there(r, 2)} in the same hand: {outcome}"
    higher = "the score nearer 0 wins" if _down(r) else "the higher total wins"
    words = steps.replace("the higher total wins", higher)
    return Parts(_PRECEDENCE[first].format(order=", ".join(w["count_out"])).replace("the higher total wins", higher),
                 f"{first_of_all}When several sides get there in the same hand: {words}.", ex, keys)


def _stop_short(r: Ruleset) -> str:
    return (" A defending side's score stops one short of getting out: a side must bid to go out "
            "(win.defenders_stop_short).") if r.settings["win"]["defenders_stop_short"] else ""


def defenders(r: Ruleset) -> Parts:
    w = r.settings["win"]
    a, b = sm.sides(r)
    short = _stop_short(r)
    keys: tuple[str, ...] = ("win.only_bidder", "win.bidder_must_make", "win.set_and_win",
                             "win.defenders_stop_short")
    if w["only_bidder"]:
        made = " and only if it made its bid" if w["bidder_must_make"] else ""
        if w["set_and_win"]:
            return Parts("only the bidding side, or a defending side that sets it",
                         f"Only the bidding side can win, at the end of a hand it bid{made}; but a defending side that "
                         "sets the bidder and gets there wins too (win.set_and_win).",
                         f"{b} reached {there(r)} while defending and set {a}: {_game_is(b)}; had {a} made it, no win "
                         "yet", keys)
        return Parts("no: only the bidding side can win",
                     f"No. Only the bidding side can win, at the end of a hand it bid{made}; the winner may have fewer "
                     f"points than a loser.{short}",
                     f"{b} reached {there(r, 3)} while defending: no win yet; a hand later {a} bid, made it and "
                     f"reached {there(r)}: {_game_is(a)}", keys)
    anyway = " Setting the bidder changes nothing here: defenders can win anyway." if w["set_and_win"] else ""
    if w["defenders_stop_short"]:
        return Parts("no: a defending side stops one short; a side must bid to go out",
                     f"Not on defence: any side may win, but a defending side's score stops one short of getting out, "
                     f"so a side must bid to go out (win.defenders_stop_short).{anyway}",
                     f"{b} needed 2 and took 3 while defending: {b} stops one short; it must bid to go out", keys)
    return Parts("yes: any side that gets there wins",
                 f"Yes. Any side that reaches the target wins, bidding or not.{anyway}",
                 f"{b} reached {there(r)} while defending: {_game_is(b)}", keys)


def reach(r: Ruleset) -> Parts:
    w = r.settings["win"]
    t = w["target"]
    if _down(r):
        keys = ("win.reach", "win.target", "win.direction")
        if w["reach"] == "reach":
            return Parts("reach: 0 is enough", f"Everyone counts down from {t}: reaching 0 wins.",
                         "a side on exactly 0: it has won", keys)
        return Parts("exceed: 0 is not enough, below 0 is", f"Everyone counts down from {t}, and must pass 0: "
                     "below 0 wins, 0 does not.", "a side on exactly 0: not yet; on -1: won", keys)
    if w["reach"] == "reach":
        return Parts(f"reach: {t} is enough", f"Reaching the target is enough: {t} or more wins.",
                     f"a side on exactly {t}: it has won", ("win.reach", "win.target"))
    return Parts(f"exceed: {t} is not enough, {t + 1} is", f"The target must be passed: more than {t} wins, {t} "
                 "does not.", f"a side on exactly {t}: not yet; on {t + 1}: won", ("win.reach", "win.target"))


# ---------------------------------------------------------------------------
# The house rules' disputes


def call_partner(r: Ruleset) -> Parts:
    p = r.settings["partner"]
    keys = ("partner.counts", "partner.may_call", "partner.unheld", "partner.first_trick", "partner.defenders",
            "settle.defenders_score")
    if not p["counts"]:
        s = sm.seats(r)
        how = ("partners are the match's fixed teams" if s.teams else "each plays for himself")
        return Parts(f"no partner is called: {how}",
                     f"No partner is called: {how}" + (", the same every hand." if s.teams else ", every hand.")
                     + " (A house rule can make a table call one: partner.counts.)", "-",
                     ("partner.counts", "players.team_sizes"))
    seats = sm.calling_seats(r)
    assert seats is not None
    n = len(seats.players)
    card = {"any": "any card of the deck", "trump": "a trump", "non-trump": "a card that is not a trump"}[p["may_call"]]
    first = ("; the holder must play it to the first trick, whatever the follow rules say" if p["first_trick"]
             else "")
    unheld = ("the bidder plays alone against all the others" if p["unheld"] == "alone"
              else "the hand is void and dealt again")
    together = p["defenders"] == "together"
    d_score = r.settings["settle"]["defenders_score"]
    them = ("each of the others scores what they took together" if together else
            "each of the others scores what he took himself") if d_score else "the others score nothing"
    answer = (f"At {or_list([_NUMBERS.get(c, str(c)) for c in p['counts']])} players the bidder, after the auction, "
              f"calls {card}, which it may not hold itself. Whoever holds it when play begins is the bidder's partner "
              f"for that hand only (known when the card is played){first}. If no other player holds it (not dealt, "
              f"in the kitty, or drawn by the bidder), {unheld}. "
              + ("The others play together as one side. " if together else "Each of the others plays for himself. ")
              + "Scores stay each player's own: the bidder and the partner each score what they took together, or "
              f"each lose the bid when set; {them}.")
    b = sm.bid(r)
    total = r.max_points
    took = min(b + 1, total)
    rest = total - took
    called = pretty(sm.trump(r, r.settings["trump"]["order"][0])) if p["may_call"] != "non-trump" else "A♥"
    others = [x for x in seats.players if x not in ("Ann", "Cy")]
    names = f"{', '.join(others[:-1])} and {others[-1]}" if len(others) > 1 else others[0]
    if together:
        theirs = f"{names} took {rest} together: +{rest if d_score else 0} each"
    else:
        theirs = f"{names} each score what they took" if d_score else f"{names} +0"
    ex = (f"{_NUMBERS.get(n, str(n))} players: Ann bids {b} and calls {called}; Cy holds it: Ann and Cy against "
          f"{names}; they take {took}: Ann +{took}, Cy +{took}; {theirs}")
    return Parts(f"yes, at {or_list([str(c) for c in p['counts']])}: the holder of the called card is partner for "
                 "the hand", answer, ex, keys)


def sandbagging(r: Ruleset) -> Parts:
    w = r.settings["win"]
    a, b = sm.sides(r)
    d = r.settings["settle"]["defenders_score"]
    score = (" Defenders score what they take." if d else " Defenders score nothing they take.")
    keys = ("win.only_bidder", "win.bidder_must_make", "win.set_and_win", "win.defenders_stop_short",
            "settle.defenders_score")
    if w["only_bidder"]:
        made = ", and only having made its bid" if w["bidder_must_make"] else ""
        unless = "; except by setting the bidder" if w["set_and_win"] else ""
        outcome = (f"no win unless {a} was set" if w["set_and_win"] else "no win: it must bid to go out")
        return Parts(f"no: only the bidding side can win{made}{unless}",
                     f"No: only the bidding side can win{made}{unless}, so a side must bid to go out.{score}"
                     + _stop_short(r),
                     f"{_sandbag(b)}: {outcome}", keys)
    if w["defenders_stop_short"]:
        return Parts("no: a defending side stops one short of getting out; it must bid to go out",
                     f"No: a defending side's score stops one short of getting out, so a side must bid to go out "
                     f"(win.defenders_stop_short).{score}",
                     f"{_sandbag(b)}: {b} {sm.verb(b, 'stop', 'stops')} one short", keys)
    return Parts("yes: a side that passes can win on defence",
                 f"Yes: any side that gets there wins, bidding or not, so a side may pass a good hand and win on "
                 f"defence.{score}",
                 f"{_sandbag(b)}: {_game_is(b)}", keys)


def _sandbag(side: str) -> str:
    return (f"{side} {sm.verb(side, 'pass', 'passes')} a good hand and {sm.verb(side, 'take', 'takes')} enough on "
            "defence to get there")


def count_down(r: Ruleset) -> Parts:
    w = r.settings["win"]
    t = w["target"]
    a, b = sm.sides(r)
    n = sm.bid(r)
    m = max(r.settings["bidding"]["min"], 1)
    keys = ("win.direction", "win.target", "win.reach", "settle.setback", "settle.negative")
    goal = "reaches" if w["reach"] == "reach" else "passes"
    if not _down(r):
        return Parts(f"up: everyone starts at 0 and the first to {t} wins",
                     f"Scores count up: everyone starts at 0, and a side wins when it {goal} {t}.",
                     f"{a} on 0 bid {n} and made it: {a} on {n}", keys)
    win_at = "0" if w["reach"] == "reach" else "below 0"
    set_back = r.settings["settle"]["setback"] == "bid"
    were = sm.verb(b, "were", "was")
    up = f"{b} bid {m} and {were} set: {b} on {t + m if set_back else t}"
    if set_back and not r.settings["settle"]["negative"]:
        up = f"{b} bid {m} and {were} set: {b} {sm.verb(b, 'stay', 'stays')} on {t} (never above the start)"
    return Parts(f"down: everyone starts at {t} and counts down; the game is won at {win_at}",
                 f"Scores count down: everyone starts at {t}, what a side makes is taken off, and a side wins at "
                 f"{win_at}." + (" A set side goes back up the amount bid." if set_back else ""),
                 f"{a} on {t} bid {n} and made it: {a} on {t - n}; {up}", keys)


def three_sets(r: Ruleset) -> Parts:
    k = r.settings["win"]["sets_out"]
    if not k:
        return Parts("no: a side may be set any number of times",
                     "No: a side may be set any number of times and play on.", "-", ("win.sets_out",))
    seats = sm.seats(r)
    a, b = seats.sides
    two = (seats.teams is not None and len(seats.teams) == 2) or len(seats.players) == 2
    partner = (" At a table that calls a partner, the bidder and the partner each count one."
               if r.settings["partner"]["counts"] else "")
    were = sm.verb(b, "were", "was")
    ex = (f"{b} {were} set for the {_ordinal(k)} time: {b} {sm.verb(b, 'are', 'is')} out and {a} "
          f"{sm.verb(a, 'win', 'wins')} at once" if two else
          f"{b} {were} set for the {_ordinal(k)} time: {b} {sm.verb(b, 'leave', 'leaves')} the table and the "
          "others play on")
    return Parts(f"yes: a side set {k} times is out; with two sides the other wins at once",
                 f"Yes: a side set {k} times (a hand in which it bid and did not make it) is out of the game. With two "
                 f"sides the other wins at once; with more, the game goes on without it: its players leave the table, "
                 f"its score stays as it is, and it cannot win.{partner}", ex, ("win.sets_out",))


def _ordinal(k: int) -> str:
    return {1: "first", 2: "second", 3: "third", 4: "fourth", 5: "fifth"}.get(k, f"{k}th")


# ---------------------------------------------------------------------------
# Misdeal (D19) and bidding over a partner (D22)


def misdeal(r: Ruleset) -> Parts:
    players = sm.seats(r).players
    dealer, left = players[0], players[1]
    again = dealer if r.settings["deck"]["misdeal"] == "same-dealer" else left
    who = "the same dealer" if again == dealer else "the next player (the dealer's left)"
    return Parts(f"dealt again by {who}",
                 f"A misdeal (a card turned face up, the wrong number of cards dealt) is thrown in and dealt again by "
                 f"{who}; nobody scores. pitchkeeper keeps only hands played, so nothing is entered for it.",
                 f"{dealer} deals, a card turns up: misdeal; {again} deals again", ("deck.misdeal",))


def over_partner(r: Ruleset) -> Parts:
    s = sm.seats(r)
    b = r.settings["bidding"]
    lo = b["min"]
    if s.teams is None and not s.calls:
        return Parts("no partners: every bid is against the others",
                     "Everyone plays for himself here, so there is no partner to bid over: any player may outbid "
                     "any other.", "-", ("players.team_sizes",))
    if s.teams is None:  # a partner called after the auction: unknown while bidding
        return Parts("yes: the partner is called after the bid, so nobody bids over a known partner",
                     "The bidder calls a partner only after the auction, so while bidding nobody has a partner: "
                     "anyone may outbid anyone.", "-", ("partner.counts", "bidding.over_partner"))
    a, mate = s.teams[0][1][0], s.teams[0][1][1]
    if b["over_partner"]:
        return Parts("yes: a partner's bid may be raised like anyone's",
                     "Yes. A player may bid over its own partner, as over anyone: the higher bid takes the "
                     "contract for the side, and the side must make the higher bid.",
                     f"{a} bids {lo}, {mate} (partner) may bid {lo + 1}: the side must then make {lo + 1}",
                     ("bidding.over_partner",))
    return Parts("no: a partner's high bid stands",
                 "No. While a player's partner holds the high bid, the player may only pass; a bid over the "
                 "partner is refused (the auction records it as an error).",
                 f"{a} bids {lo}: {mate} (partner) must pass", ("bidding.over_partner",))
