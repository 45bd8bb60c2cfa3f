"""The entry page for a phone (`/enter`): the PIN once, then a hand's questions, its verdict before Save,
corrections, undo, the auction by taps, the next game. Served for the table (app.py) and, at a club night,
for each table keeping its game hand by hand (night.py, under `/table/T/game`): the routes find their
match in the request (`site.site_of`), and every address they give is under its `base`.

A form shown again with its message is a 200 (Chromium logs every 4xx page as a console error); the JSON
interface keeps its 4xx. Every write goes through the site's `write` (the Logbook's lock and checks).
"""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import BaseRoute, Route

from pitchkeeper.errors import PitchError
from pitchkeeper.game import rulesets
from pitchkeeper.logbook.book import NotNext, Stale
from pitchkeeper.web import analysed, entry, view
from pitchkeeper.web import form as entry_form
from pitchkeeper.web.guard import CLIENT_COOKIE, same_origin
from pitchkeeper.web.served import BrokenLog, Snapshot
from pitchkeeper.web.site import client_host, client_id, number_field, read_form, site_of, with_cookies


async def hands_part(request: Request) -> Response:
    """The entry page's list of hands, fetched again on each event (the form above it is left alone)."""
    site = site_of(request)
    s = await site.snapshot()
    client, new = client_id(request)
    resp = site.render("_hands.html", hand_list=view.hand_rows(s), count=s.count, version=s.version,
                       csrf=site.guard.csrf_token(client), confirm_undo=False,
                       par=await analysed.of_snapshot(site.analyst, s))
    return with_cookies(resp, request, client, new)



# ---------------------------------------------------------------------------
# the entry page (a phone): PIN once, then hands; every form carries the CSRF token


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
    if not site.guard.signed_in(request.cookies):
        resp = site.render("pin.html", status=status if error else 200, csrf=token, error=error,
                           title=view.title_of(s))
        return with_cookies(resp, request, client, new)
    f = entry_form.build(s.ruleset, s.table)
    why = entry.gone(s, number)
    if why is not None:  # a correction of a hand undone meanwhile: the form for the next hand, and why
        number, answers, preview, basis, notice = None, None, None, None, notice or why
    if answers is None:
        answers = entry_form.Answers()
        if number is not None:
            answers, notice2 = entry_form.answers_of(s.hands[number - 1], f)
            notice = notice or notice2
    f = entry_form.fitted(f, answers)  # a hand recorded at the command line: its answers as recorded
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
        "rulesets": rulesets.builtin_names(), "par": await analysed.of_snapshot(site.analyst, s),
    }
    return with_cookies(site.render("entry.html", status=status, **ctx), request, client, new)


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
    if site.guard.signed_in(request.cookies):  # signed in already (a second tab, the back button): no guess
        return RedirectResponse(f"{site.base}/enter", status_code=303)
    pin = form.get("pin")
    tried = site.guard.try_pin(client_host(request), pin if isinstance(pin, str) else None)
    if tried.throttled:
        resp = await entry_page(request, status=429, error=f"Too many wrong PINs: try again in {tried.retry_after} "
                                "seconds.")
        resp.headers["Retry-After"] = tried.retry_after
        return resp
    if not tried.ok:
        return await entry_page(request, error=site.wrong_pin)
    client, new = client_id(request)
    resp = RedirectResponse(f"{site.base}/enter", status_code=303)
    return with_cookies(resp, request, client, new, session=site.guard.session_for(pin if isinstance(pin, str) else None))


async def writing_form(request: Request) -> tuple[Any, Response | None]:
    """A form that may write: the form guard's checks, then a session opened with the PIN (else the
    PIN page)."""
    form, refused = await form_guard(request)
    if refused is None and not site_of(request).guard.signed_in(request.cookies):
        refused = await entry_page(request, error="Enter the table's PIN first.")
    return form, refused


async def enter_check(request: Request, save: bool = False) -> Response:
    """Judge the answers (nothing written) and show the verdict with a Save button; or save them.

    The form says which log it was made against (`version`) and which hand it enters (`hand`): when
    another device saved that hand meanwhile, this phone is shown what was saved beside what it entered
    and asked - discard mine, or record mine as the next hand - never saving the same hand twice."""
    site = site_of(request)
    opened = await standing_form(request)
    if isinstance(opened, Response):
        return opened
    form, s, number = opened
    f = entry_form.build(s.ruleset, s.table)
    answers = entry_form.read(form, form.getlist)
    seen = str(form.get("version") or "") or s.version
    hand_no = number_field(form, "hand") or s.count + 1
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
        return RedirectResponse(f"{site.base}/enter?saved={number or hand_no}&v={version}", status_code=303)
    notice = "The answers changed since the verdict was shown: check this one, then save." if save else None
    if number is None and seen != s.version and hand_no != s.count + 1:
        notice = (f"The match changed on another device since this page was opened: this is hand {s.count + 1} "
                  "now.")
    return await check_page(request, s, answers, hand, number, notice)


