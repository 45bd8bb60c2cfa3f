"""The tournament file: TOML kept like a match log.

It is read and checked whole on every use (the file is the truth), and every write appends one
block of text - a round's seating or a table's result - under the log's lock with an atomic
replace, so a comment a person wrote survives, a crash leaves the old file or the new one, and
two organisers recording at once never lose a result. A correction is a new result block marked
`correction = true`: the file keeps what was first reported and what replaced it.
"""

from __future__ import annotations

import dataclasses
import os
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from pitchkeeper.errors import PitchError
from pitchkeeper.game import match, rulesets
from pitchkeeper.game.records import new_name
from pitchkeeper.logbook import loader, store, writing
from pitchkeeper.logbook.book import Stale
from pitchkeeper.logbook.versions import version_of
from pitchkeeper.tournament import model, seating
from pitchkeeper.tournament.model import Result, Round, Seating, Tournament, side_name

FORMAT_VERSION = 1


class naming:
    """`with naming(path):` - a PitchError raised inside names the tournament file (once)."""

    def __init__(self, path: Path) -> None:
        self.path = str(path)

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: object, e: BaseException | None, tb: object) -> None:
        if isinstance(e, PitchError) and type(e) is PitchError and not str(e).startswith(self.path):
            raise e.at(self.path) from None  # (Stale and its kind name the file already, and keep their kind)


def now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S")


KIND = "tournament file (start one with `pitchkeeper tournament new`)"


def load(path: str | Path) -> Tournament:
    """Read and check a tournament file; every problem is one PitchError naming the file and key."""
    return _read(Path(path))[1]


def reading(path: str | Path) -> tuple[str, Tournament]:
    """The file read once: its version (a digest of its bytes, as `Logbook.version`) and the tournament."""
    _text, t, _data, version = read_versioned(Path(path))
    return version, t


def version(path: str | Path) -> str:
    """The tournament file's version: it changes with every write, whoever wrote (a digest of the bytes)."""
    return version_of(store.read_bytes(Path(path), KIND))


def _read(p: Path) -> tuple[str, Tournament, dict[str, Any]]:
    """The file's text, the tournament, and the TOML table it was read from (read whole, every time)."""
    text, t, data, _version = read_versioned(p)
    return text, t, data


class Unreadable(PitchError):
    """The tournament file cannot be read, or fails its checks (mended by hand, say): whatever was to be
    written, nothing can be until the file is mended - not a fault of what was to be written."""


def unreadable(e: PitchError, p: Path) -> Unreadable:
    """`e`, found reading the file `p`, as the file's fault (named once)."""
    where = e.where if e.where and e.where.startswith(str(p)) else (f"{p}: {e.where}" if e.where else str(p))
    return Unreadable(e.message, where)


def read_versioned(p: Path, expect: str | None = None) -> tuple[str, Tournament, dict[str, Any], str]:
    """`_read`, with the version of the very bytes read; `Stale` (nothing parsed) when it is not `expect`;
    `Unreadable` when the file cannot be read or fails its checks."""
    try:
        raw = store.read_bytes(p, KIND)
    except PitchError as e:
        raise unreadable(e, p) from None
    now = version_of(raw)
    if expect is not None and now != expect:
        raise Stale("the tournament changed since this was read (another table, the organizer or the command line "
                    "wrote to it): nothing was written; look at it again", str(p), now)
    text, data, t = parse_bytes(raw, p)
    return text, t, data, now


def parse_bytes(raw: bytes, p: Path) -> tuple[str, dict[str, Any], Tournament]:
    """The file's bytes as its text, its TOML table and the tournament; `Unreadable` on any problem."""
    try:
        text = store.decoded(raw, p)
        data = store.parse_text(text, p, "")
        return text, data, model.parse(data)
    except PitchError as e:
        raise unreadable(e, p) from None


def parse(text: str, path: str | Path) -> Tournament:
    data = store.parse_text(text, path, "")
    try:
        return model.parse(data)
    except PitchError as e:
        raise e.at(str(path)) from None


def write_results(p: Path, text: str, done: Sequence[tuple[Result, Seating]]) -> str:
    """Append result blocks in one write, each checked to read back as the result meant."""
    new = text
    for res, seat in done:
        block = result_text(res, seat)
        entry = store.parse_text(block, p, "")["results"][0]
        if model.parse_scores(entry["scores"], entry["winner"], seat) != (res.scores, res.winner):
            raise AssertionError("a result block must read back as written")
        new = append_block(new, block)
    writing.write_atomic(p, new)
    return new


