"""Rulesets as data: the TOML format, its validation, `extends`, and the compiled form.

One table of field descriptions (`SECTIONS`, `POINT_FIELDS`) drives three things: the
validator (every problem at once, each with its TOML key), the defaults, and the shipped
JSON Schema (`python -m pitchkeeper.game.schema`), so they cannot drift apart.
A variant is a TOML file; the engine only ever reads the compiled `Ruleset`.
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any, NamedTuple

from pitchkeeper.errors import CONTROL, PitchError, did_you_mean, shown, unknown_key_words
from pitchkeeper.game.cards import JOKERS, PARTNER_SUIT, RANKS, SUITS, Card, Suit
from pitchkeeper.game.kinds import KINDS, PointKind, card_words
from pitchkeeper.game.points import POINT_IDS, POINTS
from pitchkeeper.tomlfile import read_record

# ---------------------------------------------------------------------------
# The format


class F(NamedTuple):
    """One setting: its type, default, allowed values and the words that explain it."""

    kind: str  # int | str | bool | enum | strlist | enumlist | intlist | counts
    default: Any
    doc: str
    choices: tuple[str, ...] = ()
    lo: int | None = None
    hi: int | None = None
    nonempty: bool = False  # a list that must name at least one thing


TRUMP_SYMBOLS: tuple[str, ...] = tuple(reversed(RANKS)) + ("off-A", "off-J", "off-3") + JOKERS
FULL_TRUMP = ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"]

SECTIONS: dict[str, dict[str, F]] = {
    "deck": {
        "ranks": F("enumlist", list(RANKS), "ranks in each suit (a stripped deck lists fewer)", RANKS, nonempty=True),
        "jokers": F("int", 0, "0, 1 (JK) or 2 (HJ the high joker, LJ the low joker)", lo=0, hi=2),
        "hand_size": F("int", 6, "cards each player plays out (after any discard and refill)", lo=1, hi=13),
        "deal_size": F("int", 0, "cards first dealt to each player when it differs from hand_size (0: the same)", lo=0, hi=13),
    },
    "players": {
        "counts": F("intlist", [4], "how many may play", lo=2, hi=9, nonempty=True),
        "team_sizes": F("intlist", [1], "1 = each for himself; 2 or 3 = partnerships of that size", lo=1, hi=3, nonempty=True),
    },
    "trump": {
        "order": F("enumlist", FULL_TRUMP, "the trumps from highest to lowest; A..2 are the trump suit, "
                   "off-J/off-A/off-3 the same-colour jack/ace/three, HJ/LJ/JK the jokers", TRUMP_SYMBOLS, nonempty=True),
        "set_by": F("enum", "first-lead", "how trump is fixed", ("first-lead", "first-lead-announced", "named")),
    },
    "play": {
        "follow": F("enum", "suit-or-trump", "what a player must play to a plain-suit lead",
                    ("suit-or-trump", "suit", "trump-only")),
        "first_lead_trump": F("bool", True, "the pitcher's first lead must be a trump"),
        "first_leader": F("enum", "bidder", "who leads the first trick", ("bidder", "eldest")),
        "plain_order": F("enumlist", FULL_TRUMP, "plain-suit ranks from highest to lowest", RANKS, nonempty=True),
    },
    "bidding": {
        "min": F("int", 1, "lowest bid", lo=0, hi=99),
        "max": F("int", 4, "highest numeric bid", lo=1, hi=99),
        "smudge": F("int", 0, "what a smudge (moon) bid is worth; 0 = no such bid", lo=0, hi=99),
        "smudge_name": F("str", "smudge", "what the table calls that bid"),
        "auction": F("enum", "once-around", "the auction's shape", ("once-around", "sell-out")),
        "all_pass": F("enum", "dealer-forced", "what happens when nobody bids",
                      ("dealer-forced", "redeal", "eldest-pitches")),
        "forced_bid": F("int", 0, "the stuck dealer's least bid (0: the minimum bid)", lo=0, hi=99),
        "steal": F("enum", "none", "may the last speaker (dealer, or eldest in a sell-out) take the "
                   "contract by equalling the high bid", ("none", "below-top", "any")),
        "pitch_bid": F("int", 0, "laying a card face up at once bids this much (0: not allowed)", lo=0, hi=99),
        "pitch_at_once": F("int", 0, "sell-out: eldest pitching without selling contracts for this", lo=0, hi=99),
        "sale_credit": F("enum", "none", "sell-out: who scores the price of a sale",
                         ("none", "seller", "buyer")),
    },
    "settle": {
        "setback": F("enum", "bid", "a bidding side short of its bid", ("bid", "none")),
        "defenders_score": F("bool", True, "the other sides always score what they take"),
        "negative": F("bool", True, "scores may go below zero (in the hole)"),
    },
    "win": {
        "target": F("int", 21, "the winning score", lo=1, hi=10_000),
        "reach": F("enum", "reach", "reach (at least) or exceed (more than) the target", ("reach", "exceed")),
        "only_bidder": F("bool", False, "only the bidding side can win, at the end of a hand it bid"),
        "bidder_must_make": F("bool", True, "with only_bidder: and only if it made the bid"),
        "precedence": F("enumlist", ["bidder", "higher", "count-out"],
                        "who wins when several sides are out in one hand, rule by rule",
                        ("bidder", "higher", "count-out"), nonempty=True),
        "count_out": F("strlist", ["high", "low", "jack", "game"],
                       "the order points are counted when counting out"),
    },
    "revoke": {
        "setback": F("enum", "none", "the penalty for a revoke", ("none", "bid", "points")),
        "points": F("int", 0, "with setback = points: how many", lo=0, hi=99),
        "bidder_excused": F("bool", False, "the bidder is not set back for failing when another revoked"),
        "offender_scores": F("bool", False, "the offender still scores what it took"),
        "counters": F("int", 0, "stake counters the offender forfeits to the pool", lo=0, hi=99),
    },
    "stakes": {
        "per_game": F("int", 0, "stake each player puts up per game, paid to the winner (0: none)", lo=0, hi=1_000_000),
        "unit": F("str", "counter", "what the stake is counted in"),
    },
}

POINT_FIELDS: dict[str, F] = {
    "of": F("enum", "card", "what the point is for", tuple(KINDS)),  # its choices are read live: _point_field
    "value": F("int", 1, "what it is worth", lo=0, hi=99),
    "to": F("enum", "captor", "who scores it: whoever captures the card, or the player dealt it",
            ("captor", "dealt")),
    "card": F("enum", "", "with of = card: which trump (A..2, off-J, off-A, off-3, HJ, LJ, JK)", TRUMP_SYMBOLS),
    "label": F("str", "", "a name for the point in verdicts"),
    "skip": F("enumlist", [], "with of = lowest-trump: trumps that never count as low", TRUMP_SYMBOLS),
    "apart": F("bool", False, "with of = lowest-trump: a lone trump is high only, not low too"),
    "counts": F("counts", {"A": 4, "K": 3, "Q": 2, "J": 1, "10": 10},
                "with of = game: what each rank (or joker) counts"),
    "tie": F("enum", "nobody", "with of = game: a tie for the most", ("nobody",)),
    "need": F("enum", "plurality", "with of = game: most of all (plurality) or more than half (majority)",
              ("plurality", "majority")),
    "only_bidder": F("bool", True, "with of = all-tricks: only the bidding side can score it"),
    "enabled": F("bool", True, "false drops a point inherited through extends"),
}
COMMON_POINT_KEYS = frozenset({"of", "value", "label", "enabled"})  # every kind takes these (game.kinds: the rest)


def point_fields() -> dict[str, F]:
    """Every [points.ID] key's field: POINT_FIELDS, `of` allowing every kind registered now, then the keys
    of a kind's own (game.kinds)."""
    out = dict(POINT_FIELDS)
    if out["of"].choices != tuple(KINDS):
        out["of"] = out["of"]._replace(choices=tuple(KINDS))
    for kind in KINDS.values():
        for k, f in kind.fields.items():
            out.setdefault(k, f)
    return out

