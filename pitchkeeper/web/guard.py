"""Who may write: the table's PIN, the page's session cookie, and the form's CSRF token.

- The JSON interface takes the PIN in the `X-Pitchkeeper-Pin` header only (a header another site's page
  cannot send without a CORS preflight, which this server never grants), never a cookie.
- The entry page asks for the PIN once and keeps a session cookie (HttpOnly, SameSite=Strict) that is
  worth the PIN for this run of the server only (it is signed with a secret made at start).
- Every form carries a token tied to the browser's own cookie (double submit, signed), and a request
  whose Origin is another site is refused: a page elsewhere cannot post to the table's form.
- Wrong PINs from another machine are throttled, so a six-digit PIN cannot be guessed in an evening.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from collections import deque

SESSION_COOKIE = "pk_session"
CLIENT_COOKIE = "pk_client"
PIN_HEADER = "x-pitchkeeper-pin"
MAX_FAILURES = 20  # wrong PINs per client per window, from another machine
WINDOW = 60.0
LOOPBACK = ("127.0.0.1", "::1", "localhost")


def new_pin() -> str:
    """Six digits: easy to read aloud across a table."""
    return f"{secrets.randbelow(10**6):06d}"


class Guard:
    """The PIN and the signing secret of one run of `serve`."""

    def __init__(self, pin: str) -> None:
        self.pin = pin
        self.secret = secrets.token_bytes(32)
        self.failures: dict[str, deque[float]] = {}

    def _sign(self, *parts: str) -> str:
        return hmac.new(self.secret, "|".join(parts).encode(), hashlib.sha256).hexdigest()

    def pin_ok(self, given: str | None) -> bool:
        return given is not None and hmac.compare_digest(given.strip().encode(), self.pin.encode())

    def blocked(self, client: str) -> bool:
        """Too many wrong PINs lately from this (non-local) client."""
        if client in LOOPBACK:
            return False
        q = self.failures.get(client)
        now = time.monotonic()
        while q and now - q[0] > WINDOW:
            q.popleft()
        return q is not None and len(q) >= MAX_FAILURES

    def failed(self, client: str) -> None:
        if client not in LOOPBACK:
            self.failures.setdefault(client, deque()).append(time.monotonic())

    # the entry page's session

    def session_value(self) -> str:
        return self._sign("session", self.pin)

    def session_ok(self, cookie: str | None) -> bool:
        return cookie is not None and hmac.compare_digest(cookie, self.session_value())

    # the form's token

    @staticmethod
    def new_client() -> str:
        return secrets.token_urlsafe(18)

    def csrf_token(self, client: str) -> str:
        return self._sign("csrf", client)

    def csrf_ok(self, client: str | None, token: str | None) -> bool:
        return bool(client) and token is not None and hmac.compare_digest(token, self.csrf_token(client or ""))


def same_origin(origin: str | None, host: str | None) -> bool:
    """A browser's Origin header names the page that sent the form: it must be this server."""
    if origin is None or origin == "null":  # none from some clients, "null" from privacy settings: the token guards
        return True
    if host is None:
        return False
    return origin.split("://", 1)[-1].rstrip("/").lower() == host.lower()