def header_text(t: Tournament, seed: str) -> str:
    v = writing.toml_value
    lines = [
        "# pitchkeeper tournament: the players, then one [[rounds]] block per round seated and one",
        "# [[results]] block per table reported. Check it after a change by hand with",
        "# `pitchkeeper tournament check FILE`.",
        f"format_version = {FORMAT_VERSION}",
        'kind = "tournament"',
    ]
    if t.title:
        lines.append(f"title = {v(t.title)}")
    lines += [
        f"rules = {v(t.rules)}",
        f"format = {v(t.format)}",
        f"rounds_planned = {t.planned}",
        f"table = {{ sides = {t.shape.sides}, size = {t.shape.size} }}",
        f"seed = {v(seed)}",
        *([f"tiebreak = {v(list(t.tiebreak))}"] if t.tiebreak else []),
        f"created = {v(now())}",
        f"players = {v(list(t.players))}",
    ]
    if t.teams:
        lines.append("teams = [")
        lines += [f"  {v(list(tm))}," for tm in t.teams]
        lines.append("]")
    return "\n".join(lines) + "\n"


def round_text(rnd: Round) -> str:
    v = writing.toml_value
    lines = ["[[rounds]]", f"round = {rnd.number}", f"seated = {v(now())}",
             f"sitting_out = {v(list(rnd.sitting_out))}", "tables = ["]
    lines += [f"  {{ table = {s.table}, sides = {v([list(x) for x in s.sides])} }}," for s in rnd.tables]
    lines.append("]")
    return "\n".join(lines) + "\n"


def result_text(res: Result, seat: Seating) -> str:
    v = writing.toml_value
    names = [side_name(s) for s in seat.sides]
    lines = ["[[results]]", f"round = {res.round}", f"table = {res.table}",
             f"scores = {v(dict(zip(names, res.scores, strict=True)))}", f"winner = {v(names[res.winner])}"]
    if res.match:
        lines.append(f"match = {v(res.match)}")
    if res.correction:
        lines.append("correction = true")
    if res.forfeit:
        lines.append("forfeit = true")
    lines.append(f"recorded = {v(now())}")
    return "\n".join(lines) + "\n"


def append_block(text: str, block: str) -> str:
    if text and not text.endswith("\n"):
        text += "\n"
    return text + "\n" + block


def create(path: str | Path, rules: str, fmt: str, players: Sequence[str], teams: Sequence[Sequence[str]] = (),
           rounds: int | None = None, seed: str = "order", title: str = "",
           ratings: Mapping[str, float] | None = None, tiebreak: Sequence[str] | str | None = None) -> Tournament:
    """Start a tournament file (refusing to replace one). With `ratings`, fixed teams (or players) are listed
    strongest first, which is the order Swiss pairs by before any result and breaks ties by. `tiebreak`: the
    figures the standings rank by, in order (default: the format's own, model.TIEBREAKS)."""
    p = Path(path)
    ruleset = rulesets.load(rules)
    names = tuple(x.strip() for x in players)
    team_list = tuple(tuple(x.strip() for x in tm) for tm in teams)
    for i, name in enumerate((*names, *(x for tm in team_list for x in tm)), 1):
        new_name(name, f"players[{i}]" if i <= len(names) else "--teams")  # each table's game log takes them
    if fmt != "progressive" and not team_list:
        team_list = tuple((n,) for n in names)  # individual play: each player is a side
    if team_list and not names:
        names = tuple(x for tm in team_list for x in tm)
    sizes = {len(tm) for tm in team_list}
    if len(sizes) > 1:
        raise PitchError("every team needs the same number of players", "--teams")
    with naming(p):
        shape = seating.shape_for(ruleset, fmt, sizes.pop() if sizes else None)
    if ratings is not None:
        strength = {tm: sum(ratings.get(x, 0.0) for x in tm) for tm in team_list}
        team_list = tuple(sorted(team_list, key=lambda tm: -strength[tm]))
        if not team_list:
            names = tuple(sorted(names, key=lambda x: -ratings.get(x, 0.0)))
    units = len(team_list) or len(names) // shape.seats
    planned = rounds if rounds is not None else seating.default_rounds(fmt, max(units, 2), shape)
    if rounds is not None and rounds < 1:
        raise PitchError("expected 1 or more", "--rounds")
    if fmt == "round-robin" and team_list:
        full = seating.default_rounds(fmt, len(team_list), shape)
        if planned > full:
            raise PitchError(f"a round robin of {len(team_list)} teams has {full} rounds", "--rounds")
    order = model.parse_tiebreak(list(tiebreak) if not isinstance(tiebreak, str) else tiebreak, "--tiebreak") \
        if tiebreak is not None else ()
    t = Tournament(rules, fmt, shape, names, team_list, planned, title=title, tiebreak=order)
    text = header_text(t, seed)
    checked = parse(text, p)  # what is written must read back: every check of the file applies to `new` too
    try:
        p.parent.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise PitchError(f"cannot create the folder: {e.strerror or e}", str(p.parent)) from None
    with writing.locked(p):
        if p.exists():
            raise PitchError("already exists; choose another file", str(p))
        writing.write_atomic(p, text)
    return checked


