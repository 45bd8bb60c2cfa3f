"""What the final outside test found on the web pages, seen in a real headless Chromium (the browser
tier): a log broken by hand while the TV and a phone are open covers both at once with the players'
words and they come back by themselves when it is mended, and so does a tournament file broken by hand while
the hall screen and a table's phone are open; an empty form names every unanswered
question at once; a wrong PIN shows no Markdown; the hall screen's header keeps its count in line at
1920 x 1080; a table's PIN box does not say which table another PIN opens. Screenshots in
test-artifacts/mending/."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest
from browsing import FLAGS, PHONE, artefacts, chromium, launched, playwright, sign_in
from serving import new_log, serve_process
from test_night_browser import ORGANIZER, TV, night_process, sign_in_at_table
from test_serve_browser import GAME, PIN, TEAMS, tap_hand

from pitchkeeper.tournament import book

pytestmark = pytest.mark.browser

WORDS = ("The match log cannot be read: someone edited it by hand (friday.toml, hand 1). Mend it (pitchkeeper check "
         "shows where); this page comes back by itself.")


@pytest.fixture
def served(tmp_path: Path) -> object:
    log = new_log(tmp_path / "friday.toml", {"rules": "seven-point", "players": ["Ann", "Bob", "Cy", "Dee"],
                                             "teams": TEAMS, "target": 11})
    with serve_process(log, tmp_path / "home", PIN) as url:
        yield url, log


def signed_in_phone(browser: object, url: str) -> object:
    phone = browser.new_context(**PHONE).new_page()  # type: ignore[attr-defined]
    sign_in(phone, url, PIN)
    phone.wait_for_selector("#live.on")
    return phone


def test_a_log_broken_by_hand_covers_the_tv_and_the_phone_until_it_is_mended(served: tuple[str, Path]) -> None:
    url, log = served
    shots = artefacts("mending")
    with launched() as browser:
        tv = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
        tv.goto(url + "/")
        tv.wait_for_selector("#live.on")
        phone = signed_in_phone(browser, url)
        tap_hand(phone, *GAME[0])
        phone.tap("[data-action=check]")
        phone.wait_for_selector("#preview:not(.stale) [data-action=save]")
        phone.tap("[data-action=save]")
        tv.wait_for_selector('#board[data-hands="1"]')
        good = log.read_text()
        log.write_text(good.replace('trump = "S"', 'trump = "Q"', 1))  # someone's editor, while serve runs
        for page in (tv, phone):  # at once, without a reload: the score is not shown as current any more
            page.wait_for_selector("#log-broken", timeout=3000)
            assert page.locator("#log-broken").inner_text() == WORDS
        assert not tv.locator("#board").is_visible()
        assert not phone.locator("#strip").is_visible() and not phone.locator("#hand-form").is_visible()
        tv.screenshot(path=str(shots / "tv-log-broken.png"))
        phone.screenshot(path=str(shots / "phone-log-broken.png"))
        opened = browser.new_context(**PHONE).new_page()  # a page opened meanwhile: the same words
        answer = opened.goto(url + "/enter")
        assert answer is not None and answer.status == 503
        text = opened.locator("#broken-log").inner_text()
        assert text == WORDS and "hands[" not in text and str(log.parent) not in text
        log.write_text(good)  # mended: every page comes back by itself
        for page in (tv, phone):
            page.wait_for_selector("#log-broken", state="detached", timeout=3000)
        assert tv.locator("#board").is_visible() and phone.locator("#hand-form").is_visible()
        assert tv.locator('#board[data-hands="1"]').count() == 1
        opened.wait_for_selector("#pin", timeout=5000)  # the page served broken fetched itself again (its PIN asked)


def test_a_tournament_file_broken_by_hand_covers_the_hall_screen_and_a_phone_until_it_is_mended(
        tmp_path: Path, _home: Path) -> None:
    path = tmp_path / "night.toml"
    book.create(path, "seven-point", "progressive", ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"], rounds=3)
    with night_process(path, _home) as (url, pins), playwright() as pw:
        assert httpx.post(url + "/api/rounds", headers={"X-Pitchkeeper-Pin": ORGANIZER},
                          json={"round": 1}).status_code == 201
        browser = pw.chromium.launch(executable_path=chromium(), args=FLAGS)
        try:
            tv = browser.new_context(**TV).new_page()
            tv.goto(url + "/")
            tv.wait_for_selector("#live.on")
            phone = browser.new_context(**PHONE).new_page()
            sign_in_at_table(phone, url, 1, pins[1])
            good = path.read_text(encoding="utf-8")
            path.write_text(good + "[oops\n", encoding="utf-8")  # someone's editor, while the night runs
            for page in (tv, phone):  # at once, without a reload: the standings are not shown as current
                page.wait_for_selector("#log-broken", timeout=3000)
                said = page.locator("#log-broken").inner_text()
                assert said.startswith("The tournament file cannot be read: night.toml") and "Mend it" in said
                assert str(path.parent) not in said
            assert not tv.locator("#hall").is_visible() and not phone.locator("#hand-form").is_visible()
            tv.screenshot(path=str(artefacts("mending") / "hall-file-broken.png"))
            opened = browser.new_context(**TV).new_page()  # a page opened meanwhile: the same words, and live
            answer = opened.goto(url + "/")
            assert answer is not None and answer.status == 503
            assert opened.locator("#broken-log").inner_text().startswith("The tournament file cannot be read")
            opened.wait_for_selector("#live.on")
            path.write_text(good, encoding="utf-8")  # mended: every page comes back by itself
            for page in (tv, phone):
                page.wait_for_selector("#log-broken", state="detached", timeout=3000)
            assert tv.locator("#hall").is_visible() and phone.locator("#hand-form").is_visible()
            opened.wait_for_selector("#hall", timeout=5000)  # the page served broken fetched itself again
        finally:
            browser.close()


def test_an_empty_form_names_every_unanswered_question_and_a_wrong_pin_shows_no_markdown(
        served: tuple[str, Path]) -> None:
    url, _ = served
    with launched() as browser:
        phone = browser.new_context(**PHONE).new_page()
        phone.goto(url + "/enter")
        phone.fill("#pin", "0000")
        phone.tap("button[type=submit]")
        phone.wait_for_selector("text=Wrong PIN")
        said = phone.locator(".message.error").inner_text()
        assert said == "Wrong PIN: it is the one pitchkeeper serve printed." and "`" not in phone.content()
        assert phone.locator(".message.error code").inner_text() == "pitchkeeper serve"
        phone = signed_in_phone(browser, url)
        phone.tap('label[data-q="trump"][data-v="S"]')  # only the trump tapped
        phone.tap("[data-action=check]")
        phone.wait_for_selector("#error")
        points = phone.locator("fieldset[data-point]").evaluate_all("els => els.map(e => e.dataset.point)")
        asked = ["q-bidder", "q-amount", *(f"q-p-{p}" for p in points)]
        for q in asked:  # each unanswered question has its own message beside it, and is marked
            box = phone.locator(f"#{q}")
            assert box.locator(".field-error").count() == 1, q
            assert "has-error" in str(box.get_attribute("class")), q
        assert phone.locator("#q-trump .field-error").count() == 0
        assert phone.locator(".field-error").count() == len(asked) == 2 + 7
        assert phone.locator("#q-bidder .field-error").inner_text().startswith("Who won the bid? No answer yet")
        assert phone.locator("#q-amount .field-error").inner_text().startswith("How much? No answer yet")
        first = phone.locator("#error")  # the first one is scrolled into view
        assert first.evaluate("e => e.closest('fieldset').id") == "q-bidder"
        phone.wait_for_function("() => { const r = document.getElementById('error').getBoundingClientRect(); "
                                "return r.top >= 0 && r.bottom <= innerHeight; }", timeout=3000)
        phone.screenshot(path=str(artefacts("mending") / "phone-empty-form.png"), full_page=True)


def test_the_hall_header_keeps_its_count_and_a_table_is_not_told_whose_pin_it_typed(
        tmp_path: Path, _home: Path) -> None:
    path = tmp_path / "night.toml"
    book.create(path, "seven-point", "progressive", ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"], rounds=3)
    with night_process(path, _home) as (url, pins), playwright() as pw:
        seated = httpx.post(url + "/api/rounds", headers={"X-Pitchkeeper-Pin": ORGANIZER}, json={"round": 1})
        assert seated.status_code == 201
        sides = seated.json()["seat"]["tables"][1]["sides"]
        score = {"&".join(sides[0]): 12, "&".join(sides[1]): 21}
        r = httpx.post(url + "/api/tables/2/result", json={"score": score, "round": 1},
                       headers={"X-Pitchkeeper-Pin": pins[2]})
        assert r.status_code == 201
        browser = pw.chromium.launch(executable_path=chromium(), args=FLAGS)
        try:
            tv = browser.new_context(**TV).new_page()
            tv.goto(url + "/")
            tv.wait_for_selector('.tbl[data-table="2"][data-state="reported"]')
            header = tv.locator("#hall-round")
            assert " ".join(header.inner_text().split()) == "Round 1 of 3 · 1 of 2 tables reported"
            count, rnd = tv.locator("#hall-count"), header.locator("b").first
            size = "e => parseFloat(getComputedStyle(e).fontSize)"
            assert count.evaluate(size) == rnd.evaluate(size) >= 0.03 * 1080  # as large as the round's number
            assert count.evaluate("e => getComputedStyle(e).float") == "none"
            cb, hb = count.bounding_box(), header.bounding_box()
            assert cb and hb and hb["x"] < cb["x"] < hb["x"] + hb["width"] / 2  # in its sentence, not at the edge
            tv.screenshot(path=str(artefacts("mending") / "hall-1080p-reported.png"))
            phone = browser.new_context(**PHONE).new_page()
            phone.goto(url + "/table/1")
            phone.fill("#pin", pins[2])  # table 2's PIN typed at table 1: not said whose it is
            phone.tap("[data-action=pin]")
            phone.wait_for_selector("#error")
            said = phone.locator("#error").inner_text()
            assert said == "That PIN does not open table 1: its PIN is the one printed on the card of table 1."
            phone.fill("#pin", "0000000000")  # any wrong PIN: the very same words
            phone.tap("[data-action=pin]")
            phone.wait_for_selector("#error")
            assert phone.locator("#error").inner_text() == said
            sign_in_at_table(phone, url, 1, pins[1])  # its own PIN opens it
        finally:
            browser.close()
