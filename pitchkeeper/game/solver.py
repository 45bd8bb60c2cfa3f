"""With every card known: the exact value of a position of a hand (double dummy), for every ruleset.

The value of a position is the number of points of the ruleset's catalogue (as a verdict's `taken`
counts them) that the bidding side takes by the end of the hand when every player sees every card
and plays perfectly: the bidding side to take as many as it can, every other player (one side
together in individual play) to hold it to as few. A point that does not depend on play (low to the
player dealt it) counts as it falls. Spec section 9.

Two parts. `setup` and the functions beside it (ENGINE ADAPTER, below) read the ruleset through the
rules engine and nothing else: the follow rules and a card's strength in a trick from game.play, which
card wins each card point and who wins each side point from the point kinds (game.kinds). They hand
the search (game.search) tables over card indices. The search knows no rule of Pitch; it plays cards
out of those tables. So every rule is written once, in the engine, and a TOML ruleset is solved as it
is judged.

The search runs compiled (Cython, built at install where a compiler was found) or as plain Python,
with the same answers: `cores()` says which are there.
"""

from __future__ import annotations

import itertools
import zlib
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any, NamedTuple

from pitchkeeper.errors import PitchError
from pitchkeeper.game import hand_state, play, search
from pitchkeeper.game.cards import SUITS, Card, Suit
from pitchkeeper.game.hand_state import HELD, SEATS, STEPS
from pitchkeeper.game.kinds import KINDS, InPlay, Piles
from pitchkeeper.game.rulesets import PointRule, Ruleset

SUIT_ORDER: tuple[str, ...] = (*SUITS, play.TRUMP)  # a card's group (effective suit): 0-3 the plain suits, 4 trumps
LEAD = 5  # game.search.LEAD: the "suit led" of a lead


class Deal(NamedTuple):
    """Who plays a hand, and under what: the table's seating, each player's side and the bidding side."""

    ruleset: Ruleset
    trump: Suit
    players: tuple[str, ...]  # in seating order, clockwise
    side_of: Mapping[str, str]  # player -> side (a team, or the player in individual play)
    bid_side: str
    # the bidder's laid-away cards that count for the bidding side (kitty.discard_counts; game.deal's
    # Deal.counted): "game", for game only; "all", as cards it took before the first trick
    counted: tuple[Card, ...] = ()
    counts: str = "nothing"
    # the card the bidder called, when another player (the partner) holds it: with partner.first_trick its
    # holder must play it to the first trick (game.play.follow_steps)
    called: Card | None = None
    dealer: str = ""  # who dealt (a game tie to the elder hand: the sides from the dealer's left); "": the last seat

    @property
    def sides(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(self.side_of[p] for p in self.players))

    @property
    def seats(self) -> tuple[str, ...]:
        """The sides in seating order from the dealer's left, the elder hand's first (game.kinds.Piles.seats)."""
        n = len(self.players)
        at = (self.players.index(self.dealer) + 1) % n if self.dealer in self.players else 0
        return tuple(dict.fromkeys(self.side_of[self.players[(at + k) % n]] for k in range(n)))


class Position(NamedTuple):
    """A position of a hand: what each player holds, the trick in progress, who led it (or leads next),
    what each side has taken, and who was dealt the cards no longer held (for a point that goes to the
    player dealt its card). `first`: the hand's first trick is still to come or in progress.

    Two look-alike jokers (trump.identical_jokers) are named as the rule names them (game.deal.name_jokers)
    as far as the position shows it; `setup` names those it can tell (the only joker in play, the one
    that fell first, the later of two in the trick) and the search renames them as they fall."""

    hands: Mapping[str, Sequence[Card]]
    trick: Sequence[tuple[str, Card]] = ()
    leader: str = ""
    captured: Mapping[str, Sequence[Card]] = {}
    dealt: Mapping[Card, str] = {}
    first: bool = False


