"""The entry page's questions, from the ruleset in play, and its answers, turned into one hand.

Every point of the ruleset is a question with the ruleset's own words: "who took high?", or "who was
dealt low?" where the point goes to the player dealt the card. Every question must be answered - a
side (or player), "not out", or for game "tie" - as at the CLI: no point is decided by omission. Or
the cards each side took; or every trick's cards in playing order (its leader worked out by the
library, logbook.tricks), which also lets the verdict say what perfect play would have taken.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from pitchkeeper.errors import PitchError
from pitchkeeper.game import answers
from pitchkeeper.game.cards import parse_suit
from pitchkeeper.game.partners import calls
from pitchkeeper.game.records import PARTNER_NOBODY
from pitchkeeper.game.scoring import always_out
from pitchkeeper.logbook.entry import NOBODY, HandEntry

NOT_OUT = "-"
MODES = ("points", "cards", "tricks")  # who won each point, the cards each side took, trick by trick
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
    note: str = ""  # said under the question: how the hand being corrected answered it, where the page cannot


@dataclass(frozen=True)
class Form:
    """Everything the entry page asks, for one match."""

    players: tuple[str, ...]
    sides: tuple[Choice, ...]
    amounts: tuple[Choice, ...]
    questions: tuple[Question, ...]
    dealt_ids: tuple[str, ...]  # points that go to the player dealt the card (cards mode asks who)
    has_auction: bool = True
    tricks: int = 6  # the hand's tricks (the ruleset's hand size): a row each in trick-by-trick mode
    trump_only: bool = False  # only trumps are played, and a player out of trumps folds (named: Bob:fold)
    calls: bool = False  # the table calls a partner each hand: which card, and who held it, are asked
    kitty: int = 0  # the kitty's size (cards and tricks modes ask the kitty and what the bidder laid away)
    discard_counts: bool = False  # the bidder's discard counts for the bidding side: cards mode needs it


@dataclass
class Answers:
    """What the form sent, as typed (kept to fill the form again after a check or an error)."""

    bidder: str = ""
    amount: str = ""
    trump: str = ""
    mode: str = "points"  # or "cards", or "tricks"
    points: dict[str, str] = field(default_factory=dict)
    cards: dict[str, str] = field(default_factory=dict)  # side -> the cards it captured
    dealt: dict[str, str] = field(default_factory=dict)  # player -> cards dealt to them (the ones that matter)
    tricks: dict[int, str] = field(default_factory=dict)  # trick number (from 1) -> its cards as typed
    auction: str = ""
    revokes: list[str] = field(default_factory=list)
    dealer: str = ""
    note: str = ""
    called: str = ""  # the card the bidder called (call your partner)
    partner: str = ""  # who held it: a player, or "none" (the bidder alone)
    kitty: str = ""  # the kitty as dealt (cards mode, where the ruleset deals one)
    discard: str = ""  # the cards the bidder laid away

    def fields(self) -> list[tuple[str, str]]:
        """The answers as form fields again (the digest of a checked hand is made of them)."""
        out = [("bidder", self.bidder), ("amount", self.amount), ("trump", self.trump), ("mode", self.mode),
               ("called", self.called), ("partner", self.partner), ("kitty", self.kitty), ("discard", self.discard)]
        out += sorted((f"p.{k}", v) for k, v in self.points.items())
        out += sorted((f"c.{k}", v) for k, v in self.cards.items() if v.strip())
        out += sorted((f"d.{k}", v) for k, v in self.dealt.items() if v.strip())
        out += sorted((f"t.{k}", v) for k, v in self.tricks.items() if v.strip())
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
            extra = (Choice(TIE, "tie", {"bidder": "it goes to the bidding side", "elder": "it goes to the elder "
                                         "hand"}.get(rule.tie, "nobody scores it")),)
        elif always_out(rule):
            extra = ()
        else:
            extra = (Choice(NOT_OUT, "not out", "nobody had it"),)
        # the CLI's own question (game.answers): "who was dealt low?" where low goes to the player dealt it
        question = answers.question(rule)
        text = question[:1].upper() + question[1:]
        questions.append(Question(rule.id, name, text, dealt, who + extra))
    return Form(table.players, sides, tuple(amounts), tuple(questions),
                tuple(q.id for q in questions if q.dealt), tricks=ruleset.settings["deck"]["hand_size"],
                trump_only=ruleset.settings["play"]["follow"] == "trump-only", calls=calls(ruleset, table),
                kitty=ruleset.settings["kitty"]["size"],
                discard_counts=ruleset.settings["kitty"]["discard_counts"] != "nothing")


def fitted(f: Form, a: Answers) -> Form:
    """The form for these answers. A point that goes to the player dealt its card is asked as "who was
    dealt it?", but the command line also takes a side for it: a hand recorded so opens with that side as
    a choice of its own, checked, and the question says what was recorded."""
    sides = {c.value for c in f.sides}
    questions = []
    for q in f.questions:
        v = a.points.get(q.id)
        if q.dealt and v in sides and all(c.value != v for c in q.choices):
            q = replace(q, choices=(*q.choices, Choice(str(v), str(v), "as recorded")),
                        note=f"This hand was recorded with {q.name} for {v}, a side, not the player dealt it: keep "
                             f"{v}, or tap who was dealt it.")
        questions.append(q)
    return replace(f, questions=tuple(questions))


def unanswered_hint(questions: list[Question]) -> str:
    """What to tap on questions left unanswered, naming only buttons those questions have: "Tap 'not out'
    or 'tie' where nobody won it", or, where every one goes to a player or side, who won it."""
    offered = {c.value for q in questions for c in q.choices}
    nobody = [f"'{label}'" for value, label in ((NOT_OUT, "not out"), (TIE, "tie")) if value in offered]
    if nobody:
        return f"Tap {' or '.join(nobody)} where nobody won it"
    if all(q.dealt for q in questions):
        return "Tap the player dealt it" if len(questions) == 1 else "Tap the player dealt each"
    return "Tap who won it" if len(questions) == 1 else "Tap who won each"


