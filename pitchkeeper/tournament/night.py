"""A tournament night as the tables and the organizer write it (`serve --tournament`, spec section 8.1).

Each table reports its own result once, for the round being played; the organizer corrects one, declares
a table forfeit, seats the next round and closes the night. Every write is the file's (book): read,
checked and appended under the tournament file's lock with an atomic replace, so twenty tables reporting
at once lose nothing and record nothing twice; a write may name the version it was made against
(`expect`: `Stale`, nothing written, when the file changed since).

A table may keep its game hand by hand instead: a match log of that table and round, in a folder beside
the tournament file (`night-tables/round-2/table-3.toml` beside `night.toml`), created when the table
starts it (`start_game`); its result is reported from the log once the game is won (`report(log=...)`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pitchkeeper.errors import PitchError, shown
from pitchkeeper.logbook import writing
from pitchkeeper.logbook.book import Logbook, NotNext
from pitchkeeper.tournament import book, seating
from pitchkeeper.tournament.book import naming, read_versioned
from pitchkeeper.tournament.model import Result, Round, Seating, Tournament, side_name

KEYS = ("score", "winner")  # how a result's scores and winner are named here (the JSON interface's keys)
LARGEST_SCORE = 100_000


class Unreported(PitchError):
    """The round is still being played (a table has not reported): it cannot be followed or closed (409)."""


class Over(PitchError):
    """Every round planned has been played, or the night was closed: no round to seat (409)."""


class Duplicate(PitchError):
    """The table has reported already: a second result is refused (400); correcting is the organizer's."""


class OtherRound(PitchError):
    """A result for a table of another round than the one being played (400)."""


def result_words(seat: Seating, res: Result) -> str:
    """`Ann&Cy 21, Bob&Dee 14 (Ann&Cy won)`."""
    scores = ", ".join(f"{side_name(s)} {v}" for s, v in zip(seat.sides, res.scores, strict=True))
    return f"{scores} ({side_name(seat.sides[res.winner])} won{', by forfeit' if res.forfeit else ''})"


def _scores(v: Any) -> dict[str, int]:
    """`{"Ann&Cy": 21, "Bob&Dee": 14}`, checked for its JSON shape (whole numbers)."""
    if not isinstance(v, Mapping) or not v:
        raise PitchError("expected each side's final score, such as {\"Ann&Cy\": 21, \"Bob&Dee\": 14}", KEYS[0])
    out: dict[str, int] = {}
    for k, n in v.items():
        if isinstance(n, bool) or not isinstance(n, int) or abs(n) > LARGEST_SCORE:
            raise PitchError(f"expected a whole number, got {shown(repr(n))}", f"{KEYS[0]}.{shown(str(k))}")
        out[str(k)] = n
    return out


def _current(t: Tournament, table: int, rnd: int | None) -> tuple[Round, Seating]:
    """The round being played and the table's seat in it; a table of another round is refused."""
    if t.closed is not None:
        raise Over(f"the night was closed after round {t.closed}: results are corrected by the organizer")
    cur = t.current
    if cur is None:
        raise OtherRound("no round has been seated yet: the organizer seats round 1", "round")
    if rnd is not None and rnd != cur.number:
        when = "is over" if rnd < cur.number else "has not been seated"
        raise OtherRound(f"round {rnd} {when}: round {cur.number} is being played, and a table reports for it",
                         "round")
    seat = cur.table(table)
    if seat is None:
        raise OtherRound(f"round {cur.number} has tables 1-{len(cur.tables)}: there is no table {table}", "table")
    return cur, seat


def _log_scores(seat: Seating, log: Path) -> tuple[int, ...]:
    """The scores a table's game log stands at now (a game stopped before its end), in seating order."""
    table, state = book.read_log(log)
    out = [0] * len(seat.sides)
    for side in table.sides:
        members = frozenset(table.members(side))
        for i, s in enumerate(seat.sides):
            if frozenset(s) == members:
                out[i] = state.scores[side]
    return tuple(out)


