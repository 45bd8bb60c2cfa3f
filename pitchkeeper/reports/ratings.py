"""A rating per player from every game kept: match logs and tournament results, rated with openskill.

openskill (Weng-Lin, Plackett-Luce) rates teams of any size and games of any number of sides, so
partnership and cutthroat games rate alike; it is imported only here, in the commands that show or
use ratings (docs/performance.md). Games are rated in the order they were kept (file modification time,
then a tournament's rounds); a tournament result taken from a match log that is itself kept is
counted once. Only finished games count: the winner first, the other sides by final score.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pitchkeeper.cells import cell_len, ljust
from pitchkeeper.logbook.paths import data_dir
from pitchkeeper.reports import index


@dataclass(frozen=True, slots=True)
class Game:
    sides: tuple[tuple[str, ...], ...]
    scores: tuple[int, ...]
    winner: int  # index of the winning side


@dataclass(frozen=True, slots=True)
class Rating:
    name: str
    mu: float
    sigma: float
    games: int

    @property
    def ordinal(self) -> float:
        """The conservative figure players are ranked by: mu - 3 sigma (openskill's ordinal)."""
        return self.mu - 3 * self.sigma

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "rating": round(self.ordinal, 2), "mu": round(self.mu, 3),
                "sigma": round(self.sigma, 3), "games": self.games}


def rank_places(g: Game) -> list[int]:
    """Places for openskill (1 best): the winner first, then by final score, equal scores sharing a place."""
    others = [g.scores[i] for i in range(len(g.sides)) if i != g.winner]
    place = [2 + sum(o > g.scores[i] for o in others) for i in range(len(g.sides))]
    place[g.winner] = 1
    return place


def rate(games: Iterable[Game]) -> list[Rating]:
    """Ratings after every game in turn, strongest (highest ordinal) first."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    now: dict[str, Any] = {}
    played: dict[str, int] = {}
    for g in games:
        teams = [[now.get(p) or model.rating(name=p) for p in side] for side in g.sides]
        new = model.rate(teams, ranks=[float(r) for r in rank_places(g)])
        for side, rated in zip(g.sides, new, strict=True):
            for p, r in zip(side, rated, strict=True):
                now[p] = r
                played[p] = played.get(p, 0) + 1
    out = [Rating(p, r.mu, r.sigma, played[p]) for p, r in now.items()]
    return sorted(out, key=lambda r: (-r.ordinal, r.name.lower()))


def games_of(summaries: Sequence[Any]) -> list[Game]:
    """The finished games of indexed files (reports.index.Summary), in the order they were kept."""
    logs = {s.path for s in summaries if s.kind == "match"}
    out: list[Game] = []
    for s in sorted(summaries, key=lambda s: (s.mtime_ns, s.path)):
        if s.kind == "match" and s.finished and s.winner is not None and s.scores:
            members = dict(s.teams) if s.teams else {p: (p,) for p in s.players}
            names = list(s.scores)
            out.append(Game(tuple(tuple(members[n]) for n in names), tuple(s.scores[n] for n in names),
                            names.index(s.winner)))
        elif s.kind == "tournament" and s.figures:
            for g in s.figures.get("games", []):
                if g.get("match") in logs:
                    continue  # rated from the log itself
                out.append(Game(tuple(tuple(x) for x in g["sides"]), tuple(g["scores"]), g["winner"]))
    return out


def rate_kept(root: Path | None = None, summaries: Sequence[Any] | None = None,
              stamps: Sequence[Any] | None = None) -> list[Rating]:
    """Ratings from everything kept in the data folder (through the per-log index).

    Rating every game again is openskill's work over every game kept, so the result is remembered in the
    index under the fingerprint of every file's version (path, modification time, size, a digest of
    its bytes): while no file changed, a walk of the folder is all it costs. `summaries`: just
    refreshed by the caller; `stamps`: the folder just walked by the caller (index.walk).
    """
    with index.open_kept(root) as idx:
        files = summaries if summaries is not None else stamps if stamps is not None else index.walk(root or data_dir())
        key = index.fingerprint(files)
        known = idx.memo("ratings", key)
        if known is not None:
            return [Rating(r[0], r[1], r[2], r[3]) for r in known]
        if summaries is None:
            summaries, _ = idx.refresh_stated(list(files), prune=True)
        rated = rate(games_of(summaries))
        idx.remember("ratings", key, [[r.name, r.mu, r.sigma, r.games] for r in rated])
        return rated


def ratings_text(rated: Sequence[Rating]) -> str:
    """The ratings as a plain table (the rating is openskill's ordinal, mu - 3 sigma)."""
    if not rated:
        return "Ratings: no finished game kept yet\n"
    width = max(cell_len(r.name) for r in rated)  # in terminal cells: 李雷 is 4
    lines = ["Ratings (every finished game kept; rating = mu - 3 sigma)",
             f"  {ljust('name', width)}  {'rating':>7}  {'mu':>6}  {'sigma':>6}  {'games':>5}"]
    lines += [f"  {ljust(r.name, width)}  {r.ordinal:>7.2f}  {r.mu:>6.2f}  {r.sigma:>6.2f}  {r.games:>5}" for r in rated]
    return "\n".join(lines) + "\n"
