"""A hand recorded trick by trick, played back fast: the common case of `play.replay`, compiled per trump.

`play.replay` finds and words every error, seats named and unnamed cards, and rules on folds; that
generality costs more than the play itself. Most records are plain: every trick led by whoever was due,
its cards in seating order (named or not), no card twice, each from the player's held cards. This
path plays those back with tables made once per ruleset and trump (each card's effective suit, which
first leads need no ruling, each card's strength against every suit led), and words only the rare
play that must be ruled on (through `play.judge_play`, as the careful path does). Anything else
returns None, and the caller takes `play.replay`, which then gives the same result or the same error.
"""

from __future__ import annotations

from pitchkeeper.game.cards import SUITS, Card, pretty
from pitchkeeper.game.compiled import Compiled
from pitchkeeper.game.play import TRUMP, Illegal, Replay, TrickResult, first_lead_suits, judge_play, sets_trump
from pitchkeeper.game.records import Hand, Table
from pitchkeeper.game.rulesets import Ruleset

_tuple_new = tuple.__new__  # a NamedTuple without its Python-level __new__ (a replay makes one per trick)


class TrickTables:
    """One trump: what playing a card means, for every card of the deck."""

    __slots__ = ("first_plain", "of_suit", "suit", "trumps", "view", "win")

    def __init__(self, ruleset: Ruleset, trump: str) -> None:
        view = self.view = ruleset.views[trump]
        self.suit = view.suit
        self.trumps = frozenset(view.strength)
        # effective suit -> its cards (does a player hold one of the suit led?)
        self.of_suit = {s: frozenset(c for c, x in view.suit.items() if x == s) for s in (*SUITS, TRUMP)}
        # a first lead that surely keeps the rules (play._plain_first_lead): the rest are ruled on
        if sets_trump(ruleset):
            self.first_plain = frozenset(c for c in ruleset.deck if trump in first_lead_suits(ruleset, c))
        else:
            self.first_plain = self.trumps
        # led suit -> card -> its strength in a trick so led: any trump beats every card of the suit led,
        # which beats every other card (-1); the highest wins (play.winner_index)
        top = max(view.plain_strength.values(), default=0) + 1
        self.win = {}
        for led in (*SUITS, TRUMP):
            self.win[led] = {c: (top + view.strength[c] if c in view.strength else
                                 view.plain_strength[c] if view.suit[c] == led else -1) for c in ruleset.deck}


def tables(c: Compiled, ruleset: Ruleset, trump: str) -> TrickTables:
    got = c.tricks.get(trump)
    if got is None:
        got = c.tricks[trump] = TrickTables(ruleset, trump)
    return got


def fast_replay(ruleset: Ruleset, c: Compiled, table: Table, hand: Hand) -> tuple[Replay, dict[Card, str]] | None:
    """The replay and who played each card kept in a trick; None when the careful `play.replay` must judge."""
    tricks = hand.tricks
    assert tricks is not None
    tt = c.tricks.get(hand.trump) or tables(c, ruleset, hand.trump)
    trump_only = c.trump_only
    size = c.hand_size
    if len(tricks) > size or (not trump_only and len(tricks) != size):
        return None
    players = table.players
    deck = c.deck
    held: dict[str, list[Card]] = {}
    if hand.held:
        every: set[Card] = set()
        count = 0
        for p, cards in hand.held:
            k = len(cards)
            if p in held or k > size or (not trump_only and k != size):
                return None
            held[p] = list(cards)
            every.update(cards)
            count += k
        if len(every) != count or not deck.issuperset(every):
            return None
    rot = c.rotations.get(players)
    if rot is None:
        rot = c.rotations[players] = {p: players[i:] + players[:i] for i, p in enumerate(players)}
    leader = table.left_of(hand.dealer) if c.eldest_leads else hand.bid.player
    suit = tt.suit
    win = tt.win
    trumps = tt.trumps
    follow_or_trump = c.follow_or_trump
    seen: dict[Card, str] = {}  # card -> who played it
    back: list[Card] = []
    first_plain = tt.first_plain
    of_suit = tt.of_suit
    captured: dict[str, list[Card]] = {}
    results: list[TrickResult] = []
    illegal: list[Illegal] = []
    folded: set[str] = set()
    view = tt.view
    no_names = (None,) * len(players)
    for number, trick in enumerate(tricks, 1):
        if leader not in rot or (trick.leader != leader and not trump_only):  # (rot: whoever is still in)
            return None
        turn = rot[leader]
        names, cards = zip(*trick.plays, strict=True) if trick.plays else ((), ())
        if trick.leader == leader and len(cards) == len(turn) and (names == turn or names == no_names[:len(turn)]):
            who = turn
        elif trump_only and cards and None not in names and names[0] == trick.leader:
            # players left out of a named trick fold now (they must be out of trumps); when the player due
            # to lead is one of them, the lead passes to the next player still in: the first one named
            it = iter(turn)
            if not all(p in it for p in names):  # not in seating order (or someone twice, or no player)
                return None
            for p in turn:
                if p not in names:
                    if not trumps.isdisjoint(held.get(p, ())):
                        return None
                    folded.add(p)
            if len(names) < len(turn):  # the turn order from here on leaves out who folded
                still = tuple(p for p in players if p not in folded)
                rot = {p: still[i:] + still[:i] for i, p in enumerate(still)}
            who = names
        else:
            return None
        led = suit.get(cards[0])  # (None: a fold, or a card not in the deck)
        if led is None:
            return None
        w = win[led]
        best = -2
        lead = None  # the suit led, once the first card is down
        for player, card in zip(who, cards, strict=True):
            s = suit.get(card)
            if s is None or card in seen:  # a fold, a card not in the deck, or one played twice
                return None
            seen[card] = player
            holding = held.get(player)
            if holding is not None and card not in holding:
                return None
            if lead is None:
                ruled = card not in first_plain if number == 1 else trump_only and s != TRUMP
            else:
                ruled = s != TRUMP if trump_only else (holding is not None and s != led and (
                    s != TRUMP or not follow_or_trump) and not of_suit[led].isdisjoint(holding))
            if ruled:
                r = judge_play(ruleset, view, card, holding, lead, lead is None and number == 1, player)
                if r.legal is False:
                    assert r.rule is not None
                    illegal.append(Illegal(number, player, card, r.rule, f"{player} played {pretty(card)}: {r.why}"))
            if holding is not None:
                holding.remove(card)
            k = w[card]
            if k > best:
                best, leader, high = k, player, card
            lead = led
        if trump_only and not trumps.issuperset(cards):  # an illegal non-trump there is taken back
            kept = [(p, x) for p, x in zip(who, cards, strict=True) if x in trumps]
            if not kept:
                return None
            back.extend(x for x in cards if x not in trumps)
            who, cards = zip(*kept, strict=True)
        got = captured.get(leader)
        if got is None:
            captured[leader] = list(cards)
        else:
            got.extend(cards)
        results.append(_tuple_new(TrickResult, (number, trick.leader, tuple(zip(who, cards, strict=True)), leader,
                                                high, view)))
    if trump_only and held and any(not trumps.isdisjoint(cs) for cs in held.values()):
        return None  # trumps still held when the tricks end: the careful path says so
    for x in back:  # taken back: never captured, so no one's "played" card
        del seen[x]
    rep = _tuple_new(Replay, (tuple(results), tuple((p, tuple(cs)) for p, cs in captured.items()), tuple(illegal)))
    return rep, seen
