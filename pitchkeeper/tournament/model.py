"""A tournament as data: who plays, how tables are shaped, each round's seating and results.

Everything here is frozen and derived from the tournament file (the truth): standings, tallies
and the next round's seating are computed from it each time, so a corrected result re-ranks
everything after it without any stored total to fix.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, NamedTuple

from pitchkeeper.errors import PitchError, did_you_mean, or_list, unknown_key
from pitchkeeper.game.records import _text

FORMATS = ("progressive", "round-robin", "swiss")
FILE_KEYS = ("format_version", "kind", "title", "rules", "format", "rounds_planned", "table", "players", "teams",
             "seed", "tiebreak", "created", "rounds", "results", "closed", "note")
ROUND_KEYS = ("round", "tables", "sitting_out", "seated", "note")
RESULT_KEYS = ("round", "table", "scores", "winner", "match", "recorded", "correction", "forfeit", "note")
CLOSED_KEYS = ("round", "at", "note")

# How ties are broken, in order after the first figure (docs/tournaments.md, "Standings"): the figures a
# line is ranked by. `head-to-head` counts the games the tied players won against one another, only where
# every two of them met; `opponents-wins` adds up the wins of everyone each one played against.
CRITERIA = ("points", "wins", "head-to-head", "opponents-wins")
TIEBREAKS: dict[str, tuple[str, ...]] = {
    "progressive": ("points", "wins", "head-to-head"),
    "round-robin": ("wins", "points", "head-to-head"),
    "swiss": ("wins", "points", "opponents-wins", "head-to-head"),
}


def side_name(side: tuple[str, ...]) -> str:
    """A side's (or fixed team's) name: its players joined by '&', as the contract's `--score` writes it."""
    return "&".join(side)


# The small records are NamedTuples (they are compared and unpacked as tuples); the two that hold
# the others are frozen dataclasses.
class Shape(NamedTuple):
    """A table: `sides` sides of `size` players each (size 1: individual play)."""

    sides: int
    size: int

    @property
    def seats(self) -> int:
        return self.sides * self.size


class Seating(NamedTuple):
    table: int  # 1 is the head table
    sides: tuple[tuple[str, ...], ...]

    @property
    def players(self) -> tuple[str, ...]:
        return tuple(p for s in self.sides for p in s)

    def to_json(self) -> dict[str, Any]:
        return {"table": self.table, "sides": [list(s) for s in self.sides]}


@dataclass(frozen=True)
class Round:
    number: int
    tables: tuple[Seating, ...]
    sitting_out: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"round": self.number, "tables": [t.to_json() for t in self.tables], "sitting_out": list(self.sitting_out)}

    def table(self, number: int) -> Seating | None:
        return self.tables[number - 1] if 0 < number <= len(self.tables) else None


class Result(NamedTuple):
    """One table's game: final scores per side (in seating order) and the winning side's index."""

    round: int
    table: int
    scores: tuple[int, ...]
    winner: int
    match: str | None = None
    correction: bool = False
    forfeit: bool = False  # declared by the organizer: the game was not played out


@dataclass(frozen=True)
class Tournament:
    rules: str
    format: str
    shape: Shape
    players: tuple[str, ...]
    teams: tuple[tuple[str, ...], ...]  # fixed teams in seed order; () when partners change (progressive)
    planned: int  # rounds
    rounds: tuple[Round, ...] = ()
    results: tuple[Result, ...] = ()  # as written, corrections included
    title: str = ""
    extra: Mapping[str, Any] = field(default_factory=dict)
    tiebreak: tuple[str, ...] = ()  # as the file sets it; () = the format's own order (TIEBREAKS)
    closed: int | None = None  # the night was closed after this many rounds

    @property
    def table_count(self) -> int:
        """Tables a round seats: as seated, or as the players (or teams) fill them."""
        if self.rounds:
            return max(len(r.tables) for r in self.rounds)
        return len(self.teams) // self.shape.sides if self.teams else len(self.players) // self.shape.seats

    @property
    def order(self) -> tuple[str, ...]:
        """The figures the standings rank by, in order: the file's `tiebreak`, or the format's own."""
        return self.tiebreak or TIEBREAKS[self.format]

    @cached_property
    def final(self) -> dict[tuple[int, int], Result]:
        """(round, table) -> the result that counts: a correction supersedes what it corrects."""
        out: dict[tuple[int, int], Result] = {}
        for r in self.results:
            out[(r.round, r.table)] = r
        return out

    @property
    def current(self) -> Round | None:
        return self.rounds[-1] if self.rounds else None

    def complete(self, rnd: Round) -> bool:
        return all((rnd.number, s.table) in self.final for s in rnd.tables)

    def unrecorded(self, rnd: Round) -> list[int]:
        return [s.table for s in rnd.tables if (rnd.number, s.table) not in self.final]

    @property
    def finished(self) -> bool:
        """Every round planned played - or the night closed early by the organizer."""
        return (len(self.rounds) >= self.planned or self.closed is not None) and all(
            self.complete(r) for r in self.rounds)

    def sat_out(self, upto: int | None = None) -> dict[str, int]:
        """Player -> rounds sat out so far (through round `upto`)."""
        counts = dict.fromkeys(self.players, 0)
        for r in self.rounds[:upto]:
            for p in r.sitting_out:
                counts[p] += 1
        return counts


