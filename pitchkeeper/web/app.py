"""`pitchkeeper serve`: the routes (spec section 7), over one match log kept by `Logbook`.

- `/` the scoreboard (a TV, a tablet), `/board` its live part (fetched again on each event);
- `/enter` the entry page for a phone: bidder, amount, trump, every point answered, the verdict shown
  before it is saved; undo; correcting an earlier hand (`/enter/hand/N`);
- `/api/match`, `POST /api/hands`, `DELETE /api/hands/last` (and `PUT /api/hands/N`), `/api/events`.

A front end only: it parses, calls the library, shows. Every write is the Logbook's (lock, check,
atomic write); this server also writes one at a time, so each write gets its own event.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import jinja2
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from pitchkeeper.errors import PitchError
from pitchkeeper.web import form as entry_form
from pitchkeeper.web import view
from pitchkeeper.web.body import checked, form_pairs, parse_json
from pitchkeeper.web.events import Hub
from pitchkeeper.web.guard import CLIENT_COOKIE, COOKIE_DAYS, PIN_HEADER, SESSION_COOKIE, Guard, same_origin
from pitchkeeper.web.served import Served, Snapshot
from pitchkeeper.web.shield import LOOPBACK_NAMES, Shield

HERE = Path(__file__).parent
MAX_BODY = 256 * 1024
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
       "form-action 'self'; base-uri 'none'; frame-ancestors 'none'")


def one_line(e: BaseException) -> str:
    """The error as the one line the CLI would print (a message never spans lines on the wire)."""
    return " ".join(str(e).split("\n"))


class Site:
    """One run of `serve`: the match, its watcher, the PIN, and the templates."""

    def __init__(self, path: Path, pin: str, poll: float = 0.05, entry_url: str | None = None,
                 secret: bytes | None = None) -> None:
        self.served = Served(path)
        self.guard = Guard(pin, secret)
        self.hub = Hub(self.served.path, self.served.event, poll)
        self.write_lock = asyncio.Lock()
        self.env = jinja2.Environment(loader=jinja2.FileSystemLoader(HERE / "templates"), autoescape=True,
                                      trim_blocks=True, lstrip_blocks=True)
        self.entry_url = entry_url
        self.entry_qr = view.qr_svg(entry_url) if entry_url else None
        self.env.globals.update(signed=view.signed, num=view.number, suits=entry_form.SUITS)

    # -- reading

    async def snapshot(self) -> Snapshot:
        return await run_in_threadpool(self.served.snapshot)

    def render(self, name: str, status: int = 200, **context: Any) -> HTMLResponse:
        html = self.env.get_template(name).render(**context)
        return HTMLResponse(html, status_code=status, headers=page_headers())

    def board_context(self, s: Snapshot) -> dict[str, Any]:
        labels = {r.id: entry_form.point_words(r) for r in s.ruleset.points}
        last = s.state["hands"][-1] if s.state["hands"] else None
        return {
            "board": s.board, "state": s.state, "version": s.version, "sides": view.sides(s.board),
            "chart": view.chart(s.state, s.board), "title": title_of(s),
            "last": last, "last_lines": view.verdict_lines(last, labels, dealt_points(s)) if last else [],
            "bid_line": view.bid_line(last) if last else "",
            "reach_words": "must pass" if s.board["reach"] == "exceed" else "to",
            "entry_url": self.entry_url, "entry_qr": self.entry_qr,
        }

    # -- writing: one at a time in this server; each write's event goes out before the next write

    async def write(self, fn: Any, *args: Any) -> Any:
        async with self.write_lock:
            self.hub.check()  # a change by another writer since the last look is an event of its own
            try:
                return await run_in_threadpool(fn, *args)
            finally:
                self.hub.check()


def dealt_points(s: Snapshot) -> frozenset[str]:
    """The points this ruleset gives to the player dealt the card (said "was dealt", as at the CLI)."""
    return frozenset(r.id for r in s.ruleset.points if r.to == "dealt")


def title_of(s: Snapshot) -> str:
    """The match's own title, or who plays whom ("Us vs Them"); the ruleset is named under it."""
    sides = list(s.board["scores"])
    return s.board.get("title") or (" vs ".join(sides) if len(sides) <= 4 else s.ruleset.name)


def page_headers() -> dict[str, str]:
    return {"Content-Security-Policy": CSP, "X-Content-Type-Options": "nosniff", "Referrer-Policy": "same-origin",
            "Cache-Control": "no-store"}


