"""`HandEntry`: one hand as a person enters it - typed answers, not yet the log's table.

`hand` and `edit` build one from their options, `play` from its answers, the web page from its form
fields; `HandEntry.to_table` turns it into the log's hand table in this one place, against the log
it goes to (the ruleset's points and bids, the table's names, the dealer due). Names may be typed
in any case or as a unique prefix; the log keeps them exactly.

A point's answer is a side or player, or `NOBODY` (said explicitly: not out, or a tied game); a
point left out of `points` was not answered. `require_every_point` makes an unanswered point an
error, for a front end that asks every point (issue 11).

A hand recorded trick by trick is read by logbook.tricks, loaded only for such a hand (it brings the play
of tricks, game.play, which no other entry needs).
"""

import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import MappingProxyType
from typing import Any, NamedTuple

from pitchkeeper.errors import PitchError, did_you_mean, unknown_key, utf8
from pitchkeeper.game import answers, match
from pitchkeeper.game.answers import entry_hint
from pitchkeeper.game.cards import parse_card, parse_cards, parse_suit
from pitchkeeper.game.partners import holder
from pitchkeeper.game.points import POINT_IDS
from pitchkeeper.game.records import HAND_RECORD_KEYS, PARTNER_NOBODY, parse_call, parse_hand
from pitchkeeper.game.scoring import always_out, dealt_cards
from pitchkeeper.logbook import store
from pitchkeeper.logbook.writing import now, ordered

NOT_OUT = ("-", "none", "nobody", "no")  # typed words for "nobody took it"
_DEAL = ("kitty", "discard", "drawn", "held", "called", "partner")  # the entry's fields of a kitty, draw, partner


class _Nobody:
    """The explicit answer "nobody" (a point not out, a game tied), distinct from no answer at all."""

    _it: '_Nobody | None' = None

    def __new__(cls) -> '_Nobody':
        if cls._it is None:
            cls._it = super().__new__(cls)
        return cls._it

    def __repr__(self) -> str:
        return "NOBODY"


NOBODY = _Nobody()

# What each field is called in messages. The CLI's names by default; the web form passes its own.
CLI_LABELS = MappingProxyType({
    "bidder": "BIDDER", "amount": "AMOUNT", "trump": "TRUMP", "dealer": "--dealer", "auction": "--auction",
    "point": "--point", "points": "--{}", "cards": "--cards", "dealt": "--dealt", "revokes": "--revoke", "file": "--from",
    "kitty": "--kitty", "discard": "--discard", "drawn": "--drawn", "held": "--held", "called": "--called",
    "partner": "--partner", "tricks": "tricks",
})

Cards = str | Sequence[str]  # "AS JS 10H" or ["AS", "JS", "10H"]


