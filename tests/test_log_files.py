"""The log is the truth, whatever else sits in the data folder.

Nothing planted in the data folder's cache/ - a pickle that runs code when loaded, a pipe, a link to
/dev/zero, garbage - runs code, hangs a command or changes a score; an edit of the log that keeps its
size and puts its time back is seen at once by `status` and by an open `serve`; a hand recorded, undone
and edited on a long log gives the score of the whole match replayed.
"""

from __future__ import annotations

import json
import os
import pickle
import random
import subprocess
import sys
import zlib
from pathlib import Path
from typing import Any

import pytest
from serving import PIN, Api, Events, Server
from typer.testing import CliRunner

import pitchkeeper
from pitchkeeper.cli import app
from pitchkeeper.game import rulesets
from pitchkeeper.web.app import create_app

runner = CliRunner()
PLAYERS = ["Ann", "Bob", "Cy", "Dee"]
TEAMS = {"Us": ["Ann", "Cy"], "Them": ["Bob", "Dee"]}
QUICK = ["--high", "Us", "--low", "Them", "--jack", "Us", "--game", "Us", "--rest", "none"]


def cli(*args: str) -> Any:
    r = runner.invoke(app, list(args))
    assert r.exit_code == 0, (args, r.stdout, r.stderr)
    return r


def status(log: Path) -> dict[str, Any]:
    return json.loads(cli("status", "--json", "--match", str(log)).stdout)  # type: ignore[no-any-return]


def quick_hand(rng: random.Random, dealer: str) -> dict[str, Any]:
    points = {"high": rng.choice(["Us", "Them"]), "low": rng.choice(["Us", "Them"])}
    for p in ("jack", "off-jack", "game"):
        if rng.random() < 0.7:
            points[p] = rng.choice(["Us", "Them"])
    return {"dealer": dealer, "trump": rng.choice("SHDC"), "bid": {"player": rng.choice(PLAYERS),
                                                                  "amount": rng.randint(2, 4)}, "points": points}


def hand_text(hand: dict[str, Any]) -> str:
    bid, points = hand["bid"], ", ".join(f'{k} = "{v}"' for k, v in hand["points"].items())
    return (f'\n[[hands]]\ndealer = "{hand["dealer"]}"\ntrump = "{hand["trump"]}"\n'
            f'bid = {{ player = "{bid["player"]}", amount = {bid["amount"]} }}\npoints = {{ {points} }}\n')


def long_log(path: Path, n: int, seed: int = 7) -> list[dict[str, Any]]:
    """A seven-point log out of reach of its target with `n` hands written as a person's editor would; the
    hands, as data, for an independent replay (judge_match of a record built here, not read from the log)."""
    pitchkeeper.Logbook.create(path, "seven-point", PLAYERS, TEAMS, "Ann", target=100_000)
    rng = random.Random(seed)
    hands = [quick_hand(rng, PLAYERS[i % 4]) for i in range(n)]
    with open(path, "a", encoding="utf-8") as f:
        f.writelines(hand_text(h) for h in hands)
    return hands


def judged(hands: list[dict[str, Any]]) -> dict[str, int]:
    record = {"rules": "seven-point", "players": PLAYERS, "teams": TEAMS, "first_dealer": "Ann", "target": 100_000,
              "hands": hands}
    return pitchkeeper.judge_match(record)["scores"]  # type: ignore[no-any-return]


# -- a long log, replayed whole by every command


def test_a_hand_recorded_undone_and_edited_on_a_200_hand_log_scores_as_the_whole_match(tmp_path: Path) -> None:
    log = tmp_path / "long.toml"
    hands = long_log(log, 200)
    assert status(log)["scores"] == judged(hands)
    cli("hand", "Ann", "3", "S", *QUICK, "--match", str(log))
    new = {"dealer": PLAYERS[200 % 4], "trump": "S", "bid": {"player": "Ann", "amount": 3},
           "points": {"high": "Us", "low": "Them", "jack": "Us", "game": "Us"}}
    assert status(log)["scores"] == judged([*hands, new]) != judged(hands)
    cli("undo", "-y", "--match", str(log))
    assert status(log)["scores"] == judged(hands)
    cli("edit", "200", "Bob", "4", "H", "--high", "Them", "--low", "Them", "--jack", "Them", "--game", "Them",
        "--rest", "none", "-y", "--match", str(log))
    edited = [*hands[:199], {"dealer": hands[199]["dealer"], "trump": "H", "bid": {"player": "Bob", "amount": 4},
                             "points": {"high": "Them", "low": "Them", "jack": "Them", "game": "Them"}}]
    assert status(log)["scores"] == judged(edited) != judged(hands)
    cli("edit", "3", "Cy", "2", "D", *QUICK, "-y", "--match", str(log))  # a hand far from the end
    edited[2] = {"dealer": hands[2]["dealer"], "trump": "D", "bid": {"player": "Cy", "amount": 2},
                 "points": {"high": "Us", "low": "Them", "jack": "Us", "game": "Us"}}
    assert status(log)["scores"] == judged(edited)
    assert pitchkeeper.Logbook.open(log).state()["scores"] == judged(edited)


