"""What the night's pages show, made from a snapshot of the tournament (web.night.Snap): the hall screen's
seating and standings (in pages and columns sized for a screen across a room), a table's seats and state,
the organizer's rounds. Nothing here computes a score or a rank: it arranges what the library computed.
"""

from __future__ import annotations

import math
from typing import Any

from pitchkeeper.tournament.model import Round, Seating, Tournament, side_name
from pitchkeeper.web import view

TABLES_A_PAGE = 10  # the hall's seating: a page of 10 tables at most (40 players at tables of four)
ROWS_A_COLUMN = 20  # the hall's standings: 20 lines a column, two columns a page (40 players)
ONE_COLUMN = 16  # up to this many lines, one column of larger type
BUCKETS = (4, 6, 8, 10, 12, 14, 16, 18, 20)  # line counts the stylesheet sizes type for (hall.css)
COMPASS = {2: ("North", "South"), 4: ("North", "East", "South", "West")}
CRITERIA_WORDS = {"points": "points", "wins": "wins", "head-to-head": "head-to-head", "opponents-wins":
                  "opponents' wins"}


def bucket(n: int) -> int:
    return next((b for b in BUCKETS if n <= b), BUCKETS[-1])


def pages(items: list[Any], size: int) -> list[list[Any]]:
    return [items[i:i + size] for i in range(0, len(items), size)] or [[]]


def title(t: Tournament) -> str:
    return t.title or f"{t.format} tournament ({t.rules})"


def where_words(seat: Seating, rnd: Round) -> str:
    if len(rnd.tables) == 1:
        return ""
    return "head table" if seat.table == 1 else "last table" if seat.table == len(rnd.tables) else ""


def seats(seat: Seating) -> list[dict[str, Any]]:
    """Who sits where, clockwise from North (partners across), with the side each sits on."""
    size = len(seat.sides[0])
    order = [(side[k], i) for k in range(size) for i, side in enumerate(seat.sides)]
    names = COMPASS.get(len(order)) or tuple(f"seat {k}" for k in range(1, len(order) + 1))
    return [{"seat": names[k], "name": p, "side": i} for k, (p, i) in enumerate(order)]


def tiebreak_words(order: list[str]) -> str:
    """`points, then wins, then head-to-head`."""
    return ", then ".join(CRITERIA_WORDS.get(c, c) for c in order)


def phase(snap: Any) -> str:
    """none (no round yet), seated (a round seated, no result yet), playing, complete (every table reported,
    the next round not seated yet), final (the night is over)."""
    t = snap.t
    cur = t.current
    if cur is None:
        return "none"
    if t.finished:
        return "final"
    if t.complete(cur):
        return "complete"
    return "playing" if snap.reported else "seated"


def table_rows(snap: Any) -> list[dict[str, Any]]:
    """The round being played, a line a table: its sides, and reported (the scores, the winner), kept hand by
    hand (the score as it stands) or still playing."""
    t = snap.t
    cur = t.current
    if cur is None:
        return []
    out = []
    for seat in cur.tables:
        res = t.final.get((cur.number, seat.table))
        game = snap.games.get(seat.table)
        row: dict[str, Any] = {"number": seat.table, "sides": [" & ".join(s) for s in seat.sides],
                               "names": [side_name(s) for s in seat.sides], "where": where_words(seat, cur),
                               "state": "reported" if res else "keeping" if game else "playing", "winner": None,
                               "scores": None, "hands": 0, "forfeit": False, "correction": False}
        if res is not None:
            row.update(scores=[view.number(v) for v in res.scores], winner=res.winner, forfeit=res.forfeit,
                       correction=res.correction)
        elif game is not None:
            row.update(scores=[view.number(game.scores.get(side_name(s), 0)) for s in seat.sides], hands=game.hands)
        out.append(row)
    return out


def standing_rows(snap: Any) -> tuple[str, list[dict[str, Any]]]:
    """The standings the hall shows (the teams' where the format has fixed teams of two or more, else the
    players'), each line with the table it plays at this round."""
    t = snap.t
    cur = t.current
    at: dict[str, int] = {}
    if cur is not None:
        for seat in cur.tables:
            for side in seat.sides:
                at[side_name(side)] = seat.table
                for p in side:
                    at[p] = seat.table
    kind = "teams" if "teams" in snap.standings else "players"
    rows = [{**r, "table": at.get(r["name"]), "shown": r["name"].replace("&", " & ")} for r in snap.standings[kind]]
    return kind, rows


