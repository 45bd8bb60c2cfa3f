"""The HTML export in a real headless Chromium: it renders, holds every hand, draws the chart, fetches
nothing, and shows a player named <script>alert(1)</script> as text.

These tests form the `browser` tier: the README's test command deselects them (a machine with only
Python and pip passes it); `python -m pytest -m browser` runs them, and CI does after installing
Chromium (.ci/run). Once selected, Chromium is required, not optional: a run without it FAILS with
what to install, so a missing browser can never pass as a green build.

Three looks at the page:
- `--dump-dom`: the DOM after parsing (rows, the chart's points, the name as text, no script element,
  no URL anywhere in it, the CSP meta);
- `--screenshot`: the PNG really shows the chart (pixels in the chart's own colours, decoded with zlib);
- a DevTools session over `--remote-debugging-pipe`: every request the page made (only its own file),
  no dialog opened, and each polyline has a visible size. A control page that does call alert() checks
  that the dialog watch works. (Chromium's own background requests, which the flags do not silence
  entirely, make a log grep with --v=1 noisy; the DevTools Network domain sees the page's alone.)
"""

from __future__ import annotations

import base64
import json
import os
import re
import select
import shutil
import struct
import subprocess
import time
import zlib
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from pitchkeeper.cli import app
from pitchkeeper.reports.export import COLOURS

pytestmark = pytest.mark.browser

DATA = Path(__file__).parent / "data" / "export"
SCRIPT_NAME = "<script>alert(1)</script>"
HANDS = 6  # hostile-names.toml
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]
INSTALL = ("headless Chromium is needed for this test and was not found: install it with "
           "`apt-get install chromium` (Debian/Ubuntu), or set PITCHKEEPER_CHROMIUM to its path")


