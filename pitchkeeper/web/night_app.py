"""The ASGI app of a club night (`serve --tournament FILE`): the night's routes, each table's game mounted
under `/table/T/game`, the request guard of the table's serve (web.shield), and error pages that never show
a traceback.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from pathlib import Path

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Mount
from starlette.staticfiles import StaticFiles

from pitchkeeper.errors import PitchError
from pitchkeeper.web import app as match_app
from pitchkeeper.web import night_api, night_pages
from pitchkeeper.web.night import Night, TableGames, night_of
from pitchkeeper.web.shield import LOOPBACK_NAMES, Shield, is_api
from pitchkeeper.web.site import HERE, MAX_BODY, SITE_KEY, api_error

# ---------------------------------------------------------------------------
# errors: never a traceback page


async def not_found(request: Request, exc: Exception) -> Response:
    status = getattr(exc, "status_code", 404)
    detail = getattr(exc, "detail", "") or ""
    if SITE_KEY in request.scope:  # within a table's game: the table's own error pages
        return await match_app.not_found(request, exc)
    if is_api(request.url.path):
        words = {404: f"no such route: {request.method} {request.url.path}", 405: "method not allowed"}
        return api_error(words.get(status, detail or "bad request"), status)
    message = {404: "Nothing here. The hall screen is at /, each table's page at /table/N, the organizer's at "
                    "/organizer.", 405: "That address does not take this kind of request."}.get(status, detail)
    if status == 404 and detail.startswith("table"):
        message = detail[0].upper() + detail[1:] + "."
    return night_of(request).render("error.html", status, message=message, night_links=True)


async def broken_file(request: Request, exc: Exception) -> Response:
    """The tournament file (or a game log) cannot be read: one line, every page - a 503, the server cannot
    serve the night until the file is mended (the request was not at fault). A form posted meanwhile is
    told that nothing of it was written. The page stays live: it comes back by itself once the file is
    mended."""
    if SITE_KEY in request.scope:
        return await match_app.broken_log(request, exc)
    night = night_of(request)
    if is_api(request.url.path):
        return api_error(night.unreadable(exc), 503)
    sent = " Nothing you sent was written: send it again once the file is mended." if request.method == "POST" else ""
    return night.render("error.html", 503, night_links=True, message=night.mend_words(exc) + sent, broken=True,
                        probe="/api/tournament")


@contextlib.asynccontextmanager
async def lifespan(app: Starlette) -> AsyncIterator[None]:
    night: Night = app.state.night
    task = asyncio.create_task(night.run())
    try:
        yield
    finally:
        task.cancel()
        for a in night.analysts:
            a.close()
        with contextlib.suppress(asyncio.CancelledError):
            await task


def create_night_app(path: str | Path, organizer_pin: str, table_pins: dict[int, str], *, poll: float = 0.05,
                     allowed_hosts: list[str] | None = None, secret: bytes | None = None,
                     base_url: str | None = None) -> Starlette:
    """The ASGI app of a tournament night: `path` the tournament file, `organizer_pin` the PIN that does
    everything, `table_pins` each table's (web.keys.night_keys), `base_url` the address the phones open
    (the table cards' QR codes). `allowed_hosts`, `secret`: as the table's create_app."""
    night = Night(Path(path), organizer_pin, table_pins, secret, poll, base_url)
    routes = [*night_pages.routes(), *night_api.routes(),
              Mount("/table/{table:int}/game", app=TableGames(night)),
              Mount("/static", app=StaticFiles(directory=HERE / "static"), name="static")]
    middleware = [Middleware(Shield, names=allowed_hosts or LOOPBACK_NAMES, limit=MAX_BODY)]
    app = Starlette(routes=routes, middleware=middleware, lifespan=lifespan,
                    exception_handlers={HTTPException: not_found, PitchError: broken_file,
                                        Exception: match_app.server_error})
    app.state.night = night
    return app
