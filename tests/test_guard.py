"""The request guard's parts on their own, with a clock the test turns: the throttle's budgets over an
hour and an evening, the session that is never throttled, the Host rule, the strict JSON reader, the
middleware's body reading, and the console that never waits. (test_serve_attacks.py makes the same
attacks on a real server.)"""

from __future__ import annotations

import asyncio
import io
import json
import logging
import threading
import time
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pitchkeeper.errors import PitchError
from pitchkeeper.web.body import DEPTH, depth, form_pairs, parse_json
from pitchkeeper.web.console import Console
from pitchkeeper.web.guard import (
    EVENING_HOURS,
    OVERALL,
    PER_ADDRESS,
    Budget,
    Guard,
    Throttle,
    address_key,
    evening_guesses,
    new_pin,
    pin_shown,
)
from pitchkeeper.web.shield import Shield, split_host


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def guesses(guard: Guard, client: str, clock: Clock, seconds: float, every: float) -> int:
    """Wrong PINs `client` gets checked trying one every `every` seconds for `seconds` (refusals not counted)."""
    checked = 0
    end = clock.now + seconds
    while clock.now < end:
        tried = guard.try_pin(client, "0000000000")
        checked += not tried.throttled
        clock.now += every
    return checked


def test_one_address_gets_a_few_at_once_then_a_few_hundred_an_hour() -> None:
    clock = Clock()
    guard = Guard("4821730193", throttle=Throttle(clock=clock))
    assert guesses(guard, "127.0.0.1", clock, 1.0, 0.001) == PER_ADDRESS.burst  # as fast as it can: five
    assert guesses(guard, "127.0.0.1", clock, 3600, 0.1) == pytest.approx(3600 / PER_ADDRESS.every, abs=1)
    assert 3600 / PER_ADDRESS.every <= 300  # "a few hundred an hour"


def test_forty_addresses_together_get_the_overall_budget_only() -> None:
    clock = Clock()
    guard = Guard("4821730193", throttle=Throttle(clock=clock))
    addresses = [f"127.0.0.{i}" for i in range(2, 42)]
    first = sum(guard.try_pin(a, "1").throttled is False for a in addresses for _ in range(5))
    assert first == OVERALL.burst  # 200 tried at once, 20 checked
    total = 0
    for _ in range(int(EVENING_HOURS * 3600 / 30)):  # every address tries every 30 s (80 a minute), all evening
        clock.now += 30
        total += sum(not guard.try_pin(a, "1").throttled for a in addresses)
    assert first + total <= evening_guesses() + 1 and total >= EVENING_HOURS * OVERALL.per_hour - 1


def test_a_refused_guess_is_not_checked_and_says_when_to_come_back() -> None:
    clock = Clock()
    guard = Guard("4821730193", throttle=Throttle(clock=clock))
    for _ in range(PER_ADDRESS.burst):
        assert not guard.try_pin("10.0.0.7", "1").ok
    refused = guard.try_pin("10.0.0.7", "4821730193")  # the right PIN: refused unchecked
    assert refused.throttled and not refused.ok and refused.retry_after == str(int(PER_ADDRESS.every))
    clock.now += PER_ADDRESS.every / 2
    assert guard.try_pin("10.0.0.7", "4821730193").retry_after == str(int(PER_ADDRESS.every / 2))
    clock.now += PER_ADDRESS.every / 2
    assert guard.try_pin("10.0.0.7", "482 173 0193").ok  # back, and typed in groups
    assert guard.try_pin("10.0.0.8", "4821730193").ok  # another address never waited


def test_a_signed_in_page_is_never_throttled_even_when_everyone_is() -> None:
    clock = Clock()
    guard = Guard("4821730193", throttle=Throttle(clock=clock))
    session = guard.session_value()
    for i in range(200):
        guard.try_pin(f"127.0.{i // 250}.{i % 250 + 1}", "1")
    assert guard.try_pin("192.168.1.9", "4821730193").throttled  # a new phone waits during an attack ...
    assert guard.try_pin("192.168.1.9", "4821730193", session).ok  # ... a page signed in never does
    assert not guard.try_pin("192.168.1.9", "1", session).ok  # (its wrong PIN is still wrong)
    assert not guard.try_pin("192.168.1.9", "4821730193", "forged" + session[6:]).ok


def test_a_wrong_guess_is_told_to_the_console_once_per_attack_not_per_guess(caplog: pytest.LogCaptureFixture) -> None:
    clock = Clock()
    guard = Guard("4821730193", throttle=Throttle(clock=clock))
    with caplog.at_level(logging.WARNING, logger="pitchkeeper.serve"):
        for _ in range(50):
            guard.try_pin("127.0.0.1", "1")
            clock.now += 1
        assert [r.getMessage() for r in caplog.records] == [
            "wrong PINs from 127.0.0.1: throttled (5 at once, then one every 12 s)"]
        clock.now += PER_ADDRESS.burst * PER_ADDRESS.every  # the budget whole again: a new attack is told anew
        for _ in range(6):
            guard.try_pin("127.0.0.1", "1")
        assert len(caplog.records) == 2


