"""The state of a hand as the exact search (game.search) plays it: the deal's tables, the cards held, the
trick in progress, what each side took - and the rules read from the tables, the look-alike jokers'
names, the side points, and the position's own interface (play a card, take it back, the cards allowed).

game.search.Search builds on this class and adds the search; game.solver drives both. The split keeps the
search loop apart from the position's setup and bookkeeping at no cost to the compiled core: the state's
fields are one C struct (hand_state.pxd declares it, and the C methods the search calls through the
class's table as before), read directly by the search.

Cython in pure-Python mode, as game.search: the same source is the plain Python reference and, where a
compiler was found at install, part of the compiled core (game.solver.cores).

Two look-alike jokers (trump.identical_jokers) are two cards whose names say only which ranks higher,
and the rule names them by the order they fall (game.deal.name_jokers): the first to fall is the higher
(`jmode` 1), or of two in one trick the later is (`jmode` 2). The state keeps them named so: when the
lower-named one falls where the rule makes it the higher, the two names are exchanged throughout the
state (`_rename`), so the tables, the points and the table's keys read them as the rule does.
"""

import importlib.machinery
import importlib.util
from pathlib import Path
from types import ModuleType
from typing import Any

try:
    import cython
except ImportError:  # no Cython: the declarations are no-ops (game.cython_shadow)
    from pitchkeeper.game import cython_shadow as cython

COMPILED = cython.compiled  # True in the compiled build
LEAD = cython.declare(cython.int, 5)  # the "suit led" of the card that leads a trick (a C constant, compiled)
# The sizes of the state's arrays (game.solver.setup refuses a position that would not fit them):
SEATS = 9  # players (the rulesets allow 2-9)
HELD = 13  # cards in one hand
STEPS = 4  # steps of one follow rule (game.play.follow_steps)
SIDE_SLOTS = cython.declare(cython.int, 1024)  # compiled: the C arrays of side points last answered (a power of two)


def source(name: str) -> ModuleType:
    """game/<name>.py loaded as Python source, even where its compiled module sits beside it (the pure core)."""
    path = Path(__file__).with_name(f"{name}.py")
    loader = importlib.machinery.SourceFileLoader(f"pitchkeeper.game._{name}_source", str(path))
    spec = importlib.util.spec_from_loader(loader.name, loader)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


