"""A whole club night in a real headless Chromium (the browser tier, issue 20): `serve --tournament` started
as the organizer starts it; the hall screen open at 1920 x 1080, four table phones and the organizer's page.
A progressive night of three rounds for 16 players: results by the final score and by a game kept hand by
hand (reported by itself once won), one mistake corrected by the organizer, each next round seated from
the organizer's page; the hall screen checked after each step without a reload, the phones following each
round by themselves. Also: the hall screen fits one 1080p screen for 12 to 40 players, its type large
enough to read across a room. Screenshots are kept in test-artifacts/night/ (or $PITCHKEEPER_ARTIFACTS).
"""

from __future__ import annotations

import contextlib
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from browsing import FLAGS, PHONE, Watch, artefacts, chromium, launched, playwright
from processes import start_serve, stop_serve, table_pins

from pitchkeeper.tournament import book

pytestmark = pytest.mark.browser

ORGANIZER = "5792468013"
PLAYERS = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ian", "Jo", "Kim", "Lou", "Max", "Ned", "Olga",
           "Pat"]
TV = {"viewport": {"width": 1920, "height": 1080}}


@contextlib.contextmanager
def night_process(path: Path, home: Path) -> Iterator[tuple[str, dict[int, str]]]:
    """`pitchkeeper serve --tournament FILE` in its own process on a free port: (its address, the tables'
    PINs as it printed them); Ctrl-C afterwards."""
    env = {**os.environ, "PITCHKEEPER_HOME": str(home), "PYTHONUNBUFFERED": "1"}
    p, text = start_serve(["--tournament", str(path), "--port", "0", "--pin", ORGANIZER], env)
    url = re.search(r"hall screen (http://127\.0\.0\.1:\d+)/", text)
    pins = table_pins(text)
    assert url and pins, text + (p.stderr.read() if p.stderr else "")
    try:
        yield url.group(1), pins
    finally:
        stop_serve(p)


class Hall:
    """The hall screen, read as a person across the room reads it."""

    def __init__(self, page: Any) -> None:
        self.page = page

    def wait(self, selector: str) -> None:
        self.page.wait_for_selector(selector, timeout=5000)

    def state(self, table: int) -> str:
        return str(self.page.locator(f'.tbl[data-table="{table}"]').get_attribute("data-state"))

    def line(self, table: int) -> str:
        return str(self.page.locator(f'.tbl[data-table="{table}"]').inner_text())

    def standings(self) -> list[tuple[int, str, int]]:
        rows = self.page.locator(".standings-page:not([hidden]) tbody tr")
        out = []
        for i in range(rows.count()):
            cells = rows.nth(i).locator("td").all_inner_texts()
            out.append((int(cells[0]), cells[1], int(cells[2].replace("−", "-"))))
        return out

    def not_reloaded(self) -> bool:
        return bool(self.page.evaluate("() => window.sameDocument === true"))


def api(url: str) -> dict[str, Any]:
    return httpx.get(url + "/api/tournament").json()


def expected_standings(url: str) -> list[tuple[int, str, int]]:
    return [(r["rank"], r["name"], r["points"]) for r in api(url)["standings"]["players"]]


def sign_in_at_table(phone: Any, url: str, table: int, pin: str) -> None:
    phone.goto(f"{url}/table/{table}")
    phone.fill("#pin", pin)
    phone.tap("[data-action=pin]")
    phone.wait_for_selector("#hand-form")
    phone.wait_for_selector("#live.on")


def report(phone: Any, winner: int, scores: tuple[int, int]) -> None:
    """Tap the winner, type the scores, check, then report."""
    phone.tap(f'label[data-q="winner"][data-v="{winner}"]')
    phone.fill('input[name="s0"]', str(scores[0]))
    phone.fill('input[name="s1"]', str(scores[1]))
    phone.tap("[data-action=check]")
    phone.wait_for_selector("#preview [data-action=report]")
    phone.tap("[data-action=report]")
    phone.wait_for_selector("#reported")


def keep_hand_by_hand(phone: Any, hall: Hall, table: int, shots: Path) -> int:
    """The table keeps its game on the phone, hand by hand (the bidder's side takes every point), until it
    is won: the hall shows the score as it stands, then the result, reported by itself. Returns the hands."""
    phone.tap("[data-action=keep]")
    phone.wait_for_selector("#hand-form")
    assert phone.url.endswith(f"/table/{table}/game/enter")
    for n in range(1, 10):
        bidder = phone.locator('label[data-q="bidder"]').first.get_attribute("data-v")
        phone.tap(f'label[data-q="bidder"][data-v="{bidder}"]')
        phone.locator('label[data-q="amount"]').last.tap()
        phone.tap('label[data-q="trump"][data-v="S"]')
        for q in phone.locator("fieldset.point").all():
            q.locator("label.pill:not(.none)").first.tap()  # the first choice: the bidder's side, or North
        phone.tap("[data-action=check]")
        phone.wait_for_selector("#preview [data-action=save]")
        if n == 1:
            phone.screenshot(path=str(shots / f"table-{table}-hand-by-hand.png"), full_page=True)
        phone.tap("[data-action=save]")
        phone.wait_for_selector(f"#flash:has-text('Hand {n} saved.')")
        if phone.locator("#night-reported").count():  # won: back to the table's page, which shows it reported
            phone.tap("[data-action=table-page]")
            phone.wait_for_selector("#reported")
            return n
        hall.wait(f'.tbl[data-table="{table}"][data-state="keeping"] small:text-is("hand {n}")')
    raise AssertionError("the game was not won in nine hands")


