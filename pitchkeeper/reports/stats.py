"""Statistics across match logs: bids made and set, points per hand, who takes which point, games won.

Everything is derived from the replayed logs (the files are the truth). Reading many logs
returns the broken ones as values (file, message) next to the good ones, as a ledger checker
does, so one bad file never hides the others; the CLI decides what to print and the exit code.
"""

from __future__ import annotations

import datetime
import json
import os
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from pitchkeeper.errors import PitchError
from pitchkeeper.game import rulesets
from pitchkeeper.game.records import HAND_KEYS, POINT_IDS
from pitchkeeper.logbook import loader, store
from pitchkeeper.logbook.pool import in_order

if TYPE_CHECKING:
    from pitchkeeper.game.match import MatchState
    from pitchkeeper.game.rulesets import Ruleset

# Columns and leaders follow the records contract's point ids (records.POINT_IDS); a ruleset's own
# point ids come after, alphabetically.

# ---------------------------------------------------------------------------
# Reading logs


def find_logs(root: Path) -> list[Path]:
    """Every *.toml file below the data folder (match logs live in it; other files are skipped on read),
    but none in its cache folder (derived state)."""
    return [Path(p) for p in find_log_paths(root)]


def find_log_paths(root: Path) -> list[str]:
    """`find_logs` as strings, in the same order (the log index takes 10,000 of them without making Paths)."""

    if not root.is_dir():
        return []
    found = []
    skip = os.path.join(root, "cache")
    for folder, dirs, names in os.walk(root):  # as Path.rglob: symlinked folders are not entered
        if folder == str(root):
            dirs[:] = [d for d in dirs if os.path.join(folder, d) != skip]
        for name in names:
            if name.endswith(".toml") and not name.startswith("."):
                p = os.path.join(folder, name)
                if os.path.isfile(p):
                    found.append(p)
    found.sort(key=lambda p: p.split(os.sep))  # the order of Path objects (by their parts)
    return found


def looks_like_match(data: Mapping[str, Any]) -> bool:
    """A match log has [[hands]], or a table header without the keys of a single hand.

    Used only when scanning the data folder, where ruleset files or notes may sit beside the logs.
    """
    if data.get("kind") == "tournament":
        return False
    if "hands" in data:
        return True
    return "players" in data and not any(k in data for k in HAND_KEYS)


class RulesetCache:
    """Rulesets loaded once per reference: a thousand logs of one variant compile it once."""

    def __init__(self, loaded: dict[str, Ruleset] | None = None) -> None:
        self.loaded: dict[str, Ruleset] = {} if loaded is None else loaded

    def __repr__(self) -> str:
        return f"RulesetCache(loaded={self.loaded!r})"

    def get(self, ref: str) -> Ruleset:

        key = str(Path(ref).resolve()) if ref.endswith(".toml") else ref
        r = self.loaded.get(key)
        if r is None:
            r = self.loaded[key] = rulesets.load(ref)
        return r


class Read(NamedTuple):
    """One file's outcome: a match's figures, a file that is not a match log, or a problem."""

    path: Path
    figures: MatchFigures | None = None
    error: str | None = None  # one line naming the file
    skipped: bool = False


def read_match(path: Path, cache: RulesetCache, scanning: bool = False) -> Read:
    """Read, replay and sum up one log. With `scanning`, a TOML file that is no match log is skipped quietly."""

    try:
        text = store.read_text(path, "file")
        data = store.parse_text(text, path, "")
        if scanning and not looks_like_match(data):
            return Read(path, skipped=True)
        state = loader.load(path, text, load_ruleset=cache.get, kind="file", data=data).replay()  # the pinned ruleset
    except PitchError as e:
        return Read(path, error=str(e))
    return Read(path, figures=figures(state, date_of(data, path)))


_worker_cache: RulesetCache | None = None


def _read_chunk(chunk: list[tuple[Path, bool]]) -> list[Read]:
    global _worker_cache
    if _worker_cache is None:
        _worker_cache = RulesetCache()
    return [read_match(p, _worker_cache, scanning) for p, scanning in chunk]


def read_many(files: list[tuple[Path, bool]], workers: int | None = None,
              progress: Callable[[int], None] | None = None) -> list[Read]:
    """Every (path, scanning) read in order, a large set over worker processes (logbook.pool); each
    returns small MatchFigures rather than whole replays, to keep what crosses the process boundary
    small. `progress` is told how many files were read, as they are (a front end draws it)."""
    global _worker_cache

    _worker_cache = None  # a fresh ruleset cache for each reading, in this process and in the forked workers
    return in_order(_read_chunk, files, workers, progress)