def hall(snap: Any) -> dict[str, Any]:
    """The hall screen (a TV or a projector across a room, 1920 x 1080): the round's seating, which tables
    have reported, the standings; in pages that turn by themselves when they do not fit one screen."""
    t = snap.t
    cur = t.current
    tables = table_rows(snap)
    kind, rows = standing_rows(snap)
    cols = 1 if len(rows) <= ONE_COLUMN else 2
    per_page = ONE_COLUMN if cols == 1 else 2 * ROWS_A_COLUMN
    row_pages = pages(rows, per_page)
    lines = math.ceil(min(len(rows), per_page) / cols) if rows else 1
    seating_pages = pages(tables, TABLES_A_PAGE)
    return {
        "title": title(t), "round": cur.number if cur else 0, "planned": t.planned, "phase": phase(snap),
        "closed": t.closed is not None, "version": snap.version, "tables": tables, "seating_pages": seating_pages,
        "table_size": bucket(min(len(tables), TABLES_A_PAGE) or 1), "reported": len(snap.reported),
        "sitting_out": list(cur.sitting_out) if cur else [], "kind": kind, "row_pages": row_pages,
        "row_cols": cols, "row_lines": bucket(lines), "per_column": lines,
        "tiebreak": tiebreak_words(snap.standings.get("tiebreak", [])), "games": len(snap.games),
        "after": snap.standings["round"] if cur is None or not t.complete(cur) else cur.number,
        "counted": sum(1 for r in t.rounds if t.complete(r)),
    }


def table_view(snap: Any, table: int) -> dict[str, Any] | None:
    """A table's phone page: this round's seats, and its result or its game. None: no such table now."""
    t = snap.t
    cur = t.current
    seat = cur.table(table) if cur is not None else None
    if cur is None or seat is None:
        return None
    res = t.final.get((cur.number, table))
    game = snap.games.get(table)
    return {
        "title": title(t), "table": table, "round": cur.number, "planned": t.planned, "where": where_words(seat, cur),
        "seats": seats(seat), "sides": [{"index": i, "name": side_name(s), "words": " & ".join(s)}
                                        for i, s in enumerate(seat.sides)],
        "result": None if res is None else {
            "scores": [view.number(v) for v in res.scores], "winner": res.winner, "forfeit": res.forfeit,
            "correction": res.correction, "from_game": res.match is not None},
        "game": None if game is None else {"scores": [view.number(game.scores.get(side_name(s), 0)) for s in seat.sides],
                                           "hands": game.hands, "won": game.winner is not None},
        "closed": t.closed is not None, "version": snap.version, "phase": phase(snap),
        "key": f"r{cur.number}", "individual": len(seat.sides[0]) == 1,
    }


def organizer(snap: Any) -> dict[str, Any]:
    """The organizer's page: the round being played table by table, earlier rounds, what can be done next."""
    t = snap.t
    cur = t.current
    earlier = []
    for rnd in reversed(t.rounds[:-1]):
        lines = []
        for seat in rnd.tables:
            res = t.final[(rnd.number, seat.table)]
            lines.append({"number": seat.table, "sides": [" & ".join(s) for s in seat.sides],
                          "scores": [view.number(v) for v in res.scores], "winner": res.winner,
                          "forfeit": res.forfeit, "correction": res.correction})
        earlier.append({"round": rnd.number, "tables": lines})
    left = t.unrecorded(cur) if cur is not None else []
    return {
        "title": title(t), "round": cur.number if cur else 0, "planned": t.planned, "phase": phase(snap),
        "tables": table_rows(snap), "earlier": earlier, "left": left, "version": snap.version,
        "closed": t.closed is not None, "next": len(t.rounds) + 1,
        "can_seat": t.closed is None and len(t.rounds) < t.planned and not left,
        "can_close": t.closed is None and cur is not None and not left,
        "reported": len(snap.reported), "sitting_out": list(cur.sitting_out) if cur else [],
    }
