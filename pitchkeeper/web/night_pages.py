"""The night's pages: the hall screen (`/`), each table's phone (`/table/T`), the organizer's (`/organizer`).

The hall screen needs nothing; a table's page shows its seats to anyone and asks for the table's PIN (the
one on its card, or the organizer's) before it takes a result; the organizer's page asks for the
organizer's PIN. A PIN given once is kept as a session cookie (the table's serve does the same). Every
form carries the CSRF token and is refused from another site; a form shown again with its message is a
200, its message beside its question. Every write is the library's (tournament.night), through
`Night.write`.
"""

from __future__ import annotations

import json
from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.routing import BaseRoute, Route

from pitchkeeper.errors import PitchError
from pitchkeeper.game import match, rulesets
from pitchkeeper.game.rulesets import Ruleset
from pitchkeeper.logbook.book import NotNext, Stale
from pitchkeeper.tournament import book
from pitchkeeper.tournament import html as cards_html
from pitchkeeper.tournament import night as desk
from pitchkeeper.tournament.model import side_name
from pitchkeeper.web import night_view, view
from pitchkeeper.web.guard import CLIENT_COOKIE, Guard, same_origin
from pitchkeeper.web.night import Night, Snap, night_of
from pitchkeeper.web.site import client_host, client_id, number_field, page_headers, read_form, with_cookies

# ---------------------------------------------------------------------------
# the hall screen


async def hall_page(request: Request) -> Response:
    night = night_of(request)
    return night.render("hall.html", **night_view.hall(await night.snap()))


async def hall_part(request: Request) -> Response:
    night = night_of(request)
    return night.render("_hall.html", **night_view.hall(await night.snap()))


# ---------------------------------------------------------------------------
# forms: the guard, the answers, the message at its question


async def form_guard(request: Request, night: Night) -> tuple[Any, str | None]:
    """The posted form, or why it is refused (another site's form, a stale token)."""
    if not same_origin(request.headers.get("origin"), request.headers.get("host")):
        return None, "This form was sent from another site: refused."
    form = await read_form(request)
    token = form.get("csrf")
    if not night.organizer.csrf_ok(request.cookies.get(CLIENT_COOKIE), token if isinstance(token, str) else None):
        return form, "This page is older than the server (or came from elsewhere): it was reloaded; try again."
    return form, None


def answers_of(form: Any, count: int) -> dict[str, Any]:
    """A result as typed: the winner's side (its index) and each side's score, as text."""
    winner = number_field(form, "winner")
    return {"winner": winner if winner is not None and winner < count else None,
            "scores": [str(form.get(f"s{i}") or "").strip() for i in range(count)]}


def to_result(a: dict[str, Any], sides: list[dict[str, Any]]) -> tuple[dict[str, int], str]:
    """The answers as the library takes them ({side: score}, winner); PitchError at the question left open."""
    missing = [s["words"] for s, v in zip(sides, a["scores"], strict=True) if not v]
    bad = [(s["words"], v) for s, v in zip(sides, a["scores"], strict=True) if v and not _whole(v)]
    if a["winner"] is None:
        left = f" (nor a score for {', '.join(missing)})" if missing else ""
        raise PitchError(f"Who won? No answer yet: tap the winning side{left}.", "winner")
    if missing:
        raise PitchError(f"No score yet for {' and '.join(missing)}: type each side's final score.", "score")
    if bad:
        raise PitchError(f"{bad[0][0]}: {bad[0][1]!r} is not a whole number (a score in the hole is typed with a "
                         "minus, -5).", "score")
    scores = {s["name"]: int(v.replace("−", "-")) for s, v in zip(sides, a["scores"], strict=True)}
    return scores, sides[a["winner"]]["name"]


def _whole(v: str) -> bool:
    v = v.replace("−", "-")
    digits = v[1:] if v.startswith("-") else v
    return digits.isascii() and digits.isdigit() and len(digits) <= 5


def field_of(e: PitchError) -> str:
    """The question a problem is about: the winner, the scores, or the page."""
    where = e.where or ""
    return "winner" if where.startswith("winner") else "score" if where.startswith("score") else ""


def page_words(e: PitchError, night: Night) -> str:
    """A library message in the page's words: no file, no key."""
    if isinstance(e, book.CannotHaveWon):
        game = f"a game counting down from {e.target}" if e.down else f"a game to {e.target}"
        return f"{e.side} won with {e.score} point{'' if abs(e.score) == 1 else 's'}: {game} is won at {e.goal}. " \
               "Check the score."
    message = e.message.replace(str(night.path), night.path.name)
    return message[0].upper() + message[1:] if message else message