def site_of(request: Request) -> Site:
    return request.app.state.site


def client_host(request: Request) -> str:
    return request.client.host if request.client else ""


# ---------------------------------------------------------------------------
# the JSON interface


def api_error(message: str, status: int = 400, headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status, headers=headers)


def pin_refused(request: Request) -> JSONResponse | None:
    """401 unless the request carries the table's PIN in its header."""
    site = site_of(request)
    given = request.headers.get(PIN_HEADER)
    if given is None:
        return api_error(f"writing needs the table's PIN in the {PIN_HEADER.title()} header (serve printed it)", 401)
    tried = site.guard.try_pin(client_host(request), given, request.cookies.get(SESSION_COOKIE))
    if tried.throttled:
        return api_error(f"too many wrong PINs: try again in {tried.retry_after} s", 429,
                         {"Retry-After": tried.retry_after})
    if not tried.ok:
        return api_error("wrong PIN", 401)
    return None


async def json_body(request: Request) -> dict[str, Any]:
    raw = await request.body()
    if len(raw) > MAX_BODY:
        raise PitchError(f"the hand is too large ({len(raw)} bytes; at most {MAX_BODY})", "body")
    if not raw.strip():
        raise PitchError("expected a JSON object of the per-hand keys (trump, bid, points ...), got nothing", "body")
    data = parse_json(raw)
    if not isinstance(data, dict):
        raise PitchError(f"expected a JSON object of the per-hand keys, got {type(data).__name__}", "body")
    return data


async def api_match(request: Request) -> Response:
    s = await site_of(request).snapshot()
    return JSONResponse(s.match_json())


async def hand_body(request: Request, number: int | None) -> dict[str, Any]:
    """The JSON hand, its shape checked (hand `number`, or the next one) before the library judges it."""
    site = site_of(request)
    hand = await json_body(request)
    s = await site.snapshot()
    n = number if number is not None else len(s.state["hands"]) + 1
    return checked(hand, n, list(s.table.sides), list(s.table.players))


def api_write_error(site: Site, e: PitchError) -> JSONResponse:
    """400 with the one line, the log named by its file name (the server's own paths are not the client's)."""
    path = site.served.path
    given = e.where or ""
    where = given.replace(str(path), path.name) if str(path) in given else \
        (f"{path.name}: {given}" if given.startswith("hands[") else given) or None
    message = e.message.replace(str(path), path.name)
    if where and where.startswith(path.name) and "nothing was written" not in message:
        message += " (nothing was written)"
    return api_error(one_line(PitchError(message, where)))


async def api_post_hand(request: Request) -> Response:
    refused = pin_refused(request)
    if refused:
        return refused
    site = site_of(request)
    try:
        hand = await hand_body(request, None)
        state = await site.write(site.served.append, hand)
    except PitchError as e:
        return api_write_error(site, e)
    return JSONResponse(state, status_code=201)


async def api_put_hand(request: Request) -> Response:
    """An extension of the contract: correct hand N (every later total replayed)."""
    refused = pin_refused(request)
    if refused:
        return refused
    site = site_of(request)
    try:
        n = int(request.path_params["number"])
        hand = await hand_body(request, n)
        state = await site.write(site.served.replace, n, hand)
    except PitchError as e:
        return api_write_error(site, e)
    return JSONResponse(state)


async def api_drop_last(request: Request) -> Response:
    refused = pin_refused(request)
    if refused:
        return refused
    site = site_of(request)
    try:
        state = await site.write(site.served.drop_last)
    except PitchError as e:
        return api_write_error(site, e)
    return JSONResponse(state)


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
    return site.render("scoreboard.html", **site.board_context(s))


async def board_part(request: Request) -> Response:
    site = site_of(request)
    s = await site.snapshot()
    return site.render("_board.html", **site.board_context(s))


async def strip_part(request: Request) -> Response:
    site = site_of(request)
    s = await site.snapshot()
    return site.render("_strip.html", **site.board_context(s))


# ---------------------------------------------------------------------------
# the entry page (a phone): PIN once, then hands; every form carries the CSRF token


def client_id(request: Request) -> tuple[str, bool]:
    """The browser's own random id (its cookie), and whether it is new."""
    c = request.cookies.get(CLIENT_COOKIE)
    if c and 10 <= len(c) <= 64:
        return c, False
    return Guard.new_client(), True