# ---------------------------------------------------------------------------
# Tallies


class Line(NamedTuple):
    """The figures of one player or one team (a partnership: the same players, whatever it was called)."""

    name: str
    members: tuple[str, ...]
    names: tuple[str, ...]  # team names used for this partnership (a player: their own name)
    matches: int  # logs they sat in
    finished: int  # of those, games that have a winner
    won: int
    hands: int
    bids: int  # contracts won with a bid (pitching without a bid is counted apart)
    made: int
    set: int
    pitched: int  # pitched without a contract (bid 0)
    bid_total: int  # sum of the bids' worth (a smudge at the ruleset's value)
    taken: int  # points won in play by their side, over their hands
    scored: int  # net score change of their side (sets count against)
    points: dict[str, int]  # point id -> how often they won it
    own: int = 0  # points won by this player by name (a player line), in matches that record it
    own_hands: int = 0  # the hands of those matches
    partnered: int = 0  # hands this player was called as the bidder's partner (call your partner)
    partner_made: int = 0  # of those, hands the bid was made
    alone: int = 0  # hands this player bid and played alone (nobody else held the card called)

    @property
    def own_per_hand(self) -> float | None:
        """Points a player won himself per hand (his partner's not counted); None where no match
        recorded who won each point by player (entered by team)."""
        return round(self.own / self.own_hands, 2) if self.own_hands else None

    @property
    def average_bid(self) -> float | None:
        return round(self.bid_total / self.bids, 2) if self.bids else None

    @property
    def points_per_hand(self) -> float | None:
        return round(self.taken / self.hands, 2) if self.hands else None

    @property
    def made_rate(self) -> float | None:
        return round(self.made / self.bids, 3) if self.bids else None

    def to_json(self, order: tuple[str, ...] = ()) -> dict[str, Any]:
        """The figures; `points` listed in `order` (the usual order of point ids) where given."""
        points = {p: self.points[p] for p in order if p in self.points} | self.points
        return {"name": self.name, "members": list(self.members), "names": list(self.names),
                "matches": self.matches, "finished": self.finished, "won": self.won, "hands": self.hands,
                "bids": self.bids, "made": self.made, "set": self.set, "pitched": self.pitched,
                "average_bid": self.average_bid, "made_rate": self.made_rate, "taken": self.taken,
                "points_per_hand": self.points_per_hand, "own_points": self.own,
                "own_points_per_hand": self.own_per_hand, "scored": self.scored, "points": points,
                "partnered": self.partnered, "partner_made": self.partner_made, "alone": self.alone}


class Stats(NamedTuple):
    matches: int
    finished: int
    hands: int
    players: tuple[Line, ...]
    teams: tuple[Line, ...]
    point_ids: tuple[str, ...]  # every point id seen, in the usual order

    def leaders(self, lines: tuple[Line, ...]) -> dict[str, dict[str, Any]]:
        """Point id -> who won it most often (ties listed together) and how often."""
        out: dict[str, dict[str, Any]] = {}
        for pid in self.point_ids:
            top = max((ln.points.get(pid, 0) for ln in lines), default=0)
            if top:
                out[pid] = {"count": top, "who": [ln.name for ln in lines if ln.points.get(pid, 0) == top]}
        return out

    def set_most(self) -> dict[str, Any] | None:
        """The player set most often (ties together), with how often and in what share of their bids."""
        top = max((ln.set for ln in self.players), default=0)
        if not top:
            return None
        who = [ln for ln in self.players if ln.set == top]
        return {"who": [ln.name for ln in who], "set": top,
                "of_bids": {ln.name: ln.bids for ln in who}}

    def best_partnership(self) -> dict[str, Any] | None:
        """The partnership with the best share of finished games won (then points per hand)."""
        played = [ln for ln in self.teams if ln.finished]
        if not played:
            return None
        best = max(played, key=lambda ln: (ln.won / ln.finished, ln.points_per_hand or 0.0, ln.finished))
        return {"name": best.name, "members": list(best.members), "won": best.won, "finished": best.finished,
                "won_rate": round(best.won / best.finished, 3), "points_per_hand": best.points_per_hand}

    def to_json(self) -> dict[str, Any]:
        return {"matches": self.matches, "finished": self.finished, "hands": self.hands,
                "players": [ln.to_json(self.point_ids) for ln in self.players],
                "teams": [ln.to_json(self.point_ids) for ln in self.teams],
                "most_often": {"players": self.leaders(self.players), "teams": self.leaders(self.teams)},
                "set_most": self.set_most(), "best_partnership": self.best_partnership()}


