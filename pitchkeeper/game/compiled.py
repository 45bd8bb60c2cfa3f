"""A ruleset compiled for judging in bulk: once per ruleset, once per trump, once per table.

The verdict engine reads a ruleset's data on every hand; doing that through the general
structures (settings dicts, point catalogues, table lookups) costs more than the scoring itself.
So the first verdict under a ruleset compiles what every later one needs: each bid amount's worth;
per trump, the point plan in award order with each card point's card and words, its points sorted
by what the engine does with them (a fixed card's point, high, low, game, any other kind); per
table, every key a record may use mapped to its side and player, each quick-entry point's award,
game's count per side entered, and the distinct quick entries judged there (a table sees few; the
kept entries are bounded, and a verdict gets its own copies of what a caller may change). The
compiled forms hang on the ruleset and table objects themselves, so they live exactly as long as
those do and need no invalidation (both are frozen)."""

from __future__ import annotations

from typing import Any

from pitchkeeper.game.cards import RANK_NAMES, Card, card_name
from pitchkeeper.game.kinds import GAME, HIGHEST, LOWEST, THE_CARD
from pitchkeeper.game.records import POINT_IDS, Table
from pitchkeeper.game.rulesets import PointRule, Ruleset
from pitchkeeper.game.verdicts import Award, GameCount

_RANK = {p: i for i, p in enumerate(POINT_IDS)}
_KEY = "_pk_compiled"  # where the compiled form hangs in the frozen object's __dict__


def card_words(rule: PointRule, card: Card, symbol: str) -> str:
    """What a point's card is, in words ('the jack of trumps')."""
    if symbol.startswith("off-"):
        return f"{card_name(card)}, the {rule.label} (a trump of the same colour as trumps)"
    if symbol in ("HJ", "LJ", "JK"):
        return card_name(card)
    return f"the {RANK_NAMES[symbol]} of trumps"


# What the engine does for a step of a trump's plan (scoring._fast_cards dispatches on it): the built-in
# finders are inlined there; any other kind is called.
S_CARD, S_HIGH, S_LOW, S_GAME, S_FIND, S_SIDE = range(6)


class TrumpPlan:
    """One trump: the trumps' strengths and the points in award order, each card point with its card."""

    __slots__ = ("fixed", "game", "game_rule", "game_values", "high", "low", "low_order", "low_skip", "needs_high",
                 "order", "rest", "steps", "strength")

    def __init__(self, ruleset: Ruleset, trump: str) -> None:
        view = ruleset.views[trump]
        self.strength = view.strength
        self.low_skip = view.low_skip
        self.order = tuple(sorted(view.strength, key=view.strength.__getitem__, reverse=True))  # high to low
        self.low_order = tuple(c for c in reversed(self.order) if c not in view.low_skip)  # low to high
        # the (first) game point's card values, counted in the one pass over the captured cards
        self.game_rule = next((p for p in ruleset.award_order if p.kind.game), None)
        self.game_values = self.game_rule.card_values if self.game_rule else dict.fromkeys(ruleset.deck, 0)
        # each point in award order: (what the engine does (S_CARD...S_SIDE), its rule, the card it is for, that
        # card in words, id, value, to the player dealt it, the award's reason when its captor scores it
        # (Award.why), and one thing more: LOW (a lone trump is high only, the reason when it is both); S_GAME
        # (only more than half of all counted wins))
        steps: list[tuple[Any, ...]] = []
        for rule in ruleset.award_order:
            kind = rule.kind
            card, words = view.point_card.get(rule.id), ""
            if card is not None:
                words = card_words(rule, card, view.symbol.get(card, ""))
            extra: Any = None
            if kind.card is THE_CARD:
                code = S_CARD
            elif kind.card is HIGHEST:
                code, words = S_HIGH, "high"
            elif kind.card is LOWEST:
                code, words, extra = S_LOW, "low", (rule.apart, ("captor", "lone", rule))
            elif kind.side is GAME and rule is self.game_rule:
                code, extra = S_GAME, rule.need == "majority"
            else:
                code = S_FIND if kind.card is not None else S_SIDE
            steps.append((code, rule, card, words, rule.id, rule.value, rule.to == "dealt", ("captor", words, rule),
                          kind, extra))
        self.steps = tuple(steps)
        # is the highest trump in play needed for every hand (high, low, or a kind that is not inlined)?
        self.needs_high = any(step[0] in (S_HIGH, S_LOW, S_FIND) for step in steps)
        # The same steps sorted by what the engine does with them, each with its place in the award order
        # (scoring._fast_cards fills the places): the points for one fixed card its captor scores, (slot, card,
        # id, value, reason); high, low and game, the first of each, or None; and the rest, (slot, step).
        fixed: list[tuple[Any, ...]] = []
        rest: list[tuple[int, tuple[Any, ...]]] = []
        self.high = self.low = self.game = None
        for slot, step in enumerate(steps):
            code, rule, card, words, pid, value, to_dealt, why, _, extra = step
            if code == S_CARD and not to_dealt:
                fixed.append((slot, card, pid, value, why))
            elif code == S_HIGH and not to_dealt and self.high is None:
                self.high = (slot, pid, value, why)
            elif code == S_LOW and self.low is None:
                self.low = (slot, pid, value, to_dealt, rule, extra[0], why, extra[1])
            elif code == S_GAME and self.game is None:
                self.game = (slot, pid, value, rule, extra)
            else:
                rest.append((slot, step))
        self.fixed = tuple(fixed)
        self.rest = tuple(rest)