def start_of_play(deal: Deal, held: Mapping[str, Sequence[Card]], leader: str) -> Position:
    """The position as play begins: each player's cards, `leader` to lead the first trick."""
    return Position({p: tuple(held.get(p, ())) for p in deal.players}, (), leader, {}, {}, True)


# ---------------------------------------------------------------------------
# ENGINE ADAPTER: all that the solver takes from the rules engine (game.play's follow rules and trick
# strengths, the point kinds' answers), here and nowhere else.


class Tables(NamedTuple):
    """One ruleset and trump, over card indices: what the search reads that does not depend on the deal."""

    cards: tuple[Card, ...]  # index -> card: grouped by effective suit, each group from its weakest card up
    index_of: Mapping[Card, int]
    group: tuple[int, ...]  # index -> effective suit (SUIT_ORDER)
    rank: tuple[int, ...]  # [led * 64 + index] -> strength in a trick so led (game.play.trick_rank)
    follow: tuple[tuple[tuple[int, int], ...], ...]  # [first * 6 + led] -> the follow steps as masks (first: trick 1)
    membership: tuple[tuple[bool, ...], ...]  # index -> its place in every follow step (part of its signature)
    ordered: bool  # the strengths order each group alike for every suit led (equivalent cards are sound)
    trumps: tuple[int, int, bool]  # the trumps are the indices lo..hi; sure tricks are sound (game.search)
    by_byte: tuple[tuple[tuple[Card, ...], ...], ...]  # [k][b]: the cards of the mask b << 8k, in index order


_TABLES: dict[tuple[int, str, Card | None], tuple[Ruleset, Tables]] = {}  # (ruleset object, trump, called) -> tables


def tables(ruleset: Ruleset, trump: Suit, called: Card | None = None) -> Tables:
    """The ruleset's trick and follow rules for one trump (and a called card that binds its holder in the
    first trick), made once per ruleset object, trump and called card."""
    key = (id(ruleset), trump, called)
    got = _TABLES.get(key)
    if got is not None and got[0] is ruleset:
        return got[1]
    if len(_TABLES) > 64:
        _TABLES.clear()
    made = _engine_tables(ruleset, trump, called)
    _TABLES[key] = (ruleset, made)
    return made


def _engine_tables(ruleset: Ruleset, trump: Suit, called: Card | None = None) -> Tables:
    view = ruleset.views[trump]
    deck = sorted(ruleset.deck)
    if len(deck) > 64:
        raise PitchError(f"{ruleset.name}: the solver handles decks of at most 64 cards, not {len(deck)}")
    group = {c: SUIT_ORDER.index(view.suit[c]) for c in deck}
    strength = {(led, c): play.trick_rank(view, SUIT_ORDER[led], c) for led in range(5) for c in deck}
    cards = tuple(sorted(deck, key=lambda c: (group[c], strength[group[c], c], c)))
    index = {c: i for i, c in enumerate(cards)}
    rank = [0] * 320
    for (led, c), r in strength.items():
        rank[led * 64 + index[c]] = r
    follow: list[tuple[tuple[int, int], ...]] = []
    member: list[list[bool]] = [[] for _ in cards]
    for first in (False, True):  # any trick, or the hand's first (its lead, and the called card's rule)
        for led in range(6):
            steps = play.follow_steps(ruleset, view, None if led == LEAD else SUIT_ORDER[led], first,
                                      called=called if first else None)
            follow.append(tuple((_mask(index, s.when), _mask(index, s.allow)) for s in steps))
            for s in steps:
                for i, c in enumerate(cards):
                    member[i] += [c in s.when, c in s.allow]
    groups = tuple(group[c] for c in cards)
    ordered = _ordered(cards, group, rank)
    trumps = [i for i, g in enumerate(groups) if g == 4]
    tlo, thi = (trumps[0], trumps[-1]) if trumps else (1, 0)
    # sure tricks (game.search) need every trump above every other card for every suit led, trumps in order
    above = all(min((rank[led * 64 + i] for i in trumps), default=1) > max(
        (rank[led * 64 + i] for i, g in enumerate(groups) if g != 4), default=0) for led in range(5))
    return Tables(cards, index, groups, tuple(rank), tuple(follow), tuple(tuple(m) for m in member), ordered,
                  (tlo, thi, ordered and above and trumps == list(range(tlo, thi + 1))),
                  tuple(tuple(tuple(cards[8 * k + i] for i in range(8) if b >> i & 1 and 8 * k + i < len(cards))
                              for b in range(256)) for k in range(8)))