TOP_KEYS: dict[str, F] = {
    "name": F("str", "", "the ruleset's name"),
    "title": F("str", "", "one line saying what it is"),
    "source": F("str", "", "where the rules come from"),
    "extends": F("str", "", "a built-in ruleset name or a ruleset file this one changes"),
    "notes": F("strlist", [], "assumptions and choices, in words"),
}

# ---------------------------------------------------------------------------
# The compiled form


class PointRule(NamedTuple):
    """One [points.ID] table, defaults filled in."""

    id: str
    of: str
    value: int
    to: str
    card: str
    label: str
    skip: tuple[str, ...]
    apart: bool
    counts: Mapping[str, int]
    need: str
    only_bidder: bool
    card_values: Mapping[Card, int]  # with of = game: what each card of the deck counts
    extra: Mapping[str, Any] = {}  # the values of keys a kind has of its own (never changed: a shared default is safe)

    @property
    def kind(self) -> PointKind:
        """Its kind of point (game.kinds): how it is won, checked and worded."""
        return KINDS[self.of]


class TrumpView(NamedTuple):
    """Everything about the cards once trump is known, worked out once per ruleset and trump."""

    trump: Suit
    strength: Mapping[Card, int]  # trumps only; higher beats lower
    suit: Mapping[Card, Suit]  # effective suit of every card in the deck ("T" for trump)
    plain_strength: Mapping[Card, int]
    point_card: Mapping[str, Card]  # point id -> the card it is for (card points)
    low_skip: frozenset[Card]
    symbol: Mapping[Card, str]  # trump card -> its symbol in the order (A, off-J, HJ...)
    order: tuple[Card, ...] = ()  # the trumps from the highest down
    low_order: tuple[Card, ...] = ()  # the trumps from the lowest up, those that never count as low left out
    point_words: Mapping[str, str] = {}  # point id -> its card in words ("the jack of trumps")


