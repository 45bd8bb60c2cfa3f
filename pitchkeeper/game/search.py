"""The exact search of a hand (double dummy): the hot part of game.solver, over tables of small integers.

This module knows no rule of Pitch. game.solver's setup reads the ruleset through the engine (the follow
rules and a card's strength in a trick from game.play, the points from the point kinds) and hands this
search tables over card indices: each card's effective suit, its strength for each suit led, the
points its captor takes, what it counts for game, the follow rules as masks. The search plays cards
out of bitmask hands (the state: game.hand_state) and asks back only at the end of the hand (which side
points the bidding side took) and when a leader is out of cards it may lead (who leads instead).

It is Cython in pure-Python mode: the same source runs as plain Python (the reference, always there)
and, where a compiler was found at install, as a compiled module with the same answers
(game.solver.cores). Annotations are Cython's C types; without Cython they mean nothing.

The search (each technique's soundness is argued where it is used):
- `test(beta)`: is the value at least beta? A null-window alpha-beta search: a node of the bidding side
  is True as soon as one card is, a defender's False as soon as one card is.
- `value()`: repeated tests narrowing [lower, upper] (the quick bounds) to the one value.
- a transposition table at trick boundaries, equivalent cards searched once, cards ordered so that the
  refutation usually comes first (at a lead: the table's lead, else the killer, then the strongest), and
  bounds from the points still out;
- a last trick whose every card is forced, valued at its boundary without a search (or a card played);
- a node does little: the cards allowed visited from the seat's mask, a completed trick taken (`_take`)
  without another call of `_turn`, a play undone by what it changed.
"""

from typing import TYPE_CHECKING

try:
    import cython
except ImportError:  # no Cython: the declarations are no-ops (game.cython_shadow)
    from pitchkeeper.game import cython_shadow as cython

if cython.compiled:  # the state's C declarations (hand_state.pxd), C memory for the table
    from cython.cimports.libc.stdlib import calloc, free
    from cython.cimports.pitchkeeper.game.hand_state import HandState
elif TYPE_CHECKING:
    from pitchkeeper.game.hand_state import HandState
else:  # as plain Python, on the state as plain Python too (even where the compiled one is built)
    from pitchkeeper.game import hand_state

    HandState = (hand_state if not hand_state.COMPILED else hand_state.source("hand_state")).HandState

COMPILED = cython.compiled  # True in the compiled build
# The last tricks not worth a table look-up: compiled, searching the last two is cheaper than looking them up
# (a look-up builds Python objects, a node does not); as plain Python every node costs as much as a look-up.
UNTABLED = cython.declare(cython.int, 2 if cython.compiled else 0)
LEAD = cython.declare(cython.int, 5)  # hand_state.LEAD (a C constant of each module, compiled)
# Compiled, the table is in C arrays instead (no Python object), of SLOTS entries (a power of two); the piles
# in the summary (`need_piles`) take the Python one.
SLOTS = cython.declare(cython.int, 4096)  # its size at first
MAX_SLOTS = cython.declare(cython.int, 1 << 18)  # its largest (on many seats the searches of one analysis need it)
GROW = cython.declare(cython.int, 64)  # it grows fourfold when the nodes visited pass this many per slot
NOT_LAST = cython.declare(cython.int, -(1 << 20))  # _last_trick: the position is not a last forced trick
ORDER = cython.declare(cython.int, 1 << 21)  # _turn: above minus the least score of a move (its order keys >= 0)
# The card of a one-card mask, by a de Bruijn sequence: (mask * DEBRUIJN) mod 2**64, shifted right by 58, is a
# different number for each of the 64 one-card masks, and CARD_OF maps it back to the card. So a loop visits
# the cards of a mask, lowest first, in as many steps as it has cards (compiled, the C type wraps mod 2**64
# and `& FULL` costs nothing).
DEBRUIJN = cython.declare(cython.ulonglong, 0x03F79D71B4CB0A89)
FULL = cython.declare(cython.ulonglong, 0xFFFFFFFFFFFFFFFF)
CARD_OF = cython.declare(cython.int[64])
if not cython.compiled:
    CARD_OF = [0] * 64
