"""A hand entered trick by trick on the phone (serve's entry page, a third way beside who won each point
and the cards each side took): each trick's cards in playing order, nobody saying who led - the library
works the leaders out and judges the hand; a mistake is said at its trick, in the page's words."""

from __future__ import annotations

import html
import random
import re
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest
from serving import OFFJACK, PLAY, PLAYERS, TEAMS, TRICK_TAPS, new_log, offjack_table
from solver_ref import after, begin, random_game, random_line
from test_serve_pages import Phone, hidden, messages, token

import pitchkeeper
from pitchkeeper.game import rulesets


@pytest.fixture
def log(tmp_path: Path) -> Path:
    return offjack_table(tmp_path)


@pytest.fixture
def phone(log: Path) -> Iterator[Phone]:
    with Phone(log) as p:
        yield p


def test_a_hand_typed_trick_by_trick_is_judged_and_saved_with_its_leaders(phone: Phone, log: Path) -> None:
    phone.login()
    assert len(re.findall(r'name="t\.\d"', phone.page)) == 6  # a row per trick: the ruleset's hand size
    r = phone.check(TRICK_TAPS)
    assert r.status_code == 200 and not messages(r.text) and "Ann bid 3 in ♠" in r.text
    assert not tomllib.loads(log.read_text()).get("hands")  # nothing written before Save
    r = phone.save(TRICK_TAPS)
    assert "Hand 1 saved." in r.text
    kept = tomllib.loads(log.read_text())["hands"][0]
    assert kept["tricks"] == OFFJACK["tricks"]  # the leaders worked out as they were played
    judged = pitchkeeper.judge_hand(PLAY / "seven-point-offjack.toml")
    assert pitchkeeper.Logbook.open(log).state()["hands"][0]["awards"] == judged["awards"]


@pytest.mark.parametrize(("change", "at", "words"), [
    ({"t.6": "5D KS JC AS"}, "t-6", "Trick 6: AS was already played in trick 1"),
    ({"t.3": ""}, "t-3", "Trick 3: No cards yet, and trick 6 has some"),
    ({"t.2": "5C 2H KC 10C 9C"}, "t-2", "Trick 2: More cards than players"),
    ({"t.4": "3D AD 8D 9X"}, "t-4", "Trick 4: '9X' is not a card"),
    ({"t.1": "Bob:3S 2S HJ AS"}, "t-1", "Trick 1: Led by Bob, but the pitcher (Ann) leads this trick"),
    ({f"t.{k}": "" for k in range(1, 7)}, "tricks", "The tricks: Type the cards of each trick"),
])
def test_a_mistake_in_a_trick_is_said_at_that_trick_and_nothing_is_written(phone: Phone, log: Path,
                                                                           change: dict[str, str], at: str,
                                                                           words: str) -> None:
    phone.login()
    before = log.read_bytes()
    r = phone.check({**TRICK_TAPS, **change})
    assert r.status_code == 200 and log.read_bytes() == before and 'id="preview"' not in r.text
    [said] = messages(r.text)
    assert html.unescape(said).startswith(words), said
    assert re.search(rf'class="[^"]*has-error[^"]*" aria-invalid="true" id="q-{at}"', r.text)
    assert re.search(r'name="t.1" value="([^"]*)"', r.text).group(1) == TRICK_TAPS["t.1"] or "t.1" in change  # kept


def test_correcting_a_hand_recorded_trick_by_trick_shows_its_tricks(phone: Phone, log: Path) -> None:
    phone.login()
    phone.check(TRICK_TAPS)
    phone.save(TRICK_TAPS)
    page = phone.api("GET", "/enter/hand/1").text
    assert re.search(r'value="tricks" id="mode-tricks" checked', page)
    shown = dict(re.findall(r'name="(t\.\d)" value="([^"]*)"', page))
    assert shown == {k: v for k, v in TRICK_TAPS.items() if k.startswith("t.")}
    phone.page = page
    answers = {**TRICK_TAPS, "amount": "4", "number": "1"}
    r = phone.check(answers)
    assert "Hand 1, corrected" in r.text and not messages(r.text)
    phone.post("/enter/save", {"csrf": token(phone.page), **answers, **hidden(phone.page)})
    assert tomllib.loads(log.read_text())["hands"][0]["bid"]["amount"] == 4


def test_trump_only_play_says_how_a_fold_is_typed(tmp_path: Path) -> None:
    log = new_log(tmp_path / "t.toml", {"rules": "trickster-10", "players": PLAYERS, "teams": TEAMS, "first_dealer": "Cy"})
    p = Phone(log)
    try:
        p.login()
        assert "Bob:fold" in p.page and len(re.findall(r'name="t\.\d"', p.page)) == 6
        fold = tomllib.loads((PLAY / "trickster-10-fold.toml").read_text())
        taps = {"bidder": "Ann", "amount": "5", "trump": "S", "mode": "tricks",
                **{f"t.{k}": " ".join(t["cards"]) for k, t in enumerate(fold["tricks"], 1)}}
        r = p.check(taps)
        assert not messages(r.text) and "Save hand 1" in r.text
        p.save(taps)
        assert [t["leader"] for t in tomllib.loads(log.read_text())["hands"][0]["tricks"]] == ["Ann", "Ann", "Cy"]
    finally:
        p.api.close()


HOUSE = Path(__file__).resolve().parent.parent / "examples" / "house-rules"


def test_a_kitty_laid_away_is_asked_with_the_tricks_where_it_counts(tmp_path: Path) -> None:
    """widow-counts-for-game: the bidder's lay-away counts for game, so a hand typed trick by trick asks it
    too, beside the tricks (not only with the cards each side took)."""
    rng = random.Random(11)
    g = random_game(rulesets.load(HOUSE / "widow-counts-for-game.toml"), rng, max_players=4)
    while len(g.players) != 4:
        g = random_game(g.ruleset, rng, max_players=4)
    st = begin(g)
    for p, c in random_line(g, rng, st):
        st = after(g, st, p, c)
    log = new_log(tmp_path / "widow.toml", {"rules": str(HOUSE / "widow-counts-for-game.toml"),
                                            "players": list(g.players), "teams": g.teams or {}, "first_dealer": g.dealer})
    p = Phone(log)
    try:
        p.login()
        assert 'id="q-kitty"' in p.page and 'class="kitty-q' in p.page
        held = {c for cs in g.held.values() for c in cs}
        laid = " ".join(sorted(g.ruleset.deck - held)[:4])
        taps = {"bidder": g.bidder, "amount": str(g.ruleset.settings["bidding"]["min"]), "trump": g.trump,
                "mode": "tricks", **{f"t.{k}": " ".join(c for _, c in plays) for k, (_, plays) in enumerate(st.done, 1)}}
        r = p.check(taps)
        assert html.unescape(messages(r.text)[0]).startswith(f"Laid away: No answer yet: the cards {g.bidder} laid away")
        assert re.search(r'class="kitty-q has-error" aria-invalid="true" id="q-kitty"', r.text)
        r = p.check({**taps, "discard": laid})
        assert not messages(r.text) and "Save hand 1" in r.text
        p.save({**taps, "discard": laid})
        kept = tomllib.loads(log.read_text())["hands"][0]
        assert kept["discard"] == laid.split() and len(kept["tricks"]) == len(st.done)
    finally:
        p.api.close()
