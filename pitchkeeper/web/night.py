"""`pitchkeeper serve --tournament FILE`: a club night on the server of the table's serve (spec section 8.1).

One `Night` per run: the tournament file (the truth: every read reads it, every write is the library's -
tournament.night and book, under the file's lock), the organizer's and each table's PIN (web.guard, one
throttle and one secret for all), one watcher of the file and of the tables' game logs (the event
stream), and a `Site` for each table that keeps its game hand by hand - the table's own entry page
(phone.py) and JSON interface (app.py), mounted under `/table/T/game` on that game's log. A game won is
reported by itself (`settle`), whoever wrote its last hand.

The routes are night_api.py's (JSON) and night_pages.py's (the hall screen, the tables' phones, the
organizer), what the pages show night_view.py's, and night_app.py makes the app of them.
"""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse
from starlette.routing import Router

from pitchkeeper.errors import PitchError
from pitchkeeper.logbook.book import Logbook
from pitchkeeper.logbook.store import read_bytes
from pitchkeeper.logbook.versions import version_of
from pitchkeeper.tournament import book, standings
from pitchkeeper.tournament import night as desk
from pitchkeeper.tournament.model import Tournament, side_name
from pitchkeeper.web import analysed
from pitchkeeper.web import app as match_app
from pitchkeeper.web.events import Hub
from pitchkeeper.web.guard import Guard, Throttle
from pitchkeeper.web.site import SITE_KEY, Site, one_line, page_headers, templates

ORGANIZER_COOKIE = "pk_org"


def table_cookie(table: int) -> str:
    return f"pk_t{table}"


@dataclass(frozen=True)
class Game:
    """A table's game kept hand by hand, as it stands: its scores by the tournament's side names."""

    table: int
    path: Path
    version: str
    scores: dict[str, int]
    hands: int
    winner: str | None  # the tournament's name of the side that won, once won


@dataclass(frozen=True)
class Snap:
    """The night as it stood at one version of the file (and of the round's game logs)."""

    version: str
    t: Tournament
    standings: dict[str, Any]
    games: dict[int, Game]

    @property
    def current(self) -> Any:
        return self.t.current

    @property
    def reported(self) -> list[int]:
        cur = self.t.current
        return [] if cur is None else [s.table for s in cur.tables if (cur.number, s.table) in self.t.final]

    def seat_json(self) -> dict[str, Any]:
        cur = self.t.current
        return cur.to_json() if cur is not None else {"round": 0, "tables": [], "sitting_out": []}

    def api_json(self, pins: dict[int, str] | None = None) -> dict[str, Any]:
        """The `GET /api/tournament` object (spec section 8.1), and what it adds: the current round's
        results, the games kept hand by hand, whether the night is over."""
        cur = self.t.current
        results = []
        if cur is not None:
            for seat in cur.tables:
                res = self.t.final.get((cur.number, seat.table))
                if res is not None:
                    results.append({"table": seat.table, "scores": {side_name(s): v for s, v in zip(
                        seat.sides, res.scores, strict=True)}, "winner": side_name(seat.sides[res.winner]),
                        "correction": res.correction, "forfeit": res.forfeit})
        out: dict[str, Any] = {
            "seat": self.seat_json(), "standings": self.standings, "reported": self.reported, "version": self.version,
            "results": results, "rounds_planned": self.t.planned, "closed": self.t.closed is not None,
            "games": {str(g.table): {"scores": g.scores, "hands": g.hands, "winner": g.winner}
                      for g in self.games.values()},
        }
        if pins is not None:
            out["pins"] = {str(k): v for k, v in sorted(pins.items())}
        return out


class NightHub(Hub):
    """The event stream's watcher: the tournament file's version, and the version of each game log of the
    round being played. An event names the file's version, and the tables whose game moved (`tables`)."""

    def check(self) -> bool:
        seen = self._read_or_last()
        if seen == self.last:
            return False
        data: dict[str, Any] = {"version": seen.get("version")}
        if seen.get("broken"):  # the file cannot be read: every open page is covered until it is mended
            data["broken"] = seen["broken"]
        else:
            before, now = self.last.get("logs") or {}, seen.get("logs") or {}
            moved = sorted(int(k) for k in set(before) | set(now) if before.get(k) != now.get(k))
            if moved:
                data["tables"] = moved
        self.last = seen
        self.sent = data
        for q in self.subscribers:
            q.put_nowait(data)
        return True


