"""`pitchkeeper serve --tournament FILE` as an organizer starts it, and the table cards that go with it: the
addresses and PINs it prints, the night's PINs kept in the data folder for the owner only (the same on a
restart, printed on the cards; new with --new-pin), the hall screen and a table's result over a real
process, Host checked and wrong PINs throttled as at the table; `tournament new --tiebreak`."""

from __future__ import annotations

import json
import os
import re
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from processes import stop_serve
from test_serve_cli import start

from pitchkeeper.web.keys import NIGHTS, night_file

PLAYERS = "Ann,Bob,Cy,Dee,Eve,Fay,Gus,Hal"


@pytest.fixture
def env(_home: Path) -> dict[str, str]:
    return {**os.environ, "PITCHKEEPER_HOME": str(_home), "PYTHONUNBUFFERED": "1"}


def cli(env: dict[str, str], *args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "pitchkeeper", *map(str, args)], capture_output=True, text=True,
                          env=env)


@pytest.fixture
def night(tmp_path: Path, env: dict[str, str]) -> Path:
    path = tmp_path / "night.toml"
    assert cli(env, "tournament", "new", path, "-r", "partnership-pitch", "-f", "progressive", "-p", PLAYERS,
               "--rounds", "2").returncode == 0
    assert cli(env, "tournament", "seat", path).returncode == 0
    return path


def printed_pins(out: list[str]) -> tuple[str, dict[int, str]]:
    text = "\n".join(out)
    org = re.search(r"organizer's PIN\s+(\d{3}) (\d{3}) (\d{4})", text)
    tables = dict(re.findall(r"(\d+): (\d{3} \d{3} \d{4})", text.split("tables' PINs", 1)[1].splitlines()[0]))
    assert org, text
    return "".join(org.groups()), {int(k): v.replace(" ", "") for k, v in tables.items()}


def test_serve_tournament_prints_the_night_and_keeps_its_pins(night: Path, env: dict[str, str], _home: Path) -> None:
    p, out = start(["--tournament", str(night), "--port", "0"], env)
    try:
        text = "\n".join(out)
        base = re.search(r"hall screen (http://127\.0\.0\.1:\d+)/", text)
        assert base and f"{base.group(1)}/organizer" in text and f"{base.group(1)}/table/N" in text
        assert "new PINs: print the table cards" in text and "listening on this machine only" in text
        organizer, pins = printed_pins(out)
        assert sorted(pins) == [1, 2] and len({organizer, *pins.values()}) == 3
        url = base.group(1)
        hall = httpx.get(url + "/")
        assert hall.status_code == 200 and 'data-part="/hall"' in hall.text
        seat = httpx.get(url + "/api/tournament").json()["seat"]["tables"][1]
        score = {"&".join(seat["sides"][0]): 21, "&".join(seat["sides"][1]): 12}
        r = httpx.post(url + "/api/tables/2/result", json={"score": score}, headers={"X-Pitchkeeper-Pin": pins[1]})
        assert r.status_code == 401  # another table's PIN: a wrong PIN there
        r = httpx.post(url + "/api/tables/2/result", json={"score": score}, headers={"X-Pitchkeeper-Pin": pins[2]})
        assert r.status_code == 201 and r.json()["reported"] == [2]
        # the rules of the table's serve: a foreign Host is refused, wrong PINs are throttled
        assert httpx.get(url + "/api/tournament", headers={"Host": "evil.example"}).status_code == 400
        codes = [httpx.post(url + "/api/tables/1/result", json={"score": score},
                            headers={"X-Pitchkeeper-Pin": f"{n:010d}"}).status_code for n in range(7)]
        assert codes[:4] == [401] * 4 and codes[4:] == [429] * 3  # table 1's PIN on table 2 was the first guess
    finally:
        stop_serve(p)
    kept = night_file(_home, night)
    assert kept.parent == _home / NIGHTS and stat.S_IMODE(kept.stat().st_mode) == 0o600
    assert kept.read_text().split() == ["organizer", organizer, "1", pins[1], "2", pins[2]]
    # a restart: the same PINs (the cards already printed stay right)
    p, out = start(["--tournament", str(night), "--port", "0"], env)
    stop_serve(p)
    assert printed_pins(out) == (organizer, pins) and "new PINs" not in "\n".join(out)
    # the cards print those PINs, with the QR code of each table's page
    cards = night.parent / "cards.html"
    r = cli(env, "tournament", "cards", night, "-o", cards, "--url", "http://192.168.1.20:8765")
    assert r.returncode == 0 and "with each table's PIN for the night" in r.stderr
    page = cards.read_text(encoding="utf-8")
    for n, pin in pins.items():
        assert f"http://192.168.1.20:8765/table/{n}" in page and f"PIN <b>{pin[:3]} {pin[3:6]} {pin[6:]}</b>" in page
    assert page.count("<svg") == 2
    # --new-pin: new ones for the night
    p, out = start(["--tournament", str(night), "--port", "0", "--new-pin"], env)
    stop_serve(p)
    again = printed_pins(out)
    assert again[0] != organizer and set(again[1].values()).isdisjoint(pins.values())