class HandEntry(NamedTuple):
    """A hand as entered. Every field left as None keeps what the corrected hand had (`edit`)."""

    bidder: str | None = None
    amount: int | str | None = None  # a number, "smudge" (or the ruleset's name for it), 0 for a pitch
    trump: str | None = None
    dealer: str | None = None  # None: the rotation's next dealer
    auction: str | Sequence[str] | None = None  # "Bob:pass Cy:2 ..."; "-" drops the auction
    points: Mapping[str, str | _Nobody] = MappingProxyType({})  # point id (or prefix) -> who, or NOBODY
    cards: Mapping[str, Cards] | None = None  # side or player -> the cards captured
    dealt: Mapping[str, Cards] | None = None  # player -> cards dealt (low to the player dealt it)
    tricks: Sequence[Cards] | None = None  # each trick's cards in playing order, its leader worked out (logbook.tricks)
    revokes: Sequence[str] | None = None  # players who revoked; ["-"] drops them
    note: str | None = None  # "" drops the note
    file: str | Path | None = None  # a hand-record file that gives the whole hand (`--from`)
    require_every_point: bool = False
    rest: bool = False  # "the rest were not out": every point not in `points` is answered nobody
    labels: Mapping[str, str] = CLI_LABELS
    by_point: frozenset[str] = frozenset()  # the points answered as ID=WHO (--point), named so in messages
    kitty: Cards | None = None  # the kitty as dealt; "-" drops it
    discard: Mapping[str, Cards] | None = None  # player -> cards laid away or thrown ("" : the bidder's)
    drawn: Mapping[str, Cards] | None = None  # player -> cards dealt in a draw
    held: Mapping[str, Cards] | None = None  # player -> cards held when play began
    called: str | None = None  # the card the bidder called; "-" drops it (and who held it)
    partner: str | None = None  # who held it; none (nobody, alone): no other player did

    @property
    def source(self) -> str | None:
        """The file the hand comes from, to name it in messages."""
        return str(self.file) if self.file is not None else None

    def label(self, key: str, detail: str = "") -> str:
        return self.labels.get(key, key).format(detail)

    def answer_label(self, given: str, pid: str) -> str:
        """Where the answer for point `pid` (typed as `given`) came from: --high, or --point high."""
        if given in self.by_point or pid not in POINT_IDS:
            return f"{self.label('point')} {given}"
        return self.label("points", pid)

    def to_table(self, log: Any, base: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """The hand as the log keeps it (TOML-ready, names written exactly), for the log `log`
        (a logbook.loader.Loaded). `base` is the hand being corrected: fields given replace its keys."""

        table = log.record.table
        hand: dict[str, Any] = dict(base) if base else {}
        if self.file is not None:
            given = [k for k in ("bidder", "amount", "trump", "auction", "cards", "dealt", "tricks", "revokes", "note",
                                 *_DEAL)
                     if getattr(self, k) is not None] + (["points"] if self.points else [])
            if given:
                raise PitchError("--from gives the whole hand: give no other hand options", self.label("file"))
            hand = self._from_file(log)
            if base and "dealer" not in hand:
                hand = {"dealer": base["dealer"], **hand}
        if self.dealer:
            hand["dealer"] = table.player(self.dealer, self.label("dealer"))
        if "dealer" not in hand:
            due = match.dealer_due(log.record)
            if due is None:
                raise PitchError(f"who dealt? the log names no first dealer: give {self.label('dealer')}")
            hand["dealer"] = due
        if self.file is None:
            self._fill(hand, log, base)
        else:
            _fill_partner(hand, log)
        if base is not None and hand == dict(base):  # an edit that changes nothing: not even a timestamp
            return dict(base)
        hand.setdefault("recorded", now())
        return ordered(hand)

    def _fill(self, hand: dict[str, Any], log: Any, base: Mapping[str, Any] | None = None) -> None:
        """The typed fields onto the hand, in the order a player says a hand: the bid and trump, then how
        the points went (who won each, the tricks, or the cards each side took), then the rest."""
        ruleset, table = log.ruleset, log.record.table
        self._fill_bid(hand, ruleset, table)
        points, typed = self._answered(ruleset)
        if points or self.rest:
            self._fill_points(hand, log, base, points, typed)
        elif self.tricks:
            self._fill_tricks(hand, ruleset, table)
        elif self.cards:
            for key in ("captured", "tricks", "points", "held"):
                hand.pop(key, None)
            hand["captured"] = self._cards_by(self.cards, table.side_or_player, "cards")
        if self.dealt:
            hand["dealt"] = self._cards_by(self.dealt, table.player, "dealt")
        if self.cards and "captured" in hand:
            self._ask_dealt(hand, ruleset, table)
        self._deal(hand, log)
        if not any(key in hand for key in ("points", "captured", "tricks")):
            raise PitchError(f"say who won each point ({answers.entry_hint(ruleset)}), or the cards each side "
                             "captured (--cards \"Us: AS JS ...\"), or give --from HANDFILE")
        if self.revokes:
            if [r.strip().lower() for r in self.revokes] == ["-"]:
                hand.pop("revokes", None)
            else:
                hand["revokes"] = [table.player(r, self.label("revokes")) for r in self.revokes]
        if self.note is not None:
            if self.note:
                hand["note"] = utf8(self.note, "--note" if self.labels is CLI_LABELS else "note")
            else:
                hand.pop("note", None)

    def _fill_bid(self, hand: dict[str, Any], ruleset: Any, table: Any) -> None:
        """Trump, the bid (an edit may change the bidder or the amount alone) and the auction; a hand
        needs a bid and a trump before anything else about it means something."""
        if self.trump is not None:
            try:
                hand["trump"] = parse_suit(self.trump)
            except PitchError as e:
                raise e.at(self.label("trump")) from None
        if self.bidder is not None or self.amount is not None:
            old = hand.get("bid", {}) if isinstance(hand.get("bid"), dict) else {}
            who = self.bidder if self.bidder is not None else old.get("player")
            amount = amount_of(self.amount, ruleset, self.label("amount")) if self.amount is not None \
                else old.get("amount")
            if who is None or amount is None:
                raise PitchError("give the bidder and the amount: pitchkeeper hand Ann 3 spades ...",
                                 self.label("bidder"))
            hand["bid"] = {"player": table.player(who, self.label("bidder")), "amount": amount}
        for key, word in (("bid", "BIDDER and AMOUNT"), ("trump", "TRUMP")):
            if key not in hand:
                raise PitchError(f"say the {word}: pitchkeeper hand {table.players[0]} {ruleset.settings['bidding']['min']}"
                                 f" spades {entry_hint(ruleset)}", word)
        if self.auction is not None:
            calls_in = [self.auction] if isinstance(self.auction, str) else list(self.auction)
            if not " ".join(calls_in).strip() or " ".join(calls_in).strip().lower() in NOT_OUT:
                hand.pop("auction", None)
            else:
                hand["auction"] = auction_calls(", ".join(calls_in), table, self.label("auction"))

    def _answered(self, ruleset: Any) -> tuple[dict[str, Any], dict[str, str]]:
        """Who won each point as typed (point id -> who) and how each id was typed (for messages); the
        ways of giving a hand that exclude each other refused together."""
        ids = [p.id for p in ruleset.points]
        # a contract id the ruleset lacks is named by its own field (--off-jack); anything else by --point
        points: dict[str, Any] = {}
        typed: dict[str, str] = {}  # point id -> as typed (for messages)
        for given, who in self.points.items():
            if given in POINT_IDS and given not in ids:  # --high in a game without high: not high-joker by prefix
                raise PitchError(f"{ruleset.name} has no point '{given}' (its points: {', '.join(ids)})",
                                 self.answer_label(given, given))
            pid = given if given in ids else point_id(ruleset, given, self.label("point"))
            if pid in points:  # a point named twice is an error, not "the last one wins"
                raise PitchError(f"{pid} is answered twice ({points[pid]}, {who}): say it once", self.label("point"))
            points[pid] = who
            typed[pid] = given
        if points and self.cards:
            raise PitchError("give who took each point, or the cards each side captured, not both", self.label("cards"))
        if self.tricks and (points or self.cards):
            raise PitchError("give the tricks, or who took each point, or the cards each side captured: one of them",
                             self.label("tricks"))
        if self.rest and self.cards:
            raise PitchError("the rest (not out) goes with who won each point, not with the cards", self.label("cards"))
        return points, typed

    def _fill_points(self, hand: dict[str, Any], log: Any, base: Mapping[str, Any] | None,
                     points: Mapping[str, Any], typed: Mapping[str, str]) -> None:
        """Who won each point, over what the hand had: an edit of a hand entered as cards or tricks keeps
        its cards when the answers agree with how they were judged."""
        ruleset, table = log.ruleset, log.record.table
        ids = [p.id for p in ruleset.points]
        rules = {r.id: r for r in ruleset.points}
        missing = [pid for pid in ids if pid not in points]
        option = self.labels is CLI_LABELS
        if self.require_every_point and missing and not self.rest:  # none decided by omission (issue 11)
            raise PitchError(answers.missing_message(ruleset, missing, option=option), "points")
        if self.rest and answers.beyond_rest(ruleset, missing):  # "not out" never ties a game
            raise PitchError(answers.rest_message(ruleset, answers.beyond_rest(ruleset, missing), option),
                             "points")
        judged = None  # a hand entered as cards or tricks: who won each point, as judged
        if isinstance(hand.get("points"), dict):
            outcome = dict(hand["points"])
        elif base is not None:
            judged = _awarded(log, base)
            outcome = {} if self.rest else dict(judged)
        else:
            outcome = {}
        if self.rest:
            outcome = {pid: w for pid, w in outcome.items() if pid in points}
        for pid, who in points.items():
            rule = rules[pid]
            try:
                gone = who is NOBODY or answers.nobody(rule, str(who), always_out(rule))
            except PitchError as e:
                raise e.at(self.answer_label(typed[pid], pid)) from None
            if gone:
                outcome.pop(pid, None)
            else:
                outcome[pid] = owner_name(table, str(who), self.answer_label(typed[pid], pid))
        final = {pid: outcome[pid] for pid in ids if pid in outcome}
        if judged is None or not _same_points(table, final, judged):  # else the cards stay as entered
            for key in ("captured", "tricks", "held", "points", "dealt"):
                hand.pop(key, None)
            hand["points"] = final
            if not final:  # the log's points table names at least one point
                raise PitchError("every point was answered none: a hand in which no point was out is entered "
                                 f"by the cards each side captured ({self.label('cards')})", "points")

    def _fill_tricks(self, hand: dict[str, Any], ruleset: Any, table: Any) -> None:
        """The tricks as played (logbook.tricks works out who led each)."""
        from pitchkeeper.logbook.tricks import trick_tables

        assert self.tricks is not None
        tricks = trick_tables(self.tricks, ruleset, table, hand, self.label("tricks"))
        if tricks != hand.get("tricks"):  # the cards held as play began go with the tricks they were given for
            hand.pop("held", None)
        for key in ("captured", "points"):
            hand.pop(key, None)
        hand["tricks"] = tricks

    def _cards_by(self, given: Mapping[str, Cards], name_of: Any, field: str) -> dict[str, list[str]]:
        """Cards typed per side or player (`name_of` reads the name), each name written exactly once."""
        out: dict[str, list[str]] = {}
        for who, cards in given.items():
            name = name_of(who, self.label(field))
            out.setdefault(name, []).extend(card_list(cards, f"{self.label(field)} {name}"))
        return out

    def _ask_dealt(self, hand: dict[str, Any], ruleset: Any, table: Any) -> None:
        """A captured card whose point goes to the player dealt it needs that player: asked in this front
        end's words."""
        named = {c for cs in (hand.get("dealt") or {}).values() for c in cs}
        taken = [c for cs in hand["captured"].values() for c in cs]
        need = [c for c in dealt_cards(ruleset, hand["trump"], taken) if c not in named]
        if need:
            how = (f"say who was dealt it, e.g. {self.label('dealt')} \"{table.players[0]}: {need[0]}\""
                   if self.labels is CLI_LABELS else f"type {need[0]} beside the player dealt it")
            raise PitchError(f"{need[0]} goes to the player dealt it: {how}", self.label("dealt"))

    def _deal(self, hand: dict[str, Any], log: Any) -> None:
        """The kitty, the discard, the draw, the held cards and the called partner, written as the record
        keeps them (names exactly, cards canonical). Who held the called card, when not typed, is read from
        the tricks or the held cards (game.partners.holder), so the log names every hand's partnership."""
        table = log.record.table
        if self.kitty is not None:
            cards = card_list(self.kitty, self.label("kitty"))
            if cards:
                hand["kitty"] = cards
            else:
                hand.pop("kitty", None)
        bidder = hand["bid"]["player"]
        for key in ("discard", "drawn", "held"):
            given = getattr(self, key)
            if given is None:
                continue
            out: dict[str, list[str]] = {}
            for who, cards in given.items():
                name = bidder if key == "discard" and not who.strip() else table.player(who, self.label(key))
                out.setdefault(name, []).extend(card_list(cards, f"{self.label(key)} {name}"))
            out = {p: cs for p, cs in out.items() if cs}
            if not out:
                hand.pop(key, None)
            elif key == "discard" and list(out) == [bidder]:
                hand[key] = out[bidder]  # the bidder's lay-away alone: a bare list, as a person writes it
            else:
                hand[key] = out
        if self.called is not None:
            text = self.called.strip()
            if text.lower() in NOT_OUT:
                hand.pop("called", None)
                hand.pop("partner", None)
            else:

                try:
                    hand["called"] = parse_card(text)
                except PitchError as e:
                    raise e.at(self.label("called")) from None
                if self.partner is None:
                    hand.pop("partner", None)  # a new card: who held it is asked again
        if self.partner is not None:

            p = self.partner.strip()
            hand["partner"] = "none" if p.lower() in PARTNER_NOBODY else table.player(p, self.label("partner"))
        _fill_partner(hand, log)

    def _from_file(self, log: Any) -> dict[str, Any]:
        """The per-hand keys of a hand record file. Header keys it has must agree with the match."""

        path = self.file
        data = store.read_record(path)  # type: ignore[arg-type]
        table = log.record.table
        hand = {}
        for key, v in data.items():
            if key not in HAND_RECORD_KEYS:
                raise unknown_key(key, HAND_RECORD_KEYS, f"{path}: {key}")
            if key == "players" and (not isinstance(v, list) or tuple(v) != table.players):
                raise PitchError(f"players {v} are not this match's ({', '.join(table.players)})", f"{path}: players")
            if key == "teams" and table.teams and {t: list(m) for t, m in table.teams} != v:
                raise PitchError("teams differ from this match's", f"{path}: teams")
            if key == "rules" and v != log.data.get("rules") and v != log.ruleset.name:
                raise PitchError(f"the hand is for {v}, the match is played under {log.ruleset.name}",
                                 f"{path}: rules")
            if key not in ("rules", "players", "teams"):
                hand[key] = v
        return hand


def _fill_partner(hand: dict[str, Any], log: Any) -> None:
    """A called card whose holder was not said: written as the tricks or the held cards show it (the
    library's `partners.holder`), so the log names every hand's partnership in plain words."""
    if "called" not in hand or "partner" in hand or not ("tricks" in hand or "held" in hand):
        return

    table = log.record.table
    try:
        held = holder(log.ruleset, table, parse_hand(hand, table))
    except PitchError:  # a wrong record: the log's checks refuse it, naming the hand and the key
        held = None
    if held is not None:
        hand["partner"] = held or "none"


# ---------------------------------------------------------------------------
# Typed words -> values (shared by the CLI's prompts, which check each answer as it is typed)


def amount_of(value: int | str, ruleset: Any, where: str = "AMOUNT") -> int | str:
    """A bid as typed: a number, smudge (or moon, or the ruleset's word), 0 for a pitch without a contract."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    t = str(value).strip().lower()
    b = ruleset.settings["bidding"]
    if t.isascii() and t.lstrip("-").isdigit():
        if len(t) > 18:
            raise PitchError(f"a number of {len(t)} digits is no bid", where)
        return "smudge" if b["smudge"] and int(t) == b["smudge"] else int(t)  # seed 002: smudge is bidding five
    if t in ("smudge", "moon", "shoot", str(b["smudge_name"]).lower()):
        return "smudge"
    if t in ("none", "pitch-0", "nocontract"):
        return 0
    raise PitchError(f"{value!r} is not a bid: a number from {b['min']} to {b['max']}"
                     + (f", or {b['smudge_name']}" if b["smudge"] else "")
                     + (", or 0 (a pitch without a contract)" if b["all_pass"] == "eldest-pitches" else ""), where)


def _awarded(log: Any, base: Mapping[str, Any]) -> dict[str, str]:
    """Who won each point of the logged hand `base` as judged (a player where the verdict names one),
    so that correcting one point of a hand entered as cards keeps the others."""
    state = log.replay()
    for h, raw in zip(state.hands, log.data.get("hands", []), strict=False):
        if raw == base:
            return {a.point: a.player or a.side for a in h.verdict.awards}
    return {}


def _same_points(table: Any, given: Mapping[str, str], judged: Mapping[str, str]) -> bool:
    """Do the answers agree with the points as judged? A side agrees with any of its players."""
    if set(given) != set(judged):
        return False
    return all(g == j or (g in table.sides and j in table.players and table.side_of(j) == g)
               for g, j in ((given[pid], judged[pid]) for pid in given))


def names(text: str) -> list[str]:
    """Names typed in one line: separated by commas (or +) when there is one, so "Ann, Dee Dee" keeps a
    name with a space; else by spaces (`new`, `play` and the page's "new players" all read names so)."""
    if "," in text or "+" in text:
        return [n.strip() for n in text.replace("+", ",").split(",") if n.strip()]
    return text.split()


def team_specs(specs: Sequence[str], where: str = "--team") -> list[tuple[str, list[str]]]:
    """Teams typed as NAME=PLAYER,PLAYER (or "Us: Ann Cy"), several joined by ';' -> (name, players) pairs,
    the players as typed (the log checks them against the table)."""
    out = []
    for spec in (t for item in specs for t in item.split(";") if t.strip()):
        name, sep, rest = spec.partition("=")
        if not sep:
            name, sep, rest = spec.partition(":")
        name = name.strip()
        if not sep or not name:
            raise PitchError(f"expected a team as NAME=PLAYER,PLAYER (such as Us=Ann,Cy), got {spec.strip()!r}", where)
        members = names(rest)
        if not members:
            raise PitchError(f"team {name} has no players", where)
        out.append((name, members))
    return out


def auction_calls(text: str, table: Any, where: str) -> list[str]:
    """"Bob:pass Dee Dee:2, Ann:3" -> the calls as the log keeps them (a name may have spaces)."""

    call = r"[^:,]+?\s*:\s*[^\s,]+"
    found = re.findall(r"\s*([^:,]+?)\s*:\s*([^\s,]+)", text)
    if not found or re.sub(call + r"|[\s,]", "", text):
        raise PitchError(f"expected the calls as \"Bob:pass Cy:2 Dee:3\", got {text!r}", where)
    calls = []
    for i, (who, c) in enumerate(found, 1):
        name, value = parse_call(f"{who}:{c}", table, f"{where}: auction[{i}]")
        calls.append(f"{name}:{value}")
    return calls


def owner_name(table: Any, who: str, where: str) -> str:
    """A side or player as typed (any case, a unique prefix) -> the name the log keeps."""
    side, player = table.owner(who.strip(), where)
    if player is not None and table.teams and who.strip().lower() not in (side.lower(),):
        return player
    return side


def point_id(ruleset: Any, text: str, where: str) -> str:
    """A point of the ruleset by its id or a unique prefix of it."""
    ids = [p.id for p in ruleset.points]
    t = text.strip().lower()
    if t in ids:
        return t
    pre = [i for i in ids if i.startswith(t)] if t else []
    if len(pre) == 1:
        return pre[0]
    raise PitchError(f"{ruleset.name} has no point '{text}'{did_you_mean(text, ids)} (its points: {', '.join(ids)})",
                     where)


def card_list(cards: Cards, where: str) -> list[str]:
    """Cards as typed ("AS JS 10H" or a list) -> canonical tokens; "-" is none."""

    if isinstance(cards, str) and cards.strip().lower() in NOT_OUT:
        return []
    try:
        return list(parse_cards(cards))
    except PitchError as e:
        raise e.at(where) from None