@cython.cclass
class HandState:
    """One position of one deal, played on in place with push/pop. Its fields are set by __init__ and
    start; compiled, they are one C struct (hand_state.pxd says what each holds)."""

    # (the types for a Python reader; compiled, hand_state.pxd declares these fields as C types, with what each holds)
    # -- the deal's tables (game.solver.setup) --
    n: int
    nsides: int
    bid_side: int
    side_of: list[int]
    group: list[int]
    rank: list[int]
    cv: list[int]
    gw: list[int]
    sig: list[int]
    pcards: list[int]
    pn: list[int]
    dcards: list[int]
    dn: int
    tord: list[int]
    tn: int
    fn: list[int]
    fwhen: list[int]
    fallow: list[int]
    solo: list[int]
    side_max: int
    tlo: int
    thi: int
    use_sure: bool
    cside: list[int]
    cseat: list[int]
    cls: list[int]
    jmode: int
    jhi: int
    jlo: int
    jdealt: int
    ncards: int
    use_rel: bool
    kbuf: list[int]
    need_count: bool
    need_took: bool
    need_piles: bool
    count_base: int
    side_fn: Any
    lead_fn: Any
    memo: dict[Any, Any]
    side_key: list[int]
    side_val: list[int]
    tt: dict[Any, Any]
    use_tt: bool
    use_equiv: bool
    nodes: int
    hint: int
    cut: int
    ally_top: int
    killer: list[int]
    # -- the state --
    hands: list[int]
    live: int
    live_n: int
    pile: list[int]
    count: list[int]
    banked: int
    rest_cv: int
    rest_gw: int
    first: bool
    jswap: bool
    leader: int
    lead_mask: int
    turn: int
    tk: int
    tcard: list[int]
    tseat: list[int]
    tbase: int
    tmask: int
    tcv: int
    tgw: int
    led: int
    best_rank: int
    best_seat: int
    history: list[Any]

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
            self.dcards, self.tord, self.killer = [0] * 64, [0] * 64, [0] * 64
            self.fwhen, self.fallow, self.solo = [0] * 48, [0] * 48, [0] * 12
        i: cython.int
        k: cython.int
        rest: cython.ulonglong
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
        for i in range(12):  # what `_allowed` gives each hand of one card: its card's first step met decides
            self.solo[i] = 0
            rest = 0xFFFFFFFFFFFFFFFF  # the cards no step has met yet
            for k in range(self.fn[i]):
                self.solo[i] |= rest & self.fwhen[i * 4 + k] & self.fallow[i * 4 + k]
                rest &= ~self.fwhen[i * 4 + k]
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
        self.lead_mask = self.ally_top = 0
        for i in range(64):
            self.killer[i] = -1
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
        self.jswap = False
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
        # the cards in play (held, or in the trick), in index order, and the trumps among them from the highest:
        # what the search's loops over cards visit (a card out of play never comes back)
        self.dn = self.tn = 0
        for c in range(64):
            if ((self.live | self.tmask) >> c) & 1:
                self.dcards[self.dn] = c
                self.dn += 1
        for c in range(self.thi, self.tlo - 1, -1):
            if ((self.live | self.tmask) >> c) & 1:
                self.tord[self.tn] = c
                self.tn += 1
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
    @cython.locals(i=cython.int, out=list, seat=cython.int)
    def _lead_seat(self) -> cython.int:
        """Who leads the next trick: the leader due, or when that player may lead nothing (out of trumps in
        trump-only play) whoever game.play.next_in says; -1 when nobody may lead: the hand is over. The cards
        that seat may lead are kept in `lead_mask`, for the search's lead from this boundary (no card is
        played in between, so they are still those)."""
        self.lead_mask = self._allowed(self.leader, LEAD, self.first)
        if self.lead_mask:
            return self.leader
        out = [i for i in range(self.n) if not self._allowed(i, LEAD, self.first)]
        if len(out) == self.n:
            return -1
        seat = self.lead_fn(self.n, self.leader, out)
        self.lead_mask = self._allowed(seat, LEAD, self.first)
        return seat

    @cython.cfunc
    @cython.exceptval(check=False)
    @cython.locals(one=cython.ulonglong, r=cython.int, bit=cython.ulonglong, k=cython.int, cv=cython.int,
                   gw=cython.longlong)
    def _play(self, seat: cython.int, c: cython.int) -> cython.void:
        one = 1
        bit = one << c
        k = self.tk
        self.hands[seat] &= ~bit
        self.live &= ~bit
        self.live_n -= 1
        cv = self.cv[c]
        gw = self.gw[c]
        self.rest_cv -= cv
        self.rest_gw -= gw
        self.tcard[self.tbase + k] = c
        self.tseat[self.tbase + k] = seat
        self.tk = k + 1
        self.tmask |= bit
        self.tcv += cv
        self.tgw += gw
        if not k:
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
        self.first = False
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
    @cython.locals(i=cython.int)
    def _summary(self, a: cython.int, more_a: cython.ulonglong, gw_a: cython.longlong, b: cython.int,
                 more_b: cython.ulonglong, gw_b: cython.longlong) -> object:
        """The summary were side `a` to take the cards `more_a` too, counting `gw_a` for game, and side `b`
        the cards `more_b` (-1: nobody): a tuple of the piles, or one number (solver.setup makes sure it
        fits 63 bits, else asks for the piles)."""
        if self.need_piles:
            return tuple([self.pile[i] | (more_a if i == a else 0) | (more_b if i == b else 0)
                          for i in range(self.nsides)])
        return self._number(a, more_a, gw_a, b, more_b, gw_b)

    @cython.cfunc
    @cython.exceptval(check=False)
    @cython.locals(i=cython.int, took=cython.bint, n=cython.longlong)
    def _number(self, a: cython.int, more_a: cython.ulonglong, gw_a: cython.longlong, b: cython.int,
                more_b: cython.ulonglong, gw_b: cython.longlong) -> cython.longlong:
        """`_summary` where it is one number (the piles not needed)."""
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
    @cython.locals(i=cython.int, n=cython.longlong, slot=cython.int)
    def _side(self, a: cython.int, more_a: cython.ulonglong, gw_a: cython.longlong, b: cython.int,
              more_b: cython.ulonglong, gw_b: cython.longlong) -> cython.int:
        """The side points the bidding side takes at the end of the hand, were sides `a` and `b` to take
        those cards too (-1: nobody; see `_summary`): asked of game.solver (the point kinds) once per summary.
        Compiled, a summary that is one number is looked up first in C arrays of the last ones answered
        (a slot answers only for its whole summary)."""
        slot = 0
        n = 0
        if not self.need_piles:
            n = self._number(a, more_a, gw_a, b, more_b, gw_b)
            if cython.compiled:
                slot = (n ^ (n >> 11) ^ (n >> 23)) & (SIDE_SLOTS - 1)
                if self.side_key[slot] == n + 1:
                    return self.side_val[slot]
            key: object = n
        else:
            key = self._summary(a, more_a, gw_a, b, more_b, gw_b)
        got = self.memo.get(key)
        if got is None:
            got = self.side_fn([self.pile[i] | (more_a if i == a else 0) | (more_b if i == b else 0)
                                for i in range(self.nsides)],
                               [self.count[i] + (gw_a if i == a else 0) + (gw_b if i == b else 0)
                                for i in range(self.nsides)])
            self.memo[key] = got
        if cython.compiled and not self.need_piles:
            self.side_key[slot] = n + 1
            self.side_val[slot] = got
        return got

    @cython.cfunc
    def _final(self) -> cython.int:
        """The bidding side's points at the end of the hand: what it took, and the side points."""
        return self.banked + self._side(-1, 0, 0, -1, 0, 0)

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