def _mask(index: Mapping[Card, int], cards: Iterable[Card]) -> int:
    m = 0
    for c in cards:
        m |= 1 << index[c]
    return m


def _ordered(cards: Sequence[Card], group: Mapping[Card, int], rank: Sequence[int]) -> bool:
    """Do the strengths order every group alike for every suit led? Within a group, for each suit led,
    either no card can win or each card beats every card below it in index order; and no card of another
    group ranks between two cards of a group that can win. Equivalent cards (game.search) rest on it."""
    for led in range(5):
        spans: list[tuple[int, int]] = []
        for g in range(5):
            rs = [rank[led * 64 + i] for i, c in enumerate(cards) if group[c] == g]
            if not rs or not any(rs):
                continue
            if not all(r > 0 for r in rs) or any(a >= b for a, b in itertools.pairwise(rs)):
                return False
            spans.append((rs[0], rs[-1]))
        spans.sort()
        if any(a[1] >= b[0] for a, b in itertools.pairwise(spans)):
            return False
    return True


def _card_points(ruleset: Ruleset, trump: Suit, in_play: Iterable[Card]) -> list[tuple[PointRule, Card]]:
    """Each card point and the card that wins it, given the cards in play (its kind decides)."""
    cards = InPlay(ruleset.views[trump], frozenset(in_play))
    out = []
    for rule in ruleset.award_order:
        if rule.kind.card is not None and (won := rule.kind.card(rule, cards)) is not None:
            out.append((rule, won.card))
    return out


def _to_dealt(rule: PointRule) -> bool:
    """Does the point go to the player dealt its card, whoever captures it (as game.scoring gives it)?"""
    return rule.kind.to_dealt and rule.to == "dealt"


def _side_points(ruleset: Ruleset) -> list[tuple[PointRule, str]]:
    """Each side point and what of the captured piles decides it, for the search to remember (the kind
    alone judges it, from the piles): the game count per side (a game kind: its count is the game count,
    its rule's card values summed), which sides took a trick (the sweep), or, for any other kind, the
    piles themselves (always enough)."""
    sweep = KINDS["all-tricks"].side if "all-tricks" in KINDS else None
    out = []
    for rule in ruleset.award_order:
        kind = rule.kind
        if kind.side is not None:
            out.append((rule, "count" if kind.game else "took" if kind.side is sweep else "piles"))
    return out


def _side_value(ruleset: Ruleset, trump: Suit, rules: Sequence[tuple[PointRule, str]],
                piles: Mapping[str, Sequence[Card]], bid_side: str, seats: Sequence[str] = (),
                discard: Sequence[Card] = ()) -> int:
    """The side points the bidding side takes, given what each side took (each point's kind decides; the
    sides in seating order from the dealer's left, for a tie to the elder hand; a discard that counts for
    game counts for the bidding side)."""
    took = Piles(ruleset.views[trump], piles, bid_side, seats, discard)
    got = 0
    for rule, _ in rules:
        assert rule.kind.side is not None
        if rule.kind.side(rule, took).side == bid_side:
            got += rule.value
    return got


def _game_values(ruleset: Ruleset) -> Mapping[Card, int]:
    """What each card counts for game (the data of the game point), or nothing."""
    g = next((r for r in ruleset.award_order if r.kind.side is not None and r.kind.game), None)
    return g.card_values if g is not None else {}


