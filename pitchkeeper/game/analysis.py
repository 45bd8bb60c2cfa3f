"""A hand recorded trick by trick, analysed with every card known: par, and what each card cost.

For each card in playing order: the value of the position just before it and just after it (game.solver),
what it gave away (`before - after` for the bidding side, `after - before` for any other player), and
every card that would have kept the value. Par is the value before the first lead. One solver, and so one
transposition table, serves every position of the hand. The object is spec section 9's `analyse hand`.

Where a card cost points, the points it gave away are named: the hand is played on perfectly from the
card played and from a card that kept the value, both lines are judged by the verdict engine, and the
points the bidding side takes in one and not the other are the ones named (`lost`, an addition to the
spec's object). Perfect play is seldom one line, so this names a way the points went, not the only one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pitchkeeper.errors import PitchError
from pitchkeeper.game import play, scoring
from pitchkeeper.game.cards import Card
from pitchkeeper.game.deal import name_jokers
from pitchkeeper.game.records import Hand, Play, Table, Trick
from pitchkeeper.game.rulesets import Ruleset
from pitchkeeper.game.solver import Deal, Solver, start_of_play


def not_analysable(hand: Hand) -> str | None:
    """Why a hand cannot be analysed (None when it can): only a hand recorded trick by trick shows every card."""
    if hand.tricks is None:
        how = "by its points" if hand.points is not None else "by the cards each side captured"
        return f"the hand was recorded {how}, not trick by trick: analysis needs every card in its trick"
    return None


def held_cards(ruleset: Ruleset, table: Table, hand: Hand, tricks: Sequence[Any]) -> dict[str, list[Card]]:
    """The cards each player held as play began: `held` where given, else the cards the player played
    (in trump-only play a player plays every trump held, and the rest never matter)."""
    given = {p: list(cs) for p, cs in hand.held}
    out = {p: list(given.get(p, ())) for p in table.players}
    for t in tricks:
        for p, c in t.plays:
            if p not in given:
                out[p].append(c)
    if ruleset.settings["play"]["follow"] != "trump-only":
        size = ruleset.settings["deck"]["hand_size"]
        short = [p for p, cs in out.items() if len(cs) != size]
        if short:
            raise PitchError(f"{short[0]} played {len(out[short[0]])} cards; analysis needs the whole hand of "
                             f"{size} (record every trick, or give held.{short[0]})", "tricks")
    return out


def analyse(ruleset: Ruleset, table: Table, hand: Hand, core: str | None = None, name_points: bool = True) -> dict[str, Any]:
    """The `analyse hand` object of a hand recorded trick by trick (PitchError when it is not, or is bad)."""
    why = not_analysable(hand)
    if why:
        raise PitchError(why, "tricks")
    verdict = scoring.verdict(ruleset, table, hand)  # checks the whole record, and says what was taken
    hand = name_jokers(ruleset, hand)  # two look-alike jokers, named as the verdict named them
    rep = play.replay(ruleset, table, hand)
    held = held_cards(ruleset, table, hand, rep.tricks)
    # the sides of the hand (a called partner's, or the table's), a discard that counts for the bidder, and
    # the called card that its holder, the partner, must play to the first trick (partner.first_trick)
    bid_side = verdict.bid.team or verdict.bid.side
    sides = dict(verdict.hand_sides or ((s, table.members(s)) for s in table.sides))
    side_of = {p: s for s, ps in sides.items() for p in ps}
    laid = verdict.deal
    deal = Deal(ruleset, hand.trump, table.players, side_of, bid_side, laid.counted if laid else (),
                laid.counts if laid else "nothing", verdict.bid.called if verdict.bid.partner else None, hand.dealer)
    leader = rep.tricks[0].leader if rep.tricks else hand.bid.player
    solver = Solver(deal, start_of_play(deal, held, leader), core)
    order = {c: i for i, c in enumerate(solver.cards)}
    value = par = solver.value()
    plays: list[dict[str, Any]] = []
    line: list[tuple[str, Card, bool]] = []  # (player, card, ends its trick) of the plays so far
    # An illegal play (a revoke the held cards or the later tricks prove, judged by game.play) is no choice
    # between cards the rules allowed: pricing it, or the cards after it in a hand the rules could not
    # reach, would blame a player for a "misplay" the revoke rule settles. The analysis stops at it.
    illegal = {(i.trick, i.player, i.card): i for i in verdict.illegal}
    stop: dict[str, Any] | None = None
    for t in rep.tricks:
        for p, c in t.plays:
            before = value
            due = solver.to_play() == p
            best = sorted(solver.best(before), key=order.__getitem__) if due else []
            bad = illegal.get((t.number, p, c))
            if bad is not None:
                stop = {"trick": t.number, "player": p, "card": c, "rule": bad.rule, "why": bad.why}
                plays.append({"trick": t.number, "player": p, "card": c, "before": before, "after": None,
                              "cost": 0, "best": best, "illegal": bad.rule})
                break
            _push(solver, p, c)
            value = solver.value()
            line.append((p, c, not solver.trick()))
            raw = before - value if side_of[p] == bid_side else value - before
            entry = {"trick": t.number, "player": p, "card": c, "before": before, "after": value,
                     "cost": max(0, raw), "best": best}
            if name_points and raw > 0 and best:
                entry["lost"] = _lost(ruleset, table, hand, held, solver, line, best[0], bid_side, side_of[p] == bid_side)
            plays.append(entry)
        if stop is not None:
            break
    costs = dict.fromkeys(table.players, 0)
    for e in plays:
        costs[e["player"]] += e["cost"]
    bid = verdict.to_json()["bid"]
    out = {"rules": ruleset.name, "trump": hand.trump,
           "bid": {"side": bid_side, "player": bid["player"], "amount": bid["amount"],
                   **({"name": bid["name"]} if "name" in bid else {})},
           "par": par, "taken": verdict.taken[verdict.bid.side], "plays": plays, "costs": costs}
    if stop is not None:
        out["illegal"] = stop  # the first illegal play, where the analysis stops (an addition to the spec's object)
    return out


def _push(solver: Solver, player: str, card: Card) -> None:
    """Play a card of the record: as the rules allow it, or (an illegal play, judged elsewhere) as it was."""
    if solver.to_play() == player and card in solver.moves():
        solver.push(card)
    else:
        solver.push_any(player, card)


# ---------------------------------------------------------------------------
# Naming the points a card gave away


def _finish(solver: Solver) -> list[tuple[str, Card, bool]]:
    """Play the hand out perfectly from the solver's position (each time the first card that keeps the
    value), and take it all back; the plays made, each with whether it ended its trick."""
    out = []
    while (p := solver.to_play()) is not None:
        v = solver.value()
        card = next(cls[0] for cls in solver.classes() if solver.keeps(cls[0], v))
        solver.push(card)
        out.append((p, card, not solver.trick()))
    for _ in out:
        solver.pop()
    return out


def _tricks(line: Sequence[tuple[str, Card, bool]]) -> tuple[Trick, ...]:
    out: list[Trick] = []
    cur: list[Play] = []
    for p, c, ends in line:
        cur.append(Play(p, c))
        if ends:
            out.append(Trick(cur[0].player or "", tuple(cur)))
            cur = []
    return tuple(out)


def _as_held(held: Mapping[str, Sequence[Card]], line: Sequence[tuple[str, Card, bool]]) -> list[tuple[str, Card, bool]]:
    """The line with each look-alike joker named as its player held it when play began. The solver renames
    the two as they fall (game.search), so a line it played may name one joker twice; the verdict engine
    names them again by the rule (game.deal.name_jokers)."""
    owner = {c: p for p, cs in held.items() for c in cs if c in ("HJ", "LJ")}
    out = []
    for p, c, ends in line:
        if c in ("HJ", "LJ"):
            mine = [j for j, q in owner.items() if q == p]
            c = c if c in mine else mine[0] if mine else c
            owner.pop(c, None)
        out.append((p, c, ends))
    return out


def _bidder_points(ruleset: Ruleset, table: Table, hand: Hand, held: Mapping[str, Sequence[Card]],
                   line: Sequence[tuple[str, Card, bool]], bid_side: str) -> set[str]:
    """The points the bidding side takes in a whole line of play, as the verdict engine judges it."""
    tricks = _tricks(_as_held(held, line) if "jokers-alike" in ruleset.features else line)
    whole = hand._replace(tricks=tricks, held=tuple((p, tuple(cs)) for p, cs in held.items() if cs), revokes=(),
                          auction=())
    v = scoring.verdict(ruleset, table, whole)
    return {a.point for a in v.awards if a.side == bid_side}


def _lost(ruleset: Ruleset, table: Table, hand: Hand, held: Mapping[str, Sequence[Card]], solver: Solver,
          line: list[tuple[str, Card, bool]], good: Card, bid_side: str, bidding: bool) -> list[str]:
    """The points the last card of `line` gave away: the bidding side's points with perfect play on from
    it, against those from `good` (a card that kept the value) in its place."""
    try:
        played = line + _finish(solver)
        p, card, _ = line[-1]
        solver.pop()
        try:
            solver.push(good)
            alt = [*line[:-1], (p, good, not solver.trick()), *_finish(solver)]
        finally:
            solver.pop()
            _push(solver, p, card)
        mine = _bidder_points(ruleset, table, hand, held, played, bid_side)
        kept = _bidder_points(ruleset, table, hand, held, alt, bid_side)
    except PitchError:  # a line the verdict engine refuses (a record with an illegal play before it): unnamed
        return []
    lost = kept - mine if bidding else mine - kept
    return [p.id for p in ruleset.award_order if p.id in lost]
