"""`pitchkeeper serve` as a user starts it, and headless Chromium, for the tests and the benchmarks alike
(benchmarks put tests/ on sys.path): the standard library only, so a benchmark needs nothing more."""

from __future__ import annotations

import http.client
import json
import os
import re
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

# headless Chromium as the browser tier and the benchmarks launch it (in a container, without a GPU)
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--no-first-run"]


def chromium_path() -> str | None:
    """Debian's Chromium, or the one $PITCHKEEPER_CHROMIUM names; None when there is none."""
    return os.environ.get("PITCHKEEPER_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")


def start_serve(args: list[str], env: dict[str, str], *, stderr: int | IO[Any] = subprocess.PIPE,
                cwd: Path | None = None) -> tuple[subprocess.Popen[str], str]:
    """`pitchkeeper serve ARGS` in its own process, and what it printed before it listened: every line up
    to its last, "Ctrl-C stops." (all of its output, if it stopped before)."""
    p = subprocess.Popen([sys.executable, "-m", "pitchkeeper", "serve", *args], stdout=subprocess.PIPE,
                         stderr=stderr, text=True, env=env, cwd=cwd)
    assert p.stdout is not None
    text = ""
    for line in p.stdout:
        text += line
        if line.startswith("Ctrl-C stops."):
            break
    return p, text


def started(banner: str) -> bool:
    """Did serve print its last line before listening ("Ctrl-C stops."), or stop before?"""
    return banner.rstrip("\n").rpartition("\n")[2].startswith("Ctrl-C stops.")


def stop_serve(p: subprocess.Popen[str]) -> None:
    """Ctrl-C, as a user stops serve (a kill if it does not stop); then its pipes closed."""
    if p.poll() is None:
        p.send_signal(signal.SIGINT)
        try:
            p.wait(15)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait(10)
    for stream in (p.stdout, p.stderr):
        if stream is not None:
            stream.close()


def playwright_or_why() -> tuple[Any, str] | str:
    """(Playwright's sync_playwright, Chromium's path) for a benchmark, or why its browser figures are skipped."""
    chromium = chromium_path()
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        return "skipped: no Playwright (pip install -e '.[browser]')"
    if not chromium:
        return "skipped: no Chromium"
    return sync_playwright, chromium


def versions(resp: http.client.HTTPResponse) -> Iterator[str]:
    """The version each event of an open `GET /api/events` stream announces, as it arrives, until the
    stream ends."""
    try:
        while line := resp.fp.readline():
            if line.startswith(b"data:"):
                yield json.loads(line[5:])["version"]
    except (OSError, ValueError):
        return


def table_pins(banner: str) -> dict[int, str]:
    """The tables' PINs a night's serve printed ("tables' PINs  1: 1234 5678 90, 2: ..."), by table."""
    pins = re.search(r"tables' PINs\s+(.*)", banner)
    return {int(n): pin.replace(" ", "") for n, pin in re.findall(r"(\d+): ([\d ]{12})", pins.group(1))} if pins else {}