def test_ipv6_addresses_share_their_64_and_the_memory_is_bounded() -> None:
    assert address_key("2001:db8::1") == address_key("2001:db8::ffff:1") == "2001:db8::/64"
    assert address_key("2001:db8:0:1::1") != address_key("2001:db8::1")
    assert address_key("::ffff:192.168.1.5") == "192.168.1.5" and address_key("testclient") == "testclient"
    clock = Clock()
    throttle = Throttle(clock=clock, tracked=100, overall=Budget(10**9, 1e-9))
    for i in range(10_000):
        throttle.failed(f"10.{i // 65536}.{i // 256 % 256}.{i % 256}")
    assert len(throttle.addresses) == 100


def test_the_generated_pin_is_ten_digits_read_in_three_groups() -> None:
    pins = {new_pin() for _ in range(200)}
    assert len(pins) == 200 and all(len(p) == 10 and p.isdigit() for p in pins)
    assert pin_shown("4821730193") == "482 173 0193" and pin_shown("2468") == "2468"


# -- the Host rule


@pytest.mark.parametrize(("value", "parsed"), [
    ("127.0.0.1:8765", ("127.0.0.1", 8765)), ("LOCALHOST:80", ("localhost", 80)), ("[::1]:8765", ("::1", 8765)),
    ("localhost", ("localhost", None)), ("[::1]", ("::1", None)), ("evil.example:1:2", None), ("[::1", None),
    ("[evil]:80", None), (":80", None), ("a:", None), ("a:x", None), ("a:123456", None), ("a: 1", None),
])
def test_a_host_header_is_read_strictly(value: str, parsed: tuple[str, int | None] | None) -> None:
    assert split_host(value) == parsed


def host_status(shield: Shield, host: bytes | None, server: tuple[str, int] = ("127.0.0.1", 8765)) -> int:
    sent: list[dict[str, Any]] = []
    scope = {"type": "http", "method": "GET", "path": "/api/match", "server": server,
             "headers": [(b"host", host)] if host is not None else []}

    async def app(scope: Any, receive: Any, send: Any) -> None:
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b""})

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    shield.app = app
    asyncio.run(shield(scope, receive, send))
    if sent[0]["status"] != 200:
        assert "\n" not in json.loads(sent[1]["body"])["error"]
    return int(sent[0]["status"])


def test_only_the_names_and_addresses_served_pass_with_the_port() -> None:
    loop = Shield(None)  # type: ignore[arg-type]
    assert host_status(loop, b"127.0.0.1:8765") == host_status(loop, b"localhost:8765") == 200
    assert host_status(loop, b"[::1]:8765") == host_status(loop, b"[0:0::1]:8765") == 200
    for bad in (b"evil.example:8765", b"127.0.0.1:8766", b"localhost", b"127.0.0.2:8765", b"mybox:8765", None):
        assert host_status(loop, bad) == 400, bad
    assert host_status(loop, b"localhost", ("127.0.0.1", 80)) == 200  # port 80 need not be said
    lan = Shield(None, names=["127.0.0.1", "localhost", "::1", "mybox", "mybox.local"])  # type: ignore[arg-type]
    assert host_status(lan, b"mybox.local:8765") == 200
    # the address the connection came in on is this server's, whatever it is: a page on another name is not
    assert host_status(lan, b"192.168.1.20:8765", ("192.168.1.20", 8765)) == 200
    assert host_status(lan, b"192.168.1.21:8765", ("192.168.1.20", 8765)) == 400
    assert host_status(lan, b"evil.example:8765", ("192.168.1.20", 8765)) == 400


# -- bodies


def run_body(chunks: list[bytes | None], headers: list[tuple[bytes, bytes]], limit: int = 100,
             seconds: float = 5.0, ends: bool = True) -> tuple[int | None, bytes | None, int]:
    """The shield over an app that records the body it got: (status answered by the shield, the body the
    app got, how many chunks were read). A None chunk: the client goes away. `ends` False: the last
    chunk is not the body's end, and nothing more comes."""
    got: list[bytes] = []
    sent: list[dict[str, Any]] = []
    read = [0]

    async def app(scope: Any, receive: Any, send: Any) -> None:
        message = await receive()
        got.append(message["body"])

    async def receive() -> dict[str, Any]:
        i = read[0]
        read[0] += 1
        if i >= len(chunks):
            await asyncio.sleep(3600)  # a client that sends nothing more
        if chunks[i] is None:
            return {"type": "http.disconnect"}
        return {"type": "http.request", "body": chunks[i], "more_body": i < len(chunks) - 1 or not ends}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = {"type": "http", "method": "POST", "path": "/api/hands", "server": ("127.0.0.1", 80),
             "headers": [(b"host", b"127.0.0.1"), *headers]}
    asyncio.run(Shield(app, limit=limit, body_seconds=seconds)(scope, receive, send))
    return (sent[0]["status"] if sent else None), (got[0] if got else None), read[0]