class MatchFigures(NamedTuple):
    """One match summed up: all that the tallies need, small enough to send between processes.

    Counts are keyed by player name and by side name (a team, or the player in individual play).
    """

    players: tuple[str, ...]
    teams: tuple[tuple[str, tuple[str, ...]], ...]  # () in individual play
    hands: int
    winner: str | None  # a side; None while the game goes on
    finished: bool
    taken: dict[str, int]  # side -> points won in play, over the match
    scored: dict[str, int]  # side -> net score change
    bids: dict[str, tuple[int, int, int, int, int]]  # player -> (bids, made, set, pitched, sum of bids)
    player_points: dict[str, dict[str, int]]  # player -> point id -> times won
    side_points: dict[str, dict[str, int]]  # side -> point id -> times won
    rules: str = ""  # the ruleset's name (for --rules)
    date: str = ""  # YYYY-MM-DD the match began (its `created`, else the file's date; for --since/--until)
    player_taken: dict[str, int] | None = None  # player -> points won by name; None: not recorded per player
    # call your partner: player -> (hands called as partner, of those made, hands bid and played alone)
    partners: dict[str, tuple[int, int, int]] | None = None


def date_of(data: Mapping[str, Any], path: Path) -> str:
    """The day a match began: its `created` key, else the day the file was last written."""

    c = data.get("created")
    if isinstance(c, str) and len(c) >= 10:
        return c[:10]
    if isinstance(c, (datetime.date, datetime.datetime)):
        return c.isoformat()[:10]
    try:
        return datetime.date.fromtimestamp(path.stat().st_mtime).isoformat()
    except OSError:
        return ""


def day(text: str, where: str) -> str:
    """A --since/--until value: YYYY-MM-DD (a day), checked."""

    try:
        return datetime.date.fromisoformat(text.strip()).isoformat()
    except ValueError:
        raise PitchError(f"expected a day as YYYY-MM-DD, such as 2026-11-23, got {text!r}", where) from None


def keep(figs: Iterable[MatchFigures], rules: str | None = None, since: str | None = None,
         until: str | None = None) -> list[MatchFigures]:
    """The matches of one ruleset and/or begun within [since, until] (days, both included)."""
    return [f for f in figs if (rules is None or f.rules == rules) and (since is None or f.date >= since)
            and (until is None or (f.date and f.date <= until))]


def figures(state: MatchState, date: str = "") -> MatchFigures:
    """The figures of one replayed match (match.MatchState).

    A point counts for a player when the record says which player won it (captured or dealt
    cards keyed by player, tricks, or quick entry naming the player; in individual play the
    side is the player); quick entry by team name counts for the team only. Where a partner is called
    (the hand's sides are not the table's), a point a hand side won as a whole (game) is no one player's.
    """
    table = state.table
    sides = table.sides
    taken = dict.fromkeys(sides, 0)
    scored = dict.fromkeys(sides, 0)
    bids: dict[str, list[int]] = {}
    player_points: dict[str, dict[str, int]] = {}
    side_points: dict[str, dict[str, int]] = {}
    individual = not table.teams
    player_taken: dict[str, int] = dict.fromkeys(table.players, 0)
    by_player = individual
    partners: dict[str, list[int]] = {}
    for h in state.hands:
        v = h.verdict
        if v.bid.team is not None:  # a called partner: the bidding side of this hand only
            if v.bid.partner:
                pt = partners.setdefault(v.bid.partner, [0, 0, 0])
                pt[0] += 1
                pt[1] += int(v.bid.made)
            else:
                partners.setdefault(v.bid.player, [0, 0, 0])[2] += 1
        for s in sides:
            taken[s] += v.taken[s]
            scored[s] += v.delta[s]
        b = bids.setdefault(v.bid.player, [0, 0, 0, 0, 0])
        if v.bid.amount == 0:
            b[3] += 1
        else:
            b[0] += 1
            b[1 if v.bid.made else 2] += 1
            b[4] += v.bid.amount
        for a in v.awards:
            who = a.player if a.player is not None else (a.side if individual and a.side in taken else None)
            if who is not None:
                by_player = by_player or a.player is not None
                player_taken[who] = player_taken.get(who, 0) + a.value
                pp = player_points.setdefault(who, {})
                pp[a.point] = pp.get(a.point, 0) + 1
            if a.side in taken:  # a side of the table (not a hand's own side, "Ann+Cy")
                sp = side_points.setdefault(a.side, {})
                sp[a.point] = sp.get(a.point, 0) + 1
    return MatchFigures(tuple(table.players), tuple(table.teams or ()), len(state.hands), state.winner,
                        state.ending is not None, taken, scored, {p: tuple(b) for p, b in bids.items()},  # type: ignore[misc]
                        player_points, side_points, state.rules, date, player_taken if by_player else None,
                        {p: (c[0], c[1], c[2]) for p, c in partners.items()} or None)