@pytest.fixture
def night(tmp_path: Path, _home: Path) -> Iterator[tuple[str, dict[int, str], Path]]:
    path = tmp_path / "legion.toml"
    book.create(path, "trickster-4", "progressive", PLAYERS, rounds=3, title="Legion hall, Friday")
    with night_process(path, _home) as (url, pins):
        yield url, pins, path


def test_a_whole_progressive_night_on_a_hall_screen_four_phones_and_the_organizers(
        night: tuple[str, dict[int, str], Path]) -> None:
    url, pins, path = night
    shots = artefacts("night")
    with launched() as browser:
        tv = browser.new_context(**TV).new_page()
        org = browser.new_context(**PHONE).new_page()
        phones = {t: browser.new_context(**PHONE).new_page() for t in (1, 2, 3, 4)}
        watches = [Watch(p) for p in (tv, org, *phones.values())]
        tv.goto(url + "/")
        tv.wait_for_selector("#live.on")
        tv.evaluate("() => { window.sameDocument = true; }")  # a reload would wipe it out
        hall = Hall(tv)
        assert "Round 1 is about to be seated" in tv.locator("#hall-round").inner_text()

        # the organizer signs in and seats round 1 from the page
        org.goto(url + "/organizer")
        org.fill("#pin", ORGANIZER)
        org.tap("[data-action=pin]")
        org.wait_for_selector("[data-action=seat]:not([disabled])")
        org.tap("[data-action=seat]")
        org.wait_for_selector("#flash:has-text('Round 1 is seated')")
        hall.wait('#hall[data-round="1"][data-phase="seated"]')
        assert tv.locator(".seating h2").inner_text().startswith("Round 1: find your table")
        assert [hall.state(t) for t in (1, 2, 3, 4)] == ["playing"] * 4
        tv.screenshot(path=str(shots / "hall-1-seated.png"))
        for t, phone in phones.items():
            sign_in_at_table(phone, url, t, pins[t])
        assert phones[1].locator(".seats").inner_text().split() == ["NORTH", "Ann", "EAST", "Bob", "SOUTH", "Cy",
                                                                    "WEST", "Dee"]

        # round 1. Table 1 by the final score: Ann & Cy 11, Bob & Dee 7
        report(phones[1], 0, (11, 7))
        hall.wait('.tbl[data-table="1"][data-state="reported"]')
        assert "11 – 7" in hall.line(1) and hall.standings()[:2] == [(1, "Ann", 11), (1, "Cy", 11)]
        phones[1].screenshot(path=str(shots / "table-1-reported.png"), full_page=True)
        # table 2 keeps its game hand by hand: the hall follows it, and its result reports itself
        hands = keep_hand_by_hand(phones[2], hall, 2, shots)
        hall.wait('.tbl[data-table="2"][data-state="reported"]')
        game = api(url)["results"][1]
        assert game["table"] == 2 and hands >= 2 and game["scores"][game["winner"]] >= 11
        assert hall.standings() == expected_standings(url)
        tv.screenshot(path=str(shots / "hall-2-table-2-kept-hand-by-hand.png"))
        # table 3 reports a mistake (the scores the wrong way round); table 4: a tie at 11, the winner named
        # (trickster-4's pitching team wins a tie; a winner short of 11 would be refused)
        report(phones[3], 0, (11, 4))
        report(phones[4], 1, (11, 11))
        hall.wait('#hall[data-phase="complete"]')
        assert "11 – 11" in hall.line(4) and "won" not in hall.line(4)
        # the organizer corrects table 3: it was 4-11
        org.wait_for_selector('#opart li[data-table="3"][data-state="reported"]')
        org.tap("[data-action=correct-3]")
        org.wait_for_selector("#result-form")
        org.fill('input[name="s0"]', "4")
        org.fill('input[name="s1"]', "11")
        org.tap('label[data-q="winner"][data-v="1"]')
        org.tap("[data-action=save-result]")
        org.wait_for_selector("#flash:has-text('Round 1, table 3: corrected.')")
        hall.wait('.tbl[data-table="3"] small:has-text("corrected")')
        assert "4 – 11" in hall.line(3) and hall.standings() == expected_standings(url)
        tv.screenshot(path=str(shots / "hall-3-round-1-corrected.png"))
        org.screenshot(path=str(shots / "organizer-round-1.png"), full_page=True)

        for rnd in (2, 3):
            # the next round, seated from the organizer's page; the hall and the phones follow it
            org.wait_for_selector("[data-action=seat]:not([disabled])")
            org.tap("[data-action=seat]")
            org.wait_for_selector(f"#flash:has-text('Round {rnd} is seated')")
            hall.wait(f'#hall[data-round="{rnd}"][data-phase="seated"]')
            seat = api(url)["seat"]
            for t, phone in phones.items():
                phone.wait_for_selector(f'#page[data-match="r{rnd}"] #hand-form', timeout=5000)
                names = [n for n in phone.locator(".seats b").all_inner_texts()]
                a, c = seat["tables"][t - 1]["sides"][0]
                b, d = seat["tables"][t - 1]["sides"][1]
                assert names == [a, b, c, d]  # who sits where this round, partners across
                assert a in hall.line(t) and c in hall.line(t)
            tv.screenshot(path=str(shots / f"hall-{2 * rnd}-round-{rnd}-seated.png"))
            for t, phone in phones.items():
                if rnd == 3 and t == 4:
                    keep_hand_by_hand(phone, hall, 4, shots)
                else:
                    report(phone, t % 2, (11, 3 + t) if t % 2 == 0 else (5 + t, 11))
                hall.wait(f'.tbl[data-table="{t}"][data-state="reported"]')
                assert hall.standings() == expected_standings(url)
                assert tv.locator("#hall-count").count() == 0 or \
                    tv.locator("#hall-count").inner_text() == str(len(api(url)["reported"]))
            tv.screenshot(path=str(shots / f"hall-{2 * rnd + 1}-round-{rnd}-reported.png"))

        # the night is over: the final standings, as the library ranks them
        hall.wait('#hall[data-phase="final"]')
        assert "Final standings" in tv.locator("#hall-round").inner_text()
        assert hall.standings() == expected_standings(url)
        assert tv.locator('.standings-page:not([hidden]) tr[data-rank="1"]').count() >= 1
        tv.screenshot(path=str(shots / "hall-8-final.png"))
        org.screenshot(path=str(shots / "organizer-final.png"), full_page=True)
        assert hall.not_reloaded()  # every step above reached the hall without a reload
        assert tv.evaluate("() => document.documentElement.scrollHeight") <= 1080
        for w in watches:
            assert w.errors == [] and w.foreign() == []
    text = path.read_text(encoding="utf-8")
    assert text.count("correction = true") == 1 and len(book.load(path).final) == 12
    assert (path.parent / "legion-tables" / "round-1" / "table-2.toml").exists()