def read(form: Mapping[str, Any], getlist: Any) -> Answers:
    """The submitted fields, as typed (no checking yet: that is the library's)."""
    def one(key: str) -> str:
        v = form.get(key)
        return v.strip() if isinstance(v, str) else ""

    mode = one("mode") if one("mode") in MODES else "points"
    a = Answers(bidder=one("bidder"), amount=one("amount"), trump=one("trump"), mode=mode,
                auction=one("auction"), dealer=one("dealer"), note=one("note"), called=one("called"),
                partner=one("partner"), kitty=one("kitty"), discard=one("discard"))
    for key in form:
        if key.startswith("p.") and one(key):
            a.points[key[2:]] = one(key)
        elif key.startswith("c."):
            a.cards[key[2:]] = one(key)
        elif key.startswith("d.") and one(key):
            a.dealt[key[2:]] = one(key)
        elif key.startswith("t.") and key[2:].isascii() and key[2:].isdigit() and len(key) < 5 and one(key):
            a.tricks[int(key[2:])] = one(key)
    a.revokes = [r for r in getlist("revoke") if isinstance(r, str) and r.strip()]
    return a


# the form's field each HandEntry field's problems are placed at (`problem` maps them to the page's words)
WEB_LABELS = {"bidder": "bidder", "amount": "amount", "trump": "trump", "dealer": "dealer", "auction": "auction",
              "point": "points", "points": "p.{}", "cards": "cards", "dealt": "dealt", "revokes": "revoke",
              "file": "file", "tricks": "tricks", "called": "called", "partner": "partner", "kitty": "kitty",
              "discard": "discard", "drawn": "drawn", "held": "held"}


def to_hand(a: Answers, f: Form) -> Any:
    """The hand the answers describe: the library's HandEntry (the CLI's too), which checks names, bids,
    cards and points against the log it goes to. Here only what the page itself asks: that each
    question was answered (with the ruleset's own question, so "who was dealt low?" is named so)."""
    missing = gaps(a, f)
    if missing:
        raise missing[0]  # `problem` names every other one too
    called = partner = None
    if f.calls:  # the page's own words; the library checks the card and the holder against the hand
        if a.partner == a.bidder:
            raise PitchError(f"{a.bidder} won the bid: tap who else held {a.called}, or nobody", "partner")
        called, partner = a.called, a.partner
    kitty = discard = None
    if a.mode in ("cards", "tricks") and f.kitty:
        kitty = a.kitty or None
        discard = {"": a.discard} if a.discard else None
    points: dict[str, Any] = {}
    cards = dealt = None
    tricks: list[str] | None = None
    if a.mode == "tricks":
        tricks = typed_tricks(a, f)
    elif a.mode == "cards":
        cards = {side: text for side, text in a.cards.items() if text.strip()}
        if not cards:
            raise PitchError("type the cards each side took, or switch to who won each point", "cards")
        dealt = {player: text for player, text in a.dealt.items() if text.strip()} or None
    else:
        points = {pid: NOBODY if who in (NOT_OUT, TIE) else who for pid, who in a.points.items()}
    return HandEntry(bidder=a.bidder, amount=a.amount, trump=a.trump, dealer=a.dealer or None,
                     auction=a.auction or None, points=points, cards=cards, dealt=dealt, tricks=tricks,
                     revokes=list(a.revokes) or None, note=a.note or None, require_every_point=a.mode == "points",
                     labels=WEB_LABELS, called=called, partner=partner, kitty=kitty, discard=discard)