# -- an edit that keeps the size and puts the time back


def same_size_edit(log: Path, old: bytes, new: bytes) -> None:
    """Replace `old` by `new` (as long) in place, then put the file's times back."""
    assert len(old) == len(new)
    st, data = log.stat(), log.read_bytes()
    assert data.count(old) == 1
    with open(log, "r+b") as f:
        f.write(data.replace(old, new))
    os.utime(log, ns=(st.st_atime_ns, st.st_mtime_ns))
    now = log.stat()
    assert (now.st_size, now.st_mtime_ns, now.st_ino) == (st.st_size, st.st_mtime_ns, st.st_ino)


def test_a_same_size_edit_with_its_time_put_back_is_seen_by_status_and_an_open_serve(tmp_path: Path) -> None:
    log = tmp_path / "m.toml"
    book = pitchkeeper.Logbook.create(log, "seven-point", PLAYERS, TEAMS, "Ann")
    book.append({"trump": "S", "bid": {"player": "Ann", "amount": 2}, "points": {"high": "Us", "low": "Us",
                                                                                    "jack": "Them", "game": "Them"}})
    api = Api(create_app(log, PIN))
    try:
        before = api("GET", "/api/match").json()
        assert before["scores"] == status(log)["scores"] == {"Us": 2, "Them": 2}
        assert "2" in api("GET", "/").text
        same_size_edit(log, b'jack = "Them"', b'jack = "Us"  ')  # Us took the jack too: 3 to 1
        want = pitchkeeper.judge_match(str(log))["scores"]
        assert want == {"Us": 3, "Them": 1}
        assert status(log)["scores"] == want
        after = api("GET", "/api/match").json()
        assert after["scores"] == want and after["version"] != before["version"]
        same_size_edit(log, b'amount = 2', b'amount = 4')  # Ann bid 4 and took 3: set back
        want = pitchkeeper.judge_match(str(log))["scores"]
        assert want == {"Us": -4, "Them": 1}
        assert api("GET", "/api/match").json()["scores"] == status(log)["scores"] == want
        page = api("GET", "/").text
        assert "-4" in page or "\u22124" in page  # the scoreboard page shows it too
    finally:
        api.close()


def test_an_open_page_hears_of_a_same_size_edit_with_its_time_put_back(tmp_path: Path) -> None:
    """The scoreboard on the TV follows the events: the edit must be one, though it keeps size and time."""
    log = tmp_path / "m.toml"
    book = pitchkeeper.Logbook.create(log, "seven-point", PLAYERS, TEAMS, "Ann")
    book.append({"trump": "S", "bid": {"player": "Ann", "amount": 2}, "points": {"high": "Us", "low": "Us",
                                                                                    "jack": "Them", "game": "Them"}})
    with Server(create_app(log, PIN, poll=0.05)) as server:
        events = Events(server.url)
        try:
            same_size_edit(log, b'jack = "Them"', b'jack = "Us"  ')
            version = pitchkeeper.Logbook(log).version
            assert events.wait(1) == [{"version": version}]
            import httpx

            assert httpx.get(server.url + "/api/match").json()["scores"] == {"Us": 3, "Them": 1}
        finally:
            events.close()


def test_a_reading_is_reused_only_for_the_very_same_bytes(tmp_path: Path) -> None:
    log = tmp_path / "m.toml"
    book = pitchkeeper.Logbook.create(log, "seven-point", PLAYERS, TEAMS, "Ann")
    book.append({"trump": "S", "bid": {"player": "Ann", "amount": 2}, "points": {"high": "Us", "low": "Us"}})
    first = book.read()
    assert book.read() is first  # nothing changed: the same reading
    same_size_edit(log, b'low = "Us"', b'low = "Zz"')  # no such side: the log is now broken
    with pytest.raises(pitchkeeper.PitchError, match="low"):
        book.read()
    same_size_edit(log, b'low = "Zz"', b'low = "Us"')
    again = book.read()
    assert again.state.scores == first.state.scores and again.version == first.version