async def standing_form(request: Request) -> tuple[Any, Snapshot, int | None] | Response:
    """A form that may write, made for the match as it is now: (the form, the match now, the hand it
    corrects), or the page to show instead - the PIN page, or the page for now when the form was made for
    a game or a hand that is no longer there (`moved_on`)."""
    form, refused = await writing_form(request)
    if refused:
        return refused
    s = await site_of(request).snapshot()
    number = number_field(form)
    refused = await moved_on(request, s, form, number)
    if refused is not None:
        return refused
    return form, s, number


async def moved_on(request: Request, s: Snapshot, form: Any, number: int | None) -> Response | None:
    """The page for now, when the form was made for what is no longer there: another game (started on
    another device), or a hand undone meanwhile (a correction's); None while the form still stands."""
    if form.get("match") not in (None, s.match):
        return await entry_page(request, s=s, notice="A new game was started on another device, so this page is "
                                "for that game now; the hand you were entering was not saved.")
    why = entry.gone(s, number)
    if why is not None:
        return await entry_page(request, s=s, notice=why)
    return None


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
    p = {**entry.preview(s, change, number, checked), "par": await analysed.of_change(site.analyst, change)}
    return await entry_page(request, s=s, answers=answers, number=number, notice=notice, preview=p)


async def conflict_page(request: Request, s: Snapshot, answers: entry_form.Answers, hand: Any,
                        saved_as: int) -> Response:
    """Hand N was saved by another device while this one entered it: both shown, and the question -
    discard mine (said outright when they are the same hand), or record mine as the next hand (its tapped
    auction judged again against the next hand's dealer)."""
    site = site_of(request)
    notice = f"Hand {saved_as} was saved on another device while you were entering it."
    f = entry_form.build(s.ruleset, s.table)
    same = await run_in_threadpool(entry.same_hand, site.served, s, answers, f, saved_as)
    mine, moved, recordable = entry.as_next_hand(s, answers, saved_as)
    refused: PitchError | None = None
    change = None
    if recordable:
        try:
            change = await run_in_threadpool(site.served.preview_append, entry_form.to_hand(mine, f), s.version)
        except Stale:
            return await conflict_page(request, await site.snapshot(), answers, hand, saved_as)
        except PitchError as e:  # yours cannot be the next hand (the game was won, say): only discard is left
            refused = e
    card = entry.conflict(s, saved_as, same, moved)
    if change is None:
        return await entry_page(request, s=s, answers=mine, notice=notice, error=refused,
                                preview={"conflict": card, "version": s.version, "number": s.count + 1,
                                         "only_discard": True})
    checked = entry.digest(site.guard.secret, mine, None, s.version, change.number)
    p = entry.preview(s, change, None, checked)
    p["conflict"] = card
    return await entry_page(request, s=s, answers=mine, notice=notice, preview=p)


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
    opened = await standing_form(request)
    if isinstance(opened, Response):
        return opened
    form, s, number = opened
    answers = entry_form.read(form, form.getlist)
    basis = (str(form.get("version") or "") or s.version, number_field(form, "hand") or s.count + 1)
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
        return RedirectResponse(f"{site.base}/enter?started=elsewhere&v={(await site.snapshot()).version}", status_code=303)
    except PitchError as e:
        return await entry_page(request, s=s, error=PitchError(e.message, f"ng.{e.where or ''}"),
                                new_game=form if body.get("rules") is not None else None)
    return RedirectResponse(f"{site.base}/enter?started=here&v={(await site.snapshot()).version}", status_code=303)


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
    return RedirectResponse(f"{site.base}/enter?undone={s.count}&v={version}", status_code=303)


Handler = Callable[[Request], Awaitable[Response]]


def answered(handler: Handler) -> Handler:
    """A page route whose bad input, wherever it is found, is said at its question on the entry page (a
    200, with the answers kept), never as a broken log: only a log that cannot be read is that (BrokenLog,
    app.py's page)."""

    @functools.wraps(handler)
    async def route(request: Request) -> Response:
        try:
            return await handler(request)
        except BrokenLog:
            raise
        except PitchError as e:
            return await refused_page(request, e)

    return route


async def refused_page(request: Request, e: PitchError) -> Response:
    """The entry page with `e` at its question: the posted answers kept where they still make a form."""
    answers, number = None, None
    if request.method == "POST":
        form = await read_form(request)  # the body was read already: the same bytes
        answers, number = entry_form.read(form, form.getlist), number_field(form)
    try:
        return await entry_page(request, answers=answers, number=number, error=e)
    except BrokenLog:
        raise
    except PitchError:  # the answers themselves cannot be laid out: the message on a fresh form
        return await entry_page(request, error=e)


def routes() -> list[BaseRoute]:
    """The entry page's routes (mounted as they are, or under a night table's `/table/T/game`)."""
    return [
        Route("/enter", answered(enter_home)),
        Route("/enter/hands", hands_part),
        Route("/enter/pin", answered(enter_pin), methods=["POST"]),
        Route("/enter/check", answered(enter_check), methods=["POST"]),
        Route("/enter/save", answered(enter_save), methods=["POST"]),
        Route("/enter/undo", answered(enter_undo), methods=["POST"]),
        Route("/enter/auction", answered(enter_auction), methods=["POST"]),
        Route("/enter/next", answered(enter_next), methods=["POST"]),
        Route("/enter/hand/{number:int}", answered(enter_correct)),
    ]
