"""A five-player call-your-partner evening in a real headless Chromium: `serve` as a user starts it, the TV and
three phones; each hand the bidder calls a card and its holder is partner for that hand only, the partnership
changing every hand; a mistyped called card is said next to its question and nothing is saved; the TV and every
phone follow each hand without a reload, showing the hand's partnership, until the bidder and partner go out.
Screenshots are kept in test-artifacts/call-partner/ (or $PITCHKEEPER_ARTIFACTS/call-partner)."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest
from browsing import FLAGS, PHONE, ROOT, Watch, artefacts, check_and_save, chromium, playwright, sign_in
from serving import new_log, serve_process

pytestmark = pytest.mark.browser

PIN = "86420"
FIVE = ["Ann", "Bob", "Cy", "Dee", "Eve"]
HOUSE = ROOT / "examples" / "house-rules"

# (bidder, amount, trump, called, holder, who took each point): the game of tests/data/house-rules
HANDS = [
    ("Ann", "6", "S", "AS", "Cy", {"ace": "Cy", "jack": "Ann", "off-jack": "Bob", "high-joker": "Ann",
                                   "low-joker": "Dee", "ten": "Cy", "three": "Ann", "deuce": "Eve"}),
    ("Bob", "5", "H", "KH", "Dee", {"ace": "Bob", "jack": "Dee", "off-jack": "Dee", "high-joker": "Cy",
                                    "low-joker": "Bob", "ten": "Eve", "three": "Dee", "deuce": "Ann"}),
    ("Ann", "5", "S", "KS", "Bob", {"ace": "Ann", "jack": "Bob", "off-jack": "Bob", "high-joker": "Ann",
                                    "low-joker": "Bob", "ten": "Ann", "three": "Ann", "deuce": "Cy"}),
]
SCORES = [{"Ann": 7, "Bob": 3, "Cy": 7, "Dee": 3, "Eve": 3}, {"Ann": 10, "Bob": 10, "Cy": 10, "Dee": 10, "Eve": 6},
          {"Ann": 19, "Bob": 19, "Cy": 11, "Dee": 11, "Eve": 7}]


def enter(page: Any, bidder: str, amount: str, trump: str, called: str, holder: str, points: dict[str, str]) -> None:
    page.tap(f'label[data-q="bidder"][data-v="{bidder}"]')
    page.tap(f'label[data-q="amount"][data-v="{amount}"]')
    page.tap(f'label[data-q="trump"][data-v="{trump}"]')
    page.fill('input[name="called"]', called)
    page.tap(f'label[data-q="partner"][data-v="{holder}"]')
    for point, who in points.items():
        page.tap(f'label[data-q="p.{point}"][data-v="{who}"]')


def fits(page: Any) -> None:
    """No page wider than the phone's screen."""
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def test_a_call_partner_evening_on_a_tv_and_three_phones(tmp_path: Path) -> None:
    log = new_log(tmp_path / "five.toml", {"rules": str(HOUSE / "call-partner-5.toml"), "players": FIVE,
                                           "first_dealer": "Eve", "target": 18})
    shots = artefacts("call-partner")

    def hands() -> list[dict[str, Any]]:
        return tomllib.loads(log.read_text(encoding="utf-8")).get("hands", [])

    with serve_process(log, tmp_path / "home", PIN) as url, playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium(), args=FLAGS)
        try:
            tv = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
            phones = [browser.new_context(**PHONE).new_page() for _ in range(3)]
            watches = [Watch(p) for p in (tv, *phones)]
            tv.goto(url + "/")
            tv.wait_for_selector("#live.on")
            for phone in phones:
                sign_in(phone, url, PIN)
                phone.wait_for_selector("#live.on")
            a, b, c = phones
            # the questions of a table that calls a partner, in the page's words
            assert a.locator("#q-called legend").inner_text() == "Which card did the bidder call?"
            held = a.locator("#q-partner").inner_text()
            assert all(p in held for p in FIVE) and "the bidder alone" in held
            fits(a)

            # hand 1 on phone A: Ann calls the ace of trumps, Cy holds it
            enter(a, *HANDS[0])
            a.tap("[data-action=check]")
            a.wait_for_selector("#preview [data-action=save]")
            assert "called A♠: partner Cy (Ann+Cy against Bob+Dee+Eve)" in a.locator("#preview").inner_text()
            a.screenshot(path=str(shots / "phone-verdict.png"), full_page=True)
            a.tap("[data-action=save]")
            a.wait_for_selector("#flash:has-text('Hand 1 saved.')")
            tv.wait_for_selector('#board[data-hands="1"]')
            assert "Ann+Cy bid 6 in ♠ (A♠) – made" in tv.locator(".now").inner_text()
            assert "partner Cy (Ann+Cy against Bob+Dee+Eve)" in tv.locator("#partnership").inner_text()
            assert [int(x) for x in tv.locator(".side .score").all_inner_texts()] == list(SCORES[0].values())

            # hand 2 on phone B (its untouched form moved on to hand 2 by itself): a mistyped card first
            b.wait_for_selector("h2.form-title:has-text('Hand 2')")
            bidder, amount, trump, _, holder, points = HANDS[1]
            enter(b, bidder, amount, trump, "KX", holder, points)
            b.tap("[data-action=check]")
            b.wait_for_selector("#q-called.has-error #error")
            assert "The card called: 'KX' is not a card" in b.locator("#q-called #error").inner_text()
            assert len(hands()) == 1  # nothing was saved
            b.screenshot(path=str(shots / "phone-bad-card.png"), full_page=True)
            b.fill('input[name="called"]', "KH")
            check_and_save(b, 2)
            tv.wait_for_selector('#board[data-hands="2"]')
            assert "Bob+Dee bid 5 in ♥ (K♥) – made" in tv.locator(".now").inner_text()
            assert "partner Dee" in tv.locator("#partnership").inner_text()

            # hand 3 on phone C: Ann calls the king of trumps, Bob holds it; they go out together
            c.wait_for_selector("h2.form-title:has-text('Hand 3')")
            enter(c, *HANDS[2])
            c.tap("[data-action=check]")
            c.wait_for_selector("#preview [data-action=save]")
            assert "Ann would win" in c.locator("#preview").inner_text()
            c.tap("[data-action=save]")
            tv.wait_for_selector('#board[data-hands="3"]')
            assert "Ann won on hand 3" in tv.locator(".winner-line").inner_text()
            assert "with Bob" in tv.locator(".winner-line").inner_text()
            assert [int(x) for x in tv.locator(".side .score").all_inner_texts()] == list(SCORES[2].values())
            tv.screenshot(path=str(shots / "tv-won.png"))
            for phone in (a, b):  # every phone followed without a reload
                phone.wait_for_selector("#next-game")
                assert "Ann won" in phone.locator("#next-game h2").inner_text()
                fits(phone)
            assert [(h["called"], h["partner"]) for h in hands()] == [("AS", "Cy"), ("KH", "Dee"), ("KS", "Bob")]
            for w in watches:
                assert not w.errors and not w.foreign(), (w.errors, w.foreign())
        finally:
            browser.close()