# ---------------------------------------------------------------------------
# Reading a tournament table (as tomllib gives it); every error names its key


def _int(v: Any, where: str, low: int | None = None) -> int:
    if not isinstance(v, int) or isinstance(v, bool) or (low is not None and v < low):
        raise PitchError(f"expected a whole number{f' of {low} or more' if low is not None else ''}, got {v!r}", where)
    return v


_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")  # Unicode category Cc


def _names(v: Any, where: str) -> tuple[str, ...]:
    """A list of names, each checked as every record checks a name (records._text), the common case fast."""
    if not isinstance(v, list):
        raise PitchError("expected a list of player names", where)
    out = []
    for i, p in enumerate(v):
        if not isinstance(p, str) or not p.strip() or _CONTROL.search(p):
            _text(p, f"{where}[{i + 1}]")  # raises, with the usual words
        out.append(p.strip())
    return tuple(out)


def _player(name: str, players: frozenset[str] | tuple[str, ...], where: str) -> str:
    if name not in players:
        raise PitchError(f"{name!r} is not a player of this tournament{did_you_mean(name, players)}", where)
    return name


def parse(data: Mapping[str, Any]) -> Tournament:
    """A tournament file's table, checked: seating, results and their order must all hold together."""
    for k in data:
        if k not in FILE_KEYS:
            raise unknown_key(k, FILE_KEYS, k)
    if data.get("kind", "tournament") != "tournament":
        raise PitchError("expected kind = \"tournament\"", "kind")
    rules = data.get("rules")
    if not isinstance(rules, str) or not rules:
        raise PitchError("missing: the ruleset, rules = \"partnership-pitch\"", "rules")
    fmt = data.get("format")
    if fmt not in FORMATS:
        raise PitchError(f"expected {or_list(FORMATS)}, got {fmt!r}{did_you_mean(str(fmt), FORMATS)}", "format")
    shape_raw = data.get("table")
    if not isinstance(shape_raw, Mapping) or set(shape_raw) != {"sides", "size"}:
        raise PitchError("expected { sides = 2, size = 2 }: sides at a table, players a side", "table")
    shape = Shape(_int(shape_raw["sides"], "table.sides", 2), _int(shape_raw["size"], "table.size", 1))
    players = _names(data.get("players"), "players")
    if len(players) < shape.seats:
        raise PitchError(f"{len(players)} players cannot fill a table of {shape.seats}", "players")
    dup = [p for p in players if players.count(p) > 1]
    if dup:
        raise PitchError(f"{dup[0]!r} is listed twice", "players")
    for i, p in enumerate(players, 1):
        if "&" in p or "," in p:
            raise PitchError(f"{p!r}: a name may not hold '&' or ',' (they join partners and separate sides)",
                             f"players[{i}]")
    teams_raw = data.get("teams", [])
    if not isinstance(teams_raw, list):
        raise PitchError("expected a list of teams, each a list of its players", "teams")
    teams = tuple(_names(t, f"teams[{i + 1}]") for i, t in enumerate(teams_raw))
    if fmt == "progressive" and teams:
        raise PitchError("progressive partners change every round: a progressive tournament has no fixed teams",
                         "teams")
    if fmt != "progressive":
        if not teams:
            raise PitchError(f"a {fmt} tournament plays fixed teams (one player each in individual play)", "teams")
        seen: set[str] = set()
        for i, t in enumerate(teams, 1):
            if len(t) != shape.size:
                raise PitchError(f"expected {shape.size} player(s), got {len(t)}", f"teams[{i}]")
            for p in t:
                _player(p, players, f"teams[{i}]")
                if p in seen:
                    raise PitchError(f"{p} is in two teams", f"teams[{i}]")
                seen.add(p)
        left = [p for p in players if p not in seen]
        if left:
            raise PitchError(f"{', '.join(left)} in no team", "teams")
        if len(teams) < shape.sides:
            raise PitchError(f"{len(teams)} teams cannot fill a table of {shape.sides} sides", "teams")
    planned = _int(data.get("rounds_planned"), "rounds_planned", 1)
    title = data.get("title", "")
    if not isinstance(title, str):
        raise PitchError("expected text", "title")
    tiebreak = parse_tiebreak(data.get("tiebreak"), "tiebreak") if "tiebreak" in data else ()
    partial = Tournament(rules, fmt, shape, players, teams, planned, title=title,
                         extra={k: data[k] for k in ("seed", "created", "note", "format_version") if k in data})
    rounds = _rounds(data.get("rounds", []), partial)
    results = _results(data.get("results", []), partial, rounds)
    closed = _closed(data["closed"], rounds) if "closed" in data else None
    out = Tournament(rules, fmt, shape, players, teams, planned, rounds, results, title, partial.extra, tiebreak,
                     closed)
    if closed is not None and rounds and not out.complete(rounds[-1]):
        missing = ", ".join(map(str, out.unrecorded(rounds[-1])))
        raise PitchError(f"the night was closed before table(s) {missing} of round {len(rounds)} reported", "closed")
    return out


