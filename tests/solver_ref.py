"""A reference for the solver's tests: random deals played to random positions, and a brute-force minimax.

The brute force knows nothing of game.search or of game.solver's tables. It plays every legal line with
the engine's own functions (game.play.allowed, winner_index, next_in) and scores each finished hand by
writing it out as a hand record, trick by trick, and judging it with the verdict engine
(pitchkeeper.judge_hand's engine: game.scoring.verdict). No pruning, no table: the value of a position
is the max (bidding side to play) or min (anyone else) over every legal card.

A house file's deal goes through its kitty, draw and called partner as a table's would
(game.sampling.random_played), and the record of every line carries them (the kitty, the discards, the
called card and its holder). Two look-alike jokers rank by the order they fell, as the rule says: written
here from trump.identical_jokers, apart from the engine's naming of them.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import MappingProxyType
from typing import Any, NamedTuple

from pitchkeeper.game import play, rulesets, sampling, scoring, solver
from pitchkeeper.game.records import parse_hand_record
from pitchkeeper.game.rulesets import Ruleset

NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ida")
HOUSE = Path(__file__).resolve().parent.parent / "examples" / "house-rules"
HOUSE_NAMES = sorted(f.stem for f in HOUSE.glob("*.toml"))
BEFORE_PLAY = ("kitty", "discard", "drawn", "called", "partner")  # the record's keys of what came before play
JOKERS = {"HJ": "LJ", "LJ": "HJ"}


def load(name: str) -> Ruleset:
    """A built-in ruleset, or a house file of examples/house-rules by its name."""
    return rulesets.load(HOUSE / f"{name}.toml" if name in HOUSE_NAMES else name)


class Game(NamedTuple):
    """A random deal at a random table of a ruleset: who holds what as play begins."""

    ruleset: Ruleset
    trump: str
    players: tuple[str, ...]
    teams: dict[str, list[str]] | None
    bidder: str
    dealer: str
    held: dict[str, tuple[str, ...]]
    keys: Mapping[str, Any] = MappingProxyType({})  # the record's kitty, discard, drawn, called, partner (a house file's)
    bid: dict[str, Any] | None = None  # the record's bid (None: the most the ruleset bids)

    @property
    def side_of(self) -> dict[str, str]:
        """Each player's side in this hand: the table's, or with a called partner the bidder and partner
        against the others (together or each alone, partner.defenders)."""
        out = {p: p for p in self.players}
        for t, ms in (self.teams or {}).items():
            out.update(dict.fromkeys(ms, t))
        if "called" in self.keys:
            partner = self.keys["partner"]
            order = [self.players[(self.players.index(self.bidder) + k) % len(self.players)] for k in range(len(self.players))]
            team = [p for p in order if p in (self.bidder, partner)]
            others = [p for p in order if p not in team]
            out = dict.fromkeys(team, "+".join(team))
            if self.ruleset.settings["partner"]["defenders"] == "together":
                out.update(dict.fromkeys(others, "+".join(others)))
            else:
                out.update({p: p for p in others})
        return out

    @property
    def called(self) -> str | None:
        """The called card where its holder must play it to the first trick (partner.first_trick)."""
        if self.ruleset.settings["partner"]["first_trick"] and self.keys.get("partner", "none") != "none":
            return str(self.keys["called"])
        return None

    @property
    def deal(self) -> solver.Deal:
        side_of = self.side_of
        laid: tuple[str, ...] = ()
        counts = self.ruleset.settings["kitty"]["discard_counts"]
        if counts != "nothing":  # the bidder's laid-away cards count for the bidding side
            d = self.keys.get("discard", ())
            laid = tuple(d if isinstance(d, list) else d.get(self.bidder, ()))
        return solver.Deal(self.ruleset, self.trump, self.players, side_of, side_of[self.bidder], laid, counts,
                           self.called, self.dealer)

    @property
    def first_leader(self) -> str:
        if self.ruleset.settings["play"]["first_leader"] == "eldest":
            return self.players[(self.players.index(self.dealer) + 1) % len(self.players)]
        return self.bidder


def random_game(ruleset: Ruleset | str, rng: random.Random, max_players: int = 9) -> Game:
    r = load(ruleset) if isinstance(ruleset, str) else ruleset
    ps = r.settings["players"]
    counts = [n for n in ps["counts"] if n <= max_players] or [min(ps["counts"])]
    n = rng.choice(counts)
    players = NAMES[:n]
    sizes = [s for s in ps["team_sizes"] if s == 1 or (n % s == 0 and n // s >= 2)]
    size = rng.choice(sizes)
    teams = None
    if size > 1:
        k = n // size
        teams = {f"T{t + 1}": [players[i] for i in range(n) if i % k == t] for t in range(k)}
    if r.features:  # a house file: the deal goes through its kitty, draw and called partner
        while (rec := sampling.random_played(r, rng, list(players), teams)) is None:
            pass
        held = {p: tuple(rec["held"][p]) for p in players}
        keys = {k: rec[k] for k in BEFORE_PLAY if k in rec}
        return Game(r, rec["trump"], players, teams, rec["bid"]["player"], rec["dealer"], held, keys, rec["bid"])
    hand_size = r.settings["deck"]["hand_size"]
    deck = sorted(r.deck)
    rng.shuffle(deck)
    held = {p: tuple(deck[i * hand_size:(i + 1) * hand_size]) for i, p in enumerate(players)}
    bidder = rng.choice(players)
    dealer = rng.choice(players)
    if r.settings["play"]["first_leader"] == "eldest":
        bidder = players[(players.index(dealer) + 1) % n] if rng.random() < 0.5 else bidder
    # the pitcher makes trump a suit he can set (a first lead that sets trump needs a card of it)
    first = held[bidder] if r.settings["play"]["first_leader"] != "eldest" else held[players[(players.index(dealer) + 1) % n]]
    suits = [s for s in "SHDC" if not play.sets_trump(r) or any(s in play.first_lead_suits(r, c) for c in first)]
    trump = rng.choice(suits or list("SHDC"))
    return Game(r, trump, players, teams, bidder, dealer, held)


class State(NamedTuple):
    """Play as the engine's rules run it: hands, the trick in progress, its leader, the tricks played."""

    hands: dict[str, tuple[str, ...]]
    trick: tuple[tuple[str, str], ...]
    leader: str
    done: tuple[tuple[str, tuple[tuple[str, str], ...]], ...]  # (leader, plays) of each trick played
    passed: int  # seats of the trick in progress that have played or folded


