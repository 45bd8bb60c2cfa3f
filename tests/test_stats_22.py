"""`stats` per player at a table that calls a partner: hands called as partner (and made) and hands played alone,
summed in the test from each hand's verdict; a hand's side is never a player's line; the log index agrees;
teams of two at six (2v2v2) and of three keep their partnership lines."""

from __future__ import annotations

import json
from pathlib import Path

from house_games import ANN_ALONE, FIVE, GAMES, HOUSE, copied, run


def alone_game(tmp_path: Path) -> Path:
    """A second evening: Ann plays alone and is set; Dee calls Eve and makes it."""
    path = tmp_path / "second.toml"
    m = ["--match", str(path)]
    assert run("new", str(HOUSE / "call-partner-5.toml"), *FIVE, *m).exit_code == 0
    r = run(*ANN_ALONE, *m)
    assert r.exit_code == 0, r.output
    r = run("hand", "Dee", "5", "H", "--called", "JH", "--partner", "Eve", "--ace", "Dee", "--jack", "Eve",
            "--off-jack", "Dee", "--high-joker", "Eve", "--low-joker", "Dee", "--ten", "Ann", "--point", "three=Eve",
            "--deuce", "Bob", *m)
    assert r.exit_code == 0, r.output
    return path


def expected(logs: list[Path]) -> dict[str, tuple[int, int, int]]:
    """(partnered, partner made, alone) per player, summed from each hand's judged verdict."""
    out = {p: [0, 0, 0] for p in FIVE}
    for log in logs:
        for h in json.loads(run("judge", "match", str(log), "--json").stdout)["hands"]:
            b = h["bid"]
            if b["partner"]:
                out[b["partner"]][0] += 1
                out[b["partner"]][1] += int(b["made"])
            else:
                out[b["player"]][2] += 1
    return {p: (a, b, c) for p, (a, b, c) in out.items()}


def test_stats_counts_partners_and_lone_bidders_per_player(tmp_path: Path) -> None:
    logs = [GAMES / "call-partner-5.match.toml", alone_game(tmp_path)]
    want = expected(logs)
    assert want["Bob"] == (1, 1, 0) and want["Ann"] == (0, 0, 1) and want["Eve"] == (1, 1, 0)
    out = json.loads(run("stats", *map(str, logs), "--json").stdout)
    got = {ln["name"]: (ln["partnered"], ln["partner_made"], ln["alone"]) for ln in out["players"]}
    assert got == want
    assert out["teams"] == []  # a hand's team is no partnership
    assert {ln["name"] for ln in out["players"]} == set(FIVE)  # never "Ann+Cy"
    text = run("stats", *map(str, logs)).stdout
    assert "partner" in text and "alone" in text
    narrow = " ".join(run("stats", *map(str, logs), width=40).stdout.split())
    assert "Ann games 2 " in narrow and "partner 0 (0 made) alone 1" in narrow  # Ann played alone once
    assert "partner 1 (1 made) alone 0" in narrow  # Bob (and Eve) were called once each, and it was made


def test_the_log_index_gives_the_same_figures(tmp_path: Path) -> None:
    home = Path(json.loads(run("where", "--json").stdout)["matches"])
    home.mkdir(parents=True, exist_ok=True)
    copied("call-partner-5", tmp_path).rename(home / "one.toml")
    alone_game(tmp_path).rename(home / "two.toml")
    direct = json.loads(run("stats", str(home / "one.toml"), str(home / "two.toml"), "--json").stdout)
    for _ in range(2):  # the second time read from the index
        indexed = json.loads(run("stats", "--all", "--json").stdout)
        assert indexed["players"] == direct["players"]


def test_fixed_teams_of_two_at_six_and_of_three_keep_partnership_lines() -> None:
    out = json.loads(run("stats", str(GAMES / "schmier.match.toml"), "--json").stdout)
    assert {tuple(t["members"]) for t in out["teams"]} == {("Ann", "Cy", "Eve"), ("Bob", "Dee", "Fay")}
    assert all(ln["partnered"] == 0 and ln["alone"] == 0 for ln in out["players"])