def gaps(a: Answers, f: Form) -> list[PitchError]:
    """Every question the page asks that was left unanswered, in the form's order, each its own problem:
    a tap of "Check the verdict" names them all at once (`problem`), not one a tap."""
    out: list[PitchError] = []
    if not a.bidder:
        out.append(PitchError("no answer yet: tap the player who won the bid (or the auction's calls above)", "bidder"))
    if not a.amount:
        out.append(PitchError("no answer yet: tap the amount bid", "amount"))
    if not a.trump:
        out.append(PitchError("no answer yet: tap the suit", "trump"))
    if f.calls:  # the page's own words; the library checks the card and the holder against the hand
        if not a.called:
            out.append(PitchError(f"no answer yet: type the card {a.bidder or 'the bidder'} called, such as AH",
                                  "called"))
        if not a.partner:
            out.append(PitchError("no answer yet: tap who held it, or nobody", "partner"))
    if a.mode in ("cards", "tricks") and f.kitty and f.discard_counts and not a.discard:
        out.append(PitchError(f"no answer yet: the cards {a.bidder or 'the bidder'} laid away count for the bidding "
                              "side: type them", "discard"))
    if a.mode == "points":
        unanswered = [q for q in f.questions if q.id not in a.points]
        if unanswered:
            hint = unanswered_hint(unanswered)
            out.append(PitchError("no answer yet: " + "; ".join(q.text.lower() for q in unanswered)
                                  + f" ({hint[:1].lower()}{hint[1:]})", "points"))
    return out


def typed_tricks(a: Answers, f: Form) -> list[str]:
    """The tricks typed, in order: none left blank before the last one typed (in trump-only play a hand may
    end early, when nobody holds a trump)."""
    typed = {k: v for k, v in a.tricks.items() if v.strip()}
    if not typed:
        raise PitchError("type the cards of each trick, or switch to who won each point", "tricks")
    beyond = [k for k in typed if not 1 <= k <= f.tricks]
    if beyond:
        raise PitchError(f"a hand has {f.tricks} tricks, not {max(beyond)}", "tricks")
    last = max(typed)
    blank = next((k for k in range(1, last + 1) if k not in typed), None)
    if blank is not None:
        raise PitchError(f"no cards yet, and trick {last} has some: type every trick in order", f"tricks[{blank}]")
    return [typed[k] for k in range(1, last + 1)]


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
    a.called = str(hand.get("called", ""))
    a.partner = str(hand.get("partner", "")) if "partner" in hand else ""
    if a.partner.lower() in PARTNER_NOBODY:
        a.partner = "none"
    kitty, laid = hand.get("kitty"), hand.get("discard")
    a.kitty = " ".join(str(c) for c in kitty) if isinstance(kitty, list) else str(kitty or "")
    if isinstance(laid, Mapping):  # the bidder's own lay-away (the page asks no other player's)
        laid = laid.get(a.bidder)
    a.discard = " ".join(str(c) for c in laid) if isinstance(laid, list) else str(laid or "")

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
    elif isinstance(hand.get("tricks"), list):
        a.mode = "tricks"
        for k, t in enumerate(hand["tricks"], 1):
            cards = t.get("cards") if isinstance(t, Mapping) else None
            a.tricks[k] = " ".join(str(c) for c in cards) if isinstance(cards, list) else ""
    else:
        notice = "this hand cannot be shown here: answer who took each point to replace it, or correct it with " \
                 "`pitchkeeper edit`"
    return a, notice


# ---------------------------------------------------------------------------
# a problem, placed at its question: the one map from a PitchError's `where` to the form's field


@dataclass(frozen=True)
class Problem:
    """A message as the page shows it: next to the question it is about, in the page's words."""

    field: str  # the field it sits next to ("bidder", "amount", "trump", "auction", "p.game", ...; "" the verdict's)
    text: str
    fields: tuple[str, ...] = ()  # every question to highlight (all those left unanswered)
    others: tuple[tuple[str, str], ...] = ()  # (field, text): the other questions left unanswered, each at its own

    def at(self, name: str) -> str | None:
        """The message that sits next to field `name`: the problem's own, or one of the others'."""
        return self.text if name == self.field else dict(self.others).get(name)


