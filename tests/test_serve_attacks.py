"""`serve` at the table, not on the internet (spec section 7): every attack of issue 19 against a real
`pitchkeeper serve` on a free port, from this machine - a foreign Host on a loopback and on a LAN bind
(DNS rebinding), PIN guessing from 127.0.0.1 and from many loopback addresses, a body past the limit
(announced, or chunked), slow bodies, deep JSON, half characters, clients that go away mid-body, a
console nobody reads. Every refusal is one line (`{"error": ...}` under /api/), never a 500, and the
match log is byte for byte as it was."""

from __future__ import annotations

import json
import os
import re
import socket
import threading
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
from attacking import (
    HAND,
    PLAYERS,
    Serve,
    connect,
    cookie_header,
    loopback_sources,
    pin_header,
    read_answer,
    request,
    sign_in,
    start_serve,
)

import pitchkeeper
from pitchkeeper.web.guard import OVERALL, PER_ADDRESS
from pitchkeeper.web.shield import BODY_SECONDS


@pytest.fixture
def log(tmp_path: Path) -> Path:
    path = tmp_path / "m.toml"
    pitchkeeper.Logbook.create(path, "seven-point", PLAYERS, teams={"Us": ["Ann", "Cy"], "Them": ["Bob", "Dee"]})
    return path


@pytest.fixture
def served(tmp_path: Path, _home: Path, log: Path) -> Iterator[Serve]:
    s = start_serve(_home, log)
    yield s
    s.stop()


def rss_kib(pid: int) -> int:
    status = Path(f"/proc/{pid}/status").read_text()
    return int(re.search(r"VmRSS:\s+(\d+) kB", status).group(1))  # type: ignore[union-attr]


# -- Host


def test_a_foreign_host_is_400_on_a_loopback_bind_whatever_it_asks(served: Serve, log: Path) -> None:
    before = log.read_bytes()
    port = served.port
    for host in ("evil.example", f"evil.example:{port}", "127.0.0.1:1", f"localhost.:{port}", f"127.0.0.1.nip.io:{port}",
                 "vm.local", "[::1]:1", "", "bad host"):
        for method, path, body in (("GET", "/api/match", b""), ("GET", "/", b""), ("GET", "/enter", b""),
                                   ("POST", "/api/hands", json.dumps(HAND).encode())):
            a = request(port, method, path, host=host, headers=pin_header(served.pin), body=body)
            assert a.status == 400, (host, path, a)
            line = a.one_line()
            assert "open the address pitchkeeper serve printed" in line
    assert log.read_bytes() == before  # the right PIN through a foreign name wrote nothing
    for host in (f"127.0.0.1:{port}", f"localhost:{port}", f"LOCALHOST:{port}", f"[::1]:{port}"):
        assert request(port, "GET", "/api/match", host=host).status == 200, host
    # HTTP/1.0 without a Host at all
    with connect(port) as s:
        s.sendall(b"GET /api/match HTTP/1.0\r\n\r\n")
        a = read_answer(s)
    assert a.status == 400 and "names no Host" in a.one_line()


def test_a_foreign_host_is_400_on_a_lan_bind(_home: Path, log: Path) -> None:
    served = start_serve(_home, log, "--lan")
    try:
        port = served.port
        text = "\n".join(served.printed)
        lan = re.search(r"open on a phone \(same Wi-Fi\): http://([^/]+):\d+/enter", text)
        targets = ["127.0.0.1"] + ([lan.group(1)] if lan else [])
        for to in targets:  # listening on every interface: from loopback, and from the LAN address
            assert request(port, "GET", "/api/match", to=to, host="evil.example").status == 400
            a = request(port, "POST", "/api/hands", to=to, host=f"evil.example:{port}", headers=pin_header(served.pin),
                        body=json.dumps(HAND).encode())
            assert a.status == 400 and "is not 'evil.example" in a.one_line()
            assert request(port, "GET", "/api/match", to=to, host=f"{to}:{port}").status == 200  # its own address
        assert request(port, "GET", "/", host=f"{socket.gethostname()}:{port}").status == 200  # the machine's name
        assert request(port, "GET", "/", host=f"{socket.gethostname()}:{port + 1}").status == 400  # not its port
        assert pitchkeeper.Logbook.open(log).state()["hands"] == []
    finally:
        served.stop()


# -- PINs