def digest(guard: Guard, *parts: Any) -> str:
    return guard.sign("checked", json.dumps(parts))


# ---------------------------------------------------------------------------
# a table's phone


async def table_page(request: Request, *, answers: dict[str, Any] | None = None, error: PitchError | str | None = None,
                     confirm: dict[str, Any] | None = None, notice: str | None = None, status: int = 200,
                     field: str = "") -> Response:
    """A table's phone; `error` at its question (`field`: "pin" for a message about the PIN given)."""
    night = night_of(request)
    table = int(request.path_params["table"])
    snap = await night.snap()
    ctx = night_view.table_view(snap, table)
    if ctx is None:
        cur = snap.current
        raise HTTPException(404, f"there is no table {table} this round" + (
            f" (round {cur.number} has tables 1-{len(cur.tables)})" if cur is not None else
            " (no round has been seated yet)"))
    guard = night.guard_of(table)
    client, new = client_id(request)
    q = request.query_params
    fresh = q.get("v") == snap.version
    problem = None
    if error is not None:
        problem = {"field": field_of(error) if isinstance(error, PitchError) else field,
                   "text": page_words(error, night) if isinstance(error, PitchError) else error}
    if notice is None and q.get("unsent"):
        notice = unsent_words(snap, table, ctx["round"], q["unsent"])
    resp = night.render("table.html", status, **ctx, signed=guard.signed_in(request.cookies),
                        csrf=night.organizer.csrf_token(client), a=answers or {"winner": None, "scores": []},
                        problem=problem, confirm=confirm, notice=notice,
                        reported_here=q.get("reported") if fresh else None)
    return with_cookies(resp, request, client, new)


def unsent_words(snap: Snap, table: int, now: int, typed: str) -> str | None:
    """What a phone's form typed and never sent (`round;winner;score,score`, kept by entry.js) became, when the
    page moved on without it: the table reported from another phone, or the next round seated. None when
    nothing was typed, or nothing happened to it."""
    parts = typed.split(";")
    if len(parts) != 3 or not parts[0].isdigit():
        return None
    rnd, won = int(parts[0]), int(parts[1]) if parts[1].isdigit() else None
    t = snap.t
    seat = t.rounds[rnd - 1].table(table) if 0 < rnd <= len(t.rounds) else None
    if seat is None:
        return None
    names = [" & ".join(s) for s in seat.sides]
    scores = [v.strip() for v in parts[2].split(",")]
    if len(scores) != len(names) or not all(_whole(v) for v in scores if v):
        return None
    if won is not None and won >= len(names):
        won = None
    if won is None and not any(scores):
        return None
    shown = "-".join(view.number(int(v.replace("−", "-"))) if v else "?" for v in scores)
    yours = shown + (f", {names[won]} won" if won is not None else "")
    res = t.final.get((rnd, table))
    if rnd == now:
        if res is None:
            return None
        if won == res.winner and scores == [str(v) for v in res.scores]:
            return "Reported from another phone: the same result as yours."
        return f"Reported from another phone: yours ({yours}) was not sent; a correction is the organizer's."
    if rnd > now:
        return None
    counted = "" if res is None else (f"; round {rnd} at this table counts " + " – ".join(
        f"{n} {view.number(v)}" for n, v in zip(names, res.scores, strict=True)) + f", {names[res.winner]} won"
        + (" (declared forfeit)" if res.forfeit else ""))
    return (f"Round {now} has been seated: the round-{rnd} result typed on this phone ({' – '.join(names)}: {yours}) "
            f"was not reported{counted}. If that is wrong, tell the organizer: a correction is theirs.")


async def table_part(request: Request) -> Response:
    night = night_of(request)
    table = int(request.path_params["table"])
    ctx = night_view.table_view(await night.snap(), table)
    if ctx is None:
        raise HTTPException(404, f"there is no table {table} this round")
    return night.render("_table.html", **ctx)


