"""Rulesets as data: finding and reading them, `extends`, and the compiled form the engine reads.

The format is one table of field descriptions (game.settings: `SECTIONS`, `POINT_FIELDS`), which drives
the validator (game.validation: every problem at once, each with its TOML key), the defaults, and the
shipped JSON Schema (`python -m pitchkeeper.game.schema`), so they cannot drift apart. Both are
re-exported here. A variant is a TOML file; the engine only ever reads the compiled `Ruleset`.
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any, NamedTuple

from pitchkeeper.errors import PitchError, did_you_mean
from pitchkeeper.game.cards import JOKERS, PARTNER_SUIT, SUITS, Card, Suit
from pitchkeeper.game.kinds import KINDS, TRUMP_WINS, CardFinder, CardWin, PointKind, SideFinder, card_words
from pitchkeeper.game.points import POINT_IDS, POINTS
from pitchkeeper.game.settings import (
    COMMON_POINT_KEYS,
    FULL_TRUMP,
    POINT_FIELDS,
    SECTIONS,
    TOP_KEYS,
    TRUMP_SYMBOLS,
    F,
    point_fields,
    settings_of,
)
from pitchkeeper.game.validation import cited_keys, jokers_of, validate
from pitchkeeper.tomlfile import not_a_file, read_record

__all__ = ["COMMON_POINT_KEYS", "FULL_TRUMP", "POINT_FIELDS", "SECTIONS", "TOP_KEYS", "TRUMP_SYMBOLS", "F",
           "OverriddenNote", "PointRule", "Ruleset", "TrumpView", "check", "cited_keys", "compile_ruleset", "load",
           "load_layers", "load_merged", "point_fields", "validate"]

# ---------------------------------------------------------------------------
# The compiled form


def _checksum(data: Mapping[str, Any]) -> str:
    canonical = json.dumps(data, sort_keys=True, default=str).encode()
    return f"{zlib.crc32(canonical):08x}{zlib.adler32(canonical):08x}"


class OverriddenNote(NamedTuple):
    """A note of an extended ruleset that a later file overrode by changing a key the note cites: dropped
    when it cites nothing else, else kept and marked (`rules show` says which keys)."""

    text: str
    keys: tuple[str, ...]  # the cited keys the later file changed
    by: str  # that file
    dropped: bool


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
    natural: bool = False  # with of = lowest-trump: never a joker or an off-card as low
    tie: str = "nobody"  # with of = game: who a tie for the most goes to (nobody, bidder, elder)
    never_low: tuple[str, ...] = ()  # with of = lowest-trump: the trump symbols that never count as low (skip, natural)

    @property
    def kind(self) -> PointKind:
        """Its kind of point (game.kinds): how it is won, checked and worded."""
        return KINDS[self.of]

    def value_of(self, key: str) -> Any:
        """The value of any [points.ID] key, as the TOML would write it (defaults filled in)."""
        if key in self.extra:
            return self.extra[key]
        return {"of": self.of, "value": self.value, "to": self.to, "card": self.card, "label": self.label,
                "skip": list(self.skip), "apart": self.apart, "natural": self.natural, "counts": dict(self.counts),
                "tie": self.tie, "need": self.need, "only_bidder": self.only_bidder, "enabled": True}[key]


class PointEntry(NamedTuple):
    """A point as quick entry reads it: its rule, its place in the contract's order of awards (POINT_IDS, then
    any other point), its bit when it is always out (else 0), and whether only the bidding side may score it."""

    rule: PointRule
    value: int  # the rule's value
    rank: int
    always: int
    bidder_only: bool
    game: bool  # the point that counts game (its winner is game's)


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
    # a card's point: point id -> what wins it when it is in play (its card, and the card in words: "the jack of trumps")
    point_wins: Mapping[str, CardWin] = {}
    # effective suit ("T" for trump) -> the cards of the deck in it: what the follow rules are made of
    suit_cards: Mapping[str, frozenset[Card]] = {}
    # kinds.TRUMP_WINS word ("high", "low", "lone") -> trump -> what wins a point with it (the trump and that word)
    trump_wins: Mapping[str, Mapping[Card, CardWin]] = {}
    above_plain: int = 1  # 1 + the highest plain strength: what a trump's strength is added to in a trick (play.trick_rank)


class SettlePlan(NamedTuple):
    """The settings the settlement of every hand reads (settle, revoke, smudge, sale credit, direction),
    read from the ruleset once."""

    setback_bid: bool  # settle.setback = "bid": a side set back loses its bid
    defenders_score: bool  # settle.defenders_score
    revoke_setback: str  # revoke.setback: "none", "bid" or "points"
    revoke_points: int
    bidder_excused: bool
    offender_scores: bool
    counters: int  # revoke.counters: stake counters a revoke forfeits
    unit: str  # stakes.unit
    smudge_name: str  # bidding.smudge_name
    smudge_set: str  # smudge.set
    smudge_set_points: int
    smudge_made: str  # smudge.made
    smudge_made_points: int
    target: int  # win.target
    sale: bool  # bidding.sale_credit is not "none"
    down: bool  # scores count down (win.direction = down)


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
    # the notes of the rulesets it extends that a later file overrode (load_layers); a log's pinned copy has none
    overridden_notes: tuple[OverriddenNote, ...] = ()
    # the house-rule mechanisms it uses ("kitty", "draw", "partner", ...: FEATURES); empty for every built-in, so
    # the engine's steps for them cost nothing where they are absent
    features: frozenset[str] = frozenset()

    @cached_property
    def digest(self) -> str:
        """A fingerprint of the merged settings: pins a ruleset in a match log.

        It detects a changed ruleset, which is all pinning needs, so it is no security hash: two zlib
        checksums of the settings as canonical JSON (what every match log written so far pins).
        """
        return _checksum(self.raw)

    @cached_property
    def play_digest(self) -> str:
        """The digest of what decides a game: the settings without the words (notes, title, source). Two
        rulesets with the same play digest judge every hand alike (a log pinned before a note was added
        is the same game)."""
        return _checksum({k: v for k, v in self.raw.items() if k not in ("notes", "title", "source")})

    @property
    def direction(self) -> str:
        """"up" (from 0 to the target) or "down" (from the target to 0: win.direction)."""
        return str(self.settings["win"]["direction"])

    def calls_partner(self, players: int) -> bool:
        """Does a table of `players` call a partner each hand (partner.counts)? Only in individual play."""
        return players in self.settings["partner"]["counts"]

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
    def trump_only(self) -> bool:
        """Only trumps are played (play.follow = trump-only)."""
        return bool(self.settings["play"]["follow"] == "trump-only")

    @cached_property
    def finders(self) -> tuple[tuple[PointRule, str, int, CardFinder | None, SideFinder | None, bool], ...]:
        """Each point in award order, with its id and value, its kind's finder (of a card's point, or of a side's)
        and whether it goes to the player dealt its card (to = "dealt"), looked up once: what the engine asks of
        every hand."""
        return tuple((p, p.id, p.value, p.kind.card, p.kind.side, p.to == "dealt") for p in self.award_order)

    @cached_property
    def follow_plans(self) -> dict[tuple[Suit, str | None, bool], tuple[Any, ...]]:
        """(trump, lead, first lead) -> the follow rules' steps (game.play.follow_steps), made by game.play when
        first asked for and kept for the ruleset: they depend on nothing else."""
        return {}

    @cached_property
    def always_out(self) -> tuple[PointRule, ...]:
        """The points won in every hand (high; low unless a lone trump is high only or some trumps are never
        low): quick entry must say who won each."""
        return tuple(p for p in self.points if p.kind.always_out(p))

    @cached_property
    def entries(self) -> dict[str, PointEntry]:
        """Point id -> what quick entry checks of a point said won: looked up once per point entered."""
        known = {p: i for i, p in enumerate(POINT_IDS)}
        always = {p.id for p in self.always_out}
        return {p.id: PointEntry(p, p.value, known.get(p.id, len(known)), 1 << i if p.id in always else 0, p.kind.bidder_only(p),
                                 KINDS[p.of].game) for i, p in enumerate(self.points)}

    @cached_property
    def always_said(self) -> int:
        """The bits of PointEntry.always of every point always out: all must be said."""
        return sum(e.always for e in self.entries.values())

    @cached_property
    def settle_plan(self) -> SettlePlan:
        """What the settlement reads of the settings, looked up once."""
        s = self.settings
        st, rv, sm = s["settle"], s["revoke"], s["smudge"]
        return SettlePlan(st["setback"] == "bid", bool(st["defenders_score"]), rv["setback"], rv["points"],
                          bool(rv["bidder_excused"]), bool(rv["offender_scores"]), rv["counters"],
                          s["stakes"]["unit"], s["bidding"]["smudge_name"], sm["set"], sm["set_points"], sm["made"],
                          sm["made_points"], s["win"]["target"], s["bidding"]["sale_credit"] != "none",
                          "down" in self.features)

    @cached_property
    def plain_bids(self) -> frozenset[int]:
        """The bids in range that are worth what they say: neither the smudge's worth nor 0 (a pitch without
        a contract), so a hand that bids one needs no other check of its amount."""
        b = self.settings["bidding"]
        return frozenset(range(max(b["min"], 1), b["max"] + 1)) - {b["smudge"]}

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
        why = not_a_file(p)  # a pipe or device is there, not missing: said as such
        raise PitchError(f"ruleset file {ref} {why}" if why else f"ruleset file not found: {ref}")
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


def load_layers(ref: str, base: Path | None = None) -> tuple[dict[str, Any], list[Path], tuple[OverriddenNote, ...]]:
    """Read a ruleset and everything it extends, merged; the files read, base first; and the notes of the
    files extended that a later file overrode.

    A file that sets a key to a value other than the one merged so far overrides every earlier note citing
    that key (`cited_keys`; a note citing `points.ID` is overridden by any key of that point). A note whose
    every cited key was overridden is dropped; one with some is kept (and listed here, marked); a note
    citing nothing always stays. Only `notes` changes: no default is ever written into the merged data.
    """
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
    hit: dict[str, tuple[tuple[str, ...], str]] = {}  # note -> (the cited keys overridden, by which file)
    for layer, where in zip(reversed(layers), reversed(chain), strict=True):
        notes = merged.get("notes")
        if isinstance(notes, list) and notes:
            changed = _keys_changed(merged, layer)
            for note in notes:
                keys = tuple(k for k in cited_keys(str(note)) if _overridden(k, changed))
                if keys:
                    before = hit.get(note, ((), ""))[0]
                    hit[note] = (tuple(dict.fromkeys([*before, *keys])), str(where))
        merged = _merge(merged, layer)
    merged.pop("extends", None)
    if "name" not in layers[0]:
        merged["name"] = chain[0].stem
    chain.reverse()
    overridden = tuple(OverriddenNote(note, keys, by, set(keys) == set(cited_keys(str(note))))
                       for note, (keys, by) in hit.items())
    dropped = {o.text for o in overridden if o.dropped}
    if dropped:
        merged["notes"] = [n for n in merged["notes"] if n not in dropped]
    return merged, chain, overridden


def _keys_changed(merged: Mapping[str, Any], layer: Mapping[str, Any]) -> set[str]:
    """The keys (`bidding.min`, `points.low.to`) a layer sets to something other than the value merged
    so far (or, where nothing set it yet, its default)."""
    out = set()
    for sec, fields in SECTIONS.items():
        given = layer.get(sec)
        if not isinstance(given, Mapping):
            continue
        now: Mapping[str, Any] = merged[sec] if isinstance(merged.get(sec), Mapping) else {}
        for k, v in given.items():
            f = fields.get(k)
            if v != now.get(k, f.default if f is not None else None):
                out.add(f"{sec}.{k}")
    pts = layer.get("points")
    if isinstance(pts, Mapping):
        fields = point_fields()
        had: Mapping[str, Any] = merged["points"] if isinstance(merged.get("points"), Mapping) else {}
        for pid, table in pts.items():
            if not isinstance(table, Mapping):
                continue
            now = had[pid] if isinstance(had.get(pid), Mapping) else {}
            for k, v in table.items():
                f = fields.get(k)
                if v != now.get(k, f.default if f is not None else None):
                    out.add(f"points.{pid}.{k}")
    return out


def _overridden(key: str, changed: set[str]) -> bool:
    return key in changed or (key.startswith("points.") and key.count(".") == 1
                              and any(c.startswith(key + ".") for c in changed))


def load_merged(ref: str, base: Path | None = None) -> tuple[dict[str, Any], list[Path]]:
    """Read a ruleset and everything it extends, merged; the files read, base first (load_layers)."""
    merged, chain, _ = load_layers(ref, base)
    return merged, chain


def load(ref: str | Path) -> Ruleset:
    """Load and compile a ruleset; raise on the first problem (see `check` for all)."""
    ref = str(ref)
    merged, chain, overridden = load_layers(ref)
    problems = validate(merged)
    if problems:
        more = f" (and {len(problems) - 1} more problem(s); run 'pitchkeeper rules check {ref}')" if len(problems) > 1 else ""
        raise PitchError(problems[0] + more, str(chain[-1]))
    return compile_ruleset(merged, tuple(str(p) for p in chain), overridden)


def check(ref: str | Path) -> tuple[list[str], list[Path]]:
    """Every problem of a ruleset file, each naming its key; and the files read."""
    merged, chain = load_merged(str(ref))
    return validate(merged), chain


# ---------------------------------------------------------------------------
# Compiling

# The house-rule mechanisms a ruleset may use (Ruleset.features), each named for the setting that turns it on.
FEATURES = ("kitty", "draw", "partner", "smudge-rules", "instant", "down", "sets-out", "jokers-alike", "must-trump",
            "natural-low", "tie-rule", "set-and-win", "stop-short", "forced-exact")


def _features(s: Mapping[str, Mapping[str, Any]], points: tuple[PointRule, ...]) -> frozenset[str]:
    w = s["win"]
    on = {
        "kitty": s["kitty"]["size"] > 0,
        "draw": s["draw"]["discard"] != "none",
        "partner": bool(s["partner"]["counts"]),
        "smudge-rules": any(v != SECTIONS["smudge"][k].default for k, v in s["smudge"].items()),
        "instant": w["instant"] != "none",
        "down": w["direction"] == "down",
        "sets-out": w["sets_out"] > 0,
        "jokers-alike": s["trump"]["identical_jokers"] != "no",
        "must-trump": s["play"]["must_trump"],
        "natural-low": any(p.natural for p in points),
        "tie-rule": any(p.tie != "nobody" for p in points),
        "set-and-win": w["set_and_win"],
        "stop-short": w["defenders_stop_short"],
        "forced-exact": s["bidding"]["forced_exact"],
    }
    return frozenset(f for f in FEATURES if on[f])


def _never_low(p: Mapping[str, Any], order: list[str]) -> tuple[str, ...]:
    """The trump symbols a lowest-trump point never counts as low: its skip list, and with natural every
    joker and off-card of the trump order."""
    skip = list(p.get("skip", []))
    if p.get("natural", False):
        skip += [sym for sym in order if (sym in JOKERS or sym.startswith("off-")) and sym not in skip]
    return tuple(skip)


def symbol_card(sym: str, trump: Suit) -> Card:
    """A trump-order symbol as the card it is once trump is known."""
    if sym in JOKERS:
        return sym
    if sym.startswith("off-"):
        return sym[4:] + PARTNER_SUIT[trump]
    return sym + trump


def compile_ruleset(data: Mapping[str, Any], chain: tuple[str, ...] = (),
                    overridden: tuple[OverriddenNote, ...] = ()) -> Ruleset:
    s = settings_of(data)
    ranks = s["deck"]["ranks"]
    jokers = jokers_of(s["deck"]["jokers"])
    deck = frozenset([r + su for su in SUITS for r in ranks] + list(jokers))
    order = s["trump"]["order"]
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
            natural=d["natural"], tie=d["tie"],
            never_low=_never_low(p, order) if "skip" in KINDS[d["of"]].keys else (),
        ))
    views = {}
    rules = {p.id: p for p in points}
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
        low_skip = frozenset(symbol_card(x, trump) for p in points for x in p.never_low)
        ranked = tuple(strength)  # the trump order's own: the highest first
        low_order = tuple(c for c in reversed(ranked) if c not in low_skip)
        wins = {pid: CardWin(c, card_words(rules[pid], c, symbol[c])) for pid, c in point_card.items()}
        by_suit: dict[str, set[Card]] = {}
        for c in deck:
            by_suit.setdefault(suit[c], set()).add(c)
        views[trump] = TrumpView(trump, strength, suit, plain_strength, point_card, low_skip, symbol, ranked,
                                 low_order, wins, {s_: frozenset(cs) for s_, cs in by_suit.items()},
                                 {what: {c: CardWin(c, what) for c in ranked} for what in TRUMP_WINS},
                                 1 + max(plain_strength.values(), default=0))
    known = {p: i for i, p in enumerate(POINT_IDS)}
    return Ruleset(
        name=str(data.get("name", "")), title=str(data.get("title", "")), source=str(data.get("source", "")),
        notes=tuple(data.get("notes", ())), settings=s, points=tuple(points), deck=deck, views=views,
        raw=dict(data), chain=chain,
        award_order=tuple(sorted(points, key=lambda p: known.get(p.id, len(known)))),
        overridden_notes=overridden, features=_features(s, tuple(points)),
    )