def begin(g: Game) -> State:
    return State(dict(g.held), (), g.first_leader, (), 0)


def _allowed(g: Game, st: State, p: str, led: str | None) -> tuple[str, ...]:
    view = g.ruleset.views[g.trump]
    called = g.called if not st.done and p != g.bidder else None  # the called card binds its holder in trick 1
    return play.allowed(g.ruleset, view, st.hands[p], led, first=led is None and not st.done, called=called).cards


def _jokers_swapped(g: Game, done: Sequence[tuple[str, Sequence[tuple[str, str]]]],
                    trick: Sequence[tuple[str, str]] = ()) -> bool:
    """Do the jokers as dealt need their names exchanged for the rule, by the line so far: the first joker to
    fall was dealt as LJ (first-higher), or a trick held both, LJ played later (later-higher)."""
    rule = g.ruleset.settings["trump"]["identical_jokers"]
    tricks = [[c for _, c in plays] for _, plays in done] + [[c for _, c in trick]]
    if rule == "first-higher":
        return next((c for cs in tricks for c in cs if c in JOKERS), None) == "LJ"
    if rule == "later-higher":
        return any("HJ" in cs and "LJ" in cs and cs.index("LJ") > cs.index("HJ") for cs in tricks)
    return False


def winner(g: Game, done: Sequence[tuple[str, Sequence[tuple[str, str]]]], trick: Sequence[tuple[str, str]]) -> str:
    """Who wins a complete trick, the jokers ranked as the rule says."""
    cards = [c for _, c in trick]
    if _jokers_swapped(g, done, trick):
        cards = [JOKERS.get(c, c) for c in cards]
    return trick[play.winner_index(g.ruleset.views[g.trump], cards)][0]