async def table_pin(request: Request) -> Response:
    night = night_of(request)
    table = int(request.path_params["table"])
    form, why = await form_guard(request, night)
    if why:
        return await table_page(request, error=why)
    guard = night.guard_of(table)
    if guard.signed_in(request.cookies):
        return RedirectResponse(f"/table/{table}", status_code=303)
    pin = form.get("pin") if isinstance(form.get("pin"), str) else None
    tried = guard.try_pin(client_host(request), pin, known=lambda p: night.pin_of_table(p) is not None)
    if tried.throttled:
        resp = await table_page(request, status=429, field="pin", error=f"Too many wrong PINs: try again in "
                                f"{tried.retry_after} seconds.")
        resp.headers["Retry-After"] = tried.retry_after
        return resp
    if not tried.ok:
        other = night.pin_of_table(pin) if tried.known else None
        return await table_page(request, field="pin", error=f"That is the PIN of table {other}: this is table {table}, whose PIN "
                                "is on its own card." if other is not None else
                                f"Wrong PIN: it is the one printed on the card of table {table}.")
    client, new = client_id(request)
    return with_cookies(RedirectResponse(f"/table/{table}", status_code=303), request, client, new,
                        session=guard.session_for(pin))


async def _table_form(request: Request) -> tuple[Night, int, Snap, dict[str, Any], Any, Response | None]:
    """A table's posted form, signed in, for the round being played (else the page that says why not)."""
    night = night_of(request)
    table = int(request.path_params["table"])
    form, why = await form_guard(request, night)
    snap = await night.snap()
    ctx = night_view.table_view(snap, table)
    if why:
        return night, table, snap, {}, form, await table_page(request, error=why)
    if ctx is None:
        return night, table, snap, {}, form, await table_page(request)
    if not night.guard_of(table).signed_in(request.cookies):
        return night, table, snap, ctx, form, await table_page(request, field="pin", error="Enter the table's PIN first.")
    if number_field(form, "round") != ctx["round"]:
        return night, table, snap, ctx, form, await table_page(request, notice=(
            f"Round {ctx['round']} was seated meanwhile: this page is for round {ctx['round']} now, and nothing was "
            "reported."))
    return night, table, snap, ctx, form, None


async def table_check(request: Request, save: bool = False) -> Response:
    """The result as typed, checked by the library (nothing written) and shown to confirm; or reported."""
    night, table, _snap, ctx, form, refused = await _table_form(request)
    if refused:
        return refused
    a = answers_of(form, len(ctx["sides"]))
    try:
        scores, winner = to_result(a, ctx["sides"])
        checked = digest(night.organizer, table, ctx["round"], scores, winner)
        if save and form.get("checked") == checked:
            await night.write(desk.report, night.path, table, scores, winner, rnd=ctx["round"])
            version = (await night.snap()).version
            return RedirectResponse(f"/table/{table}?reported={ctx['round']}&v={version}", status_code=303)
        await night.write(desk.report, night.path, table, scores, winner, rnd=ctx["round"], dry_run=True)
    except (desk.Duplicate, desk.OtherRound, desk.Over) as e:
        return await table_page(request, notice=page_words(e, night))
    except PitchError as e:
        return await table_page(request, answers=a, error=e)
    won = a["winner"]
    confirm = {"checked": checked, "winner": won, "lower": behind_words(rulesets.load(_snap.t.rules), ctx["sides"],
                                                                        list(scores.values()), won),
               "scores": [view.number(int(v.replace("−", "-"))) for v in a["scores"]]}
    note = "The answers changed since they were checked: check them, then report." if save else None
    return await table_page(request, answers=a, confirm=confirm, notice=note)


def behind_words(ruleset: Ruleset, sides: list[dict[str, Any]], scores: list[int], won: int) -> str:
    """The question to ask when the winner is behind another side ("" when it is not), with the rule of the
    ruleset that allows it, as the library reads the result (match.reported)."""
    r = match.reported(ruleset, scores, won)
    if not r.behind:
        return ""
    which = "higher" if ruleset.direction == "down" else "lower"
    why = f" (In {ruleset.name} {r.why_behind}.)" if r.why_behind else ""
    return f"{sides[won]['words']} won with the {which} score: right?{why}"


async def table_report(request: Request) -> Response:
    return await table_check(request, save=True)


async def table_keep(request: Request) -> Response:
    """The table keeps its game hand by hand: its log made, then the table's entry page on it."""
    night, table, _snap, ctx, _form, refused = await _table_form(request)
    if refused:
        return refused
    try:
        await night.write(desk.start_game, night.path, table, rnd=ctx["round"])
    except (desk.Duplicate, desk.OtherRound, desk.Over) as e:
        return await table_page(request, notice=page_words(e, night))
    except PitchError as e:
        return await table_page(request, error=e)
    return RedirectResponse(f"/table/{table}/game/enter", status_code=303)


