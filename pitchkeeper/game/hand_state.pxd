# The layout of game.hand_state.HandState for the compiled core (Cython): its state and its C methods.
# game/search.py (the search) builds on it. As plain Python this file is not read; the fields are set in
# HandState.__init__ and start. Keep the methods in step with hand_state.py (the compile checks them).

cdef class HandState:
    # -- the deal's tables (game.solver.setup) --
    cdef int n  # players, seated 0..n-1 clockwise
    cdef int nsides
    cdef int bid_side
    cdef int side_of[9]  # seat -> side
    cdef int group[64]  # card -> its effective suit: 0-3 the plain suits, 4 trumps
    cdef int rank[320]  # [led * 64 + card] -> its strength in a trick so led (game.play.trick_rank); 0 cannot win
    cdef int cv[64]  # card -> the points its captor's side takes with it
    cdef int gw[64]  # card -> what it counts for game
    cdef int sig[64]  # card -> what else tells it apart (point relevance, follow-rule membership)
    cdef int pcards[117]  # [seat * 13 + i]: the cards the seat held at the start, in index order
    cdef int pn[9]
    cdef int dcards[64]  # the cards in play at the start (held, or in the trick), in index order
    cdef int dn
    cdef int tord[64]  # the trumps among them, the highest first
    cdef int tn
    cdef int fn[12]  # follow rules: [first * 6 + led] -> number of steps; led 0-4 a suit led, 5 a lead;
    # first: the hand's first trick (its lead, and the called card that binds its holder there)
    cdef unsigned long long fwhen[48]  # [(first * 6 + led) * 4 + step]: the step applies when the hand meets this
    cdef unsigned long long fallow[48]  # ... and then these cards may be played
    cdef unsigned long long solo[12]  # [first * 6 + led]: the cards that may be played from a hand of that card alone
    cdef int side_max  # the most the side points can give the bidding side
    cdef int tlo  # the trumps are the cards tlo..thi, weakest first (none: thi < tlo)
    cdef int thi
    cdef bint use_sure  # every trump beats every other card, whatever the suit led (solver.setup checks)
    cdef int cside[64]  # card -> the side of the seat holding it
    cdef int cseat[64]  # card -> the seat holding it
    cdef int cls[64]  # card -> its class: effective suit and signature (solver.setup), < 256
    cdef int jmode  # look-alike jokers: 0 none (or not both in play); 1 first-higher; 2 later-higher
    cdef int jhi  # the cards named the higher and the lower joker (jhi == jlo + 1), with jmode
    cdef int jlo
    cdef int jdealt  # what exchanging the jokers' names changes of the bidding side's points to the player dealt them
    cdef int ncards  # cards in the tables (the deck)
    cdef bint use_rel  # key the table by the cards' order within their suits, not by the cards themselves
    cdef unsigned char kbuf[128]
    cdef bint need_count  # a side point reads the game count per side
    cdef bint need_took  # a side point reads which sides took a trick
    cdef bint need_piles  # a side point reads the captured cards themselves
    cdef long long count_base  # one more than any game count
    cdef object side_fn  # (piles, counts) -> the side points the bidding side takes (game.solver)
    cdef object lead_fn  # (seats, due, out) -> who leads when `due` is out (game.play.next_in)
    cdef dict memo  # summary -> side points (side_fn's answers)
    cdef long long side_key[1024]  # compiled: the summaries last answered, one more (0: none) ...
    cdef int side_val[1024]  # ... and their side points
    cdef dict tt  # (cards still held, summary, leader and first) -> (lower, upper) bound of the points still to come
    cdef bint use_tt
    cdef bint use_equiv
    cdef long long nodes  # positions visited (a node: one player to play one card)
    cdef int hint  # the lead to try first at the next lead (the table's), -1 none
    cdef int cut  # the lead that decided the last lead searched, -1 none
    cdef int ally_top  # game.search._tops: the best strength the seat due's side may still play to the trick
    cdef int killer[64]  # [cards held] -> the card that last refuted a node with that many cards held (-1 none)
    # -- the state --
    cdef unsigned long long hands[9]  # seat -> cards held
    cdef unsigned long long live  # every card held
    cdef int live_n  # how many
    cdef unsigned long long pile[9]  # side -> cards taken
    cdef long long count[9]  # side -> game count taken
    cdef int banked  # points the bidding side has taken or is sure of (card points and points to the dealt)
    cdef int rest_cv  # card points still held
    cdef long long rest_gw  # game count still held
    cdef bint first  # the hand's first trick is still to come or in progress
    cdef bint jswap  # the jokers' names have been exchanged from the deal's (which one fell first)
    cdef int leader
    cdef unsigned long long lead_mask  # the cards the seat `_lead_seat` last named may lead
    cdef int turn  # seats that have played (or folded) to the trick in progress
    cdef int tk  # cards in the trick in progress
    # the trick in progress, as (seat, card) in playing order: [tbase + k]; each trick of a line has its own
    # place (tbase moves on at every trick won), so a search below never overwrites the trick above it
    cdef int tcard[126]
    cdef int tseat[126]
    cdef int tbase
    cdef unsigned long long tmask
    cdef int tcv
    cdef long long tgw
    cdef int led
    cdef int best_rank
    cdef int best_seat
    cdef list history  # push's undo records


    cdef unsigned long long _allowed(self, int seat, int led, bint first) noexcept
    cdef int _lead_seat(self) except *
    cdef void _play(self, int seat, int c) noexcept
    cdef void _settle(self) except *
    cdef void _win(self) noexcept
    cdef bint _renames(self, int c) noexcept
    cdef void _rename(self) noexcept
    cdef unsigned long long _swapped(self, unsigned long long m) noexcept
    cdef int _jswing(self) noexcept
    cpdef object summary(self)
    cdef object _summary(self, int a, unsigned long long more_a, long long gw_a, int b, unsigned long long more_b,
                         long long gw_b)
    cdef long long _number(self, int a, unsigned long long more_a, long long gw_a, int b, unsigned long long more_b,
                           long long gw_b) noexcept
    cdef int _side(self, int a, unsigned long long more_a, long long gw_a, int b, unsigned long long more_b,
                   long long gw_b) except *
    cdef int _final(self) except *
