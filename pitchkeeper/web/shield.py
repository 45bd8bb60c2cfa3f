"""What every request meets before a route: the Host check, and the body read whole, small and in time.

An ASGI middleware in front of the app (spec section 7, "At the table, not on the internet"):

- **Host.** Every request's `Host` must name this server: one of the names and addresses `serve`
  listens on, with its port (`127.0.0.1:8765`, `localhost:8765`, `[::1]:8765`, and with `--lan` the
  machine's names and LAN addresses), or the very address the connection came in on. Anything else is
  a page that reached this server through a name it does not own - DNS rebinding - and gets 400,
  whatever the bind.
- **Bodies.** A body is read here, whole, before any route sees it: a `Content-Length` past the limit
  is 413 at once (nothing read), a chunked body stops being read at the limit (413), a body that has
  not arrived within `BODY_SECONDS` is 408, and each of these closes the connection. A route then
  reads the body from memory: it can neither block on a slow client nor hold a large one.
- **A client gone mid-body** ends the request quietly: one console line at most, never a traceback.

Every refusal is one line: `{"error": "..."}` under `/api/`, plain text elsewhere.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import logging
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from typing import Any

from pitchkeeper.errors import shown

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

LIMIT = 256 * 1024  # bytes: the largest hand with every trick and card is a few KiB
BODY_SECONDS = 10.0  # the whole body, from the first read: a phone on poor Wi-Fi sends a hand in well under one
LOOPBACK_NAMES = ("127.0.0.1", "localhost", "::1")

log = logging.getLogger("pitchkeeper.serve")


def _ip(name: str) -> str | None:
    """An address written in a Host header, in one canonical form (None: a name, not an address)."""
    try:
        ip = ipaddress.ip_address(name)
    except ValueError:
        return None
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        return str(ip.ipv4_mapped)
    return str(ip)


def split_host(value: str) -> tuple[str, int | None] | None:
    """`name[:port]` or `[v6]:port` as (name, port); None when it is neither."""
    if value.startswith("["):
        end = value.find("]")
        if end < 0:
            return None
        name, rest = value[1:end], value[end + 1:]
        if _ip(name) is None:
            return None
    else:
        name, colon, port = value.partition(":")
        rest = colon + port
    if not name:
        return None
    if not rest:
        return name.lower(), None
    digits = rest[1:]
    if rest[0] != ":" or not digits.isascii() or not digits.isdigit() or len(digits) > 5:
        return None
    return name.lower(), int(digits)


class Shield:
    """The middleware. `names`: the host names and addresses this server answers to (without port)."""

    def __init__(self, app: ASGIApp, names: Iterable[str] = LOOPBACK_NAMES, limit: int = LIMIT,
                 body_seconds: float = BODY_SECONDS) -> None:
        self.app = app
        self.names = frozenset(_ip(n.strip("[]")) or n.lower() for n in names)
        self.limit = limit
        self.body_seconds = body_seconds

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            if scope["type"] == "websocket" and self.host_problem(scope):
                await send({"type": "websocket.close", "code": 1008})
                return
            await self.app(scope, receive, send)
            return
        problem = self.host_problem(scope)
        if problem:
            await refuse(send, scope, 400, problem)
            return
        headers = scope.get("headers") or []
        lengths = [v for k, v in headers if k == b"content-length"]
        chunked = any(k == b"transfer-encoding" for k, _ in headers)
        if not lengths and not chunked:  # no body (a GET, the event stream): nothing to read here
            await self.app(scope, receive, send)
            return
        if lengths:
            text = lengths[0].decode("latin-1").strip()
            if len(set(lengths)) > 1 or not text.isascii() or not text.isdigit():
                await refuse(send, scope, 400, "the request's Content-Length is not one number")
                return
            if int(text) > self.limit:
                await refuse(send, scope, 413, f"the request's body ({int(text):,} bytes) is larger than "
                             f"{self.limit // 1024} KiB: refused unread")
                return
        body = await self.read_body(scope, receive, send)
        if body is None:
            return
        await self.app(scope, replay(body, receive), send)

    def host_problem(self, scope: Scope) -> str | None:
        """Why the request's Host is not this server (None: it is)."""
        hosts = [v for k, v in scope.get("headers") or [] if k == b"host"]
        if len(hosts) != 1:
            return "the request names no Host (or several): open the address pitchkeeper serve printed"
        value = hosts[0].decode("latin-1")
        parsed = split_host(value)
        server = scope.get("server")
        if parsed is not None:
            name, port = parsed
            name = _ip(name) or name
            ours = name in self.names or (server is not None and name == _ip(str(server[0])))
            port_ok = server is None or server[1] is None or port == server[1] or (port is None and server[1] == 80)
            if ours and port_ok:
                return None
        return (f"this server is not '{shown(value)}': open the address pitchkeeper serve printed "
                "(a page that reached it through another name is refused)")

    async def read_body(self, scope: Scope, receive: Receive, send: Send) -> bytes | None:
        """The whole body, or None once the client has been answered (or has gone)."""
        chunks: list[bytes] = []
        size = 0
        try:
            async with asyncio.timeout(self.body_seconds):
                while True:
                    message = await receive()
                    if message["type"] == "http.disconnect":
                        log.warning("a client went away in the middle of a request (%s %s from %s)",
                                    scope.get("method"), shown(scope.get("path", "")), client_of(scope))
                        return None
                    chunk = message.get("body", b"")
                    size += len(chunk)
                    if size > self.limit:
                        await refuse(send, scope, 413, f"the request's body is larger than {self.limit // 1024} KiB: "
                                     "refused, the rest unread")
                        return None
                    chunks.append(chunk)
                    if not message.get("more_body", False):
                        return b"".join(chunks)
        except TimeoutError:
            await refuse(send, scope, 408, f"the request's body did not arrive within {self.body_seconds:g} s")
            return None


def replay(body: bytes, receive: Receive) -> Receive:
    """The app's `receive`: the body read already, then the server's own (a disconnect, say)."""
    given = False

    async def again() -> Message:
        nonlocal given
        if not given:
            given = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return again


def is_api(path: str) -> bool:
    """Whether a path is the JSON interface's (`/api/...`, or a night table's game `/table/T/game/api/...`):
    its refusals are JSON, a page's are text."""
    return path.startswith("/api/") or "/api/" in path


def client_of(scope: Scope) -> str:
    client = scope.get("client")
    return str(client[0]) if client else "?"


async def refuse(send: Send, scope: Scope, status: int, line: str) -> None:
    """A one-line answer that closes the connection (a body left unread is never read)."""
    if is_api(str(scope.get("path", ""))):
        body, kind = json.dumps({"error": line}, separators=(",", ":")).encode(), b"application/json"
    else:
        body, kind = (line + "\n").encode(), b"text/plain; charset=utf-8"
    await send({"type": "http.response.start", "status": status, "headers": [
        (b"content-type", kind), (b"content-length", str(len(body)).encode()), (b"connection", b"close"),
        (b"cache-control", b"no-store"), (b"x-content-type-options", b"nosniff")]})
    await send({"type": "http.response.body", "body": body, "more_body": False})