def chromium() -> str:
    path = os.environ.get("PITCHKEEPER_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    if not path or not os.access(path, os.X_OK):
        pytest.fail(INSTALL, pytrace=False)
    return path


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("html") / "match.html"
    r = CliRunner().invoke(app, ["export", "--match", str(DATA / "hostile-names.toml"), "--format", "html",
                                 "-o", str(out)])
    assert r.exit_code == 0, r.stderr
    return out


def run_chromium(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([chromium(), *FLAGS, f"--user-data-dir={tmp_path / 'profile'}", *args],
                          capture_output=True, timeout=120, check=False)


# ---------------------------------------------------------------------------
# --dump-dom


class Dom(HTMLParser):
    """Tags, attributes and text of the dumped DOM."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.text: list[str] = []
        self.in_style = False
        self.style = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))
        self.in_style = tag == "style"

    def handle_endtag(self, tag: str) -> None:
        self.in_style = False

    def handle_data(self, data: str) -> None:
        if self.in_style:
            self.style += data
        else:
            self.text.append(data)

    def all(self, tag: str) -> list[dict[str, str | None]]:
        return [a for t, a in self.tags if t == tag]


def test_dumped_dom(page: Path, tmp_path: Path) -> None:
    p = run_chromium(tmp_path, "--dump-dom", page.as_uri())
    assert p.returncode == 0, p.stderr[-2000:]
    html = p.stdout.decode("utf-8")
    dom = Dom()
    dom.feed(html)
    # It rendered: the hand table is there with one row per hand.
    assert "hands" in [a.get("id") for a in dom.all("table")]
    rows = [a for a in dom.all("tr") if a.get("class") == "hand-row"]
    assert [a["data-hand"] for a in rows] == [str(i) for i in range(1, HANDS + 1)]
    # The chart: one polyline per side, each with hand 0..6 as points.
    lines = dom.all("polyline")
    assert len(lines) == 4
    for a in lines:
        points = (a.get("points") or "").split()
        assert len(points) == HANDS + 1 and all(re.fullmatch(r"[\d.]+,[\d.]+", xy) for xy in points)
    # The script-named player is text, escaped in the markup, and no script element exists.
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert any(SCRIPT_NAME in t for t in dom.text)
    assert dom.all("script") == []
    # Nothing to fetch: no element names a URL, the style imports nothing, and the CSP forbids it anyway.
    for tag, attrs in dom.tags:
        for k in ("src", "href", "xlink:href", "srcset", "poster", "data", "action"):
            assert k not in attrs, (tag, k)
        assert "url(" not in (attrs.get("style") or "")
    assert "url(" not in dom.style and "@import" not in dom.style
    assert not re.search(r"https?://", html)
    csp = [a for a in dom.all("meta") if (a.get("http-equiv") or "").lower() == "content-security-policy"]
    assert csp and csp[0]["content"] == "default-src 'none'; style-src 'unsafe-inline'; img-src data:"


# ---------------------------------------------------------------------------
# --screenshot


def png_pixels(data: bytes) -> tuple[int, int, int, bytes]:
    """(width, height, bytes per pixel, raw pixel rows) of an 8-bit RGB/RGBA PNG, unfiltered."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, width = 8, b"", 0
    height = depth = ctype = 0
    while pos < len(data):
        (n,) = struct.unpack(">I", data[pos:pos + 4])
        kind, body = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            width, height, depth, ctype = struct.unpack(">IIBB", body[:10])
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    assert depth == 8 and ctype in (2, 6), (depth, ctype)
    bpp = 3 if ctype == 2 else 4
    raw = zlib.decompress(idat)
    stride = width * bpp
    out = bytearray()
    prev = bytearray(stride)
    for y in range(height):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        if f == 1:
            for i in range(bpp, stride):
                line[i] = (line[i] + line[i - bpp]) & 255
        elif f == 2:
            line = bytearray((a + b) & 255 for a, b in zip(line, prev, strict=True))
        elif f == 3:
            for i in range(stride):
                line[i] = (line[i] + ((line[i - bpp] if i >= bpp else 0) + prev[i]) // 2) & 255
        elif f == 4:
            for i in range(stride):
                a = line[i - bpp] if i >= bpp else 0
                b, c = prev[i], (prev[i - bpp] if i >= bpp else 0)
                pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        out += line
        prev = line
    return width, height, bpp, bytes(out)


def test_screenshot_shows_the_chart(page: Path, tmp_path: Path) -> None:
    shot = tmp_path / "page.png"
    p = run_chromium(tmp_path, f"--screenshot={shot}", "--window-size=1000,1000", "--hide-scrollbars", page.as_uri())
    assert p.returncode == 0 and shot.is_file(), p.stderr[-2000:]
    width, height, bpp, px = png_pixels(shot.read_bytes())
    assert (width, height) == (1000, 1000)
    colours: dict[bytes, int] = {}
    for i in range(0, len(px), bpp * 3):  # every third pixel is plenty to count colours
        c = px[i:i + 3]
        colours[c] = colours.get(c, 0) + 1
    assert len(colours) > 50, "a blank or flat page"
    # The first and fourth sides' line colours are used by the chart alone (not by the page's CSS).
    for hexcolour in (COLOURS[0], COLOURS[3]):
        rgb = bytes.fromhex(hexcolour[1:])
        near = sum(n for c, n in colours.items() if all(abs(c[k] - rgb[k]) <= 12 for k in range(3)))
        assert near > 40, f"the chart's {hexcolour} line is not on the screenshot ({near} pixels)"


# ---------------------------------------------------------------------------
# DevTools over a pipe: requests, dialogs, rendered geometry


class DevTools:
    """A minimal Chrome DevTools Protocol client over --remote-debugging-pipe (fds 3 and 4)."""

    def __init__(self, exe: str, profile: Path) -> None:
        to_chrome_r, self._w = os.pipe()
        self._r, from_chrome_w = os.pipe()

        def fds() -> None:  # in the child: its fd 3 reads our commands, fd 4 carries its answers
            a, b = os.dup(to_chrome_r), os.dup(from_chrome_w)
            os.dup2(a, 3)
            os.dup2(b, 4)

        self.proc = subprocess.Popen([exe, *FLAGS, f"--user-data-dir={profile}", "--remote-debugging-pipe",
                                      "about:blank"], preexec_fn=fds, close_fds=False,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_chrome_r)
        os.close(from_chrome_w)
        self._buf = b""
        self._id = 0
        self.events: list[dict[str, Any]] = []
        self.session: str | None = None

    def send(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        self._id += 1
        msg: dict[str, Any] = {"id": self._id, "method": method, "params": params or {}}
        if self.session:
            msg["sessionId"] = self.session
        os.write(self._w, json.dumps(msg).encode() + b"\0")
        want = self._id
        reply = self.wait(lambda m: m.get("id") == want)
        assert "error" not in reply, reply
        return reply.get("result", {})

    def wait(self, pred: Any, timeout: float = 30) -> dict[str, Any]:
        end = time.monotonic() + timeout
        while True:
            while b"\0" in self._buf:
                raw, self._buf = self._buf.split(b"\0", 1)
                m = json.loads(raw)
                if "method" in m:
                    self.events.append(m)
                    if m["method"] == "Page.javascriptDialogOpening":  # never leave the page blocked
                        self._id += 1
                        os.write(self._w, json.dumps({"id": self._id, "method": "Page.handleJavaScriptDialog",
                                                      "params": {"accept": True},
                                                      "sessionId": self.session}).encode() + b"\0")
                if pred(m):
                    return m
            left = end - time.monotonic()
            assert left > 0, "Chromium did not answer in time"
            ready, _, _ = select.select([self._r], [], [], min(left, 0.5))
            if ready:
                chunk = os.read(self._r, 1 << 20)
                assert chunk, "Chromium closed the DevTools pipe"
                self._buf += chunk

    def open(self, url: str) -> None:
        if self.session is None:
            target = self.send("Target.createTarget", {"url": "about:blank"})["targetId"]
            self.session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
            for domain in ("Network", "Page", "Runtime"):
                self.send(f"{domain}.enable")
        self.events.clear()
        self.send("Page.navigate", {"url": url})
        self.wait(lambda m: m.get("method") == "Page.loadEventFired")

    def evaluate(self, js: str) -> Any:
        return self.send("Runtime.evaluate", {"expression": js, "returnByValue": True})["result"]["value"]

    def close(self) -> None:
        try:
            os.write(self._w, json.dumps({"id": 0, "method": "Browser.close"}).encode() + b"\0")
            self.proc.wait(timeout=15)
        except (OSError, subprocess.TimeoutExpired):
            self.proc.kill()
            self.proc.wait()
        os.close(self._w)
        os.close(self._r)


def test_devtools_no_request_no_dialog_chart_visible(page: Path, tmp_path: Path) -> None:
    dt = DevTools(chromium(), tmp_path / "profile")
    try:
        # Control: a page that does call alert() shows up in the dialog watch.
        control = tmp_path / "control.html"
        control.write_text("<!DOCTYPE html><title>control</title><script>alert(1)</script>", encoding="utf-8")
        dt.open(control.as_uri())
        assert any(e["method"] == "Page.javascriptDialogOpening" for e in dt.events), "the dialog watch works"

        dt.open(page.as_uri())
        dt.evaluate("1")  # let late events arrive before they are read
        urls = [e["params"]["request"]["url"] for e in dt.events if e["method"] == "Network.requestWillBeSent"]
        assert urls == [page.as_uri()], "the page fetched nothing but itself"
        assert not [e for e in dt.events if e["method"] == "Page.javascriptDialogOpening"], "no alert ran"
        got = dt.evaluate("""JSON.stringify({
            rows: document.querySelectorAll('#hands tbody tr').length,
            scripts: document.scripts.length,
            winner: document.getElementById('result').textContent,
            lines: [...document.querySelectorAll('#chart polyline')].map(p => {
                const r = p.getBoundingClientRect(), s = getComputedStyle(p);
                return [r.width, r.height, s.visibility, s.display, p.points.numberOfItems]; }),
            chart: (() => { const r = document.getElementById('chart').getBoundingClientRect();
                            return [r.width, r.height]; })()})""")
        info = json.loads(got)
        assert info["rows"] == HANDS
        assert info["scripts"] == 0
        assert info["winner"].startswith(f"{SCRIPT_NAME} won on hand 6")
        assert info["chart"][0] > 300 and info["chart"][1] > 100
        assert len(info["lines"]) == 4
        for w, h, visibility, display, n in info["lines"]:
            assert w > 100 and h > 0 and visibility == "visible" and display != "none" and n == HANDS + 1
        shot = base64.b64decode(dt.send("Page.captureScreenshot", {"format": "png"})["data"])
        assert shot[:8] == b"\x89PNG\r\n\x1a\n"
    finally:
        dt.close()
