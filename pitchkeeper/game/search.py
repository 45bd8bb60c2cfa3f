"""The exact search of a hand (double dummy): the hot part of game.solver, over tables of small integers.

This module knows no rule of Pitch. game.solver's setup reads the ruleset through the engine (the follow
rules and a card's strength in a trick from game.play, the points from the point kinds) and hands this
search tables over card indices: each card's effective suit, its strength for each suit led, the
points its captor takes, what it counts for game, the follow rules as masks. The search plays cards
out of bitmask hands and asks back only at the end of the hand (which side points the bidding side
took) and when a leader is out of cards it may lead (who leads instead).

It is Cython in pure-Python mode: the same source runs as plain Python (the reference, always there)
and, where a compiler was found at install, as a compiled module with the same answers
(game.solver.cores). Annotations are Cython's C types; without Cython they mean nothing.

The search (each technique's soundness is argued where it is used):
- `test(beta)`: is the value at least beta? A null-window alpha-beta search: a node of the bidding side
  is True as soon as one card is, a defender's False as soon as one card is.
- `value()`: repeated tests narrowing [lower, upper] (the quick bounds) to the one value.
- a transposition table at trick boundaries, equivalent cards searched once, cards ordered so that the
  refutation usually comes first, and bounds from the points still out.

Two look-alike jokers (trump.identical_jokers) are two cards whose names say only which ranks higher,
and the rule names them by the order they fall (game.deal.name_jokers): the first to fall is the higher
(`jmode` 1), or of two in one trick the later is (`jmode` 2). The state keeps them named so: when the
lower-named one falls where the rule makes it the higher, the two names are exchanged throughout the
state (`_rename`), so the tables, the points and the table's keys read them as the rule does.
"""

from typing import Any

try:
    import cython
except ImportError:  # no Cython: the declarations are no-ops (game.cython_shadow)
    from pitchkeeper.game import cython_shadow as cython

COMPILED = cython.compiled  # True in the compiled build
# The last tricks not worth a table look-up: compiled, searching the last two is cheaper than looking them up
# (a look-up builds Python objects, a node does not); as plain Python every node costs as much as a look-up.
UNTABLED = cython.declare(cython.int, 2 if cython.compiled else 0)
LEAD = cython.declare(cython.int, 5)  # the "suit led" of the card that leads a trick (C constants, compiled)
# The sizes of the arrays below (game.solver.setup refuses a position that would not fit them):
SEATS = 9  # players (the rulesets allow 2-9)
HELD = 13  # cards in one hand
STEPS = 4  # steps of one follow rule (game.play.follow_steps)


