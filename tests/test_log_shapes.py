"""A log is changed only where it can be changed safely, and a program's mistake is bad input.

TOML lets a person write the hands of a log in shapes other than `[[hands]]` blocks: an inline array
(`hands = [ { ... } ]`), a quoted key, dotted keys. Every writer - `hand`, `edit`, `undo`, the API's
append, replace and drop_last, serve's POST - refuses such a log with one line that says what is wrong
and how to fix it, exit status 2 (or a 400), and the file byte for byte as it was; nothing ever breaks
it. A bad argument to `Logbook` (None, a number, bytes) is a PitchError, never a TypeError.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from serving import PIN, Api
from typer.testing import CliRunner

import pitchkeeper
from pitchkeeper.cli import app
from pitchkeeper.errors import PitchError
from pitchkeeper.web.app import create_app

runner = CliRunner()
PLAYERS = ["Ann", "Bob", "Cy", "Dee"]
TEAMS = {"Us": ["Ann", "Cy"], "Them": ["Bob", "Dee"]}
ONE = 'dealer = "Ann", trump = "S", bid = { player = "Bob", amount = 2 }, points = { high = "Them", low = "Them" }'
TWO = 'dealer = "Bob", trump = "H", bid = { player = "Cy", amount = 2 }, points = { high = "Us", low = "Us" }'
QUOTED_BLOCK = """
[["hands"]]
dealer = "Ann"
trump = "S"
bid = { player = "Bob", amount = 2 }
points = { high = "Them", low = "Them" }
"""
HAND = {"trump": "D", "bid": {"player": "Cy", "amount": 2}, "points": {"high": "Us", "low": "Them", "game": "Us"}}
QUICK = ["Cy", "2", "D", "--high", "Us", "--low", "Them", "--game", "Us", "--jack", "Us", "--rest", "none"]


def header(tmp_path: Path) -> str:
    path = tmp_path / "header.toml"
    pitchkeeper.Logbook.create(path, "seven-point", PLAYERS, TEAMS, "Ann")
    return path.read_text(encoding="utf-8")


def with_hands(text: str, top: str = "", tail: str = "") -> str:
    """The header with `top` among its top-level keys (before the first table) and `tail` at the end."""
    at = text.index("first_dealer")
    return text[:at] + top + text[at:] + tail


# Logs whose hands a text change could break (or change another hand): each still reads, or is refused
# by every reader in one line; every writer refuses them. (shape, how the loader reads it: hands or None)
SHAPES: dict[str, tuple[Callable[[str], str], int | None]] = {
    "inline array": (lambda h: with_hands(h, f"hands = [ {{ {ONE} }}, {{ {TWO} }} ]\n"), 2),
    "inline array on many lines": (lambda h: with_hands(h, f"hands = [\n  {{ {ONE} }},\n  # a comment\n]\n"), 1),
    "empty array with a comment": (lambda h: with_hands(h, "hands = [  # none yet\n]\n"), 0),
    "quoted key": (lambda h: with_hands(h, f'"hands" = [ {{ {ONE} }} ]\n'), 1),
    "quoted table header": (lambda h: with_hands(h, "", QUOTED_BLOCK), 1),
    "dotted keys": (lambda h: with_hands(h, 'hands.first = "Ann"\n'), None),
    "a table": (lambda h: with_hands(h, "", '\n[hands.first]\ndealer = "Ann"\n'), None),
}


@pytest.fixture(params=sorted(SHAPES))
def shaped(request: pytest.FixtureRequest, tmp_path: Path) -> tuple[Path, int | None]:
    make, hands = SHAPES[request.param]
    path = tmp_path / "odd.toml"
    path.write_text(make(header(tmp_path)), encoding="utf-8")
    data = tomllib.loads(path.read_text(encoding="utf-8"))  # valid TOML, every one
    assert "hands" in data
    return path, hands


def refused_alike(path: Path, before: bytes, message: str, hands: int | None) -> None:
    assert "\n" not in message and "Traceback" not in message
    if hands is None:  # refused by every reader: the loader's own words
        assert "hands: expected [[hands]] tables" in message
    else:
        assert "cannot change safely: write each hand as a [[hands]] block" in message
        assert message.endswith("(nothing was written)") and message.count("nothing was written") == 1
    assert path.read_bytes() == before


def test_every_writer_of_the_cli_refuses_a_log_whose_hands_are_not_blocks(shaped: tuple[Path, int | None]) -> None:
    path, hands = shaped
    before = path.read_bytes()
    commands = [["hand", *QUICK], ["undo", "-y"], ["edit", "1", "--jack", "Us", "-y"]]
    for args in commands:
        r = runner.invoke(app, [*args, "--match", str(path)])
        if hands == 0 and args[0] != "hand":
            continue  # nothing to undo or edit: said in its own words
        err = r.stderr.strip().splitlines()
        assert r.exit_code == 2 and len(err) == 1, (args, r.stdout, r.stderr)
        refused_alike(path, before, err[0], hands)
    if hands:  # what can be read still is: status draws it
        r = runner.invoke(app, ["status", "--json", "--match", str(path)])
        assert r.exit_code == 0 and r.stdout.count('"hands":') == 1


def test_every_writer_of_the_api_refuses_a_log_whose_hands_are_not_blocks(shaped: tuple[Path, int | None]) -> None:
    path, hands = shaped
    before = path.read_bytes()
    book = pitchkeeper.Logbook(path)
    writes: list[Callable[[], Any]] = [lambda: book.append(HAND), lambda: book.record(HAND, dry_run=True)]
    if hands:
        writes += [lambda: book.replace(1, HAND), lambda: book.drop_last(), lambda: book.prepare_drop(),
                   lambda: book.prepare_replace(1, HAND)]
    for write in writes:
        with pytest.raises(PitchError) as e:
            write()
        refused_alike(path, before, str(e.value), hands)


def test_serve_refuses_to_add_to_a_log_whose_hands_are_an_inline_array(tmp_path: Path) -> None:
    path = tmp_path / "odd.toml"
    path.write_text(with_hands(header(tmp_path), f"hands = [ {{ {ONE} }} ]\n"), encoding="utf-8")
    before = path.read_bytes()
    api = Api(create_app(path, PIN))
    try:
        assert api("GET", "/api/match").json()["scores"] == {"Us": 0, "Them": 2}
        for method, url, body in (("POST", "/api/hands", HAND), ("PUT", "/api/hands/1", HAND),
                                  ("DELETE", "/api/hands/last", None)):
            r = api(method, url, json=body, headers={"X-Pitchkeeper-Pin": PIN})
            assert r.status_code == 400, (method, r.text)
            assert "inline array" in r.json()["error"] and "\n" not in r.json()["error"]
            assert path.read_bytes() == before
    finally:
        api.close()


def test_a_rematch_of_a_log_written_as_an_inline_array_is_a_log_of_blocks(tmp_path: Path) -> None:
    path = tmp_path / "odd.toml"
    path.write_text(with_hands(header(tmp_path), f"hands = [ {{ {ONE} }} ]\n"), encoding="utf-8")
    before = path.read_bytes()
    new = pitchkeeper.Logbook(path).rematch(tmp_path / "next.toml", force=True)
    assert path.read_bytes() == before
    assert new.append(HAND)["scores"] == {"Us": 2, "Them": 1}
    assert new.drop_last()["scores"] == {"Us": 0, "Them": 0}


@pytest.mark.parametrize("empty", ["hands = []\n", "hands = [ ]  # none yet\n", "hands = [\n]\n"])
def test_an_empty_array_of_hands_gives_way_to_the_first_block(tmp_path: Path, empty: str) -> None:
    """What a TOML writer makes of a match with no hands: the first hand replaces it."""
    path = tmp_path / "empty.toml"
    path.write_text(with_hands(header(tmp_path), empty), encoding="utf-8")
    r = runner.invoke(app, ["hand", *QUICK, "--match", str(path)])
    assert r.exit_code == 0, r.stderr
    text = path.read_text(encoding="utf-8")
    assert "hands = [" not in text and tomllib.loads(text)["hands"][0]["bid"] == {"player": "Cy", "amount": 2}


def test_a_hands_header_hidden_in_a_note_is_never_cut(tmp_path: Path) -> None:
    """A note that holds a line `[[hands]]` (in a multi-line string): undo would cut the wrong text."""
    path = tmp_path / "m.toml"
    book = pitchkeeper.Logbook.create(path, "seven-point", PLAYERS, TEAMS, "Ann")
    book.append({**HAND, "dealer": "Ann"})
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace('dealer = "Ann"\n', 'dealer = "Ann"\nnote = """\n[[hands]]\n"""\n', 1),
                    encoding="utf-8")
    before = path.read_bytes()
    for write in (lambda: book.drop_last(), lambda: book.append(HAND), lambda: book.replace(1, HAND)):
        with pytest.raises(PitchError, match=r"\[\[hands\]\] line") as e:
            write()
        assert "\n" not in str(e.value) and path.read_bytes() == before


# -- a program's mistakes


def test_a_bad_argument_to_the_logbook_is_a_pitch_error(tmp_path: Path) -> None:
    path = tmp_path / "m.toml"
    bad: list[tuple[Callable[[], Any], str]] = [
        (lambda: pitchkeeper.Logbook.create(None, "seven-point", PLAYERS), "path"),  # type: ignore[arg-type]
        (lambda: pitchkeeper.Logbook.create(b"m.toml", "seven-point", PLAYERS), "path"),  # type: ignore[arg-type]
        (lambda: pitchkeeper.Logbook.create("", "seven-point", PLAYERS), "path"),
        (lambda: pitchkeeper.Logbook.create("m\0.toml", "seven-point", PLAYERS), "path"),
        (lambda: pitchkeeper.Logbook.create(path, None, PLAYERS), "rules"),  # type: ignore[arg-type]
        (lambda: pitchkeeper.Logbook.create(path, 7, PLAYERS), "rules"),  # type: ignore[arg-type]
        (lambda: pitchkeeper.Logbook.create(path, "seven-point", None), "players"),  # type: ignore[arg-type]
        (lambda: pitchkeeper.Logbook.create(path, "seven-point", "Ann Bob"), "players"),
        (lambda: pitchkeeper.Logbook.create(path, "seven-point", [1, 2, 3, 4]), "players"),  # type: ignore[list-item]
        (lambda: pitchkeeper.Logbook.create(path, "seven-point", PLAYERS, 5), "teams"),  # type: ignore[arg-type]
        (lambda: pitchkeeper.Logbook.create(path, "seven-point", PLAYERS, {"Us": 5}), "teams"),  # type: ignore[dict-item]
        (lambda: pitchkeeper.Logbook.create(path, "seven-point", PLAYERS, [("Us",)]), "teams"),  # type: ignore[list-item]
        (lambda: pitchkeeper.Logbook.create(path, "seven-point", PLAYERS, {1: ["Ann"]}), "teams"),  # type: ignore[dict-item]
        (lambda: pitchkeeper.Logbook.create(path, "seven-point", PLAYERS, None, 3), "first_dealer"),  # type: ignore[arg-type]
        (lambda: pitchkeeper.Logbook.create(path, "seven-point", PLAYERS, None, None, 7), "title"),  # type: ignore[arg-type]
        (lambda: pitchkeeper.Logbook.create(path, "seven-point", PLAYERS, target="21"), "target"),  # type: ignore[arg-type]
        (lambda: pitchkeeper.Logbook.create(path, "seven-point", PLAYERS, stake=True), "stake"),
        (lambda: pitchkeeper.Logbook.open(1), "path"),  # type: ignore[arg-type]
        (lambda: pitchkeeper.Logbook.open(None), "path"),  # type: ignore[arg-type]
        (lambda: pitchkeeper.Logbook(["m.toml"]), "path"),  # type: ignore[arg-type]
    ]
    for call, where in bad:
        with pytest.raises(PitchError) as e:
            call()
        assert (e.value.where or "").startswith(where) and "\n" not in str(e.value), (where, str(e.value))
    assert not path.exists() and os.listdir(tmp_path) == []
    book = pitchkeeper.Logbook.create(path, "seven-point", PLAYERS)
    before = path.read_bytes()
    for call in (lambda: book.append(None), lambda: book.append(3), lambda: book.replace("1", HAND),
                 lambda: book.replace(None, HAND), lambda: book.commit("the change"),
                 lambda: book.rematch(3, force=True), lambda: book.rematch(first_dealer=4, force=True)):
        with pytest.raises(PitchError) as e:
            call()  # type: ignore[no-untyped-call]
        assert "\n" not in str(e.value)
    assert path.read_bytes() == before
