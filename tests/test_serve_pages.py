"""The pages of `pitchkeeper serve` over HTTP, as a browser posts them (no JavaScript needed): the PIN
once, the questions in the ruleset's own words, the verdict before saving, every point answered,
corrections and undo, and the form refused from another site or without its token."""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from serving import PIN, PLAYERS, TEAMS, Api, new_log, us_and_them

import pitchkeeper
from pitchkeeper.game import rulesets
from pitchkeeper.web.app import create_app

# a whole seven-point hand as tapped: every point answered, low by the player dealt it
TAPS = {"bidder": "Ann", "amount": "3", "trump": "H", "mode": "points", "p.high": "Us", "p.low": "Bob",
        "p.jack": "Us", "p.off-jack": "-", "p.high-joker": "Them", "p.low-joker": "-", "p.game": "Us"}


def token(html: str) -> str:
    m = re.search(r'name="csrf" value="([^"]+)"', html)
    assert m, html[:500]
    return m.group(1)


def messages(html: str, kind: str = "error") -> list[str]:
    return re.findall(rf'class="message {kind}[^"]*"[^>]*>(.*?)</p>', html, re.S)


class Phone:
    """A browser without JavaScript: keeps its cookies, posts forms with the page's token."""

    def __init__(self, log: Path, app: Any = None) -> None:
        self.api = Api(app or create_app(log, PIN))
        self.page = self.api("GET", "/enter").text

    def __enter__(self) -> Phone:
        return self

    def __exit__(self, *exc: object) -> None:
        self.api.close()

    def post(self, url: str, fields: dict[str, Any] | list[tuple[str, str]], **kw: Any) -> Any:
        pairs = list(fields.items()) if isinstance(fields, dict) else list(fields)
        r = self.api("POST", url, data=dict(pairs) if isinstance(fields, dict) else None,
                     content=None if isinstance(fields, dict) else "&".join(f"{k}={v}" for k, v in pairs),
                     headers={"Content-Type": "application/x-www-form-urlencoded", **kw.pop("headers", {})}, **kw)
        if r.status_code == 303:
            r = self.api("GET", r.headers["location"])
        self.page = r.text
        return r

    def login(self) -> None:
        r = self.post("/enter/pin", {"csrf": token(self.page), "pin": PIN})
        assert r.status_code == 200 and 'id="hand-form"' in r.text, r.text[:300]

    def check(self, answers: dict[str, str], **extra: str) -> Any:
        return self.post("/enter/check", {"csrf": token(self.page), **answers, **extra})

    def save(self, answers: dict[str, str]) -> Any:
        fields = {"csrf": token(self.page), **answers, **hidden(self.page)}
        return self.post("/enter/save", fields)


def hidden(html: str) -> dict[str, str]:
    """The hidden fields the form and its verdict carry (checked, number, and the view they were made
    against: version, hand, match)."""
    return dict(re.findall(r'<input type="hidden" name="(checked|number|version|hand|match)" value="([^"]*)"', html))


@pytest.fixture
def log(tmp_path: Path) -> Path:
    return us_and_them(tmp_path / "m.toml")


@pytest.fixture
def phone(log: Path) -> Iterator[Phone]:
    with Phone(log) as p:
        yield p


def hands_of(log: Path) -> list[dict[str, Any]]:
    return tomllib.loads(log.read_text()).get("hands", [])


def test_the_pin_comes_first_and_a_wrong_one_is_refused(phone: Phone) -> None:
    assert 'name="pin"' in phone.page and 'id="hand-form"' not in phone.page
    r = phone.post("/enter/pin", {"csrf": token(phone.page), "pin": "000000"})
    # a form shown again with its message, as a page (a 4xx page is a console error in the browser)
    assert r.status_code == 200 and "Wrong PIN" in messages(r.text)[0] and 'id="hand-form"' not in r.text
    phone.login()


