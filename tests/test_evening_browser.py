"""A whole evening at the table in a real headless Chromium (the browser tier, issue 19): `serve` with no
--match, a TV and two phones open; four games of three rulesets - the auction tapped, two phones entering
the same hand (the slower asked, the hand never saved twice), "Next game" on a phone, a game started
from the CLI, new players and ruleset from a phone, a sale in auction-pitch, a game tied 13-13 - the TV
and both phones following every game without a reload. Screenshots are kept in test-artifacts/evening/
(or $PITCHKEEPER_ARTIFACTS/evening). Also: the HTML export and the tournament standings at 390 px (no
page wider than the screen), and the TV chart's labels at least 2% of a 1080p screen's height.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browsing import PHONE, Watch, artefacts, check_and_save, launched, sign_in
from serving import serve_process
from typer.testing import CliRunner

import pitchkeeper
from pitchkeeper.cli import app
from pitchkeeper.logbook import shelf

pytestmark = pytest.mark.browser

PIN = "97531"
PLAYERS = ["Ann", "Bob", "Cy", "Dee"]


class Table:
    """The data folder of the evening: its current match, read as the server reads it."""

    def __init__(self, home: Path) -> None:
        self.home = home

    def current(self) -> Path:
        return Path((self.home / "current").read_text().strip())

    def hands(self) -> list[dict[str, Any]]:
        return tomllib.loads(self.current().read_text()).get("hands", [])

    def cli(self, *args: str) -> str:
        env = {**os.environ, "PITCHKEEPER_HOME": str(self.home)}
        p = subprocess.run([sys.executable, "-m", "pitchkeeper", *args], capture_output=True, text=True, env=env)
        assert p.returncode == 0, p.stderr
        return p.stdout


@pytest.fixture
def evening(tmp_path: Path, _home: Path) -> Iterator[tuple[str, Table]]:
    shelf.start("seven-point", PLAYERS, target=4)  # the first game: the table's current match
    with serve_process(None, _home, PIN) as url:
        yield url, Table(_home)


def tap(page: Any, **answers: str) -> None:
    """Taps on the form: bidder, amount, trump, and p_<point> for the points (p_off_jack: off-jack)."""
    for key, value in answers.items():
        q = f"p.{key[2:].replace('_', '-')}" if key.startswith("p_") else key
        page.tap(f'label[data-q="{q}"][data-v="{value}"]')


def auction(page: Any, *calls: str) -> None:
    """The auction by taps, a call a tap, each swapped in by the page's script."""
    for i, call in enumerate(calls, 1):
        page.tap(f'#auction button[data-call="{call}"]')
        page.wait_for_selector(f"#auction .calls li:nth-child({i})")


SEVEN_NONE = {"p_off_jack": "-", "p_high_joker": "-", "p_low_joker": "-"}