class Night:
    """One run of `serve --tournament`: the file, its PINs, its watcher, the tables' games."""

    def __init__(self, path: Path, organizer_pin: str, table_pins: dict[int, str], secret: bytes | None = None,
                 poll: float = 0.05, base_url: str | None = None) -> None:
        self.path = Path(path)
        self.poll = poll
        self.base_url = base_url  # the address phones open (with --lan): the QR codes of the table cards
        throttle = Throttle()
        self.organizer = Guard(organizer_pin, secret, throttle, cookie=ORGANIZER_COOKIE, role="organizer")
        self.pins = dict(table_pins)
        self.tables = {n: Guard(pin, self.organizer.secret, throttle, cookie=table_cookie(n), role=f"table {n}",
                                also=self.organizer) for n, pin in self.pins.items()}
        self.env = templates()
        self.analysts = analysed.pair()  # every table's game shares the night's two analysis workers
        self.write_lock = asyncio.Lock()
        self.sites: dict[Path, Site] = {}
        self.books: dict[Path, Logbook] = {}
        self.games: dict[Path, Game] = {}  # each game log's last reading, by the log's version
        self._parsed: tuple[str, Tournament] | None = None
        self._last: Snap | None = None
        self._tried: set[tuple[int, str]] = set()  # (table, log version) a won game was reported from, or tried
        self.snapshot()  # a missing or broken file stops `serve` before it listens
        self.hub = NightHub(self.path, self.event, poll)

    # -- reading

    def tournament(self, version: str | None = None) -> tuple[str, Tournament]:
        """The file parsed, again only when its bytes changed."""
        try:
            raw = read_bytes(self.path, book.KIND)
        except PitchError as e:
            raise book.unreadable(e, self.path) from None
        now = version_of(raw)
        if self._parsed is not None and self._parsed[0] == now:
            return self._parsed
        parsed = now, book.parse_bytes(raw, self.path)[2]
        self._parsed = parsed
        return parsed

    def book_of(self, log: Path) -> Logbook:
        b = self.books.get(log)
        if b is None:
            b = self.books[log] = Logbook(log)
        return b

    def game(self, t: Tournament, table: int, log: Path) -> Game | None:
        """A table's game as its log stands (None: a log that cannot be read, mended by hand, say).

        Read every time; replayed again only when its bytes changed (their digest, as `Served` reuses a
        page's data): the log pins its ruleset, so the same bytes give the same scores - and a night of 50
        games kept hand by hand is not 50 replays for every page a phone fetches."""
        try:
            version = version_of(read_bytes(log, "match log"))
        except PitchError:
            return None
        known = self.games.get(log)
        if known is not None and known.version == version and known.table == table:
            return known
        try:
            reading = self.book_of(log).read()
        except PitchError:
            return None
        cur = t.current
        seat = cur.table(table) if cur is not None else None
        if seat is None:
            return None
        names = {}
        for side in reading.loaded.record.table.sides:
            members = frozenset(reading.loaded.record.table.members(side))
            names[side] = next((side_name(s) for s in seat.sides if frozenset(s) == members), side)
        state = reading.state
        game = Game(table, log, reading.version, {names[s]: v for s, v in state.scores.items()}, len(state.hands),
                    names.get(state.winner) if state.winner is not None else None)
        self.games[log] = game
        return game

    def snapshot(self) -> Snap:
        version, t = self.tournament()
        games = {}
        for table, log in desk.games(self.path, t).items():
            g = self.game(t, table, log)
            if g is not None:
                games[table] = g
        last = self._last
        if last is not None and last.version == version and {k: g.version for k, g in last.games.items()} == {
                k: g.version for k, g in games.items()}:
            return last
        snap = Snap(version, t, standings(t), games)
        self._last = snap
        return snap

    async def snap(self) -> Snap:
        return await run_in_threadpool(self.snapshot)

    def unreadable(self, e: Exception) -> str:
        """The one line for a tournament file that cannot be read, the file named by its name only."""
        return "the tournament file cannot be read: " + one_line(e).replace(str(self.path), self.path.name)

    def mend_words(self, e: Exception) -> str:
        """What a page says while the file cannot be read, in the players' words."""
        message = self.unreadable(e)
        return (f"{message[0].upper()}{message[1:]}. Mend it (pitchkeeper tournament check shows the problem); "
                "this page works again at once.")

    def event(self) -> dict[str, Any]:
        """What the watcher compares: the file's version, and the round's game logs' versions (a digest of
        each file's bytes: no replay on the loop) - or, while the file cannot be read, what every open page
        says instead of the standings (nothing it showed is current)."""
        try:
            version, t = self.tournament()
        except PitchError as e:
            return {"version": None, "broken": self.mend_words(e)}
        logs = {}
        for table, log in desk.games(self.path, t).items():
            with contextlib.suppress(PitchError):
                logs[str(table)] = version_of(read_bytes(log, "match log"))
        return {"version": version, "logs": logs}

    # -- who may write

    def guard_of(self, table: int) -> Guard:
        """Table `table`'s guard (its PIN, or the organizer's); the organizer's for a table with no PIN."""
        return self.tables.get(table, self.organizer)

    def pin_of_table(self, given: str | None) -> int | None:
        """The table whose PIN `given` is (None: no table's)."""
        return next((n for n, g in self.tables.items() if g.pin_ok(given)), None)

    # -- writing: one at a time in this server (and under the file's lock, as every writer)

    async def write(self, fn: Any, *args: Any, **kw: Any) -> Any:
        async with self.write_lock:
            self.hub.check()
            try:
                return await run_in_threadpool(lambda: fn(*args, **kw))
            finally:
                self.hub.check()

    async def settle(self, table: int) -> None:
        """Report table `table`'s game once it is won (from its log), unless the table has reported: a game
        kept hand by hand reports itself, whoever wrote its last hand (a phone, the CLI)."""
        snap = await self.snap()
        g = snap.games.get(table)
        cur = snap.current
        if g is None or g.winner is None or cur is None or table in snap.reported:
            return
        if (table, g.version) in self._tried:
            return
        self._tried.add((table, g.version))
        with contextlib.suppress(PitchError):  # reported meanwhile, or a log that does not fit its table
            await self.write(desk.report, self.path, table, log=g.path, rnd=cur.number)

    # -- the tables' games: the table's own pages, on the game's log

    async def game_site(self, table: int) -> Site | None:
        snap = await self.snap()
        g = snap.games.get(table)
        if g is None:
            return None
        site = self.sites.get(g.path)
        if site is None:
            guard = self.guard_of(table)
            cur = snap.current
            site = Site(g.path, "", self.poll, guard=guard, env=self.env, base=f"/table/{table}/game",
                        night={"table": table, "round": cur.number if cur is not None else 0, "page": f"/table/{table}"},
                        pin_words=f"the PIN on the card of table {table}",
                        wrong_pin=f"Wrong PIN: it is the one printed on the card of table {table}.",
                        analysts=self.analysts)

            async def after() -> None:
                await self.settle(table)

            site.after_write = after
            self.sites[g.path] = site
        return site

    async def run(self) -> None:
        """The one polling task: the file and the games (an event each time either moves), each open game
        page's own stream, and a game won by a write made elsewhere reported."""
        while True:
            await asyncio.sleep(self.poll)
            before = dict(self.hub.last.get("logs") or {})
            if self.hub.check():
                now = self.hub.last.get("logs") or {}
                for key in now:
                    if now.get(key) != before.get(key):
                        await self.settle(int(key))
            for site in list(self.sites.values()):
                if site.hub.subscribers:
                    site.hub.check()

    def close_soon(self) -> None:
        """End every open stream - the night's and each game's (their hubs run on this one's loop) - so that
        Ctrl-C stops at once."""
        self.hub.close_soon()
        loop = self.hub.loop
        if loop is not None and not loop.is_closed():
            for site in list(self.sites.values()):
                loop.call_soon_threadsafe(site.hub.close)

    def render(self, name: str, status: int = 200, **context: Any) -> HTMLResponse:
        html = self.env.get_template(name).render(base="", night=None, **context)
        return HTMLResponse(html, status_code=status, headers=page_headers())


def night_of(request: Request) -> Night:
    return request.app.state.night


class TableGames:
    """`/table/T/game/...`: the table's game served by the table's own routes, on the game's log."""

    def __init__(self, night: Night) -> None:
        self.night = night
        self.router = Router(routes=match_app.match_routes())

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        table = int(scope.get("path_params", {}).get("table", 0))
        site = await self.night.game_site(table)
        if site is None:
            raise HTTPException(404, f"table {table} keeps no game this round: its page is /table/{table}")
        scope[SITE_KEY] = site
        await self.router(scope, receive, send)