def test_wrong_pins_from_this_machine_are_throttled_and_a_signed_in_page_still_writes(served: Serve, log: Path) -> None:
    port, pin = served.port, served.pin
    phone = sign_in(port, pin)  # before the attack
    before = log.read_bytes()
    body = json.dumps(HAND).encode()
    answers = [request(port, "POST", "/api/hands", headers=pin_header("0000000000"), body=body) for _ in range(12)]
    statuses = [a.status for a in answers]
    assert statuses == [401] * PER_ADDRESS.burst + [429] * (12 - PER_ADDRESS.burst)
    for a in answers[PER_ADDRESS.burst:]:
        assert 1 <= int(a.headers["retry-after"]) <= PER_ADDRESS.every
        assert re.fullmatch(r"too many wrong PINs: try again in \d+ s", a.one_line())
    # the right PIN is refused unchecked too (else a 429 would tell a right guess from a wrong one) ...
    assert request(port, "POST", "/api/hands", headers=pin_header(pin), body=body).status == 429
    # ... and through the page's form
    assert log.read_bytes() == before
    # a page that entered the PIN before is never locked out: its cookie is no guess
    entry = request(port, "GET", "/enter", headers={"Cookie": cookie_header(phone)})
    assert entry.status == 200 and b'action="/enter/pin"' not in entry.body
    csrf = re.search(r'name="csrf" value="([^"]+)"', entry.body.decode()).group(1)  # type: ignore[union-attr]
    again = request(port, "POST", "/enter/pin", body=f"csrf={csrf}&pin=1".encode(),
                    headers={"Content-Type": "application/x-www-form-urlencoded", "Cookie": cookie_header(phone)})
    assert again.status == 303  # signed in already: no guess, no throttle
    a = request(port, "POST", "/api/hands", body=body, headers={**pin_header(pin), "Cookie": cookie_header(phone)})
    assert a.status == 201 and len(pitchkeeper.Logbook.open(log).state()["hands"]) == 1
    # one console line for the whole attack, not one per guess
    time.sleep(1.2)
    lines = served.console_lines()
    assert sum("wrong PINs from 127.0.0.1: throttled" in line for line in lines) == 1, lines


def test_a_new_phone_is_throttled_on_the_pin_page_with_429_and_retry_after(served: Serve, log: Path) -> None:
    port = served.port
    page = request(port, "GET", "/enter")
    cookies = dict(re.findall(r"(pk_\w+)=([^;]+)", page.headers["set-cookie"]))
    csrf = re.search(r'name="csrf" value="([^"]+)"', page.body.decode()).group(1)  # type: ignore[union-attr]
    form = {"Content-Type": "application/x-www-form-urlencoded", "Cookie": cookie_header(cookies)}
    got = [request(port, "POST", "/enter/pin", body=f"csrf={csrf}&pin=12345".encode(), headers=form)
           for _ in range(PER_ADDRESS.burst + 1)]
    assert [a.status for a in got[:-1]] == [200] * PER_ADDRESS.burst  # "Wrong PIN", as a page answers it
    assert all(b"Wrong PIN" in a.body for a in got[:-1])
    last = got[-1]
    assert last.status == 429 and int(last.headers["retry-after"]) >= 1
    assert b"Too many wrong PINs: try again in" in last.body and b'action="/enter/pin"' in last.body


def test_forty_loopback_addresses_share_one_budget(served: Serve, log: Path) -> None:
    before = log.read_bytes()
    body = json.dumps(HAND).encode()
    sources = loopback_sources(40)
    counts: Counter[int] = Counter()
    retry: set[str] = set()
    lock = threading.Lock()
    start = time.monotonic()

    def attacker(source: str) -> None:
        for _ in range(3):
            a = request(served.port, "POST", "/api/hands", headers=pin_header("1111111111"), body=body, source=source)
            with lock:
                counts[a.status] += 1
                if a.status == 429:
                    retry.add(a.headers["retry-after"])
                    a.one_line()

    threads = [threading.Thread(target=attacker, args=(s,)) for s in sources]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.monotonic() - start
    assert set(counts) <= {401, 429} and sum(counts.values()) == 120
    # 40 addresses x 3 guesses, each address within its own budget: only the overall one stops them
    assert OVERALL.burst <= counts[401] <= OVERALL.burst + elapsed / OVERALL.every + 1, (counts, elapsed)
    assert retry and all(int(r) >= 1 for r in retry)
    # a 41st address is refused at once: the budget is everyone's
    a = request(served.port, "POST", "/api/hands", headers=pin_header("2222222222"), body=body, source="127.0.0.99")
    assert a.status == 429
    assert log.read_bytes() == before


# -- bodies


