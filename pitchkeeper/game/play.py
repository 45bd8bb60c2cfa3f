"""Tricks: who wins each one, and whether each play kept the ruleset's play rules.

Everything comes from the ruleset's data. The trump view gives each card's effective suit
(the off-jack, off-ace, off-three and the jokers are trumps and leave their printed suit) and
its strength; `play.follow`, `play.first_lead_trump` and `trump.set_by` give the rules.
An illegal play is a finding, not an error: it is reported with the rule it broke and what
the player could have played. Bad input (a card played twice, a trick led by the wrong
player, a card the player did not hold) raises PitchError naming the key.

Rule ids (the `rule` of an illegal play):
  first-lead-trump      the first card pitched must be a trump (and, where it sets trump, fit the trump named)
  must-follow-trump     trump was led and the player held a trump but did not play one
  must-follow-or-trump  a plain suit was led; the player held it and played neither it nor a trump
  must-follow           a plain suit was led; the player held it and did not follow (play.follow = suit)
  trump-only            only trumps may be played; a player out of trumps folds (play.follow = trump-only)
  must-trump            a plain suit was led; the player held none of it and held a trump but did not play one
                        (play.must_trump)
  called-first-trick    the holder of the card the bidder called did not play it to the first trick
                        (partner.first_trick)
"""

from __future__ import annotations

from collections.abc import Container, Mapping, Sequence
from typing import NamedTuple, TypeVar

from pitchkeeper.errors import PitchError
from pitchkeeper.game.cards import SUIT_NAMES, SUITS, Card, Suit, pretty, suit_of
from pitchkeeper.game.deal import Deal, check_played
from pitchkeeper.game.records import Hand, Table, Trick
from pitchkeeper.game.rulesets import Ruleset, TrumpView
from pitchkeeper.game.trick_record import named_folds, seat_plays
from pitchkeeper.game.trick_record import parse_held as parse_held  # re-exported: the words of a trick
from pitchkeeper.game.trick_record import parse_plays as parse_plays
from pitchkeeper.game.vocabulary import SYMBOL_WORDS

TRUMP = "T"  # the effective suit of every trump in a TrumpView
Seat = TypeVar("Seat")  # a player, by name or by seat



class Illegal(NamedTuple):
    """A play that broke the rules, as `judge hand` reports it (tricks counted from 1)."""

    trick: int
    player: str
    card: Card | None
    rule: str
    why: str

    def to_json(self) -> dict[str, object]:
        return {"trick": self.trick, "player": self.player, "card": self.card, "rule": self.rule, "why": self.why}


class Ruling(NamedTuple):
    """Whether one play kept the rules.

    `legal` is None when only the player's held cards could tell; `rule` is the rule broken
    (None unless illegal); `could` is what the rules allowed from the held cards (None
    when they are not known).
    """

    legal: bool | None
    rule: str | None
    why: str
    could: tuple[Card, ...] | None


class PlayRuling(NamedTuple):
    player: str
    card: Card | None  # None: the player folded (trump-only play)
    suit: str | None  # effective suit: S, H, D, C or TRUMP; None for a fold
    ruling: Ruling

    def to_json(self) -> dict[str, object]:
        r = self.ruling
        return {"player": self.player, "card": self.card, "suit": _suit_json(self.suit), "legal": r.legal,
                "rule": r.rule, "why": r.why, "could": None if r.could is None else list(r.could)}


class TrickResult(NamedTuple):
    """One trick played back; why its winner wins is worded when it is read."""

    number: int
    leader: str
    plays: tuple[tuple[str, Card], ...]  # who played what, in order (folds left out)
    winner: str
    card: Card  # the winning card
    view: TrumpView  # the trump it was played in (for the words of `why`)

    @property
    def why(self) -> str:
        """Why the winning card wins, in words."""
        cards = [c for _, c in self.plays]
        return why_wins(self.view, cards, cards.index(self.card))


class Replay(NamedTuple):
    tricks: tuple[TrickResult, ...]
    captured: tuple[tuple[str, tuple[Card, ...]], ...]  # player -> cards won
    illegal: tuple[Illegal, ...]

    @property
    def trick_counts(self) -> dict[str, int]:
        """player -> tricks won (players who won none left out)."""
        out: dict[str, int] = {}
        for t in self.tricks:
            out[t.winner] = out.get(t.winner, 0) + 1
        return out