def seat(path: str | Path) -> tuple[Round, bool]:
    """Seat the next round when the current one is complete (written to the file); else the current round.
    Returns the round and whether it was seated now. A finished tournament shows its last round."""
    p = Path(path)
    t = load(p)
    cur = t.current
    if cur is not None and (not t.complete(cur) or len(t.rounds) >= t.planned or t.closed is not None):
        return cur, False
    with naming(p), writing.locked(p):
        text, t, data = _read(p)
        cur = t.current
        if cur is not None and (not t.complete(cur) or len(t.rounds) >= t.planned or t.closed is not None):
            return cur, False  # another organiser seated it a moment ago
        rnd = seating.next_round(t)
        write_round(p, text, data, rnd)
    return rnd, True


def write_round(p: Path, text: str, data: Mapping[str, Any], rnd: Round) -> None:
    """Append a seated round's block (under the file's lock, which the caller holds), checked to read back
    as seated."""
    block = round_text(rnd)
    after = {**data, "rounds": [*data.get("rounds", []), store.parse_text(block, p, "")["rounds"][0]]}
    try:
        if model.parse(after).rounds[-1] != rnd:
            raise AssertionError("a round block must read back as seated")
    except PitchError as e:
        raise AssertionError(f"a seated round must pass the file's checks: {e}") from None
    writing.write_atomic(p, append_block(text, block))


def parse_score_option(text: str) -> dict[str, int]:
    """`Ann&Cy=21,Bob&Dee=14` -> {"Ann&Cy": 21, "Bob&Dee": 14}."""
    out: dict[str, int] = {}
    for part in text.split(","):
        if not part.strip():
            continue
        side, eq, num = part.rpartition("=")
        if not eq or not side.strip():
            raise PitchError(f"expected SIDE=SCORE, such as Ann&Cy=21, got {part.strip()!r}", "--score")
        try:
            out[side.strip()] = int(num.strip())
        except ValueError:
            raise PitchError(f"{num.strip()!r} is not a whole number", f"--score {side.strip()}") from None
    if not out:
        raise PitchError("expected SIDE=SCORE,SIDE=SCORE", "--score")
    return out


class CannotHaveWon(PitchError):
    """A winner the ruleset makes impossible: its score has not come as far as the target, and no rule of the
    ruleset ends a game sooner. It keeps what the pages word it with (`side`, `score`, `rules`, `target`,
    `goal`: the score a game is won at, `down`: counting down)."""

    def __init__(self, side: str, score: int, rules: str, target: int, goal: int, down: bool, where: str) -> None:
        how = f"counts down from {target} and is won at {goal}" if down else f"is won at {goal}"
        then = (f"check {where} and --winner" if where.startswith("--") else
                "a game stopped before its end (by time, say) is the organizer's to declare forfeit")
        super().__init__(f"{side} cannot have won with {score}: {rules} {how}, and none of its rules ends a game "
                         f"sooner; {then}", where)
        self.side, self.score, self.rules, self.target, self.goal, self.down = side, score, rules, target, goal, down


def _winner(scores: tuple[int, ...], seat: Seating, winner: str | None, ruleset: rulesets.Ruleset,
            keys: tuple[str, str]) -> int:
    if winner is not None:
        return model.side_index(winner, seat, keys[1])
    target = ruleset.settings["win"]["target"]
    ahead = match.leaders(ruleset, target, scores)
    if len(ahead) > 1:
        names = [side_name(seat.sides[i]) for i in ahead]
        how = f"name it with {keys[1]}" if keys[1].startswith("--") else f'say which side won ("{keys[1]}": SIDE)'
        raise PitchError(f"a tie: {' and '.join(names)} both have {scores[ahead[0]]}, and a game "
                         f"of {ruleset.name} ends with one winner; {how}", keys[0])
    return ahead[0]


