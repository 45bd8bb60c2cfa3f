"""`pitchkeeper tournament` the way an organiser meets it: --json for each format, results from match
logs and by hand, bad results refused with the file byte for byte unchanged, the printable pages."""

from __future__ import annotations

import itertools
import json
import os
import re
import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

from pitchkeeper.cli import app

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "data" / "tournament"
KITCHEN = ROOT / "examples" / "kitchen-table.toml"  # Us (Ann & Cy) beat Them (Bob & Dee) 21 to 22
runner = CliRunner()


def run(*args: str | Path) -> tuple[int, str, str]:
    r = runner.invoke(app, [str(a) for a in args])
    return r.exit_code, r.stdout, r.stderr


def ok(*args: str | Path) -> str:
    code, out, err = run(*args)
    assert code == 0, err
    return out


def js(*args: str | Path) -> dict:
    return json.loads(ok(*args, "--json"))


def new(path: Path, *args: str) -> Path:
    ok("tournament", "new", path, *args)
    return path


def refused(path: Path, *args: str | Path, says: str) -> None:
    """Bad input: one line naming the problem, exit 2, the tournament file byte for byte as it was."""
    before = path.read_bytes()
    code, out, err = run(*args)
    assert code == 2, (out, err)
    assert err.count("\n") == 1 and err.startswith("error: ") and "Traceback" not in err
    assert says in err, err
    assert path.read_bytes() == before


def _score(seat: dict, scores: list[int]) -> str:
    return ",".join(f"{'&'.join(side)}={sc}" for side, sc in zip(seat["sides"], scores, strict=True))


def play_round(path: Path, scores_of=lambda t: [21, 10 + t % 7]) -> dict:
    """Seat a round and record its tables: the first one alone, the others in one batch."""
    rnd = js("tournament", "seat", path)
    args = []
    for seat in rnd["tables"]:
        args += ["--table", str(seat["table"]), "--score", _score(seat, scores_of(seat["table"]))]
    ok("tournament", "record", path, *args[:4])
    if args[4:]:
        ok("tournament", "record", path, *args[4:])
    return rnd


def test_progressive_with_players_that_do_not_fill_the_tables(tmp_path: Path) -> None:
    names = [f"P{i:02}" for i in range(14)]  # three tables of four, two sit out each round
    t = new(tmp_path / "night.toml", "--rules", "partnership-pitch", "--format", "progressive",
            "--players", ",".join(names), "--rounds", "4")
    rounds = [play_round(t) for _ in range(4)]
    sat = {p: 0 for p in names}
    for prev, nxt in itertools.pairwise(rounds):
        where = {p: s["table"] for s in nxt["tables"] for side in s["sides"] for p in side}
        for s in prev["tables"]:
            win, lose = s["sides"]  # the first side scored 21 and won
            up = 1 if s["table"] == 1 else s["table"] - 1
            down = len(prev["tables"]) if s["table"] == 1 else s["table"]
            assert all(where[p] == up for p in win if p in where)
            assert all(where[p] == down for p in lose if p in where)
    for r in rounds:
        seated = [p for s in r["tables"] for side in s["sides"] for p in side]
        assert sorted(seated + r["sitting_out"]) == sorted(names) and len(r["sitting_out"]) == 2
        for p in r["sitting_out"]:
            sat[p] += 1
    assert max(sat.values()) - min(sat.values()) <= 1
    s = js("tournament", "standings", t)
    assert s["round"] == 4 and s["finished"] is True and "teams" not in s
    tally = {p: 0 for p in names}
    for r in rounds:
        for seat in r["tables"]:
            for side, sc in zip(seat["sides"], [21, 10 + seat["table"] % 7], strict=True):
                for p in side:
                    tally[p] += sc
    assert {row["name"]: row["points"] for row in s["players"]} == tally
    top = max(tally.values())
    assert {row["name"] for row in s["players"] if row["rank"] == 1} == {p for p, v in tally.items() if v == top}


