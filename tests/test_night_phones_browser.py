"""Two phones at one club-night table in a real headless Chromium (the browser tier, issue 20's outside test):
a phone whose table is reported from another phone closes its form and says its own typed result was not
sent; a phone whose form is open while the next round is seated says the typed round's result was not
reported; a wrong PIN is said at the PIN field. Screenshots in test-artifacts/night/."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest
from browsing import FLAGS, PHONE, Watch, artefacts, chromium, playwright
from test_night_browser import ORGANIZER, night_process, sign_in_at_table

from pitchkeeper.tournament import book

pytestmark = pytest.mark.browser

PLAYERS = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]


def type_result(phone: object, winner: int, scores: tuple[int, int], check: bool) -> None:
    phone.tap(f'label[data-q="winner"][data-v="{winner}"]')  # type: ignore[attr-defined]
    phone.fill('input[name="s0"]', str(scores[0]))  # type: ignore[attr-defined]
    phone.fill('input[name="s1"]', str(scores[1]))  # type: ignore[attr-defined]
    if check:
        phone.tap("[data-action=check]")  # type: ignore[attr-defined]
        phone.wait_for_selector("#preview [data-action=report]")  # type: ignore[attr-defined]


def test_a_phone_whose_table_reports_elsewhere_closes_its_form_and_says_so(tmp_path: Path, _home: Path) -> None:
    path = tmp_path / "club.toml"
    book.create(path, "partnership-pitch", "progressive", PLAYERS, rounds=2, title="Club")
    book.seat(path)
    shots = artefacts("night")
    with night_process(path, _home) as (url, pins), playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium(), args=FLAGS)
        try:
            phone = browser.new_context(**PHONE).new_page()
            watch = Watch(phone)
            phone.goto(f"{url}/table/1")
            phone.fill("#pin", "0000000000")
            phone.tap("[data-action=pin]")
            phone.wait_for_selector("#q-pin.has-error #error")
            assert phone.locator("#q-pin #error").inner_text() == \
                "That PIN does not open table 1: its PIN is the one printed on the card of table 1."
            assert phone.locator("#pin").get_attribute("aria-invalid") == "true"
            phone.screenshot(path=str(shots / "table-wrong-pin.png"), full_page=True)
            sign_in_at_table(phone, url, 1, pins[1])
            type_result(phone, 0, (21, 7), check=True)  # Ann & Cy 21 - Bob & Dee 7, checked, not yet reported
            seat = httpx.get(url + "/api/tournament").json()["seat"]["tables"]
            sides = {t["table"]: ["&".join(s) for s in t["sides"]] for t in seat}
            r = httpx.post(url + "/api/tables/1/result", headers={"X-Pitchkeeper-Pin": pins[1]},
                           json={"score": {sides[1][0]: 13, sides[1][1]: 22}, "winner": sides[1][1], "round": 1})
            assert r.status_code == 201
            phone.wait_for_selector("#notice", timeout=5000)
            assert phone.locator("#notice").inner_text() == (
                "Reported from another phone: yours (21-7, Ann & Cy won) was not sent; a correction is the "
                "organizer's.")
            assert phone.locator("#hand-form").count() == 0 and phone.locator("[data-action=report]").count() == 0
            assert "Bob & Dee won" in phone.locator("#reported").inner_text()
            phone.screenshot(path=str(shots / "table-reported-elsewhere.png"), full_page=True)

            # table 2's phone has typed its result when its table is declared forfeit and round 2 is seated
            other = browser.new_context(**PHONE).new_page()
            watch2 = Watch(other)
            sign_in_at_table(other, url, 2, pins[2])
            type_result(other, 0, (21, 9), check=False)
            # asleep in a pocket: its event stream closed (as when the page is hidden), both writes land, then
            # it looks again (what live.js does on waking: the page fetched afresh)
            other.evaluate("() => window.dispatchEvent(new Event('pagehide'))")
            org = {"X-Pitchkeeper-Pin": ORGANIZER}
            assert httpx.post(url + "/api/tables/2/forfeit", headers=org,
                              json={"winner": sides[2][1]}).status_code == 201
            assert httpx.post(url + "/api/rounds", headers=org, json={"round": 2}).status_code == 201
            other.evaluate("() => document.dispatchEvent(new CustomEvent('pitchkeeper:refresh-page'))")
            other.wait_for_selector('#page[data-match="r2"] #notice', timeout=5000)
            note = other.locator("#notice").inner_text()
            assert note.startswith("Round 2 has been seated: the round-1 result typed on this phone (Eve & Gus – "
                                   "Fay & Hal: 21-9, Eve & Gus won) was not reported; round 1 at this table counts "
                                   "Eve & Gus 0 – Fay & Hal 0, Fay & Hal won (declared forfeit)."), note
            assert other.locator("#hand-form input[name=round]").get_attribute("value") == "2"
            other.screenshot(path=str(shots / "table-next-round-unsent.png"), full_page=True)
            errors = [e for e in watch.errors + watch2.errors if "ERR_INTERNET_DISCONNECTED" not in e]
            assert not errors
        finally:
            browser.close()
