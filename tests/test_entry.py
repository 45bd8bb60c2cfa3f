"""HandEntry: typed answers -> the log's hand table, in one place for `hand`, `edit`, `play` and the web."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from pitchkeeper.cli import app
from pitchkeeper.errors import PitchError
from pitchkeeper.logbook.book import Logbook
from pitchkeeper.logbook.entry import NOBODY, HandEntry

runner = CliRunner()


@pytest.fixture()
def log(tmp_path: Path) -> Logbook:
    return Logbook.create(tmp_path / "m.toml", "seven-point", ["Ann", "Bob", "Cy", "Dee"])


def table(log: Logbook, entry: HandEntry, base: dict | None = None) -> dict:
    t = entry.to_table(log.load()[0], base)
    t.pop("recorded")
    return t


def test_names_prefixes_and_words_are_written_exactly(log: Logbook) -> None:
    e = HandEntry(bidder="bo", amount="3", trump="spades", points={"high": "us", "low": "them", "ja": "cy",
                                                                   "ga": NOBODY, "off-jack": "-"},
                  auction="Bob:3 cy:pass dee:pass Ann:pass")
    assert table(log, e) == {"dealer": "Ann", "trump": "S", "bid": {"player": "Bob", "amount": 3},
                             "auction": ["Bob:3", "Cy:pass", "Dee:pass", "Ann:pass"],
                             "points": {"high": "Us", "low": "Them", "jack": "Cy"}}


def test_nobody_is_an_answer_and_a_point_left_out_is_not(log: Logbook) -> None:
    asked = HandEntry(bidder="Ann", amount=2, trump="H", require_every_point=True,
                      points={"high": "Us", "low": "Us", "jack": NOBODY, "off-jack": NOBODY, "high-joker": NOBODY,
                              "low-joker": NOBODY, "game": NOBODY})
    assert table(log, asked)["points"] == {"high": "Us", "low": "Us"}
    unanswered = HandEntry(bidder="Ann", amount=2, trump="H", require_every_point=True,
                           points={"high": "Us", "low": "Us", "jack": NOBODY})
    with pytest.raises(PitchError, match="no answer for off-jack, high-joker, low-joker, game"):
        table(log, unanswered)
    assert table(log, HandEntry(bidder="Ann", amount=2, trump="H", points={"high": "Us", "low": "Us"}))["points"] \
        == {"high": "Us", "low": "Us"}


def test_an_edit_keeps_what_it_does_not_give(log: Logbook) -> None:
    base = {"dealer": "Bob", "trump": "S", "bid": {"player": "Ann", "amount": 3}, "note": "close",
            "points": {"high": "Us", "low": "Them"}}
    assert table(log, HandEntry(points={"jack": "Them", "low": NOBODY}), base) == {
        "dealer": "Bob", "trump": "S", "bid": {"player": "Ann", "amount": 3}, "points": {"high": "Us", "jack": "Them"},
        "note": "close"}
    assert table(log, HandEntry(amount="smudge", cards={"us": "AS JS", "Them": ["2S"]}, dealt={"Ann": "2S"}),
                 base)["captured"] == {"Us": ["AS", "JS"], "Them": ["2S"]}
    with pytest.raises(PitchError, match=r'^--dealt: 2S goes to the player dealt it: .* --dealt "Ann: 2S"'):
        table(log, HandEntry(amount="smudge", cards={"us": "AS JS", "Them": ["2S"]}), base)  # asked as the option


def test_the_form_names_its_own_fields_in_messages(log: Logbook) -> None:
    web = {"bidder": "bidder", "amount": "bid amount", "points": "point {}", "point": "point"}
    with pytest.raises(PitchError, match=r"^bid amount: 'lots' is not a bid"):
        table(log, HandEntry(bidder="Ann", amount="lots", trump="S", points={"high": "Us"}, labels=web))
    with pytest.raises(PitchError, match=r"^point low: 'Zed' is not a team or player"):
        table(log, HandEntry(bidder="Ann", amount=2, trump="S", points={"high": "Us", "low": "Zed"}, labels=web))


def test_play_and_hand_write_the_same_block(tmp_path: Path) -> None:
    """`hand` from its options and `play` from its answers give the same hand table."""
    texts = []
    for way in ("hand", "play"):
        m = str(tmp_path / f"{way}.toml")
        assert runner.invoke(app, ["new", "seven-point", "Ann", "Bob", "Cy", "Dee", "--match", m]).exit_code == 0
        if way == "hand":
            r = runner.invoke(app, ["hand", "Cy", "2", "H", "--high", "Us", "--low", "Them", "--rest", "none", "--game", "tie",
                                    "--match", m])
        else:
            answers = "\nCy\n2\nH\np\nUs\nThem\n-\n-\n-\n-\n-\ny\nq\n"  # Enter: no auction
            r = runner.invoke(app, ["play", "--piped", "--match", m], input=answers)
        assert r.exit_code == 0, r.output
        texts.append([ln for ln in Path(m).read_text(encoding="utf-8").splitlines()
                      if not ln.startswith(("recorded", "created"))])
    assert texts[0] == texts[1]