def _next_in(n: int, due: int, out: Sequence[int]) -> int:
    """Who leads when seat `due` may lead nothing: game.play.next_in over seats."""
    return play.next_in(tuple(range(n)), due, set(out))


# END OF THE ENGINE ADAPTER
# ---------------------------------------------------------------------------


class Setup(NamedTuple):
    """A position made ready for the search: the arguments of game.search.Search and of its `start`."""

    tables: Tables
    seats: tuple[str, ...]
    sides: tuple[str, ...]
    init: tuple[Any, ...]
    start: tuple[Any, ...]
    equivalence: bool


JOKER_RULES = {"no": 0, "first-higher": 1, "later-higher": 2}  # trump.identical_jokers -> the search's jmode
_OTHER = {"HJ": "LJ", "LJ": "HJ"}


def _jokers_named(rule: str, pos: Position, counted: Sequence[Card]) -> bool:
    """Do two look-alike jokers need their names exchanged for the position to name them as the rule does
    (game.deal.name_jokers: first-higher, the first joker played is HJ; later-higher, of two in one trick
    the later)? Only what the position shows is named: the one joker that will be played (first-higher;
    a laid-away joker is never played), the one taken before the trick in progress or the first of it, the
    later of two in the trick. The search renames the rest as they fall (game.search)."""
    if rule == "no":
        return False
    held = {c for cs in pos.hands.values() for c in cs if c in _OTHER}
    trick = [c for _, c in pos.trick if c in _OTHER]
    taken = {c for cs in pos.captured.values() for c in cs if c in _OTHER} - set(counted)
    if rule == "later-higher":
        return trick == ["HJ", "LJ"]
    played = held | set(trick) | taken
    first = (next(iter(played)) if len(played) == 1 else next(iter(taken)) if len(taken) == 1
             else trick[0] if trick and not taken else None)
    return first == "LJ"


def setup(deal: Deal, pos: Position) -> Setup:
    """Check a position and turn it into the search's tables and state (PitchError on a bad position).
    The steps below check in the order a player reads a position: the table, then the cards, then whom
    the points that do not depend on play belong to."""
    ruleset, trump = deal.ruleset, deal.trump
    if trump not in ruleset.views:
        raise PitchError(f"'{trump}' is not a suit", "trump")
    t = tables(ruleset, trump, deal.called if ruleset.settings["partner"]["first_trick"] else None)
    _check_table(deal, t)
    if _jokers_named(ruleset.settings["trump"]["identical_jokers"], pos, deal.counted):
        pos, deal = _renamed(pos), deal._replace(counted=tuple(_OTHER.get(c, c) for c in deal.counted))
    placed = _place(deal, pos, t)
    points = _points(deal, t, placed)
    return _made(deal, pos, t, placed, points)


def _check_table(deal: Deal, t: Tables) -> None:
    """Refuse a table the search's fixed-size state cannot hold, or a bidding side nobody sits on."""
    n = len(deal.players)
    if not 2 <= n <= SEATS:
        raise PitchError(f"{n} players: the solver seats 2 to {SEATS}")
    if any(len(steps) > STEPS for steps in t.follow):
        raise PitchError(f"{deal.ruleset.name}: a follow rule of more than {STEPS} steps is more than the solver keeps")
    if deal.bid_side not in deal.sides:
        raise PitchError(f"the bidding side {deal.bid_side!r} is not at the table ({', '.join(deal.sides)})", "bid")


class _Placed(NamedTuple):
    """Where every card of a position is, over seat, side and card indices (what `_place` checked)."""

    hands: list[int]  # seat -> mask of the cards held
    trick: list[tuple[int, int]]  # (seat, card index) in playing order
    piles: list[int]  # side -> mask of the cards taken (a discard that counts for all, the bidding side's)
    leader: int
    in_play: set[Card]  # the cards whose points play decides
    dealt: dict[Card, str]  # card -> the player dealt it, as far as it is known