class TrickJudgement(NamedTuple):
    """One trick judged on its own (`judge trick`): the winner and a ruling on every play."""

    rules: str
    trump: Suit
    first: bool  # judged as the hand's first trick
    led: str | None  # effective suit of the lead
    plays: tuple[PlayRuling, ...]
    winner: str
    card: Card
    why: str

    def to_json(self) -> dict[str, object]:
        return {"rules": self.rules, "trump": self.trump, "first": self.first, "led": _suit_json(self.led),
                "winner": self.winner, "card": self.card, "why": self.why,
                "plays": [p.to_json() for p in self.plays]}


def _suit_json(s: str | None) -> str | None:
    return "trump" if s == TRUMP else s


# ---------------------------------------------------------------------------
# Words


def suit_words(s: str, one: bool = False) -> str:
    """'clubs' / 'a club'; 'trumps' / 'a trump' for the effective trump suit."""
    if s == TRUMP:
        return "a trump" if one else "trumps"
    name = SUIT_NAMES[s]
    return f"a {name[:-1]}" if one else name


def card_list(cards: Sequence[Card]) -> str:
    return ", ".join(pretty(c) for c in cards) if cards else "nothing"


def trump_note(view: TrumpView, card: Card) -> str:
    """' (the off-jack)' for a trump that is not of the trump suit's own printed cards."""
    sym = view.symbol.get(card, "")
    return f" ({SYMBOL_WORDS[sym]})" if sym in SYMBOL_WORDS else ""


def moved_note(view: TrumpView, holding: Sequence[Card], led: str) -> str:
    """' (J♣ is a spade for this hand)' when held cards printed in the led suit are trumps."""
    moved = [c for c in holding if suit_of(c) == led and view.suit[c] == TRUMP] if led != TRUMP else []
    if not moved:
        return ""
    one = SUIT_NAMES[view.trump][:-1]
    return f" ({card_list(moved)} {'is a ' + one if len(moved) == 1 else 'are ' + one + 's'} for this hand)"


# ---------------------------------------------------------------------------
# The model


def first_lead_suits(ruleset: Ruleset, card: Card) -> tuple[Suit, ...]:
    """The trumps a first card pitched can set (`trump.set_by`), in suit order.

    first-lead: the card's own suit; a joker has none, so the pitcher names it (any suit).
    first-lead-announced: every suit that makes the card a trump, the pitcher saying which
    when there is a choice (a joker; a jack that may be the off-jack).
    named: trump is named before play; every suit that makes the card a trump.
    """
    printed = suit_of(card)
    if ruleset.settings["trump"]["set_by"] == "first-lead" and printed is not None:
        return (printed,)
    return tuple(s for s in SUITS if ruleset.views[s].suit.get(card) == TRUMP)


def sets_trump(ruleset: Ruleset) -> bool:
    """Whether the first card pitched fixes trump (rather than trump being named)."""
    return ruleset.settings["trump"]["set_by"] != "named"


class Allowed(NamedTuple):
    cards: tuple[Card, ...]  # what may be played from the holding
    rule: str | None  # the rule that narrowed the choice; None when any card may be played
    words: str  # that rule, in words for this trick


class FollowStep(NamedTuple):
    """One step of the follow rules: when the holding meets `when`, the cards of `allow` may be played."""

    when: frozenset[Card]
    allow: frozenset[Card]
    rule: str | None
    words: str


def follow_steps(ruleset: Ruleset, view: TrumpView, led: str | None, first: bool = False, *,
                 called: Card | None = None) -> tuple[FollowStep, ...]:
    """The follow rules for a trick whose lead's effective suit is `led` (None: this card leads; `first`:
    it is the hand's first lead), as steps over the whole deck: the first step whose `when` meets a
    holding says what it may play (no step met: nothing, a fold). `called`: in the hand's first trick, the
    card the bidder called, which its holder (the partner) must play there whatever the rest say
    (partner.first_trick). Every rule of following is here once; `allowed` applies it to one holding, the
    solver (game.solver) to every holding at once. The steps of each trump, lead and first lead are made
    once per ruleset (Ruleset.follow_plans): they depend on nothing else."""
    plans = ruleset.follow_plans
    key = (view.trump, led, first)
    steps = plans.get(key)
    if steps is None:
        steps = plans[key] = _follow_steps(ruleset, view, led, first)
    if called is None:
        return steps
    return (FollowStep(frozenset((called,)), frozenset((called,)), "called-first-trick",
                       f"the holder of {pretty(called)}, the called card, must play it to the first trick"), *steps)