for _c in range(64):
    CARD_OF[(((1 << _c) * DEBRUIJN) & FULL) >> 58] = _c


@cython.cclass
class Search(HandState):
    """One position of one deal, searched in place: play cards with push/pop (HandState), ask test/value."""

    # the C table (compiled): each slot's key - the cards held, their holders, the summary (or side points),
    # the leader and first trick and jokers' names - and its bounds of the points to come and its lead to try
    # (in C memory of `slots` entries, a power of two: a bucket is two slots; `_grow` makes it larger)
    s_live = cython.declare(cython.pointer(cython.ulonglong))  # 0: an empty slot (a position in the table holds some card)
    # the cards of the seats 1, 3, 5 ... (s_p0); of 2, 3, 6, 7 ... (s_p1); of 4-7 ... (s_p2); of 8 ... (s_p3)
    s_p0 = cython.declare(cython.pointer(cython.ulonglong))
    s_p1 = cython.declare(cython.pointer(cython.ulonglong))
    s_p2 = cython.declare(cython.pointer(cython.ulonglong))
    s_p3 = cython.declare(cython.pointer(cython.ulonglong))
    s_sum = cython.declare(cython.pointer(cython.longlong))
    s_flags = cython.declare(cython.pointer(cython.int))
    s_lo = cython.declare(cython.pointer(cython.int))
    s_hi = cython.declare(cython.pointer(cython.int))
    s_hint = cython.declare(cython.pointer(cython.int))
    s_n = cython.declare(cython.pointer(cython.int))  # the cards the slot's position held (the deeper search it saved)
    slots: cython.int
    grow_at: cython.longlong  # the nodes visited past which the table grows

    def __dealloc__(self) -> None:
        if cython.compiled:
            self._free()

    # ------------------------------------------------------------------
    # The search

    @cython.cfunc
    @cython.exceptval(-1, check=True)
    @cython.locals(lead=cython.int, old=cython.int, fb=cython.int, lo=cython.int, hi=cython.int, r=cython.int,
                   c=cython.int, first_side=cython.int, sure=cython.int, against=cython.int, i=cython.int,
                   hi_side=cython.int, lo_side=cython.int, run=cython.ulonglong, run_gw=cython.longlong,
                   rest=cython.ulonglong, one=cython.ulonglong, swing=cython.int, low=cython.int, high=cython.int,
                   sm=cython.longlong, flags=cython.int, slot=cython.int, at=cython.int, kl=cython.ulonglong, d=cython.int,
                   seat=cython.int,
                   p0=cython.ulonglong, p1=cython.ulonglong, p2=cython.ulonglong, p3=cython.ulonglong)
    def _boundary(self, beta: cython.int) -> cython.int:
        """A trick boundary: the end of the hand, a bound, the table, or the search of the next lead."""
        one = 1
        lead = self._lead_seat()
        if lead < 0:
            return self._final() >= beta
        if self.live_n <= self.n and not self.jmode:
            r = self._last_trick(lead)
            if r != NOT_LAST:
                return r >= beta
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
            for i in range(self.tn):
                c = self.tord[i]
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
        slot = -1
        kl = 0
        p0 = p1 = p2 = p3 = 0
        sm = 0
        flags = 0
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
        if cython.compiled and self.use_tt and not self.need_piles and self.live_n > self.n:
            # The table below, compiled, in C arrays: keyed by the cards themselves (not up to cards that play
            # alike) and their holders - the cards held, and for each bit of a seat's number the cards of the
            # seats with that bit - with the same summary and flags; a slot answers only for its whole key.
            # A position has a bucket of two slots (`_keep` says which it takes). The table starts small and
            # grows with the nodes visited (`_grow`): on many seats a value's tests, and an analysis's
            # solves, search the same positions near the root again, and a table too small for the search
            # loses them to the many positions near the end.
            if self.nodes >= self.grow_at and self.slots < MAX_SLOTS:
                self._grow()
            p0 = p1 = p2 = p3 = 0
            kl = self.live
            if self.use_rel and self.use_equiv and self.slots > SLOTS:
                # Up to cards that play alike, as `_cards_key` keys the Python table: each card held moved
                # down past the cards of its class that are gone (its class and holder, and the order of
                # the cards held, stay as they were), so two positions that differ only in which of such
                # cards are gone have one key. (The key so made is that of a position that plays alike,
                # so it may meet the keys made of the cards themselves.) Only once the table has grown:
                # a light search finds few such positions and would pay the loop at every boundary.
                kl = 0
                for i in range(self.dn):
                    c = self.dcards[i]
                    if not (self.live >> c) & 1:
                        continue
                    d = c
                    while d > 0 and not (self.live >> (d - 1)) & 1 and self.cls[d - 1] == self.cls[c]:
                        d -= 1
                    kl |= one << d
                    seat = self.cseat[c]
                    if seat & 1:
                        p0 |= one << d
                    if seat & 2:
                        p1 |= one << d
                    if seat & 4:
                        p2 |= one << d
                    if seat & 8:
                        p3 |= one << d
            else:
                for i in range(1, self.n):
                    if i & 1:
                        p0 |= self.hands[i]
                    if i & 2:
                        p1 |= self.hands[i]
                    if i & 4:
                        p2 |= self.hands[i]
                    if i & 8:
                        p3 |= self.hands[i]
            sm = self._number(-1, 0, 0, -1, 0, 0) if lo_side != hi_side or not self.side_max else -1 - lo_side
            flags = (lead * 2 + self.first) * 2 + self.jswap
            slot = self._bucket(kl, p0, p1, p2, p3, sm, flags)
            at = self._find(slot, kl, p0, p1, p2, p3, sm, flags)
            if at >= 0:
                hint = self.s_hint[at]
                if self.s_lo[at] >= fb:
                    return True
                if self.s_hi[at] < fb:
                    return False
        elif self.use_tt and self.live_n > UNTABLED * self.n:
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
                   self._summary(-1, 0, 0, -1, 0, 0) if lo_side != hi_side or not self.side_max or self.need_piles
                   else -1 - lo_side,
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
        if slot >= 0:
            self._keep(slot, kl, p0, p1, p2, p3, sm, flags, fb, r, self.cut if self.cut >= 0 else hint)
        else:
            self._store(key, fb, r, self.cut if self.cut >= 0 else hint)
        self.leader = old
        return r

    @cython.cfunc
    @cython.exceptval(check=False)
    @cython.locals(k=cython.int, seat=cython.int, c=cython.int, held=cython.ulonglong, r=cython.int,
                   w=cython.int, led=cython.int, best=cython.int, best_seat=cython.int, first=cython.int)
    def _last_trick(self, lead: cython.int) -> cython.int:
        """The value of a position whose next trick is its last and forced - every seat holding a card holds
        one, and may play it (`solo`, what `_allowed` gives a hand of one card), and no look-alike jokers to
        rename - or NOT_LAST. Found without playing it: the trick is then every card still held (its cards
        `live`, its card points `rest_cv`, its game count `rest_gw`), so only its winner is to be found - the
        highest strength for the suit led, the earlier seat on a tie, as `_play` keeps it - and that side
        takes it; the hand is over, and the side points are those of the piles with that trick added.
        Nothing is played, so nothing is undone."""
        led = LEAD
        first = 6 if self.first else 0
        best = best_seat = -1
        for k in range(self.n):
            seat = lead + k
            if seat >= self.n:
                seat -= self.n
            held = self.hands[seat]
            if not held:
                continue
            if held & (held - 1) or not held & self.solo[first + led]:
                return NOT_LAST  # two cards, or one it may not play (it folds and keeps it)
            c = CARD_OF[((held * DEBRUIJN) & FULL) >> 58]
            if led == LEAD:  # the lead: it names the suit led
                led = self.group[c]
                best, best_seat = self.rank[led * 64 + c], seat
            else:
                r = self.rank[led * 64 + c]
                if r > best:
                    best, best_seat = r, seat
        w = self.side_of[best_seat]
        return self.banked + (self.rest_cv if w == self.bid_side else 0) + self._side(w, self.live, self.rest_gw, -1, 0, 0)

    @cython.cfunc
    @cython.exceptval(check=False)
    def _bucket(self, live: cython.ulonglong, p0: cython.ulonglong, p1: cython.ulonglong, p2: cython.ulonglong,
                p3: cython.ulonglong, sm: cython.longlong, flags: cython.int) -> cython.int:
        """The first slot of a position's bucket."""
        return cython.cast(cython.int, (live ^ (live >> 29) ^ (p0 * 3) ^ (p1 * 5) ^ (p2 * 7) ^ (p3 >> 7) ^ (p0 >> 31) ^
                                        (p1 >> 17) ^ (sm * 31) ^ flags) & (self.slots - 2))

    @cython.cfunc
    @cython.exceptval(check=False)
    def _free(self) -> cython.void:
        if cython.compiled:  # the C table is the compiled build's
            free(self.s_live)
            free(self.s_p0)
            free(self.s_p1)
            free(self.s_p2)
            free(self.s_p3)
            free(self.s_sum)
            free(self.s_flags)
            free(self.s_lo)
            free(self.s_hi)
            free(self.s_hint)
            free(self.s_n)

    @cython.cfunc
    @cython.exceptval(-1, check=True)
    @cython.locals(i=cython.int, j=cython.int, size=cython.int, old=cython.int)
    def _grow(self) -> cython.int:
        """The table made fourfold (at first: made), its positions moved into it. A light search (a
        4-player deal) keeps a small table; a heavy one (many seats) gets the room to keep its positions
        between the tests of one value and the solves of one analysis."""
        if cython.compiled:  # the C table is the compiled build's
            size = SLOTS if self.slots == 0 else self.slots * 4
            live = self.s_live
            p0, p1, p2, p3, sm = self.s_p0, self.s_p1, self.s_p2, self.s_p3, self.s_sum
            flags, lo, hi, hint, n = self.s_flags, self.s_lo, self.s_hi, self.s_hint, self.s_n
            old = self.slots
            self.s_live = cython.cast(cython.pointer(cython.ulonglong), calloc(size, cython.sizeof(cython.ulonglong)))
            self.s_p0 = cython.cast(cython.pointer(cython.ulonglong), calloc(size, cython.sizeof(cython.ulonglong)))
            self.s_p1 = cython.cast(cython.pointer(cython.ulonglong), calloc(size, cython.sizeof(cython.ulonglong)))
            self.s_p2 = cython.cast(cython.pointer(cython.ulonglong), calloc(size, cython.sizeof(cython.ulonglong)))
            self.s_p3 = cython.cast(cython.pointer(cython.ulonglong), calloc(size, cython.sizeof(cython.ulonglong)))
            self.s_sum = cython.cast(cython.pointer(cython.longlong), calloc(size, cython.sizeof(cython.longlong)))
            self.s_flags = cython.cast(cython.pointer(cython.int), calloc(size, cython.sizeof(cython.int)))
            self.s_lo = cython.cast(cython.pointer(cython.int), calloc(size, cython.sizeof(cython.int)))
            self.s_hi = cython.cast(cython.pointer(cython.int), calloc(size, cython.sizeof(cython.int)))
            self.s_hint = cython.cast(cython.pointer(cython.int), calloc(size, cython.sizeof(cython.int)))
            self.s_n = cython.cast(cython.pointer(cython.int), calloc(size, cython.sizeof(cython.int)))
            self.slots = size
            self.grow_at = cython.cast(cython.longlong, size) * GROW
            if not (self.s_live and self.s_p0 and self.s_p1 and self.s_p2 and self.s_p3 and self.s_sum and self.s_flags
                    and self.s_lo and self.s_hi and self.s_hint and self.s_n):
                raise MemoryError("no memory for the solver's table")
            for i in range(old):  # (the deeper of a bucket first: it keeps the first slot of its new bucket)
                if not live[i]:
                    continue
                j = self._bucket(live[i], p0[i], p1[i], p2[i], p3[i], sm[i], flags[i])
                if self.s_live[j]:
                    j += 1
                    if self.s_live[j]:
                        continue
                self.s_live[j], self.s_p0[j], self.s_p1[j], self.s_p2[j], self.s_p3[j] = live[i], p0[i], p1[i], p2[i], p3[i]
                self.s_sum[j], self.s_flags[j], self.s_lo[j], self.s_hi[j] = sm[i], flags[i], lo[i], hi[i]
                self.s_hint[j], self.s_n[j] = hint[i], n[i]
            free(live)
            free(p0)
            free(p1)
            free(p2)
            free(p3)
            free(sm)
            free(flags)
            free(lo)
            free(hi)
            free(hint)
            free(n)
        return 0

    @cython.cfunc
    @cython.exceptval(check=False)
    def _find(self, slot: cython.int, kl: cython.ulonglong, p0: cython.ulonglong, p1: cython.ulonglong, p2: cython.ulonglong,
              p3: cython.ulonglong, sm: cython.longlong, flags: cython.int) -> cython.int:
        """The slot of the bucket at `slot` (two slots) that holds this position, or -1."""
        i: cython.int
        for i in range(slot, slot + 2):
            if self.s_live[i] == kl and self.s_p0[i] == p0 and self.s_p1[i] == p1 and self.s_p2[i] == p2 \
                    and self.s_p3[i] == p3 and self.s_sum[i] == sm and self.s_flags[i] == flags:
                return i
        return -1

    @cython.cfunc
    @cython.exceptval(check=False)
    def _keep(self, slot: cython.int, kl: cython.ulonglong, p0: cython.ulonglong, p1: cython.ulonglong, p2: cython.ulonglong,
              p3: cython.ulonglong, sm: cython.longlong, flags: cython.int, fb: cython.int, r: cython.bint,
              hint: cython.int) -> cython.void:
        """`_store` for the C table: the bounds narrowed in the bucket's slot that still holds this position,
        else a slot taken for it. Of a bucket's two slots, the first keeps the position with the most cards
        (the costliest search to repeat: a near-final position, of which there are many, never pushes out a
        position near the root that an earlier test or solve searched), the second takes any."""
        i: cython.int = self._find(slot, kl, p0, p1, p2, p3, sm, flags)
        if i < 0:
            i = slot if self.s_n[slot] <= self.live_n else slot + 1
            self.s_live[i], self.s_sum[i], self.s_flags[i], self.s_n[i] = kl, sm, flags, self.live_n
            self.s_p0[i], self.s_p1[i], self.s_p2[i], self.s_p3[i] = p0, p1, p2, p3
            self.s_lo[i], self.s_hi[i] = -(1 << 20), 1 << 20
        if r:
            self.s_lo[i] = max(self.s_lo[i], fb)
        else:
            self.s_hi[i] = min(self.s_hi[i], fb - 1)
        self.s_hint[i] = hint

    @cython.cfunc
    @cython.locals(c=cython.int, k=cython.int, i=cython.int)
    def _cards_key(self) -> bytes:
        """The cards still held, up to cards that play alike: for each, in index order (each suit from its
        weakest card up), its class and its holder. Two positions with one such key differ only in which
        of several cards of one class, consecutive among the cards held, are gone: the same argument as for
        equivalent cards maps every line of play of one onto a line of the same value of the other."""
        k = 0
        for i in range(self.dn):
            c = self.dcards[i]
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
    @cython.locals(w=cython.int, r=cython.int, tk=cython.int, turn=cython.int, tmask=cython.ulonglong, tcv=cython.int,
                   tgw=cython.longlong, banked=cython.int, leader=cython.int, first=cython.bint)
    def _take(self, beta: cython.int) -> cython.int:
        """A trick every seat has answered: its winner's side takes it (`_win`), the winner leads the next from
        its boundary, and then `_win` is undone by what it changed. The trick's cards leave the winner's
        side's pile and its game count that side's count: none of them was in a pile before (a card is held,
        in the trick, or taken, once), so the pile and the count are as they were; the fields `_win` set
        are put back. The trick itself (its cards, best card, suit led) is the caller's to take back."""
        w = self.side_of[self.best_seat]
        tk, turn, tmask, tcv, tgw = self.tk, self.turn, self.tmask, self.tcv, self.tgw
        banked, leader, first = self.banked, self.leader, self.first
        self._win()
        r = self._boundary(beta)
        self.pile[w] &= ~tmask
        self.count[w] -= tgw
        self.banked, self.leader, self.first = banked, leader, first
        self.tbase -= 9
        self.tk, self.turn, self.tmask, self.tcv, self.tgw = tk, turn, tmask, tcv, tgw
        return r

    @cython.cfunc
    @cython.exceptval(check=False)
    @cython.locals(j=cython.int, seat=cython.int, m=cython.ulonglong, bit=cython.ulonglong, r=cython.int,
                   top=cython.int, ally=cython.int, one=cython.ulonglong, mine=cython.bint)
    def _tops(self, maxi: cython.bint) -> cython.int:
        """The highest strength, for the suit led, of a card that a seat still to play to the trick after the
        seat due may play: of the side against it (returned; `maxi`: the seat due is of the bidding side) and
        of its own side (kept in `ally_top`); 0 where there is none."""
        one = 1
        top = ally = 0
        for j in range(self.turn + 1, self.n):
            seat = self.leader + j
            if seat >= self.n:
                seat -= self.n
            mine = (self.side_of[seat] == self.bid_side) == maxi
            m = self._allowed(seat, self.led, self.first)
            while m:
                bit = m & (~m + one)
                m ^= bit
                r = self.rank[self.led * 64 + CARD_OF[((bit * DEBRUIJN) & FULL) >> 58]]
                if mine:
                    if r > ally:
                        ally = r
                elif r > top:
                    top = r
        self.ally_top = ally
        return top

    @cython.cfunc
    @cython.exceptval(-1, check=True)
    @cython.locals(seat=cython.int, mine=cython.ulonglong, maxi=cython.bint, r=cython.bint, c=cython.int,
                   prev=cython.int, nm=cython.int, i=cython.int, j=cython.int, score=cython.int, x=cython.int, carry=cython.int,
                   hint=cython.int, one=cython.ulonglong, between=cython.ulonglong, s_turn=cython.int,
                   s_tmask=cython.ulonglong, s_tcv=cython.int, s_tgw=cython.longlong, s_led=cython.int,
                   s_rank=cython.int, s_best=cython.int, renamed=cython.bint,
                   tk=cython.int, led64=cython.int, ally=cython.bint, best=cython.int, top=cython.int, atop=cython.int,
                   bit=cython.ulonglong, rest=cython.ulonglong, key=cython.int)
    def _turn(self, beta: cython.int) -> cython.int:
        """The seat at `self.turn` of the trick in progress plays (or folds); a card (or fold) that completes
        the trick has it won at once (`_take`): no call of this method for a trick with nothing left to play."""
        order: cython.int[13]  # the cards to try, best first: (score + ORDER) * 64 + 63 - card, in decreasing order
        one = 1
        s_turn = self.turn
        self.nodes += 1
        # a lead tries first the table's lead, else the killer: the last lead that refuted a lead with as
        # many cards held (only the order changes, never the answer; a card not allowed here is never met)
        hint = -1 if self.tk else self.hint if self.hint >= 0 else self.killer[self.live_n]
        self.hint = -1
        seat = self.leader + self.turn  # < 2n: both below n
        if seat >= self.n:
            seat -= self.n
        mine = self._allowed(seat, self.led, self.first) if self.tk else self.lead_mask  # (a lead: _boundary's)
        if not mine:  # a fold (trump-only play): the next seat
            self.turn += 1
            r = self._turn(beta) if self.turn < self.n else self._take(beta)
            self.turn = s_turn
            return r
        if not cython.compiled:  # (here, past the fold, which needs no list)
            order = [0] * 13
        maxi = self.side_of[seat] == self.bid_side
        # The cards to try, each class of equivalent cards once, best first.
        # Equivalent cards: two cards of one hand with the same effective suit and the same signature (the
        # points they carry, what they count for game, their place in every follow rule), with no card
        # still in play (held by anyone, or in this trick) ranked between them. Whatever the rest of the
        # hand, each wins and loses exactly the tricks the other would (the strengths of game.play.trick_rank
        # order the cards of one suit alike for every suit led - solver.setup checks it - and no card in
        # play sits between them), they take and give the same points, and every follow rule treats them
        # alike: swapping them maps every line of play onto one of the same value. So one is searched.
        # (The cards allowed are visited lowest first: each is compared with the one allowed before it.)
        nm = 0
        prev = -1
        tk = self.tk
        led64 = self.led * 64
        ally = (self.side_of[self.best_seat] == self.bid_side) == maxi  # an ally (the defenders are one) wins the trick
        best = self.best_rank
        top = -1  # the best strength the other side still to play may play (-1: not asked yet) ...
        atop = 0  # ... and its own side
        rest = mine
        while rest:  # the cards allowed, lowest first
            bit = rest & (~rest + one)
            rest ^= bit
            c = CARD_OF[((bit * DEBRUIJN) & FULL) >> 58]
            if self.use_equiv and prev >= 0 and self.group[prev] == self.group[c] and self.sig[prev] == self.sig[c]:
                between = ((one << c) - 1) & ~((one << (prev + 1)) - 1)
                if not (between & (self.live | self.tmask)):
                    prev = c
                    continue
            prev = c
            if not rest and nm == 0:  # the one card allowed: nothing to order
                order[0] = 63 - c
                nm = 1
                break
            # Move ordering (it changes how soon a refutation is found, never the answer): a lead tries the
            # table's lead or the killer first (above), then its strongest cards; a follower tries first the
            # cheapest card that takes the trick from the other side (the defenders are one side, in
            # individual play too), and otherwise gives an ally's trick points - when no seat of the other
            # side still to play can beat the ally's card (every card is known), else it takes the trick
            # from them with the cheapest card that beats them all, if it has one - or else throws its least.
            # Where the other side holds the trick but an ally still to play can beat every card of theirs
            # (`_tops`), it gives that ally points instead.
            carry = 64 * self.cv[c] + 4 * self.gw[c]  # what the card carries to whoever takes it
            if c == hint:
                score = 1 << 20
            elif not tk:
                score = self.rank[self.group[c] * 64 + c] + carry // 8
            else:
                x = self.rank[led64 + c]
                if top < 0:  # (asked once per node that orders its cards; nobody plays after the last seat)
                    top = self._tops(maxi) if self.turn + 1 < self.n else 0
                    atop = self.ally_top if self.turn + 1 < self.n else 0
                if ally and best > top:  # the ally's card holds the trick: give it points, never overtake
                    score = carry - x if x <= best else -x
                elif ally:  # a seat of the other side still to play beats it: take the trick from them if we can
                    score = 4096 - x + carry if x > top else -carry - self.rank[self.group[c] * 64 + c]
                elif atop > best and atop > top:  # an ally still to play can take it from them all: give points
                    score = carry - x
                elif x > best:
                    score = 4096 - x + carry
                else:
                    score = -carry - self.rank[self.group[c] * 64 + c]
            key = (score + ORDER) * 64 + 63 - c  # the same score: the card found first (the lower) first
            j = nm
            while j > 0 and order[j - 1] < key:
                order[j] = order[j - 1]
                j -= 1
            order[j] = key
            nm += 1
        s_tmask, s_tcv, s_tgw, s_led, s_rank, s_best = (self.tmask, self.tcv, self.tgw, self.led, self.best_rank,
                                                         self.best_seat)
        for i in range(nm):
            c = 63 - (order[i] & 63)
            renamed = self.jmode != 0 and self._renames(c)
            if renamed:  # a look-alike joker that the rule makes the higher as it falls
                self._rename()
                c = self.jhi
            self._play(seat, c)
            self.turn += 1
            r = self._turn(beta) if self.turn < self.n else self._take(beta)
            # undo
            self.turn = s_turn
            self.tk = tk
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
                    self.cut = self.killer[self.live_n] = c
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