def test_a_body_past_the_limit_is_refused_before_it_is_read(served: Serve, log: Path) -> None:
    before, rss = log.read_bytes(), rss_kib(served.process.pid)
    for path in ("/api/hands", "/enter/pin", "/enter/check"):
        with connect(served.port) as s:  # 256 MiB announced; only the head is sent, the answer comes at once
            t = time.monotonic()
            s.sendall(f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{served.port}\r\nContent-Length: {256 * 2**20}\r\n"
                      f"X-Pitchkeeper-Pin: {served.pin}\r\nContent-Type: application/json\r\n\r\n".encode())
            a = read_answer(s)
            assert time.monotonic() - t < 2
            assert s.recv(1) == b""  # and the connection is closed: the body will never be read
        assert a.status == 413 and a.headers["connection"] == "close"
        assert "larger than 256 KiB: refused unread" in a.one_line()
    # chunked: no length to refuse at once, so the reading stops at the limit
    sent = [0]

    def send_chunks(s: socket.socket) -> None:
        chunk = b"10000\r\n" + b"x" * 0x10000 + b"\r\n"
        try:
            while sent[0] < 64 * 2**20:
                s.sendall(chunk)
                sent[0] += 0x10000
        except OSError:
            pass

    with connect(served.port) as s:
        s.sendall(f"POST /api/hands HTTP/1.1\r\nHost: 127.0.0.1:{served.port}\r\nTransfer-Encoding: chunked\r\n"
                  f"X-Pitchkeeper-Pin: {served.pin}\r\n\r\n".encode())
        sender = threading.Thread(target=send_chunks, args=(s,))
        sender.start()
        a = read_answer(s)
        sender.join(30)
    assert a.status == 413 and "refused, the rest unread" in a.one_line()
    assert sent[0] < 32 * 2**20, sent  # cut off: the 64 MiB were never taken in
    assert rss_kib(served.process.pid) - rss < 16 * 1024  # the server did not hold what was sent
    assert log.read_bytes() == before
    assert request(served.port, "GET", "/api/match").status == 200


def test_a_slow_body_times_out_and_the_server_serves_meanwhile(served: Serve, log: Path) -> None:
    before = log.read_bytes()
    body = json.dumps(HAND).encode()
    results: dict[str, tuple[int, str, float]] = {}

    def slow(name: str, trickle: bool) -> None:
        with connect(served.port, timeout=BODY_SECONDS + 10) as s:
            t = time.monotonic()
            s.sendall(f"POST /api/hands HTTP/1.1\r\nHost: 127.0.0.1:{served.port}\r\nContent-Length: {len(body)}\r\n"
                      f"X-Pitchkeeper-Pin: {served.pin}\r\n\r\n".encode() + body[:10])
            if trickle:  # a byte every half second: never done within the time
                s.settimeout(0.5)
                for b in body[10:]:
                    try:
                        s.sendall(bytes([b]))
                        if s.recv(1, socket.MSG_PEEK):
                            break
                    except TimeoutError:
                        continue
                    except OSError:
                        break
                s.settimeout(BODY_SECONDS + 10)
            a = read_answer(s)
            results[name] = (a.status, a.one_line(), time.monotonic() - t)

    threads = [threading.Thread(target=slow, args=("stalled", False)), threading.Thread(target=slow, args=("trickle", True))]
    for t in threads:
        t.start()
    time.sleep(1)
    for _ in range(5):  # meanwhile, every other client is served at once
        t0 = time.monotonic()
        assert request(served.port, "GET", "/api/match").status == 200
        assert time.monotonic() - t0 < 2
    for t in threads:
        t.join(BODY_SECONDS + 15)
    for name in ("stalled", "trickle"):
        status, line, took = results[name]
        assert status == 408 and f"did not arrive within {BODY_SECONDS:g} s" in line
        assert BODY_SECONDS - 1 < took < BODY_SECONDS + 5, (name, took)
    assert log.read_bytes() == before


BAD_BODIES = [
    (b"[" * 100_000 + b"]" * 100_000, "nested more than 4 deep"),
    (b'{"trump": "S", "tricks": [{"cards": [["AS"], [[["KS"]]]]}]}', "nested more than 4 deep"),
    (b'{"\\ud800": "S"}', r"'\ud800' is not valid Unicode text"),
    (b'{"trump": "\\udc80"}', r"body.trump: '\udc80' is not valid Unicode text"),
    (b'{"trump": "S", "points": {"high": "\\ud83d"}}', "not valid Unicode text"),
    (b'{"trump": "\xff"}', "not UTF-8 text (byte 12 is 0xff)"),
    (b'{"trump": "\xed\xa0\x80"}', "not UTF-8 text"),  # a surrogate written out in UTF-8's bytes
    (b'{"\xed\xb2\x80": 1}', "not UTF-8 text"),
    (b'{"trump": "S", "trump": "H"}', "the key 'trump' is given twice"),
    (b'{"trump": NaN}', "NaN is not a JSON number"),
    (b'{"bid": {"player": "Ann", "amount": 1' + b"0" * 5000 + b"}}",
     "a number of 5,001 digits: no value of a record is so long"),  # no Python advice (set_int_max_str_digits)
    (b'"' + b'\\"' * 50_000, "not JSON"),
]


