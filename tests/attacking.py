"""Helpers for the attacks on a real `pitchkeeper serve`: the process as a user starts it (its console
in a file, or in a pipe nobody reads), and a raw HTTP/1.1 client that can lie about Host, stop halfway
through a body, trickle it, or come from any loopback address (127.0.0.2 ...)."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

import processes

PLAYERS = ["Ann", "Bob", "Cy", "Dee"]
HAND = {"trump": "S", "bid": {"player": "Ann", "amount": 2},
        "points": {"high": "Us", "low": "Ann", "jack": "Us", "game": "Them"}}


@dataclass
class Serve:
    """A running `pitchkeeper serve`: its process, what it printed, where it listens, its PIN."""

    process: subprocess.Popen[str]
    printed: list[str]
    port: int
    pin: str
    console: Path | None  # its stderr, when kept in a file
    stdout: TextIO = field(repr=False)

    def console_lines(self) -> list[str]:
        assert self.console is not None
        return self.console.read_text(encoding="utf-8", errors="replace").splitlines()

    def stop(self) -> int:
        """Ctrl-C, as a user stops it (a kill if it does not stop); its exit status."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)
        self.stdout.close()
        return self.process.returncode


def start_serve(home: Path, log: Path, *args: str, stderr: Any = None) -> Serve:
    """`pitchkeeper serve --match LOG --port 0 ARGS`; its console in `home/../console-N.txt` unless
    `stderr` is given. Returns once it serves ("Ctrl-C stops.")."""
    env = {**os.environ, "PITCHKEEPER_HOME": str(home), "PYTHONUNBUFFERED": "1"}
    console = None
    if stderr is None:
        n = len(list(home.parent.glob("console-*.txt")))
        console = home.parent / f"console-{n}.txt"
        stderr_file = console.open("w")
    p, text = processes.start_serve(["--match", str(log), "--port", "0", *args], env,
                                    stderr=stderr if stderr is not None else stderr_file)
    if stderr is None:
        stderr_file.close()
    assert p.stdout is not None
    printed = text.splitlines()
    if not processes.started(text):
        p.wait(10)
        raise AssertionError("serve did not start: " + text + (console.read_text() if console else ""))
    port = int(re.search(r"scoreboard\s+http://\S+:(\d+)/", text).group(1))  # type: ignore[union-attr]
    pin = re.search(r"(?m)^  PIN {9}(\S+(?: \d+)*)", text).group(1)  # type: ignore[union-attr]
    return Serve(p, printed, port, pin.replace(" ", ""), console, p.stdout)


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)

    def one_line(self) -> str:
        """The refusal's one line: `{"error": LINE}` under /api/, else the text itself."""
        text = self.body.decode("utf-8")
        if self.headers.get("content-type", "").startswith("application/json"):
            data = json.loads(text)
            assert set(data) <= {"error", "version"} and isinstance(data["error"], str), text
            text = data["error"]
        else:
            text = text.removesuffix("\n")
        assert text and "\n" not in text and "Traceback" not in text, text
        return text


def request(port: int, method: str, path: str, *, host: str | None = None, headers: dict[str, str] | None = None,
            body: bytes = b"", source: str = "127.0.0.1", to: str = "127.0.0.1", timeout: float = 15) -> Answer:
    """One request on a new connection (closed after it), as raw as the test wants it."""
    head = {"Host": host if host is not None else f"{to}:{port}", "Connection": "close", **(headers or {})}
    if body and not any(k.lower() in ("content-length", "transfer-encoding") for k in head):
        head["Content-Length"] = str(len(body))
    data = f"{method} {path} HTTP/1.1\r\n".encode() + b"".join(
        f"{k}: {v}\r\n".encode("latin-1") for k, v in head.items()) + b"\r\n" + body
    with connect(port, source, to, timeout) as s:
        s.sendall(data)
        return read_answer(s)


def connect(port: int, source: str = "127.0.0.1", to: str = "127.0.0.1", timeout: float = 15) -> socket.socket:
    s = socket.socket(socket.AF_INET6 if ":" in to else socket.AF_INET, socket.SOCK_STREAM)
    s.settimeout(timeout)
    s.bind((source, 0))
    s.connect((to, port))
    return s


def read_answer(s: socket.socket) -> Answer:
    """Read one response: its head, then its body by Content-Length (or up to the connection's close)."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = s.recv(65536)
        if not chunk:
            raise ConnectionError(f"closed before an answer: {data!r}")
        data += chunk
    head, _, rest = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers = {k.lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
    length = int(headers.get("content-length", "-1"))
    while length < 0 or len(rest) < length:
        try:
            chunk = s.recv(65536)
        except ConnectionResetError:
            break
        if not chunk:
            break
        rest += chunk
    return Answer(status, headers, rest[:length] if length >= 0 else rest)


def pin_header(pin: str) -> dict[str, str]:
    return {"X-Pitchkeeper-Pin": pin, "Content-Type": "application/json"}


def sign_in(port: int, pin: str, source: str = "127.0.0.1") -> dict[str, str]:
    """A phone's page enters the PIN through the form: its cookies afterwards."""
    page = request(port, "GET", "/enter", source=source)
    cookies = dict(re.findall(r"(pk_\w+)=([^;]+)", page.headers.get("set-cookie", "")))
    csrf = re.search(r'name="csrf" value="([^"]+)"', page.body.decode()).group(1)  # type: ignore[union-attr]
    a = request(port, "POST", "/enter/pin", source=source, body=f"csrf={csrf}&pin={pin}".encode(),
                headers={"Content-Type": "application/x-www-form-urlencoded", "Cookie": cookie_header(cookies)})
    assert a.status == 303, a
    cookies.update(re.findall(r"(pk_session)=([^;]+)", a.headers.get("set-cookie", "")))
    assert "pk_session" in cookies
    return cookies


def cookie_header(cookies: dict[str, str]) -> str:
    return "; ".join(f"{k}={v}" for k, v in cookies.items())


def loopback_sources(count: int, first: int = 2) -> list[str]:
    """Loopback addresses other than 127.0.0.1 (Linux routes all of 127.0.0.0/8 to this machine)."""
    return [f"127.0.0.{k}" for k in range(first, first + count)]


def wait_for(check: Any, seconds: float = 5.0) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)