@dataclass(frozen=True)
class Ruleset:
    """A ruleset compiled from its TOML: what the engine reads. (No slots: its digest is worked out on
    first use and kept on the record.)"""

    name: str
    title: str
    source: str
    notes: tuple[str, ...]
    settings: Mapping[str, Mapping[str, Any]]  # every section, defaults filled in
    points: tuple[PointRule, ...]
    deck: frozenset[Card]
    views: Mapping[Suit, TrumpView]
    raw: Mapping[str, Any] = field(repr=False)  # the merged TOML, for show and diff
    chain: tuple[str, ...] = ()  # files read, base first
    award_order: tuple[PointRule, ...] = ()  # the points in the order verdicts list them (POINT_IDS first)

    @cached_property
    def digest(self) -> str:
        """A fingerprint of the merged settings: pins a ruleset in a match log.

        It detects a changed ruleset, which is all pinning needs, so it is no security hash: two zlib
        checksums of the settings as canonical JSON (what every match log written so far pins).
        """
        canonical = json.dumps(self.raw, sort_keys=True, default=str).encode()
        return f"{zlib.crc32(canonical):08x}{zlib.adler32(canonical):08x}"

    @property
    def max_points(self) -> int:
        """The most points one hand can give out."""
        return sum(p.value for p in self.points)

    def deck_words(self) -> str:
        """The deck in words, for messages: '52 cards, no jokers'."""
        j = self.settings["deck"]["jokers"]
        return f"{len(self.deck)} cards, " + ("no jokers" if not j else "one joker, JK" if j == 1
                                             else "two jokers, HJ and LJ")

    @cached_property
    def by_id(self) -> dict[str, PointRule]:
        """Its points by id, in the ruleset's order."""
        return {p.id: p for p in self.points}

    def point(self, pid: str) -> PointRule | None:
        return self.by_id.get(pid)

    @cached_property
    def game_point(self) -> PointRule | None:
        """Its point of a kind that counts game (at most one: the validator sees to it), or None."""
        return next((p for p in self.points if KINDS[p.of].game), None)

    @property
    def partnerships_ok(self) -> bool:
        return any(s > 1 for s in self.settings["players"]["team_sizes"])


