"""Random legal play of random deals, for every built-in ruleset (hypothesis).

A deal is played out card by card, each card drawn at random from what `play.allowed` permits;
each trick's winner is computed here by a small reference adjudicator that reads only the
ruleset's trump order and plain order. The replay of the recorded tricks must agree with it,
find no illegal play, capture exactly the cards played, and give the same verdict as the same
hand entered as `captured`.
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from pitchkeeper.errors import PitchError
from pitchkeeper.game import records, rulesets, sampling, scoring
from pitchkeeper.game.cards import SUITS
from pitchkeeper.game.play import TRUMP, allowed, first_lead_suits, replay, sets_trump

NAMES = rulesets.builtin_names()
LOADED = {n: rulesets.load(n) for n in NAMES}
SAME_COLOUR = {"S": "C", "C": "S", "H": "D", "D": "H"}


def reference_trumps(r: rulesets.Ruleset, trump: str) -> list[str]:
    """The trumps from high to low, read straight off `trump.order`."""
    out = []
    for sym in r.settings["trump"]["order"]:
        if sym in ("HJ", "LJ", "JK"):
            out.append(sym)
        elif sym.startswith("off-"):
            out.append(sym[4:] + SAME_COLOUR[trump])
        else:
            out.append(sym + trump)
    return out


def reference_winner(r: rulesets.Ruleset, trump: str, cards: list[str]) -> int:
    """The highest trump played; else the highest card of the led card's suit by `play.plain_order`."""
    trumps = reference_trumps(r, trump)
    played = [c for c in cards if c in trumps]
    if played:
        return cards.index(min(played, key=trumps.index))
    led = cards[0][-1]
    plain = r.settings["play"]["plain_order"]
    followers = [c for c in cards if c[-1] == led and c not in trumps]
    return cards.index(min(followers, key=lambda c: plain.index(c[:-1])))


def play_out(name: str, seed: int) -> dict[str, Any]:
    """A random deal of `name` played out legally: the record's keys, the winners and the captures."""
    r = LOADED[name]
    rng = random.Random(seed)
    players, teams = sampling.random_table(r, rng)
    n = len(players)
    size = r.settings["deck"]["hand_size"]
    dealer = rng.choice(players)
    bid = sampling.random_bid(r, rng, players, dealer)
    deck = sorted(r.deck)
    rng.shuffle(deck)
    held = {p: deck[i * size:(i + 1) * size] for i, p in enumerate(players)}
    leader = bid["player"] if r.settings["play"]["first_leader"] == "bidder" else \
        players[(players.index(dealer) + 1) % n]
    pitched = None
    if sets_trump(r):  # the pitcher's first card sets trump: choose it, then a trump it can set
        pitched = rng.choice(held[leader])
        trump = rng.choice(first_lead_suits(r, pitched))
    else:
        trump = rng.choice(SUITS)
    view = r.views[trump]
    trump_only = r.settings["play"]["follow"] == "trump-only"
    named = trump_only or rng.random() < 0.5  # folds need named cards; otherwise either form
    hands = {p: list(cs) for p, cs in held.items()}
    out: set[str] = set()
    tricks, winners, captured = [], [], {}
    for t in range(size):
        if trump_only:
            out |= {p for p in players if not any(view.suit[c] == TRUMP for c in hands[p])}
            if len(out) == n:
                break
        start = players.index(leader)
        seats = [players[(start + k) % n] for k in range(n) if players[(start + k) % n] not in out]
        leader = seats[0]  # in trump-only play the lead passes on from a player who is out
        cards: list[str] = []
        led = None
        for p in seats:
            first = t == 0 and not cards
            card = pitched if first and pitched else rng.choice(allowed(r, view, hands[p], led, first).cards)
            hands[p].remove(card)
            cards.append(card)
            led = led or view.suit[card]
        w = seats[reference_winner(r, trump, cards)]
        winners.append(w)
        captured.setdefault(w, []).extend(cards)
        tricks.append({"leader": leader, "cards": [f"{p}:{c}" for p, c in zip(seats, cards, strict=True)]
                       if named else cards})
        leader = w
    base = {"rules": name, "players": players, **({"teams": teams} if teams else {}), "dealer": dealer,
            "trump": trump, "bid": bid, "held": held}
    return {"base": base, "tricks": tricks, "winners": winners, "captured": captured}


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(NAMES), st.integers(0, 2**32 - 1))
def test_random_legal_play_is_adjudicated_as_the_reference_does(name: str, seed: int) -> None:
    g = play_out(name, seed)
    if not g["tricks"]:  # trump-only play where nobody was dealt a trump: nothing to play
        return
    r = LOADED[name]
    table, hand = records.parse_hand_record(g["base"] | {"tricks": g["tricks"]})
    rep = replay(r, table, hand)
    assert rep.illegal == ()
    assert [t.winner for t in rep.tricks] == g["winners"]
    assert {p: sorted(cs) for p, cs in rep.captured} == {p: sorted(cs) for p, cs in g["captured"].items()}
    played = sorted(c for t in g["tricks"] for c in (x.rpartition(":")[2] for x in t["cards"]))
    assert sorted(c for _, cs in rep.captured for c in cs) == played
    v_tricks = scoring.verdict(r, table, hand)
    v_captured = scoring.verdict(r, *records.parse_hand_record(g["base"] | {"captured": g["captured"]}))
    assert v_tricks.to_json() == v_captured.to_json()
    assert v_tricks.illegal == ()