def tally(states: Iterable[MatchState]) -> Stats:
    """Figures per player and per team over replayed matches (match.MatchState)."""
    return merge(figures(st) for st in states)


def merge(all_figures: Iterable[MatchFigures]) -> Stats:
    """Per player and per partnership across matches (a partnership: the same players, whatever its name)."""
    return total(grouped(record(f) for f in all_figures))


# A match's part in the tallies is a layout and a row of sums (what the log index stores per log):
#   layout: [players, [[team, members (sorted)], ...], point ids]; JSON of it: equal for every match of
#           the same table under the same points, so thousands of logs share a few dozen layouts
#   sums:   [hands, finished, then for each player and then each team: LINE_SUMS, then the times it
#           won each point id of the layout]
# The matches of one layout add up column by column (in C: sum() over a slice), the index's query
# hands over each layout's rows in one string; `total` then reads each layout once.
LINE_SUMS = ("won", "bids", "made", "set", "pitched", "bid_total", "taken", "scored", "own", "own_hands",
             "partnered", "partner_made", "alone")
_RANK = {p: i for i, p in enumerate(POINT_IDS)}


def _ranked(ids: Iterable[str]) -> list[str]:
    """Point ids in the usual order (the contract's first, then a ruleset's own, alphabetically)."""
    return sorted(ids, key=lambda p: (_RANK.get(p, len(_RANK)), p))


def record(f: MatchFigures, point_ids: Iterable[str] = ()) -> tuple[list[Any], list[int]]:
    """One match's (layout, sums): see LINE_SUMS. `point_ids`: its ruleset's, so that every match of one table
    under one ruleset has one layout (without them, the points won in this match)."""
    seen: dict[str, None] = dict.fromkeys(point_ids)
    for pts in f.player_points.values():
        seen.update(dict.fromkeys(pts))
    if f.teams:
        for pts in f.side_points.values():
            seen.update(dict.fromkeys(pts))
    ids = _ranked(seen)
    side_of = {p: t for t, members in f.teams for p in members}
    team_bids: dict[str, list[int]] = {t: [0, 0, 0, 0, 0] for t, _ in f.teams}
    sums = [f.hands, int(f.finished)]
    for p in f.players:
        side = side_of.get(p, p)
        b = f.bids.get(p, (0, 0, 0, 0, 0))
        if f.teams and p in f.bids:
            tb = team_bids[side]
            for i in range(5):
                tb[i] += b[i]
        own, own_hands = (0, 0) if f.player_taken is None else (f.player_taken.get(p, 0), f.hands)
        pts = f.player_points.get(p, {})
        called = (f.partners or {}).get(p, (0, 0, 0))
        sums += [int(f.winner == side), *b, f.taken[side], f.scored[side], own, own_hands, *called,
                 *[pts.get(i, 0) for i in ids]]
    for t, _members in f.teams:
        pts = f.side_points.get(t, {})
        sums += [int(f.winner == t), *team_bids[t], f.taken[t], f.scored[t], 0, 0, 0, 0, 0,
                 *[pts.get(i, 0) for i in ids]]
    return [list(f.players), [[t, sorted(m)] for t, m in f.teams], ids], sums


def width(layout: list[Any]) -> int:
    """How many sums a match of this layout has."""
    players, teams, ids = layout
    return 2 + (len(players) + len(teams)) * (len(LINE_SUMS) + len(ids))