def test_bodies_are_read_whole_small_and_in_time() -> None:
    assert run_body([b"ab", b"cd"], [(b"content-length", b"4")]) == (None, b"abcd", 2)
    assert run_body([b"x" * 60] * 9, [(b"content-length", b"540")]) == (413, None, 0)  # refused unread
    assert run_body([b"x" * 60] * 9, [(b"transfer-encoding", b"chunked")]) == (413, None, 2)  # stopped at the limit
    assert run_body([b"ab", None], [(b"content-length", b"4")]) == (None, None, 2)  # gone: nothing answered
    t = time.monotonic()
    assert run_body([b"ab"], [(b"content-length", b"4")], seconds=0.3, ends=False) == (408, None, 2)
    assert time.monotonic() - t < 2
    assert run_body([b"a"], [(b"content-length", b"1"), (b"content-length", b"2")])[0] == 400


def nested(n: int) -> bytes:
    return b"[" * n + b"]" * n


def test_json_deeper_than_a_record_is_refused_before_it_is_parsed() -> None:
    assert depth(b'{"tricks": [{"cards": ["AS"]}], "x": "[[[[[[[[\\"[[[["}') == DEPTH
    assert depth(nested(3)) == 3 and depth(b'"[[[[[[') == 0 and depth(b'"\\\\"[[[[[[') == DEPTH + 1
    for n in (DEPTH + 1, 10**6):
        t = time.monotonic()
        with pytest.raises(PitchError, match=f"nested more than {DEPTH} deep"):
            parse_json(nested(n))
        assert time.monotonic() - t < 1
    t = time.monotonic()
    with pytest.raises(PitchError, match="not JSON"):  # an unterminated string of escapes: one pass, not n squared
        parse_json(b'"' + b'\\"' * 200_000)
    assert time.monotonic() - t < 1


def levels(v: Any) -> int:
    if isinstance(v, dict):
        return 1 + max(map(levels, v.values()), default=0)
    if isinstance(v, list):
        return 1 + max(map(levels, v), default=0)
    return 0


text = st.text(st.characters(blacklist_categories=["Cs"]), max_size=5)
json_values = st.recursive(st.none() | st.booleans() | st.integers() | text,
                           lambda inner: st.lists(inner, max_size=3) | st.dictionaries(text, inner, max_size=3))


@given(json_values)
def test_the_strict_reader_takes_any_json_within_the_depth_and_refuses_the_rest(value: Any) -> None:
    raw = json.dumps(value).encode()
    if levels(value) <= DEPTH:
        assert parse_json(raw) == value
    else:
        with pytest.raises(PitchError, match="nested more than"):
            parse_json(raw)


@given(json_values, st.sampled_from(["\ud800", "\udfff", "\udc80x"]), st.booleans())
def test_half_a_character_anywhere_is_refused_in_one_line(value: Any, half: str, as_key: bool) -> None:
    body = {half: value} if as_key else {"note": [value, half]}
    with pytest.raises(PitchError, match=r"is not valid Unicode text|nested more than") as e:
        parse_json(json.dumps(body).encode())
    assert "\n" not in str(e.value)
    str(e.value).encode("utf-8")


def test_a_form_that_is_not_utf8_is_refused() -> None:
    assert form_pairs(b"pin=482+173&csrf=%C3%A9") == [("pin", "482 173"), ("csrf", "é")]
    for bad in (b"pin=%ED%A0%80", b"pin=%FF", b"pin=\xff"):
        with pytest.raises(PitchError, match="not UTF-8 text"):
            form_pairs(bad)


# -- the console


class Stuck(io.StringIO):
    """A console whose pipe is full: a write waits until the test lets it go."""

    def __init__(self) -> None:
        super().__init__()
        self.free = threading.Event()

    def write(self, s: str) -> int:
        self.free.wait()
        return super().write(s)


def test_the_console_never_makes_the_server_wait_and_tells_what_it_dropped() -> None:
    stream = Stuck()
    console = Console(stream, capacity=50)
    console.setFormatter(logging.Formatter("%(message)s"))
    logger = logging.Logger("test-console")
    logger.addHandler(console)
    t = time.monotonic()
    for i in range(5000):
        logger.warning(f"line {i}")  # every one different: none held back as a repeat
    assert time.monotonic() - t < 2  # the console never took one of them
    stream.free.set()
    time.sleep(0.5)
    console.close()
    text = stream.getvalue().splitlines()
    assert text[0] == "line 0" and any(line.endswith("console lines dropped: the console was not being read)")
                                       for line in text)
    assert 40 <= len(text) <= 60


def test_the_same_line_again_is_written_once_a_second_with_its_count() -> None:
    stream = io.StringIO()
    console = Console(stream)
    console.setFormatter(logging.Formatter("%(message)s"))
    logger = logging.Logger("test-repeat")
    logger.addHandler(console)
    for i in range(300):
        logger.warning("a client went away (%s)", i)
    time.sleep(2.3)
    console.close()
    assert stream.getvalue().splitlines() == ["a client went away (0)", "a client went away (299) (and 298 more like it)"]