def _place(deal: Deal, pos: Position, t: Tables) -> _Placed:
    """Each card of the position to its index and place, each player to a seat: a card outside the deck
    or named twice, a stranger, a hand too large or cards taken before the first trick is refused where
    it is said."""
    seats, sides = deal.players, deal.sides
    seat_of = {p: i for i, p in enumerate(seats)}
    side_ix = {s: i for i, s in enumerate(sides)}
    where: dict[Card, str] = {}  # card -> where it is (for a card named twice)

    def place(card: Card, at: str) -> int:
        if card not in t.index_of:
            raise PitchError(f"{card} is not in {deal.ruleset.name}'s deck ({deal.ruleset.deck_words()})", at)
        if card in where:
            raise PitchError(f"{card} is both {where[card]} and {at}", at)
        where[card] = at
        return t.index_of[card]

    def seat(player: str, at: str) -> int:
        if player not in seat_of:
            raise PitchError(f"{player!r} is not at the table ({', '.join(seats)})", at)
        return seat_of[player]

    hands = [0] * len(seats)
    for p, cards in pos.hands.items():
        i = seat(p, f"hands.{p}")
        if len(cards) > HELD:
            raise PitchError(f"{len(cards)} cards held by {p}: a hand holds at most {HELD}", f"hands.{p}")
        for c in cards:
            hands[i] |= 1 << place(c, f"held by {p}")
    trick = [(seat(p, "trick"), place(c, f"played by {p} to the trick in progress")) for p, c in pos.trick]
    piles = [0] * len(sides)
    for s, cards in pos.captured.items():
        if s not in side_ix:
            raise PitchError(f"{s!r} is not a side at this table ({', '.join(sides)})", "captured")
        for c in cards:
            piles[side_ix[s]] |= 1 << place(c, f"taken by {s}")
    leader = seat(pos.leader or seats[0], "leader")
    if pos.first and (pos.captured and any(pos.captured.values())):
        raise PitchError("the first trick is still to come or in progress, yet cards have been taken", "first")
    laid = [place(c, "laid away by the bidder") for c in deal.counted]  # out of every hand, whatever they count
    if deal.counts == "all":  # the discard is the bidding side's before the first trick, as if taken
        for i in laid:
            piles[side_ix[deal.bid_side]] |= 1 << i
    # who was dealt each card: its holder, or as `dealt` says for a card no longer held
    dealt = {c: seats[i] for i in range(len(seats)) for c in _cards_of(t.by_byte, hands[i])}
    dealt.update({c: seats[i] for i, c in ((i, t.cards[c]) for i, c in trick)})
    for c, p in pos.dealt.items():
        seat(p, f"dealt.{c}")
        dealt.setdefault(c, p)
    if deal.counts == "all":  # a laid-away card's point that goes to the player dealt it: the bidding side's
        dealt.update(dict.fromkeys(deal.counted, next(p for p in seats if deal.side_of[p] == deal.bid_side)))
    in_play = set(where) if deal.counts == "all" else set(where) - set(deal.counted)
    return _Placed(hands, trick, piles, leader, in_play, dealt)


class _Points(NamedTuple):
    """What each card is worth to the search, and what the bidding side holds whatever is played."""

    cv: list[int]  # card index -> the card points it wins for its captor
    gw: list[int]  # card index -> what it counts for game
    counts: list[int]  # side -> its game count so far
    banked: int  # the bidding side's points already won (taken, or going to the player dealt them)
    jokers: tuple[int, int, int, int]  # look-alike jokers: (jmode, HJ's index, LJ's index, what a swap changes)