def _follow_steps(ruleset: Ruleset, view: TrumpView, led: str | None, first: bool) -> tuple[FollowStep, ...]:
    """follow_steps without a called card, made once per ruleset, trump, lead and first lead."""
    follow = ruleset.settings["play"]["follow"]
    deck = ruleset.deck
    trumps = view.suit_cards.get(TRUMP, frozenset())
    tname = SUIT_NAMES[view.trump]
    steps: list[FollowStep] = []
    if led is None and first and sets_trump(ruleset):
        ok = frozenset(c for c in deck if view.trump in first_lead_suits(ruleset, c))
        return (*steps, FollowStep(deck, ok, "first-lead-trump", f"the first card pitched sets trump, so it must be "
                                                                 f"one that makes {tname} trump"))
    if led is None and first and ruleset.settings["play"]["first_lead_trump"]:
        steps.append(FollowStep(trumps, trumps, "first-lead-trump", f"the first lead must be a trump ({tname})"))
    if follow == "trump-only":
        return (*steps, FollowStep(deck, trumps, "trump-only", "only trumps may be played; a player out of trumps folds"))
    if led is None:
        return (*steps, FollowStep(deck, deck, None, "any card may lead"))
    same = view.suit_cards.get(led, frozenset())
    if led == TRUMP:
        steps.append(FollowStep(same, same, "must-follow-trump", "trump was led: a player holding a trump must play one"))
    elif follow == "suit":
        steps.append(FollowStep(same, same, "must-follow", f"{suit_words(led)} were led: a player holding "
                                                           f"{suit_words(led, True)} must play one (a trump only when "
                                                           "out of them)"))
    else:
        steps.append(FollowStep(same, same | trumps, "must-follow-or-trump",
                                f"{suit_words(led)} were led: a player holding {suit_words(led, True)} must play "
                                f"{suit_words(led, True)} or a trump"))
    if led != TRUMP and ruleset.settings["play"]["must_trump"]:
        steps.append(FollowStep(trumps, trumps, "must-trump", f"{suit_words(led)} were led: a player with no "
                                                              f"{suit_words(led, True)[2:]} must play a trump (holding "
                                                              "one)"))
    return (*steps, FollowStep(deck, deck, None, f"with no {suit_words(led)}, any card may be played"))


def allowed(ruleset: Ruleset, view: TrumpView, holding: Sequence[Card], led: str | None,
            first: bool = False, *, called: Card | None = None) -> Allowed:
    """What may be played from `holding` to a trick whose lead's effective suit is `led`
    (None: this card leads; `first`: it is the hand's first lead). The cards that met the step come
    first (the suit led before the trumps that may join it). `called`: in the hand's first trick, the card
    the bidder called, which its holder must play there whatever the follow rules say (partner.first_trick)."""
    for when, allow, rule, words in follow_steps(ruleset, view, led, first, called=called):
        if not when.isdisjoint(holding):
            cards = tuple(c for c in holding if c in allow and c in when)
            return Allowed(cards + tuple(c for c in holding if c in allow and c not in when), rule, words)
    return Allowed((), None, "nothing left to play")


