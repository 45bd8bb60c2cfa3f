"""What every page and route of `serve` shares: a served match (`Site`), the templates, the headers, the
PIN in a request's header, a posted form, the cookies, the JSON body and its version (If-Match).

A `Site` is one match log served: the table's (app.py) or, at a club night, the game a table keeps hand by
hand (night.py), mounted under `base` (`/table/3/game`). Its routes find it in the request (`site_of`),
so the entry page's routes (phone.py) serve either without a copy.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response

from pitchkeeper.errors import PitchError
from pitchkeeper.web import analysed, view
from pitchkeeper.web import form as entry_form
from pitchkeeper.web.body import form_pairs, json_kind, parse_json
from pitchkeeper.web.events import Hub
from pitchkeeper.web.guard import CLIENT_COOKIE, COOKIE_DAYS, PIN_HEADER, Guard
from pitchkeeper.web.served import Served, Snapshot

HERE = Path(__file__).parent
MAX_BODY = 256 * 1024
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
       "form-action 'self'; base-uri 'none'; frame-ancestors 'none'")
SITE_KEY = "pitchkeeper.site"  # the request scope's key of the Site a mounted route serves


def one_line(e: BaseException) -> str:
    """The error as the one line the CLI would print (a message never spans lines on the wire)."""
    return " ".join(str(e).split("\n"))


def templates() -> jinja2.Environment:
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(HERE / "templates"), autoescape=True,
                             trim_blocks=True, lstrip_blocks=True)
    env.globals.update(signed=view.signed, num=view.number, suits=entry_form.SUITS)
    return env


class Site:
    """One match served: its log, its watcher, its guard, and the templates.

    `base`: the path it is served under ("" for the table's serve). `night`: at a club night, what the
    entry page says of the tournament (its table, round, where the result goes), else None.
    `after_write`: called (awaited) after every write through this site (a night reports a won game).
    `analysts`: the workers of par and of the odds (web.analysed); a night's tables share the night's."""

    def __init__(self, path: Path, pin: str, poll: float = 0.05, entry_url: str | None = None,
                 secret: bytes | None = None, follow: bool = False, *, guard: Guard | None = None,
                 env: jinja2.Environment | None = None, base: str = "", night: dict[str, Any] | None = None,
                 pin_words: str = "the table's PIN (the one <code>pitchkeeper serve</code> printed)",
                 wrong_pin: str = "Wrong PIN: it is the one <code>pitchkeeper serve</code> printed.",
                 analysts: tuple[analysed.Analyst, analysed.Analyst] | None = None) -> None:
        self.served = Served(path, follow)
        self.guard = guard or Guard(pin, secret)
        self.hub = Hub(self.served.path, self.served.event, poll)
        self.write_lock = asyncio.Lock()
        self.env = env or templates()
        self.entry_url = entry_url
        self.entry_qr = view.qr_svg(entry_url) if entry_url else None
        self.base = base
        self.night = night
        self.pin_words = Markup(pin_words)  # our own words (a <code> in them), never a visitor's
        self.wrong_pin = Markup(wrong_pin)  # our own words too (a page shows no Markdown: <code>, not backticks)
        self.after_write: Callable[[], Awaitable[None]] | None = None
        self.analyst, self.odds = analysts or analysed.pair()

    def close(self) -> None:
        """Stop this site's analysis workers (a night closes the ones its tables share)."""
        self.analyst.close()
        self.odds.close()

    # -- reading

    async def snapshot(self) -> Snapshot:
        return await run_in_threadpool(self.served.snapshot)

    def render(self, name: str, status: int = 200, **context: Any) -> HTMLResponse:
        html = self.env.get_template(name).render(base=self.base, night=self.night, pin_words=self.pin_words,
                                                  **context)
        return HTMLResponse(html, status_code=status, headers=page_headers())

    def board_context(self, s: Snapshot) -> dict[str, Any]:
        return {**view.board_context(s), "entry_url": self.entry_url, "entry_qr": self.entry_qr,
                "follow": self.served.follow}

    async def last_par(self, s: Snapshot) -> analysed.Par | None:
        """The TV's verdict: the last hand's par and costliest card, where it was recorded trick by trick."""
        return (await analysed.of_snapshot(self.analyst, s, last_only=True)).get(s.count)

    # -- writing: one at a time in this server; each write's event goes out before the next write

    async def write(self, fn: Any, *args: Any) -> Any:
        async with self.write_lock:
            self.hub.check()  # a change by another writer since the last look is an event of its own
            try:
                return await run_in_threadpool(fn, *args)
            finally:
                self.hub.check()
                if self.after_write is not None:
                    await self.after_write()


def page_headers() -> dict[str, str]:
    return {"Content-Security-Policy": CSP, "X-Content-Type-Options": "nosniff", "Referrer-Policy": "same-origin",
            "Cache-Control": "no-store"}


def site_of(request: Request) -> Site:
    """The Site a route serves: the one its mount put in the request (a night's table game), else the app's."""
    site = request.scope.get(SITE_KEY)
    return site if site is not None else request.app.state.site


def client_host(request: Request) -> str:
    return request.client.host if request.client else ""


# ---------------------------------------------------------------------------
# the JSON interface's pieces


def api_error(message: str, status: int = 400, headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status, headers=headers)


def pin_refused(request: Request, guard: Guard | None = None, whose: str = "the table's PIN") -> JSONResponse | None:
    """401 unless the request carries a PIN `guard` takes in its header (429 while guesses are throttled)."""
    guard = guard or site_of(request).guard
    given = request.headers.get(PIN_HEADER)
    if given is None:
        return api_error(f"writing needs {whose} in the {PIN_HEADER.title()} header (serve printed it)", 401)
    tried = guard.try_pin(client_host(request), given, signed=guard.signed_in(request.cookies))
    if tried.throttled:
        return api_error(f"too many wrong PINs: try again in {tried.retry_after} s", 429,
                         {"Retry-After": tried.retry_after})
    if not tried.ok:
        return api_error("wrong PIN", 401)
    return None


async def json_body(request: Request, what: str = "the per-hand keys (trump, bid, points ...)") -> dict[str, Any]:
    raw = await request.body()
    if len(raw) > MAX_BODY:
        raise PitchError(f"the body is too large ({len(raw)} bytes; at most {MAX_BODY})", "body")
    if not raw.strip():
        raise PitchError(f"expected a JSON object of {what}, got nothing", "body")
    data = parse_json(raw)
    if not isinstance(data, dict):
        raise PitchError(f"expected a JSON object of {what}, got {json_kind(data)}", "body")
    return data


def etag(version: str) -> dict[str, str]:
    return {"ETag": f'"{version}"'}


def if_match(request: Request) -> str | None:
    """The version a write is made against (`If-Match: "VERSION"`), or None (no header, or `*`)."""
    raw = request.headers.get("if-match")
    if raw is None:
        return None
    tag = raw.split(",")[0].strip().removeprefix("W/").strip().strip('"')
    return None if tag == "*" else tag


# ---------------------------------------------------------------------------
# pages: the browser's own id, the session cookie, a posted form


def client_id(request: Request) -> tuple[str, bool]:
    """The browser's own random id (its cookie), and whether it is new."""
    c = request.cookies.get(CLIENT_COOKIE)
    if c and 10 <= len(c) <= 64:
        return c, False
    return Guard.new_client(), True


def with_cookies(response: Response, request: Request, client: str, new: bool,
                 session: tuple[str, str] | None = None) -> Response:
    """The browser's id (when new) and a session (cookie name, value) set on the answer."""
    secure = request.url.scheme == "https"
    days = COOKIE_DAYS * 86400  # kept when the browser closes: a phone stays signed in for the evening and after
    if new:
        response.set_cookie(CLIENT_COOKIE, client, max_age=days, httponly=True, samesite="strict", secure=secure,
                            path="/")
    if session is not None:
        response.set_cookie(session[0], session[1], max_age=days, httponly=True, samesite="strict", secure=secure,
                            path="/")
    return response


class Fields(dict):
    """A posted form (application/x-www-form-urlencoded, which is all the pages send): first values,
    and every value of a repeated field."""

    def __init__(self, pairs: list[tuple[str, str]]) -> None:
        super().__init__()
        self.pairs = pairs
        for k, v in pairs:
            self.setdefault(k, v)

    def getlist(self, key: str) -> list[str]:
        return [v for k, v in self.pairs if k == key]


async def read_form(request: Request) -> Fields:
    raw = await request.body()
    if len(raw) > MAX_BODY:
        return Fields([])
    try:
        return Fields(form_pairs(raw))
    except PitchError as e:
        raise HTTPException(400, one_line(e)) from None


def number_field(form: Any, key: str = "number") -> int | None:
    """A whole number a form sent (a hand, a round, a table), or None."""
    n = form.get(key)
    return int(n) if isinstance(n, str) and n.isascii() and n.isdigit() and len(n) < 9 else None