def _points(deal: Deal, t: Tables, placed: _Placed) -> _Points:
    """The card points by card index, and what the bidding side has banked: its points from the player
    dealt a card (which never depend on play) and from what it has taken. PitchError when such a point's
    card has no known dealt-to player, or look-alike jokers are not next to each other."""
    ruleset, bid = deal.ruleset, deal.bid_side
    cv = [0] * 64
    to_dealt = []  # (point, card) of the points that go to the player dealt the card
    for rule, card in _card_points(ruleset, deal.trump, placed.in_play):
        if _to_dealt(rule):
            if card not in placed.dealt:
                raise PitchError(f"{rule.id} ({card}) goes to the player dealt it: say who", "dealt")
            to_dealt.append((rule, card))
        else:
            cv[t.index_of[card]] += rule.value

    def fixed_of(dealt_to: Mapping[Card, str]) -> int:  # the bidding side's points that do not depend on play
        return sum(rule.value for rule, card in to_dealt if deal.side_of[dealt_to[card]] == bid)

    dealt = placed.dealt
    fixed = fixed_of(dealt)
    # look-alike jokers: the search exchanges their names when the rule says (game.search); what that would
    # change of the points to the player dealt them
    in_play = placed.in_play
    jmode = JOKER_RULES[ruleset.settings["trump"]["identical_jokers"]] if "HJ" in in_play and "LJ" in in_play else 0
    jhi, jlo = (t.index_of["HJ"], t.index_of["LJ"]) if jmode else (0, 0)
    if jmode and jhi != jlo + 1:
        raise PitchError(f"{ruleset.name}: two look-alike jokers must be next to each other in trump.order", "trump")
    swapped = {**dealt, "HJ": dealt.get("LJ", ""), "LJ": dealt.get("HJ", "")}
    jdealt = fixed_of(swapped) - fixed if jmode and "HJ" in dealt and "LJ" in dealt else 0
    values = _game_values(ruleset)
    gw = [values.get(c, 0) for c in t.cards] + [0] * (64 - len(t.cards))
    sides = deal.sides
    bid_ix = sides.index(bid)
    counts = [sum(gw[t.index_of[c]] for c in _cards_of(t.by_byte, placed.piles[s])) for s in range(len(sides))]
    counts[bid_ix] += sum(values.get(c, 0) for c in _game_discard(deal))
    banked = fixed + sum(cv[t.index_of[c]] for c in _cards_of(t.by_byte, placed.piles[bid_ix]))
    return _Points(cv, gw, counts, banked, (jmode, jhi, jlo, jdealt))


def _game_discard(deal: Deal) -> tuple[Card, ...]:
    """The bidder's laid-away cards that count for game alone (kitty.discard_counts "game")."""
    return tuple(deal.counted) if deal.counts == "game" else ()


def _made(deal: Deal, pos: Position, t: Tables, placed: _Placed, points: _Points) -> Setup:
    """The search's arguments: how it tells cards apart (equivalent cards), what of the piles it must keep
    to judge the side points, and the start state."""
    ruleset, trump, bid, seats, sides = deal.ruleset, deal.trump, deal.bid_side, deal.players, deal.sides
    side_ix = {s: i for i, s in enumerate(sides)}
    cv, gw, jmode = points.cv, points.gw, points.jokers[0]
    side_rules = _side_points(ruleset)
    reads = {r for _, r in side_rules}
    values = _game_values(ruleset)
    # what tells two cards of a group apart besides their strength: points, game count, follow rules, and
    # being one of two look-alike jokers (renamed as they fall: never equivalent to another card)
    sigs: dict[tuple[Any, ...], int] = {}
    sig = [sigs.setdefault((cv[i], gw[i], t.membership[i], bool(jmode) and t.cards[i] in _OTHER), len(sigs))
           for i in range(len(t.cards))]
    sig += [0] * (64 - len(sig))
    pad = list(t.group) + [0] * (64 - len(t.group))
    classes: dict[tuple[int, int], int] = {}
    side_of = [side_ix[deal.side_of[p]] for p in seats]
    by_byte = t.by_byte
    order = deal.seats
    game_discard = _game_discard(deal)

    def side_fn(pile_masks: Sequence[int], count_list: Sequence[int]) -> int:
        piles_now = {s: _cards_of(by_byte, pile_masks[k]) for k, s in enumerate(sides)}
        return _side_value(ruleset, trump, side_rules, piles_now, bid, order, game_discard)

    if len(sides) * ((sum(values.values()) + 1).bit_length() + 1) > 62:
        reads.add("piles")  # a summary too long for one number: the search keeps the piles instead (always enough)
    equivalence = t.ordered and "piles" not in reads
    init = (len(seats), len(sides), side_ix[bid], side_of, pad, list(t.rank), cv, gw, sig, list(t.follow),
            sum(r.value for r, _ in side_rules), ("count" in reads, "took" in reads, "piles" in reads),
            sum(values.values()) + 1, side_fn, _next_in, t.trumps,
            [classes.setdefault((t.group[i], sig[i]), len(classes)) for i in range(len(t.cards))],
            points.jokers)
    start = (placed.hands, placed.piles, points.counts, points.banked, placed.leader, pos.first, placed.trick)
    return Setup(t, seats, sides, init, start, equivalence)


