"""The night's pages over HTTP, as a browser posts them (no JavaScript needed): the hall screen (no PIN), a
table's phone (its own PIN once; the result checked, shown, then reported; or the game kept hand by hand on
the table's own entry page, reported by itself once won), the organizer's page (corrections, forfeits,
the next round, closing, the cards with every table's PIN). Messages sit at their question, in the page's
words; a form from another site is refused."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from nights import ORGANIZER, PINS, Browser, new_night, sides_of, signed_in
from test_serve_pages import hidden, messages

from pitchkeeper.tournament import book
from pitchkeeper.tournament import night as desk
from pitchkeeper.web.night_app import create_night_app


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return new_night(tmp_path, "Legion <hall>")


@pytest.fixture
def app(path: Path) -> Any:
    return create_night_app(path, ORGANIZER, PINS)


@pytest.fixture
def phone(app: Any) -> Iterator[Browser]:
    with Browser(app) as b:
        yield b


def test_the_hall_screen_needs_no_pin_and_shows_seating_and_standings(phone: Browser, path: Path) -> None:
    r = phone.get("/")
    assert r.status_code == 200 and 'data-part="/hall"' in r.text and "Legion &lt;hall&gt;" in r.text
    assert re.findall(r'<span class="tno"[^>]*>(\d+)</span>', r.text) == ["1", "2", "3"]
    assert r.text.count('data-state="playing"') == 3
    assert '<b class="hall-count" id="hall-count">0</b> of 3 tables reported' in r.text
    assert "ties: points, then wins, then head-to-head" in r.text
    desk.report(path, 2, {sides_of(path, 2)[0]: 21, sides_of(path, 2)[1]: 9})
    part = phone.get("/hall").text  # what the page fetches again on each event
    assert part.startswith('<main id="hall"') and 'data-table="2" data-state="reported"' in part
    assert re.search(r'data-table="2".*?21 – 9', part, re.S)
    ann = re.search(r'<tr data-name="Eve" data-rank="(\d+)">.*?<td class="pt">(\d+)</td>', part)
    assert ann and ann.groups() == ("1", "21")  # Eve sat at table 2 with Gus and won 21


def test_the_hall_screen_turns_its_pages_past_forty_players(tmp_path: Path) -> None:
    p = tmp_path / "big.toml"
    book.create(p, "partnership-pitch", "progressive", [f"P{i:03}" for i in range(200)], rounds=2)
    book.seat(p)
    b = Browser(create_night_app(p, ORGANIZER, {}))
    page = b.get("/").text
    assert page.count('class="tables hall-page"') == 5 and page.count('class="hall-page standings-page"') == 5
    assert len(re.findall(r'class="hall-page standings-page"[^>]*hidden', page)) == 4  # one page shown at once
    assert 'data-words="41-80 of 200"' in page and 'data-words="tables 11-20 of 50"' in page
    b.api.close()


def test_a_table_reports_with_its_own_pin_after_seeing_the_result(phone: Browser, app: Any, path: Path) -> None:
    other = signed_in(Browser(app), 1)  # a second phone at the table, its form open
    page = phone.get("/table/1").text
    assert re.findall(r'<span class="seat">(\w+)</span><b>(\w+)</b>', page) == [
        ("North", "Ann"), ("East", "Bob"), ("South", "Cy"), ("West", "Dee")]
    assert 'name="pin"' in page and 'id="hand-form"' not in page  # the seats for anyone, the form after the PIN
    phone.post("/table/1/pin", {"pin": "0000000000"})
    wrong = ["That PIN does not open table 1: its PIN is the one printed on the card of table 1."]
    assert messages(phone.page) == wrong
    phone.post("/table/1/pin", {"pin": PINS[2]})
    assert messages(phone.page) == wrong  # another table's PIN: the same words, never which table it opens
    signed_in(phone, 1)
    # nothing answered: the message at the question, in the page's words
    r = phone.post("/table/1/check", {"round": "1"})
    assert 'id="q-winner" class' not in r.text and re.search(r'class="q has-error"[^>]*id="q-winner"', r.text)
    assert messages(r.text)[0].startswith("Who won? No answer yet: tap the winning side (nor a score for")
    r = phone.post("/table/1/check", {"round": "1", "winner": "0", "s0": "21"})
    assert messages(r.text) == ["No score yet for Bob &amp; Dee: type each side&#39;s final score."]
    r = phone.post("/table/1/check", {"round": "1", "winner": "0", "s0": "21", "s1": "30"})
    assert 'id="preview"' in r.text and "won with the lower score: right?" in r.text
    assert not book.load(path).results  # checked, not written
    fields = {"round": "1", "winner": "0", "s0": "21", "s1": "30", "checked": hidden(r.text)["checked"]}
    r = phone.post("/table/1/report", {**fields, "s1": "3"})  # changed since checked: checked again
    assert "changed since they were checked" in r.text and not book.load(path).results
    r = phone.post("/table/1/report", fields)
    assert "Reported. The hall screen shows it now." in r.text and 'id="reported"' in r.text
    res = book.load(path).final[(1, 1)]
    assert res.scores == (21, 30) and res.winner == 0
    # the second phone, its form made before: told, nothing written twice
    r = other.post("/table/1/check", {"round": "1", "winner": "1", "s0": "3", "s1": "21"})
    assert "has reported round 1 already" in r.text and len(book.load(path).results) == 1
    other.api.close()


def test_a_form_of_a_round_seated_meanwhile_reports_nothing(phone: Browser, path: Path) -> None:
    signed_in(phone, 1)
    for t in (1, 2, 3):
        desk.report(path, t, {sides_of(path, t)[0]: 21, sides_of(path, t)[1]: 5})
    desk.seat_next(path)
    r = phone.post("/table/1/check", {"round": "1", "winner": "0", "s0": "21", "s1": "3"})
    assert "Round 2 was seated meanwhile: this page is for round 2 now, and nothing was reported." in r.text
    assert len(book.load(path).results) == 3


def test_a_table_keeps_its_game_hand_by_hand_and_it_reports_itself(phone: Browser, path: Path) -> None:
    signed_in(phone, 3)
    r = phone.post("/table/3/keep", {"round": "1"})
    assert r.url.path == "/table/3/game/enter" and 'id="hand-form"' in r.text  # signed in with the table's PIN
    assert 'data-base="/table/3/game"' in r.text and 'action="/table/3/game/enter/check#verdict"' in r.text
    assert "← table 3, round 1" in r.text
    us = "Ian &amp; Kim"
    for n in range(1, 12):
        fields = {"bidder": "Ian", "amount": "4", "trump": "S", "mode": "points", "p.high": "Ian & Kim",
                  "p.low": "Ian & Kim", "p.jack": "Ian & Kim", "p.game": "Ian & Kim", "p.all-tricks": "-"}
        r = phone.post("/table/3/game/enter/check", fields)
        assert 'id="preview"' in r.text, messages(r.text)
        r = phone.post("/table/3/game/enter/save", {**fields, **hidden(r.text)})
        assert f"Hand {n} saved." in r.text
        if 'id="night-reported"' in r.text:
            break
        assert (1, 3) not in book.load(path).final
    assert us in r.text and "Back to table 3" in r.text
    res = book.load(path).final[(1, 3)]
    assert res.winner == 0 and res.match == "night-tables/round-1/table-3.toml"
    page = phone.get("/table/3").text
    assert 'id="reported"' in page and "Continue the game" not in page
    assert phone.get("/table/2/game/enter").status_code == 404  # table 2 keeps no game


def test_the_organizer_corrects_declares_forfeit_seats_and_closes(app: Any, path: Path) -> None:
    org = Browser(app)
    page = org.get("/organizer").text
    assert 'name="pin"' in page and "The tables" not in page
    org.post("/organizer/pin", {"pin": PINS[1]})
    assert messages(org.page) == ["That PIN does not open the organizer's page: the organizer's is the one "
                                  "<code>pitchkeeper serve</code> printed."]
    org.post("/organizer/pin", {"pin": ORGANIZER})
    page = org.page
    assert all(f"<code>{p[:3]} {p[3:6]} {p[6:]}</code>" for p in PINS.values())
    assert re.search(r'data-action="seat" disabled', page) and "Waiting for tables 1, 2, 3" in page
    desk.report(path, 1, {sides_of(path, 1)[0]: 21, sides_of(path, 1)[1]: 9})
    desk.report(path, 2, {sides_of(path, 2)[0]: 21, sides_of(path, 2)[1]: 9})
    # table 3's players left: declared forfeit, Ian & Kim credited
    page = org.get("/organizer/round/1/table/3").text
    assert "Declare table 3 forfeit" in page
    r = org.post("/organizer/result", {"round": "1", "table": "3", "forfeit": "1"})
    assert "Who is credited with the game? Tap a side." in r.text and (1, 3) not in book.load(path).final
    r = org.post("/organizer/result", {"round": "1", "table": "3", "forfeit": "1", "winner": "1"})
    assert "Round 1, table 3: declared forfeit." in r.text
    assert book.load(path).final[(1, 3)].forfeit
    # a mistake at table 1: 21-9 was 9-21
    org.get("/organizer/round/1/table/1")
    r = org.post("/organizer/result", {"round": "1", "table": "1", "winner": "1", "s0": "9", "s1": "21"})
    assert "Round 1, table 1: corrected." in r.text and book.load(path).final[(1, 1)].scores == (9, 21)
    r = org.post("/organizer/seat", {"round": "2"})
    assert "Round 2 is seated: the hall screen shows it." in r.text and len(book.load(path).rounds) == 2
    r = org.post("/organizer/seat", {"round": "2"})  # a second tap, from the same page: one round seated
    assert "round 2 is seated already" in r.text.lower() and len(book.load(path).rounds) == 2
    for t in (1, 2, 3):
        desk.report(path, t, {sides_of(path, t)[0]: 21, sides_of(path, t)[1]: 9})
    r = org.post("/organizer/close", {})
    assert "Close the night after round 2?" in r.text
    r = org.post("/organizer/close", {"confirm": "1", "version": book.version(path)})
    assert "The night is closed: the standings are final." in r.text and book.load(path).closed == 2
    assert "Final standings" in org.get("/").text
    org.api.close()


def test_the_organizers_cards_hold_every_tables_pin_and_qr_code(app: Any) -> None:
    org = Browser(app)
    assert "Enter the organizer" in org.get("/organizer/cards").text
    org.get("/organizer")
    org.post("/organizer/pin", {"pin": ORGANIZER})
    cards = org.get("/organizer/cards").text
    assert cards.count('<section class="card"') == 3 and cards.count('<section class="sheet"') == 3
    assert cards.count("<svg") == 3 and "http://127.0.0.1/table/2" in cards
    for pin in PINS.values():
        assert f"PIN <b>{pin[:3]} {pin[3:6]} {pin[6:]}</b>" in cards
    assert re.search(r'<p class="big">3</p>', cards)
    rows = re.findall(r'<tr><td class="num">(\d+)</td>', cards)
    assert max(int(n) for n in rows) == 24  # partnership-pitch plays to 21: a row a point and three more
    org.api.close()


def test_a_form_from_another_site_or_without_its_token_writes_nothing(phone: Browser, path: Path) -> None:
    signed_in(phone, 1)
    fields = {"round": "1", "winner": "0", "s0": "21", "s1": "3"}
    r = phone.post("/table/1/check", fields, origin="http://evil.example")
    assert "sent from another site" in r.text
    r = phone.api("POST", "/table/1/check", data={**fields, "csrf": "forged"})
    assert "older than the server" in r.text and not book.load(path).results
