"""The entry page's questions, from the ruleset in play, and its answers, turned into one hand.

Every point of the ruleset is a question with the ruleset's own words: "who took high?", or "who was
dealt low?" where the point goes to the player dealt the card. Every question must be answered - a
side (or player), "not out", or for game "tie" - as at the CLI: no point is decided by omission.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from pitchkeeper.errors import PitchError
from pitchkeeper.game import answers
from pitchkeeper.game.cards import parse_suit
from pitchkeeper.game.scoring import always_out
from pitchkeeper.logbook.entry import NOBODY, HandEntry

NOT_OUT = "-"
TIE = "tie"
SUITS = (("S", "♠", "spades"), ("H", "♥", "hearts"), ("D", "♦", "diamonds"), ("C", "♣", "clubs"))


@dataclass(frozen=True)
class Choice:
    value: str
    label: str
    hint: str = ""  # a team's players, under its name


@dataclass(frozen=True)
class Question:
    """One point of the ruleset, asked as the ruleset awards it."""

    id: str
    name: str
    text: str  # "Who took high?" / "Who was dealt low?"
    dealt: bool
    choices: tuple[Choice, ...]


@dataclass(frozen=True)
class Form:
    """Everything the entry page asks, for one match."""

    players: tuple[str, ...]
    sides: tuple[Choice, ...]
    amounts: tuple[Choice, ...]
    questions: tuple[Question, ...]
    dealt_ids: tuple[str, ...]  # points that go to the player dealt the card (cards mode asks who)
    has_auction: bool = True


@dataclass
class Answers:
    """What the form sent, as typed (kept to fill the form again after a check or an error)."""

    bidder: str = ""
    amount: str = ""
    trump: str = ""
    mode: str = "points"  # or "cards"
    points: dict[str, str] = field(default_factory=dict)
    cards: dict[str, str] = field(default_factory=dict)  # side -> the cards it captured
    dealt: dict[str, str] = field(default_factory=dict)  # player -> cards dealt to them (the ones that matter)
    auction: str = ""
    revokes: list[str] = field(default_factory=list)
    dealer: str = ""
    note: str = ""

    def fields(self) -> list[tuple[str, str]]:
        """The answers as form fields again (the digest of a checked hand is made of them)."""
        out = [("bidder", self.bidder), ("amount", self.amount), ("trump", self.trump), ("mode", self.mode)]
        out += sorted((f"p.{k}", v) for k, v in self.points.items())
        out += sorted((f"c.{k}", v) for k, v in self.cards.items() if v.strip())
        out += sorted((f"d.{k}", v) for k, v in self.dealt.items() if v.strip())
        out += [("auction", self.auction), ("dealer", self.dealer), ("note", self.note)]
        out += [("revoke", r) for r in sorted(self.revokes)]
        return out


def point_words(rule: Any) -> str:
    return rule.label or rule.id.replace("-", " ")


def build(ruleset: Any, table: Any) -> Form:
    """The questions of a ruleset at a table (pure data: the template only lays them out)."""
    b = ruleset.settings["bidding"]
    teams = dict(table.teams or ())
    sides = tuple(Choice(s, s, " & ".join(teams[s]) if s in teams else "") for s in table.sides)
    players = tuple(Choice(p, p) for p in table.players)
    amounts = [Choice(str(n), str(n)) for n in range(b["min"], b["max"] + 1)]
    if b["smudge"]:
        amounts.append(Choice("smudge", str(b["smudge_name"])))
    if b["all_pass"] == "eldest-pitches":
        amounts.insert(0, Choice("0", "no bid", "pitched without a contract"))
    questions = []
    for rule in ruleset.points:
        name = point_words(rule)
        dealt = rule.to == "dealt"
        who = players if dealt and teams else sides
        extra: tuple[Choice, ...]
        if rule.kind.ties:
            extra = (Choice(TIE, "tie", "nobody scores it"),)
        elif always_out(rule):
            extra = ()
        else:
            extra = (Choice(NOT_OUT, "not out", "nobody had it"),)
        # the CLI's own question (game.answers): "who was dealt low?" where low goes to the player dealt it
        question = answers.question(rule)
        text = question[:1].upper() + question[1:]
        questions.append(Question(rule.id, name, text, dealt, who + extra))
    return Form(table.players, sides, tuple(amounts), tuple(questions),
                tuple(q.id for q in questions if q.dealt))


def read(form: Mapping[str, Any], getlist: Any) -> Answers:
    """The submitted fields, as typed (no checking yet: that is the library's)."""
    def one(key: str) -> str:
        v = form.get(key)
        return v.strip() if isinstance(v, str) else ""

    a = Answers(bidder=one("bidder"), amount=one("amount"), trump=one("trump"), mode=one("mode") or "points",
                auction=one("auction"), dealer=one("dealer"), note=one("note"))
    for key in form:
        if key.startswith("p.") and one(key):
            a.points[key[2:]] = one(key)
        elif key.startswith("c."):
            a.cards[key[2:]] = one(key)
        elif key.startswith("d.") and one(key):
            a.dealt[key[2:]] = one(key)
    a.revokes = [r for r in getlist("revoke") if isinstance(r, str) and r.strip()]
    return a


# what each field is called in the page's messages (HandEntry names fields by these)
WEB_LABELS = {"bidder": "bidder", "amount": "bid", "trump": "trump", "dealer": "dealer", "auction": "auction",
              "point": "points", "points": "{}", "cards": "cards", "dealt": "dealt", "revokes": "revoked",
              "file": "file"}


def to_hand(a: Answers, f: Form) -> Any:
    """The hand the answers describe: the library's HandEntry (the CLI's too), which checks names, bids,
    cards and points against the log it goes to. Here only what the page itself asks: that each
    question was answered (with the ruleset's own question, so "who was dealt low?" is named so)."""
    if not a.bidder:
        raise PitchError("who won the bid? tap the bidder", "bidder")
    if not a.amount:
        raise PitchError("how much was bid? tap the amount", "bid")
    if not a.trump:
        raise PitchError("what was trump? tap the suit", "trump")
    points: dict[str, Any] = {}
    cards = dealt = None
    if a.mode == "cards":
        cards = {side: text for side, text in a.cards.items() if text.strip()}
        if not cards:
            raise PitchError("type the cards each side took, or switch to who won each point", "cards")
        dealt = {player: text for player, text in a.dealt.items() if text.strip()} or None
    else:
        unanswered = [q for q in f.questions if q.id not in a.points]
        if unanswered:
            raise PitchError("answer every point: " + "; ".join(q.text.lower() for q in unanswered)
                             + " (tap 'not out' or 'tie' where nobody won it)", "points")
        points = {pid: NOBODY if who in (NOT_OUT, TIE) else who for pid, who in a.points.items()}
    return HandEntry(bidder=a.bidder, amount=a.amount, trump=a.trump, dealer=a.dealer or None,
                     auction=a.auction or None, points=points, cards=cards, dealt=dealt,
                     revokes=list(a.revokes) or None, note=a.note or None, require_every_point=a.mode != "cards",
                     labels=WEB_LABELS)


def answers_of(hand: Mapping[str, Any], f: Form) -> tuple[Answers, str | None]:
    """The answers that would give a hand of the log (to correct it): (answers, a notice if the form
    cannot show all of it, such as a hand recorded trick by trick)."""
    bid = hand.get("bid")
    bid = bid if isinstance(bid, Mapping) else {}
    a = Answers(bidder=str(bid.get("player", "")), amount=str(bid.get("amount", "")), trump=str(hand.get("trump", "")),
                note=str(hand.get("note", "")),  # dealer: "" keeps the recorded one
                auction=" ".join(str(c) for c in hand.get("auction", []) or []),
                revokes=[str(r) for r in hand.get("revokes", []) or []])
    notice = None

    try:
        a.trump = parse_suit(a.trump) if a.trump else ""
    except PitchError:
        pass
    if isinstance(hand.get("points"), Mapping):
        pts = hand["points"]
        for q in f.questions:
            if q.id in pts:
                a.points[q.id] = str(pts[q.id])
            else:
                a.points[q.id] = TIE if any(c.value == TIE for c in q.choices) else NOT_OUT
    elif isinstance(hand.get("captured"), Mapping):
        a.mode = "cards"
        a.cards = {str(k): " ".join(str(c) for c in v) for k, v in hand["captured"].items()}
        if isinstance(hand.get("dealt"), Mapping):
            a.dealt = {str(k): " ".join(str(c) for c in v) for k, v in hand["dealt"].items()}
    else:
        notice = ("this hand was recorded trick by trick: answer who took each point to replace it, "
                  "or correct it with `pitchkeeper edit`")
    return a, notice
