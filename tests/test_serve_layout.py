"""The pages' layout in a real Chromium (the browser tier), measured where a tester saw it break: the
chart's target label inside the chart on a TV, its labels readable on a phone, the PIN form within a
1920 px page, the TV's cards aligned when a name wraps, the phone's hands list naming each side with
five players, and the live badge never over the content once scrolled. Screenshots in
test-artifacts/serve/layout-*.png.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browsing import artefacts, launched, sign_in
from serving import new_log, serve_process
from test_serve_browser import PIN

import pitchkeeper

pytestmark = pytest.mark.browser

PLAYERS = ["Ann Marie", "Bob", "Cy", "Dee", "Eve"]  # individual play, one name that wraps on a TV card


@pytest.fixture
def served(tmp_path: Path) -> Iterator[str]:
    log = new_log(tmp_path / "five.toml", {"rules": "cutthroat-pitch", "players": PLAYERS, "target": 7})
    book = pitchkeeper.Logbook.open(log)
    for bidder, points in [("Bob", {"high": "Bob", "low": "Cy", "jack": "Bob", "game": "Dee"}),
                           ("Cy", {"high": "Cy", "low": "Cy", "jack": "Eve", "game": "Cy"}),
                           ("Dee", {"high": "Ann Marie", "low": "Dee", "game": "Bob"})]:
        book.append({"trump": "H", "bid": {"player": bidder, "amount": 2}, "points": points})
    with serve_process(log, tmp_path / "home", PIN) as url:
        yield url


def box(page: Any, selector: str) -> dict[str, float]:
    b = page.locator(selector).first.bounding_box()
    assert b, selector
    return b


def test_the_pages_fit_their_screens(served: str) -> None:
    shots = artefacts("serve")
    with launched() as browser:
        tv = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
        tv.goto(served + "/")
        tv.wait_for_selector("#live.on")
        tv.screenshot(path=str(shots / "layout-tv-five.png"))
        svg, label = box(tv, ".chart svg"), box(tv, ".chart .target-label")
        faults = []  # every fault of the layout at once (each one seen on a screenshot)
        if label["y"] < svg["y"] - 0.5:
            faults.append(f"the target's label is clipped at the top: {label} above {svg}")
        tops = tv.locator(".side .score").evaluate_all("els => els.map(e => e.getBoundingClientRect().top)")
        if len(tops) != 5 or max(tops) - min(tops) >= 1:
            faults.append(f"the TV's scores do not align when a name wraps: {tops}")
        tall = tv.evaluate("document.scrollingElement.scrollHeight")
        if tall > 1080:
            faults.append(f"the scoreboard does not fit one 1080p screen: {tall} px")

        pin = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
        pin.goto(served + "/enter")
        pin.screenshot(path=str(shots / "layout-pin-1920.png"))
        text = box(pin, "main > p")  # the column the page's text keeps to
        edges = {sel: box(pin, sel)["x"] + box(pin, sel)["width"] for sel in ("#pin", ".pin-form button")}
        if max(edges.values()) > text["x"] + text["width"] + 0.5 or max(edges.values()) - min(edges.values()) > 0.5:
            faults.append(f"PIN page at 1920 px: the input and button end at {edges}, the text at "
                          f"{text['x'] + text['width']}")

        phone = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True,
                                    device_scale_factor=2).new_page()
        phone.goto(served + "/")
        phone.wait_for_selector("#live.on")
        phone.screenshot(path=str(shots / "layout-phone-board.png"), full_page=True)
        heights = phone.locator(".chart .axis").evaluate_all(
            "els => els.map(e => e.getBoundingClientRect().height)")
        if not heights or min(heights) < 10:
            faults.append(f"the chart's labels on a phone are {heights} px high (at least 10)")

        sign_in(phone, served, PIN)
        first = phone.locator(".hand-list li").first.inner_text()
        if "Ann Marie" not in first or "Eve" not in first:
            faults.append(f"the hands list shows figures without names: {first!r}")
        over = phone.locator(".hand-list .what").evaluate_all(
            "els => els.filter(e => e.scrollWidth > e.clientWidth + 1).map(e => e.innerText)")
        if over:
            faults.append(f"the hands list's figures run under its 'correct' button: {over}")
        live = phone.locator("#live")
        phone.evaluate("window.scrollTo(0, 600)")
        b = live.bounding_box()
        if b is not None and b["y"] + b["height"] > 0:
            faults.append(f"the live badge stays over the content once scrolled: {b}")
        phone.screenshot(path=str(shots / "layout-phone-entry.png"), full_page=True)
        assert faults == [], "\n".join(faults)
