"""`pitchkeeper serve`: the routes (spec section 7), over one match log kept by `Logbook`.

- `/` the scoreboard (a TV, a tablet), `/board` its live part (fetched again on each event);
- `/enter` the entry page for a phone: bidder, amount, trump, every point answered, the verdict shown
  before it is saved; undo; correcting an earlier hand (`/enter/hand/N`);
- `/api/match`, `POST /api/hands`, `DELETE /api/hands/last` (and `PUT /api/hands/N`), `/api/events`,
  `POST /api/matches` (the table's next game).

Without --match it serves the table, not one file: the data folder's current match, followed to the
next game however it is started. No write is made against a stale view: `GET /api/match` gives the
version as its ETag, every write may send `If-Match` (412 when the log changed since) and a new hand
its number (`"hand": N`, 409 when N is not the next); the pages always send both, and the check is the
Logbook's, under the log's lock.

A front end only: it parses, calls the library, shows. Every write is the Logbook's (lock, check,
atomic write); this server also writes one at a time, so each write gets its own event. The entry page's
routes are phone.py's, what they share with this file is site.py's; `match_routes()` is the whole of one
match served, which a club night (night.py) mounts again for each table that keeps its game hand by hand.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from pitchkeeper.errors import PitchError
from pitchkeeper.logbook.book import NotNext, Stale
from pitchkeeper.web import odds, phone
from pitchkeeper.web.body import checked
from pitchkeeper.web.served import BrokenLog, OneMatch, file_names_only
from pitchkeeper.web.shield import LOOPBACK_NAMES, Shield, is_api
from pitchkeeper.web.site import (
    HERE,
    MAX_BODY,
    Site,
    api_error,
    etag,
    if_match,
    json_body,
    one_line,
    pin_refused,
    site_of,
)

# ---------------------------------------------------------------------------
# the JSON interface


async def api_match(request: Request) -> Response:
    s = await site_of(request).snapshot()
    return JSONResponse(s.match_json(), headers=etag(s.version))


async def hand_body(request: Request, number: int | None) -> tuple[dict[str, Any], int | None]:
    """The JSON hand, its shape checked (hand `number`, or the next one) before the library judges it; and
    the number the client says it records (`"hand": N`), if it says one."""
    site = site_of(request)
    hand = await json_body(request)
    said = hand.pop("hand", None)
    if said is not None and (isinstance(said, bool) or not isinstance(said, int) or said < 1):
        raise PitchError(f"expected the number of the hand being recorded (1, 2, ...), got {json.dumps(said)}", "hand")
    s = await site.snapshot()
    n = number if number is not None else said if said is not None else s.count + 1
    return checked(hand, n, list(s.table.sides), list(s.table.players)), said


def api_write_error(site: Site, e: PitchError) -> JSONResponse:
    """400 with the one line, the log named by its file name (the server's own paths are not the client's);
    412 (with the version now) for a write against a stale view, 409 for a hand that is not the next."""
    path = site.served.path
    given = file_names_only(e.where or "")
    where = (f"{path.name}: {given}" if given.startswith("hands[") else given) or None
    message = file_names_only(e.message)
    if where and where.startswith(path.name) and "nothing was written" not in message:
        message += " (nothing was written)"
    line = one_line(PitchError(message, where))
    if isinstance(e, Stale):
        return JSONResponse({"error": line, "version": e.version}, status_code=412,
                            headers=etag(e.version) if e.version else None)
    return api_error(line, 409 if isinstance(e, NotNext | OneMatch) else 400)


async def _written(request: Request, write: Callable[[Site], Awaitable[dict[str, Any]]], status: int = 200) -> Response:
    """Every write of the table's JSON interface: the PIN checked, `write(site)` made (the Logbook's, under
    the log's lock), then the match as it stands; a write refused gets its one line, nothing written."""
    refused = pin_refused(request)
    if refused:
        return refused
    site = site_of(request)
    try:
        state = await write(site)
    except PitchError as e:
        return api_write_error(site, e)
    return JSONResponse(state, status_code=status)


async def api_post_hand(request: Request) -> Response:
    async def append(site: Site) -> dict[str, Any]:
        hand, said = await hand_body(request, None)
        return await site.write(site.served.append, hand, if_match(request), said)

    return await _written(request, append, 201)


async def api_put_hand(request: Request) -> Response:
    """An extension of the contract: correct hand N (every later total replayed)."""
    n = int(request.path_params["number"])

    async def replace(site: Site) -> dict[str, Any]:
        hand, _ = await hand_body(request, n)
        return await site.write(site.served.replace, n, hand, if_match(request))

    return await _written(request, replace)


async def api_drop_last(request: Request) -> Response:
    async def drop(site: Site) -> dict[str, Any]:
        return await site.write(site.served.drop_last, if_match(request))

    return await _written(request, drop)


async def api_new_match(request: Request) -> Response:
    """The table's next game (spec section 7): it becomes the match served, and every open page follows."""

    async def new(site: Site) -> dict[str, Any]:
        if not site.served.follow:
            raise OneMatch("this server serves one match (serve --match FILE): it starts no other; start the next "
                           "game with `pitchkeeper new` and serve it")
        body = await json_body(request, "a new match's keys ({\"rematch\": true}, or rules, players, teams, title)")
        return await site.write(site.served.new_match, body, if_match(request))

    return await _written(request, new, 201)