def test_every_point_is_asked_in_the_rulesets_words(phone: Phone) -> None:
    phone.login()
    legends = re.findall(r'<fieldset class="q point" id="q-p-[^"]+" data-point="([^"]+)">\s*<legend>([^<]+)</legend>',
                         phone.page)
    ruleset = rulesets.load("seven-point")
    assert [p for p, _ in legends] == [p.id for p in ruleset.points]
    words = dict(legends)
    assert words["low"] == "Who was dealt low?"  # seven-point gives low to the player dealt it
    assert words["high"] == "Who took high?"
    low = re.search(r'data-point="low">(.*?)</fieldset>', phone.page, re.S).group(1)
    assert re.findall(r'data-v="([^"]+)"', low) == PLAYERS  # dealt: a player, not a side; always out
    high = re.search(r'data-point="high">(.*?)</fieldset>', phone.page, re.S).group(1)
    assert re.findall(r'data-v="([^"]+)"', high) == ["Us", "Them"]  # high is always out
    game = re.search(r'data-point="game">(.*?)</fieldset>', phone.page, re.S).group(1)
    assert re.findall(r'data-v="([^"]+)"', game) == ["Us", "Them", "tie"]


def test_low_to_its_captor_is_asked_who_took_it(tmp_path: Path) -> None:
    log = new_log(tmp_path / "s.toml", {"rules": "solo-pitch", "players": ["Ana", "Ben", "Chloe"]})
    p = Phone(log)
    p.login()
    assert "Who took low?" in p.page and "dealt low" not in p.page
    amounts = re.findall(r'data-q="amount" data-v="([^"]+)"', p.page)
    assert amounts == ["1", "2", "3", "4"]
    p.api.close()


def test_the_verdict_is_shown_before_it_is_saved(phone: Phone, log: Path) -> None:
    phone.login()
    r = phone.check(TAPS)
    assert r.status_code == 200 and not hands_of(log)
    assert "Ann bid 3 in ♥ – made" in r.text and "Save hand 1" in r.text
    assert "Bob (Them) was dealt low" in r.text  # the ruleset's own word, as the CLI says it
    r = phone.save(TAPS)
    assert "Hand 1 saved." in r.text
    assert hands_of(log)[0]["points"] == {"high": "Us", "low": "Bob", "jack": "Us", "high-joker": "Them", "game": "Us"}
    state = pitchkeeper.Logbook.open(log).state()
    assert state == pitchkeeper.judge_match(log) and state["scores"] == {"Us": 3, "Them": 2}


def test_an_unanswered_point_is_refused_naming_it(phone: Phone, log: Path) -> None:
    phone.login()
    taps = {k: v for k, v in TAPS.items() if k not in ("p.jack", "p.low-joker")}
    r = phone.check(taps)
    assert r.status_code == 200 and not hands_of(log)
    error = messages(r.text)[0]
    assert error.startswith("Who took jack? No answer yet") and "who took low joker?" in error and "not out" in error
    # every question left unanswered is highlighted, the message beside the first
    assert re.findall(r'<fieldset class="q point has-error" aria-invalid="true" id="q-p-([^"]+)"', r.text) == \
        ["jack", "low-joker"]
    # the answers given are kept on the page
    assert re.search(r'value="Ann" checked', r.text)


@pytest.mark.parametrize(("change", "words"), [({"amount": "9"}, "9"), ({"bidder": "Zed"}, "Zed"),
                                              ({"p.high": "Zorro"}, "Zorro"), ({"trump": ""}, "Trump"),
                                              ({"mode": "cards", "c.Us": "AS 1OS"}, "1OS")])
def test_bad_answers_are_a_message_on_the_page_and_nothing_is_written(phone: Phone, log: Path,
                                                                      change: dict[str, str], words: str) -> None:
    phone.login()
    before = log.read_bytes()
    r = phone.check({**TAPS, **change})
    assert r.status_code == 200 and words in messages(r.text)[0]
    assert "Traceback" not in r.text and log.read_bytes() == before