# ---------------------------------------------------------------------------
# the organizer


async def organizer_page(request: Request, *, error: str | None = None, notice: str | None = None,
                         status: int = 200, form: dict[str, Any] | None = None, pin_error: str | None = None) -> Response:
    night = night_of(request)
    snap = await night.snap()
    client, new = client_id(request)
    signed = night.organizer.signed_in(request.cookies)
    q = request.query_params
    fresh = q.get("v") == snap.version
    done = q.get("done") if fresh else None
    resp = night.render("organizer.html", status, **night_view.organizer(snap), signed=signed,
                        csrf=night.organizer.csrf_token(client), error=error, notice=notice, done=done,
                        pins=sorted(night.pins.items()) if signed else [], form=form, pin_error=pin_error,
                        confirm_close=q.get("confirm") == "close" and signed)
    return with_cookies(resp, request, client, new)


async def organizer_part(request: Request) -> Response:
    night = night_of(request)
    snap = await night.snap()
    return night.render("_organizer.html", **night_view.organizer(snap),
                        signed=night.organizer.signed_in(request.cookies),
                        csrf=night.organizer.csrf_token(client_id(request)[0]))


async def organizer_pin(request: Request) -> Response:
    night = night_of(request)
    form, why = await form_guard(request, night)
    if why:
        return await organizer_page(request, error=why)
    if night.organizer.signed_in(request.cookies):
        return RedirectResponse("/organizer", status_code=303)
    pin = form.get("pin") if isinstance(form.get("pin"), str) else None
    tried = night.organizer.try_pin(client_host(request), pin, known=lambda p: night.pin_of_table(p) is not None)
    if tried.throttled:
        resp = await organizer_page(request, status=429, pin_error=f"Too many wrong PINs: try again in "
                                    f"{tried.retry_after} seconds.")
        resp.headers["Retry-After"] = tried.retry_after
        return resp
    if not tried.ok:
        other = night.pin_of_table(pin) if tried.known else None
        return await organizer_page(request, pin_error=f"That is the PIN of table {other}: the organizer's is the one "
                                    "`pitchkeeper serve` printed." if other is not None else
                                    "Wrong PIN: the organizer's is the one `pitchkeeper serve` printed.")
    client, new = client_id(request)
    return with_cookies(RedirectResponse("/organizer", status_code=303), request, client, new,
                        session=night.organizer.session_for(pin))


async def _organizer_form(request: Request) -> tuple[Night, Any, Response | None]:
    night = night_of(request)
    form, why = await form_guard(request, night)
    if why:
        return night, form, await organizer_page(request, error=why)
    if not night.organizer.signed_in(request.cookies):
        return night, form, await organizer_page(request, pin_error="Enter the organizer's PIN first.")
    return night, form, None


async def organizer_seat(request: Request) -> Response:
    night, form, refused = await _organizer_form(request)
    if refused:
        return refused
    number = number_field(form, "round")
    try:
        await night.write(desk.seat_next, night.path, number=number)
    except NotNext as e:
        return await organizer_page(request, notice=page_words(e, night) + " (on another device).")
    except PitchError as e:
        return await organizer_page(request, error=page_words(e, night))
    version = (await night.snap()).version
    return RedirectResponse(f"/organizer?done=seated&v={version}", status_code=303)


async def organizer_close(request: Request) -> Response:
    night, form, refused = await _organizer_form(request)
    if refused:
        return refused
    if form.get("confirm") != "1":
        return RedirectResponse("/organizer?confirm=close", status_code=303)
    try:
        await night.write(desk.close, night.path, expect=str(form.get("version") or "") or None)
    except Stale:
        return await organizer_page(request, notice="A result came in meanwhile: look at the round again before "
                                    "closing the night.")
    except PitchError as e:
        return await organizer_page(request, error=page_words(e, night))
    version = (await night.snap()).version
    return RedirectResponse(f"/organizer?done=closed&v={version}", status_code=303)


