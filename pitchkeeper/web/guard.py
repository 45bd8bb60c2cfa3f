"""Who may write: the table's PIN, the page's session cookie, the form's CSRF token, and the throttle.

- The JSON interface takes the PIN in the `X-Pitchkeeper-Pin` header only (a header another site's page
  cannot send without a CORS preflight, which this server never grants), never a cookie.
- The entry page asks for the PIN once and keeps a session cookie (HttpOnly, SameSite=Strict): the
  PIN signed with the table's secret, which `serve` keeps in the data folder (web.keys), so a signed-in
  page stays signed in across restarts and games, until the PIN changes (`serve --new-pin`).
- Every form carries a token tied to the browser's own cookie (double submit, signed), and a request
  whose Origin is another site is refused: a page elsewhere cannot post to the table's form.
- Wrong PINs are throttled for every client, this machine's own included (a page in a browser on the
  serving laptop is a client like any other): a budget per address and one for all addresses together,
  so guessing the ten-digit PIN over an evening has odds of about one in a million (docs/serve.md).
  A signed-in page never meets the throttle: its cookie, not a guess, is what it writes with.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import logging
import math
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass

SESSION_COOKIE = "pk_session"
CLIENT_COOKIE = "pk_client"
PIN_HEADER = "x-pitchkeeper-pin"
COOKIE_DAYS = 30  # a weekly table stays signed in; `serve --new-pin` signs every page out at once
PIN_DIGITS = 10  # a phone number's length: read aloud in three groups, typed on a phone's number pad

log = logging.getLogger("pitchkeeper.serve")


@dataclass(frozen=True)
class Budget:
    """Wrong PINs allowed: `burst` at once, then one every `every` seconds (a token bucket)."""

    burst: int
    every: float

    @property
    def per_hour(self) -> float:
        return 3600 / self.every


PER_ADDRESS = Budget(burst=5, every=12.0)  # one device: five slips of the finger, then 300 an hour
OVERALL = Budget(burst=20, every=4.0)  # every address together: 900 an hour
EVENING_HOURS = 12
STRONG_ODDS = 1e-5  # a PIN whose odds of being guessed in an evening are worse than this is called weak
TRACKED = 4096  # addresses remembered at most (the oldest forgotten first; the overall budget still holds)


def evening_guesses(hours: float = EVENING_HOURS) -> int:
    """The most wrong PINs the throttle lets through in `hours`, whatever the number of addresses."""
    return OVERALL.burst + int(hours * OVERALL.per_hour)


def new_pin() -> str:
    """Ten random digits (docs/serve.md says why ten)."""
    return f"{secrets.randbelow(10**PIN_DIGITS):0{PIN_DIGITS}d}"


def pin_shown(pin: str) -> str:
    """A generated PIN as it is read aloud: 482 173 0193 (typed with or without the spaces)."""
    if len(pin) == PIN_DIGITS and pin.isdigit():
        return f"{pin[:3]} {pin[3:6]} {pin[6:]}"
    return pin


def typed(pin: str) -> str:
    """A PIN as typed: spaces and dashes between the groups do not count."""
    return "".join(c for c in pin if not c.isspace() and c != "-")


def odds(pin: str, hours: float = EVENING_HOURS) -> float:
    """The chance that the throttle's whole budget over `hours` guesses `pin` (by its kind of characters)."""
    p = typed(pin)
    alphabet = 10 if p.isdigit() else 36 if p.isalnum() and (p.islower() or p.isupper()) else 62 if p.isalnum() else 94
    space = alphabet ** len(p)
    return min(1.0, evening_guesses(hours) / space)


def address_key(client: str) -> str:
    """Whose budget a client spends: its IPv4 address, or its IPv6 /64 (one device holds a whole /64)."""
    try:
        ip = ipaddress.ip_address(client)
    except ValueError:
        return client
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((int(ip) >> 64 << 64, 64)))
    return str(ip)


class Bucket:
    """Tokens of one budget: one spent per wrong PIN, refilled with time up to the burst."""

    __slots__ = ("at", "tokens", "told")

    def __init__(self, budget: Budget, now: float) -> None:
        self.tokens = float(budget.burst)
        self.at = now
        self.told = False  # the console was told that this budget ran out (once until it is whole again)

    def refill(self, budget: Budget, now: float) -> None:
        self.tokens = min(float(budget.burst), self.tokens + (now - self.at) / budget.every)
        self.at = now

    def wait(self, budget: Budget, now: float) -> float:
        """Seconds until one token (0: now)."""
        self.refill(budget, now)
        return 0.0 if self.tokens >= 1 else (1 - self.tokens) * budget.every

    def spend(self, budget: Budget, now: float) -> bool:
        """One token; whether this ran the budget out for the first time since it was last whole."""
        self.refill(budget, now)
        if self.tokens >= budget.burst:
            self.told = False
        self.tokens -= 1
        first = self.tokens < 1 and not self.told
        self.told = self.told or first
        return first