def test_round_robin_odd_teams_and_team_standings(tmp_path: Path) -> None:
    teams = "Ann&Bob,Cy&Dee,Eve&Fay,Gus&Hal,Ian&Jo"
    t = new(tmp_path / "league.toml", "-r", "partnership-pitch", "-f", "round-robin", "--teams", teams)
    met = []
    for _ in range(5):
        rnd = play_round(t, lambda table: [15, 22])  # the second side wins
        met += [frozenset("&".join(side) for side in s["sides"]) for s in rnd["tables"]]
        assert len(rnd["sitting_out"]) == 2
    assert len(met) == len(set(met)) == 10
    s = js("tournament", "standings", t)
    assert s["finished"] is True
    assert sorted(r["name"] for r in s["teams"]) == sorted(teams.split(","))
    assert sum(r["wins"] for r in s["teams"]) == 10 and all(r["games"] == 4 for r in s["teams"])
    code, out, _err = run("tournament", "seat", t, "--json")  # finished: shows the last round
    assert code == 0 and json.loads(out)["round"] == 5


def test_swiss_individual_play_never_repeats_a_pairing(tmp_path: Path) -> None:
    players = [f"X{i}" for i in range(7)]
    t = new(tmp_path / "swiss.toml", "-r", "solo-pitch", "-f", "swiss", "-p", ",".join(players), "--rounds", "5")
    seen: set[frozenset[str]] = set()
    for _ in range(5):
        rnd = play_round(t, lambda table: [7, table % 5])
        for s in rnd["tables"]:
            assert [len(side) for side in s["sides"]] == [1, 1]
            pair = frozenset(side[0] for side in s["sides"])
            assert pair not in seen
            seen.add(pair)
    s = js("tournament", "standings", t)
    assert "teams" not in s and s["players"][0]["rank"] == 1 and len(s["players"]) == 7


def test_bad_results_are_refused_and_the_file_is_unchanged(tmp_path: Path) -> None:
    t = new(tmp_path / "t.toml", "-r", "partnership-pitch", "-f", "progressive", "-p", "Ann,Bob,Cy,Dee,Eve,Fay,Gus,Hal")
    rec = ("tournament", "record", t)
    refused(t, *rec, "--table", "1", "--score", "Ann&Cy=21,Bob&Dee=14", says="no round has been seated")
    ok("tournament", "seat", t)
    ok(*rec, "--table", "1", "--score", "Ann&Cy=21,Bob&Dee=14")
    refused(t, *rec, "--table", "1", "--score", "Ann&Cy=21,Bob&Dee=14", says="already recorded")
    refused(t, *rec, "--table", "3", "--score", "Ann&Cy=21,Bob&Dee=14", says="round 1 has tables 1-2")
    refused(t, *rec, "--table", "2", "--score", "Ann&Cy=21,Bob&Dee=14", says="not seated at table 2")
    refused(t, *rec, "--table", "2", "--score", "Eve&Gus=21,Fay&Zed=14", says="Zed not seated at table 2")
    refused(t, *rec, "--table", "2", "--score", "Eve&Gus=21,Fay&Hal=21", says="a tie")
    refused(t, *rec, "--table", "2", "--score", "Eve&Gus=21", says="no score for Fay&Hal")
    refused(t, *rec, "--table", "2", "--score", "Eve&Gus=twenty,Fay&Hal=3", says="not a whole number")
    refused(t, *rec, "--table", "2", "--match", tmp_path / "nowhere.toml", says="no such match log")
    refused(t, *rec, "--table", "2", "--match", KITCHEN, says="not those seated at table 2")
    # a batch is written whole or not at all: table 2's good sheet is not kept when table 1's is refused
    refused(t, *rec, "--table", "2", "--score", "Eve&Gus=21,Fay&Hal=3", "--table", "1", "--score", "Ann&Cy=21,Bob&Dee=4",
            says="table 1 of round 1 is already recorded")
    refused(t, *rec, "--table", "2", "--score", "Eve&Gus=21,Fay&Hal=3", "--table", "2", "--score", "Eve&Gus=21,Fay&Hal=3",
            says="table 2 is given twice")
    refused(t, *rec, "--table", "2", "--table", "1", "--score", "Eve&Gus=21,Fay&Hal=3", says="give them in pairs")
    code, out, _ = run("tournament", "seat", t, "--json")  # table 2 still playing: the round is shown, not seated
    assert code == 0 and json.loads(out)["round"] == 1