def with_cookies(response: Response, request: Request, client: str, new: bool, session: str | None = None) -> Response:
    secure = request.url.scheme == "https"
    days = COOKIE_DAYS * 86400  # kept when the browser closes: a phone stays signed in for the evening and after
    if new:
        response.set_cookie(CLIENT_COOKIE, client, max_age=days, httponly=True, samesite="strict", secure=secure,
                            path="/")
    if session is not None:
        response.set_cookie(SESSION_COOKIE, session, max_age=days, httponly=True, samesite="strict", secure=secure,
                            path="/")
    return response


def checked_digest(site: Site, answers: entry_form.Answers, number: int | None, hands: int) -> str:
    """A signature of the answers a verdict was shown for: Save writes only what was checked."""
    payload = json.dumps([answers.fields(), number, hands])
    return hmac.new(site.guard.secret, payload.encode(), hashlib.sha256).hexdigest()


async def entry_page(request: Request, *, answers: entry_form.Answers | None = None, number: int | None = None,
                     error: str | None = None, preview: dict[str, Any] | None = None, notice: str | None = None,
                     status: int = 200, confirm_undo: bool = False) -> Response:
    """The PIN page or the hand form, with any message. A form shown again with its message is a 200
    (Chromium logs every 4xx page as a console error); the JSON interface keeps its 400/401."""
    site = site_of(request)
    client, new = client_id(request)
    s = await site.snapshot()
    token = site.guard.csrf_token(client)
    if not site.guard.session_ok(request.cookies.get(SESSION_COOKIE)):
        resp = site.render("pin.html", status=status if error else 200, csrf=token, error=error,
                           title=site.board_context(s)["title"])
        return with_cookies(resp, request, client, new)
    f = entry_form.build(s.ruleset, s.table)
    if answers is None:
        answers = entry_form.Answers()
        if number is not None:
            answers, notice2 = entry_form.answers_of(s.hands[number - 1], f)
            notice = notice or notice2
    saved = request.query_params.get("saved")
    undone = request.query_params.get("undone")
    recorded_dealer = s.hands[number - 1].get("dealer") if number is not None else None
    hands = [{"number": i + 1, "line": view.bid_line(h), "scores": h["scores"]} for i, h in enumerate(s.state["hands"])]
    ctx = {
        **site.board_context(s), "form": f, "a": answers, "number": number, "error": error, "preview": preview,
        "notice": notice, "csrf": token, "saved": saved if (saved or "").isdigit() else None,
        "undone": undone if (undone or "").isdigit() else None, "recorded_dealer": recorded_dealer,
        "hand_list": list(reversed(hands)),
        "next_dealer": s.board["next_dealer"], "count": len(s.state["hands"]), "confirm_undo": confirm_undo,
    }
    return with_cookies(site.render("entry.html", status=status, **ctx), request, client, new)


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


async def form_guard(request: Request) -> tuple[Any, Response | None]:
    """The posted form, or the page that refuses it (another site's form, a stale token, no PIN)."""
    site = site_of(request)
    if not same_origin(request.headers.get("origin"), request.headers.get("host")):
        return None, site.render("error.html", 403, message="This form was sent from another site: refused.")
    form = await read_form(request)
    client = request.cookies.get(CLIENT_COOKIE)
    token = form.get("csrf")
    if not site.guard.csrf_ok(client, token if isinstance(token, str) else None):
        return form, await entry_page(request, error="This page is older than the server (or came from elsewhere): "
                                                     "it was reloaded; try again.")
    return form, None


async def enter_pin(request: Request) -> Response:
    site = site_of(request)
    form, refused = await form_guard(request)
    if refused:
        return refused
    session = request.cookies.get(SESSION_COOKIE)
    if site.guard.session_ok(session):  # signed in already (a second tab, the back button): no guess to count
        return RedirectResponse("/enter", status_code=303)
    pin = form.get("pin")
    tried = site.guard.try_pin(client_host(request), pin if isinstance(pin, str) else None)
    if tried.throttled:
        resp = await entry_page(request, status=429, error=f"Too many wrong PINs: try again in {tried.retry_after} "
                                "seconds.")
        resp.headers["Retry-After"] = tried.retry_after
        return resp
    if not tried.ok:
        return await entry_page(request, error="Wrong PIN: it is the one `pitchkeeper serve` printed.")
    client, new = client_id(request)
    resp = RedirectResponse("/enter", status_code=303)
    return with_cookies(resp, request, client, new, session=site.guard.session_value())