def _cards_of(by_byte: Sequence[Sequence[tuple[Card, ...]]], mask: int) -> list[Card]:
    """The cards of a mask over card indices, in index order, eight at a time (Tables.by_byte)."""
    out: list[Card] = []
    k = 0
    while mask:
        if mask & 255:
            out += by_byte[k][mask & 255]
        mask >>= 8
        k += 1
    return out


def _renamed(pos: Position) -> Position:
    """The position with the two jokers' names exchanged."""

    def cs(cards: Iterable[Card]) -> tuple[Card, ...]:
        return tuple(_OTHER.get(c, c) for c in cards)

    return pos._replace(hands={p: cs(h) for p, h in pos.hands.items()}, trick=tuple((p, _OTHER.get(c, c)) for p, c in pos.trick),
                        captured={s: cs(h) for s, h in pos.captured.items()},
                        dealt={_OTHER.get(c, c): p for c, p in pos.dealt.items()})


# ---------------------------------------------------------------------------
# The cores: the compiled search where it was built, the plain Python one always


_CORES: dict[str, ModuleType] = {}


def cores() -> dict[str, ModuleType]:
    """The search cores here: "pure" always, "compiled" where the install built it from this very source
    (a compiled core older than its sources, left by an earlier editable install, is not used)."""
    if not _CORES:
        if search.COMPILED:
            if compiled_is_fresh() and hand_state.COMPILED:
                _CORES["compiled"] = search
            _CORES["pure"] = hand_state.source("search")  # on the state's source too (game.search)
        else:
            _CORES["pure"] = search
    return _CORES


CORE_SOURCES = ("hand_state.pxd", "hand_state.py", "search.py")  # what the compiled core is built from (hatch_build.py)


def compiled_is_fresh() -> bool:
    """Was the compiled core built from its sources as they are now? (hatch_build.py writes the checksum.)"""
    here = Path(__file__).parent
    try:
        built = (here / "search.built").read_text(encoding="ascii").strip()
        return built == f"{zlib.crc32(b''.join((here / name).read_bytes() for name in CORE_SOURCES)):08x}"
    except OSError:
        return False


def core(name: str | None = None) -> ModuleType:
    """The named core, or the fastest there."""
    have = cores()
    if name is None:
        return have.get("compiled") or have["pure"]
    if name not in have:
        raise PitchError(f"no {name} solver core here (there is: {', '.join(have)})")
    return have[name]


class Shared:
    """What the searches of many layouts of one Deal share (game.odds: every layout of one trump).

    The side points the bidding side takes (game, all the tricks) given a summary of what each side took:
    the search asks the point kinds once per summary and keeps the answer. The answer depends on the
    summary and on the Deal alone - its ruleset and trump (the point kinds, the tables' card indices), its
    seating (the sides, the bidding side, the elder hand for a tie) and the discard that counts - never on
    the cards of one layout: the summary holds all of the taken cards that the side points read (each
    side's game count and whether it took a trick, or the piles themselves). So one memo serves them all."""

    def __init__(self, deal: Deal) -> None:
        self.deal = deal
        self.side_points: dict[Any, int] = {}


