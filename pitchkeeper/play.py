"""Tricks: who wins each one, and whether each play kept the ruleset's follow rules.

Everything comes from the ruleset's data: the trump view gives each card's effective suit
(the off-jack and the jokers are trumps and leave their printed suit) and its strength.
An illegal play is a finding, not an error: it is reported with the rule it broke.
Bad input (a card played twice, a trick led by the wrong player) raises PitchError.
"""

from __future__ import annotations

from dataclasses import dataclass

from pitchkeeper.cards import SUIT_NAMES, Card, card_name, pretty
from pitchkeeper.errors import PitchError
from pitchkeeper.records import Hand, Table, Trick
from pitchkeeper.rulesets import Ruleset, TrumpView


@dataclass(frozen=True, slots=True)
class Illegal:
    trick: int
    player: str
    card: Card | None
    rule: str
    why: str

    def to_json(self) -> dict[str, object]:
        return {"trick": self.trick, "player": self.player, "card": self.card, "rule": self.rule, "why": self.why}


@dataclass(frozen=True, slots=True)
class TrickResult:
    number: int
    leader: str
    plays: tuple[tuple[str, Card], ...]  # who played what, in order (folds left out)
    winner: str
    why: str


@dataclass(frozen=True, slots=True)
class Replay:
    tricks: tuple[TrickResult, ...]
    captured: tuple[tuple[str, tuple[Card, ...]], ...]  # player -> cards won
    illegal: tuple[Illegal, ...]


def suit_words(view: TrumpView, s: str) -> str:
    return "trumps" if s == "T" else SUIT_NAMES[s]


def winner_index(view: TrumpView, cards: list[Card]) -> int:
    """Index of the winning card: the highest trump, else the highest card of the suit led."""
    strength = view.strength
    best = -1
    best_trump = 0
    for i, c in enumerate(cards):
        s = strength.get(c)
        if s is not None and s > best_trump:
            best, best_trump = i, s
    if best >= 0:
        return best
    led = view.suit[cards[0]]
    plain = view.plain_strength
    best, top = 0, plain[cards[0]]
    for i, c in enumerate(cards[1:], 1):
        if view.suit[c] == led and plain[c] > top:
            best, top = i, plain[c]
    return best


def why_wins(view: TrumpView, cards: list[Card], i: int) -> str:
    c = cards[i]
    if c in view.strength:
        others = [x for x in cards if x in view.strength and x != c]
        if not others:
            return f"{pretty(c)} is the only trump played"
        return f"{pretty(c)} is the highest trump played (over {', '.join(pretty(x) for x in others)})"
    return f"no trump was played and {pretty(c)} is the highest {SUIT_NAMES[view.suit[c]][:-1]}"


def legal_plays(ruleset: Ruleset, view: TrumpView, holding: list[Card], led: str | None,
                first_lead: bool) -> tuple[list[Card], str, str]:
    """What may be played from `holding`: (cards, rule id, the rule in words)."""
    follow = ruleset.settings["play"]["follow"]
    trumps = [c for c in holding if view.suit[c] == "T"]
    if follow == "trump-only":
        return trumps, "trump-only", "only trumps may be played; a player out of trumps folds"
    if led is None:
        if first_lead and ruleset.settings["play"]["first_lead_trump"] and trumps:
            return trumps, "first-lead-trump", "the pitcher's first lead must be a trump"
        return list(holding), "", ""
    same = [c for c in holding if view.suit[c] == led]
    if led == "T":
        if same:
            return same, "must-follow-trump", "when trump is led you must play a trump if you hold one"
        return list(holding), "", ""
    if not same:
        return list(holding), "", ""
    if follow == "suit":
        return same, "must-follow", f"you must follow suit ({SUIT_NAMES[led]}) when you can"
    return same + trumps, "follow-or-trump", (
        f"you must follow suit ({SUIT_NAMES[led]}) or play a trump when you hold {SUIT_NAMES[led]}")