def due(g: Game, st: State) -> tuple[str | None, tuple[str, ...]]:
    """Who plays now and what may be played; (None, ()) when the hand is over."""
    view = g.ruleset.views[g.trump]
    if not st.trick:
        if _allowed(g, st, st.leader, None):
            return st.leader, _allowed(g, st, st.leader, None)
        out = {p for p in g.players if not _allowed(g, st, p, None)}
        if len(out) == len(g.players):
            return None, ()
        p = play.next_in(g.players, st.leader, out)
        return p, _allowed(g, st, p, None)
    led = view.suit[st.trick[0][1]]
    start = g.players.index(st.leader)
    for k in range(st.passed, len(g.players)):
        p = g.players[(start + k) % len(g.players)]
        cards = _allowed(g, st, p, led)
        if cards:
            return p, cards
    raise AssertionError("a complete trick is never left in progress")


def after(g: Game, st: State, p: str, card: str) -> State:
    view = g.ruleset.views[g.trump]
    n = len(g.players)
    hands = {**st.hands, p: tuple(c for c in st.hands[p] if c != card)}
    leader = p if not st.trick else st.leader
    trick = (*st.trick, (p, card))
    passed = (g.players.index(p) - g.players.index(leader)) % n + 1
    nxt = State(hands, trick, leader, st.done, passed)
    led = view.suit[trick[0][1]]
    start = g.players.index(leader)
    while passed < n and not _allowed(g, nxt, g.players[(start + passed) % n], led):
        passed += 1
    if passed < n:
        return nxt._replace(passed=passed)
    w = winner(g, st.done, trick)
    return State(hands, (), w, (*st.done, (leader, trick)), 0)


def record(g: Game, done: Sequence[tuple[str, Sequence[tuple[str, str]]]]) -> dict[str, Any]:
    """The finished hand as a hand record, trick by trick (every card named with its player)."""
    b = g.ruleset.settings["bidding"]
    rec: dict[str, Any] = {"players": list(g.players), "dealer": g.dealer, "trump": g.trump,
                           "bid": g.bid or {"player": g.bidder, "amount": b["max"]}, **g.keys,
                           "tricks": [{"leader": lead, "cards": [f"{p}:{c}" for p, c in plays]} for lead, plays in done],
                           "held": {p: list(cs) for p, cs in g.held.items()}}
    if g.teams:
        rec["teams"] = g.teams
    return rec


def taken(g: Game, done: Sequence[tuple[str, Sequence[tuple[str, str]]]]) -> int:
    """The bidding side's points of a finished hand, as the verdict engine judges it."""
    rec = record(g, done)
    v = scoring.verdict(g.ruleset, *parse_hand_record(rec))
    assert not v.illegal, v.illegal
    return v.bid.took


def brute(g: Game, st: State, memo: dict[Any, int] | None = None) -> int:
    """The value of a position by plain minimax over every legal line."""
    memo = {} if memo is None else memo
    p, cards = due(g, st)
    if p is None:
        key = (tuple(sorted((lead, tuple(sorted(plays))) for lead, plays in st.done)), _jokers_swapped(g, st.done))
        if key not in memo:
            memo[key] = taken(g, st.done)
        return memo[key]
    values = [brute(g, after(g, st, p, c), memo) for c in cards]
    return max(values) if g.side_of[p] == g.side_of[g.bidder] else min(values)


def random_line(g: Game, rng: random.Random, st: State | None = None) -> list[tuple[str, str]]:
    """A random legal line of play from `st` (the start) to the end of the hand."""
    st = begin(g) if st is None else st
    out = []
    while True:
        p, cards = due(g, st)
        if p is None:
            return out
        c = rng.choice(cards)
        out.append((p, c))
        st = after(g, st, p, c)


