"""The table's PIN for the evening (spec section 7, "A table, not a file"): generated once and kept in
the data folder (0600) until `serve --new-pin`, with the secret that keeps a page signed in across
restarts of `serve`; `--pin` for one run. Nothing in the data folder can make `serve` run code or
hang: a file that is not a regular file, that others can read, or that holds anything but what it
should is not used, a new one replaces it, and the console says so."""

from __future__ import annotations

import json
import os
import re
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from attacking import HAND, PLAYERS, Serve, cookie_header, pin_header, request, sign_in, start_serve

import pitchkeeper
from pitchkeeper.web.guard import evening_guesses, odds
from pitchkeeper.web.keys import PIN_FILE, SECRET_FILE, table_keys


@pytest.fixture
def log(tmp_path: Path) -> Path:
    path = tmp_path / "m.toml"
    pitchkeeper.Logbook.create(path, "seven-point", PLAYERS, teams={"Us": ["Ann", "Cy"], "Them": ["Bob", "Dee"]})
    return path


def signed_in(s: Serve, cookies: dict[str, str]) -> bool:
    """Whether the entry page shows the hand form to these cookies (else it asks for the PIN)."""
    page = request(s.port, "GET", "/enter", headers={"Cookie": cookie_header(cookies)})
    assert page.status == 200
    return b'action="/enter/pin"' not in page.body


def test_the_pin_is_kept_and_a_signed_in_page_stays_signed_in_across_restarts(_home: Path, log: Path) -> None:
    first = start_serve(_home, log)
    try:
        assert re.search(r"PIN\s+\d{3} \d{3} \d{4}  \(new: the table's from now on; serve --new-pin makes another\)",
                         "\n".join(first.printed))
        phone = sign_in(first.port, first.pin)
        assert signed_in(first, phone)
    finally:
        first.stop()
    for name in (PIN_FILE, SECRET_FILE):  # kept for the owner's eyes only
        assert stat.S_IMODE((_home / name).stat().st_mode) == 0o600
    assert (_home / PIN_FILE).read_text() == first.pin + "\n"
    second = start_serve(_home, log)
    try:
        assert second.pin == first.pin and "(the table's since " in "\n".join(second.printed)
        assert signed_in(second, phone)  # no PIN to type again
        a = request(second.port, "GET", "/api/match")
        assert a.status == 200
        assert request(second.port, "POST", "/api/hands", headers=pin_header(first.pin),
                       body=json.dumps(HAND).encode()).status == 201
    finally:
        second.stop()
    third = start_serve(_home, log, "--new-pin")
    try:
        assert third.pin != first.pin and "(new: " in "\n".join(third.printed)
        assert not signed_in(third, phone)  # a new PIN signs every page out
        assert request(third.port, "POST", "/api/hands", headers=pin_header(first.pin), body=b"{}").status == 401
    finally:
        third.stop()
    fourth = start_serve(_home, log, "--pin", "2468")  # a PIN for one run: the kept one stays
    try:
        text = "\n".join(fourth.printed)
        assert "PIN         2468  (as given)" in text
        assert re.search(r"this PIN could be guessed: [\d,]+ wrong PINs may be tried in an evening", text)
        assert (_home / PIN_FILE).read_text() == third.pin + "\n"
    finally:
        fourth.stop()


def test_new_pin_and_pin_together_are_one_line(_home: Path, log: Path) -> None:
    env = {**os.environ, "PITCHKEEPER_HOME": str(_home)}
    p = subprocess.run([sys.executable, "-m", "pitchkeeper", "serve", "--match", str(log), "--pin", "1234567890",
                        "--new-pin"], capture_output=True, text=True, env=env, timeout=60)
    assert p.returncode == 2 and p.stderr.count("\n") == 1 and "--new-pin" in p.stderr and not p.stdout


