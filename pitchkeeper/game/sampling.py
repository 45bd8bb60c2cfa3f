"""Random but valid hand records, for property tests, benchmarks and demos.

The hands follow the ruleset's data: its deck, hand size, player counts and team sizes, and
(in trump-only play) only trumps are captured. They are records as a person would write them,
so they exercise the same parsing and checking as real input.
"""

from __future__ import annotations

import random
from typing import Any

from pitchkeeper.game.cards import SUITS
from pitchkeeper.game.records import parse_hand, parse_table
from pitchkeeper.game.rulesets import Ruleset
from pitchkeeper.game.scoring import verdict

NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ida")


def random_table(ruleset: Ruleset, rng: random.Random) -> tuple[list[str], dict[str, list[str]] | None]:
    """Players in seating order and, for partnership play, teams seated crosswise."""
    ps = ruleset.settings["players"]
    n = rng.choice(ps["counts"])
    players = list(NAMES[:n])
    sizes = [s for s in ps["team_sizes"] if s == 1 or (n % s == 0 and n // s >= 2)]
    size = rng.choice(sizes)
    if size == 1:
        return players, None
    k = n // size  # number of teams; player i sits in team i % k, so partners alternate
    teams = {f"T{t + 1}": [players[i] for i in range(n) if i % k == t] for t in range(k)}
    return players, teams


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


def random_hand(ruleset: Ruleset, rng: random.Random, players: list[str], teams: dict[str, list[str]] | None,
                dealer: str | None = None, quick: bool = False) -> dict[str, Any]:
    """The per-hand keys of a record: a random deal, played out into random whole tricks."""
    n = len(players)
    size = ruleset.settings["deck"]["hand_size"]
    deck = sorted(ruleset.deck)
    rng.shuffle(deck)
    held = {p: deck[i * size:(i + 1) * size] for i, p in enumerate(players)}
    dealer = dealer or rng.choice(players)
    bid = random_bid(ruleset, rng, players, dealer)
    # the pitcher makes trump a suit he holds (his first card, or the suit he names)
    suits = [c[-1] for c in held[bid["player"]] if c[-1] in SUITS]
    trump = rng.choice(suits or list(SUITS))
    view = ruleset.views[trump]
    hand: dict[str, Any] = {"dealer": dealer, "trump": trump, "bid": bid}
    trump_only = ruleset.settings["play"]["follow"] == "trump-only"
    if trump_only:
        in_play = [c for cs in held.values() for c in cs if c in view.strength]
        if not in_play:  # the pitcher names a suit he holds: make sure one trump is out
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
    hand["captured"] = captured
    # `dealt` lists the cards that matter, as a person writes it: each player's trumps
    hand["dealt"] = {p: ts for p, cs in held.items() if (ts := [c for c in cs if c in view.strength])}
    if quick:
        record = {"players": players, **({"teams": teams} if teams else {})}
        table = parse_table(record)
        v = verdict(ruleset, table, parse_hand(hand, table))
        dealt = hand.pop("dealt")
        del hand["captured"]
        if v.awards:
            hand["points"] = {a.point: a.side for a in v.awards}
        else:  # nothing was won (an empty `points` says nothing): keep the cards
            hand["captured"], hand["dealt"] = captured, dealt
    return hand