@pytest.mark.parametrize(("method", "path"), [("POST", "/api/hands"), ("PUT", "/api/hands/1")])
def test_deep_json_and_text_that_is_not_unicode_are_400_with_one_line(tmp_path: Path, _home: Path, log: Path,
                                                                     method: str, path: str) -> None:
    pitchkeeper.Logbook.open(log).append(HAND)
    served = start_serve(_home, log)
    try:
        before = log.read_bytes()
        for body, words in BAD_BODIES:
            a = request(served.port, method, path, headers=pin_header(served.pin), body=body)
            assert a.status == 400, (body[:40], a)
            assert words in a.one_line(), (body[:40], a.one_line())
        # the same on the page's form: text that is not UTF-8 is a 400 of one line, not a 500
        for form in (b"csrf=x&pin=%ED%A0%80", b"csrf=%FF&pin=1", "csrf=x&pin=\udcff".encode("utf-8", "surrogateescape")):
            a = request(served.port, "POST", "/enter/pin", body=form,
                        headers={"Content-Type": "application/x-www-form-urlencoded"})
            assert a.status == 400 and b"not UTF-8 text" in a.body and b"Traceback" not in a.body
        for odd in ("/%ED%A0%80", "/enter/hand/%FF", "/api/%00", "/static/%2e%2e/app.py"):
            assert request(served.port, "GET", odd).status in (400, 404), odd
        assert log.read_bytes() == before
        assert not any("Traceback" in line or "Exception" in line for line in served.console_lines())
    finally:
        served.stop()


def test_clients_that_go_away_mid_body_cost_a_console_line_at_most(served: Serve, log: Path) -> None:
    before = log.read_bytes()
    for i in range(300):
        with connect(served.port) as s:
            path = "/api/hands" if i % 2 else "/enter/check"
            s.sendall(f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{served.port}\r\nContent-Length: 400\r\n"
                      f"X-Pitchkeeper-Pin: {served.pin}\r\nContent-Type: application/json\r\n\r\n".encode()
                      + json.dumps(HAND).encode()[:50])
    time.sleep(2.5)  # the console's thread writes what it held back after a second
    lines = served.console_lines()
    assert 1 <= len(lines) <= 300 and not any("Traceback" in line for line in lines), lines
    gone = [line for line in lines if "a client went away in the middle of a request" in line]
    assert len(gone) == len(lines) <= 4  # 300 alike are told as one line and a count, not 300 lines
    told = sum(int(m.group(1)) for line in gone for m in re.finditer(r"and (\d+) more like it", line)) + len(gone)
    assert told == 300, lines
    assert request(served.port, "GET", "/api/match").status == 200
    assert log.read_bytes() == before


def test_a_console_nobody_reads_never_stops_the_server(_home: Path, log: Path) -> None:
    """The issue's full pipe: once the console's pipe is full, a server that logs from its loop stops."""
    r, w = os.pipe()
    served = start_serve(_home, log, stderr=w)
    os.close(w)
    try:
        os.set_blocking(r, True)
        # fill the console's pipe: from here on any write to it waits until someone reads
        filler = os.open(f"/proc/{served.process.pid}/fd/2", os.O_WRONLY | os.O_NONBLOCK)
        filled = 0
        try:
            while True:
                filled += os.write(filler, b"x" * 4096)
        except BlockingIOError:
            pass
        finally:
            os.close(filler)
        assert filled > 0
        body = json.dumps(HAND).encode()
        for round_ in range(3):  # every kind of console line, again and again
            for source in loopback_sources(8, first=10 + 10 * round_):
                for _ in range(PER_ADDRESS.burst + 1):
                    request(served.port, "POST", "/api/hands", headers=pin_header("3"), body=body, source=source)
            for _ in range(20):
                with connect(served.port) as s:
                    s.sendall(f"POST /api/hands HTTP/1.1\r\nHost: 127.0.0.1:{served.port}\r\nContent-Length: 99\r\n"
                              "\r\n{".encode())
                with connect(served.port) as s:
                    s.sendall(b"NONSENSE\r\n\r\n")
                    s.recv(100)
            for _ in range(5):
                t0 = time.monotonic()
                assert request(served.port, "GET", "/api/match", timeout=5).status == 200
                assert time.monotonic() - t0 < 2
            time.sleep(1.1)
        # someone reads at last: the lines that waited come out, with the count of those dropped
        out = b""
        os.set_blocking(r, False)
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            try:
                chunk = os.read(r, 65536)
            except BlockingIOError:
                time.sleep(0.1)
                continue
            out += chunk
        text = out[filled:].decode()
        assert "wrong PINs from" in text and "Traceback" not in text
    finally:
        served.stop()
        os.close(r)