class Seats:
    """One table under one ruleset: who a record's keys are, and quick entry's awards made once."""

    __slots__ = ("entered", "games", "key_player", "key_side", "n", "players", "quick", "sides", "table", "zero")

    def __init__(self, table: Table, games: dict[str | None, GameCount | None]) -> None:
        self.table = table
        self.games = games  # quick entry's game count, by the side entered as winning it (None: nobody)
        self.sides = table.sides
        self.players = frozenset(table.players)
        self.n = len(table.players)
        # every key a record may use for an owner: a side, or a player (-> that player's side)
        self.key_side = {s: s for s in table.sides} | {p: table.side_of(p) for p in table.players}
        self.key_player = {k: (k if k in self.players else None) for k in self.key_side}
        self.zero = dict.fromkeys(table.sides, 0)
        # (point, owner) -> its award and what judging it needs (Compiled.quick_award), made at first sight
        self.quick: dict[tuple[str, str], tuple[Any, ...]] = {}
        # a quick entry -> its awards, points taken, game and bidder-only side (scoring._quick), bounded
        self.entered: dict[tuple[tuple[str, str], ...], tuple[Any, ...]] = {}


class Compiled:
    """One ruleset, compiled: the points quick entry must name, a plan per trump, seats per table."""

    made = 0  # how many have been made: each one's key in a table's __dict__ is its own

    def __init__(self, ruleset: Ruleset) -> None:
        self.ruleset = ruleset
        self.rules = {p.id: p for p in ruleset.points}
        self.plans = {t: TrumpPlan(ruleset, t) for t in ruleset.views}
        self.deck = ruleset.deck
        s = ruleset.settings
        self.trump_only = s["play"]["follow"] == "trump-only"
        self.hand_size = s["deck"]["hand_size"]
        self.sale = s["bidding"]["sale_credit"] != "none"
        self.eldest_leads = s["play"]["first_leader"] == "eldest"
        self.follow_or_trump = s["play"]["follow"] == "suit-or-trump"
        self.tricks: dict[str, Any] = {}  # trump -> game.quickplay.TrickTables, made on the first hand played
        self.rotations: dict[tuple[str, ...], dict[str, tuple[str, ...]]] = {}  # players -> each one's turn order
        b = s["bidding"]
        # a bid's amount -> its worth, for every amount the ruleset allows (scoring.amount_worth, compiled)
        self.worth = {a: a for a in range(b["min"], b["max"] + 1)}
        if b["all_pass"] == "eldest-pitches":
            self.worth[0] = 0
        self.set_back = s["settle"]["setback"] == "bid"  # a bidding side short of its bid loses the bid
        self.defenders_score = s["settle"]["defenders_score"]
        self.smudge = s["bidding"]["smudge"]  # a bid of this worth is the smudge (scoring.named_smudge)
        from pitchkeeper.game.scoring import always_out

        self.required = tuple(p.id for p in ruleset.points if always_out(p))  # quick entry must name them
        self.required_bits = sum(1 << _RANK.get(pid, len(_RANK)) for pid in self.required)  # (quick_award)
        g = ruleset.game_point
        self.game_id = g.id if g is not None else None
        self.quick_game: dict[str | None, GameCount] = {}
        self._seats: dict[Table, Seats] = {}
        Compiled.made += 1
        self.seats_key = f"_pk_seats{Compiled.made}"

    def seats(self, table: Table) -> Seats:
        """The table's seats under this ruleset: made once per distinct table, and kept on the (frozen)
        table object itself under this compiled form's own key, where the next hand finds it in one lookup."""
        s = self._seats.get(table)
        if s is None:
            games = {w: self.game_entered(w) for w in (*table.sides, None)} if self.game_id else {None: None}
            s = self._seats[table] = Seats(table, games)
        table.__dict__[self.seats_key] = s
        return s

    def quick_award(self, seats: Seats, entry: tuple[str, str]) -> tuple[Any, ...] | None:
        """(place, award, side, value, bit, special, entry) of one quick-entry point: its place in the
        contract's order (POINT_IDS, then any other) and a bit for that place (`required_bits` has those of
        the points always out); special: 1 only the bidding side may score it, 2 it is the game point; the
        entry as the table's own object. None when the ruleset has no such point or the owner is not at the
        table (the careful path says so)."""
        got = seats.quick.get(entry)
        if got is None:
            pid, who = entry
            rule = self.rules.get(pid)
            if rule is None or who not in seats.key_side:
                return None
            side = seats.key_side[who]
            player = who if who in seats.players else None
            award = Award(pid, None, side, player, rule.value, ("entered", "", rule))
            place = _RANK.get(pid, len(_RANK))
            special = (1 if rule.kind.bidder_only(rule) else 0) | (2 if pid == self.game_id else 0)
            got = seats.quick[entry] = (place, award, side, rule.value, 1 << place, special, (pid, who))
        return got

    def game_entered(self, winner: str | None) -> GameCount:
        g = self.quick_game.get(winner)
        if g is None:
            g = self.quick_game[winner] = GameCount({}, winner, f"{winner} won game (entered by hand)" if winner
                                                    else "game not awarded (tied, entered by hand)")
        return g


def compiled(ruleset: Ruleset) -> Compiled:
    """The ruleset's compiled form, made on first use and kept on the (frozen) ruleset object."""
    c = ruleset.__dict__.get(_KEY)
    if c is None:
        c = ruleset.__dict__[_KEY] = Compiled(ruleset)
    return c
