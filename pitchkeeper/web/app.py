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
atomic write); this server also writes one at a time, so each write gets its own event.
"""

from __future__ import annotations

import asyncio
import contextlib
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
from pitchkeeper.game import rulesets
from pitchkeeper.logbook.book import NotNext, Stale
from pitchkeeper.web import entry, view
from pitchkeeper.web import form as entry_form
from pitchkeeper.web.body import checked, form_pairs, parse_json
from pitchkeeper.web.events import Hub
from pitchkeeper.web.guard import CLIENT_COOKIE, COOKIE_DAYS, PIN_HEADER, SESSION_COOKIE, Guard, same_origin
from pitchkeeper.web.served import OneMatch, Served, Snapshot
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
                 secret: bytes | None = None, follow: bool = False) -> None:
        self.served = Served(path, follow)
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
        return {**view.board_context(s), "entry_url": self.entry_url, "entry_qr": self.entry_qr,
                "follow": self.served.follow}

    # -- writing: one at a time in this server; each write's event goes out before the next write

    async def write(self, fn: Any, *args: Any) -> Any:
        async with self.write_lock:
            self.hub.check()  # a change by another writer since the last look is an event of its own
            try:
                return await run_in_threadpool(fn, *args)
            finally:
                self.hub.check()


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


def etag(version: str) -> dict[str, str]:
    return {"ETag": f'"{version}"'}


def if_match(request: Request) -> str | None:
    """The version a write is made against (`If-Match: "VERSION"`), or None (no header, or `*`)."""
    raw = request.headers.get("if-match")
    if raw is None:
        return None
    tag = raw.split(",")[0].strip().removeprefix("W/").strip().strip('"')
    return None if tag == "*" else tag


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
    given = e.where or ""
    where = given.replace(str(path), path.name) if str(path) in given else \
        (f"{path.name}: {given}" if given.startswith("hands[") else given) or None
    message = e.message.replace(str(path), path.name)
    if where and where.startswith(path.name) and "nothing was written" not in message:
        message += " (nothing was written)"
    line = one_line(PitchError(message, where))
    if isinstance(e, Stale):
        return JSONResponse({"error": line, "version": e.version}, status_code=412,
                            headers=etag(e.version) if e.version else None)
    return api_error(line, 409 if isinstance(e, NotNext | OneMatch) else 400)


async def api_post_hand(request: Request) -> Response:
    refused = pin_refused(request)
    if refused:
        return refused
    site = site_of(request)
    try:
        hand, said = await hand_body(request, None)
        state = await site.write(site.served.append, hand, if_match(request), said)
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
        hand, _ = await hand_body(request, n)
        state = await site.write(site.served.replace, n, hand, if_match(request))
    except PitchError as e:
        return api_write_error(site, e)
    return JSONResponse(state)


async def api_drop_last(request: Request) -> Response:
    refused = pin_refused(request)
    if refused:
        return refused
    site = site_of(request)
    try:
        state = await site.write(site.served.drop_last, if_match(request))
    except PitchError as e:
        return api_write_error(site, e)
    return JSONResponse(state)


async def api_new_match(request: Request) -> Response:
    """The table's next game (spec section 7): it becomes the match served, and every open page follows."""
    refused = pin_refused(request)
    if refused:
        return refused
    site = site_of(request)
    if not site.served.follow:
        return api_write_error(site, OneMatch("this server serves one match (serve --match FILE): it starts no "
                                              "other; start the next game with `pitchkeeper new` and serve it"))
    try:
        body = await json_body(request)
        state = await site.write(site.served.new_match, body, if_match(request))
    except PitchError as e:
        return api_write_error(site, e)
    return JSONResponse(state, status_code=201)


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


async def hands_part(request: Request) -> Response:
    """The entry page's list of hands, fetched again on each event (the form above it is left alone)."""
    site = site_of(request)
    s = await site.snapshot()
    client, new = client_id(request)
    resp = site.render("_hands.html", hand_list=view.hand_rows(s), count=s.count, version=s.version,
                       csrf=site.guard.csrf_token(client), confirm_undo=False)
    return with_cookies(resp, request, client, new)


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