# -- files planted in the data folder


def old_cache_names(log: Path, rules: str = "seven-point") -> list[str]:
    """Where the caches of earlier versions lived: cache/<two checksums of the real path><suffix>."""
    def key(path: Path) -> str:
        data = os.path.realpath(path).encode("utf-8", "surrogateescape")
        return f"{zlib.crc32(data):08x}{zlib.adler32(data):08x}"

    names = [key(log) + s for s in (".ckpt", ".status", ".tournament.json")]
    names += [key(Path(f)) + ".rules" for f in rulesets.load(rules).chain]
    return [*names, "index.sqlite3", "index.sqlite3-journal", "anything.ckpt", "x.status"]


class Payload:
    """A pickle that writes a file when it is loaded: what a planted checkpoint did."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[Any, ...]:
        return (exec, (f"open({str(self.marker)!r}, 'w').write('ran')",))


def plant(kind: str, at: Path, marker: Path) -> None:
    at.parent.mkdir(parents=True, exist_ok=True)
    if kind == "pickle":
        at.write_bytes(pickle.dumps(Payload(marker)))
    elif kind == "fifo":
        os.mkfifo(at)
    elif kind == "dev-zero":
        os.symlink("/dev/zero", at)
    elif kind == "foreign":
        at.write_bytes(b"\x00\xffnot what pitchkeeper wrote\x80" * 100)
    elif kind == "folder":
        at.mkdir()


def pk(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """A whole command in its own process, as a user runs it; one that waits on a pipe fails the test."""
    env = {**os.environ, "PITCHKEEPER_HOME": str(home), "NO_COLOR": "1", "COLUMNS": "100"}
    return subprocess.run([sys.executable, "-m", "pitchkeeper", *args], env=env, capture_output=True, text=True,
                          timeout=60)


SERVED_READ = ("import json, sys; from pitchkeeper.web.served import Served; "
               "print(json.dumps(Served(sys.argv[1]).snapshot().state['scores']))")


@pytest.mark.parametrize("kind", ["pickle", "fifo", "dev-zero", "foreign", "folder"])
def test_a_file_planted_in_the_cache_runs_nothing_hangs_nothing_and_changes_no_score(tmp_path: Path,
                                                                                      kind: str) -> None:
    home = tmp_path / "home"
    log = home / "matches" / "m.toml"
    log.parent.mkdir(parents=True)
    hands = long_log(log, 12)
    clean = tmp_path / "clean.toml"  # the same match where nothing was planted: what every score must be
    clean.write_bytes(log.read_bytes())
    marker = tmp_path / "ran"
    for name in old_cache_names(log):
        plant(kind, home / "cache" / name, marker)
    steps = [
        ("status", "--json"),
        ("hand", "Ann", "3", "S", *QUICK),
        ("edit", "13", "Bob", "2", "H", *QUICK, "-y"),
        ("undo", "-y"),
        ("hand", "Cy", "4", "D", *QUICK),
        ("status", "--json"),
    ]
    for step in steps:
        for path, where in ((log, home), (clean, tmp_path / "clean-home")):
            p = pk(where, *step, "--match", str(path))
            assert p.returncode == 0, (kind, step, p.stderr)
        got, want = pk(home, "status", "--json", "--match", str(log)), pk(tmp_path / "clean-home", "status",
                                                                           "--json", "--match", str(clean))
        assert json.loads(got.stdout)["scores"] == json.loads(want.stdout)["scores"], (kind, step)
    assert json.loads(got.stdout)["scores"] == pitchkeeper.judge_match(str(log))["scores"]
    assert judged(hands) != json.loads(got.stdout)["scores"]  # the hands recorded above count
    served = subprocess.run([sys.executable, "-c", SERVED_READ, str(log)], capture_output=True, text=True,
                            timeout=60, env={**os.environ, "PITCHKEEPER_HOME": str(home)})
    assert served.returncode == 0, served.stderr
    assert json.loads(served.stdout) == json.loads(got.stdout)["scores"]
    p = pk(home, "stats", "--all", "--json")
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout) == json.loads(pk(home, "stats", "--json", str(log)).stdout)
    assert not marker.exists()
