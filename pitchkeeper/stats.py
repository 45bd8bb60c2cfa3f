"""Statistics across match logs: bids made and set, points per hand, who takes which point, games won.

Everything is derived from the replayed logs (the files are the truth). Reading many logs
returns the broken ones as values (file, message) next to the good ones, as a ledger checker
does, so one bad file never hides the others; the CLI decides what to print and the exit code.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pitchkeeper.errors import PitchError
from pitchkeeper.records import HAND_KEYS

# The records contract's point ids in its order (section 3): columns and leaders follow it; a
# ruleset's own point ids come after, alphabetically.
SPEC_POINT_IDS = ("high", "low", "jack", "off-jack", "high-joker", "low-joker", "joker", "game", "ace", "off-ace",
                  "ten", "three", "off-three", "five", "deuce", "all-tricks")

# ---------------------------------------------------------------------------
# Reading logs


def find_logs(root: Path) -> list[Path]:
    """Every *.toml file below the data folder (match logs live in it; other files are skipped on read)."""
    if not root.is_dir():
        return []
    return sorted(p for p in root.rglob("*.toml") if p.is_file() and not p.name.startswith("."))


def looks_like_match(data: Mapping[str, Any]) -> bool:
    """A match log has [[hands]], or a table header without the keys of a single hand.

    Used only when scanning the data folder, where ruleset files or notes may sit beside the logs.
    """
    if "hands" in data:
        return True
    return "players" in data and not any(k in data for k in HAND_KEYS)


@dataclass
class RulesetCache:
    """Rulesets loaded once per reference: a thousand logs of one variant compile it once."""

    loaded: dict[str, Any] = field(default_factory=dict)

    def get(self, ref: str) -> Any:
        from pitchkeeper import rulesets

        key = str(Path(ref).resolve()) if ref.endswith(".toml") else ref
        r = self.loaded.get(key)
        if r is None:
            r = self.loaded[key] = rulesets.load(ref)
        return r


@dataclass(frozen=True, slots=True)
class Read:
    """One file's outcome: a replayed match, a file that is not a match log, or a problem."""

    path: Path
    state: Any = None  # match.MatchState
    error: str | None = None  # one line naming the file
    skipped: bool = False


def read_match(path: Path, cache: RulesetCache, scanning: bool = False) -> Read:
    """Read and replay one log. With `scanning`, a TOML file that is no match log is skipped quietly."""
    from pitchkeeper import match, store

    try:
        data = store.read_record(path)
        if scanning and not looks_like_match(data):
            return Read(path, skipped=True)
        try:
            ruleset = cache.get(store.rules_ref(data, path, None))
            state = match.replay(ruleset, match.parse_match(data))
        except PitchError as e:
            raise e.at(str(path)) if not str(e).startswith(str(path)) else e from None
    except PitchError as e:
        return Read(path, error=str(e))
    return Read(path, state=state)


def read_all(paths: Iterable[Path], scanning: bool = False) -> Iterator[Read]:
    cache = RulesetCache()
    for p in paths:
        yield read_match(p, cache, scanning)


# ---------------------------------------------------------------------------
# Tallies


@dataclass(frozen=True)
class Line:
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
                "points_per_hand": self.points_per_hand, "scored": self.scored, "points": points}


@dataclass(frozen=True)
class Stats:
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

    def to_json(self) -> dict[str, Any]:
        return {"matches": self.matches, "finished": self.finished, "hands": self.hands,
                "players": [ln.to_json(self.point_ids) for ln in self.players],
                "teams": [ln.to_json(self.point_ids) for ln in self.teams],
                "most_often": {"players": self.leaders(self.players), "teams": self.leaders(self.teams)}}


class _Acc:
    """Mutable running sums for one Line while tallying (frozen into a Line at the end)."""

    __slots__ = ("bid_total", "bids", "finished", "hands", "made", "matches", "members", "names", "pitched",
                 "points", "scored", "set", "taken", "won")

    def __init__(self, members: tuple[str, ...]) -> None:
        self.members = members
        self.names: dict[str, None] = {}
        self.matches = self.finished = self.won = self.hands = 0
        self.bids = self.made = self.set = self.pitched = self.bid_total = self.taken = self.scored = 0
        self.points: dict[str, int] = {}

    def bid(self, b: Any) -> None:
        if b.amount == 0:
            self.pitched += 1
            return
        self.bids += 1
        self.bid_total += b.amount
        if b.made:
            self.made += 1
        else:
            self.set += 1

    def freeze(self, name: str) -> Line:
        return Line(name, self.members, tuple(self.names), self.matches, self.finished, self.won, self.hands,
                    self.bids, self.made, self.set, self.pitched, self.bid_total, self.taken, self.scored,
                    dict(self.points))


def tally(states: Iterable[Any]) -> Stats:
    """Figures per player and per team over replayed matches (match.MatchState).

    A point counts for a player when the record says which player won it (captured or dealt
    cards keyed by player, tricks, or quick entry naming the player; in individual play the
    side is the player); quick entry by team name counts for the team only.
    """
    players: dict[str, _Acc] = {}
    teams: dict[tuple[str, ...], _Acc] = {}
    seen_points: dict[str, None] = {}
    n_matches = n_finished = n_hands = 0
    for st in states:
        table = st.table
        n_matches += 1
        n_hands += len(st.hands)
        finished = st.ending is not None
        n_finished += finished
        winner = st.ending.winner if st.ending else None
        team_of: dict[str, _Acc] = {}
        if table.teams:
            for tname, members in table.teams:
                acc = teams.setdefault(tuple(sorted(members)), _Acc(tuple(sorted(members))))
                acc.names[tname] = None
                team_of[tname] = acc
        for p in table.players:
            acc = players.setdefault(p, _Acc((p,)))
            acc.names[p] = None
        for side_acc, side in [(team_of[s], s) for s in team_of] + [(players[p], table.side_of(p))
                                                                   for p in table.players]:
            side_acc.matches += 1
            side_acc.finished += finished
            side_acc.won += winner == side
            side_acc.hands += len(st.hands)
        for h in st.hands:
            v = h.verdict
            for p in table.players:
                s = table.side_of(p)
                players[p].taken += v.taken[s]
                players[p].scored += v.delta[s]
            for s, acc in team_of.items():
                acc.taken += v.taken[s]
                acc.scored += v.delta[s]
            players[v.bid.player].bid(v.bid)
            if table.teams:
                team_of[v.bid.side].bid(v.bid)
            for a in v.awards:
                seen_points[a.point] = None
                who = a.player if a.player is not None else (a.side if not table.teams else None)
                if who is not None and who in players:
                    players[who].points[a.point] = players[who].points.get(a.point, 0) + 1
                if table.teams:
                    t = team_of[a.side]
                    t.points[a.point] = t.points.get(a.point, 0) + 1
    rank = {p: i for i, p in enumerate(SPEC_POINT_IDS)}
    point_ids = tuple(sorted(seen_points, key=lambda p: (rank.get(p, len(rank)), p)))
    player_lines = tuple(sorted((a.freeze(name) for name, a in players.items()), key=lambda ln: ln.name.lower()))
    team_lines = tuple(sorted((a.freeze(_team_name(a)) for a in teams.values()), key=lambda ln: ln.name.lower()))
    return Stats(n_matches, n_finished, n_hands, player_lines, team_lines, point_ids)


def _team_name(acc: _Acc) -> str:
    """'Us (Ann & Cy)': the partnership's name(s) and its players, so two 'Us' never merge."""
    return f"{'/'.join(acc.names)} ({', '.join(acc.members)})"