class Solver:
    """One deal, searched from a position: play cards on with push/pop, ask value/keeps; one table
    serves every position asked (an analysis of a whole hand shares it). `shared`: work shared with the
    solvers of other positions of the same Deal (see Shared)."""

    def __init__(self, deal: Deal, pos: Position, core_name: str | None = None, tt: bool = True,
                 equivalence: bool = True, shared: Shared | None = None) -> None:
        self.deal = deal
        s = setup(deal, pos)
        self.seats, self.cards = s.seats, s.tables.cards
        self.index = s.tables.index_of
        self.search = core(core_name).Search(*s.init)
        self.search.switches(tt, equivalence and s.equivalence)
        if shared is not None:
            if shared.deal != deal:
                raise ValueError("work shared between solvers of two different deals")
            self.search.share(shared.side_points)
        try:
            self.search.start(*s.start)
        except ValueError as e:
            raise PitchError(f"not a position of a hand: {e}") from None

    def value(self) -> int:
        return int(self.search.value())

    def test(self, beta: int) -> bool:
        return bool(self.search.test(beta))

    def to_play(self) -> str | None:
        """Who plays next (None: the hand is over)."""
        seat = self.search.to_play()
        return None if seat < 0 else self.seats[seat]

    def moves(self) -> list[Card]:
        return [self.cards[c] for c in self.search.moves()]

    def classes(self) -> list[list[Card]]:
        """The cards that may be played, in classes of equivalent cards."""
        return [[self.cards[c] for c in cls] for cls in self.search.classes()]

    def bidding(self) -> bool:
        """Is the player to play of the bidding side?"""
        return bool(self.search.maximizing())

    def push(self, card: Card) -> None:
        """Play `card` (the player due to play must be allowed it)."""
        if card not in self.index or self.index[card] not in self.search.moves():
            who = self.to_play()
            raise PitchError(f"{card} is not a card {who or 'anyone'} may play here")
        self.search.push(self.index[card])

    def push_any(self, player: str, card: Card) -> None:
        """`player` plays `card` even against the follow rules (a record's illegal play, judged elsewhere)."""
        if card not in self.index or player not in self.seats:
            raise PitchError(f"{player} cannot play {card} here")
        try:
            self.search.push_any(self.seats.index(player), self.index[card])
        except ValueError as e:
            raise PitchError(f"{player} cannot play {card} here: {e}") from None

    def pop(self) -> None:
        self.search.pop()

    def trick(self) -> list[tuple[str, Card]]:
        return [(self.seats[s], self.cards[c]) for s, c in self.search.trick()]

    def keeps(self, card: Card, value: int) -> bool:
        """Does playing `card` keep the position's value (`value`)? One null-window test of the position after it."""
        bidding = self.bidding()
        self.push(card)
        try:
            return self.test(value) if bidding else not self.test(value + 1)
        finally:
            self.pop()

    def best(self, value: int) -> list[Card]:
        """Every card that keeps the value, each class of equivalent cards tested once."""
        out: list[Card] = []
        for cls in self.classes():
            if self.keeps(cls[0], value):
                out += cls
        return out

    @property
    def nodes(self) -> int:
        return int(self.search.visited())


def solve(deal: Deal, pos: Position, core_name: str | None = None) -> int:
    """The value of a position (see the module's docstring)."""
    return Solver(deal, pos, core_name).value()


def deal_of(ruleset: Ruleset, trump: Suit, players: Sequence[str], teams: Mapping[str, Sequence[str]] | None,
            bidder: str) -> Deal:
    """A Deal from a seating and teams (None: each player for himself), the bidder's side bidding."""
    side_of = {p: p for p in players}
    for team, members in (teams or {}).items():
        for p in members:
            side_of[p] = team
    return Deal(ruleset, trump, tuple(players), side_of, side_of[bidder])