async def entry_page(request: Request, *, answers: entry_form.Answers | None = None, number: int | None = None,
                     error: PitchError | str | None = None, preview: dict[str, Any] | None = None,
                     notice: str | None = None, status: int = 200, confirm_undo: bool = False,
                     basis: tuple[str, int] | None = None, s: Snapshot | None = None,
                     new_game: Any = None) -> Response:
    """The PIN page or the hand form, with any message placed at its question. A form shown again with its
    message is a 200 (Chromium logs every 4xx page as a console error); the JSON interface keeps its 4xx.

    `basis`: the version of the log and the hand number the answers were made against (sent back with
    the form, so a hand saved meanwhile by another device is noticed at Check and at Save); a fresh
    form's is the log as it stands."""
    site = site_of(request)
    client, new = client_id(request)
    s = s or await site.snapshot()
    token = site.guard.csrf_token(client)
    if not site.guard.session_ok(request.cookies.get(SESSION_COOKIE)):
        resp = site.render("pin.html", status=status if error else 200, csrf=token, error=error,
                           title=view.title_of(s))
        return with_cookies(resp, request, client, new)
    f = entry_form.build(s.ruleset, s.table)
    if answers is None:
        answers = entry_form.Answers()
        if number is not None:
            answers, notice2 = entry_form.answers_of(s.hands[number - 1], f)
            notice = notice or notice2
    if preview is not None:
        basis = (preview["version"], preview["number"])
    version, hand_no = basis or (s.version, s.count + 1)
    q = request.query_params
    fresh = q.get("v") == s.version  # a "saved" or "undone" flash only while the log is as that write left it
    problem = entry_form.problem(error, f, answers) if error is not None else None
    ctx = {
        **site.board_context(s), "form": f, "a": answers, "number": number, "problem": problem, "preview": preview,
        "notice": notice, "csrf": token, "saved": q.get("saved") if fresh and (q.get("saved") or "").isdigit() else None,
        "undone": q.get("undone") if fresh and (q.get("undone") or "").isdigit() else None,
        "started": q.get("started") if fresh else None,
        "recorded_dealer": s.hands[number - 1].get("dealer") if number is not None else None,
        "hand_list": view.hand_rows(s), "next_dealer": s.board["next_dealer"], "count": s.count,
        "confirm_undo": confirm_undo, "basis_version": version, "basis_hand": hand_no,
        "auction": entry.auction_view(s, answers, number) if not s.won or number is not None else None,
        "next_game": entry.next_game(s) if s.won else None, "new_game": new_game,
        "rulesets": rulesets.builtin_names(),
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


async def writing_form(request: Request) -> tuple[Any, Response | None]:
    """A form that may write: the form guard's checks, then a session opened with the PIN (else the
    PIN page)."""
    form, refused = await form_guard(request)
    if refused is None and not site_of(request).guard.session_ok(request.cookies.get(SESSION_COOKIE)):
        refused = await entry_page(request, error="Enter the table's PIN first.")
    return form, refused


async def enter_check(request: Request, save: bool = False) -> Response:
    """Judge the answers (nothing written) and show the verdict with a Save button; or save them.

    The form says which log it was made against (`version`) and which hand it enters (`hand`): when
    another device saved that hand meanwhile, this phone is shown what was saved beside what it entered
    and asked - discard mine, or record mine as the next hand - never saving the same hand twice."""
    site = site_of(request)
    form, refused = await writing_form(request)
    if refused:
        return refused
    s = await site.snapshot()
    number = _number(form)
    f = entry_form.build(s.ruleset, s.table)
    answers = entry_form.read(form, form.getlist)
    seen = str(form.get("version") or "") or s.version
    hand_no = _number(form, "hand") or s.count + 1
    if form.get("match") not in (None, s.match):
        return await entry_page(request, s=s, notice="A new game was started on another device, so this page is "
                                "for that game now; the hand you were entering was not saved.")
    if number is not None and not 1 <= number <= s.count:
        return await entry_page(request, s=s, notice=f"Hand {number} is no longer in the match (it was undone on "
                                "another device): nothing was saved.")
    basis = (seen, hand_no)
    try:
        hand = entry_form.to_hand(answers, f)
    except PitchError as e:
        return await entry_page(request, s=s, answers=answers, number=number, error=e, basis=basis)
    if number is None and seen != s.version and s.count >= hand_no:
        return await conflict_page(request, s, answers, hand, hand_no)
    if save and form.get("checked") == entry.digest(site.guard.secret, answers, number, seen, hand_no):
        try:
            if number is None:
                await site.write(site.served.append, hand, seen, hand_no)
            else:
                await site.write(site.served.replace, number, hand, seen)
        except (Stale, NotNext):
            s = await site.snapshot()
            if number is None and s.count >= hand_no:
                return await conflict_page(request, s, answers, hand, hand_no)
            notice: str | None = ("The match changed on another device since you checked this hand: here it is "
                                  "checked again; save it if it is still right.")
            return await check_page(request, s, answers, hand, number, notice)
        except PitchError as e:
            return await entry_page(request, s=s, answers=answers, number=number, error=e, basis=basis)
        version = await run_in_threadpool(lambda: site.served.book().version)
        return RedirectResponse(f"/enter?saved={number or hand_no}&v={version}", status_code=303)
    notice = "The answers changed since the verdict was shown: check this one, then save." if save else None
    if number is None and seen != s.version and hand_no != s.count + 1:
        notice = (f"The match changed on another device since this page was opened: this is hand {s.count + 1} "
                  "now.")
    return await check_page(request, s, answers, hand, number, notice)


async def check_page(request: Request, s: Snapshot, answers: entry_form.Answers, hand: Any, number: int | None,
                     notice: str | None) -> Response:
    """The verdict of the answers against the log as it stands, with the Save button (its form says so)."""
    site = site_of(request)
    try:
        if number is None:
            change = await run_in_threadpool(site.served.preview_append, hand, s.version)
        else:
            change = await run_in_threadpool(site.served.preview_replace, number, hand)
    except Stale:  # written meanwhile, between the look and the check: check against the log as it is now
        return await check_page(request, await site.snapshot(), answers, hand, number, notice)
    except PitchError as e:
        return await entry_page(request, s=s, answers=answers, number=number, error=e)
    checked = entry.digest(site.guard.secret, answers, number, s.version, change.number)
    return await entry_page(request, s=s, answers=answers, number=number, notice=notice,
                            preview=entry.preview(s, change, number, checked))


async def conflict_page(request: Request, s: Snapshot, answers: entry_form.Answers, hand: Any,
                        saved_as: int) -> Response:
    """Hand N was saved by another device while this one entered it: both shown, and the question."""
    site = site_of(request)
    notice = f"Hand {saved_as} was saved on another device while you were entering it."
    try:
        change = await run_in_threadpool(site.served.preview_append, hand, s.version)
    except Stale:
        return await conflict_page(request, await site.snapshot(), answers, hand, saved_as)
    except PitchError as e:  # yours cannot be the next hand (the game was won, say): only discard is left
        return await entry_page(request, s=s, answers=answers, notice=notice, error=e,
                                preview={"conflict": entry.conflict(s, saved_as, None), "version": s.version,
                                         "number": s.count + 1, "only_discard": True})
    checked = entry.digest(site.guard.secret, answers, None, s.version, change.number)
    p = entry.preview(s, change, None, checked)
    p["conflict"] = entry.conflict(s, saved_as, p)
    return await entry_page(request, s=s, answers=answers, notice=notice, preview=p)


async def enter_save(request: Request) -> Response:
    return await enter_check(request, save=True)


async def enter_home(request: Request) -> Response:
    return await entry_page(request)


async def enter_correct(request: Request) -> Response:
    site = site_of(request)
    s = await site.snapshot()
    n = request.path_params["number"]
    if not 1 <= n <= s.count:
        raise HTTPException(404, f"there is no hand {n}")
    return await entry_page(request, number=n, s=s)


async def enter_auction(request: Request) -> Response:
    """One tap in the auction (nothing written): the page again with the call added - whoever speaks next -
    and, once the auction is whole, its bidder and bid filled in."""
    site = site_of(request)
    form, refused = await writing_form(request)
    if refused:
        return refused
    s = await site.snapshot()
    number = _number(form)
    answers = entry_form.read(form, form.getlist)
    basis = (str(form.get("version") or "") or s.version, _number(form, "hand") or s.count + 1)
    error: PitchError | None = None
    try:
        answers = entry.tap(s, answers, number, str(form.get("call") or ""))
    except PitchError as e:
        error = PitchError(e.message, "auction")
    return await entry_page(request, s=s, answers=answers, number=number, error=error, basis=basis)


async def enter_next(request: Request) -> Response:
    """"Next game" after a win: the same seats (the deal passed on), or new players, ruleset or teams. The
    table's next game: the scoreboard and every open page move to it."""
    site = site_of(request)
    form, refused = await writing_form(request)
    if refused:
        return refused
    s = await site.snapshot()
    seen = str(form.get("version") or "") or None
    body: dict[str, Any] = {"rematch": True}
    try:
        if form.get("how") == "new":
            body = entry.new_match_body(form)
        await site.write(site.served.new_match, body, seen)
    except Stale:
        return RedirectResponse(f"/enter?started=elsewhere&v={(await site.snapshot()).version}", status_code=303)
    except PitchError as e:
        return await entry_page(request, s=s, error=PitchError(e.message, f"ng.{e.where or ''}"),
                                new_game=form if body.get("rules") is not None else None)
    return RedirectResponse(f"/enter?started=here&v={(await site.snapshot()).version}", status_code=303)


async def enter_undo(request: Request) -> Response:
    """First a confirmation showing the hand that goes; then the undo (of that very hand only)."""
    site = site_of(request)
    form, refused = await writing_form(request)
    if refused:
        return refused
    s = await site.snapshot()
    if form.get("confirm") != "1":
        if not s.count:
            return await entry_page(request, s=s, error="There is no hand to undo.")
        return await entry_page(request, s=s, confirm_undo=True)
    try:
        await site.write(site.served.drop_last, str(form.get("version") or "") or None)
    except Stale:
        return await entry_page(request, error="The match changed on another device meanwhile: look at the last "
                                               "hand again before undoing it.")
    except PitchError as e:
        return await entry_page(request, s=s, error=e)
    version = await run_in_threadpool(lambda: site.served.book().version)
    return RedirectResponse(f"/enter?undone={s.count}&v={version}", status_code=303)


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
               entry_url: str | None = None, secret: bytes | None = None, follow: bool = False) -> Starlette:
    """The ASGI app of the table (`follow`: the data folder's current match, `path` being the current one
    now) or of one match (`path`). `allowed_hosts`: the names and addresses it answers to, besides the
    address each connection came in on (None: this machine's loopback names; web.shield). `entry_url`:
    the entry page's address on the local network, shown on the scoreboard with a QR code to scan.
    `secret`: the table's kept signing secret (web.keys; None: a new one, for this app only)."""
    site = Site(Path(path), pin, poll, entry_url, secret, follow)
    routes = [
        Route("/", scoreboard_page),
        Route("/board", board_part),
        Route("/strip", strip_part),
        Route("/enter", enter_home),
        Route("/enter/hands", hands_part),
        Route("/enter/pin", enter_pin, methods=["POST"]),
        Route("/enter/check", enter_check, methods=["POST"]),
        Route("/enter/save", enter_save, methods=["POST"]),
        Route("/enter/undo", enter_undo, methods=["POST"]),
        Route("/enter/auction", enter_auction, methods=["POST"]),
        Route("/enter/next", enter_next, methods=["POST"]),
        Route("/enter/hand/{number:int}", enter_correct),
        Route("/api/match", api_match),
        Route("/api/hands", api_post_hand, methods=["POST"]),
        Route("/api/hands/last", api_drop_last, methods=["DELETE"]),
        Route("/api/hands/{number:int}", api_put_hand, methods=["PUT"]),
        Route("/api/matches", api_new_match, methods=["POST"]),
        Route("/api/events", api_events),
        Mount("/static", app=StaticFiles(directory=HERE / "static"), name="static"),
    ]
    middleware = [Middleware(Shield, names=allowed_hosts or LOOPBACK_NAMES, limit=MAX_BODY)]
    app = Starlette(routes=routes, middleware=middleware, lifespan=lifespan,
                    exception_handlers={HTTPException: not_found, PitchError: broken_log,
                                        Exception: server_error})
    app.state.site = site
    return app