async def api_events(request: Request) -> Response:
    site = site_of(request)
    last_seen = request.headers.get("last-event-id")
    return StreamingResponse(site.hub.stream(last_seen), media_type="text/event-stream",
                             headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})


# ---------------------------------------------------------------------------
# the scoreboard


async def scoreboard_page(request: Request) -> Response:
    site = site_of(request)
    s = await site.snapshot()
    return site.render("scoreboard.html", **site.board_context(s), last_par=await site.last_par(s))


async def board_part(request: Request) -> Response:
    site = site_of(request)
    s = await site.snapshot()
    return site.render("_board.html", **site.board_context(s), last_par=await site.last_par(s))


async def strip_part(request: Request) -> Response:
    site = site_of(request)
    s = await site.snapshot()
    return site.render("_strip.html", **site.board_context(s))


# ---------------------------------------------------------------------------
# errors: never a traceback page


async def not_found(request: Request, exc: Exception) -> Response:
    status = getattr(exc, "status_code", 404)
    detail = getattr(exc, "detail", "") or ""
    if is_api(request.url.path):
        words = {404: f"no such route: {request.method} {request.url.path}", 405: "method not allowed"}
        return api_error(words.get(status, detail or "bad request"), status)
    site = site_of(request)
    message = {404: f"Nothing here. The scoreboard is at {site.base}/, the entry page at {site.base}/enter, the odds "
                    f"of a bid at {site.base}/odds.",
               405: "That address does not take this kind of request."}.get(status, detail)
    return site.render("error.html", status, message=message if status != 404 or not detail.startswith("there")
                       else detail)


async def broken_log(request: Request, exc: Exception) -> Response:
    """A PitchError no route placed at its question. Only a log that cannot be read (BrokenLog: edited by
    hand into a broken state, say) blames the log: 503 until it is mended, the file by its name only,
    and pages that say how to mend it in the players' words and come back by themselves. Any other is
    bad input: 400 with its one line."""
    if isinstance(exc, BrokenLog):
        message = one_line(exc)
        if is_api(request.url.path):
            return api_error(message, 503, {"Retry-After": "5"})
        # the page's words, never the CLI's line and key; it reloads itself once the log is mended (live.js)
        return site_of(request).render("error.html", 503, message=exc.words or message, broken=True)
    message = file_names_only(one_line(exc))
    if is_api(request.url.path):
        return api_error(message, 400)
    return site_of(request).render("error.html", 400, message=f"That was refused: {message}")


async def server_error(request: Request, exc: Exception) -> Response:
    """A bug: said in the players' words (serve's console, where Starlette logs the exception, has the
    rest), never a traceback page."""
    if is_api(request.url.path):
        return api_error("internal error (a bug): serve's console shows what happened - please report it", 500)
    return HTMLResponse("<!doctype html><title>error</title><p>Something went wrong in pitchkeeper: a bug, not your "
                        "answers. Please report it; the console where serve runs shows what happened.</p>",
                        status_code=500)


def match_routes() -> list[BaseRoute]:
    """The routes of one match served (the table's, or a night table's game under `/table/T/game`)."""
    return [
        Route("/", scoreboard_page),
        Route("/board", board_part),
        Route("/strip", strip_part),
        *phone.routes(),
        Route("/api/match", api_match),
        Route("/api/hands", api_post_hand, methods=["POST"]),
        Route("/api/hands/last", api_drop_last, methods=["DELETE"]),
        Route("/api/hands/{number:int}", api_put_hand, methods=["PUT"]),
        Route("/api/matches", api_new_match, methods=["POST"]),
        Route("/api/events", api_events),
        *odds.routes(),
    ]


@contextlib.asynccontextmanager
async def lifespan(app: Starlette) -> AsyncIterator[None]:
    site: Site = app.state.site
    task = asyncio.create_task(site.hub.run())
    try:
        yield
    finally:
        task.cancel()
        site.close()
        with contextlib.suppress(asyncio.CancelledError):
            await task


def create_app(path: str | Path, pin: str, *, poll: float = 0.05, allowed_hosts: list[str] | None = None,
               entry_url: str | None = None, secret: bytes | None = None, follow: bool = False) -> Starlette:
    """The ASGI app of the table (`follow`: the data folder's current match, `path` being the current one
    now) or of one match (`path`). `allowed_hosts`: the names and addresses it answers to, besides the
    address each connection came in on (None: this machine's loopback names; web.shield). `entry_url`:
    the entry page's address on the local network, shown on the scoreboard with a QR code to scan.
    `secret`: the table's kept signing secret (web.keys; None: a new one, for this app only)."""
    site = Site(Path(path), pin, poll, entry_url, secret, follow)
    routes = [*match_routes(), Mount("/static", app=StaticFiles(directory=HERE / "static"), name="static")]
    middleware = [Middleware(Shield, names=allowed_hosts or LOOPBACK_NAMES, limit=MAX_BODY)]
    app = Starlette(routes=routes, middleware=middleware, lifespan=lifespan,
                    exception_handlers={HTTPException: not_found, PitchError: broken_log,
                                        Exception: server_error})
    app.state.site = site
    return app