def check_play(ruleset: Ruleset, view: TrumpView, holding: list[Card], card: Card, led: str | None,
               first_lead: bool) -> tuple[str, str] | None:
    """None if `card` may be played, else (rule id, why in words)."""
    allowed, rule, words = legal_plays(ruleset, view, holding, led, first_lead)
    if card in allowed:
        return None
    could = ", ".join(pretty(c) for c in allowed) or "nothing (fold)"
    return rule, f"{words}; could have played {could}"


def replay(ruleset: Ruleset, table: Table, hand: Hand, where: str = "tricks") -> Replay:
    """Play the hand's tricks back: winners, captured cards, and any illegal plays."""
    assert hand.tricks is not None
    view = ruleset.views[hand.trump]
    trump_only = ruleset.settings["play"]["follow"] == "trump-only"
    players = table.players
    n = len(players)
    held = {p: list(cs) for p, cs in hand.held}
    seen: dict[Card, int] = {}
    captured: dict[str, list[Card]] = {}
    results: list[TrickResult] = []
    illegal: list[Illegal] = []
    folded: set[str] = set()
    hand_size = ruleset.settings["deck"]["hand_size"]
    if not trump_only and len(hand.tricks) != hand_size:
        raise PitchError(f"{len(hand.tricks)} tricks given; a hand of {hand_size} cards each has {hand_size} tricks",
                         where)
    if len(hand.tricks) > hand_size:
        raise PitchError(f"{len(hand.tricks)} tricks given; at most {hand_size} can be played", where)
    first_leader = hand.bid.player
    if ruleset.settings["play"]["first_leader"] == "eldest":
        first_leader = players[(players.index(hand.dealer) + 1) % n]
    prev_winner: str | None = None
    for number, trick in enumerate(hand.tricks, 1):
        w = f"{where}[{number}]"
        expected = first_leader if prev_winner is None else prev_winner
        leader = trick.leader
        if trump_only and expected in folded:
            # the winner is out of trumps: the next player still holding trump leads
            start = players.index(expected)
            expected = next((players[(start + k) % n] for k in range(1, n + 1)
                             if players[(start + k) % n] not in folded), expected)
        if leader != expected and not (trump_only and _folds_at(trick, expected)):
            who = "the pitcher" if prev_winner is None and first_leader == hand.bid.player else (
                "the player on the dealer's left" if prev_winner is None else "the last trick's winner")
            raise PitchError(f"led by {leader}, but {who} ({expected}) leads this trick", f"{w}.leader")
        plays = _seat_plays(trick, players, folded, trump_only, w)
        cards_played: list[Card] = []
        who_played: list[str] = []
        led: str | None = None
        for j, (player, card) in enumerate(plays, 1):
            if card is None:
                folded.add(player)
                continue
            cw = f"{w}.cards[{j}]"
            if card not in ruleset.deck:
                raise PitchError(f"{card} is not in this ruleset's deck ({_deck_words(ruleset)})", cw)
            if card in seen:
                raise PitchError(f"{card} was already played in trick {seen[card]}", cw)
            seen[card] = number
            if held:
                if player not in held:
                    raise PitchError(f"held has no cards for {player}, so their plays cannot be checked", "held")
                holding = held[player]
                if card not in holding:
                    raise PitchError(f"{player} plays {card}, which is not in their held cards", cw)
                bad = check_play(ruleset, view, holding, card, led, number == 1 and not cards_played)
                if bad:
                    illegal.append(Illegal(number, player, card, bad[0], f"{player} played {pretty(card)}: {bad[1]}"))
                holding.remove(card)
            else:
                bad = _check_without_hand(ruleset, view, card, led, number == 1 and not cards_played)
                if bad:
                    illegal.append(Illegal(number, player, card, bad[0], f"{player} played {pretty(card)}: {bad[1]}"))
            if led is None:
                led = view.suit[card]
            cards_played.append(card)
            who_played.append(player)
        if not cards_played:
            raise PitchError("nobody played a card to this trick", w)
        if trump_only and held:
            for p in players:
                if p not in folded and p not in who_played and not any(view.suit[c] == "T" for c in held.get(p, [])):
                    folded.add(p)
        i = winner_index(view, cards_played)
        winner = who_played[i]
        captured.setdefault(winner, []).extend(cards_played)
        results.append(TrickResult(number, leader, tuple(zip(who_played, cards_played, strict=True)), winner,
                                   why_wins(view, cards_played, i)))
        prev_winner = winner
    return Replay(tuple(results), tuple((p, tuple(cs)) for p, cs in captured.items()), tuple(illegal))