GARBAGE = [
    ("__import__('os').system('touch PWNED')\n", "does not hold a PIN"),
    ("12345\n", "does not hold a PIN"),
    ("1234567890 1234567890\n", "does not hold a PIN"),
    (b"\xff\xfe1\x002\x00", "is not text"),
    ("9" * 5000, "is too large"),
]


@pytest.mark.parametrize(("content", "words"), GARBAGE)
def test_a_pin_file_that_holds_anything_else_is_replaced_and_the_console_says_so(
        _home: Path, log: Path, tmp_path: Path, content: str | bytes, words: str) -> None:
    _home.mkdir(parents=True)
    pin_file = _home / PIN_FILE
    pin_file.write_bytes(content if isinstance(content, bytes) else content.encode())
    pin_file.chmod(0o600)
    s = start_serve(_home, log)
    try:
        text = "\n".join(s.printed)
        assert f"note: {pin_file} {words}; not used: a new PIN replaces it" in text
        assert re.fullmatch(r"\d{10}\n", pin_file.read_text()) and pin_file.read_text() == s.pin + "\n"
        assert not list(tmp_path.rglob("PWNED")) and not Path("PWNED").exists()
    finally:
        s.stop()


def test_what_is_not_a_plain_file_of_the_owner_is_never_read(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    folder.mkdir()
    secret_text = tmp_path / "elsewhere.txt"
    secret_text.write_text("1234567890\n")
    secret_text.chmod(0o600)
    cases = {
        "a link": lambda p: p.symlink_to(secret_text),
        "a pipe": lambda p: os.mkfifo(p),  # opening it to read would wait for a writer for ever
        "readable by others": lambda p: (p.write_text("1234567890\n"), p.chmod(0o644)),
    }
    for name, make in cases.items():
        pin = folder / PIN_FILE
        if pin.is_symlink() or pin.exists():
            pin.unlink()
        make(pin)
        keys = table_keys(folder)
        assert keys.pin != "1234567890", name
        assert any(str(pin) in n and "not used: a new PIN replaces it" in n for n in keys.notes), (name, keys.notes)
        assert pin.is_file() and not pin.is_symlink() and stat.S_IMODE(pin.stat().st_mode) == 0o600
        assert pin.read_text() == keys.pin + "\n" and keys.kept
    assert secret_text.read_text() == "1234567890\n"  # the link's target untouched
    # a folder in the way cannot be replaced: the PIN is this run's only, and the console says so
    (folder / PIN_FILE).unlink()
    (folder / PIN_FILE).mkdir()
    keys = table_keys(folder)
    assert not keys.kept and re.fullmatch(r"\d{10}", keys.pin)
    assert any("is a folder" in n for n in keys.notes) and any("lasts for this run of serve only" in n
                                                               for n in keys.notes)
    # kept: the same PIN and secret again, without a word
    (folder / PIN_FILE).rmdir()
    once = table_keys(folder)
    again = table_keys(folder)
    assert (again.pin, again.secret, again.notes) == (once.pin, once.secret, [])
    renewed = table_keys(folder, renew=True)  # --new-pin
    assert renewed.pin != once.pin and renewed.secret != once.secret and renewed.notes == []


def test_a_secret_file_that_is_garbage_is_replaced(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    first = table_keys(folder)
    (folder / SECRET_FILE).write_text("not hex at all\n")
    keys = table_keys(folder)
    assert keys.pin == first.pin and keys.secret != first.secret
    assert keys.notes == [f"{folder / SECRET_FILE} does not hold a session secret; not used: a new session secret "
                          "replaces it"]


def test_the_generated_pin_is_strong_enough_for_the_throttle() -> None:
    """Ten digits: the whole evening's budget of wrong PINs guesses it about once in a million
    evenings; a six-digit PIN would fall about once in a hundred (docs/serve.md)."""
    assert evening_guesses() == 20 + 12 * 900
    assert odds("4821730193") < 1.1e-6
    assert odds("482 173 0193") == odds("4821730193")
    assert 0.005 < odds("424242") < 0.02 and odds("2468") == 1.0