def check_won(ruleset: rulesets.Ruleset, seat: Seating, scores: tuple[int, ...], win: int, where: str) -> None:
    """Refuse a game played out whose winner the ruleset makes impossible (`CannotHaveWon`): one that has not
    come as far as the target (21, or 0 counting down), where no rule ends a game sooner (match.reported)."""
    if match.reported(ruleset, scores, win).possible:
        return
    target = ruleset.settings["win"]["target"]
    raise CannotHaveWon(" & ".join(seat.sides[win]), scores[win], ruleset.name, target,
                        match.shown(ruleset, target, target), ruleset.direction == "down", where)


def from_scores(t: Tournament, seat: Seating, scores: Mapping[str, int], winner: str | None,
                keys: tuple[str, str] = ("--score", "--winner"), *, played_out: bool = True) -> tuple[tuple[int, ...], int]:
    """Final scores entered by hand -> (scores in seating order, winning side). `keys`: how the front end
    names the scores and the winner (the CLI's options; the JSON's keys). A game `played_out` (not a forfeit)
    must have a winner the ruleset allows (`check_won`)."""
    by_side: dict[int, int] = {}
    for k, v in scores.items():
        i = model.side_index(k, seat, keys[0])
        if i in by_side:
            raise PitchError(f"{side_name(seat.sides[i])} is given two scores", keys[0])
        by_side[i] = v
    missing = [side_name(s) for i, s in enumerate(seat.sides) if i not in by_side]
    if missing:
        raise PitchError(f"no score for {', '.join(missing)} (seated at table {seat.table})", keys[0])
    ordered = tuple(by_side[i] for i in range(len(seat.sides)))
    ruleset = rulesets.load(t.rules)
    win = _winner(ordered, seat, winner, ruleset, keys)
    if played_out:
        check_won(ruleset, seat, ordered, win, keys[0])
    return ordered, win


def read_log(log: str | Path) -> tuple[Any, Any]:
    """A match log replayed: (its table, its state), through the one loader (the ruleset the log pins governs)."""
    loaded = loader.load(log, kind="match log")
    return loaded.record.table, loaded.replay()


def from_log(t: Tournament, seat: Seating, log: str | Path, table: Any = None, state: Any = None) -> tuple[tuple[int, ...], int]:
    """A table's match log -> (scores in seating order, winning side), after checking that its players are
    the ones seated at that table, in the same partnerships, and that the game is over."""
    if state is None:
        table, state = read_log(log)
    seated, playing = set(seat.players), set(table.players)
    if seated != playing:
        extra = sorted(playing - seated)
        absent = sorted(seated - playing)
        bits = ([f"{', '.join(extra)} not seated there"] if extra else []) + \
               ([f"{', '.join(absent)} missing"] if absent else [])
        raise PitchError(f"the log's players are not those seated at table {seat.table}: {'; '.join(bits)}",
                         f"{log}: players")
    if state.rules != rules_name(t):
        raise PitchError(f"played under {state.rules}, but the tournament plays {rules_name(t)}", f"{log}: rules")
    if state.winner is None:
        raise PitchError("the game is not over: no side has won yet", str(log))
    scores: dict[int, int] = {}
    for side in table.sides:
        members = table.members(side)
        for i, s in enumerate(seat.sides):
            if frozenset(s) == frozenset(members):
                scores[i] = state.scores[side]
                if side == state.winner:
                    win = i
                break
        else:
            raise PitchError(f"{side} ({' & '.join(members)}) is not a side seated at table {seat.table} "
                             f"(sides: {', '.join(side_name(s) for s in seat.sides)})", f"{log}: teams")
    return tuple(scores[i] for i in range(len(seat.sides))), win


def rules_name(t: Tournament) -> str:
    """The name of the tournament's ruleset (it may be given as a file)."""
    if not t.rules.endswith(".toml"):
        return t.rules

    return rulesets.load(t.rules).name


def log_ref(path: Path, log: str | Path) -> str:
    """The log's path as the tournament file keeps it: relative to the file's folder when below it."""
    rel = os.path.relpath(Path(log).resolve(), path.resolve().parent)
    return rel if not rel.startswith("..") else str(Path(log).resolve())