def report(path: str | Path, table: int, scores: Mapping[str, Any] | None = None, winner: str | None = None, *,
           log: str | Path | None = None, rnd: int | None = None, expect: str | None = None, forfeit: bool = False,
           dry_run: bool = False) -> tuple[Tournament, Result]:
    """Table `table`'s result for the round being played (`rnd`, when given, must be it): final scores
    (and the winner where they tie, or where the rules let the lower score win), or its game log once the
    game is won. Refused, nothing written: a table that has reported (`Duplicate`), a table of another
    round (`OtherRound`), a side not seated there, a file changed since `expect` (`Stale`).

    `forfeit` (the organizer's): the table is declared forfeit - `winner` names the side credited with
    the game, and the scores are as given, or as the table's game log stands, or 0."""
    p = Path(path)
    given = _scores(scores) if scores is not None else None
    if forfeit and winner is None:
        raise PitchError("a forfeit names the side credited with the game", KEYS[1])
    if not forfeit and (given is None) == (log is None):
        raise PitchError("expected the final scores, {\"score\": {...}} (or the table's game log)", KEYS[0])
    read = book.read_log(log) if log is not None else None  # outside the lock: a replay
    with naming(p), writing.locked(p):
        text, t, _data, _now = read_versioned(p, expect)
        cur, seat = _current(t, table, rnd)
        if (cur.number, table) in t.final:
            done = t.final[(cur.number, table)]
            raise Duplicate(f"table {table} has reported round {cur.number} already: {result_words(seat, done)}; "
                            "a correction is the organizer's", "table")
        ref = None
        if read is not None and log is not None:
            ordered, win = book.from_log(t, seat, log, *read)
            ref = book.log_ref(p, log)
        elif given is not None:
            ordered, win = book.from_scores(t, seat, given, winner, KEYS, played_out=not forfeit)
        else:  # a forfeit with no scores: the game log's as it stands, or nothing
            kept = game_log(p, cur.number, table)
            ordered = _log_scores(seat, kept) if kept.exists() else (0,) * len(seat.sides)
            win = book.from_scores(t, seat, {side_name(s): v for s, v in zip(seat.sides, ordered, strict=True)},
                                   winner, KEYS, played_out=False)[1]
        res = Result(cur.number, table, ordered, win, ref, False, forfeit)
        if not dry_run:
            book.write_results(p, text, [(res, seat)])
    return dataclasses.replace(t, results=(*t.results, res)), res


def correct(path: str | Path, table: int, rnd: int, scores: Mapping[str, Any], winner: str | None = None, *,
            expect: str | None = None, forfeit: bool = False, dry_run: bool = False) -> tuple[Tournament, Result]:
    """The organizer's correction of table `table`'s result in round `rnd` (a new result block, marked
    `correction = true`: the file keeps what was reported and what replaced it). Rounds already seated stay
    as seated; every standing after it, and the seating of rounds to come, follow it."""
    p = Path(path)
    given = _scores(scores)
    with naming(p), writing.locked(p):
        text, t, _data, _now = read_versioned(p, expect)
        if not 0 < rnd <= len(t.rounds):
            raise OtherRound(f"round {rnd} has not been seated (rounds 1-{len(t.rounds)})", "round")
        seat = t.rounds[rnd - 1].table(table)
        if seat is None:
            raise OtherRound(f"round {rnd} has tables 1-{len(t.rounds[rnd - 1].tables)}: there is no table {table}",
                             "table")
        if (rnd, table) not in t.final:
            raise PitchError(f"table {table} of round {rnd} has not reported yet: there is nothing to correct",
                             "table")
        was = t.final[(rnd, table)]
        ordered, win = book.from_scores(t, seat, given, winner, KEYS, played_out=not (forfeit or was.forfeit))
        res = Result(rnd, table, ordered, win, None, True, forfeit)
        if not dry_run:
            book.write_results(p, text, [(res, seat)])
    return dataclasses.replace(t, results=(*t.results, res)), res


