"""The scoreboard as domain data: one function of the replayed match, the `status --json` contract."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from pitchkeeper.cli import app
from pitchkeeper.game import match, rulesets
from pitchkeeper.game.scoreboard import scoreboard
from pitchkeeper.logbook.book import Logbook

runner = CliRunner()

HEADER = {"rules": "seven-point", "players": ["Ann", "Bob", "Cy", "Dee"], "first_dealer": "Cy",
          "teams": {"Us": ["Ann", "Cy"], "Them": ["Bob", "Dee"]}, "target": 11, "title": "Friday"}


def board(hands: list[dict], **header: object):
    rs = rulesets.load("seven-point")
    record = match.parse_match({**HEADER, **header, "hands": hands})
    return scoreboard(rs, record, match.replay(rs, record), match="m.toml")


def test_before_the_first_hand() -> None:
    b = board([])
    assert (b.scores, b.needed, b.next_dealer, b.last_hand, b.bid_in_play) == (
        {"Us": 0, "Them": 0}, {"Us": 11, "Them": 11}, "Cy", None, None)
    assert (b.hands, b.winner, b.stakes, b.title, b.sides["Us"]) == (0, None, None, "Friday", ["Ann", "Cy"])


def test_the_hole_the_deal_and_the_last_verdict() -> None:
    set_back = {"dealer": "Cy", "trump": "S", "bid": {"player": "Bob", "amount": 4},
                "points": {"high": "Us", "low": "Them", "jack": "Us"}}
    b = board([set_back])
    assert b.scores == {"Us": 2, "Them": -4} and b.in_the_hole == ["Them"]
    assert b.needed == {"Us": 9, "Them": 15} and b.next_dealer == "Dee"
    assert b.bid_in_play == {"side": "Them", "player": "Bob", "amount": 4, "made": False}
    assert b.last_hand is not None and (b.last_hand["number"], b.last_hand["dealer"]) == (1, "Cy")


def test_the_winner_ends_the_deal_and_settles_the_stakes() -> None:
    out = {"dealer": "Cy", "trump": "S", "bid": {"player": "Ann", "amount": 2},
           "points": {"high": "Us", "low": "Us"}}
    b = board([out], target=2, stake=5)
    assert (b.winner, b.won_on_hand, b.next_dealer) == ("Us", 1, None) and b.reason
    assert b.stakes is not None and b.stakes.settled == {"Us": 10, "Them": -10}


def test_status_json_is_the_scoreboard_of_the_log(tmp_path: Path) -> None:
    log = Logbook.create(tmp_path / "m.toml", "seven-point", ["Ann", "Bob", "Cy", "Dee"], title="Friday")
    log.append({"trump": "H", "bid": {"player": "Cy", "amount": 2}, "points": {"high": "Us", "low": "Us"}})
    for _ in range(2):  # the second time from the cache
        r = runner.invoke(app, ["status", "--json", "--match", str(log.path)])
        assert r.exit_code == 0, r.stderr
        assert json.loads(r.stdout) == log.scoreboard().to_json()
    assert list(json.loads(r.stdout)) == ["match", "rules", "title", "target", "reach", "only_bidder", "hands", "sides",
                                          "teams", "scores", "needed", "in_the_hole", "next_dealer", "last_hand",
                                          "winner", "won_on_hand", "reason", "stakes", "warnings"]