US_CARDS = "AS JS 10H 2H KC QC JC 10C 9C 8C 7C 6C 5D 6D 7D 8D"
THEM_CARDS = "3S KD 4C 5C 2C 3C 4D 9D"


def test_the_cards_each_side_took_are_judged_too(phone: Phone, log: Path) -> None:
    phone.login()
    taps = {"bidder": "Ann", "amount": "2", "trump": "S", "mode": "cards", "c.Us": US_CARDS, "c.Them": THEM_CARDS,
            "d.Bob": "3S"}
    r = phone.check(taps)
    assert r.status_code == 200, messages(r.text)
    assert "Bob (Them) was dealt low 3♠" in r.text
    phone.save(taps)
    assert hands_of(log)[0]["captured"] == {"Us": US_CARDS.split(), "Them": THEM_CARDS.split()}
    assert hands_of(log)[0]["dealt"] == {"Bob": ["3S"]}


def test_save_writes_only_the_answers_that_were_checked(phone: Phone, log: Path) -> None:
    phone.login()
    phone.check(TAPS)
    fields = {"csrf": token(phone.page), **TAPS, "p.game": "Them", **hidden(phone.page)}
    r = phone.post("/enter/save", fields)
    assert not hands_of(log) and "check this one" in r.text


def test_a_hand_saved_elsewhere_meanwhile_is_shown_before_saving_again(phone: Phone, log: Path) -> None:
    phone.login()
    phone.check(TAPS)
    page = phone.page
    pitchkeeper.Logbook.open(log).append({"trump": "S", "bid": {"player": "Bob", "amount": 2},
                                          "points": {"high": "Them", "low": "Bob", "game": "Them"}})
    phone.page = page
    r = phone.save(TAPS)
    assert len(hands_of(log)) == 1 and "Hand 1 was saved on another device" in r.text
    assert "Bob bid 2 in ♠" in r.text and "Record mine as hand 2" in r.text and "Discard mine" in r.text
    r = phone.save(TAPS)  # the same taps: it was a different hand after all
    assert len(hands_of(log)) == 2 and "Hand 2 saved." in r.text


def test_correcting_an_earlier_hand_shows_the_change_then_saves_it(phone: Phone, log: Path) -> None:
    phone.login()
    phone.check(TAPS)
    phone.save(TAPS)
    phone.check({**TAPS, "bidder": "Bob", "amount": "2"})
    phone.save({**TAPS, "bidder": "Bob", "amount": "2"})
    page = phone.api("GET", "/enter/hand/1").text
    assert "Correct hand 1" in page and re.search(r'name="p.low" value="Bob" checked', page)
    phone.page = page
    fixed = {**TAPS, "p.game": "Them", "number": "1"}
    r = phone.check(fixed)
    assert "Hand 1, corrected" in r.text and "Save the correction" in r.text
    assert "game: Us → tie, not scored" not in r.text and "game: Us → Them" in r.text  # what changes
    assert hands_of(log)[0]["points"]["game"] == "Us"
    phone.save(fixed)
    assert hands_of(log)[0]["points"]["game"] == "Them" and len(hands_of(log)) == 2
    assert pitchkeeper.Logbook.open(log).state() == pitchkeeper.judge_match(log)


def preview_table(html: str) -> dict[str, dict[str, int]]:
    """The preview's table: side -> column -> figure (a real minus sign read back)."""
    out: dict[str, dict[str, int]] = {}
    for side, row in re.findall(r'<tr class="c\d+" data-side="([^"]+)">(.*?)</tr>', html, re.S):
        cells = re.findall(r'data-col="([^"]+)"[^>]*>(?:<b>)?([^<]+)', row)
        out[side] = {col: int(v.replace("−", "-").replace("±", "")) for col, v in cells}
    return out