# ---------------------------------------------------------------------------
# Finding and reading


def builtin_dir() -> Path:
    """Where the built-in rulesets live: inside the wheel, or at the top of a checkout."""
    package = Path(__file__).resolve().parent.parent
    inside = package / "rulesets"
    return inside if inside.is_dir() else package.parent / "rulesets"


def builtin_names() -> list[str]:
    d = builtin_dir()
    names = [p.stem for p in d.glob("*.toml")]

    def key(n: str) -> tuple[int, str, int]:
        head, _, num = n.rpartition("-")
        return (1, head, int(num)) if num.isdigit() else (0, n, 0)

    return sorted(names, key=key)


def schema_path() -> Path:
    return builtin_dir() / "ruleset.schema.json"


def _looks_like_path(ref: str) -> bool:
    return ref.endswith(".toml") or "/" in ref or "\\" in ref


def resolve(ref: str, base: Path | None = None) -> Path:
    """A built-in name or a file path -> the file to read."""
    if not _looks_like_path(ref):
        p = builtin_dir() / f"{ref}.toml"
        if is_file(p):
            return p
        local = (base / ref) if base else Path(ref)
        if is_file(local):
            return local
        raise PitchError(f"no ruleset named '{ref}'{did_you_mean(ref, builtin_names())} "
                         f"(built-in: {', '.join(builtin_names())}; or give a .toml file)")
    p = Path(ref)
    if base is not None and not p.is_absolute():
        p = base / p
    if not is_file(p):
        raise PitchError(f"ruleset file not found: {ref}")
    return p


def is_file(path: Path) -> bool:
    """Path.is_file for a name read from input: one too long, or holding a NUL, is no file."""
    try:
        return path.is_file()
    except (OSError, ValueError):
        return False


def read_toml(path: Path) -> dict[str, Any]:
    return read_record(path)


