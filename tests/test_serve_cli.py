"""`pitchkeeper serve` as a user starts it: what it prints, that it answers on loopback only, that it
stops on Ctrl-C, and its one-line errors."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from processes import start_serve, started, stop_serve
from serving import us_and_them


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    return {**os.environ, "PITCHKEEPER_HOME": str(tmp_path / "home"), "PYTHONUNBUFFERED": "1"}


@pytest.fixture
def log(tmp_path: Path) -> Path:
    return us_and_them(tmp_path / "m.toml")


def start(args: list[str], env: dict[str, str]) -> tuple[subprocess.Popen[str], list[str]]:
    """Start serve and read what it prints up to "Ctrl-C stops." (it serves from then on)."""
    p, text = start_serve(args, env)
    if not started(text):
        p.wait(10)
        err = p.stderr.read() if p.stderr else ""
        stop_serve(p)
        raise AssertionError(f"serve stopped: {err}")
    return p, text.splitlines()


@pytest.fixture
def served(log: Path, env: dict[str, str]) -> Iterator[tuple[subprocess.Popen[str], list[str]]]:
    p, out = start(["--match", str(log), "--port", "0"], env)
    yield p, out
    stop_serve(p)


def test_serve_prints_where_and_a_new_pin_and_answers_on_loopback(served: tuple[subprocess.Popen[str], list[str]],
                                                                  log: Path) -> None:
    p, out = served
    text = "\n".join(out)
    url = re.search(r"scoreboard\s+(http://127\.0\.0\.1:\d+)/", text).group(1)
    pin = re.search(r"PIN\s+(\d{3} \d{3} \d{4})  \(new: the table's", text).group(1)  # ten digits, read in groups
    assert f"{url}/enter" in text and str(log) in text
    assert httpx.get(url + "/api/match").json()["hands"] == []
    hand = {"trump": "S", "bid": {"player": "Ann", "amount": 2},
            "points": {"high": "Us", "low": "Ann", "jack": "Us", "game": "Them"}}
    assert httpx.post(url + "/api/hands", json=hand).status_code == 401
    assert httpx.post(url + "/api/hands", json=hand, headers={"X-Pitchkeeper-Pin": pin}).status_code == 201
    # a Host that is not this machine's name is refused (DNS rebinding): listening on loopback only
    assert httpx.get(url + "/api/match", headers={"Host": "evil.example"}).status_code == 400
    port = int(url.rsplit(":", 1)[1])
    with socket.socket() as s:  # bound to 127.0.0.1: not to every interface
        s.bind(("0.0.0.0", 0))
        assert s.getsockname()[1] != port
    # Ctrl-C with a page open (its event stream never ends by itself): stops, without a traceback
    import urllib.request

    with urllib.request.urlopen(url + "/api/events", timeout=10) as stream:
        assert stream.readline().startswith(b"retry:")
        p.send_signal(signal.SIGINT)
        assert p.wait(15) == 130
    stderr = p.stderr.read() if p.stderr else ""
    assert "Traceback" not in stderr and stderr.strip() == "interrupted"


def test_lan_prints_the_address_with_a_qr_code(log: Path, env: dict[str, str]) -> None:
    p, out = start(["--match", str(log), "--port", "0", "--lan", "--pin", "2468"], env)
    try:
        text = "\n".join(out)
        assert "PIN         2468  (as given)" in text
        assert "open on a phone" in text or "no local network address" in text
        if "open on a phone" in text:
            assert sum("█" in line or "▀" in line or "▄" in line for line in out) >= 10  # the QR code
            lan_url = re.search(r"open on a phone \(same Wi-Fi\): (http://\S+)/enter", text).group(1)
            port = lan_url.rsplit(":", 1)[1]
            board = httpx.get(f"http://127.0.0.1:{port}/").text  # listening on every interface, loopback too
            assert f"{lan_url}/enter" in board and 'class="segno"' in board  # the TV shows where to go
    finally:
        stop_serve(p)


@pytest.mark.parametrize(("args", "words"), [
    (["--pin", "12"], "a PIN is 4 to 32 characters"),
    (["--pin", "12 34"], "a PIN is 4 to 32 characters"),
    (["--match", "nowhere.toml"], "nowhere.toml"),
])
def test_bad_options_are_one_line_and_exit_2(args: list[str], words: str, log: Path, env: dict[str, str]) -> None:
    if "--match" not in args:
        args = [*args, "--match", str(log)]
    p = subprocess.run([sys.executable, "-m", "pitchkeeper", "serve", "--port", "0", *args], capture_output=True,
                       text=True, env=env, timeout=30)
    assert p.returncode == 2
    assert p.stderr.startswith("error: ") and p.stderr.count("\n") == 1 and words in p.stderr


def test_a_port_in_use_is_one_line(log: Path, env: dict[str, str]) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        p = subprocess.run([sys.executable, "-m", "pitchkeeper", "serve", "--match", str(log), "--port", str(port)],
                           capture_output=True, text=True, env=env, timeout=30)
    assert p.returncode == 2 and p.stderr.startswith(f"error: cannot listen on 127.0.0.1:{port}")


def test_without_match_it_serves_the_current_match(tmp_path: Path, env: dict[str, str]) -> None:
    made = subprocess.run([sys.executable, "-m", "pitchkeeper", "new", "cutthroat-pitch", "Ann", "Bob", "Cy"],
                          capture_output=True, text=True, env=env, check=True)
    p, out = start(["--port", "0"], env)
    try:
        path = out[0].removeprefix("serving ").strip()
        assert path and path in made.stdout
        url = re.search(r"scoreboard\s+(http://\S+)/", "\n".join(out)).group(1)
        assert httpx.get(url + "/api/match").json()["rules"] == "cutthroat-pitch"
    finally:
        stop_serve(p)