def _target(t: Tournament, table: int, rnd: int | None, force: bool) -> Seating:
    if not t.rounds:
        raise PitchError("no round has been seated yet: run `pitchkeeper tournament seat` first", "--table")
    number = rnd if rnd is not None else len(t.rounds)
    if not 0 < number <= len(t.rounds):
        raise PitchError(f"round {number} has not been seated (rounds 1-{len(t.rounds)})", "--round")
    seat = t.rounds[number - 1].table(table)
    if seat is None:
        raise PitchError(f"round {number} has tables 1-{len(t.rounds[number - 1].tables)}", "--table")
    if (number, table) in t.final and not force:
        raise PitchError(f"table {table} of round {number} is already recorded; to correct it, give --force",
                         "--table")
    if (number, table) not in t.final and force and number < len(t.rounds):
        raise PitchError(f"table {table} of round {number} has no result to correct", "--table")
    return seat


def record(path: str | Path, table: int, *, scores: Mapping[str, int] | None = None, winner: str | None = None,
           log: str | Path | None = None, rnd: int | None = None, force: bool = False) -> tuple[Tournament, Result]:
    """Record (or, with `force`, correct) one table's result from final scores or from its match log.

    Bad input writes nothing. A correction keeps every round already seated as it was seated (the
    players have sat down, and may have played); it changes every tally and standing after it, and
    the seating of rounds still to come.
    """
    t, results = record_many(path, [(table, scores, winner, log)], rnd=rnd, force=force)
    return t, results[0]


Entry = tuple[int, "Mapping[str, int] | None", "str | None", "str | Path | None"]  # table, scores, winner, log


def record_many(path: str | Path, entries: Sequence[Entry], *, rnd: int | None = None,
                force: bool = False) -> tuple[Tournament, list[Result]]:
    """Record several tables of one round at once (score sheets typed in a batch): all of them in one
    write, or none on any problem."""
    p = Path(path)
    for table, scores, _winner, log in entries:
        if (scores is None) == (log is None):
            raise PitchError(f"table {table}: give its match log (--match) or its final scores (--score)", "record")
    logs = {i: read_log(e[3]) for i, e in enumerate(entries) if e[3] is not None}  # outside the lock: replays
    with naming(p), writing.locked(p):
        text, t, _ = _read(p)
        number = rnd if rnd is not None else len(t.rounds)
        done: list[tuple[Result, Seating]] = []
        for i, (table, scores, winner, log) in enumerate(entries):
            seat = _target(t, table, rnd, force)
            if any(r.table == table for r, _ in done):
                raise PitchError(f"table {table} is given twice", "--table")
            if log is not None:
                ordered, win = from_log(t, seat, log, *logs[i])
                ref = log_ref(p, log)
            else:
                assert scores is not None
                ordered, win = from_scores(t, seat, scores, winner)
                ref = None
            done.append((Result(number, table, ordered, win, ref, (number, table) in t.final), seat))
        write_results(p, text, done)
    results = [r for r, _ in done]
    return dataclasses.replace(t, results=(*t.results, *results)), results


def record_folder(path: str | Path, folder: str | Path, force: bool = False) -> tuple[Tournament, list[Result]]:
    """Record the current round from a folder of match logs, one a table: all of them, or none on any problem."""
    p, f = Path(path), Path(folder)
    if not f.is_dir():
        raise PitchError("no such folder", str(folder))
    logs = sorted(x for x in f.glob("*.toml") if x.is_file() and not x.name.startswith("."))
    if not logs:
        raise PitchError("no match logs (*.toml) in this folder", str(folder))
    read = [(x, *read_log(x)) for x in logs]
    with naming(p), writing.locked(p):
        text, t, _ = _read(p)
        if not t.rounds:
            raise PitchError("no round has been seated yet: run `pitchkeeper tournament seat` first", str(p))
        cur = t.rounds[-1]
        by_players = {frozenset(s.players): s for s in cur.tables}
        taken: dict[int, Path] = {}
        results: list[tuple[Result, Seating]] = []
        for x, table, state in read:
            seat = by_players.get(frozenset(table.players))
            if seat is None:
                raise PitchError(f"its players ({', '.join(table.players)}) are not seated together at any table of "
                                 f"round {cur.number}", str(x))
            if seat.table in taken:
                raise PitchError(f"table {seat.table} again (already from {taken[seat.table].name})", str(x))
            taken[seat.table] = x
            _target(t, seat.table, None, force)
            ordered, win = from_log(t, seat, x, table, state)
            res = Result(cur.number, seat.table, ordered, win, log_ref(p, x), (cur.number, seat.table) in t.final)
            results.append((res, seat))
        write_results(p, text, results)
    done = [r for r, _ in results]
    return dataclasses.replace(t, results=(*t.results, *done)), done