def parse_tiebreak(v: Any, where: str) -> tuple[str, ...]:
    """`["points", "wins", "head-to-head"]`: the figures the standings rank by, in order, each once."""
    if isinstance(v, str):
        v = [x.strip() for x in v.split(",") if x.strip()]
    if not isinstance(v, list) or not v:
        raise PitchError(f"expected a list of {or_list(CRITERIA)}, in order, such as [\"points\", \"wins\"]", where)
    out: list[str] = []
    for i, c in enumerate(v, 1):
        if c not in CRITERIA:
            raise PitchError(f"expected {or_list(CRITERIA)}, got {c!r}{did_you_mean(str(c), CRITERIA)}",
                             f"{where}[{i}]")
        if c in out:
            raise PitchError(f"{c} is given twice", f"{where}[{i}]")
        out.append(c)
    return tuple(out)


def _table(v: Any, keys: Sequence[str], expected: str, where: str) -> None:
    """A table of the file, with no key it does not know (the unknown one named, with its place)."""
    if not isinstance(v, Mapping):
        raise PitchError(expected, where)
    for k in v:
        if k not in keys:
            raise unknown_key(k, keys, f"{where}.{k}")


def _closed(v: Any, rounds: tuple[Round, ...]) -> int:
    """`[closed] round = 3, at = "..."`: the organizer closed the night after round 3 (the last seated)."""
    _table(v, CLOSED_KEYS, "expected a [closed] table: round = N, at = \"...\"", "closed")
    n = _int(v.get("round"), "closed.round", 0)
    if n != len(rounds):
        raise PitchError(f"the night was closed after round {n}, but {len(rounds)} round(s) are seated", "closed.round")
    return n


def _rounds(raw: Any, t: Tournament) -> tuple[Round, ...]:
    if not isinstance(raw, list):
        raise PitchError("expected [[rounds]] tables", "rounds")
    team_of = {frozenset(tm): tm for tm in t.teams}
    everyone = frozenset(t.players)
    out = []
    for i, r in enumerate(raw, 1):
        w = f"rounds[{i}]"
        _table(r, ROUND_KEYS, "expected a [[rounds]] table", w)
        if _int(r.get("round"), f"{w}.round") != i:
            raise PitchError(f"expected round = {i} (rounds are numbered in order from 1)", f"{w}.round")
        if i > t.planned:
            raise PitchError(f"the tournament plans {t.planned} round(s)", f"{w}.round")
        tables_raw = r.get("tables")
        if not isinstance(tables_raw, list) or not tables_raw:
            raise PitchError("expected a list of tables, { table = 1, sides = [[...], [...]] }", f"{w}.tables")
        seen: dict[str, str] = {}
        tables = []
        for j, tb in enumerate(tables_raw, 1):
            tw = f"{w}.tables[{j}]"
            if not isinstance(tb, Mapping) or set(tb) != {"table", "sides"}:
                raise PitchError("expected { table = N, sides = [[...], ...] }", tw)
            if _int(tb["table"], f"{tw}.table") != j:
                raise PitchError(f"expected table = {j} (tables are numbered from the head table, 1)", f"{tw}.table")
            sides_raw = tb["sides"]
            if not isinstance(sides_raw, list) or len(sides_raw) != t.shape.sides:
                raise PitchError(f"expected {t.shape.sides} sides", f"{tw}.sides")
            sides = []
            for k, s in enumerate(sides_raw, 1):
                side = _names(s, f"{tw}.sides[{k}]")
                if len(side) != t.shape.size:
                    raise PitchError(f"expected {t.shape.size} player(s) a side", f"{tw}.sides[{k}]")
                for p in side:
                    if p not in everyone:
                        _player(p, t.players, f"{tw}.sides[{k}]")
                    if p in seen:
                        raise PitchError(f"{p} is seated twice in this round ({seen[p]})", f"{tw}.sides[{k}]")
                    seen[p] = f"table {j}"
                if t.teams and frozenset(side) not in team_of:
                    raise PitchError(f"{side_name(side)} is not one of the fixed teams", f"{tw}.sides[{k}]")
                sides.append(side)
            tables.append(Seating(j, tuple(sides)))
        out_raw = r.get("sitting_out", [])
        sitting = _names(out_raw, f"{w}.sitting_out")
        for p in sitting:
            _player(p, t.players, f"{w}.sitting_out")
            if p in seen:
                raise PitchError(f"{p} is seated ({seen[p]}) and sitting out", f"{w}.sitting_out")
            seen[p] = "sitting out"
        missing = [p for p in t.players if p not in seen]
        if missing:
            raise PitchError(f"{', '.join(missing)} neither seated nor sitting out", w)
        out.append(Round(i, tuple(tables), sitting))
    return tuple(out)