def judge_play(ruleset: Ruleset, view: TrumpView, card: Card, holding: Sequence[Card] | None, led: str | None,
               first: bool = False, player: str = "the player", *, called: Card | None = None) -> Ruling:
    """Rule on one play. With `holding` (the player's cards before this play, the card among
    them) every rule can be checked; without it, only what the card alone shows."""
    if holding is not None:
        a = allowed(ruleset, view, holding, led, first, called=called)
        if card in a.cards:
            return Ruling(True, None, _legal_words(ruleset, view, card, holding, led, first), a.cards)
        why = f"{a.words}; {player} could have played {card_list(a.cards)}"
        if a.rule == "called-first-trick":
            why = (f"{player} held {pretty(a.cards[0])}, the called card, and must play it to the first trick "
                   "(partner.first_trick)")
        elif a.rule == "first-lead-trump" and sets_trump(ruleset):
            why = f"{_pitch_words(ruleset, view, card)}; {why}"
        return Ruling(False, a.rule, why, a.cards)
    # Without the hand: rule on what the card alone shows.
    follow = ruleset.settings["play"]["follow"]
    is_trump = view.suit[card] == TRUMP
    if led is None and first and sets_trump(ruleset):
        if view.trump in first_lead_suits(ruleset, card):
            return Ruling(True, None, _pitch_words(ruleset, view, card), None)
        return Ruling(False, "first-lead-trump", _pitch_words(ruleset, view, card), None)
    if follow == "trump-only":
        if is_trump:
            return Ruling(True, None, f"{pretty(card)} is a trump{trump_note(view, card)}", None)
        rule = "first-lead-trump" if led is None and first and ruleset.settings["play"]["first_lead_trump"] \
            else "trump-only"
        return Ruling(False, rule, f"only trumps may be played, and {pretty(card)} is not one", None)
    if led is None:
        if first and ruleset.settings["play"]["first_lead_trump"] and not is_trump:
            return Ruling(None, None, "the first lead must be a trump unless the pitcher held none; "
                                      "give the held cards to settle it", None)
        return Ruling(True, None, "any card may lead", None)
    if view.suit[card] == led:
        return Ruling(True, None, "follows trump" if is_trump else f"follows {suit_words(led)}", None)
    if is_trump and follow == "suit-or-trump":
        return Ruling(True, None, "a trump may be played at any time", None)
    if not is_trump and ruleset.settings["play"]["must_trump"]:
        return Ruling(None, None, f"legal only if {player} held no {suit_words(led)} and no trump; give the held "
                                  "cards to settle it", None)
    return Ruling(None, None, f"legal only if {player} held no {suit_words(led)}; give the held cards to settle it",
                  None)


def _pitch_words(ruleset: Ruleset, view: TrumpView, card: Card) -> str:
    suits = first_lead_suits(ruleset, card)
    tname = SUIT_NAMES[view.trump]
    if view.trump in suits:
        if len(suits) == 1:
            return f"{pretty(card)} pitched first sets {tname} as trump"
        return (f"{pretty(card)} pitched first could set {' or '.join(SUIT_NAMES[s] for s in suits)}; "
                f"the pitcher announced {tname}{trump_note(view, card)}")
    if not suits:
        return f"{pretty(card)} pitched first cannot make any suit trump"
    return (f"{pretty(card)} pitched first makes {' or '.join(SUIT_NAMES[s] for s in suits)} trump, "
            f"not {tname}")


def _legal_words(ruleset: Ruleset, view: TrumpView, card: Card, holding: Sequence[Card], led: str | None,
                 first: bool) -> str:
    """Why a legal play is legal, in words."""
    is_trump = view.suit[card] == TRUMP
    if led is None:
        if first and sets_trump(ruleset):
            return _pitch_words(ruleset, view, card)
        if is_trump:
            return f"{pretty(card)} is a trump{trump_note(view, card)}" + (
                ", as the first lead must be" if first and ruleset.settings["play"]["first_lead_trump"] else "")
        if first and ruleset.settings["play"]["first_lead_trump"]:
            return "the pitcher held no trump, so any card may lead"
        return "any card may lead"
    if ruleset.settings["play"]["follow"] == "trump-only":
        return f"{pretty(card)} is a trump{trump_note(view, card)}"
    if view.suit[card] == led:
        return "follows trump" + trump_note(view, card) if is_trump else f"follows {suit_words(led)}"
    if any(view.suit[c] == led for c in holding):
        return f"a trump{trump_note(view, card)} may be played even when able to follow"
    if ruleset.settings["play"]["must_trump"]:
        if is_trump:
            return f"held no {suit_words(led)}{moved_note(view, holding, led)}, so must play a trump"
        return f"held no {suit_words(led)} and no trump, so any card may be played"
    return f"held no {suit_words(led)}{moved_note(view, holding, led)}, so any card may be played"


