"""Random but valid hand records, for property tests, benchmarks and demos.

The hands follow the ruleset's data: its deck, hand size, player counts and team sizes, and
(in trump-only play) only trumps are captured. Where the ruleset deals a kitty, has a draw or calls a
partner, the deal goes through them as a table would (the bidder takes the kitty and lays away, each
player throws and draws from the bidder's left, by the lay-away rules of game.deal) and the record
names the kitty, the discards, the cards drawn, the called card and its holder. They are records as a
person would write them, so they exercise the same parsing and checking as real input.
"""

from __future__ import annotations

import random
from typing import Any, NamedTuple

from pitchkeeper.game.cards import SUITS, Card
from pitchkeeper.game.deal import TRUMP, may_lay_away, must_throw
from pitchkeeper.game.partners import crosswise
from pitchkeeper.game.play import allowed, first_lead_suits, sets_trump, winner_index
from pitchkeeper.game.records import parse_hand, parse_table, team_sizes_for
from pitchkeeper.game.rulesets import Ruleset, TrumpView
from pitchkeeper.game.scoring import verdict

NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ida")
_HOUSE = frozenset({"kitty", "draw", "partner"})


def random_table(ruleset: Ruleset, rng: random.Random,
                 seating: str = "crosswise") -> tuple[list[str], dict[str, list[str]] | None]:
    """Players in seating order and, for partnership play, teams: seated crosswise (partners alternate),
    or with `seating = "any"` any partition of the seats into teams of the size (partners side by side too)."""
    ps = ruleset.settings["players"]
    n = rng.choice(ps["counts"])
    players = list(NAMES[:n])
    size = rng.choice(team_sizes_for(ps["team_sizes"], n))
    if size == 1:
        return players, None
    if seating == "any":
        seats = list(range(n))
        rng.shuffle(seats)
        return players, {f"T{t + 1}": [players[i] for i in sorted(seats[t * size:(t + 1) * size])]
                         for t in range(n // size)}
    crossed = crosswise(players, size)  # partners alternate: the logbook's seating, named T1, T2, ...
    assert crossed is not None  # the size is one n players can sit in (team_sizes_for)
    return players, {f"T{t + 1}": list(members) for t, (_, members) in enumerate(crossed)}


def random_bid(ruleset: Ruleset, rng: random.Random, players: list[str], dealer: str) -> dict[str, Any]:
    """A bid the ruleset allows; a pitch without a contract (0) goes to the eldest hand."""
    b = ruleset.settings["bidding"]
    choices: list[Any] = list(range(b["min"], b["max"] + 1))
    if b["smudge"]:
        choices.append("smudge")
    if b["all_pass"] == "eldest-pitches":
        choices.append(0)
    amount = rng.choice(choices)
    # a pitch without a contract (0) is the eldest hand's, at the dealer's left
    player = players[(players.index(dealer) + 1) % len(players)] if amount == 0 else rng.choice(players)
    return {"player": player, "amount": amount}


class _Deal(NamedTuple):
    size: int  # deck.hand_size: the cards a hand is played with
    house: bool  # a kitty, a draw or a called partner comes between the deal and the play
    deck: list[str]  # the shuffled deck
    rest: list[str]  # what is left of it after the deal
    held: dict[str, list[str]]  # each player's cards as dealt
    dealer: str
    bid: dict[str, Any]


def _random_deal(ruleset: Ruleset, rng: random.Random, players: list[str], dealer: str | None) -> _Deal:
    """A shuffled deck dealt round (deck.deal_size each where a house rule deals more than are played),
    a dealer (random unless given) and a random auction's winning bid."""
    size = ruleset.settings["deck"]["hand_size"]
    house = bool(ruleset.features & _HOUSE)
    dealt_size = (ruleset.settings["deck"]["deal_size"] or size) if house else size
    deck = sorted(ruleset.deck)
    rng.shuffle(deck)
    held = {p: deck[i * dealt_size:(i + 1) * dealt_size] for i, p in enumerate(players)}
    dealer = dealer or rng.choice(players)
    return _Deal(size, house, deck, deck[len(players) * dealt_size:], held, dealer,
                 random_bid(ruleset, rng, players, dealer))


def random_hand(ruleset: Ruleset, rng: random.Random, players: list[str], teams: dict[str, list[str]] | None,
                dealer: str | None = None, quick: bool = False) -> dict[str, Any]:
    """The per-hand keys of a record: a random deal (through any kitty, draw and called partner), played
    out into random whole tricks."""
    while True:
        hand = _random_hand(ruleset, rng, players, teams, dealer, quick)
        if hand is not None:
            return hand


def _random_hand(ruleset: Ruleset, rng: random.Random, players: list[str], teams: dict[str, list[str]] | None,
                 dealer: str | None, quick: bool) -> dict[str, Any] | None:
    n = len(players)
    size, house, deck, rest, held, dealer, bid = _random_deal(ruleset, rng, players, dealer)
    # the pitcher makes trump a suit he holds (his first card, or the suit he names)
    suits = [c[-1] for c in held[bid["player"]] if c[-1] in SUITS]
    trump = rng.choice(suits or list(SUITS))
    view = ruleset.views[trump]
    hand: dict[str, Any] = {"dealer": dealer, "trump": trump, "bid": bid}
    trump_only = ruleset.settings["play"]["follow"] == "trump-only"
    if house:
        before = _before_play(ruleset, rng, players, teams, bid["player"], view, held, rest)
        if before is None:
            return None
        held, keys = before
        if not trump_only and any(len(cs) != size for cs in held.values()):
            return None  # the stock ran out: a short hand the record cannot show in suit-following play
        hand.update(keys)
        if not any(c in view.strength for cs in held.values() for c in cs):
            return None  # the pitcher laid away every trump: no table plays such a hand
    if trump_only:
        in_play = [c for cs in held.values() for c in cs if c in view.strength]
        if not in_play:  # the pitcher names a suit he holds: make sure one trump is out
            if house:
                return None
            c = next(c for c in deck[n * size:] if c in view.strength)
            held[players[0]][0] = c
            in_play = [c]
        winners = {c: rng.choice(players) for c in in_play}
    else:
        in_play = [c for cs in held.values() for c in cs]
        rng.shuffle(in_play)
        winners = {}
        for t in range(size):
            w = rng.choice(players)
            for c in in_play[t * n:(t + 1) * n]:
                winners[c] = w
    by_player: dict[str, list[str]] = {}
    for c, w in winners.items():
        by_player.setdefault(w, []).append(c)
    side_of = {p: t for t, ms in teams.items() for p in ms} if teams else {p: p for p in players}
    if teams and rng.random() < 0.5:
        captured: dict[str, list[str]] = {}
        for p, cs in by_player.items():
            captured.setdefault(side_of[p], []).extend(cs)
    else:
        captured = by_player
    laid = hand.get("discard", {})
    counted = (laid if isinstance(laid, list) else laid.get(bid["player"], [])) \
        if ruleset.settings["kitty"]["discard_counts"] != "nothing" else []
    if counted and rng.random() < 0.5:  # the pile the bidding side counts may hold its discard
        key = bid["player"] if bid["player"] in captured or not teams else side_of[bid["player"]]
        captured.setdefault(key, []).extend(counted)
    hand["captured"] = captured
    # `dealt` lists the cards that matter, as a person writes it: each player's trumps
    hand["dealt"] = {p: ts for p, cs in held.items() if (ts := [c for c in cs if c in view.strength])}
    if house and rng.random() < 0.5:  # or every card held when play began, which the draw's checks read
        hand["held"] = {p: list(cs) for p, cs in held.items()}
    if quick:
        record = {"players": players, **({"teams": teams} if teams else {})}
        table = parse_table(record)
        v = verdict(ruleset, table, parse_hand(hand, table))
        dealt = hand.pop("dealt")
        hand.pop("held", None)
        del hand["captured"]
        if v.awards and not _needs_cards(ruleset, v.bid.label):
            members = dict(v.hand_sides or ())
            hand["points"] = {a.point: a.player or members.get(a.side, (a.side,))[0] for a in v.awards}
        else:  # nothing was won (an empty `points` says nothing), or the bid needs the tricks: keep the cards
            hand["captured"], hand["dealt"] = captured, dealt
    return hand


def _needs_cards(ruleset: Ruleset, label: Any) -> bool:
    """A smudge that needs every trick is judged from the cards (quick entry cannot tell without a sweep point)."""
    return label == "smudge" and "trick" in ruleset.settings["smudge"]["needs"]


def _before_play(ruleset: Ruleset, rng: random.Random, players: list[str], teams: dict[str, list[str]] | None,
                 bidder: str, view: TrumpView, dealt: dict[str, list[Card]],
                 stock: list[Card]) -> tuple[dict[str, list[Card]], dict[str, Any]] | None:
    """From the deal to the first lead: the called card, the kitty and its lay-away, the draw (from the
    bidder's left, the bidder last), the rest of the stock. The cards held when play began, and the record's
    keys for them; None when this deal cannot be recorded (a partner's card nobody holds, where that redeals)."""
    s = ruleset.settings
    keep = s["deck"]["hand_size"]
    hands = {p: list(cs) for p, cs in dealt.items()}
    keys: dict[str, Any] = {}
    discard: dict[str, list[Card]] = {}
    drawn: dict[str, list[Card]] = {}
    called = None
    if teams is None and ruleset.calls_partner(len(players)):
        may = s["partner"]["may_call"]
        candidates = sorted(c for c in ruleset.deck if c not in dealt[bidder] and (
            may == "any" or (view.suit[c] == TRUMP) == (may == "trump")))
        called = rng.choice(candidates)
    size = s["kitty"]["size"]
    if size:
        kitty, stock = stock[:size], stock[size:]
        keys["kitty"] = list(kitty)
        hands[bidder] += kitty
    mode = s["draw"]["discard"]
    i = players.index(bidder)
    order = players[i + 1:] + players[:i + 1]  # from the bidder's left, the bidder last
    if mode == "none" and size:
        discard[bidder] = _lay_away(ruleset, view, rng, hands[bidder], len(hands[bidder]) - keep)
    elif mode == "down-to-hand":
        for p in order:
            if len(hands[p]) > keep:
                discard[p] = _lay_away(ruleset, view, rng, hands[p], len(hands[p]) - keep)
    elif mode in ("non-trumps", "any"):
        for p in order:
            if mode == "non-trumps":
                away = list(must_throw(ruleset, view, hands[p]))
            else:
                free = may_lay_away(ruleset, view, hands[p], keep)
                least = max(0, len(hands[p]) - keep)
                most = min(s["draw"]["most"] or len(hands[p]), len(free))
                if least > most:
                    return None
                away = _lay_away(ruleset, view, rng, hands[p], rng.randint(least, most))
            if mode == "non-trumps":
                for c in away:
                    hands[p].remove(c)
            need = max(0, keep - len(hands[p]))
            got, stock = stock[:need], stock[need:]
            hands[p] += got
            discard[p] = away
            drawn[p] = list(got)
        if s["draw"]["rest"]:
            hands[bidder] += stock
            drawn[bidder] = drawn.get(bidder, []) + stock
            discard[bidder] = discard.get(bidder, []) + _lay_away(ruleset, view, rng, hands[bidder],
                                                                  len(hands[bidder]) - keep)
    keys["discard"] = {p: cs for p, cs in discard.items() if cs}
    if not keys["discard"]:
        del keys["discard"]
    elif list(keys["discard"]) == [bidder] and rng.random() < 0.5:
        keys["discard"] = keys["discard"][bidder]  # the bare list is the bidder's
    if any(drawn.values()):
        keys["drawn"] = {p: cs for p, cs in drawn.items() if cs}
    if called is not None:
        holder = next((p for p, cs in hands.items() if called in cs and p != bidder), "")
        if not holder and s["partner"]["unheld"] == "redeal":
            return None
        keys["called"] = called
        keys["partner"] = holder or "none"
    return hands, keys


def _lay_away(ruleset: Ruleset, view: TrumpView, rng: random.Random, holding: list[Card], n: int) -> list[Card]:
    """`n` cards of `holding` laid away by the lay-away rules (game.deal, which keep deck.hand_size): the
    non-trumps in a random order first where trumps are kept, then the trumps in the order a hand sheds
    them; removed from it."""
    if n <= 0:
        return []
    keep = ruleset.settings["deck"]["hand_size"]
    free = list(may_lay_away(ruleset, view, holding, keep))
    plain = [c for c in free if view.suit[c] != TRUMP]
    rng.shuffle(plain)
    d = ruleset.settings["discard"]
    if d["trumps"] == "allowed" and d["point_trumps"]:
        order = list(holding)
        rng.shuffle(order)
    else:
        order = plain + [c for c in free if view.suit[c] == TRUMP]
    away = order[:n]
    for c in away:
        holding.remove(c)
    return away


def random_played(ruleset: Ruleset, rng: random.Random, players: list[str], teams: dict[str, list[str]] | None,
                  dealer: str | None = None) -> dict[str, Any] | None:
    """A random deal (through any kitty, draw and called partner) played out legally card by card
    (`play.allowed`, the called card's first trick, look-alike jokers): the per-hand keys with `tricks` and
    `held`. None when the deal cannot be played (no trump out where only trumps are played, say)."""
    n = len(players)
    size, house, _, rest, held, dealer, bid = _random_deal(ruleset, rng, players, dealer)
    leader = bid["player"] if ruleset.settings["play"]["first_leader"] == "bidder" else \
        players[(players.index(dealer) + 1) % n]
    if sets_trump(ruleset):
        trump = rng.choice(first_lead_suits(ruleset, rng.choice(held[leader])))
    else:
        trump = rng.choice([c[-1] for c in held[bid["player"]] if c[-1] in SUITS] or list(SUITS))
    view = ruleset.views[trump]
    keys: dict[str, Any] = {}
    if house:
        before = _before_play(ruleset, rng, players, teams, bid["player"], view, held, rest)
        if before is None:
            return None
        held, keys = before
    trump_only = ruleset.settings["play"]["follow"] == "trump-only"
    if not trump_only and any(len(cs) != size for cs in held.values()):
        return None
    pitched = None
    if sets_trump(ruleset):
        fits = [c for c in held[leader] if trump in first_lead_suits(ruleset, c)]
        if not fits:
            return None
        pitched = rng.choice(fits)
    called = keys.get("called") if ruleset.settings["partner"]["first_trick"] else None
    jokers = ruleset.settings["trump"]["identical_jokers"]
    swap: bool | None = None  # first-higher: the first joker played was written LJ (it is the higher)
    hands = {p: list(cs) for p, cs in held.items()}
    out: set[str] = set()
    tricks = []
    for t in range(size):
        if trump_only:
            out |= {p for p in players if not any(view.suit[c] == TRUMP for c in hands[p])}
            if len(out) == n:
                break
        start = players.index(leader)
        seats = [players[(start + k) % n] for k in range(n) if players[(start + k) % n] not in out]
        leader = seats[0]
        cards: list[str] = []
        led = None
        for p in seats:
            first = t == 0 and not cards
            card = pitched if first and pitched else rng.choice(
                allowed(ruleset, view, hands[p], led, first, called=called if t == 0 else None).cards)
            hands[p].remove(card)
            cards.append(card)
            led = led or view.suit[card]
            if swap is None and card in ("HJ", "LJ"):
                swap = card == "LJ"
        if not cards:
            break
        tricks.append({"leader": leader, "cards": [f"{p}:{c}" for p, c in zip(seats, cards, strict=True)]})
        seen = [{"HJ": "LJ", "LJ": "HJ"}.get(c, c) for c in cards] if jokers == "first-higher" and swap else cards
        leader = seats[winner_index(view, seen, jokers=jokers)]
    if not tricks:
        return None
    return {"dealer": dealer, "trump": trump, "bid": bid, **keys, "held": {p: list(cs) for p, cs in held.items()},
            "tricks": tricks}
