"""`pitchkeeper serve` in a real headless Chromium (the browser tier): a whole game tapped in on a
phone-sized page, one mistake corrected, while a scoreboard page shows each hand without a reload;
no console error, no request leaves 127.0.0.1. Screenshots of both pages are kept as artefacts in
test-artifacts/serve/ (or $PITCHKEEPER_ARTIFACTS).

Needs Playwright for Python (`pip install -e ".[browser]"`) and the system's Chromium
(`apt-get install chromium`, or $PITCHKEEPER_CHROMIUM): a run without them FAILS saying what to install.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browsing import Watch, artefacts, launched
from serving import new_log, serve_process

import pitchkeeper

pytestmark = pytest.mark.browser

PIN = "8642"
TEAMS = {"Us": ["Ann", "Cy"], "Them": ["Bob", "Dee"]}


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    log = new_log(tmp_path / "friday.toml", {"rules": "seven-point", "players": ["Ann", "Bob", "Cy", "Dee"],
                                             "teams": TEAMS, "target": 11})
    with serve_process(log, tmp_path / "home", PIN) as url:
        yield url, log


# a whole game to 11, as the table would tap it: (bidder, amount, trump, answers)
GAME = [
    ("Bob", "2", "S", {"high": "Us", "low": "Dee", "jack": "Them", "off-jack": "-", "high-joker": "Them",
                       "low-joker": "-", "game": "Them"}),
    ("Cy", "3", "D", {"high": "Us", "low": "Ann", "jack": "Us", "off-jack": "-", "high-joker": "-",
                      "low-joker": "Them", "game": "Them"}),  # the mistake: game was Us's (corrected below)
    ("Ann", "4", "C", {"high": "Us", "low": "Cy", "jack": "Us", "off-jack": "Us", "high-joker": "-",
                       "low-joker": "-", "game": "Us"}),
    ("Dee", "2", "H", {"high": "Us", "low": "Ann", "jack": "Them", "off-jack": "-", "high-joker": "-",
                       "low-joker": "-", "game": "Us"}),
]


def tap_hand(phone: Any, bidder: str, amount: str, trump: str, answers: dict[str, str]) -> None:
    phone.tap(f'label[data-q="bidder"][data-v="{bidder}"]')
    phone.tap(f'label[data-q="amount"][data-v="{amount}"]')
    phone.tap(f'label[data-q="trump"][data-v="{trump}"]')
    for point, who in answers.items():
        phone.tap(f'label[data-q="p.{point}"][data-v="{who}"]')


def test_a_whole_game_tapped_on_a_phone_shows_on_the_scoreboard_live(server: tuple[str, Path]) -> None:
    url, log = server
    shots = artefacts("serve")
    with launched() as browser:
        tv = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
        tv_watch = Watch(tv)
        tv.goto(url + "/")
        tv.wait_for_selector("#live.on")  # the event stream is open
        phone = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True,
                                    device_scale_factor=2).new_page()
        phone_watch = Watch(phone)
        phone.goto(url + "/enter")
        phone.screenshot(path=str(shots / "phone-pin.png"))
        phone.fill("#pin", "0000")  # a mistake: the wrong PIN is a message on the page, no failed load
        phone.tap("button[type=submit]")
        phone.wait_for_selector("text=Wrong PIN")
        phone.fill("#pin", PIN)
        phone.tap("button[type=submit]")
        phone.wait_for_selector("#hand-form")
        assert phone.locator('fieldset[data-point="low"] legend').inner_text() == "Who was dealt low?"

        for n, (bidder, amount, trump, answers) in enumerate(GAME, 1):
            if n == 1:  # a mistake: two points left unanswered are named, the taps are kept
                tap_hand(phone, bidder, amount, trump, {k: v for k, v in answers.items()
                                                        if k not in ("jack", "game")})
                phone.tap("[data-action=check]")
                phone.wait_for_selector("#error")
                assert phone.locator("#error").inner_text().startswith("Who took jack? No answer yet")
                assert phone.locator("#q-p-jack.has-error #error").count() == 1  # beside its question
                answers = {"jack": answers["jack"], "game": answers["game"]}
                tap_hand(phone, bidder, amount, trump, answers)
                answers = GAME[0][3]
            else:
                tap_hand(phone, bidder, amount, trump, answers)
            if n == 1:
                phone.screenshot(path=str(shots / "phone-entry.png"), full_page=True)
            phone.tap("[data-action=check]")
            phone.wait_for_selector("#preview")
            assert f"Hand {n}: {bidder} bid {amount}" in phone.locator("#preview h3").inner_text()
            if n == 1:
                phone.locator("#verdict").screenshot(path=str(shots / "phone-verdict.png"))
            if n == 3:  # an answer changed after the verdict: no Save until it is checked again
                phone.tap('label[data-q="p.game"][data-v="Them"]')
                assert phone.locator("#preview.stale").count() == 1
                assert not phone.locator("[data-action=save]").is_visible()
                phone.tap('label[data-q="p.game"][data-v="Us"]')
                phone.tap("[data-action=check]")
                phone.wait_for_selector("#preview:not(.stale) [data-action=save]")
            assert len(pitchkeeper.Logbook.open(log).state()["hands"]) == n - 1  # shown, not yet saved
            phone.tap("[data-action=save]")
            phone.wait_for_selector(f"text=Hand {n} saved.")
            tv.wait_for_selector(f'#board[data-hands="{n}"]')  # on the scoreboard, no reload
            scores = pitchkeeper.Logbook.open(log).state()["scores"]
            shown = tv.locator("[data-score]").evaluate_all("els => els.map(e => Number(e.dataset.score))")
            assert shown == list(scores.values())
            if n == 2:  # the mistake: game was Us's. Correct hand 2 from the list.
                phone.tap("[data-action=correct-2]")
                phone.wait_for_selector("text=Correct hand 2")
                assert phone.locator('label[data-q="p.game"][data-v="Them"] input').is_checked()
                phone.tap('label[data-q="p.game"][data-v="Us"]')
                phone.tap("[data-action=check]")
                phone.wait_for_selector("text=Hand 2, corrected")
                phone.tap("[data-action=save]")
                phone.wait_for_selector("text=Hand 2 saved.")
                fixed = pitchkeeper.Logbook.open(log).state()
                tv.wait_for_selector(f'[data-side="Us"] [data-score="{fixed["scores"]["Us"]}"]')

        state = pitchkeeper.Logbook.open(log).state()
        assert state == pitchkeeper.judge_match(log)
        assert state["winner"] == "Us" and state["won_on_hand"] == 4
        assert {"point": "game", "side": "Us"}.items() <= next(
            a for a in state["hands"][1]["awards"] if a["point"] == "game").items()  # the correction held
        tv.wait_for_selector(".side.won[data-side='Us']")
        assert "Us won on hand 4" in tv.locator(".winner-line").inner_text()
        phone.wait_for_selector("text=Us won")
        phone.screenshot(path=str(shots / "phone-won.png"), full_page=True)
        tv.wait_for_selector("#board:not(.flash)")  # the new hand's highlight has faded
        tv.screenshot(path=str(shots / "scoreboard-tv.png"))
        tablet = browser.new_context(viewport={"width": 800, "height": 1280}).new_page()
        tablet_watch = Watch(tablet)
        tablet.goto(url + "/")
        tablet.wait_for_selector("#live.on")
        tablet.screenshot(path=str(shots / "scoreboard-tablet.png"))

        assert tv_watch.navigations == 1  # every hand arrived without a reload
        for w in (tv_watch, phone_watch, tablet_watch):
            assert w.errors == []  # console messages of type error (a 4xx page is one) and page errors
            assert w.foreign() == []
        assert all(p.stat().st_size > 10_000 for p in shots.glob("*.png"))


def test_an_edit_of_the_log_that_keeps_its_size_and_time_shows_on_an_open_scoreboard(server: tuple[str, Path]) -> None:
    """Someone fixes a hand in an editor, keeping the file's size, and its time is put back: the TV
    shows the score the file now gives, at once and without a reload (issue 18)."""
    url, log = server
    pitchkeeper.Logbook.open(log).append({"trump": "S", "bid": {"player": "Ann", "amount": 2},
                                          "points": {"high": "Us", "low": "Us", "jack": "Them", "game": "Them"}})
    with launched() as browser:
        tv = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
        watch = Watch(tv)
        tv.goto(url + "/")
        tv.wait_for_selector("#live.on")
        tv.wait_for_selector('[data-side="Us"] [data-score="2"]')
        st, data = log.stat(), log.read_bytes()
        with open(log, "r+b") as f:  # Us took the jack too: 3 to 1, in as many bytes
            f.write(data.replace(b'jack = "Them"', b'jack = "Us"  '))
        os.utime(log, ns=(st.st_atime_ns, st.st_mtime_ns))
        assert (log.stat().st_size, log.stat().st_mtime_ns) == (st.st_size, st.st_mtime_ns)
        assert pitchkeeper.judge_match(log)["scores"] == {"Us": 3, "Them": 1}
        tv.wait_for_selector('[data-side="Us"] [data-score="3"]', timeout=5000)
        tv.wait_for_selector('[data-side="Them"] [data-score="1"]', timeout=5000)
        assert watch.navigations == 1 and watch.errors == []