def test_the_preview_of_a_correction_adds_up(phone: Phone, log: Path) -> None:
    book = pitchkeeper.Logbook.open(log)
    for bidder, points in [("Ann", {"high": "Us", "low": "Ann", "game": "Us"}),
                           ("Bob", {"high": "Them", "low": "Bob", "game": "Us"}),
                           ("Cy", {"high": "Us", "low": "Dee", "jack": "Us", "game": "Us"}),
                           ("Ann", {"high": "Us", "low": "Cy", "game": "Us"}),
                           ("Bob", {"high": "Them", "low": "Dee", "game": "Them"})]:
        book.append({"trump": "S", "bid": {"player": bidder, "amount": 2}, "points": points})
    now = book.state()
    phone.login()
    phone.page = phone.api("GET", "/enter/hand/4").text
    fixed = {"bidder": "Ann", "amount": "2", "trump": "S", "mode": "points", "p.high": "Us", "p.low": "Cy",
             "p.jack": "-", "p.off-jack": "-", "p.high-joker": "-", "p.low-joker": "-", "p.game": "Them",
             "number": "4"}
    r = phone.check(fixed)
    table = preview_table(r.text)
    assert set(table) == {"Us", "Them"}, messages(r.text)
    for side, row in table.items():
        assert row["total-before"] == now["scores"][side]  # the match's totals now
    # the hand before and after, and what changes, in words: game went to Them, so Us +3 became +2
    before_after = re.findall(r'<td data-col="(before|after)">([^<]*)</td>', r.text)
    assert ("before", "high Us, low Us, game: Us") in before_after and ("after", "high Us, low Us, game: Them") in before_after
    changes = re.findall(r"<li>(.*?)</li>", r.text.split('class="awards changes-list"')[1].split("</ul>")[0])
    assert changes == ["game: Us → Them", "Us: +3 → +2", "Them: +0 → +1"]
    phone.save(fixed)
    assert {s: row["total-after"] for s, row in table.items()} == pitchkeeper.Logbook.open(log).state()["scores"]


def test_undo_asks_first_then_drops_that_hand(phone: Phone, log: Path) -> None:
    phone.login()
    phone.check(TAPS)
    phone.save(TAPS)
    r = phone.post("/enter/undo", {"csrf": token(phone.page)})
    assert "Undo hand 1?" in r.text and len(hands_of(log)) == 1
    r = phone.post("/enter/undo", {"csrf": token(phone.page), "confirm": "1", "hands": "1"})
    assert "Hand 1 undone." in r.text and not hands_of(log)


def test_the_form_is_refused_without_its_token_or_from_another_site(phone: Phone, log: Path) -> None:
    phone.login()
    before = log.read_bytes()
    mine = token(phone.page)
    r = phone.post("/enter/check", {**TAPS})
    assert r.status_code == 200 and "older than the server" in messages(r.text)[0]
    r = phone.post("/enter/save", {"csrf": "forged", **TAPS})
    assert r.status_code == 200 and "older than the server" in messages(r.text)[0]
    r = phone.post("/enter/check", {"csrf": mine, **TAPS}, headers={"Origin": "http://evil.example"})
    assert r.status_code == 403 and "another site" in r.text
    # a token is worth only with the cookie of the browser it was given to
    other = Phone(log)
    r = other.post("/enter/pin", {"csrf": mine, "pin": PIN})
    assert "older than the server" in messages(r.text)[0] and 'id="hand-form"' not in r.text
    other.api.close()
    assert log.read_bytes() == before


def test_no_write_without_the_pin_even_with_the_token(phone: Phone, log: Path) -> None:
    r = phone.check(TAPS)  # never logged in: the token is right, the PIN was never given
    assert "PIN first" in messages(r.text)[0] and 'name="pin"' in r.text and not hands_of(log)
    r = phone.post("/enter/undo", {"csrf": token(phone.page), "confirm": "1", "hands": "0"})
    assert "PIN first" in messages(r.text)[0] and 'id="hand-form"' not in r.text