def _number(form: Any, key: str = "number") -> int | None:
    n = form.get(key)
    return int(n) if isinstance(n, str) and n.isascii() and n.isdigit() and len(n) < 9 else None


def _where_less(message: str, path: Path) -> str:
    """A message for the page: the log's file name is noise on a phone."""
    for prefix in (f"{path}: ", f"{path}:"):
        message = message.replace(prefix, "")
    return message


async def writing_form(request: Request) -> tuple[Any, Response | None]:
    """A form that may write: the form guard's checks, then a session opened with the PIN (else the
    PIN page)."""
    form, refused = await form_guard(request)
    if refused is None and not site_of(request).guard.session_ok(request.cookies.get(SESSION_COOKIE)):
        refused = await entry_page(request, error="Enter the table's PIN first.")
    return form, refused


async def enter_check(request: Request, save: bool = False) -> Response:
    """Judge the answers (nothing written) and show the verdict with a Save button; or save them."""
    site = site_of(request)
    form, refused = await writing_form(request)
    if refused:
        return refused
    s = await site.snapshot()
    number = _number(form)
    f = entry_form.build(s.ruleset, s.table)
    answers = entry_form.read(form, form.getlist)
    count = len(s.state["hands"])
    try:
        hand = entry_form.to_hand(answers, f)
        seen = _number(form, "hands")  # the hands the log had when the verdict was shown
        if save and seen is not None and form.get("checked") == checked_digest(site, answers, number, seen):
            if number is None and count != seen and form.get("again") != "1":
                # someone else saved a hand since this verdict was shown: show it again, ask once more
                change = await run_in_threadpool(site.served.preview_append, hand)
                notice: str | None = (f"Hand {count} was saved from another device since you checked this one. "
                          "If this is a different hand, save it; if it is the same, go back to the scoreboard.")
                return await entry_page(request, answers=answers, number=number, notice=notice,
                                        preview=preview_of(site, s, change, number, answers, again=True))
            if number is None:
                await site.write(site.served.append, hand)
                done = count + 1
            else:
                await site.write(site.served.replace, number, hand)
                done = number
            return RedirectResponse(f"/enter?saved={done}", status_code=303)
        if number is None:
            change = await run_in_threadpool(site.served.preview_append, hand)
        else:
            change = await run_in_threadpool(site.served.preview_replace, number, hand)
    except PitchError as e:
        return await entry_page(request, answers=answers, number=number,
                                error=_where_less(one_line(e), site.served.path))
    notice = "The answers changed since the verdict was shown: check this one, then save." if save else None
    return await entry_page(request, answers=answers, number=number, notice=notice,
                            preview=preview_of(site, s, change, number, answers))


def preview_of(site: Site, s: Snapshot, change: Any, number: int | None, answers: entry_form.Answers,
               again: bool = False) -> dict[str, Any]:
    """The verdict of the hand being entered, and what it does to the match, for the page."""
    labels = {r.id: entry_form.point_words(r) for r in s.ruleset.points}
    state = change.state.to_json()
    n = change.number
    hand = state["hands"][n - 1]
    count = len(state["hands"]) - (1 if number is None else 0)
    # the hand's own row adds up: the totals before it, its change, the totals after it; a correction
    # also shows the match's totals now and as they become (every later hand replayed)
    before_hand = state["hands"][n - 2]["scores"] if n > 1 else {side: 0 for side in hand["scores"]}
    return {
        "number": n, "correcting": number is not None, "bid_line": view.bid_line(hand),
        "lines": view.verdict_lines(hand, labels, dealt_points(s)), "delta": hand["delta"], "before_hand": before_hand,
        "after_hand": hand["scores"], "scores": state["scores"], "later": number is not None and n < count,
        "before": s.state["scores"], "winner": state["winner"], "reason": state["reason"],
        "colours": view.colour_of(s.board),
        "checked": checked_digest(site, answers, number, count), "hands": count, "again": again,
    }


async def enter_save(request: Request) -> Response:
    return await enter_check(request, save=True)


async def enter_home(request: Request) -> Response:
    return await entry_page(request)


async def enter_correct(request: Request) -> Response:
    site = site_of(request)
    s = await site.snapshot()
    n = request.path_params["number"]
    if not 1 <= n <= len(s.state["hands"]):
        raise HTTPException(404, f"there is no hand {n}")
    return await entry_page(request, number=n)