def grouped(records: Iterable[tuple[list[Any], list[int]]]) -> list[tuple[list[Any], int, list[int]]]:
    """Records (`record`) added up per layout: (layout, matches, sums), in the order each layout first came."""

    rows: dict[str, tuple[list[Any], list[int]]] = {}
    for layout, sums in records:
        key = json.dumps(layout)
        got = rows.get(key)
        if got is None:
            rows[key] = (layout, list(sums))
        else:
            got[1].extend(sums)
    return [(layout, len(flat) // width(layout), column_sums(flat, width(layout))) for layout, flat in rows.values()]


def column_sums(flat: list[int], n: int) -> list[int]:
    """The sums of rows of `n` numbers laid end to end."""
    return [sum(flat[i::n]) for i in range(n)]


def total(groups: Iterable[tuple[list[Any], int, list[int]]]) -> Stats:
    """Per player and per partnership across matches added up per layout (`grouped`, or the log index's
    query), in the order the layouts first came (which orders a partnership's names, and equal names).

    A club that mixes its tables has as many layouts as logs: each line's numbers are then laid end to
    end per (player or partnership, point ids) and summed by column once at the end, not added one by one.
    """
    n = len(LINE_SUMS)
    # name (a player) or members (a partnership) -> point ids -> rows of [matches, finished, hands, *LINE_SUMS,
    # times won each point id], laid end to end
    players: dict[str, dict[tuple[str, ...], list[int]]] = {}
    teams: dict[tuple[str, ...], dict[tuple[str, ...], list[int]]] = {}
    names: dict[tuple[str, ...], dict[str, None]] = {}
    n_matches = n_finished = n_hands = 0
    for (pnames, tlist, id_list), matches, sums in groups:
        hands, finished = sums[0], sums[1]
        n_matches += matches
        n_hands += hands
        n_finished += finished
        head = [matches, finished, hands]
        ids = tuple(id_list)
        step = n + len(ids)
        at = 2
        for p in pnames:
            by_ids = players.get(p)
            if by_ids is None:
                by_ids = players[p] = {}
            _add(by_ids, ids, head + sums[at:at + step])
            at += step
        for t, members in tlist:
            key = tuple(members)
            by_ids = teams.get(key)
            if by_ids is None:
                by_ids = teams[key] = {}
                names[key] = {t: None}
            else:
                names[key][t] = None
            _add(by_ids, ids, head + sums[at:at + step])
            at += step
    player_lines = [_line(p, (p,), (p,), by_ids) for p, by_ids in players.items()]
    team_lines = [_line(_team_name(k, names[k]), k, tuple(names[k]), by_ids) for k, by_ids in teams.items()]
    seen: dict[str, None] = {}
    for ln in (*player_lines, *team_lines):
        seen.update(dict.fromkeys(ln.points))
    return Stats(n_matches, n_finished, n_hands, tuple(sorted(player_lines, key=lambda ln: ln.name.lower())),
                 tuple(sorted(team_lines, key=lambda ln: ln.name.lower())), tuple(_ranked(seen)))


def _add(by_ids: dict[tuple[str, ...], list[int]], ids: tuple[str, ...], row: list[int]) -> None:
    """Keep one more row of figures for these point ids: the rows are laid end to end in one list, and
    `_line` sums them column by column."""
    flat = by_ids.get(ids)
    if flat is None:
        by_ids[ids] = row
    else:
        flat += row


def _line(name: str, members: tuple[str, ...], names: tuple[str, ...], by_ids: dict[tuple[str, ...], list[int]]) -> Line:
    n = 3 + len(LINE_SUMS)
    points: dict[str, int] = {}
    if len(by_ids) == 1:  # one set of point ids (a partnership that sat once, say): no adding across sets
        ((ids, flat),) = by_ids.items()
        cols = flat if len(flat) == n + len(ids) else column_sums(flat, n + len(ids))
        acc = cols[:n]
        for pid, times in zip(ids, cols[n:], strict=True):
            if times:
                points[pid] = times
    else:
        acc = [0] * n
        for ids, flat in by_ids.items():
            cols = column_sums(flat, n + len(ids))
            for i in range(n):
                acc[i] += cols[i]
            for pid, times in zip(ids, cols[n:], strict=True):
                if times:
                    points[pid] = points.get(pid, 0) + times
    (matches, finished, hands, won, bids, made, set_, pitched, bid_total, taken, scored, own, own_hands, partnered,
     partner_made, alone) = acc
    return Line(name, members, names, matches, finished, won, hands, bids, made, set_, pitched, bid_total, taken,
                scored, points, own, own_hands, partnered, partner_made, alone)


def _team_name(members: tuple[str, ...], names: Iterable[str]) -> str:
    """'Us (Ann & Cy)': the partnership's name(s) and its players, so two 'Us' never merge."""
    return f"{'/'.join(names)} ({', '.join(members)})"