def trick_rank(view: TrumpView, led: str, card: Card) -> int:
    """How strong `card` is in a trick whose lead's effective suit is `led`: any trump beats every card
    of the suit led, which beats every other card (0: it cannot win); the highest wins the trick."""
    s = view.strength.get(card)
    if s is not None:
        return view.above_plain + s
    return 1 + view.plain_strength[card] if view.suit[card] == led else 0


def winner_index(view: TrumpView, cards: Sequence[Card], *, jokers: str = "no") -> int:
    """Index of the winning card: the highest trump, else the highest card of the suit led (trick_rank).
    `jokers`: trump.identical_jokers; with "later-higher", of two jokers in the trick the later played ranks
    as the higher (their places in the trump order are next to each other)."""
    led = view.suit[cards[0]]
    ranks = [trick_rank(view, led, c) for c in cards]
    best = ranks.index(max(ranks))
    if jokers == "later-higher" and cards[best] in ("HJ", "LJ") and "HJ" in cards and "LJ" in cards:
        return max(list(cards).index("HJ"), list(cards).index("LJ"))
    return best


def next_in(order: Sequence[Seat], due: Seat, out: Container[Seat]) -> Seat:
    """Who leads when `due` should: `due`, or when `due` is out (folded, in trump-only play) the next
    player clockwise still in (`due` itself when nobody is)."""
    n = len(order)
    start = order.index(due)
    return next((order[(start + k) % n] for k in range(n) if order[(start + k) % n] not in out), due)


def why_wins(view: TrumpView, cards: Sequence[Card], i: int) -> str:
    c = cards[i]
    if c in view.strength:
        others = [x for x in cards if x in view.strength and x != c]
        if not others:
            return f"{pretty(c)} is the only trump played{trump_note(view, c)}"
        beaten = ", ".join(pretty(x) + trump_note(view, x) for x in others)
        return f"{pretty(c)} is the highest trump played{trump_note(view, c)}, over {beaten}"
    if len(cards) == 1:
        return f"{pretty(c)} is the only card played"
    return f"no trump was played and {pretty(c)} is the highest {suit_words(view.suit[c], True)[2:]}, the suit led"


# ---------------------------------------------------------------------------
# One trick on its own


def judge_trick(ruleset: Ruleset, trump: Suit, plays: Sequence[tuple[str, Card | None]],
                held: Mapping[str, Sequence[Card]] | None = None, first: bool = False,
                where: str = "--cards", held_where: str = "--held") -> TrickJudgement:
    """Judge one trick given in playing order from the leader; `held` is each player's cards
    when the trick began (the card played among them)."""
    view = ruleset.views[trump]
    held = dict(held or {})
    names = [p for p, _ in plays]
    dup = next((p for p in names if names.count(p) > 1), None)
    if dup:
        raise PitchError(f"{dup} plays twice to one trick", where)
    if plays[0][1] is None:
        raise PitchError(f"the leader ({plays[0][0]}) plays a card; only a follower can fold", where)
    trump_only = ruleset.settings["play"]["follow"] == "trump-only"
    seen: dict[Card, str] = {}
    for p, cards in held.items():
        if p not in names:
            raise PitchError(f"{p} plays no card to this trick (players: {', '.join(names)})", held_where)
        for c in cards:
            _in_deck(ruleset, c, f"{held_where} {p}")
            if c in seen:
                raise PitchError(f"{pretty(c)} is held by {seen[c]} and {p}" if seen[c] != p else
                                 f"{pretty(c)} is listed twice for {p}", held_where)
            seen[c] = p
    for p, played in plays:
        if played is None:
            if not trump_only:
                raise PitchError(f"{p} folds, but {ruleset.name} is not played trumps-only: every player plays a card",
                                 where)
            continue
        _in_deck(ruleset, played, where)
        if p in held and played not in held[p]:
            raise PitchError(f"{p} played {played}, which is not among {p}'s held cards (list the whole hand "
                             "as the trick began, the card played included)", held_where)
        if seen.get(played, p) != p:
            raise PitchError(f"{p} played {played}, but it is among {seen[played]}'s held cards", held_where)
    cards = [c for _, c in plays if c is not None]
    if len(set(cards)) != len(cards):
        raise PitchError(f"{next(c for c in cards if cards.count(c) > 1)} is played twice", where)
    led = view.suit[cards[0]]
    rulings = []
    for k, (p, played) in enumerate(plays):
        holding = held.get(p)
        if played is None:
            rulings.append(PlayRuling(p, None, None, _fold_ruling(view, holding, p)))
            continue
        rulings.append(PlayRuling(p, played, view.suit[played], judge_play(
            ruleset, view, played, holding, None if k == 0 else led, first and k == 0, p)))
    who = [p for p, c in plays if c is not None]
    if ruleset.settings["play"]["follow"] == "trump-only":
        # as in a replayed hand: an illegal non-trump is taken back and cannot win the trick
        kept = [(p, c) for p, c in zip(who, cards, strict=True) if view.suit[c] == TRUMP]
        if not kept:
            raise PitchError("no trump was played to this trick, and only trumps may be played", where)
        who, cards = [p for p, _ in kept], [c for _, c in kept]
    i = winner_index(view, cards)
    return TrickJudgement(ruleset.name, trump, first, led, tuple(rulings), who[i], cards[i], why_wins(view, cards, i))