async def enter_undo(request: Request) -> Response:
    """First a confirmation showing the hand that goes; then the undo (of that very hand only)."""
    site = site_of(request)
    form, refused = await writing_form(request)
    if refused:
        return refused
    s = await site.snapshot()
    count = len(s.state["hands"])
    if form.get("confirm") != "1":
        if not count:
            return await entry_page(request, error="There is no hand to undo.")
        return await entry_page(request, confirm_undo=True)
    if str(count) != form.get("hands"):
        return await entry_page(request, error="The match changed meanwhile: look at the last hand again before "
                                               "undoing it.")
    try:
        await site.write(site.served.drop_last)
    except PitchError as e:
        return await entry_page(request, error=_where_less(one_line(e), site.served.path))
    return RedirectResponse(f"/enter?undone={count}", status_code=303)


# ---------------------------------------------------------------------------
# errors: never a traceback page


async def not_found(request: Request, exc: Exception) -> Response:
    status = getattr(exc, "status_code", 404)
    detail = getattr(exc, "detail", "") or ""
    if request.url.path.startswith("/api/"):
        words = {404: f"no such route: {request.method} {request.url.path}", 405: "method not allowed"}
        return api_error(words.get(status, detail or "bad request"), status)
    site = site_of(request)
    message = {404: "Nothing here. The scoreboard is at /, the entry page at /enter.",
               405: "That address does not take this kind of request."}.get(status, detail)
    return site.render("error.html", status, message=message if status != 404 or not detail.startswith("there")
                       else detail)


async def broken_log(request: Request, exc: Exception) -> Response:
    """The log cannot be read (edited by hand into a broken state, say): say so in one line, every page."""
    message = one_line(exc)
    if request.url.path.startswith("/api/"):
        return api_error(message, 500)
    return site_of(request).render("error.html", 500, message=f"The match log cannot be read: {message}. "
                                   "Mend it (pitchkeeper check shows every problem); this page works again at once.")


async def server_error(request: Request, exc: Exception) -> Response:
    message = f"internal error: {type(exc).__name__}"
    if request.url.path.startswith("/api/"):
        return api_error(message, 500)
    return HTMLResponse(f"<!doctype html><title>error</title><p>{message}</p>", status_code=500)


@contextlib.asynccontextmanager
async def lifespan(app: Starlette) -> AsyncIterator[None]:
    site: Site = app.state.site
    task = asyncio.create_task(site.hub.run())
    try:
        yield
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task


def create_app(path: str | Path, pin: str, *, poll: float = 0.05, allowed_hosts: list[str] | None = None,
               entry_url: str | None = None, secret: bytes | None = None) -> Starlette:
    """The ASGI app of one match. `allowed_hosts`: the names and addresses it answers to, besides the
    address each connection came in on (None: this machine's loopback names; web.shield). `entry_url`:
    the entry page's address on the local network, shown on the scoreboard with a QR code to scan.
    `secret`: the table's kept signing secret (web.keys; None: a new one, for this app only)."""
    site = Site(Path(path), pin, poll, entry_url, secret)
    routes = [
        Route("/", scoreboard_page),
        Route("/board", board_part),
        Route("/strip", strip_part),
        Route("/enter", enter_home),
        Route("/enter/pin", enter_pin, methods=["POST"]),
        Route("/enter/check", enter_check, methods=["POST"]),
        Route("/enter/save", enter_save, methods=["POST"]),
        Route("/enter/undo", enter_undo, methods=["POST"]),
        Route("/enter/hand/{number:int}", enter_correct),
        Route("/api/match", api_match),
        Route("/api/hands", api_post_hand, methods=["POST"]),
        Route("/api/hands/last", api_drop_last, methods=["DELETE"]),
        Route("/api/hands/{number:int}", api_put_hand, methods=["PUT"]),
        Route("/api/events", api_events),
        Mount("/static", app=StaticFiles(directory=HERE / "static"), name="static"),
    ]
    middleware = [Middleware(Shield, names=allowed_hosts or LOOPBACK_NAMES, limit=MAX_BODY)]
    app = Starlette(routes=routes, middleware=middleware, lifespan=lifespan,
                    exception_handlers={HTTPException: not_found, PitchError: broken_log,
                                        Exception: server_error})
    app.state.site = site
    return app
