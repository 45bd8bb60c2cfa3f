"""The browser tier's shared helpers: Playwright driving Debian's headless Chromium, a phone's viewport,
where screenshots are kept, what a page did that it should not, and a phone signing in and saving a hand
as a person taps it."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from processes import FLAGS as FLAGS  # re-exported: the browser tests launch Chromium with these
from processes import chromium_path

ROOT = Path(__file__).resolve().parent.parent
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "device_scale_factor": 2}


def artefacts(name: str) -> Path:
    """The folder of one test file's screenshots: test-artifacts/NAME (or under $PITCHKEEPER_ARTIFACTS)."""
    out = Path(os.environ.get("PITCHKEEPER_ARTIFACTS") or ROOT / "test-artifacts") / name
    out.mkdir(parents=True, exist_ok=True)
    return out


def playwright() -> Any:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.fail("Playwright for Python is needed: pip install -e '.[browser]'", pytrace=False)
    return sync_playwright()


def chromium() -> str:
    path = chromium_path()
    if not path:
        pytest.fail("headless Chromium is needed: apt-get install chromium (or set PITCHKEEPER_CHROMIUM)", pytrace=False)
    return path


@contextlib.contextmanager
def launched() -> Iterator[Any]:
    """Headless Chromium under Playwright, closed afterwards whatever happened."""
    with playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium(), args=FLAGS)
        try:
            yield browser
        finally:
            browser.close()


class Watch:
    """What a page did that it should not: console errors, page errors, requests to anywhere else."""

    def __init__(self, page: Any) -> None:
        self.errors: list[str] = []
        self.requests: list[str] = []
        self.navigations = 0
        page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        page.on("request", lambda r: self.requests.append(r.url))
        page.on("framenavigated", lambda f: setattr(self, "navigations", self.navigations + 1)
                if f == page.main_frame else None)

    def foreign(self) -> list[str]:
        return [u for u in self.requests if urlsplit(u).hostname != "127.0.0.1"]


def sign_in(page: Any, url: str, pin: str) -> None:
    """A phone opens the entry page and enters the table's PIN."""
    page.goto(url + "/enter")
    page.fill("#pin", pin)
    page.tap("button[type=submit]")
    page.wait_for_selector("#hand-form")


def check_and_save(page: Any, n: int) -> None:
    """Check the hand tapped, then save it from its preview: hand `n` saved."""
    page.tap("[data-action=check]")
    page.wait_for_selector("#preview [data-action=save]")
    page.tap("[data-action=save]")
    page.wait_for_selector(f"#flash:has-text('Hand {n} saved.')")
