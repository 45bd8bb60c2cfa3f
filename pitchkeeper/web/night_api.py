"""The night's JSON interface (spec section 8.1, and what it adds; docs/serve.md has the table):

- `GET /api/tournament`: the seat object, the standings, the tables reported, the version (also the ETag);
  with the organizer's PIN, every table's PIN;
- `POST /api/tables/T/result` `{"score": {...}, "winner": W, "round": N}`: 201 and the tournament object;
  400 a bad result (an unknown side, a table of another round, a table reported already); 401 no PIN or a
  wrong one (another table's PIN too, counted as a guess and never named); 412 stale;
- the organizer's: `PUT /api/tables/T/result` (a correction, any round), `POST /api/tables/T/forfeit`,
  `POST /api/rounds` (409 while a table has not reported, when N is not the next round, after the last),
  `POST /api/close`;
- `POST /api/tables/T/game`: the table keeps its game hand by hand (then `/table/T/game/api/hands`);
- `GET /api/events`: an event each time the file or a game of the round moves, `{"version": V, "tables": [T]}`.

Every write may send `If-Match` (the version): 412 with the version now when the file changed since. A
front end only: every write is tournament.night's, under the file's lock.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import BaseRoute, Route

from pitchkeeper.errors import PitchError
from pitchkeeper.logbook.book import NotNext, Stale
from pitchkeeper.tournament import book
from pitchkeeper.tournament import night as desk
from pitchkeeper.web.guard import PIN_HEADER, Guard
from pitchkeeper.web.night import Night, night_of
from pitchkeeper.web.site import api_error, client_host, etag, if_match, json_body, one_line

RESULT_KEYS = ("score", "winner", "round")
CONFLICTS = (NotNext, desk.Unreported, desk.Over)


def refused(request: Request, guard: Guard, night: Night, table: int | None, organizer_only: str = "") -> Response | None:
    """The PIN in the header, checked (through the throttle): None when `guard` takes it. 401 without one or
    with a wrong one - another table's PIN too, where it does not open (another table, or the organizer's
    part: `organizer_only` says what), never named."""
    given = request.headers.get(PIN_HEADER)
    whose = "the organizer's PIN" if organizer_only or table is None else f"table {table}'s PIN (or the organizer's)"
    if given is None:
        return api_error(f"writing needs {whose} in the {PIN_HEADER.title()} header", 401)
    tried = guard.try_pin(client_host(request), given, signed=guard.signed_in(request.cookies),
                          known=lambda p: night.pin_of_table(p) is not None)
    if tried.throttled:
        return api_error(f"too many wrong PINs: try again in {tried.retry_after} s", 429,
                         {"Retry-After": tried.retry_after})
    if tried.ok:
        return None
    # another table's PIN is answered as any wrong PIN (and counted as one): a guesser is never told that a
    # number opens something elsewhere
    if organizer_only:
        return api_error(f"wrong PIN: {organizer_only} is the organizer's (the PIN serve printed)", 401)
    return api_error("wrong PIN" if table is None else f"wrong PIN: that PIN does not open table {table}", 401)


UNWRITTEN = "nothing was written: send it again once it is mended"


def write_error(night: Night, e: PitchError, unwritten: str = UNWRITTEN) -> JSONResponse:
    """400 with the one line (the file named by its name only); 412 (with the version now) for a write against
    a stale view; 409 for a round that cannot be seated or closed now; 503 when the tournament file cannot be
    read (mended by hand, say): the write was not at fault, and `unwritten` says what to do."""
    full, name = str(night.path), night.path.name
    line = one_line(e).replace(full, name)
    if isinstance(e, book.Unreadable):
        return api_error(f"the tournament file cannot be read: {line}; {unwritten}", 503)
    if isinstance(e, Stale):
        return JSONResponse({"error": line, "version": e.version}, status_code=412,
                            headers=etag(e.version) if e.version else None)
    return api_error(line, 409 if isinstance(e, CONFLICTS) else 400)


async def answer(night: Night, status: int, extra: dict[str, Any] | None = None) -> JSONResponse:
    snap = await night.snap()
    return JSONResponse({**(extra or {}), **snap.api_json()}, status_code=status, headers=etag(snap.version))


def _round(body: dict[str, Any]) -> int | None:
    n = body.get("round")
    if n is not None and (isinstance(n, bool) or not isinstance(n, int) or n < 1):
        raise PitchError(f"expected the round's number (1, 2, ...), got {n!r}", "round")
    return n


def _winner(body: dict[str, Any]) -> str | None:
    w = body.get("winner")
    if w is not None and not isinstance(w, str):
        raise PitchError("expected the winning side's name, such as \"Ann&Cy\"", "winner")
    return w


def _only(body: dict[str, Any], keys: tuple[str, ...]) -> None:
    for k in body:
        if k not in keys:
            raise PitchError(f"unknown key '{k}' (a result takes {', '.join(keys)})", str(k))


async def api_tournament(request: Request) -> Response:
    """The night as it stands (and with the organizer's PIN, every table's PIN)."""
    night = night_of(request)
    pins = None
    if request.headers.get(PIN_HEADER) is not None:
        no = refused(request, night.organizer, night, None, "listing the tables' PINs")
        if no is not None:  # a table's PIN too: 401 as any wrong PIN, so the answer confirms no PIN
            return no
        pins = night.pins
    snap = await night.snap()
    return JSONResponse(snap.api_json(pins), headers=etag(snap.version))


async def _written(request: Request, table: int | None, act: Callable[[Night], Awaitable[Any]], status: int,
                   organizer_only: str = "", unwritten: str = UNWRITTEN, extra: dict[str, Any] | None = None) -> Response:
    """Every write of the night's JSON interface: the PIN checked (a table's opens its own table only when
    `organizer_only` is empty), `act(night)` made under the file's lock, then the night as it stands now;
    a write refused gets its one line (write_error) and nothing written."""
    night = night_of(request)
    guard = night.guard_of(table) if table is not None and not organizer_only else night.organizer
    no = refused(request, guard, night, table, organizer_only)
    if no is not None:
        return no
    try:
        await act(night)
    except PitchError as e:
        return write_error(night, e, unwritten)
    return await answer(night, status, extra)


async def _body(request: Request, example: str, keys: tuple[str, ...], optional: bool = False) -> dict[str, Any]:
    """The JSON object sent, with no key but `keys` (an empty body is {} when it is `optional`)."""
    body = await json_body(request, example) if not optional or (await request.body()).strip() else {}
    _only(body, keys)
    return body


async def api_result(request: Request) -> Response:
    """A table's result for the round being played (its PIN or the organizer's)."""
    table = int(request.path_params["table"])

    async def report(night: Night) -> None:
        body = await _body(request, "the result, {\"score\": {\"Ann&Cy\": 21, \"Bob&Dee\": 14}}", RESULT_KEYS)
        await night.write(desk.report, night.path, table, body.get("score", {}), _winner(body), rnd=_round(body),
                          expect=if_match(request))

    return await _written(request, table, report, 201,
                          unwritten="your result was not recorded, report it again once it is mended")


async def api_correct(request: Request) -> Response:
    """The organizer's correction of a table's result (any round seated)."""
    table = int(request.path_params["table"])

    async def correct(night: Night) -> None:
        body = await _body(request, "the corrected result, {\"round\": 1, \"score\": {...}}", RESULT_KEYS)
        snap = await night.snap()
        rnd = _round(body) or (snap.current.number if snap.current is not None else 1)
        await night.write(desk.correct, night.path, table, rnd, body.get("score", {}), _winner(body),
                          expect=if_match(request))

    return await _written(request, table, correct, 200, "correcting a result")


async def api_forfeit(request: Request) -> Response:
    """The organizer declares a table forfeit: its game is not played out, `winner` is credited with it."""
    table = int(request.path_params["table"])

    async def forfeit(night: Night) -> None:
        body = await _body(request, "the forfeit, {\"winner\": \"Ann&Cy\"}", RESULT_KEYS)
        await night.write(desk.report, night.path, table, body.get("score"), _winner(body), rnd=_round(body),
                          expect=if_match(request), forfeit=True)

    return await _written(request, table, forfeit, 201, "declaring a table forfeit")


async def api_game(request: Request) -> Response:
    """The table keeps its game hand by hand: its log made (or found), and where it is served."""
    table = int(request.path_params["table"])

    async def start(night: Night) -> None:
        body = await _body(request, "{\"round\": N}", ("round",), optional=True)
        await night.write(desk.start_game, night.path, table, rnd=_round(body))

    return await _written(request, table, start, 201, extra={"game": f"/table/{table}/game"})


async def api_rounds(request: Request) -> Response:
    """Seat the next round: the organizer's, once every table of this round has reported."""

    async def seat(night: Night) -> None:
        body = await _body(request, "{\"round\": N}", ("round",), optional=True)
        await night.write(desk.seat_next, night.path, number=_round(body), expect=if_match(request))

    return await _written(request, None, seat, 201, "seating a round")


async def api_close(request: Request) -> Response:
    """Close the night after the round being played: the standings are final."""

    async def close(night: Night) -> None:
        await night.write(desk.close, night.path, expect=if_match(request))

    return await _written(request, None, close, 200, "closing the night")


async def api_events(request: Request) -> Response:
    night = night_of(request)
    return StreamingResponse(night.hub.stream(request.headers.get("last-event-id")), media_type="text/event-stream",
                             headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})


def routes() -> list[BaseRoute]:
    return [
        Route("/api/tournament", api_tournament),
        Route("/api/tables/{table:int}/result", api_result, methods=["POST"]),
        Route("/api/tables/{table:int}/result", api_correct, methods=["PUT"]),
        Route("/api/tables/{table:int}/forfeit", api_forfeit, methods=["POST"]),
        Route("/api/tables/{table:int}/game", api_game, methods=["POST"]),
        Route("/api/rounds", api_rounds, methods=["POST"]),
        Route("/api/close", api_close, methods=["POST"]),
        Route("/api/events", api_events),
    ]