def _log_for(tmp_path: Path, names: dict[str, str], name: str) -> Path:
    text = KITCHEN.read_text(encoding="utf-8")
    for old, new_name in names.items():
        text = re.sub(rf"\b{old}\b", new_name, text)
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


def test_results_from_the_tables_match_logs(tmp_path: Path) -> None:
    t = new(tmp_path / "t.toml", "-r", "seven-point", "-f", "progressive", "-p", "Ann,Bob,Cy,Dee,Eve,Fay,Gus,Hal")
    ok("tournament", "seat", t)
    logs = tmp_path / "round1"
    logs.mkdir()
    one = _log_for(logs, {}, "table1.toml")
    _log_for(logs, {"Ann": "Eve", "Bob": "Fay", "Cy": "Gus", "Dee": "Hal"}, "table2.toml")
    # the kitchen table's players, seated as partners the other way round, are refused
    swapped = _log_for(tmp_path, {"Cy": "Xx", "Bob": "Cy"}, "swapped.toml")
    swapped.write_text(swapped.read_text(encoding="utf-8").replace("Xx", "Bob"), encoding="utf-8")
    refused(t, "tournament", "record", t, "--table", "1", "--match", swapped, says="is not a side seated at table 1")
    unfinished = tmp_path / "unfinished.toml"
    text = one.read_text(encoding="utf-8")
    unfinished.write_text(text[: text.rindex("[[hands]]")], encoding="utf-8")
    refused(t, "tournament", "record", t, "--table", "1", "--match", unfinished, says="the game is not over")
    s = json.loads(ok("tournament", "record", t, "--round-from", logs, "--json"))
    rows = {r["name"]: r for r in s["players"]}
    # Us (Ann & Cy) won with 21 against 22: the log's winner counts, not the higher score
    assert rows["Ann"]["wins"] == 1 and rows["Ann"]["points"] == 21 and rows["Bob"]["points"] == 22
    assert rows["Bob"]["wins"] == 0 and rows["Bob"]["rank"] == 1
    text = t.read_text(encoding="utf-8")
    assert 'match = "round1/table1.toml"' in text and 'match = "round1/table2.toml"' in text
    refused(t, "tournament", "record", t, "--round-from", logs, says="already recorded")


def test_a_correction_re_ranks_and_keeps_the_seated_round(tmp_path: Path) -> None:
    t = new(tmp_path / "t.toml", "-r", "partnership-pitch", "-f", "progressive", "-p", "Ann,Bob,Cy,Dee,Eve,Fay,Gus,Hal")
    play_round(t, lambda table: [23 - table, 10])
    r2 = js("tournament", "seat", t)
    before = js("tournament", "standings", t)
    assert {r["name"] for r in before["players"] if r["rank"] == 1} == {"Ann", "Cy"}  # 22 at table 1
    refused(t, "tournament", "record", t, "--round", "1", "--table", "1", "--score", "Ann&Cy=10,Bob&Dee=30",
            says="already recorded")
    ok("tournament", "record", t, "--round", "1", "--table", "1", "--score", "Ann&Cy=10,Bob&Dee=30", "--force")
    after = js("tournament", "standings", t)
    assert {r["name"] for r in after["players"] if r["rank"] == 1} == {"Bob", "Dee"}
    assert js("tournament", "seat", t) == r2  # the seated round stays as seated
    assert "correction = true" in t.read_text(encoding="utf-8")
    assert js("tournament", "standings", t, "--after", "0")["players"][0]["points"] == 0
    ok("tournament", "standings", t, "--json", "-o", tmp_path / "s.json")
    assert json.loads((tmp_path / "s.json").read_text(encoding="utf-8")) == after
    ok("tournament", "check", t)