def _fold_ruling(view: TrumpView, holding: Sequence[Card] | None, player: str) -> Ruling:
    if holding is None:
        return Ruling(None, None, "a player folds when out of trumps; give the held cards to settle it", None)
    trumps = tuple(c for c in holding if view.suit[c] == TRUMP)
    if trumps:
        return Ruling(False, "trump-only", f"{player} folded holding {card_list(trumps)}: only a player out of "
                                           "trumps folds", trumps)
    return Ruling(True, None, f"{player} is out of trumps, so folds", ())


def _in_deck(ruleset: Ruleset, card: Card, where: str) -> None:
    if card not in ruleset.deck:
        raise PitchError(f"{card} is not in {ruleset.name}'s deck ({ruleset.deck_words()})", where)


# ---------------------------------------------------------------------------
# A whole hand


def replay(ruleset: Ruleset, table: Table, hand: Hand, where: str = "tricks", *, deal: Deal | None = None) -> Replay:
    """Play the hand's tricks back: winners, captured cards, and any illegal plays.

    Each trick is led by the last trick's winner (the first by the pitcher, or by the eldest
    hand where `play.first_leader` says so); in trump-only play a player who folds is out
    for the rest of the hand and the lead passes to the next player still in. `deal`: the kitty,
    discard and draw (game.deal.check_deal), whose cards out of play no one may play.
    """
    assert hand.tricks is not None
    view = ruleset.views[hand.trump]
    trump_only = ruleset.settings["play"]["follow"] == "trump-only"
    held = _held(ruleset, view, hand, trump_only, where.removesuffix("tricks") + "held")
    hand_size = ruleset.settings["deck"]["hand_size"]
    if not trump_only and len(hand.tricks) != hand_size:
        raise PitchError(f"{len(hand.tricks)} tricks given; a hand of {hand_size} cards each has {hand_size} tricks",
                         where)
    if len(hand.tricks) > hand_size:
        raise PitchError(f"{len(hand.tricks)} tricks given; at most {hand_size} can be played", where)
    given = {p: dict.fromkeys(cs) for p, cs in held.items()}  # what each player held when play began, if given
    first_leader = hand.bid.player
    if ruleset.settings["play"]["first_leader"] == "eldest":
        first_leader = table.left_of(hand.dealer)
    seen: dict[Card, int] = {}
    deck = ruleset.deck
    suit = view.suit
    out = {} if deal is None else {**deal.gone, **dict.fromkeys(deal.kitty or (), deal.bidder)}
    captured: dict[str, list[Card]] = {}
    results: list[TrickResult] = []
    folded: dict[str, int] = {}  # player -> the trick they folded in (trump-only play)
    # every play in order, with the effective suit led to it (None: it leads) and whether it is the first lead
    judged: list[tuple[int, str, Card, str | None, bool]] = []
    prev_winner: str | None = None
    for number, trick in enumerate(hand.tricks, 1):
        w = f"{where}[{number}]"
        expected = first_leader if prev_winner is None else prev_winner
        plays = _seated(trick, number, table, hand, expected, prev_winner is None, folded, held, view, trump_only, w)
        played = [c for _, c, _ in plays]
        if not deck.issuperset(played) or not seen.keys().isdisjoint(played) or len(set(played)) != len(played):
            _bad_plays(ruleset, plays, seen, held, number, w)  # says which card, and what is wrong with it
        seen.update(dict.fromkeys(played, number))
        led: str | None = None
        for player, card, j in plays:
            holding = held.get(player)
            if holding is not None and card not in holding:
                raise PitchError(f"{player} plays {card}, which is not among {player}'s held cards", f"{w}.cards[{j}]")
            if out and card in out:
                assert deal is not None
                check_played(deal, player, card, f"{w}.cards[{j}]")
            judged.append((number, player, card, led, led is None and number == 1))
            if led is None:
                led = suit[card]
            if holding is not None:
                holding.remove(card)
        if trump_only:  # an illegal non-trump in trump-only play is taken back, never captured
            kept = [(p, c) for p, c, _ in plays if suit[c] == TRUMP]
            if not kept:
                raise PitchError("no trump was played to this trick", w)
        else:
            kept = [(p, c) for p, c, _ in plays]
        winner, card = kept[winner_index(view, [c for _, c in kept])]
        captured.setdefault(winner, []).extend(c for _, c in kept)
        results.append(TrickResult(number, trick.leader, tuple(kept), winner, card, view))
        prev_winner = winner
    illegal = _judge_plays(ruleset, view, hand, given, judged, whole=not trump_only)
    if trump_only:
        left = {p: [c for c in cs if view.suit[c] == TRUMP] for p, cs in held.items()}
        left = {p: cs for p, cs in left.items() if cs}
        if left:
            still = "; ".join(f"{p} {' '.join(cs)}" for p, cs in left.items())
            raise PitchError(f"the tricks end with trumps still held ({still}): play goes on until every trump "
                             "is played", where)
    return Replay(tuple(results), tuple((p, tuple(cs)) for p, cs in captured.items()), tuple(illegal))


