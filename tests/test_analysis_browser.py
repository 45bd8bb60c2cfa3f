"""The analysis with every card known at the table, in a real headless Chromium at a phone's 390 px (the
browser tier, issue 21 item 6): a hand entered trick by trick shows par and its costliest card before
Save, then in the hand list and on the TV; /odds takes six tapped cards and answers "should I have bid
3?". No console error, no request leaves 127.0.0.1, nothing wider than the phone. Screenshots are kept
in test-artifacts/odds/ (or $PITCHKEEPER_ARTIFACTS/odds/).

Needs Playwright for Python (`pip install -e ".[browser]"`) and the system's Chromium
(`apt-get install chromium`, or $PITCHKEEPER_CHROMIUM): a run without them FAILS saying what to install.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browsing import FLAGS, Watch, artefacts, chromium, launched, playwright, sign_in
from serving import PIN as API_PIN
from serving import Server, new_log, serve_process, seven_hands

import pitchkeeper
from pitchkeeper.web import analysed, odds
from pitchkeeper.web.app import create_app
from pitchkeeper.words.analysis import bid_answers, verdict_line

pytestmark = pytest.mark.browser

PIN = "8642"
PLAYERS = ["Ann", "Bob", "Cy", "Dee"]
TEAMS = {"Us": ["Ann", "Cy"], "Them": ["Bob", "Dee"]}
DATA = Path(__file__).parent / "data" / "play"
OFFJACK = tomllib.loads((DATA / "seven-point-offjack.toml").read_text())
HELD = ["AS", "KS", "5S", "2H", "9D", "JC"]


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    log = new_log(tmp_path / "friday.toml", {"rules": "seven-point", "players": PLAYERS, "teams": TEAMS,
                                             "first_dealer": "Cy"})
    with serve_process(log, tmp_path / "home", PIN) as url:
        yield url, log


def phone_of(browser: Any) -> Any:
    return browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True,
                               device_scale_factor=2).new_page()


def fits(page: Any) -> bool:
    """Nothing on the page is wider than the screen (no sideways scrolling on a phone)."""
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_a_hand_entered_trick_by_trick_shows_par_before_save_and_odds_answer_six_tapped_cards(
        server: tuple[str, Path]) -> None:
    url, log = server
    shots = artefacts("odds")
    line = verdict_line(pitchkeeper.analyse_hand(DATA / "seven-point-offjack.toml"))
    with launched() as browser:
        tv = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
        tv_watch = Watch(tv)
        tv.goto(url + "/")
        tv.wait_for_selector("#live.on")
        phone = phone_of(browser)
        watch = Watch(phone)
        sign_in(phone, url, PIN)

        # the hand, trick by trick: each trick's cards in playing order, nobody saying who led
        phone.tap('label[data-q="bidder"][data-v="Ann"]')
        phone.tap('label[data-q="amount"][data-v="3"]')
        phone.tap('label[data-q="trump"][data-v="S"]')
        assert not phone.locator('input[name="t.1"]').is_visible()  # shown once the mode is chosen
        phone.tap('label[data-q="mode"][data-v="tricks"]')
        assert not phone.locator('fieldset[data-point="high"]').is_visible()
        tricks = [" ".join(t["cards"]).lower() for t in OFFJACK["tricks"]]  # typed as a thumb types
        tricks[5] = "5D KS JC AS"  # a mistake: the ace of spades went in trick 1
        for k, cards in enumerate(tricks, 1):
            phone.fill(f'input[name="t.{k}"]', cards)
        phone.tap("[data-action=check]")
        phone.wait_for_selector("#error")
        assert phone.locator("#q-t-6.has-error #error").inner_text() == "Trick 6: AS was already played in trick 1"
        assert phone.locator('input[name="t.1"]').input_value() == tricks[0]  # the other tricks are kept
        phone.locator("#q-tricks").screenshot(path=str(shots / "phone-trick-mistake.png"))
        phone.fill('input[name="t.6"]', "5d ks jc 7d")
        phone.tap("[data-action=check]")
        phone.wait_for_selector("#preview #par")
        assert phone.locator("#par").inner_text() == line
        assert "the costliest card: trick " in line
        assert pitchkeeper.Logbook.open(log).state()["hands"] == []  # shown before Save, nothing written
        assert fits(phone)
        phone.locator("#verdict").screenshot(path=str(shots / "phone-verdict-par.png"))
        phone.tap("[data-action=save]")
        phone.wait_for_selector("text=Hand 1 saved.")
        assert phone.locator('#hands li[data-hand="1"] .par').inner_text() == line
        assert tomllib.loads(log.read_text())["hands"][0]["tricks"] == OFFJACK["tricks"]  # leaders worked out
        phone.screenshot(path=str(shots / "phone-hand-list.png"), full_page=True)
        tv.wait_for_selector('#board[data-hands="1"] #last-par')
        assert tv.locator("#last-par").inner_text() == line
        tv.wait_for_selector("#board:not(.flash)")
        tv.screenshot(path=str(shots / "tv-last-hand-par.png"))
        # the TV still fits one 1080p screen, the line as readable from 3 m as the chart's labels (2%)
        assert tv.evaluate("document.scrollingElement.scrollHeight") <= 1080
        assert tv.locator("#last-par").evaluate("e => parseFloat(getComputedStyle(e).fontSize)") >= 0.02 * 1080

        # after the hand: should I have bid 3?
        phone.goto(url + "/odds")
        assert phone.locator("#layouts").inner_text() == f"{odds.samples(4)} layouts"
        for card in HELD:
            phone.tap(f'label[data-card="{card}"]')
        assert phone.locator("#count").inner_text() == "6 of 6"
        phone.tap('label[data-card="QC"]')  # a seventh: refused at once
        assert phone.locator('input[name="card"]:checked').count() == 6
        assert "untap one first" in phone.locator("#count").inner_text()
        phone.screenshot(path=str(shots / "odds-tapped.png"), full_page=True)
        phone.tap("[data-action=odds]")
        phone.wait_for_selector("#answer .trump-odds")
        o = pitchkeeper.bid_odds(HELD, "seven-point", players=4, samples=odds.samples(4), seed=odds.SEED)
        for t in o["trumps"]:
            made = phone.locator(f'.trump-odds[data-trump="{t["trump"]}"] td[data-col="made"]').all_inner_texts()
            assert made == [f"{round(100 * x)}%" for x in t["make"].values()]
            best = phone.locator(f'.trump-odds[data-trump="{t["trump"]}"] .best-bid').inner_text()
            assert best == str(t["best_bid"])
        phone.tap('button[data-ask="3"]')
        phone.wait_for_selector("#asked")
        assert phone.locator("#asked li").all_inner_texts() == bid_answers(o, "3")
        assert fits(phone)
        phone.screenshot(path=str(shots / "odds-answer.png"), full_page=True)
        # big enough for a thumb: every card and bid at least 44 px each way
        sizes = phone.locator(".card-pill span, button.pill.bid span").evaluate_all(
            "els => els.map(e => [e.getBoundingClientRect().width, e.getBoundingClientRect().height])")
        assert min(min(w, h) for w, h in sizes) >= 44, min(sizes)

        for w in (watch, tv_watch):
            assert w.errors == [] and w.foreign() == []
        assert all(p.stat().st_size > 5_000 for p in shots.glob("*.png"))


def test_a_tv_showing_a_hand_still_being_analysed_shows_its_answer_once_done(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The TV's last hand is not worked out by the time the board is drawn: it says so, and the page fetches
    the board again until the answer is there (here: too long, past a budget of one second)."""
    log = seven_hands(tmp_path / "seven.toml")
    monkeypatch.setattr(analysed, "GRACE", 0.0)  # a page waits for its jobs their budget and no more
    app = create_app(log, API_PIN)
    app.state.site.analyst.budget = 1.0  # the worker starts first, then searches for 1 s: the page is drawn before
    shots = artefacts("odds")
    with Server(app) as server, playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium(), args=FLAGS)
        try:
            tv = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
            watch = Watch(tv)
            tv.goto(server.url + "/")
            assert tv.locator("#last-par").get_attribute("data-analysing") == "1"
            assert tv.locator("#last-par").inner_text() == "With every card known: still being analysed (shown here once done)."
            tv.wait_for_selector("#last-par:not([data-analysing])", timeout=15_000)
            assert "not analysed (too long" in tv.locator("#last-par").inner_text()
            tv.screenshot(path=str(shots / "tv-too-long.png"))
            assert watch.navigations == 1 and watch.errors == [] and watch.foreign() == []
        finally:
            browser.close()