def test_a_hand_kept_file_is_checked_and_read(tmp_path: Path) -> None:
    league = DATA / "league.toml"
    out = ok("tournament", "check", league)
    assert "round-robin, 6 players, 2 of 3 round(s) seated, 2 complete" in out
    s = js("tournament", "standings", league)
    assert [(r["name"], r["rank"], r["wins"], r["points"]) for r in s["teams"]] == [
        ("Ann&Bob", 1, 1, 40), ("Eve&Fay", 2, 1, 22), ("Cy&Dee", 3, 0, 15)]  # wins, then points
    code, _, err = run("tournament", "check", DATA / "twice.toml")
    assert code == 2 and "twice.toml: results[2]: table 1 of round 1 is recorded twice" in err
    code, _, err = run("tournament", "standings", DATA / "misspelt.toml")
    assert code == 2 and "misspelt.toml: results[1].score: unknown key 'score' - did you mean 'scores'?" in err


def test_next_round_of_a_hand_kept_league_is_the_one_left(tmp_path: Path) -> None:
    t = tmp_path / "league.toml"
    t.write_bytes((DATA / "league.toml").read_bytes())
    r3 = js("tournament", "seat", t)
    assert r3["sitting_out"] == ["Ann", "Bob"] and r3["tables"][0]["sides"] == [["Cy", "Dee"], ["Eve", "Fay"]]


def test_table_cards_and_standings_pages(tmp_path: Path) -> None:
    hostile = ['<b>Ann</b>', 'Bob "the" Cat', "Cy and Co", "Dee</title><script>x()</script>", "Eve", "Fay", "Gus", "Hal",
               "Ian"]
    t = new(tmp_path / "t.toml", "-r", "partnership-pitch", "-f", "progressive", "-p", ",".join(hostile),
            "--title", "Hall <night>")
    ok("tournament", "seat", t, "--cards", tmp_path / "cards.html")
    page = (tmp_path / "cards.html").read_text(encoding="utf-8")
    assert page.count('<section class="card"') == 2
    assert "page-break-after: always" in page and "@media print" in page
    assert "&lt;b&gt;Ann&lt;/b&gt; &amp; Cy and Co" in page  # Ann's side, names escaped
    assert "Dee&lt;/title&gt;&lt;script&gt;" in page and "<script>" not in page and "<b>Ann" not in page
    assert "Sitting out this round: Ian" in page
    assert not re.search(r"(src|href)=|<link|@import", page)  # no external asset: the page prints offline
    # the only address is each table's page, as text and as a QR code (an inline SVG), beside its PIN
    assert set(re.findall(r"https?://[^<\s\"]+", page)) == {m for m in re.findall(r"http://[\w.:\[\]-]+/table/[12]",
                                                                                page)}
    assert page.count("<svg") == 2 and len(re.findall(r'<p class="pin">PIN <b>\d{3} \d{3} \d{4}</b>', page)) == 2
    ok("tournament", "record", t, "--table", "1", "--score",
       "<b>Ann</b>&Cy and Co=21,Bob \"the\" Cat&Dee</title><script>x()</script>=3")
    ok("tournament", "standings", t, "--format", "html", "-o", tmp_path / "standings.html", "--refresh", "30")
    page = (tmp_path / "standings.html").read_text(encoding="utf-8")
    assert "<title>Hall &lt;night&gt;: standings</title>" in page and 'http-equiv="refresh" content="30"' in page
    assert "<td>&lt;b&gt;Ann&lt;/b&gt;</td><td class=\"num\">21</td>" in page
    csv_text = ok("tournament", "standings", t, "--format", "csv")
    assert csv_text.splitlines()[0] == "kind,rank,name,points,wins,games"
    assert "player,1,<b>Ann</b>,21,1,1" in csv_text.splitlines()
    refused(t, "tournament", "new", tmp_path / "u.toml", "-r", "partnership-pitch", "-f", "progressive", "-p",
            "A&B,C,D,E", says="a name may not hold '&'")