def _seated(trick: Trick, number: int, table: Table, hand: Hand, expected: str, first: bool,
            folded: dict[str, int], held: Mapping[str, Sequence[Card]], view: TrumpView, trump_only: bool,
            w: str) -> list[tuple[str, Card, int]]:
    """A trick's cards seated to their players (seat_plays), its leader checked, and the players who fold
    in it (trump-only play) added to `folded`: a player folds only when out of trumps."""
    players = table.players
    # Check the leader before seating the cards (a wrong leader would garble the seating),
    # unless only seating can tell who folds (a trick naming some players, not all).
    early = named_folds(trick, players, folded) if trump_only else {}
    if early is not None and (trick.leader != expected or expected in folded or expected in early):
        _check_leader(trick, players, expected, first, folded, early, hand.bid.player, w)
    plays, folds_now = seat_plays(trick, players, folded, trump_only, w)
    if early is None:
        _check_leader(trick, players, expected, first, folded, folds_now, hand.bid.player, w)
    for p, j in folds_now.items():
        unplayed = [c for c in held.get(p, ()) if view.suit[c] == TRUMP]
        if unplayed:
            at = f"{w}.cards[{j}]" if j else w
            raise PitchError(f"{p} folds while holding {' '.join(unplayed)} (held.{p}): a player folds only when "
                             "out of trumps, and every trump must be played", at)
        folded[p] = number
    return plays


def _judge_plays(ruleset: Ruleset, view: TrumpView, hand: Hand, held: dict[str, dict[Card, None]],
                 judged: Sequence[tuple[int, str, Card, str | None, bool]], whole: bool) -> list[Illegal]:
    """Each play judged by the follow rules (`follow_steps`), the called card's first trick among them.

    What a player held at each play is what `held` gave (less what was played before) and every card the
    record shows the player playing from then on: all of the hand when `held` gives it, or when every card
    is played (`whole`: suit-following play, where the tricks show each hand); otherwise (trump-only play)
    a part of it, which rules a play out only when no step the rest of the hand could meet allows it."""
    called = hand.called if ruleset.settings["partner"]["first_trick"] else None
    bidder = hand.bid.player
    left = dict(held)  # what each player holds, in the order held (or played)
    for _, p, c, _, _ in judged:
        if p not in held:
            left.setdefault(p, {})[c] = None
    illegal: list[Illegal] = []
    for number, player, card, led, first in judged:
        binds = called if number == 1 and player != bidder else None
        steps = follow_steps(ruleset, view, led, first, called=binds)
        known = left[player]
        full = whole or player in held
        step = _ruled_out(steps, card, known, full)
        if step is not None:
            assert step.rule is not None  # a step without a rule allows every card
            r = judge_play(ruleset, view, card, list(known) if full else None, led, first, player, called=binds)
            shown = player not in held and (full or r.legal is not False or r.rule != step.rule)
            if not full and shown:  # the card alone does not show it; the cards played later do
                r = judge_play(ruleset, view, card, list(known), led, first, player, called=binds)
            proof = f" (the tricks show what {player} held: {player} plays them later)" if shown else ""
            illegal.append(Illegal(number, player, card, step.rule, f"{player} played {pretty(card)}: {r.why}{proof}"))
        del known[card]
    return illegal


