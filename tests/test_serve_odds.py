"""`/odds` of `pitchkeeper serve` (issue 21, item 6): a player taps the cards they held and sees, for each
trump, the chance to make each bid and the best bid - the library's `bid_odds`, seeded - and "should I
have bid 3?" answered in words. The match's ruleset and players by default, another built-in ruleset
on request; bad input said next to its question; hostile input refused in one line; nothing written,
no PIN asked."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from serving import PIN, PLAYERS, TEAMS, Api, new_log, us_and_them

import pitchkeeper
from pitchkeeper.game import rulesets
from pitchkeeper.web import odds
from pitchkeeper.web.app import create_app
from pitchkeeper.words.analysis import bid_answers

HELD = ["AS", "KS", "5S", "2H", "9D", "JC"]
TAPPED = "&".join(f"card={c}" for c in HELD)


@pytest.fixture
def log(tmp_path: Path) -> Path:
    return us_and_them(tmp_path / "m.toml")


@pytest.fixture
def api(log: Path) -> Iterator[Api]:
    with Api(create_app(log, PIN)) as a:
        yield a


def library(cards: list[str] = HELD, rules: str = "seven-point", players: int = 4, trump: str | None = None) -> Any:
    """The answer of the public API, with the page's seed and number of layouts."""
    return pitchkeeper.bid_odds(cards, rules, players=players, trump=trump, samples=odds.samples(players), seed=odds.SEED)


def table(page: str) -> dict[str, dict[str, tuple[int, str, bool]]]:
    """Each trump's rows as the page shows them: bid -> (made %, average, marked best)."""
    out: dict[str, dict[str, tuple[int, str, bool]]] = {}
    for trump, body in re.findall(r'<div class="trump-odds suit-\w" data-trump="(\w)">(.*?)</div>', page, re.S):
        rows = re.findall(r'<tr class="([^"]*)" data-bid="(\w+)"><th>\w+</th><td data-col="made">(\d+)%</td>'
                          r'<td data-col="average">([^<]+)</td>', body)
        out[trump] = {bid: (int(made), avg, "best" in cls) for cls, bid, made, avg in rows}
    return out


def error_at(page: str) -> tuple[str, str]:
    """The one message on the page, and the question it sits at."""
    found = re.findall(r'id="(q-\w+)">(?:(?!</fieldset>|</label>).)*?<p class="message error field-error" role="alert" '
                       r'id="error">(.*?)</p>', page, re.S)
    assert len(found) == 1, re.findall(r'id="error">(.*?)</p>', page)
    return found[0][0], html.unescape(found[0][1])


def test_the_page_lays_out_the_rulesets_deck_to_tap_and_says_how_many_layouts(api: Api) -> None:
    r = api("GET", "/odds")
    assert r.status_code == 200 and "script-src 'self'" in r.headers["content-security-policy"]
    assert not re.search(r"<script(?![^>]*\bsrc=)", r.text) and " style=" not in r.text  # no inline script or style
    tappable = re.findall(r'<label class="pill card-pill" data-card="(\w+)"><input type="checkbox" name="card"', r.text)
    assert set(tappable) == rulesets.load("seven-point").deck and {"HJ", "LJ"} <= set(tappable)
    assert f'<b id="layouts">{odds.samples(4)} layouts</b>' in r.text and "Your 6 cards" in r.text
    assert re.search(r'<option value="seven-point" selected>seven-point \(this match\)</option>', r.text)
    assert re.search(r'<option value="4" selected>4</option>', r.text)
    assert 'id="answer"' not in r.text and 'id="error"' not in r.text  # nothing asked yet
    other = api("GET", "/odds?rules=trickster-6").text  # a single joker, JK, to tap
    assert set(re.findall(r'data-card="(\w+)"', other)) == rulesets.load("trickster-6").deck and 'data-card="JK"' in other


def test_six_cards_tapped_give_each_trumps_odds_as_the_library_does(api: Api) -> None:
    r = api("GET", f"/odds?{TAPPED}&go=1")
    assert r.status_code == 200 and 'id="error"' not in r.text
    o = library()
    shown = table(r.text)
    assert list(shown) == ["S", "H", "D", "C"]
    for t in o["trumps"]:
        assert {b: made for b, (made, _, _) in shown[t["trump"]].items()} == \
            {b: round(100 * x) for b, x in t["make"].items()}
        assert [b for b, (_, _, best) in shown[t["trump"]].items() if best] == [str(t["best_bid"])]
    held = re.search(r'<h2 class="held" id="held">(.*?)</h2>', r.text, re.S).group(1)
    assert re.sub(r"<[^>]+>", "", held).split() == ["A♠", "K♠", "5♠", "2♥", "9♦", "J♣"]
    assert f"{odds.samples(4)} layouts of the unseen cards (seed {odds.SEED})" in html.unescape(r.text)
    assert api("GET", f"/odds?{TAPPED}&go=1").text == r.text  # seeded: the same cards, the same answer