def test_after_the_win_the_page_says_so_and_a_save_is_refused(tmp_path: Path) -> None:
    log = new_log(tmp_path / "m.toml", {"rules": "seven-point", "players": PLAYERS, "teams": TEAMS, "target": 3})
    p = Phone(log)
    p.login()
    win = {**TAPS, "p.low": "Ann", "p.high-joker": "-"}
    p.check(win)
    p.save(win)
    assert "Us won" in p.page and 'id="hand-form"' not in p.page
    before = log.read_bytes()
    r = p.check(TAPS)
    assert r.status_code == 200 and "won" in messages(r.text)[0]
    assert log.read_bytes() == before
    p.api.close()


def test_the_scoreboard_shows_scores_dealer_and_verdict(log: Path) -> None:
    pitchkeeper.Logbook.open(log).append({"trump": "S", "bid": {"player": "Ann", "amount": 3},
                                          "points": {"high": "Us", "low": "Us", "jack": "Us", "game": "Them"}})
    api = Api(create_app(log, PIN))
    try:
        r = api("GET", "/")
        assert r.headers["content-security-policy"].startswith("default-src 'none'")
        html = r.text
        assert re.findall(r'data-side="(\w+)"[^>]*>\s*<div class="who"><h2>', html) == ["Us", "Them"]
        assert re.findall(r'data-score="(-?\d+)"', html) == ["3", "1"]
        assert "deals next</span> <strong>Bob</strong>" in html
        assert "Ann bid 3 in ♠ – made" in html and "jack – Us" in html and "Us was dealt low" in html
        assert "http" not in re.sub(r'xmlns="[^"]+"', "", html)  # nothing fetched from elsewhere
        assert api("GET", "/board").text.startswith('<main id="board"')
    finally:
        api.close()


def test_the_tv_verdict_says_who_was_dealt_a_point_dealt_to_a_player(log: Path) -> None:
    pitchkeeper.Logbook.open(log).append({"trump": "S", "bid": {"player": "Bob", "amount": 2},
                                          "points": {"high": "Them", "low": "Dee", "game": "Them"}})
    api = Api(create_app(log, PIN))
    try:
        lines = re.findall(r"<li>(.*?)</li>", api("GET", "/").text)
        assert "Dee (Them) was dealt low" in lines and "high – Them" in lines
    finally:
        api.close()


def test_the_css_has_a_class_for_every_side_colour() -> None:
    from pitchkeeper.web import view

    css = (Path(view.__file__).parent / "static" / "style.css").read_text()
    for i, colour in enumerate(view.COLOURS):
        assert f".c{i} {{ --side: {colour}; }}" in css


def test_on_the_local_network_the_scoreboard_shows_where_to_enter_hands(log: Path) -> None:
    lan = Api(create_app(log, PIN, entry_url="http://192.168.1.20:8765/enter"))
    local = Api(create_app(log, PIN))
    try:
        html = lan("GET", "/").text
        assert "http://192.168.1.20:8765/enter" in html and '<svg viewBox="' in html and 'class="segno"' in html
        assert 'class="segno"' not in local("GET", "/").text  # on this machine only, no phone can reach it
    finally:
        lan.close()
        local.close()


@pytest.mark.parametrize("field", [{"hands": "x"}, {"hands": "99999999999999999999"}, {"number": "abc"},
                                   {"checked": ""}, {"mode": "nonsense"}])
def test_a_tampered_form_is_never_a_server_error(phone: Phone, log: Path, field: dict[str, str]) -> None:
    phone.login()
    phone.check(TAPS)
    fields = {"csrf": token(phone.page), **TAPS, **hidden(phone.page), **field}
    r = phone.post("/enter/save", fields)
    assert r.status_code in (200, 400) and "Traceback" not in r.text
    assert len(hands_of(log)) <= 1