def test_a_whole_evening_on_a_tv_and_two_phones(evening: tuple[str, Table]) -> None:
    url, table = evening
    shots = artefacts("evening")
    with launched() as browser:
        tv = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
        a = browser.new_context(**PHONE).new_page()
        b = browser.new_context(**PHONE).new_page()
        watches = {name: Watch(p) for name, p in (("tv", tv), ("a", a), ("b", b))}
        tv.goto(url + "/")
        tv.wait_for_selector("#live.on")
        for phone in (a, b):
            sign_in(phone, url, PIN)
            phone.wait_for_selector("#live.on")

        # -- game 1, seven-point to 4. Hand 1 (Ann deals): the auction tapped on phone A; game tied
        assert a.locator("#auction-turn").inner_text().startswith("Bob speaks first")
        auction(a, "pass", "3", "pass", "pass")
        assert "Cy wins the bid at 3" in a.locator("#auction-outcome").inner_text()
        assert a.locator('label[data-q="bidder"][data-v="Cy"] input').is_checked()
        assert a.locator('label[data-q="amount"][data-v="3"] input').is_checked()
        a.screenshot(path=str(shots / "phone-auction.png"), full_page=True)
        tap(a, trump="H", p_high="Us", p_low="Cy", p_jack="Us", p_game="tie", **SEVEN_NONE)
        check_and_save(a, 1)
        assert table.hands()[0]["auction"] == ["Bob:pass", "Cy:3", "Dee:pass", "Ann:pass"]
        tv.wait_for_selector('#board[data-hands="1"]')
        assert "game: tie, not scored" in tv.locator(".verdict").inner_text()  # a tie is said, not left out
        assert "game: tie, not scored" in a.locator(".hand-list").inner_text()  # and in the phone's list

        # hand 2 (Bob deals) on phone B, whose untouched form moved on to hand 2 by itself; on phone A,
        # untouched since it saved hand 1, "Hand 1 saved." goes once the match moves on
        b.wait_for_selector("h2.form-title:has-text('Hand 2')")
        tap(b, bidder="Dee", amount="2", trump="C", p_high="Them", p_low="Dee", p_jack="Them", p_game="tie",
            **SEVEN_NONE)
        check_and_save(b, 2)
        a.wait_for_selector("#flash", state="detached")  # no stale flash
        a.wait_for_selector("h2.form-title:has-text('Hand 3')")

        # hand 3 (Cy deals), entered on both phones at once; B is quicker, and its hand wins the game.
        # A, slower, is shown what was saved beside what it entered: it can only discard its own.
        tap(a, bidder="Ann", amount="2", trump="D")
        tap(b, bidder="Ann", amount="2", trump="D", p_high="Us", p_low="Ann", p_jack="-", p_game="Us", **SEVEN_NONE)
        check_and_save(b, 3)
        a.wait_for_selector("#changed:not([hidden])")  # a form being filled in is kept, and says so
        tap(a, p_high="Us", p_low="Ann", p_jack="-", p_game="Us", **SEVEN_NONE)
        a.tap("[data-action=check]")
        a.wait_for_selector("#conflict")
        text = a.locator("#conflict").inner_text()
        assert "Hand 3 was saved on another device" in text and "Ann bid 2 in ♦" in text
        assert a.locator("[data-action=record-next]").count() == 0  # the game is won: nothing to record
        assert "already won" in a.locator("#error").inner_text()
        a.screenshot(path=str(shots / "phone-conflict.png"), full_page=True)
        a.tap("[data-action=discard]")
        assert len(table.hands()) == 3  # never saved twice
        tv.wait_for_selector(".side.won[data-side='Us']")
        tv.screenshot(path=str(shots / "tv-game-1-won.png"))
        first = table.current()

        # the slower of two phones when the game goes on: asked, and may record its own as the next hand
        # (game 3 below); here the next game first
        # -- game 2: "Next game" on phone A; the TV and phone B follow without a reload
        for page in (tv, b):  # a mark that a reload would wipe out
            page.evaluate("() => { window.sameDocument = true; }")
        a.wait_for_selector("[data-action=next-game]")
        assert "Dee deals" in a.locator("[data-action=next-game]").inner_text()
        a.tap("[data-action=next-game]")
        a.wait_for_selector("#hand-form")
        second = table.current()
        assert second != first
        tv.wait_for_selector(f'#board[data-match="{second.stem}"][data-hands="0"]', timeout=5000)
        b.wait_for_selector(f'#page[data-match="{second.stem}"] #hand-form', timeout=5000)
        assert tv.evaluate("() => window.sameDocument") and b.evaluate("() => window.sameDocument")  # no reload
        tap(b, bidder="Ann", amount="2", trump="S", p_high="Us", p_low="Ann", p_jack="-", p_game="Them",
            **SEVEN_NONE)
        check_and_save(b, 1)
        tv.wait_for_selector('#board[data-hands="1"]')

        # -- game 3: started from the CLI, another ruleset: followed as well
        table.cli("new", "trickster-4", *PLAYERS, "--target", "5")
        third = table.current()
        tv.wait_for_selector(f'#board[data-match="{third.stem}"]', timeout=5000)
        assert "trickster-4" in tv.locator(".meta").inner_text()
        for phone in (a, b):
            phone.wait_for_selector(f'#page[data-match="{third.stem}"] #hand-form', timeout=5000)
        # hand 1 by the cards each side took: game tied at 13 each
        tap(a, bidder="Ann", amount="2", trump="S")
        a.tap('label[data-q="mode"][data-v="cards"]')
        a.fill('textarea[name="c.Us"]', "10H KC 9S 2S 3H 4H 5H 6H 7H 8H 9H 2C")
        a.fill('textarea[name="c.Them"]', "10D KD 3D 4D 5D 6D 7D 8D 9D 2D 3C 4C")
        a.fill('input[name="d.Bob"]', "2S")
        check_and_save(a, 1)
        tv.wait_for_selector('#board[data-hands="1"]')
        assert "game: tie (13-13), not scored" in tv.locator(".verdict").inner_text()
        b.wait_for_selector(".hand-list li[data-hand='1']")  # B's list of hands is live too
        assert "game: tie (13-13), not scored" in b.locator(".hand-list").inner_text()
        tv.screenshot(path=str(shots / "tv-tied-game.png"))
        # hand 2 entered on both phones, A quicker; B asked, and records its own as hand 3
        tap(b, bidder="Cy", amount="2", trump="C")
        tap(a, bidder="Bob", amount="2", trump="H", p_high="Them", p_low="Bob", p_jack="Us", p_game="Us")
        check_and_save(a, 2)
        tap(b, p_high="Us", p_low="Ann", p_jack="-", p_game="Them")
        b.tap("[data-action=check]")
        b.wait_for_selector("#conflict")
        assert "Yours, as hand 3" in b.locator("#conflict").inner_text()
        b.tap("[data-action=record-next]")
        b.wait_for_selector("#flash:has-text('Hand 3 saved.')")
        assert [h["bid"]["player"] for h in table.hands()] == ["Ann", "Bob", "Cy"]
        tap(b, bidder="Bob", amount="2", trump="H", p_high="Them", p_low="Bob", p_jack="Them", p_game="Them")
        check_and_save(b, 4)
        tv.wait_for_selector(".side.won[data-side='Them']")

        # -- game 4: new players and ruleset from phone B; auction-pitch's sale tapped as such
        b.wait_for_selector("[data-action=next-game]")
        b.tap("details.more summary")
        b.select_option("select[name=rules]", "auction-pitch")
        b.fill("input[name=players]", "Ann, Bob, Cy, Dee")
        b.tap("[data-action=new-game]")
        b.wait_for_selector("#hand-form")
        fourth = table.current()
        tv.wait_for_selector(f'#board[data-match="{fourth.stem}"]', timeout=5000)
        a.wait_for_selector(f'#page[data-match="{fourth.stem}"] #hand-form', timeout=5000)
        buttons = a.locator("#auction button[data-call]").evaluate_all("els => els.map(e => e.textContent)")
        assert buttons[:2] == ["pass", "pitch a card (4)"]  # eldest: pitch at once, or offer it for sale
        auction(a, "pass", "2", "3", "pass")
        sale = a.locator("#auction .calls-now").inner_text()
        assert "sell to Dee (3)" in sale and "keep it at 3" in sale
        auction(a, "sell")
        assert "Dee wins the bid at 3, bought from Bob" in a.locator("#auction-outcome").inner_text()
        tap(a, trump="S", p_high="Dee", p_low="Dee", p_jack="Cy", p_game="Dee")
        check_and_save(a, 1)
        tv.wait_for_selector('#board[data-hands="1"]')
        assert "bought from Bob" in tv.locator(".now").inner_text()
        assert table.hands()[0]["auction"] == ["Bob:pass", "Cy:2", "Dee:3", "Ann:pass", "Bob:sell"]
        tv.wait_for_selector("#board:not(.flash)")
        tv.screenshot(path=str(shots / "tv-sale.png"))
        a.screenshot(path=str(shots / "phone-evening-end.png"), full_page=True)

        kept = CliRunner().invoke(app, ["matches", "--json"], env={"PITCHKEEPER_HOME": str(table.home)})
        assert [m["rules"] for m in json.loads(kept.stdout)].count("seven-point") == 2
        assert watches["tv"].navigations == 1  # four games, one page load
        for name, w in watches.items():
            assert w.errors == [], (name, w.errors)
            assert w.foreign() == [], (name, w.foreign())
        assert all(p.stat().st_size > 10_000 for p in shots.glob("*.png"))