def _ruled_out(steps: Sequence[FollowStep], card: Card, known: Mapping[Card, None], whole: bool) -> FollowStep | None:
    """The follow step that rules out playing `card` from a holding of `known` (the whole of it when `whole`,
    else a part), or None when the card may be played. The first step the holding meets decides, as in
    `allowed`; from a part of a holding, an earlier step the rest could meet must rule the card out too."""
    named = None
    for step in steps:
        if not step.when.isdisjoint(known):
            return None if card in step.allow else (named or step)
        if not whole:
            if card in step.allow:
                return None
            named = named or step
    return None


def _bad_plays(ruleset: Ruleset, plays: list[tuple[str, Card, int]], seen: Mapping[Card, int],
               held: Mapping[str, list[Card]], number: int, where: str) -> None:
    """Raise for the first card of a trick that is not in the deck, played twice or not held, in playing order."""
    now: dict[Card, int] = dict(seen)
    for player, card, j in plays:
        cw = f"{where}.cards[{j}]"
        if card not in ruleset.deck:
            raise PitchError(f"{card} is not in {ruleset.name}'s deck ({ruleset.deck_words()})", cw)
        if card in now:
            raise PitchError(f"{card} was already played in trick {now[card]}", cw)
        now[card] = number
        holding = held.get(player)
        if holding is not None and card not in holding:
            raise PitchError(f"{player} plays {card}, which is not among {player}'s held cards", cw)
    raise AssertionError("unreachable")  # pragma: no cover


def _held(ruleset: Ruleset, view: TrumpView, hand: Hand, trump_only: bool, where: str) -> dict[str, list[Card]]:
    """The held cards by player, checked: in the deck, in one hand only, a whole hand each."""
    out: dict[str, list[Card]] = {}
    owner: dict[Card, str] = {}
    size = ruleset.settings["deck"]["hand_size"]
    deck = ruleset.deck
    for player, cards in hand.held:
        w = f"{where}.{player}"
        new = dict.fromkeys(cards, player)
        if len(new) != len(cards) or not deck.issuperset(new) or not owner.keys().isdisjoint(new):
            for c in cards:  # say which card is wrong, and how
                _in_deck(ruleset, c, w)
                if c in owner:
                    raise PitchError(f"{c} is held by {owner[c]} and {player}" if owner[c] != player
                                     else f"{c} is listed twice", w)
                owner[c] = player
        owner.update(new)
        if len(cards) > size or (not trump_only and len(cards) != size):
            raise PitchError(f"{len(cards)} cards; a hand holds {size} when play begins", w)
        out[player] = list(cards)
    return out


def _check_leader(trick: Trick, players: tuple[str, ...], expected: str, first: bool, folded: Mapping[str, int],
                  folds_now: Mapping[str, int], pitcher: str, where: str) -> None:
    """The trick is led by whoever must lead it, or raise naming `where.leader`. A player who has
    folded (or folds now, in trump-only play) leads no more: the lead passes clockwise to the
    next player still in."""
    if trick.leader == expected and expected not in folded and expected not in folds_now:
        return  # the usual case: whoever was due leads
    due = next_in(players, expected, {*folded, *folds_now})
    if trick.leader == due:
        return
    who = "the last trick's winner"
    if first:
        who = "the pitcher" if expected == pitcher else "the player on the dealer's left"
    if due != expected:
        who = f"{who} ({expected}) is out of trumps, so the next player still in"
    raise PitchError(f"led by {trick.leader}, but {who} ({due}) leads this trick", f"{where}.leader")