def test_tables_reporting_at_once_never_lose_a_result(tmp_path: Path) -> None:
    """Sixteen organisers' writes at the same moment: each waits for the lock, none is lost."""
    import threading

    from pitchkeeper.tournament import book
    from pitchkeeper.tournament.model import Seating

    t = tmp_path / "t.toml"
    book.create(t, "partnership-pitch", "progressive", [f"P{i:02}" for i in range(64)])
    rnd, _ = book.seat(t)
    errors: list[BaseException] = []

    def report(seat: Seating) -> None:
        try:
            book.record(t, seat.table, scores={"&".join(seat.sides[0]): 21, "&".join(seat.sides[1]): seat.table})
        except BaseException as e:  # pragma: no cover - reported below
            errors.append(e)

    threads = [threading.Thread(target=report, args=(s,)) for s in rnd.tables]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert not errors
    done = book.load(t)
    assert done.complete(done.rounds[0]) and len(done.results) == 16
    assert sorted(r.scores[1] for r in done.results) == list(range(1, 17))


WRITER = """
import sys
from pitchkeeper.tournament import book
path = sys.argv[1]
t = book.load(path)
for seat in t.rounds[-1].tables:
    if (1, seat.table) in t.final:
        continue  # recorded before an earlier writer was killed
    book.record(path, seat.table, scores={"&".join(seat.sides[0]): 21, "&".join(seat.sides[1]): seat.table % 20})
"""


def test_a_writer_killed_at_any_moment_leaves_a_whole_file(tmp_path: Path) -> None:
    """Killed mid-round, again and again: the file always reads, and only ever grew by whole results."""
    import random
    import signal
    import time

    from pitchkeeper.tournament import book

    t = tmp_path / "t.toml"
    book.create(t, "partnership-pitch", "progressive", [f"P{i:03}" for i in range(400)])
    book.seat(t)
    rng = random.Random(13)
    for _ in range(5):
        before = t.read_text(encoding="utf-8")
        proc = subprocess.Popen([sys.executable, "-c", WRITER, str(t)], stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL)
        time.sleep(rng.uniform(0.2, 0.8))
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        after = t.read_text(encoding="utf-8")
        assert after.startswith(before)
        done = book.load(t)  # whole and valid: every check of the file passes
        assert all(len(r.scores) == 2 for r in done.results)


def test_an_edit_by_hand_is_seen_at_once_even_with_the_same_size_and_time(tmp_path: Path) -> None:
    """Standings come from the file as it is now: a score corrected by hand (same size, its modification time
    put back) changes them on the next command."""
    league = tmp_path / "league.toml"
    league.write_bytes((DATA / "league.toml").read_bytes())
    before = js("tournament", "standings", league)
    assert {r["name"]: r["points"] for r in before["teams"]}["Ann&Bob"] == 40
    st = league.stat()
    text = league.read_text(encoding="utf-8")
    assert text.count('"Ann&Bob" = 18') == 1
    league.write_text(text.replace('"Ann&Bob" = 18', '"Ann&Bob" = 10'), encoding="utf-8")
    os.utime(league, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert league.stat().st_size == st.st_size and league.stat().st_mtime_ns == st.st_mtime_ns
    after = js("tournament", "standings", league)
    assert {r["name"]: r["points"] for r in after["teams"]}["Ann&Bob"] == 32
