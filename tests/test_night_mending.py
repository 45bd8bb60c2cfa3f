"""What an outside tester found at two club nights (issue 20), as a table, the organizer and a program see it:
a tournament file broken by hand answers 503 everywhere (a table's good result told it was not recorded,
never blamed); a winner the ruleset makes impossible is refused - by the JSON interface and the library in
one line, on the phone next to the score in the page's words - where the ruleset has no rule that ends a
game sooner; another table's PIN counts as a wrong guess for the throttle; the PIN's message sits at the
PIN field; a phone whose form never went out is told what became of it."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from nights import ORGANIZER, PINS, PLAYERS, Browser, new_night, sides_of, signed_in
from serving import Events, Server
from test_serve_pages import hidden, messages

from pitchkeeper.errors import PitchError
from pitchkeeper.tournament import book
from pitchkeeper.tournament import night as desk
from pitchkeeper.web.night_app import create_night_app

HOUSE = Path(__file__).resolve().parent.parent / "examples" / "house-rules"


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return new_night(tmp_path, "Legion hall")


@pytest.fixture
def app(path: Path) -> Any:
    return create_night_app(path, ORGANIZER, PINS)


@pytest.fixture
def phone(app: Any) -> Iterator[Browser]:
    with Browser(app) as b:
        yield b


def post_result(b: Browser, table: int, body: dict[str, Any], pin: str) -> Any:
    return b.api("POST", f"/api/tables/{table}/result", json=body, headers={"X-Pitchkeeper-Pin": pin})


# ---------------------------------------------------------------------------
# 1. a tournament file broken by hand


def test_a_broken_tournament_file_is_a_503_everywhere_and_a_good_result_is_told_it_was_not_recorded(
        phone: Browser, path: Path) -> None:
    signed_in(phone, 1)
    good = {"score": {sides_of(path, 1)[0]: 21, sides_of(path, 1)[1]: 7}, "round": 1}
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace('"Ann", "Bob"', '"Ann", "Bxb"', 1), encoding="utf-8")  # players no longer seated
    broken = path.read_bytes()
    r = phone.post("/table/1/check", {"round": "1", "winner": "0", "s0": "21", "s1": "7"})  # the phone's form
    assert r.status_code == 503 and "Nothing you sent was written" in messages(r.text)[0]
    for url in ("/", "/table/1", "/organizer", "/hall"):
        r = phone.get(url)
        assert r.status_code == 503, (url, r.status_code)
        line = messages(r.text)[0]
        assert line.startswith("The tournament file cannot be read: night.toml: ") and "Mend it" in line
        assert str(path.parent) not in r.text and "Traceback" not in r.text  # the file by its name only
    r = phone.api("GET", "/api/tournament")
    assert r.status_code == 503 and r.json()["error"].startswith("the tournament file cannot be read: night.toml: ")
    assert "\n" not in r.json()["error"]
    r = post_result(phone, 1, good, PINS[1])
    assert r.status_code == 503
    error = r.json()["error"]
    assert re.fullmatch(r"the tournament file cannot be read: night\.toml: .+; your result was not recorded, "
                        r"report it again once it is mended", error), error
    assert post_result(phone, 2, {"score": {"x": 1}}, PINS[2]).status_code == 503  # the file's fault first
    assert path.read_bytes() == broken  # nothing written
    path.write_text(text, encoding="utf-8")  # mended: the same result goes through at once
    assert post_result(phone, 1, good, PINS[1]).status_code == 201
    assert phone.get("/").status_code == 200


def test_a_tournament_file_broken_by_hand_covers_every_open_page_at_once_and_mending_it_uncovers_them(
        app: Any, path: Path) -> None:
    """Pages already open (the hall screen, the phones, the organizer's) are told by their event stream, in
    the players' words: none of them goes on showing standings that are no longer the file's."""
    with Server(app) as server:
        events = Events(server.url)
        try:
            good = path.read_text(encoding="utf-8")
            path.write_text(good.replace('"Ann", "Bob"', '"Ann", "Bxb"', 1), encoding="utf-8")
            first = events.wait(1)[0]
            assert first["version"] is None and "tables" not in first
            said = first["broken"]
            assert said.startswith("The tournament file cannot be read: night.toml: ") and said.endswith(
                "Mend it (pitchkeeper tournament check shows the problem); this page works again at once.")
            assert str(path.parent) not in said and "\n" not in said
            late = Events(server.url)  # a page whose stream opens while the file is broken is told at once
            try:
                assert late.wait(1)[0]["broken"] == said
            finally:
                late.close()
            path.write_text(good, encoding="utf-8")
            mended = events.wait(2)[1]
            assert "broken" not in mended and mended["version"] is not None
        finally:
            events.close()


def test_a_page_served_while_the_file_is_broken_comes_back_by_itself(phone: Browser, path: Path) -> None:
    path.write_text(path.read_text(encoding="utf-8") + "[oops\n", encoding="utf-8")
    r = phone.get("/")
    assert r.status_code == 503
    assert 'data-broken="page"' in r.text and 'data-probe="/api/tournament"' in r.text  # live, asks when mended
    assert "/static/live.js" in r.text


def test_a_missing_tournament_file_is_a_503_too(phone: Browser, path: Path) -> None:
    path.rename(path.with_suffix(".bak"))
    r = phone.api("GET", "/api/tournament")
    assert r.status_code == 503 and "night.toml" in r.json()["error"]


# ---------------------------------------------------------------------------
# 2. a winner the ruleset makes impossible


def test_a_winner_short_of_the_target_is_refused_by_the_json_interface_and_the_library(
        phone: Browser, path: Path) -> None:
    a, b = sides_of(path, 1)
    r = post_result(phone, 1, {"score": {a: 3, b: 21}, "winner": a, "round": 1}, PINS[1])
    assert r.status_code == 400
    assert r.json()["error"].startswith("score: Ann & Cy cannot have won with 3: partnership-pitch is won at 21")
    r = post_result(phone, 1, {"score": {a: 11, b: 7}, "round": 1}, PINS[1])  # a game stopped half-way
    assert "cannot have won with 11" in r.json()["error"] and "declare forfeit" in r.json()["error"]
    assert not book.load(path).results
    # what the rules do allow: the bidders going out first with the lower score, a 21-21 tie with a winner
    assert post_result(phone, 1, {"score": {a: 22, b: 24}, "winner": a, "round": 1}, PINS[1]).status_code == 201
    c, d = sides_of(path, 2)
    assert post_result(phone, 2, {"score": {c: 21, d: 21}, "winner": d, "round": 1}, PINS[2]).status_code == 201
    # a forfeit (the organizer's): the side credited with a game not played out, at any score
    e, f = sides_of(path, 3)
    r = phone.api("POST", "/api/tables/3/forfeit", json={"winner": e, "score": {e: 3, f: 9}},
                  headers={"X-Pitchkeeper-Pin": ORGANIZER})
    assert r.status_code == 201
    # the organizer's correction is held to the rules too (of a game played out)
    r = phone.api("PUT", "/api/tables/1/result", json={"round": 1, "score": {a: 3, b: 21}, "winner": a},
                  headers={"X-Pitchkeeper-Pin": ORGANIZER})
    assert r.status_code == 400 and "cannot have won with 3" in r.json()["error"]
    with pytest.raises(PitchError, match=r"--score: Ann & Cy cannot have won with 3: .*check --score and --winner"):
        book.record(path, 1, scores={a: 3, b: 21}, winner=a, rnd=1, force=True)


def test_the_phone_asks_about_the_score_in_its_own_words(phone: Browser, path: Path) -> None:
    signed_in(phone, 1)
    r = phone.post("/table/1/check", {"round": "1", "winner": "0", "s0": "3", "s1": "21"})
    assert re.search(r'class="q has-error"[^>]*id="q-score"', r.text) and 'id="preview"' not in r.text
    assert messages(r.text) == ["Ann &amp; Cy won with 3 points: a game to 21 is won at 21. Check the score."]
    r = phone.post("/table/1/check", {"round": "1", "winner": "0", "s0": "22", "s1": "24"})
    assert 'id="preview"' in r.text
    assert messages(r.text, "note") == ["Ann &amp; Cy won with the lower score: right? (In partnership-pitch the "
                                        "bidding side goes out first.)"]
    r = phone.post("/table/1/check", {"round": "1", "winner": "0", "s0": "23", "s1": "5"})
    assert 'id="preview"' in r.text and not messages(r.text, "note")  # nothing to ask
    assert not book.load(path).results


def test_counting_down_the_lower_score_wins_and_a_game_ends_at_zero(tmp_path: Path) -> None:
    p = tmp_path / "nine.toml"
    book.create(p, str(HOUSE / "nine-card-pitch.toml"), "progressive", PLAYERS[:8], rounds=2)
    rnd, _ = book.seat(p)
    a, b = ("&".join(s) for s in rnd.tables[0].sides)
    _t, res = desk.report(p, 1, {a: 9, b: 0})  # no winner named: the side at 0 won
    assert res.winner == 1 and res.scores == (9, 0)
    c, d = ("&".join(s) for s in rnd.tables[1].sides)
    with pytest.raises(PitchError, match=r"cannot have won with 5: nine-card-pitch counts down from 21 and is won "
                                         r"at 0") as e:
        desk.report(p, 2, {c: 5, d: 12})
    assert e.value.where == "score"


def test_a_ruleset_that_ends_games_sooner_takes_a_winner_short_of_the_target(tmp_path: Path) -> None:
    p = tmp_path / "bike.toml"  # Bicycle: all four points in one hand win at once, whatever the score
    book.create(p, str(HOUSE / "bicycle-smudge.toml"), "progressive", PLAYERS[:8], rounds=2)
    rnd, _ = book.seat(p)
    names = ["&".join(s) for s in rnd.tables[0].sides]
    scores = dict(zip(names, (4, 6, 5, 7), strict=False))
    _t, res = desk.report(p, 1, scores, names[0])
    assert res.scores[0] == 4 and res.winner == 0


# ---------------------------------------------------------------------------
# 3. and 4. another table's PIN, and where the PIN's message sits


def test_another_tables_pin_is_not_named_and_is_counted_as_a_wrong_guess(phone: Browser, path: Path) -> None:
    score = {"score": {sides_of(path, 1)[0]: 21, sides_of(path, 1)[1]: 7}}
    wrong = post_result(phone, 1, score, "0000000000").json()
    for _ in range(4):  # another table's PIN is answered as any wrong PIN: a guesser learns nothing of it...
        r = post_result(phone, 1, score, PINS[2])
        assert r.status_code == 401 and r.json() == wrong == {"error": "wrong PIN: that PIN does not open table 1"}
    r = post_result(phone, 1, score, PINS[1])  # ...but each try is a guess: the budget is spent
    assert r.status_code == 429 and r.headers["Retry-After"] == "12"
    assert not book.load(path).results


def test_the_wrong_pin_message_sits_at_the_pin_field(phone: Browser, app: Any) -> None:
    phone.get("/table/2")
    r = phone.post("/table/2/pin", {"pin": "0000000000"})
    field = re.search(r'<div class="q has-error" id="q-pin">(.*?)</div>', r.text, re.S)
    assert field, r.text
    assert messages(field.group(1)) == ["That PIN does not open table 2: its PIN is the one printed on the card of "
                                        "table 2."]
    assert 'aria-invalid="true"' in field.group(1) and r.text.count('class="message error') == 1
    organizer = Browser(app)
    organizer.get("/organizer")
    r = organizer.post("/organizer/pin", {"pin": PINS[1]})
    field = re.search(r'<div class="q has-error" id="q-pin">(.*?)</div>', r.text, re.S)
    assert field and "That PIN does not open the organizer's page" in field.group(1)  # whose it is: not said
    assert "table 1" not in field.group(1) and r.text.count('class="message error') == 1
    organizer.api.close()


# ---------------------------------------------------------------------------
# 5. a form that never went out


def test_a_phone_is_told_its_typed_result_was_not_sent(phone: Browser, path: Path) -> None:
    signed_in(phone, 1)
    a, b = sides_of(path, 1)
    desk.report(path, 1, {a: 13, b: 22}, b)  # from another phone
    page = phone.get("/table/1?unsent=1;0;21,7").text  # what live.js fetches, with what the form held
    assert 'id="hand-form"' not in page and 'id="reported"' in page
    assert messages(page, "note") == ["Reported from another phone: yours (21-7, Ann &amp; Cy won) was not sent; "
                                      "a correction is the organizer&#39;s."]
    assert messages(phone.get("/table/1?unsent=1;1;13,22").text, "note") == [
        "Reported from another phone: the same result as yours."]
    assert not messages(phone.get("/table/1").text, "note")  # a reload says nothing again
    for t in (2, 3):
        desk.report(path, t, {sides_of(path, t)[0]: 21, sides_of(path, t)[1]: 5})
    desk.seat_next(path)
    page = phone.get("/table/1?unsent=1;0;21,7").text
    assert 'id="hand-form"' in page  # the form of round 2
    assert messages(page, "note") == [
        "Round 2 has been seated: the round-1 result typed on this phone (Ann &amp; Cy – Bob &amp; Dee: 21-7, Ann "
        "&amp; Cy won) was not reported; round 1 at this table counts Ann &amp; Cy 13 – Bob &amp; Dee 22, Bob "
        "&amp; Dee won. If that is wrong, tell the organizer: a correction is theirs."]
    for junk in ("x", "1;9;21", "1;0;a,b", "7;0;1,2", "1;;,"):
        assert phone.get(f"/table/1?unsent={junk}").status_code == 200
        assert not messages(phone.page, "note")


def test_a_form_checked_after_the_table_reported_elsewhere_is_closed(phone: Browser, path: Path) -> None:
    signed_in(phone, 1)
    r = phone.post("/table/1/check", {"round": "1", "winner": "0", "s0": "21", "s1": "7"})
    checked = hidden(r.text)["checked"]
    a, b = sides_of(path, 1)
    desk.report(path, 1, {a: 13, b: 22}, b)
    r = phone.post("/table/1/report", {"round": "1", "winner": "0", "s0": "21", "s1": "7", "checked": checked})
    assert "has reported round 1 already" in r.text and 'data-action="report"' not in r.text
    assert book.load(path).final[(1, 1)].scores == (13, 22)
