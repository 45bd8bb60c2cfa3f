"""The evening at the command line (issue 19): a tied game said everywhere - `history`, `status` and every
export -, a sale of the pitch named, `hand --help` fitted to the match at hand, the table's next game
started by `new` and `use` (the current-match pointer moved under its lock), and the Logbook refusing a
write made against a stale view."""

from __future__ import annotations

import csv
import functools
import io
import json
import threading
from pathlib import Path

import cli_runs
import pytest
from typer.testing import CliRunner

import pitchkeeper
from pitchkeeper.cli import app
from pitchkeeper.logbook import shelf, store
from pitchkeeper.logbook.book import NotNext, Stale

runner = CliRunner()
TIE = "game: tie (13-13), not scored"


run = functools.partial(cli_runs.ok, columns=100)


@pytest.fixture
def tied(tmp_path: Path) -> Path:
    """trickster-4: hand 1 a tied game, counted card by card (13 each); hand 2 a game won 14-12."""
    log = tmp_path / "tied.toml"
    run("new", "trickster-4", "Ann", "Bob", "Cy", "Dee", "--dealer", "Dee", "--match", str(log))
    run("hand", "Ann", "2", "S", "--cards", "Us: 10H KC 9S 2S 3H 4H 5H 6H 7H 8H 9H 2C",
        "--cards", "Them: 10D KD 3D 4D 5D 6D 7D 8D 9D 2D 3C 4C", "--dealt", "Bob: 2S", "--match", str(log))
    run("hand", "Bob", "2", "H", "--cards", "Us: 10H AC 9S 2S 3H 4H 5H 6H 7H 8H 9H 2C",
        "--cards", "Them: 10D QD 3D 4D 5D 6D 7D 8D 9D 2D 3C 4C", "--dealt", "Ann: 3H", "--match", str(log))
    return log


@pytest.mark.parametrize("columns", [40, 100])
def test_history_says_a_tied_game_and_its_count(tied: Path, columns: int) -> None:
    out = " ".join(run("history", "--match", str(tied), columns=columns).split())  # lines wrapped at 40 joined
    assert TIE in out
    assert "game: Us (14-12)" in out  # a won game with its count, winner's first


def test_status_says_the_last_hands_game(tied: Path) -> None:
    pitchkeeper.Logbook.open(tied).drop_last()
    assert TIE in run("status", "--match", str(tied))


def test_every_export_says_the_tied_game(tied: Path) -> None:
    def export(fmt: str) -> str:
        return run("export", "--format", fmt, "--match", str(tied))

    rows = list(csv.DictReader(io.StringIO(export("csv"))))
    assert rows[0]["game"] == "tie (13-13), not scored" and rows[1]["game"] == "Us"
    hands = json.loads(export("json"))["hands"]
    assert hands[0]["game_line"] == TIE and hands[0]["game"] == {"counts": {"Us": 13, "Them": 13}, "side": None}
    assert TIE in export("md") and TIE in export("html")
    text = run("export", "--format", "text", "--match", str(pitchkeeper.Logbook.open(tied).path))
    assert "game: Us (14-12)" in text  # the last hand, every point said
    pitchkeeper.Logbook.open(tied).drop_last()
    assert TIE in export("text")


@pytest.fixture
def sold(tmp_path: Path) -> Path:
    log = tmp_path / "ap.toml"
    run("new", "auction-pitch", "Ann", "Bob", "Cy", "Dee", "--dealer", "Dee", "--match", str(log))
    run("hand", "Cy", "3", "S", "--auction", "Ann:pass Bob:2 Cy:3 Dee:pass Ann:sell", "--high", "Cy", "--low", "Cy",
        "--jack", "Bob", "--game", "Dee", "--match", str(log))
    run("hand", "Bob", "2", "S", "--auction", "Bob:pass Cy:2 Dee:pass Ann:pass Bob:2", "--high", "Bob", "--low",
        "Bob", "--jack", "none", "--game", "Bob", "--match", str(log))
    return log


def test_a_sale_is_named_in_history_and_the_exports(sold: Path) -> None:
    wide = run("history", "--match", str(sold))
    assert "Cy 3 bought from Ann" in wide and "Bob 2 kept from Cy" in wide
    narrow = " ".join(run("history", "--match", str(sold), columns=40).split())
    assert "Ann sold the pitch to Cy at 3" in narrow and "Bob kept the pitch at 2, refusing Cy" in narrow
    hands = json.loads(run("export", "--format", "json", "--match", str(sold)))["hands"]
    assert [h["sale"] for h in hands] == ["Ann sold the pitch to Cy at 3", "Bob kept the pitch at 2, refusing Cy"]
    assert "Ann sold the pitch to Cy at 3" in run("export", "--format", "md", "--match", str(sold))
    assert 'auction = ["Ann:pass", "Bob:2", "Cy:3", "Dee:pass", "Ann:sell"]' in sold.read_text()  # as typed