@pytest.mark.parametrize("count", [12, 24, 40])
def test_the_hall_screen_reads_across_a_room_for_12_to_40_players(tmp_path: Path, _home: Path, count: int) -> None:
    path = tmp_path / "night.toml"
    names = [f"{p}{'' if i < 16 else i}" for i, p in enumerate((PLAYERS * 3)[:count])]
    names[5] = "Rosalind Featherstonehaugh-Cholmondeley"  # a long name: cut, never a scroll
    book.create(path, "trickster-4", "progressive", names, rounds=3)
    book.seat(path)
    with night_process(path, _home) as (url, _pins), playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium(), args=FLAGS)
        try:
            tv = browser.new_context(**TV).new_page()
            tv.goto(url + "/")
            tv.wait_for_selector("#live.on")
            tv.screenshot(path=str(artefacts("night") / f"hall-{count}-players.png"))
            size = tv.evaluate("() => [document.documentElement.scrollWidth, document.documentElement.scrollHeight]")
            assert size == [1920, 1080]  # one screen: no scroll either way
            tables = tv.locator(".tbl")
            assert tables.count() == count // 4
            for i in range(tables.count()):  # every table on the screen, its number large
                box = tables.nth(i).bounding_box()
                assert box is not None and box["y"] + box["height"] <= 1080
                number = tables.nth(i).locator(".tno").bounding_box()
                assert number is not None and number["height"] >= 0.045 * 1080
            rows = tv.locator(".standings-page tbody tr")
            assert rows.count() == count  # every player on one page
            for i in range(rows.count()):
                box = rows.nth(i).bounding_box()
                assert box is not None and box["y"] + box["height"] <= 1080 and box["x"] + box["width"] <= 1920
            font = tv.evaluate("() => parseFloat(getComputedStyle(document.querySelector('.hall-standings td.nm'))"
                               ".fontSize)")
            assert font >= 0.024 * 1080  # a line of the standings: at least 2.4% of the screen's height
        finally:
            browser.close()