def test_tapping_a_bid_asks_should_i_have_bid_it(api: Api) -> None:
    r = api("GET", f"/odds?{TAPPED}&go=1&ask=3")
    said = [html.unescape(x) for x in re.findall(r"<li>(In \w+: .*?)</li>", r.text)]
    assert said == bid_answers(library(), "3") and len(said) == 4
    assert all(line.startswith(("In spades: ", "In hearts: ", "In diamonds: ", "In clubs: ")) for line in said)
    assert re.search(r'<button type="submit" class="pill bid on" name="ask" value="3"', r.text)
    assert "<h3>Should I have bid 3?</h3>" in r.text


def test_one_trump_another_ruleset_and_another_number_of_players(api: Api) -> None:
    r = api("GET", f"/odds?{TAPPED}&go=1&trump=S&rules=auction-pitch&players=5")
    assert r.status_code == 200 and 'id="error"' not in r.text
    o = library(rules="auction-pitch", players=5, trump="S")
    assert list(table(r.text)) == ["S"]
    assert {b: m for b, (m, _, _) in table(r.text)["S"].items()} == {b: round(100 * x) for b, x in o["trumps"][0]["make"].items()}
    assert f'<b id="layouts">{odds.samples(5)} layouts</b>' in r.text and "5 players" in html.unescape(r.text)
    assert re.search(r'<option value="5" selected>5</option>', r.text)


def test_the_json_answer_is_the_analyse_odds_object(api: Api) -> None:
    r = api("GET", "/api/odds?cards=AS+KS+5S+2H+9D+JC")
    assert r.status_code == 200 and r.json() == library()
    r = api("GET", "/api/odds?cards=AS,KS,5S,2H,9D,JC&trump=hearts")
    assert r.json() == library(trump="H")


@pytest.mark.parametrize(("query", "at", "words"), [
    ("card=AS&card=AS&card=KS&card=5S&card=2H&card=9D", "q-cards", "Your cards: AS is given twice"),
    ("card=AS&card=KS&card=5S&card=2H&card=9D", "q-cards", "Your cards: 5 of 6 tapped: tap 1 more"),
    (TAPPED + "&card=QC", "q-cards", "Your cards: 7 tapped: a hand in seven-point holds 6; untap 1"),
    ("cards=AS+KS+5S+2H+9D+1OC", "q-cards", "Your cards: '1OC' is not a card"),
    ("cards=AS+KS+5S+2H+9D+JK", "q-cards", "Your cards: JK is not in seven-point's deck"),
    (TAPPED + "&rules=no-such-rules", "q-rules", "Ruleset: 'no-such-rules' is not a built-in ruleset"),
    (TAPPED + "&rules=../../m.toml", "q-rules", "Ruleset: '../../m.toml' is not a built-in ruleset"),
    (TAPPED + "&players=5", "q-players", "Players: 4 or 6 players play seven-point, not 5"),
    (TAPPED + "&players=99999999999999999999", "q-players", "Players: 4 or 6 players play seven-point, not 9"),
    (TAPPED + "&trump=Z", "q-trump", "Trump: 'Z' is not a suit"),
])
def test_bad_input_is_said_next_to_its_question_and_the_json_is_400(api: Api, log: Path, query: str, at: str,
                                                                    words: str) -> None:
    before = log.read_bytes()
    r = api("GET", f"/odds?{query}&go=1")
    assert r.status_code == 200 and 'id="answer"' not in r.text
    where, said = error_at(r.text)
    assert where == at and said.startswith(words), said
    assert re.search(rf'class="[^"]*has-error[^"]*" aria-invalid="true" id="{at}"', r.text)
    j = api("GET", f"/api/odds?{query}")
    assert j.status_code == 400 and list(j.json()) == ["error"] and "\n" not in j.json()["error"]
    assert log.read_bytes() == before


def test_a_bid_the_ruleset_has_not_is_said_where_the_bids_are(api: Api) -> None:
    r = api("GET", f"/odds?{TAPPED}&go=1&ask=9")
    said = html.unescape(re.search(r'id="error">(.*?)</p>', r.text).group(1))
    assert said == "Should I have bid 9? seven-point's bids are 2, 3, 4, 5, 6 or 7"


def test_the_cards_tapped_stay_tapped_when_the_answer_is_a_problem(api: Api) -> None:
    r = api("GET", "/odds?card=AS&card=KS&card=HJ&go=1")
    assert set(re.findall(r'data-card="(\w+)"><input type="checkbox" name="card" value="\w+" checked', r.text)) == \
        {"AS", "KS", "HJ"}
    assert re.search(r'<span class="tapped" id="count" data-size="6">3 of 6</span>', r.text)