def _merge(base: dict[str, Any], over: Mapping[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for k, v in over.items():
        if isinstance(v, Mapping) and isinstance(out.get(k), Mapping) and k != "counts":
            out[k] = _merge(dict(out[k]), v)
        elif k == "notes" and isinstance(v, list) and isinstance(out.get(k), list):
            out[k] = list(dict.fromkeys([*out[k], *v]))  # a ruleset's choices add to those it extends
        else:
            out[k] = v
    return out


def load_merged(ref: str, base: Path | None = None) -> tuple[dict[str, Any], list[Path]]:
    """Read a ruleset and everything it extends, merged; the files read, base first."""
    chain: list[Path] = []
    layers: list[dict[str, Any]] = []
    path = resolve(ref, base)
    while True:
        if path.resolve() in [p.resolve() for p in chain]:
            raise PitchError(f"extends goes round in a circle: {' -> '.join(p.name for p in chain + [path])}")
        chain.append(path)
        data = read_toml(path)
        layers.append(data)
        parent = data.get("extends")
        if parent is None:
            break
        if not isinstance(parent, str):
            raise PitchError("extends: expected a ruleset name or file path", str(path))
        try:
            path = resolve(parent, path.parent)
        except PitchError as e:
            raise e.at(f"{path}: extends") from None
        if len(chain) > 20:
            raise PitchError("extends chain is longer than 20 files", str(path))
    merged: dict[str, Any] = {}
    for layer in reversed(layers):
        merged = _merge(merged, layer)
    merged.pop("extends", None)
    if "name" not in layers[0]:
        merged["name"] = chain[0].stem
    chain.reverse()
    return merged, chain


def load(ref: str | Path) -> Ruleset:
    """Load and compile a ruleset; raise on the first problem (see `check` for all)."""
    ref = str(ref)
    merged, chain = load_merged(ref)
    problems = validate(merged)
    if problems:
        more = f" (and {len(problems) - 1} more problem(s); run 'pitchkeeper rules check {ref}')" if len(problems) > 1 else ""
        raise PitchError(problems[0] + more, str(chain[-1]))
    return compile_ruleset(merged, tuple(str(p) for p in chain))


def check(ref: str | Path) -> tuple[list[str], list[Path]]:
    """Every problem of a ruleset file, each naming its key; and the files read."""
    merged, chain = load_merged(str(ref))
    return validate(merged), chain


# ---------------------------------------------------------------------------
# Validation


def _type_problem(f: F, v: Any) -> str | None:
    def isint(x: Any) -> bool:
        return isinstance(x, int) and not isinstance(x, bool)

    if f.kind == "int":
        if not isint(v):
            return f"expected a whole number, got {v!r}"
        if (f.lo is not None and v < f.lo) or (f.hi is not None and v > f.hi):
            return f"{v} is out of range ({f.lo} to {f.hi})"
    elif f.kind == "bool":
        if not isinstance(v, bool):
            return f"expected true or false, got {v!r}"
    elif f.kind == "str":
        if not isinstance(v, str):
            return f"expected text, got {v!r}"
        if CONTROL.search(v):
            return f"{shown(repr(v))} holds a control character - it is plain text, printed to terminals"
    elif f.kind == "enum":
        if v not in f.choices:
            return f"'{v}' is not allowed{did_you_mean(str(v), f.choices)} (one of: {', '.join(f.choices)})"
    elif f.kind in ("strlist", "enumlist", "intlist"):
        if not isinstance(v, list):
            return f"expected a list, got {v!r}"
        for i, x in enumerate(v):
            if f.kind == "intlist":
                if not isint(x) or (f.lo is not None and x < f.lo) or (f.hi is not None and x > f.hi):
                    return f"item {i + 1}: expected a whole number from {f.lo} to {f.hi}, got {x!r}"
            elif not isinstance(x, str):
                return f"item {i + 1}: expected text, got {x!r}"
            elif CONTROL.search(x):
                return f"item {i + 1}: {shown(repr(x))} holds a control character - it is plain text"
            elif f.kind == "enumlist" and x not in f.choices:
                return f"item {i + 1}: '{x}' is not allowed{did_you_mean(x, f.choices)} (one of: {', '.join(f.choices)})"
        if f.nonempty and not v:
            return "expected at least one item"
        if len(set(map(str, v))) != len(v):
            dup = next(x for x in v if v.count(x) > 1)
            return f"names {dup!r} twice"
    elif f.kind == "counts":
        if not isinstance(v, dict):
            return "expected a table such as { A = 4, K = 3, Q = 2, J = 1, \"10\" = 10 }"
        for k, x in v.items():
            if k not in RANKS and k not in JOKERS:
                return f"'{k}' is not a rank or joker{did_you_mean(k, RANKS + JOKERS)}"
            if not isint(x) or x < 0:
                return f"{k}: expected a whole number of 0 or more, got {x!r}"
    return None


def validate(data: Mapping[str, Any]) -> list[str]:
    """Every problem in a merged ruleset, each as 'key: what is wrong - the fix'."""
    out: list[str] = []
    for k, v in data.items():
        if k in ("$schema",):
            continue
        if k in TOP_KEYS:
            msg = _type_problem(TOP_KEYS[k], v)
            if msg:
                out.append(f"{k}: {msg}")
        elif k == "points":
            if not isinstance(v, Mapping):
                out.append("points: expected tables, such as [points.high]")
        elif k in SECTIONS:
            if not isinstance(v, Mapping):
                out.append(f"{k}: expected a table [{k}]")
                continue
            for sk, sv in v.items():
                f = SECTIONS[k].get(sk)
                if f is None:
                    out.append(f"{k}.{sk}: {unknown_key_words(sk, list(SECTIONS[k]))}")
                    continue
                msg = _type_problem(f, sv)
                if msg:
                    out.append(f"{k}.{sk}: {msg}")
        else:
            out.append(f"{k}: {unknown_key_words(k, list(TOP_KEYS) + list(SECTIONS) + ['points'])}")
    if out:
        return out
    s = _settings(data)
    deck_ranks = set(s["deck"]["ranks"])
    jokers = _jokers(s["deck"]["jokers"])
    # trump order: every symbol a card of this deck, named once
    order = s["trump"]["order"]
    for sym in order:
        problem = _symbol_problem(sym, deck_ranks, jokers)
        if problem:
            out.append(f"trump.order: {problem}")
    for j in jokers:
        if j not in order:
            out.append(f"trump.order: the deck has {j} but the trump order does not place it - jokers are always trumps")
    for r in s["deck"]["ranks"]:
        if r not in order:
            out.append(f"trump.order: the trump {r} is missing - list every rank of the deck")
    for sym in ("off-A", "off-J", "off-3"):
        if sym in order and sym[4:] not in order:
            out.append(f"trump.order: {sym} without the trump {sym[4:]}")
    missing = [r for r in s["deck"]["ranks"] if r not in s["play"]["plain_order"]]
    if missing:
        out.append(f"play.plain_order: missing {', '.join(missing)}")
    # players
    n_cards = len(deck_ranks) * 4 + len(jokers)
    deal = s["deck"]["deal_size"] or s["deck"]["hand_size"]
    for n in s["players"]["counts"]:
        if n * deal > n_cards:
            out.append(f"players.counts: {n} players of {deal} cards need {n * deal} cards; the deck has {n_cards}")
        if not any(size == 1 or (n % size == 0 and n // size >= 2) for size in s["players"]["team_sizes"]):
            out.append(f"players.counts: {n} players cannot form teams of {s['players']['team_sizes']}")
    # points
    pts = data.get("points", {})
    fields = point_fields()
    if isinstance(pts, Mapping):
        for pid, p in pts.items():
            where = f"points.{pid}"
            if not isinstance(p, Mapping):
                out.append(f"{where}: expected a table [points.{pid}]")
                continue
            for pk, pv in p.items():
                f = fields.get(pk)
                if f is None:
                    out.append(f"{where}.{pk}: {unknown_key_words(pk, list(fields))}")
                    continue
                msg = _type_problem(f, pv)
                if msg:
                    out.append(f"{where}.{pk}: {msg}")
            if any(m.startswith(where + ".") for m in out):
                continue
            of = p.get("of", "card")
            kind = KINDS[of]
            for pk in p:
                if pk == "card":  # never reported on another kind's point (as it always was)
                    continue
                if pk not in COMMON_POINT_KEYS and pk not in kind.keys:
                    out.append(f"{where}.{pk}: does not apply to a point of = \"{of}\"")
            if "card" in kind.keys:
                sym = p.get("card")
                if not sym:
                    out.append(f"{where}.card: a card point needs card = (A..2, off-J, off-A, off-3, HJ, LJ or JK)")
                elif sym not in order and p.get("enabled", True) is not False:
                    out.append(f"{where}.card: {sym} is not a trump in this ruleset's deck and trump.order")
            if p.get("to") == "dealt" and not kind.to_dealt:
                out.append(f"{where}.to: only a card's point can go to the player dealt it")
        ids = [pid for pid, p in pts.items() if isinstance(p, Mapping) and p.get("enabled", True)]
        if not ids:
            out.append("points: the ruleset scores no points - add a [points.ID] table")
        games = [pid for pid in ids if (pk := KINDS.get(str(pts[pid].get("of")))) is not None and pk.game]
        if len(games) > 1:
            out.append(f"points: more than one game point ({', '.join(games)})")
        for pid in s["win"]["count_out"]:
            if pid not in pts:  # a point dropped with enabled = false is simply not counted
                out.append(f"win.count_out: '{pid}' is not a point of this ruleset{did_you_mean(pid, pts)}")
    b = s["bidding"]
    if b["min"] > b["max"]:
        out.append(f"bidding.min: {b['min']} is above bidding.max {b['max']}")
    if b["smudge"] and b["smudge"] <= b["max"]:
        out.append(f"bidding.smudge: worth {b['smudge']}, not above bidding.max {b['max']} - a smudge must outbid every number")
    if b["forced_bid"] and not (b["min"] <= b["forced_bid"] <= b["max"]):
        out.append(f"bidding.forced_bid: {b['forced_bid']} is outside the bids {b['min']}-{b['max']}")
    if s["revoke"]["setback"] == "points" and not s["revoke"]["points"]:
        out.append("revoke.points: setback = \"points\" needs how many points (revoke.points)")
    return out


def _jokers(n: int) -> tuple[Card, ...]:
    return {0: (), 1: ("JK",), 2: ("HJ", "LJ")}[n]


def _symbol_problem(sym: str, ranks: set[str], jokers: tuple[Card, ...]) -> str | None:
    if sym in JOKERS:
        if sym not in jokers:
            have = {0: "no jokers", 1: "one joker (JK)", 2: "two jokers (HJ, LJ)"}[len(jokers)]
            return f"{sym} is not in the deck (deck.jokers gives {have})"
        return None
    rank = sym[4:] if sym.startswith("off-") else sym
    if rank not in ranks:
        return f"{sym}: the deck has no {rank}s (deck.ranks)"
    return None


def _settings(data: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for sec, fields in SECTIONS.items():
        given = data.get(sec, {})
        out[sec] = {k: given.get(k, f.default) for k, f in fields.items()}
    return out


# ---------------------------------------------------------------------------
# Compiling




def symbol_card(sym: str, trump: Suit) -> Card:
    """A trump-order symbol as the card it is once trump is known."""
    if sym in JOKERS:
        return sym
    if sym.startswith("off-"):
        return sym[4:] + PARTNER_SUIT[trump]
    return sym + trump


def compile_ruleset(data: Mapping[str, Any], chain: tuple[str, ...] = ()) -> Ruleset:
    s = _settings(data)
    ranks = s["deck"]["ranks"]
    jokers = _jokers(s["deck"]["jokers"])
    deck = frozenset([r + su for su in SUITS for r in ranks] + list(jokers))
    points = []
    for pid, p in data.get("points", {}).items():
        if not p.get("enabled", True):
            continue
        d = {k: p.get(k, f.default) for k, f in POINT_FIELDS.items()}
        points.append(PointRule(
            id=pid, of=d["of"], value=d["value"], to=d["to"], card=d["card"],
            label=d["label"] or POINTS.get(pid, pid), skip=tuple(d["skip"]), apart=d["apart"],
            counts=dict(d["counts"]), need=d["need"], only_bidder=d["only_bidder"],
            card_values={c: d["counts"].get(c if c in JOKERS else c[:-1], 0) for c in deck},
            extra={k: p.get(k, f.default) for k, f in KINDS[d["of"]].fields.items()},
        ))
    views = {}
    rules = {p.id: p for p in points}
    order = s["trump"]["order"]
    plain = s["play"]["plain_order"]
    for trump in SUITS:
        strength = {}
        symbol = {}
        for i, sym in enumerate(order):
            c = symbol_card(sym, trump)
            strength[c] = len(order) - i
            symbol[c] = sym
        suit = {c: ("T" if c in strength else c[-1]) for c in deck}
        plain_strength = {c: len(plain) - plain.index(c[:-1]) for c in deck if c not in strength}
        point_card = {p.id: symbol_card(p.card, trump) for p in points if "card" in KINDS[p.of].keys}
        low_skip = frozenset(symbol_card(x, trump) for p in points if "skip" in KINDS[p.of].keys for x in p.skip)
        ranked = tuple(strength)  # the trump order's own: the highest first
        low_order = tuple(c for c in reversed(ranked) if c not in low_skip)
        words = {pid: card_words(rules[pid], c, symbol[c]) for pid, c in point_card.items()}
        views[trump] = TrumpView(trump, strength, suit, plain_strength, point_card, low_skip, symbol, ranked,
                                 low_order, words)
    known = {p: i for i, p in enumerate(POINT_IDS)}
    return Ruleset(
        name=str(data.get("name", "")), title=str(data.get("title", "")), source=str(data.get("source", "")),
        notes=tuple(data.get("notes", ())), settings=s, points=tuple(points), deck=deck, views=views,
        raw=dict(data), chain=chain,
        award_order=tuple(sorted(points, key=lambda p: known.get(p.id, len(known)))),
    )