# ---------------------------------------------------------------------------
# a 390 px phone, and a TV read from 3 m


LONG = ["Maximiliane-Augustine", "Bartholomew-Fitzgerald", "Cy", "Dorothea-Wilhelmina"]


def no_sideways_scroll(page: Any) -> None:
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 390, f"the page is {width} px wide on a 390 px screen"


def test_the_html_export_and_the_standings_fit_a_390_px_phone(tmp_path: Path) -> None:
    log = tmp_path / "long.toml"
    pitchkeeper.Logbook.create(log, "seven-point", LONG, title="Friday night at the lake house")
    book = pitchkeeper.Logbook.open(log)
    for i in range(6):
        book.append({"trump": "SHDC"[i % 4], "bid": {"player": LONG[i % 4], "amount": 2},
                     "points": {"high": "Us", "low": LONG[(i + 1) % 4], "jack": "Them", "game": "Us"}})
    page_html = tmp_path / "match.html"
    r = CliRunner().invoke(app, ["export", "--match", str(log), "--format", "html", "-o", str(page_html)])
    assert r.exit_code == 0, r.stderr
    tour = tmp_path / "club.toml"
    runner = CliRunner()

    def ok(*args: str) -> str:
        r = runner.invoke(app, list(args))
        assert r.exit_code == 0, r.stdout + r.stderr
        return r.stdout

    names = LONG + ["Evangelina-Josephine", "Frederick-Alexander", "Gwendolyn", "Hieronymus-Bosch"]
    ok("tournament", "new", str(tour), "--rules", "partnership-pitch", "--format", "progressive", "--players",
       ",".join(names), "--rounds", "2", "--title", "Thursday club night at the community hall")
    for seat in json.loads(ok("tournament", "seat", str(tour), "--json"))["tables"]:
        score = ",".join(f"{'&'.join(side)}={n}" for side, n in zip(seat["sides"], (21, 17), strict=True))
        ok("tournament", "record", str(tour), "--table", str(seat["table"]), "--score", score)
    standings = tmp_path / "standings.html"
    r = runner.invoke(app, ["tournament", "standings", str(tour), "--format", "html", "-o", str(standings)])
    assert r.exit_code == 0, r.stdout + r.stderr
    shots = artefacts("evening")
    with launched() as browser:
        phone = browser.new_context(**PHONE).new_page()
        for name, path in (("export", page_html), ("standings", standings)):
            phone.goto(path.as_uri())
            no_sideways_scroll(phone)
            phone.screenshot(path=str(shots / f"390-{name}.png"), full_page=True)
        phone.goto(page_html.as_uri())
        first = phone.locator("#hands tr.hand-row").first  # each hand a card of labelled lines
        assert first.locator("td[data-label=dealer]").inner_text().startswith(LONG[0])


def test_the_tv_charts_labels_read_from_3_m(evening: tuple[str, Table]) -> None:
    url, table = evening
    book = pitchkeeper.Logbook.open(table.current())
    book.append({"trump": "S", "bid": {"player": "Ann", "amount": 2}, "points": {"high": "Us", "low": "Ann",
                                                                                 "game": "Them"}})
    with launched() as browser:
        tv = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
        tv.goto(url + "/")
        sizes = tv.locator(".chart text, .chart figcaption .key").evaluate_all(
            """els => els.map(e => {
                 const px = parseFloat(getComputedStyle(e).fontSize);
                 const m = e.getScreenCTM ? e.getScreenCTM() : null;
                 return px * (m ? Math.hypot(m.a, m.b) : 1);
               })""")
        assert sizes and min(sizes) >= 0.02 * 1080, sizes  # 2% of the screen's height: 21.6 px