@cython.cclass
class Search:
    """One position of one deal, searched in place: play cards with push/pop, ask test/value."""

    # -- the deal's tables (game.solver.setup) --
    n: cython.int  # players, seated 0..n-1 clockwise
    nsides: cython.int
    bid_side: cython.int
    side_of: cython.int[9]  # seat -> side
    group: cython.int[64]  # card -> its effective suit: 0-3 the plain suits, 4 trumps
    rank: cython.int[320]  # [led * 64 + card] -> its strength in a trick so led (game.play.trick_rank); 0 cannot win
    cv: cython.int[64]  # card -> the points its captor's side takes with it
    gw: cython.int[64]  # card -> what it counts for game
    sig: cython.int[64]  # card -> what else tells it apart (point relevance, follow-rule membership)
    pcards: cython.int[117]  # [seat * 13 + i]: the cards the seat held at the start, in index order
    pn: cython.int[9]
    fn: cython.int[12]  # follow rules: [first * 6 + led] -> number of steps; led 0-4 a suit led, 5 a lead;
    # first: the hand's first trick (its lead, and the called card that binds its holder there)
    fwhen: cython.ulonglong[48]  # [(first * 6 + led) * 4 + step]: the step applies when the hand meets this
    fallow: cython.ulonglong[48]  # ... and then these cards may be played
    side_max: cython.int  # the most the side points can give the bidding side
    tlo: cython.int  # the trumps are the cards tlo..thi, weakest first (none: thi < tlo)
    thi: cython.int
    use_sure: cython.bint  # every trump beats every other card, whatever the suit led (solver.setup checks)
    cside: cython.int[64]  # card -> the side of the seat holding it
    cseat: cython.int[64]  # card -> the seat holding it
    cls: cython.int[64]  # card -> its class: effective suit and signature (solver.setup), < 256
    jmode: cython.int  # look-alike jokers: 0 none (or not both in play); 1 first-higher; 2 later-higher
    jhi: cython.int  # the cards named the higher and the lower joker (jhi == jlo + 1), with jmode
    jlo: cython.int
    jdealt: cython.int  # what exchanging the jokers' names changes of the bidding side's points to the player dealt them
    ncards: cython.int  # cards in the tables (the deck)
    use_rel: cython.bint  # key the table by the cards' order within their suits, not by the cards themselves
    kbuf: cython.uchar[128]
    need_count: cython.bint  # a side point reads the game count per side
    need_took: cython.bint  # a side point reads which sides took a trick
    need_piles: cython.bint  # a side point reads the captured cards themselves
    count_base: cython.longlong  # one more than any game count
    side_fn: Any  # (piles, counts) -> the side points the bidding side takes (game.solver)
    lead_fn: Any  # (seats, due, out) -> who leads when `due` is out (game.play.next_in)
    memo: dict  # summary -> side points (side_fn's answers)
    tt: dict  # (cards still held, summary, leader and first) -> (lower, upper) bound of the points still to come
    use_tt: cython.bint
    use_equiv: cython.bint
    nodes: cython.longlong  # positions visited (a node: one player to play one card)
    hint: cython.int  # the lead to try first at the next lead (the table's), -1 none
    cut: cython.int  # the lead that decided the last lead searched, -1 none
    # -- the state --
    hands: cython.ulonglong[9]  # seat -> cards held
    live: cython.ulonglong  # every card held
    live_n: cython.int  # how many
    pile: cython.ulonglong[9]  # side -> cards taken
    count: cython.longlong[9]  # side -> game count taken
    banked: cython.int  # points the bidding side has taken or is sure of (card points and points to the dealt)
    rest_cv: cython.int  # card points still held
    rest_gw: cython.longlong  # game count still held
    first: cython.bint  # the hand's first trick is still to come or in progress
    jswap: cython.bint  # the jokers' names have been exchanged from the deal's (which one fell first)
    leader: cython.int
    turn: cython.int  # seats that have played (or folded) to the trick in progress
    tk: cython.int  # cards in the trick in progress
    # the trick in progress, as (seat, card) in playing order: [tbase + k]; each trick of a line has its own
    # place (tbase moves on at every trick won), so a search below never overwrites the trick above it
    tcard: cython.int[126]
    tseat: cython.int[126]
    tbase: cython.int
    tmask: cython.ulonglong
    tcv: cython.int
    tgw: cython.longlong
    led: cython.int
    best_rank: cython.int
    best_seat: cython.int
    history: list  # push's undo records

    def __init__(self, n: cython.int, nsides: cython.int, bid_side: cython.int, side_of: list, group: list,
                 rank: list, cv: list, gw: list, sig: list, follow: list, side_max: cython.int, needs: tuple,
                 count_base: cython.longlong, side_fn: Any, lead_fn: Any, trumps: tuple, cls: list,
                 jokers: tuple = (0, 0, 0, 0)) -> None:
        if not cython.compiled:
            self.side_of, self.pn, self.hands, self.pile, self.count = [0] * 9, [0] * 9, [0] * 9, [0] * 9, [0] * 9
            self.tcard, self.tseat = [0] * 126, [0] * 126
            self.group, self.cv, self.gw, self.sig = [0] * 64, [0] * 64, [0] * 64, [0] * 64
            self.cside, self.cseat, self.cls, self.kbuf = [0] * 64, [0] * 64, [0] * 64, [0] * 128
            self.rank, self.pcards, self.fn = [0] * 320, [0] * 117, [0] * 12
            self.fwhen, self.fallow = [0] * 48, [0] * 48
        i: cython.int
        self.n, self.nsides, self.bid_side = n, nsides, bid_side
        for i in range(9):
            self.side_of[i] = side_of[i] if i < n else -1
        for i in range(64):
            self.group[i], self.cv[i], self.gw[i], self.sig[i] = group[i], cv[i], gw[i], sig[i]
        for i in range(320):
            self.rank[i] = rank[i]
        for i in range(12):
            steps = follow[i]
            self.fn[i] = len(steps)
            for k in range(len(steps)):
                self.fwhen[i * 4 + k], self.fallow[i * 4 + k] = steps[k]
        self.side_max = side_max
        self.need_count, self.need_took, self.need_piles = needs
        self.count_base = count_base
        self.side_fn, self.lead_fn = side_fn, lead_fn
        self.tlo, self.thi, self.use_sure = trumps
        self.ncards, self.use_rel = len(cls), max(cls, default=0) < 256  # a class is one byte of the key
        for i in range(len(cls)):
            self.cls[i] = cls[i]
        self.jmode, self.jhi, self.jlo, self.jdealt = jokers
        self.memo, self.tt = {}, {}
        self.use_tt = self.use_equiv = True
        self.nodes = 0
        self.hint = self.cut = -1
        self.history = []

    def start(self, hands: list, piles: list, counts: list, banked: cython.int, leader: cython.int,
              first: cython.bint, trick: list) -> None:
        """The position: each seat's cards (masks), each side's taken cards and game count, the bidding
        side's points so far, who leads the trick in progress (or the next), the first lead still to come,
        and the trick in progress as (seat, card) in playing order (folds left out)."""
        i: cython.int
        c: cython.int
        k: cython.int
        one: cython.ulonglong = 1
        self.live = 0
        self.rest_cv = 0
        self.rest_gw = 0
        for i in range(9):
            self.hands[i] = hands[i] if i < self.n else 0
            self.pile[i] = piles[i] if i < self.nsides else 0
            self.count[i] = counts[i] if i < self.nsides else 0
            self.pn[i] = 0
        for i in range(self.n):
            self.live |= self.hands[i]
        self.live_n = 0
        for c in range(64):
            if (self.live >> c) & 1:
                self.live_n += 1
                self.rest_cv += self.cv[c]
                self.rest_gw += self.gw[c]
                for i in range(self.n):
                    if (self.hands[i] >> c) & 1:
                        self.pcards[i * 13 + self.pn[i]] = c
                        self.pn[i] += 1
                        self.cside[c] = self.side_of[i]
                        self.cseat[c] = i
        self.banked, self.leader, self.first = banked, leader, first
        self.jswap = 0
        self.turn = self.tk = self.tbase = 0
        self.tmask = 0
        self.tcv = self.tgw = 0
        self.led = self.best_rank = self.best_seat = 0
        self.history = []
        for k in range(len(trick)):
            i, c = trick[k]
            self.turn = (i - leader) % self.n
            if (self.hands[i] >> c) & 1:
                raise ValueError("a card in the trick is still held")
            self.hands[i] |= one << c  # held, then played: the trick is rebuilt by playing it
            self.live |= one << c
            self.live_n += 1
            self.rest_cv += self.cv[c]
            self.rest_gw += self.gw[c]
            if self.jmode and self._renames(c):
                self._rename()
                c = self.jhi
            self._play(i, c)
            self.turn += 1
        self._settle()

    # ------------------------------------------------------------------
    # The rules, read from the tables

    @cython.cfunc
    @cython.exceptval(check=False)
    @cython.locals(i=cython.int, k=cython.int, held=cython.ulonglong)
    def _allowed(self, seat: cython.int, led: cython.int, first: cython.bint) -> cython.ulonglong:
        """The cards `seat` may play to a trick so led (game.play.follow_steps, as masks; `first`: in the
        hand's first trick): the first step whose `when` meets the hand decides; none met (an empty hand, or
        trump-only play without a trump) is a fold."""
        held = self.hands[seat]
        i = (6 if first else 0) + led
        for k in range(self.fn[i]):
            if held & self.fwhen[i * 4 + k]:
                return held & self.fallow[i * 4 + k]
        return 0

    @cython.cfunc
    @cython.locals(i=cython.int, out=list)
    def _lead_seat(self) -> cython.int:
        """Who leads the next trick: the leader due, or when that player may lead nothing (out of trumps in
        trump-only play) whoever game.play.next_in says; -1 when nobody may lead: the hand is over."""
        if self._allowed(self.leader, LEAD, self.first):
            return self.leader
        out = [i for i in range(self.n) if not self._allowed(i, LEAD, self.first)]
        if len(out) == self.n:
            return -1
        return self.lead_fn(self.n, self.leader, out)

    @cython.cfunc
    @cython.exceptval(check=False)
    @cython.locals(one=cython.ulonglong, r=cython.int)
    def _play(self, seat: cython.int, c: cython.int) -> cython.void:
        one = 1
        self.hands[seat] &= ~(one << c)
        self.live &= ~(one << c)
        self.live_n -= 1
        self.rest_cv -= self.cv[c]
        self.rest_gw -= self.gw[c]
        self.tcard[self.tbase + self.tk] = c
        self.tseat[self.tbase + self.tk] = seat
        self.tk += 1
        self.tmask |= one << c
        self.tcv += self.cv[c]
        self.tgw += self.gw[c]
        if self.tk == 1:
            self.led = self.group[c]
            self.best_rank = self.rank[self.led * 64 + c]
            self.best_seat = seat
        else:
            r = self.rank[self.led * 64 + c]
            if r > self.best_rank:
                self.best_rank = r
                self.best_seat = seat

    @cython.cfunc
    def _settle(self) -> cython.void:
        """Past the seats that fold, to the next seat that plays; a trick every seat has answered is won
        (push and start only: the search does the same inline)."""
        while self.tk and self.turn < self.n and not self._allowed((self.leader + self.turn) % self.n, self.led,
                                                                   self.first):
            self.turn += 1
        if self.tk and self.turn >= self.n:
            self._win()

    @cython.cfunc
    @cython.exceptval(check=False)
    @cython.locals(w=cython.int)
    def _win(self) -> cython.void:
        w = self.side_of[self.best_seat]
        self.pile[w] |= self.tmask
        self.count[w] += self.tgw
        if w == self.bid_side:
            self.banked += self.tcv
        self.leader = self.best_seat
        self.first = 0
        self.tk = self.turn = 0
        self.tbase += 9
        self.tmask = 0
        self.tcv = self.tgw = 0

    @cython.cfunc
    @cython.exceptval(check=False)
    def _renames(self, c: cython.int) -> cython.bint:
        """Does playing `c` make it the higher joker? It is named the lower, and it falls first while the
        other is still held (jmode 1), or after the other in one trick (jmode 2)."""
        if c != self.jlo:
            return False
        if self.jmode == 1:
            return ((self.live >> self.jhi) & 1) != 0
        return ((self.tmask >> self.jhi) & 1) != 0

    @cython.cfunc
    @cython.exceptval(check=False)
    @cython.locals(i=cython.int, k=cython.int, a=cython.int, b=cython.int, na=cython.int, nb=cython.int,
                   old_live=cython.ulonglong, old_t=cython.ulonglong, r=cython.int)
    def _rename(self) -> cython.void:
        """Exchange the two jokers' names throughout the state (its own inverse). It happens only while
        neither is taken (no side's pile or game count holds one), so only the hands, the cards still held
        and the trick change, with what is summed over them, and the points to the player dealt them."""
        a, b = self.jhi, self.jlo
        for i in range(self.n):
            self.hands[i] = self._swapped(self.hands[i])
            na = nb = -1
            for k in range(self.pn[i]):
                if self.pcards[i * 13 + k] == a:
                    na = k
                elif self.pcards[i * 13 + k] == b:
                    nb = k
            if na >= 0 and nb < 0:  # the two are next to each other in index order: the list stays in order
                self.pcards[i * 13 + na] = b
            elif nb >= 0 and na < 0:
                self.pcards[i * 13 + nb] = a
        old_live, old_t = self.live, self.tmask
        self.live = self._swapped(self.live)
        self.tmask = self._swapped(self.tmask)
        for k in range(self.tbase, self.tbase + self.tk):
            if self.tcard[k] == a:
                self.tcard[k] = b
            elif self.tcard[k] == b:
                self.tcard[k] = a
        i = self.cseat[a]
        self.cseat[a] = self.cseat[b]
        self.cseat[b] = i
        i = self.cside[a]
        self.cside[a] = self.cside[b]
        self.cside[b] = i
        for i in (a, b):  # the sums over the cards held and over the trick
            k = (1 if (self.live >> i) & 1 else 0) - (1 if (old_live >> i) & 1 else 0)
            self.rest_cv += k * self.cv[i]
            self.rest_gw += k * self.gw[i]
            k = (1 if (self.tmask >> i) & 1 else 0) - (1 if (old_t >> i) & 1 else 0)
            self.tcv += k * self.cv[i]
            self.tgw += k * self.gw[i]
        if self.tk:
            k = self.tbase
            self.best_rank, self.best_seat = self.rank[self.led * 64 + self.tcard[k]], self.tseat[k]
            for k in range(self.tbase + 1, self.tbase + self.tk):
                r = self.rank[self.led * 64 + self.tcard[k]]
                if r > self.best_rank:
                    self.best_rank, self.best_seat = r, self.tseat[k]
        self.jswap = not self.jswap
        self.banked += self.jdealt if self.jswap else -self.jdealt

    @cython.cfunc
    @cython.exceptval(check=False)
    @cython.locals(one=cython.ulonglong, ha=cython.ulonglong, hb=cython.ulonglong)
    def _swapped(self, m: cython.ulonglong) -> cython.ulonglong:
        """A mask with the two jokers' bits exchanged."""
        one = 1
        ha = (m >> self.jhi) & 1
        hb = (m >> self.jlo) & 1
        m &= ~((one << self.jhi) | (one << self.jlo))
        return m | (hb << self.jhi) | (ha << self.jlo)

    @cython.cfunc
    @cython.exceptval(check=False)
    def _jswing(self) -> cython.int:
        """What a renaming of the jokers still to come would add to `banked` (0 when none can come)."""
        if not self.jdealt or not (self.live >> self.jlo) & 1:
            return 0
        if not ((self.live | (self.tmask if self.jmode == 2 else 0)) >> self.jhi) & 1:
            return 0
        return -self.jdealt if self.jswap else self.jdealt

    @cython.ccall
    def summary(self) -> object:
        """What the side points still depend on of what has been taken (the side kinds' own reading of
        the piles, game.solver.setup): each side's game count, which sides took a trick, or the piles."""
        return self._summary(-1, 0, 0, -1, 0, 0)

    @cython.cfunc
    @cython.locals(i=cython.int, took=cython.bint, n=cython.longlong)
    def _summary(self, a: cython.int, more_a: cython.ulonglong, gw_a: cython.longlong, b: cython.int,
                 more_b: cython.ulonglong, gw_b: cython.longlong) -> object:
        """The summary were side `a` to take the cards `more_a` too, counting `gw_a` for game, and side `b`
        the cards `more_b` (-1: nobody): a tuple of the piles, or one number (solver.setup makes sure it
        fits 63 bits, else asks for the piles)."""
        if self.need_piles:
            return tuple([self.pile[i] | (more_a if i == a else 0) | (more_b if i == b else 0)
                          for i in range(self.nsides)])
        n = 0
        if self.need_took:
            for i in range(self.nsides):
                took = self.pile[i] != 0 or (i == a and more_a != 0) or (i == b and more_b != 0)
                n = n * 2 + (1 if took else 0)
        if self.need_count:
            for i in range(self.nsides):
                n = n * self.count_base + self.count[i] + (gw_a if i == a else 0) + (gw_b if i == b else 0)
        return n

    @cython.cfunc
    @cython.locals(i=cython.int)
    def _side(self, a: cython.int, more_a: cython.ulonglong, gw_a: cython.longlong, b: cython.int,
              more_b: cython.ulonglong, gw_b: cython.longlong) -> cython.int:
        """The side points the bidding side takes at the end of the hand, were sides `a` and `b` to take
        those cards too (-1: nobody; see `_summary`): asked of game.solver (the point kinds) once per summary."""
        key = self._summary(a, more_a, gw_a, b, more_b, gw_b)
        got = self.memo.get(key)
        if got is None:
            got = self.side_fn([self.pile[i] | (more_a if i == a else 0) | (more_b if i == b else 0)
                                for i in range(self.nsides)],
                               [self.count[i] + (gw_a if i == a else 0) + (gw_b if i == b else 0)
                                for i in range(self.nsides)])
            self.memo[key] = got
        return got

    @cython.cfunc
    def _final(self) -> cython.int:
        """The bidding side's points at the end of the hand: what it took, and the side points."""
        return self.banked + self._side(-1, 0, 0, -1, 0, 0)

    # ------------------------------------------------------------------
    # The search

    @cython.cfunc
    @cython.exceptval(-1, check=True)
    @cython.locals(lead=cython.int, old=cython.int, fb=cython.int, lo=cython.int, hi=cython.int, r=cython.bint,
                   c=cython.int, first_side=cython.int, sure=cython.int, against=cython.int, i=cython.int,
                   hi_side=cython.int, lo_side=cython.int, run=cython.ulonglong, run_gw=cython.longlong,
                   rest=cython.ulonglong, one=cython.ulonglong, swing=cython.int, low=cython.int, high=cython.int)
    def _boundary(self, beta: cython.int) -> cython.int:
        """A trick boundary: the end of the hand, a bound, the table, or the search of the next lead."""
        one = 1
        lead = self._lead_seat()
        if lead < 0:
            return self._final() >= beta
        # Bounds from the points still out. The bidding side keeps what it has banked (points are never
        # taken back), and can add at most every card point still held and every side point; the side
        # points never count against it. A run of the highest trumps still held that one side holds is
        # that side's: such a card, whenever it is played, is beaten by nothing the other sides hold, so
        # the trick goes to its side (every card held is played at last; in trump-only play every trump).
        # Two look-alike jokers held by two sides end such a run: whichever falls first (or later, in one
        # trick) may become the higher. And a renaming of the jokers still to come may move `banked` by
        # `swing` (the points to the player dealt them).
        # So banked + min(swing, 0) + sure <= value <= banked + max(swing, 0) + rest_cv - sure_against + side_max.
        swing = self._jswing() if self.jmode else 0
        low = self.banked + (swing if swing < 0 else 0)
        high = self.banked + (swing if swing > 0 else 0)
        sure = against = 0
        run = 0  # the run of top trumps: its cards, what they count for game, its side
        run_gw = 0
        first_side = -1
        if self.use_sure:
            for c in range(self.thi, self.tlo - 1, -1):
                if not (self.live >> c) & 1:
                    continue
                if self.jmode and (c == self.jhi or c == self.jlo) and (self.live >> self.jhi) & 1 and \
                        (self.live >> self.jlo) & 1 and self.cside[self.jhi] != self.cside[self.jlo]:
                    break
                if first_side < 0:
                    first_side = self.cside[c]
                elif self.cside[c] != first_side:
                    break
                run |= one << c
                run_gw += self.gw[c]
                if first_side == self.bid_side:
                    sure += self.cv[c]
                else:
                    against += self.cv[c]
        if high + self.rest_cv - against + self.side_max < beta:
            return False
        if low + sure >= beta:
            return True
        fb = beta - self.banked
        key = None
        hint: cython.int = -1
        # The side points lie between what they give were one defending side to take every card still held
        # (the least of those) and what they give were the bidding side to take them all: a side never
        # loses a game count or a sweep by taking more (solver.setup asks this only of such points).
        # The run of top trumps goes to its side in both.
        hi_side = self.side_max
        lo_side = 0
        if self.side_max and not self.need_piles:
            rest = self.live & ~run
            if first_side == self.bid_side or first_side < 0:
                hi_side = self._side(self.bid_side, self.live, self.rest_gw, -1, 0, 0)
            else:
                hi_side = self._side(self.bid_side, rest, self.rest_gw - run_gw, first_side, run, run_gw)
            lo_side = hi_side
            for i in range(self.nsides):
                if i == self.bid_side or not lo_side:
                    continue
                if first_side == self.bid_side:
                    lo_side = min(lo_side, self._side(i, rest, self.rest_gw - run_gw, self.bid_side, run, run_gw))
                elif first_side < 0 or first_side == i:
                    lo_side = min(lo_side, self._side(i, self.live, self.rest_gw, -1, 0, 0))
                else:
                    lo_side = min(lo_side, self._side(i, rest, self.rest_gw - run_gw, first_side, run, run_gw))
        if high + self.rest_cv - against + hi_side < beta:
            return False
        if low + sure + lo_side >= beta:
            return True
        if self.use_tt and self.live_n > UNTABLED * self.n:
            # The table holds bounds of the points still to come (the value less `banked`), keyed by all
            # that those points depend on at a trick boundary: the cards each seat still holds (the union of
            # the hands tells each seat's, as every card was dealt to one seat; two look-alike jokers were
            # dealt as `jswap` says, which is in the key), who leads, whether it is the first trick (its own
            # rules), and the summary of what was taken that the side points read (game
            # counts per side, who has taken a trick, or the piles; see `summary`) - or, once the bounds
            # above agree, the side points themselves, which no play can change any more. Card points
            # already taken are in `banked` and cannot change, and the card points still to come depend
            # only on who takes the cards still held, so two positions with one key have the same points
            # to come. It keeps the lead that decided the last search too (tried first: it changes only
            # the order).
            key = (self._cards_key() if self.use_rel and self.use_equiv else self.live,
                   self.summary() if lo_side != hi_side or not self.side_max or self.need_piles else -1 - lo_side,
                   (lead * 2 + self.first) * 2 + self.jswap)
            got = self.tt.get(key)
            if got is not None:
                lo, hi, hint = got
                if lo >= fb:
                    return True
                if hi < fb:
                    return False
        old = self.leader
        self.leader = lead
        self.hint = hint
        r = self._turn(beta)
        self._store(key, fb, r, self.cut if self.cut >= 0 else hint)
        self.leader = old
        return r

    @cython.cfunc
    @cython.locals(c=cython.int, k=cython.int)
    def _cards_key(self) -> bytes:
        """The cards still held, up to cards that play alike: for each, in index order (each suit from its
        weakest card up), its class and its holder. Two positions with one such key differ only in which
        of several cards of one class, consecutive among the cards held, are gone: the same argument as for
        equivalent cards maps every line of play of one onto a line of the same value of the other."""
        k = 0
        for c in range(self.ncards):
            if (self.live >> c) & 1:
                self.kbuf[k] = self.cls[c]
                self.kbuf[k + 1] = self.cseat[c]
                k += 2
        return bytes(self.kbuf[:k])

    @cython.cfunc
    @cython.locals(lo=cython.int, hi=cython.int)
    def _store(self, key: object, fb: cython.int, r: cython.bint, hint: cython.int) -> cython.void:
        """What a search of `key` learnt: the points to come are at least `fb` (r) or below it."""
        if key is None:
            return
        got = self.tt.get(key)
        lo, hi = (-(1 << 20), 1 << 20) if got is None else (got[0], got[1])  # (a renaming of the jokers may take some back)
        if r:
            lo = max(lo, fb)
        else:
            hi = min(hi, fb - 1)
        self.tt[key] = (lo, hi, hint)

    @cython.cfunc
    @cython.exceptval(-1, check=True)
    @cython.locals(seat=cython.int, mine=cython.ulonglong, maxi=cython.bint, r=cython.bint, c=cython.int,
                   prev=cython.int, nm=cython.int, i=cython.int, j=cython.int, score=cython.int, x=cython.int, carry=cython.int,
                   hint=cython.int,
                   xs=cython.int, one=cython.ulonglong, between=cython.ulonglong, w=cython.int, s_turn=cython.int,
                   s_banked=cython.int, s_leader=cython.int, s_pile=cython.ulonglong, s_count=cython.longlong,
                   s_tmask=cython.ulonglong, s_tcv=cython.int, s_tgw=cython.longlong, s_led=cython.int,
                   s_rank=cython.int, s_best=cython.int, s_first=cython.bint, s_tk=cython.int, renamed=cython.bint,
                   s_tbase=cython.int)
    def _turn(self, beta: cython.int) -> cython.int:
        """The seat at `self.turn` of the trick in progress plays (or folds); a trick every seat has answered
        is won, and the next starts at a boundary."""
        moves: cython.int[13]
        scores: cython.int[13]
        if not cython.compiled:
            moves, scores = [0] * 13, [0] * 13
        one = 1
        s_turn = self.turn
        if self.turn >= self.n:  # the trick is complete: its winner's side takes it, the winner leads
            w = self.side_of[self.best_seat]
            s_banked, s_leader, s_first, s_pile, s_count = self.banked, self.leader, self.first, self.pile[w], self.count[w]
            s_tmask, s_tcv, s_tgw, s_led, s_rank, s_best, s_tk = (self.tmask, self.tcv, self.tgw, self.led,
                                                                   self.best_rank, self.best_seat, self.tk)
            s_tbase = self.tbase
            self._win()
            r = self._boundary(beta)
            self.banked, self.leader, self.first, self.pile[w], self.count[w] = s_banked, s_leader, s_first, s_pile, s_count
            self.tmask, self.tcv, self.tgw, self.led, self.best_rank, self.best_seat, self.tk = (
                s_tmask, s_tcv, s_tgw, s_led, s_rank, s_best, s_tk)
            self.turn = s_turn
            self.tbase = s_tbase
            return r
        self.nodes += 1
        hint = self.hint if not self.tk else -1
        self.hint = -1
        seat = self.leader + self.turn  # < 2n: both below n
        if seat >= self.n:
            seat -= self.n
        mine = self._allowed(seat, self.led if self.tk else LEAD, self.first)
        if not mine:  # a fold (trump-only play): the next seat
            self.turn += 1
            r = self._turn(beta)
            self.turn = s_turn
            return r
        maxi = self.side_of[seat] == self.bid_side
        # The cards to try, each class of equivalent cards once, best first.
        # Equivalent cards: two cards of one hand with the same effective suit and the same signature (the
        # points they carry, what they count for game, their place in every follow rule), with no card
        # still in play (held by anyone, or in this trick) ranked between them. Whatever the rest of the
        # hand, each wins and loses exactly the tricks the other would (the strengths of game.play.trick_rank
        # order the cards of one suit alike for every suit led - solver.setup checks it - and no card in
        # play sits between them), they take and give the same points, and every follow rule treats them
        # alike: swapping them maps every line of play onto one of the same value. So one is searched.
        nm = 0
        prev = -1
        for i in range(self.pn[seat]):
            c = self.pcards[seat * 13 + i]
            if not (mine >> c) & 1:
                continue
            if self.use_equiv and prev >= 0 and self.group[prev] == self.group[c] and self.sig[prev] == self.sig[c]:
                between = ((one << c) - 1) & ~((one << (prev + 1)) - 1)
                if not (between & (self.live | self.tmask)):
                    prev = c
                    continue
            prev = c
            # Move ordering (it changes how soon a refutation is found, never the answer): a lead tries
            # its strongest cards first; a follower tries first the cheapest card that takes the trick from
            # the other side (the defenders are one side, in individual play too), and otherwise gives an
            # ally's trick points, or else throws its least.
            carry = 64 * self.cv[c] + 4 * self.gw[c]  # what the card carries to whoever takes it
            if c == hint:
                score = 1 << 20
            elif not self.tk:
                score = self.rank[self.group[c] * 64 + c] + carry // 8
            else:
                x = self.rank[self.led * 64 + c]
                if (self.side_of[self.best_seat] == self.bid_side) == maxi:  # an ally (the defenders are one) wins it
                    score = carry - x if x <= self.best_rank else -x
                elif x > self.best_rank:
                    score = 4096 - x + carry
                else:
                    score = -carry - self.rank[self.group[c] * 64 + c]
            j = nm
            while j > 0 and scores[j - 1] < score:
                moves[j] = moves[j - 1]
                scores[j] = scores[j - 1]
                j -= 1
            moves[j] = c
            scores[j] = score
            nm += 1
        s_tmask, s_tcv, s_tgw, s_led, s_rank, s_best = (self.tmask, self.tcv, self.tgw, self.led, self.best_rank,
                                                         self.best_seat)
        for i in range(nm):
            c = moves[i]
            renamed = self.jmode != 0 and self._renames(c)
            if renamed:  # a look-alike joker that the rule makes the higher as it falls
                self._rename()
                c = self.jhi
            self._play(seat, c)
            self.turn += 1
            r = self._turn(beta)
            # undo
            self.turn = s_turn
            self.tk -= 1
            self.hands[seat] |= one << c
            self.live |= one << c
            self.live_n += 1
            self.rest_cv += self.cv[c]
            self.rest_gw += self.gw[c]
            if renamed:
                self.tmask &= ~(one << c)
                self.tcv -= self.cv[c]
                self.tgw -= self.gw[c]
                self._rename()
            self.tmask, self.tcv, self.tgw, self.led, self.best_rank, self.best_seat = (s_tmask, s_tcv, s_tgw, s_led,
                                                                                        s_rank, s_best)
            if r == maxi:  # the bidding side found a card reaching beta, or a defender one holding it below
                if not self.tk:
                    self.cut = c
                return r
        if not self.tk:
            self.cut = -1
        return not maxi

    # ------------------------------------------------------------------
    # Asking

    def test(self, beta: cython.int) -> bool:
        """Is the value of the position at least `beta`?"""
        if self.tk:
            return self._turn(beta) != 0
        return self._boundary(beta) != 0

    def bounds(self) -> tuple:
        """(lower, upper): the value lies between them (the bounds from the points still out)."""
        swing: cython.int = self._jswing() if self.jmode else 0
        return (self.banked + (swing if swing < 0 else 0),
                self.banked + (swing if swing > 0 else 0) + self.rest_cv + self.tcv + self.side_max)

    def value(self) -> int:
        """The value of the position: the points the bidding side takes with perfect play by all.
        Null-window tests halve [lower, upper] until it holds one value (the table keeps what each
        test learnt for the next)."""
        lo: cython.int
        hi: cython.int
        beta: cython.int
        lo, hi = self.bounds()
        if self.tk == 0 and self._lead_seat() < 0:
            return self._final()
        while lo < hi:
            beta = (lo + hi + 1) // 2
            if self.test(beta):
                lo = beta
            else:
                hi = beta - 1
        return lo

    def to_play(self) -> int:
        """The seat due to play now, -1 when the hand is over."""
        if self.tk:
            return (self.leader + self.turn) % self.n
        return self._lead_seat()

    def moves(self) -> list:
        """The cards the seat due may play, as card indices in index order."""
        seat: cython.int = self.to_play()
        if seat < 0:
            return []
        mine: cython.ulonglong = self._allowed(seat, self.led if self.tk else LEAD, self.first)
        return [self.pcards[seat * 13 + i] for i in range(self.pn[seat]) if (mine >> self.pcards[seat * 13 + i]) & 1]

    def classes(self) -> list:
        """The moves in classes of equivalent cards (as `_turn` finds them), each in index order."""
        out: list = []
        prev: cython.int = -1
        one: cython.ulonglong = 1
        for c in self.moves():
            if self.use_equiv and prev >= 0 and self.group[prev] == self.group[c] and self.sig[prev] == self.sig[c] \
                    and not (((one << c) - 1) & ~((one << (prev + 1)) - 1) & (self.live | self.tmask)):
                out[len(out) - 1].append(c)
            else:
                out.append([c])
            prev = c
        return out

    def maximizing(self) -> bool:
        """Is the seat due to play of the bidding side?"""
        seat: cython.int = self.to_play()
        return seat >= 0 and self.side_of[seat] == self.bid_side

    def push(self, c: cython.int) -> None:
        """Play card `c` from the hand of the seat due (it must be among `moves`)."""
        if c not in self.moves():
            raise ValueError("not a card the seat due may play")
        self._push(self.to_play(), c)

    def push_any(self, seat: cython.int, c: cython.int) -> None:
        """Play card `c` from `seat`'s hand whatever the follow rules say (a record's illegal play);
        the seats between are taken to have folded."""
        if not (self.hands[seat] >> c) & 1:
            raise ValueError("the seat does not hold that card")
        self._push(seat, c)

    def _push(self, seat: cython.int, c: cython.int) -> None:
        """`seat` plays `c` (checked by the caller), undone by `pop`."""
        self.history.append(self._state())
        if not self.tk:
            self.leader = seat
            self.turn = 0
        else:
            self.turn = (seat - self.leader) % self.n
        if self.jmode and self._renames(c):
            self._rename()
            c = self.jhi
        self._play(seat, c)
        self.turn += 1
        self._settle()

    def pop(self) -> None:
        """Take back the last push."""
        self._restore(self.history.pop())

    def _state(self) -> tuple:
        return ([self.hands[i] for i in range(9)], [self.pile[i] for i in range(9)], [self.count[i] for i in range(9)],
                [self.tcard[i] for i in range(126)], [self.tseat[i] for i in range(126)],
                (self.live, self.live_n, self.banked, self.rest_cv, self.rest_gw, self.first, self.leader, self.turn,
                 self.tk, self.tbase, self.tmask,
                 self.tcv, self.tgw, self.led, self.best_rank, self.best_seat),
                # what a renaming of the jokers changes besides
                ([self.pcards[i] for i in range(117)], [self.cseat[i] for i in range(64)],
                 [self.cside[i] for i in range(64)], self.jswap) if self.jmode else None)

    def _restore(self, s: tuple) -> None:
        i: cython.int
        for i in range(9):
            self.hands[i], self.pile[i], self.count[i] = s[0][i], s[1][i], s[2][i]
        for i in range(126):
            self.tcard[i], self.tseat[i] = s[3][i], s[4][i]
        (self.live, self.live_n, self.banked, self.rest_cv, self.rest_gw, self.first, self.leader, self.turn,
                 self.tk, self.tbase, self.tmask, self.tcv,
         self.tgw, self.led, self.best_rank, self.best_seat) = s[5]
        if s[6] is not None:
            for i in range(117):
                self.pcards[i] = s[6][0][i]
            for i in range(64):
                self.cseat[i], self.cside[i] = s[6][1][i], s[6][2][i]
            self.jswap = s[6][3]

    def trick(self) -> list:
        """The trick in progress as (seat, card), in playing order."""
        return [(self.tseat[i], self.tcard[i]) for i in range(self.tbase, self.tbase + self.tk)]

    def share(self, memo: dict) -> None:
        """Keep the side points in `memo`, shared with other searches of the same deal (game.solver.Shared)."""
        self.memo = memo

    def switches(self, tt: bool, equiv: bool) -> None:
        """Turn the transposition table and card equivalence on or off (the naive baseline of the benchmark)."""
        self.use_tt, self.use_equiv = tt, equiv
        self.tt = {}

    def visited(self) -> int:
        return self.nodes