async def result_form(request: Request) -> Response:
    """The organizer's form for one table's result: a correction (reported) or a forfeit (still playing)."""
    night = night_of(request)
    rnd, table = int(request.path_params["round"]), int(request.path_params["table"])
    snap = await night.snap()
    t = snap.t
    seat = t.rounds[rnd - 1].table(table) if 0 < rnd <= len(t.rounds) else None
    if seat is None:
        raise HTTPException(404, f"there is no table {table} in round {rnd}")
    res = t.final.get((rnd, table))
    sides: list[dict[str, Any]] = [{"index": i, "name": side_name(s), "words": " & ".join(s)}
                                   for i, s in enumerate(seat.sides)]
    a: dict[str, Any] = {"winner": res.winner, "scores": [str(v) for v in res.scores]} if res else {"winner": None, "scores": []}
    game = snap.games.get(table) if rnd == len(t.rounds) else None
    if res is None and game is not None:
        a["scores"] = [str(game.scores.get(s["name"], 0)) for s in sides]
    return await organizer_page(request, form={"round": rnd, "table": table, "sides": sides, "a": a,
                                               "forfeit": res is None, "was": res is not None})


async def organizer_result(request: Request) -> Response:
    """Save a correction or a forfeit."""
    night, form, refused = await _organizer_form(request)
    if refused:
        return refused
    rnd, table = number_field(form, "round") or 0, number_field(form, "table") or 0
    snap = await night.snap()
    t = snap.t
    seat = t.rounds[rnd - 1].table(table) if 0 < rnd <= len(t.rounds) else None
    if seat is None:
        return await organizer_page(request, error=f"There is no table {table} in round {rnd}.")
    sides = [{"index": i, "name": side_name(s), "words": " & ".join(s)} for i, s in enumerate(seat.sides)]
    a = answers_of(form, len(sides))
    forfeit = form.get("forfeit") == "1"
    again = {"round": rnd, "table": table, "sides": sides, "a": a, "forfeit": forfeit,
             "was": (rnd, table) in t.final}
    try:
        if forfeit:
            if a["winner"] is None:
                raise PitchError("Who is credited with the game? Tap a side.", "winner")
            given = None if not any(a["scores"]) else to_result(a, sides)[0]
            await night.write(desk.report, night.path, table, given, sides[a["winner"]]["name"], rnd=rnd, forfeit=True)
        else:
            scores, winner = to_result(a, sides)
            await night.write(desk.correct, night.path, table, rnd, scores, winner)
    except PitchError as e:
        again["problem"] = {"field": field_of(e), "text": page_words(e, night)}
        return await organizer_page(request, form=again)
    version = (await night.snap()).version
    what = "forfeit" if forfeit else "corrected"
    return RedirectResponse(f"/organizer?done={what}-{rnd}-{table}&v={version}", status_code=303)


async def organizer_cards(request: Request) -> Response:
    """The round's table cards to print (each table's number, seats, QR code and PIN; a score sheet each):
    the organizer's, since they hold the PINs."""
    night = night_of(request)
    if not night.organizer.signed_in(request.cookies):
        return await organizer_page(request, pin_error="Enter the organizer's PIN first: the cards hold the tables' "
                                    "PINs.")
    snap = await night.snap()
    cur = snap.current
    if cur is None:
        return await organizer_page(request, error="Seat round 1 first: the cards say who sits where.")
    base = night.base_url or f"{request.url.scheme}://{request.headers.get('host')}"
    urls = {s.table: f"{base}/table/{s.table}" for s in cur.tables}
    qr = {n: str(view.qr_svg(u)) for n, u in urls.items()}
    page = cards_html.table_cards(snap.t, cur, pins=night.pins, qr=qr, urls=urls)
    return HTMLResponse(page, headers={**page_headers(), "Content-Security-Policy":
                                       "default-src 'none'; style-src 'unsafe-inline'; img-src data:"})


def routes() -> list[BaseRoute]:
    return [
        Route("/", hall_page),
        Route("/hall", hall_part),
        Route("/table/{table:int}", table_page),
        Route("/table/{table:int}/part", table_part),
        Route("/table/{table:int}/pin", table_pin, methods=["POST"]),
        Route("/table/{table:int}/check", table_check, methods=["POST"]),
        Route("/table/{table:int}/report", table_report, methods=["POST"]),
        Route("/table/{table:int}/keep", table_keep, methods=["POST"]),
        Route("/organizer", organizer_page),
        Route("/organizer/part", organizer_part),
        Route("/organizer/pin", organizer_pin, methods=["POST"]),
        Route("/organizer/seat", organizer_seat, methods=["POST"]),
        Route("/organizer/close", organizer_close, methods=["POST"]),
        Route("/organizer/result", organizer_result, methods=["POST"]),
        Route("/organizer/round/{round:int}/table/{table:int}", result_form),
        Route("/organizer/cards", organizer_cards),
    ]