def test_serve_tournament_refuses_what_makes_no_night(night: Path, env: dict[str, str], tmp_path: Path) -> None:
    r = cli(env, "serve", "--tournament", tmp_path / "missing.toml")
    assert r.returncode == 2 and "missing.toml" in r.stderr and "Traceback" not in r.stderr
    r = cli(env, "serve", "--tournament", night, "--match", tmp_path / "m.toml")
    assert r.returncode == 2 and "give one of them" in r.stderr
    r = cli(env, "tournament", "cards", night, "-o", tmp_path / "c.html", "--url", "192.168.1.20")
    assert r.returncode == 2 and "expected an address such as http://" in r.stderr


def test_a_tiebreak_order_is_set_when_the_tournament_starts(tmp_path: Path, env: dict[str, str]) -> None:
    path = tmp_path / "t.toml"
    r = cli(env, "tournament", "new", path, "-r", "partnership-pitch", "-f", "progressive", "-p", PLAYERS,
            "--tiebreak", "wins,points")
    assert r.returncode == 0 and 'tiebreak = ["wins", "points"]' in path.read_text(encoding="utf-8")
    assert cli(env, "tournament", "seat", path).returncode == 0
    s = json.loads(cli(env, "tournament", "standings", path, "--json").stdout)
    assert s["tiebreak"] == ["wins", "points"]
    assert "ranked by wins, then points" in cli(env, "tournament", "standings", path).stdout
    r = cli(env, "tournament", "new", tmp_path / "u.toml", "-r", "partnership-pitch", "-f", "progressive", "-p",
            PLAYERS, "--tiebreak", "wins,luck")
    assert r.returncode == 2 and "--tiebreak[2]: expected points, wins, head-to-head or opponents-wins" in r.stderr


def test_ctrl_c_stops_the_night_at_once_with_pages_open(night: Path, env: dict[str, str]) -> None:
    p, out = start(["--tournament", str(night), "--port", "0", "--pin", "8642097531"], env)
    url = re.search(r"hall screen (http://127\.0\.0\.1:\d+)/", "\n".join(out))
    assert url
    base = url.group(1)
    assert httpx.post(base + "/api/tables/1/game", headers={"X-Pitchkeeper-Pin": "8642097531"}).status_code == 201
    streams = [httpx.Client(timeout=30) for _ in range(2)]
    opened = [c.stream("GET", base + path).__enter__() for c, path in zip(
        streams, ("/api/events", "/table/1/game/api/events"), strict=True)]  # the hall's and a game page's
    assert all(r.status_code == 200 for r in opened)
    t0 = time.monotonic()
    p.send_signal(signal.SIGINT)
    p.wait(10)
    took = time.monotonic() - t0
    err = p.stderr.read() if p.stderr else ""
    stop_serve(p)
    for c in streams:
        c.close()
    assert took < 3 and "Traceback" not in err and "CancelledError" not in err, err