def test_hand_help_shows_the_points_of_the_match_at_hand(tmp_path: Path, _home: Path) -> None:
    def options(*args: str) -> set[str]:
        text = run(*args, "--help")
        return {w for w in text.split() if w.startswith("--") and w.rstrip(",") == w}

    everything = options("hand")  # no match at all: every point of the contract
    assert {"--high", "--off-jack", "--high-joker", "--ten", "--all-tricks"} <= everything
    run("new", "solo-pitch", "Ann", "Bob", "Cy")
    for command in ("hand", "edit"):
        solo = options(command)
        assert {"--high", "--low", "--jack", "--game", "--point", "--cards"} <= solo
        assert not solo & {"--off-jack", "--high-joker", "--ten", "--all-tricks"}
        assert "This match (solo-pitch" in run(command, "--help")
    seven = tmp_path / "seven.toml"
    pitchkeeper.Logbook.create(seven, "seven-point", ["Ann", "Bob", "Cy", "Dee"])
    shown = options("hand", "--match", str(seven))
    assert {"--off-jack", "--high-joker", "--low-joker"} <= shown and "--ten" not in shown
    # hidden from the help only: an option of another ruleset still reads (and the match refuses it in words)
    r = runner.invoke(app, ["hand", "Ann", "2", "S", "--ten", "Ann", "--rest", "none", "--high", "Ann", "--low", "Ann",
                            "--game", "Ann"])
    assert r.exit_code == 2 and "solo-pitch has no point 'ten'" in r.stderr


def test_new_and_use_move_the_tables_current_match(_home: Path) -> None:
    run("new", "seven-point", "Ann", "Bob", "Cy", "Dee", "--target", "3")
    first = store.current_match()
    run("hand", "Ann", "3", "S", "--high", "Us", "--low", "Ann", "--jack", "Us", "--game", "Us", "--rest", "none")
    run("new", "--rematch")
    second = store.current_match()
    assert second is not None and second != first
    header = pitchkeeper.Logbook.open(second).read().loaded.data
    assert header["first_dealer"] == "Bob" and header["rematch_of"] == str(first.resolve())  # the deal passed on
    assert first is not None
    run("use", first.stem)
    assert store.current_match() == first


def test_a_write_against_a_stale_view_is_refused_under_the_lock(tmp_path: Path) -> None:
    log = pitchkeeper.Logbook.create(tmp_path / "m.toml", "seven-point", ["Ann", "Bob", "Cy", "Dee"])
    hand = {"trump": "S", "bid": {"player": "Ann", "amount": 2},
            "points": {"high": "Us", "low": "Ann", "jack": "Them", "game": "Us"}}
    seen = log.version
    results: list[str] = []

    def phone() -> None:  # two phones that saw the same log enter the same hand at once
        try:
            pitchkeeper.Logbook.open(log.path).append(hand, expect=seen, number=1)
            results.append("saved")
        except Stale as e:
            results.append(f"stale {e.version}")

    threads = [threading.Thread(target=phone) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results.count("saved") == 1 and len(log.state()["hands"]) == 1
    assert {r for r in results if r != "saved"} == {f"stale {log.version}"}
    before = log.path.read_bytes()
    with pytest.raises(NotNext, match="hand 3 is not the next hand"):
        log.append(hand, number=3)
    for write in (lambda: log.replace(1, hand, expect=seen), lambda: log.drop_last(expect=seen)):
        with pytest.raises(Stale):
            write()
    with pytest.raises(pitchkeeper.PitchError, match="expected the version"):
        log.append(hand, expect=12)  # type: ignore[arg-type]
    assert log.path.read_bytes() == before
    log.append(hand, expect=log.version, number=2)
    assert len(log.state()["hands"]) == 2


def test_two_next_games_at_once_start_one(_home: Path) -> None:
    first = shelf.start("seven-point", ["Ann", "Bob", "Cy", "Dee"], target=3)
    first.append({"trump": "S", "bid": {"player": "Ann", "amount": 3},
                  "points": {"high": "Us", "low": "Ann", "jack": "Us", "game": "Us"}})
    seen = first.version
    results: list[str] = []

    def tap() -> None:
        try:
            shelf.next_game(expect=seen)
            results.append("started")
        except Stale:
            results.append("stale")

    threads = [threading.Thread(target=tap) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == ["stale", "stale", "stale", "started"]
    assert len(shelf.kept()) == 2