def played_hand(name: str, seed: int, max_players: int, rules: str) -> tuple[Game, list[State], dict[str, Any]]:
    """A random deal played along a random legal line: the game, every state on the way, and the hand
    record (its ruleset named `rules`: a built-in name or a house file)."""
    rng = random.Random(seed)
    g = random_game(name, rng, max_players=max_players)
    states = [begin(g)]
    for p, c in random_line(g, rng):
        states.append(after(g, states[-1], p, c))
    rec = record(g, states[-1].done)
    rec["rules"] = rules
    return g, states, rec


def check_plays(g: Game, a: Mapping[str, Any]) -> None:
    """An analysis (pitchkeeper.analyse_hand) holds together: the first play starts at par and the last ends
    at what was taken, each starts where the one before ended, and each costs what it gave away - nothing
    exactly when its card is among the best."""
    plays = a["plays"]
    assert plays[0]["before"] == a["par"]
    assert plays[-1]["after"] == a["taken"]  # the hand is over: its value is what was taken
    bidding = g.side_of[g.bidder]
    for one, nxt in itertools.pairwise(plays):
        assert one["after"] == nxt["before"]
    for p in plays:
        gave = p["before"] - p["after"] if g.side_of[p["player"]] == bidding else p["after"] - p["before"]
        assert p["cost"] == gave >= 0
        assert (p["card"] in p["best"]) == (p["cost"] == 0)


def brute_best(g: Game, st: State) -> tuple[int, set[str]]:
    """The brute force's value of a position, and the cards of the player to play that keep it."""
    value = brute(g, st)
    who, cards = due(g, st)
    assert who is not None
    return value, {c for c in cards if brute(g, after(g, st, who, c)) == value}


def tricks_left(g: Game, st: State) -> int:
    """How many tricks are still to be played, a trick in progress counted (a player yet to play to it
    holds one card more than those who have)."""
    held = max(len(cs) for cs in st.hands.values())
    if g.ruleset.settings["play"]["follow"] == "trump-only":
        view = g.ruleset.views[g.trump]
        held = max(sum(1 for c in cs if c in view.strength) for cs in st.hands.values())
    return held


def position(g: Game, st: State) -> solver.Position:
    """The solver's Position of a State: hands, trick, leader, each side's captured cards, who was dealt what;
    two look-alike jokers named as the rule names them by the line so far."""
    side_of = g.side_of
    captured: dict[str, list[str]] = {}
    for k, (_, plays) in enumerate(st.done):
        w = winner(g, st.done[:k], plays)
        captured.setdefault(side_of[w], []).extend(c for _, c in plays)
    dealt = {c: p for _, plays in st.done for p, c in plays}
    hands, trick = st.hands, st.trick
    if _jokers_swapped(g, st.done, st.trick):

        def cs(cards: Sequence[str]) -> list[str]:
            return [JOKERS.get(c, c) for c in cards]

        hands, trick = {p: cs(h) for p, h in hands.items()}, tuple((p, JOKERS.get(c, c)) for p, c in trick)
        captured, dealt = {s: cs(h) for s, h in captured.items()}, {JOKERS.get(c, c): p for c, p in dealt.items()}
    return solver.Position(hands, trick, st.leader, captured, dealt, not st.done)


def random_position(g: Game, rng: random.Random, most_tricks: int) -> State:
    """A random legal line from the start, stopped at a random play with 1 to `most_tricks` tricks left
    (the hand's end when it has none)."""
    line = random_line(g, rng)
    st = begin(g)
    states = [st]
    for p, c in line:
        st = after(g, st, p, c)
        states.append(st)
    most = min(most_tricks, tricks_left(g, states[0]))
    want = rng.choice([k for k in range(1, most + 1) for _ in range(k)] or [0])  # more of the longer ones
    return rng.choice([s for s in states if tricks_left(g, s) == want])