class Throttle:
    """Wrong PINs per address and for all addresses together. A guess is refused, unchecked, while
    either budget is spent: an answer to a refused guess says nothing about the PIN."""

    def __init__(self, per_address: Budget = PER_ADDRESS, overall: Budget = OVERALL,
                 clock: Callable[[], float] = time.monotonic, tracked: int = TRACKED) -> None:
        self.per_address = per_address
        self.overall = overall
        self.clock = clock
        self.tracked = tracked
        self.everyone = Bucket(overall, clock())
        self.addresses: OrderedDict[str, Bucket] = OrderedDict()

    def wait(self, client: str) -> float:
        """Seconds before `client` may try a PIN (0: now)."""
        now = self.clock()
        mine = self.addresses.get(address_key(client))
        own = mine.wait(self.per_address, now) if mine is not None else 0.0
        return max(own, self.everyone.wait(self.overall, now))

    def failed(self, client: str) -> None:
        """A wrong PIN from `client`: one token from its budget and one from everyone's. The console
        hears of it once when a budget runs out, not once per guess."""
        now = self.clock()
        key = address_key(client)
        mine = self.addresses.pop(key, None) or Bucket(self.per_address, now)
        self.addresses[key] = mine  # the most recent last: the oldest is forgotten first
        while len(self.addresses) > self.tracked:
            self.addresses.popitem(last=False)
        if mine.spend(self.per_address, now):
            log.warning("wrong PINs from %s: throttled (%d at once, then one every %g s)", key,
                        self.per_address.burst, self.per_address.every)
        if self.everyone.spend(self.overall, now):
            log.warning("wrong PINs from several addresses: every PIN is refused unchecked for now "
                        "(pages signed in still write); is someone guessing?")


@dataclass(frozen=True)
class Tried:
    """What a PIN given with a write came to: right, wrong, or not checked (`wait` seconds to go)."""

    ok: bool
    wait: float = 0.0
    known: bool = False  # not this guard's PIN, but one the server knows (another table's): named, and counted as a guess

    @property
    def throttled(self) -> bool:
        return self.wait > 0

    @property
    def retry_after(self) -> str:
        """The Retry-After header's value: whole seconds, at least one."""
        return str(max(1, math.ceil(self.wait)))


class Guard:
    """A PIN, the signing secret and the throttle of one run of `serve`.

    The table's serve has one. A night (`serve --tournament`) has one for the organizer and one per table,
    sharing one secret and one throttle: a table's guard also takes what the organizer's takes (`also`),
    and each signs its sessions for its own role (`role`) under its own cookie, so a page signed in at
    one table is not signed in at another, and no table's page is the organizer's."""

    def __init__(self, pin: str, secret: bytes | None = None, throttle: Throttle | None = None, *,
                 cookie: str = SESSION_COOKIE, role: str = "session", also: Guard | None = None) -> None:
        self.pin = typed(pin)
        self.secret = secret if secret is not None else secrets.token_bytes(32)
        self.throttle = throttle or Throttle()
        self.cookie = cookie
        self.role = role
        self.also = also

    def _sign(self, *parts: str) -> str:
        return hmac.new(self.secret, "|".join(parts).encode("utf-8", "surrogatepass"), hashlib.sha256).hexdigest()

    def sign(self, *parts: str) -> str:
        """A signature with the secret (a form's checked answers: what is saved is what was shown)."""
        return self._sign("signed", *parts)

    def pin_ok(self, given: str | None) -> bool:
        if given is None:
            return False
        return hmac.compare_digest(typed(given).encode("utf-8", "surrogateescape"), self.pin.encode())

    def opens(self, given: str | None) -> bool:
        """This guard's PIN, or one that `also` takes (the organizer's, at a table)."""
        return self.pin_ok(given) or (self.also is not None and self.also.opens(given))

    def try_pin(self, client: str, given: str | None, session: str | None = None, *, signed: bool = False,
                known: Callable[[str | None], bool] | None = None) -> Tried:
        """Check a PIN given by `client`: through the throttle, unless the request comes from a page
        already signed in (`session`, its cookie, or `signed`: it proved it knew the PIN; the throttle must
        not lock it out). `known`: whether a PIN this guard does not take is still one of the server's (a
        night's other tables'): refused and said so (`Tried.known`, for the page to name the table), and
        counted as a wrong guess all the same - else every guess would test every PIN of the night
        unthrottled, and the answer would say which one it found."""
        if signed or self.session_ok(session):
            return Tried(self.opens(given), known=not self.opens(given) and known is not None and known(given))
        wait = self.throttle.wait(client)
        if wait > 0:
            return Tried(False, wait)
        if self.opens(given):
            return Tried(True)
        self.throttle.failed(client)
        return Tried(False, known=known is not None and known(given))

    # the entry page's session: the PIN signed, so a new PIN (or a new secret) signs every page out

    def session_value(self) -> str:
        return self._sign(self.role, self.pin)

    def session_ok(self, cookie: str | None) -> bool:
        return cookie is not None and hmac.compare_digest(cookie.encode("utf-8", "surrogateescape"),
                                                          self.session_value().encode())

    def signed_in(self, cookies: Mapping[str, str]) -> bool:
        """Whether a request's cookies hold this guard's session (or the organizer's, at a table)."""
        return self.session_ok(cookies.get(self.cookie)) or (self.also is not None and self.also.signed_in(cookies))

    def session_for(self, given: str | None) -> tuple[str, str]:
        """The cookie (name, value) a page that gave the right PIN keeps: the organizer's, when it was
        theirs."""
        if not self.pin_ok(given) and self.also is not None and self.also.opens(given):
            return self.also.session_for(given)
        return self.cookie, self.session_value()

    # the form's token

    @staticmethod
    def new_client() -> str:
        return secrets.token_urlsafe(18)

    def csrf_token(self, client: str) -> str:
        return self._sign("csrf", client)

    def csrf_ok(self, client: str | None, token: str | None) -> bool:
        return bool(client) and token is not None and hmac.compare_digest(
            token.encode("utf-8", "surrogateescape"), self.csrf_token(client or "").encode())


def same_origin(origin: str | None, host: str | None) -> bool:
    """A browser's Origin header names the page that sent the form: it must be this server."""
    if origin is None or origin == "null":  # none from some clients, "null" from privacy settings: the token guards
        return True
    if host is None:
        return False
    return origin.split("://", 1)[-1].rstrip("/").lower() == host.lower()