def _folds_at(trick: Trick, player: str) -> bool:
    return any(p.player == player and p.card is None for p in trick.plays) or (all(
        p.player != player for p in trick.plays if p.player is not None) and any(p.player for p in trick.plays))


def _seat_plays(trick: Trick, players: tuple[str, ...], folded: set[str], trump_only: bool,
                where: str) -> list[tuple[str, Card | None]]:
    """Give each card its player: named ones as written, others by seat from the leader."""
    n = len(players)
    start = players.index(trick.leader)
    order = [players[(start + k) % n] for k in range(n)]
    if trump_only:
        order = [p for p in order if p not in folded]
    named = [p.player for p in trick.plays if p.player is not None]
    if named:
        out: list[tuple[str, Card | None]] = []
        pos = 0
        for play in trick.plays:
            if play.player is None:
                while pos < len(order) and order[pos] in named:
                    pos += 1
                if pos >= len(order):
                    raise PitchError("more cards than players in this trick", where)
                out.append((order[pos], play.card))
                pos += 1
            else:
                if play.player not in order:
                    raise PitchError(f"{play.player} has folded and plays no more", where)
                out.append((play.player, play.card))
        whos = [p for p, _ in out]
        if len(set(whos)) != len(whos):
            raise PitchError("a player plays twice to this trick", where)
        if whos[0] != trick.leader:
            raise PitchError(f"the first card is the leader's ({trick.leader}), not {whos[0]}'s", where)
        seq = [p for p in order if p in whos]
        if whos != seq:
            raise PitchError(f"cards are not in playing order from the leader ({', '.join(order)})", where)
        if not trump_only and len(out) != n:
            raise PitchError(f"{len(out)} cards in this trick; every one of the {n} players plays to it", where)
        return out
    if trump_only:
        if len(trick.plays) > len(order):
            raise PitchError(f"{len(trick.plays)} cards, but only {len(order)} players still hold trumps; "
                             "name the players (\"Bob:5S\")", where)
        if len(trick.plays) < len(order):
            raise PitchError(f"{len(trick.plays)} cards for {len(order)} players: when a player folds, "
                             "name who played each card (\"Bob:5S\")", where)
    elif len(trick.plays) != n:
        raise PitchError(f"{len(trick.plays)} cards in this trick; every one of the {n} players plays to it", where)
    return [(order[k], p.card) for k, p in enumerate(trick.plays)]


def _check_without_hand(ruleset: Ruleset, view: TrumpView, card: Card, led: str | None,
                        first_lead: bool) -> tuple[str, str] | None:
    """What can be judged without the held cards: trump-only play, and the first lead."""
    if ruleset.settings["play"]["follow"] == "trump-only" and view.suit[card] != "T":
        return "trump-only", f"only trumps may be played, and {card_name(card)} is not a trump"
    if first_lead and ruleset.settings["play"]["first_lead_trump"] and view.suit[card] != "T":
        return "first-lead-trump", f"the pitcher's first lead must be a trump, and {card_name(card)} is not one"
    return None


def _deck_words(ruleset: Ruleset) -> str:
    n = len(ruleset.deck)
    j = ruleset.settings["deck"]["jokers"]
    return f"{n} cards" + ("" if not j else f" with {'one joker' if j == 1 else 'two jokers'}")