def test_hostile_questions_are_refused_in_one_line_through_the_shield(api: Api, log: Path) -> None:
    before = log.read_bytes()
    r = api("GET", "/odds", headers={"Host": "evil.example"})
    assert r.status_code == 400 and len(r.text.strip().splitlines()) == 1 and "evil.example" in r.text
    r = api("GET", "/api/odds?cards=AS", headers={"Host": "evil.example"})
    assert r.status_code == 400 and list(r.json()) == ["error"]
    long = "&".join(["card=AS"] * 400)
    r = api("GET", f"/api/odds?{long}")
    assert r.status_code == 400 and r.json()["error"].startswith("the question is too long")
    r = api("GET", f"/odds?{long}")
    assert r.status_code == 400 and "The question is too long" in r.text and "Traceback" not in r.text
    r = api("GET", "/api/odds?" + "&".join(["card=2S"] * 70))
    assert r.status_code == 400 and r.json() == {"error": "70 cards named: a deck has at most 64"}
    r = api("GET", "/api/odds?cards=%FF%FE%1B[31m+KS+5S+2H+9D+JC")
    assert r.status_code == 400 and "\n" not in r.json()["error"] and "\x1b" not in r.json()["error"]
    r = api("GET", "/odds?go=1&cards=%1B[2J%00+KS+5S+2H+9D+JC")
    assert r.status_code == 200 and "\x1b" not in r.text and "\x00" not in r.text and 'id="error"' in r.text
    r = api("POST", "/odds", content=b"card=AS", headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert r.status_code == 405 and "Traceback" not in r.text
    r = api("POST", "/api/odds", content=b"x" * (300 * 1024), headers={"Content-Type": "application/json"})
    assert r.status_code == 413 and list(r.json()) == ["error"]
    assert log.read_bytes() == before


def test_no_pin_is_asked_and_nothing_is_written(log: Path) -> None:
    before = log.read_bytes()
    stranger = Api(create_app(log, PIN))  # no cookie, no PIN
    try:
        r = stranger("GET", f"/odds?{TAPPED}&go=1")
        assert r.status_code == 200 and 'id="answer"' in r.text and 'name="pin"' not in r.text
        assert "set-cookie" not in r.headers
    finally:
        stranger.close()
    assert log.read_bytes() == before


def test_a_question_too_long_to_answer_says_so_and_the_page_answers(tmp_path: Path) -> None:
    log = new_log(tmp_path / "seven.toml", {"rules": "solo-pitch", "players": ["A", "B", "C", "D", "E", "F", "G"]})
    app = create_app(log, PIN)
    app.state.site.odds.budget = 0.05  # 10 layouts of 7 players for four trumps: far longer than this
    api = Api(app)
    try:
        r = api("GET", f"/odds?{TAPPED}&go=1")
        failed = html.unescape(re.search(r'id="failed">(.*?)</p>', r.text).group(1))
        assert r.status_code == 200 and failed.startswith(f"Not answered (too long): {odds.samples(7)} layouts of 7 "
                                                          "players take more than 0.05 s here")
        j = api("GET", "/api/odds?cards=" + "+".join(HELD))
        assert j.status_code == 503 and j.json()["error"] == failed and j.headers["retry-after"] == "2"
    finally:
        api.close()


HOUSE = Path(__file__).resolve().parent.parent / "examples" / "house-rules"


def test_a_match_under_house_rules_is_asked_under_them(tmp_path: Path) -> None:
    log = new_log(tmp_path / "moon.toml", {"rules": str(HOUSE / "moon-10.toml"), "players": PLAYERS, "teams": TEAMS})
    api = Api(create_app(log, PIN))
    try:
        r = api("GET", f"/odds?{TAPPED}&go=1")
        assert re.search(r'<option value="moon-10" selected>moon-10 \(this match\)</option>', r.text)
        house = rulesets.load(HOUSE / "moon-10.toml")
        o = pitchkeeper.bid_odds(HELD, house, players=4, samples=odds.samples(4), seed=odds.SEED)
        assert api("GET", "/api/odds?cards=" + "+".join(HELD)).json() == o
        assert {b: m for b, (m, _, _) in table(r.text)["S"].items()} == \
            {b: round(100 * x) for b, x in o["trumps"][0]["make"].items()}
    finally:
        api.close()


def test_house_rules_the_odds_cannot_answer_say_why_in_one_line(tmp_path: Path) -> None:
    log = new_log(tmp_path / "smear.toml", {"rules": str(HOUSE / "minnesota-smear.toml"), "players": PLAYERS,
                                            "teams": TEAMS})
    api = Api(create_app(log, PIN))
    try:
        r = api("GET", f"/odds?{TAPPED}&go=1")
        failed = html.unescape(re.search(r'id="failed">(.*?)</p>', r.text).group(1))
        assert failed.startswith("Not answered: minnesota-smear lets players choose what to lay away before play")
        assert "--rules" not in failed  # the page's words, not the command line's
        j = api("GET", "/api/odds?cards=" + "+".join(HELD))
        assert j.status_code == 400 and j.json()["error"].startswith("minnesota-smear lets players choose")
    finally:
        api.close()