def _results(raw: Any, t: Tournament, rounds: tuple[Round, ...]) -> tuple[Result, ...]:
    if not isinstance(raw, list):
        raise PitchError("expected [[results]] tables", "results")
    out: list[Result] = []
    done: set[tuple[int, int]] = set()
    for i, r in enumerate(raw, 1):
        w = f"results[{i}]"
        _table(r, RESULT_KEYS, "expected a [[results]] table", w)
        n = _int(r.get("round"), f"{w}.round", 1)
        if n > len(rounds):
            raise PitchError(f"round {n} has not been seated", f"{w}.round")
        rnd = rounds[n - 1]
        seat = rnd.table(_int(r.get("table"), f"{w}.table", 1))
        if seat is None:
            raise PitchError(f"round {n} has tables 1-{len(rnd.tables)}", f"{w}.table")
        scores, winner = parse_scores(r.get("scores"), r.get("winner"), seat, f"{w}.")
        correction = r.get("correction", False)
        if not isinstance(correction, bool):
            raise PitchError("expected true or false", f"{w}.correction")
        key = (n, seat.table)
        if key in done and not correction:
            raise PitchError(f"table {seat.table} of round {n} is recorded twice (a later result that corrects it "
                             "says correction = true)", w)
        if key not in done and correction:
            raise PitchError(f"corrects table {seat.table} of round {n}, which has no result yet", f"{w}.correction")
        match = r.get("match")
        if match is not None and not isinstance(match, str):
            raise PitchError("expected the path of the table's match log", f"{w}.match")
        forfeit = r.get("forfeit", False)
        if not isinstance(forfeit, bool):
            raise PitchError("expected true or false", f"{w}.forfeit")
        done.add(key)
        out.append(Result(n, seat.table, scores, winner, match, correction, forfeit))
    for rnd in rounds[:-1]:
        missing = [s.table for s in rnd.tables if (rnd.number, s.table) not in done]
        if missing:
            raise PitchError(f"round {rnd.number + 1} was seated before table(s) {', '.join(map(str, missing))} of "
                             f"round {rnd.number} reported", f"rounds[{rnd.number + 1}]")
    return tuple(out)


def parse_scores(scores: Any, winner: Any, seat: Seating, where: str = "") -> tuple[tuple[int, ...], int]:
    """`{ "Ann&Cy" = 21, "Bob&Dee" = 14 }` (and the winner's side name) -> scores in seating order, winner index."""
    names = [side_name(s) for s in seat.sides]
    if not isinstance(scores, Mapping):
        raise PitchError(f"expected {{ {', '.join(f'{n!r} = ...' for n in names)} }}", f"{where}scores")
    got: dict[int, int] = {}
    for k, v in scores.items():
        idx = side_index(str(k), seat, f"{where}scores")
        if idx in got:
            raise PitchError(f"{names[idx]} is given two scores", f"{where}scores")
        got[idx] = _int(v, f"{where}scores.{k}")
    missing = [names[i] for i in range(len(names)) if i not in got]
    if missing:
        raise PitchError(f"no score for {', '.join(missing)} (seated at table {seat.table})", f"{where}scores")
    ordered = tuple(got[i] for i in range(len(names)))
    if winner is None:
        raise PitchError("missing: the winning side", f"{where}winner")
    if not isinstance(winner, str):
        raise PitchError("expected a side's name", f"{where}winner")
    return ordered, side_index(winner, seat, f"{where}winner")


def side_index(name: str, seat: Seating, where: str) -> int:
    """Which side of a table `name` means: its players joined by '&', in any order (spaces ignored)."""
    want = frozenset(p.strip() for p in name.split("&"))
    for i, s in enumerate(seat.sides):
        if frozenset(s) == want:
            return i
    seated = [side_name(s) for s in seat.sides]
    strangers = sorted(p for p in want if p not in seat.players)
    why = (f"{', '.join(strangers)} not seated at table {seat.table}" if strangers
           else f"not a side at table {seat.table}")
    raise PitchError(f"{name!r}: {why} (sides: {', '.join(seated)}){did_you_mean(name, seated)}", where)