def _unreported(t: Tournament, what: str) -> None:
    cur = t.current
    if cur is not None and not t.complete(cur):
        left = ", ".join(map(str, t.unrecorded(cur)))
        raise Unreported(f"round {cur.number} is still being played: table(s) {left} have not reported (declare a "
                         f"table forfeit to {what} without it)")


def seat_next(path: str | Path, *, number: int | None = None, expect: str | None = None) -> tuple[Tournament, Round]:
    """Seat the next round, once every table of this one has reported (`Unreported` before). `number`: the
    round the caller means to seat - `NotNext` when it is not the next one (two organizers tapping at once
    seat one round)."""
    p = Path(path)
    with naming(p), writing.locked(p):
        text, t, data, _now = read_versioned(p, expect)
        n = len(t.rounds) + 1
        if number is not None and number != n:
            said = f"round {number} is seated already" if number < n else f"round {number} is not the next round"
            raise NotNext(f"{said}: the next round to seat is round {n}", "round")
        if t.closed is not None:
            raise Over(f"the night was closed after round {t.closed}")
        _unreported(t, "seat the next round")
        if len(t.rounds) >= t.planned:
            raise Over(f"all {t.planned} round(s) have been played: close the night")
        rnd = seating.next_round(t)
        book.write_round(p, text, data, rnd)
    return dataclasses.replace(t, rounds=(*t.rounds, rnd)), rnd


def close(path: str | Path, *, expect: str | None = None) -> Tournament:
    """Close the night after the round being played (every table reported): the standings are final."""
    p = Path(path)
    with naming(p), writing.locked(p):
        text, t, _data, _now = read_versioned(p, expect)
        if t.closed is not None:
            raise Over(f"the night was closed after round {t.closed} already")
        if not t.rounds:
            raise Unreported("no round has been played: there is nothing to close")
        _unreported(t, "close the night")
        block = f"[closed]\nround = {len(t.rounds)}\nat = {writing.toml_value(book.now())}\n"
        new = book.append_block(text, block)
        closed = book.parse(new, p)  # what is written must read back
        writing.write_atomic(p, new)
    return closed


# ---------------------------------------------------------------------------
# a table's game, kept hand by hand


def game_log(path: str | Path, rnd: int, table: int) -> Path:
    """Where table `table` keeps its game of round `rnd`: beside the tournament file, in `<name>-tables/`."""
    p = Path(path)
    return p.parent / f"{p.stem}-tables" / f"round-{rnd}" / f"table-{table}.toml"


def clockwise(seat: Seating) -> list[str]:
    """A table's players in seating order: partners across (the first of each side, then the second ...)."""
    size = len(seat.sides[0])
    return [side[k] for k in range(size) for side in seat.sides]


def start_game(path: str | Path, table: int, *, rnd: int | None = None) -> Path:
    """The match log of table `table`'s game this round, made now if the table has not started one (two
    phones starting it at once make one). Refused for a table that has reported or of another round."""
    p = Path(path)
    with naming(p):
        _version, t = book.reading(p)
        cur, seat = _current(t, table, rnd)
        if (cur.number, table) in t.final:
            raise Duplicate(f"table {table} has reported round {cur.number} already: "
                            f"{result_words(seat, t.final[(cur.number, table)])}", "table")
    log = game_log(p, cur.number, table)
    if log.exists():
        return log
    teams = {" & ".join(s): list(s) for s in seat.sides} if len(seat.sides[0]) > 1 else {}
    title = f"{t.title or 'tournament'}: round {cur.number}, table {table}"
    try:
        Logbook.create(log, t.rules, clockwise(seat), teams, title=title)
    except PitchError:
        if log.exists():  # another phone started it a moment ago
            return log
        raise
    return log


def games(path: str | Path, t: Tournament) -> dict[int, Path]:
    """The current round's tables that keep their game hand by hand: table -> its log."""
    cur = t.current
    if cur is None:
        return {}
    out = {}
    for seat in cur.tables:
        log = game_log(path, cur.number, seat.table)
        if log.exists():
            out[seat.table] = log
    return out