_FIELD_OF = (  # the key a problem names (the log's, or HandEntry's WEB_LABELS) -> the form's field
    (r"auction", "auction"), (r"bid\.amount|amount", "amount"), (r"bid(\.player)?|bidder", "bidder"),
    (r"trump", "trump"), (r"(first_)?dealer", "dealer"), (r"(points|p)\.(?P<point>[^.:\s]+)", "p."),
    (r"points", "points"), (r"tricks\[(?P<trick>\d+)\]", "t."), (r"tricks|held", "tricks"),
    (r"captured|cards", "cards"), (r"dealt", "dealt"), (r"revokes?", "revoke"), (r"note", "note"),
    (r"called", "called"), (r"partner", "partner"), (r"kitty", "kitty"), (r"discard", "discard"),
)
_QUESTIONS = {"bidder": "Who won the bid?", "amount": "How much?", "trump": "Trump:", "dealer": "Dealer:",
              "auction": "The auction:", "points": "The points:", "cards": "The cards each side took:",
              "dealt": "Who was dealt which card:", "revoke": "Revoked:", "note": "Note:",
              "called": "The card called:", "partner": "Who held it?", "kitty": "The kitty:",
              "discard": "Laid away:", "tricks": "The tricks:"}


NEW_GAME_QUESTIONS = {"rules": "Ruleset:", "players": "Players:", "teams": "Teams:", "first_dealer": "Who deals first:",
                      "title": "Title:", "target": "Target:"}


def field_of(where: str | None, f: Form) -> str:
    """The form's field a problem's `where` names (`friday.toml:12: hands[4].auction[2]` -> `auction`,
    `hands[4].points.game` -> `p.game`); "" when it names none (the message goes by the verdict)."""
    key = where or ""
    m = re.search(r"hands\[\d+\][.:]?\s*(.*)$", key)
    key = m.group(1) if m else key.rsplit(": ", 1)[-1]
    ids = {q.id for q in f.questions}
    for pattern, name in _FIELD_OF:
        hit = re.match(pattern + r"(?![\w-])", key)
        if hit is None:
            continue
        if name == "p.":
            point = hit.group("point")
            return f"p.{point}" if point in ids else "points"
        if name == "t.":
            n = int(hit.group("trick"))
            return f"t.{n}" if 1 <= n <= f.tricks else "tricks"
        return name
    return ""


def problem(e: PitchError | str, f: Form, a: Answers | None = None) -> Problem:
    """A PitchError (or a page's own message) as the page shows it: placed at its question, which it names
    in the page's words, with no file, line or `hands[n].key` in it (those are the CLI's)."""
    if isinstance(e, str):
        return Problem("", e)
    where = e.where or ""
    if where.startswith("ng."):  # the next game's form: ruleset, players, teams, title
        key = re.split(r"[.:\s\[]", where[3:], maxsplit=1)[0]
        name = f"ng.{key}" if key in NEW_GAME_QUESTIONS else "ng."
        text = e.message[:1].upper() + e.message[1:]
        return Problem(name, f"{NEW_GAME_QUESTIONS.get(key, '')} {text}".strip(), (name,))
    if a is not None and e.message.startswith("no answer yet"):
        missing = gaps(a, f)
        if missing:  # every question left unanswered at once, each message next to its question
            said = [_one(g, f, a) for g in missing]
            others = tuple((p.field, p.text) for p in said[1:])
            others += tuple((name, "No answer yet.") for p in said for name in p.fields
                            if name.startswith("p.") and name != p.field)
            fields = tuple(name for p in said for name in (p.fields or (p.field,)))
            return Problem(said[0].field, said[0].text, fields, others)
    return _one(e, f, a)


def _one(e: PitchError, f: Form, a: Answers | None) -> Problem:
    name = field_of(e.where, f)
    text = e.message.replace(" (nothing was written)", "")
    text = re.sub(r"\bhands\[\d+\]\.?", "", text).strip()
    fields: tuple[str, ...] = (name,) if name else ()
    if name == "points" and a is not None and a.mode == "points":
        unanswered = [q for q in f.questions if q.id not in a.points]
        if unanswered:  # the message at the first, every one highlighted
            name, fields = f"p.{unanswered[0].id}", tuple(f"p.{q.id}" for q in unanswered)
            also = "; ".join(q.text.lower() for q in unanswered[1:])
            text = ("no answer yet" + (f" (nor to {also})" if also else "") + ". " + unanswered_hint(unanswered))
    question = next((q.text for q in f.questions if f"p.{q.id}" == name), None) or _QUESTIONS.get(name, "")
    if name.startswith("t."):
        question = f"Trick {name[2:]}:"
    if question and text.lower().startswith(question.rstrip("?:").lower()):
        question = ""  # "the auction gives the pitch to ...": the question is named already
    text = text[:1].upper() + text[1:]
    return Problem(name, f"{question} {text}".strip(), fields)