def test_the_generator_plays_every_card_of_a_suit_or_trump_deal() -> None:
    # not trump-only: all n x hand_size cards are played, one trick per card in hand
    g = play_out("seven-point", 7)
    n = len(g["base"]["players"])
    assert len(g["tricks"]) == LOADED["seven-point"].settings["deck"]["hand_size"]
    assert sum(len(cs) for cs in g["captured"].values()) == n * len(g["tricks"])


SPOIL = ["none", "leader", "swap", "held", "twice", "illegal"]


def _spoiled(record: dict[str, Any], how: str, rng: random.Random) -> dict[str, Any]:
    """A played-out record spoiled one way: a wrong leader, two cards of a trick swapped, a held card
    left out, a card played twice, or two players' cards traded (so one of them played illegally)."""
    tricks = [dict(t, cards=list(t["cards"])) for t in record["tricks"]]
    t = rng.choice(tricks)
    if how == "leader":
        t["leader"] = rng.choice(list(record["held"]))
    elif how == "swap" and len(t["cards"]) > 1:
        t["cards"][0], t["cards"][-1] = t["cards"][-1], t["cards"][0]
    elif how == "held":
        p = rng.choice(list(record["held"]))
        record = dict(record, held={**record["held"], p: record["held"][p][1:]})
    elif how == "twice":
        other = rng.choice(tricks)
        t["cards"][-1] = t["cards"][-1].split(":")[0] + ":" + other["cards"][0].split(":")[1]
    elif how == "illegal":
        a, b = t["cards"][0].split(":"), t["cards"][-1].split(":")
        t["cards"][0], t["cards"][-1] = f"{a[0]}:{b[1]}", f"{b[0]}:{a[1]}"
        record = dict(record, held={p: [b[1] if c == a[1] else a[1] if c == b[1] else c for c in cs]
                                    for p, cs in record["held"].items()})
    return dict(record, tricks=tricks)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(NAMES), st.integers(0, 2**32 - 1), st.sampled_from(SPOIL), st.booleans())
def test_a_spoiled_trick_record_is_refused_in_one_line_or_judged_with_its_illegal_plays(
        name: str, seed: int, how: str, held: bool) -> None:
    """Tricks are played back into captured cards and who played each: a record that cannot have been
    played is refused in one line naming the trick or the held cards; one that can is judged, every card
    played captured once, and every illegal play named with the card its player played in that trick."""
    r = LOADED[name]
    rng = random.Random(seed)
    players, teams = sampling.random_table(r, rng)
    record = sampling.random_played(r, rng, players, teams, rng.choice(players))
    if record is None:
        return
    record = _spoiled(record, how, rng)
    if not held:
        del record["held"]
    table = records.parse_table({"players": players, **({"teams": teams} if teams else {})})
    try:
        hand = records.parse_hand(record, table)
    except PitchError:
        return  # refused as written (a card the record cannot hold): the parser's one line, tested elsewhere
    try:
        v = scoring.verdict(r, table, hand)
    except PitchError as e:
        assert how != "none", e
        assert "\n" not in str(e) and (e.where or "").startswith(("tricks", "held", "dealt")), str(e)
        return
    if how == "none":
        assert v.illegal == ()
    played = {(t.number, p, c) for t in v.tricks for p, c in t.plays}
    assert all((i.trick, i.player, i.card) in played for i in v.illegal)
    in_tricks = [c for t in v.tricks for _, c in t.plays]
    assert len(in_tricks) == len(set(in_tricks))
    awarded = [a.point for a in v.awards]
    assert len(awarded) == len(set(awarded))
    assert all(a.card in in_tricks for a in v.awards if a.card is not None)
