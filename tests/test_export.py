"""export: every format read back and checked against `judge match --json`, and bad input refused."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pitchkeeper.cli import app

DATA = Path(__file__).parent / "data" / "export"
LOGS = sorted(DATA.glob("*.toml"))
runner = CliRunner()


def run(*args: str) -> tuple[int, str, str]:
    r = runner.invoke(app, list(args))
    # stdout_bytes: the runner's .stdout turns CRLF into LF, and CSV lines end in CRLF.
    return r.exit_code, r.stdout_bytes.decode("utf-8"), r.stderr


def judged(path: Path) -> dict:
    code, out, err = run("judge", "match", str(path), "--json")
    assert code == 0, err
    return json.loads(out)


def exported(path: Path, fmt: str) -> str:
    code, out, err = run("export", "--match", str(path), "--format", fmt)
    assert code == 0, err
    return out


def unguard(cell: str) -> str:
    """A CSV name cell as the player wrote it (the export quotes leading = + - @ with an apostrophe)."""
    return cell[1:] if cell[:2] in ("'=", "'+", "'-", "'@") else cell


def guard(name: str) -> str:
    return "'" + name if name.startswith(("=", "+", "-", "@")) else name


# ---------------------------------------------------------------------------
# CSV


def csv_rows(text: str) -> list[dict[str, str]]:
    assert not text.startswith("\ufeff"), "a plain UTF-8 CSV, as tools read it (--bom adds one for Excel)"
    return list(csv.DictReader(io.StringIO(text, newline="")))


@pytest.mark.parametrize("log", LOGS, ids=lambda p: p.stem)
def test_csv_agrees_with_judge_match_field_by_field(log: Path) -> None:
    j = judged(log)
    rows = csv_rows(exported(log, "csv"))
    sides = list(j["scores"])
    assert len(rows) == len(j["hands"])
    for row, hand in zip(rows, j["hands"], strict=True):
        assert int(row["hand"]) == j["hands"].index(hand) + 1
        assert unguard(row["bidder"]) == hand["bid"]["player"]
        assert row["bid"] == str(hand["bid"]["amount"])
        assert row["trump"] == hand["trump"]
        assert row["result"] == ("made" if hand["bid"]["made"] else "set")
        won = {a["point"]: a["side"] for a in hand["awards"]}
        for point in ("high", "low", "jack"):
            assert unguard(row[point]) == won.get(point, "")
        game = hand["game"]
        if game is not None and game["side"] is None:  # a game nobody scored is said, never a blank cell
            counts = "-".join(str(n) for n in game["counts"].values())
            assert row["game"] == (f"tie ({counts}), not scored" if game["counts"] else "tie, not scored")
        elif game is not None:
            assert unguard(row["game"]) == game["side"]
        for s in sides:
            assert int(row[f"{guard(s)} change"]) == hand["delta"][s]
            assert int(row[f"{guard(s)} total"]) == hand["scores"][s]


def test_csv_columns_dealer_and_point_ids_of_the_ruleset() -> None:
    rows = list(csv.reader(io.StringIO(exported(DATA / "partners.toml", "csv"), newline="")))
    # trickster-4 scores high, low, jack, game; the dealers rotate West, North, East, South, West.
    assert rows[0] == ["hand", "dealer", "bidder", "bid", "trump", "high", "low", "jack", "game", "result",
                       "Us change", "Them change", "Us total", "Them total"]
    assert [r[1] for r in rows[1:]] == ["West", "North", "East", "South", "West"]
    assert rows[3] == ["3", "East", "South", "4", "D", "Us", "Them", "Them", "Them", "set", "-4", "3", "-1", "8"]


def test_csv_guards_formulas_and_quotes_names() -> None:
    text = exported(DATA / "hostile-names.toml", "csv")
    lines = text.split("\r\n")
    # The header names the sides: a formula-looking name starts with an apostrophe, a name with a comma
    # and quotes is quoted with doubled quotes, and markup is left as text.
    assert "'=SUM(1+1) change" in lines[0].split(",")
    assert "'@Dee total" in lines[0].split(",")
    assert '"Zoë ""Z"", Jr. change"' in lines[0]
    assert lines[1].startswith("1,<script>alert(1)</script>,'=SUM(1+1),2,S,'=SUM(1+1),")
    # Numbers are not names: a set of -3 stays the number -3, unguarded.
    assert lines[2].split(",")[-8:] == ["0", "0", "-3", "1", "1", "2", "-2", "1"]
    for row in csv.reader(io.StringIO(text, newline="")):
        for cell in row:
            assert not cell.startswith(("=", "+", "@")), cell


# ---------------------------------------------------------------------------
# JSON


@pytest.mark.parametrize("log", LOGS, ids=lambda p: p.stem)
def test_json_is_judge_match_plus_the_logs_own_keys(log: Path) -> None:
    import tomllib

    j = judged(log)
    e = json.loads(exported(log, "json"))
    for key, value in j.items():
        if key == "hands":
            continue
        assert e[key] == value, key
    assert len(e["hands"]) == len(j["hands"])
    for eh, jh in zip(e["hands"], j["hands"], strict=True):
        for key, value in jh.items():
            assert eh[key] == value, key
    header = tomllib.loads(log.read_text(encoding="utf-8"))
    dealers = [h["dealer"] for h in header.pop("hands")]
    assert [h["dealer"] for h in e["hands"]] == dealers
    for key, value in header.items():
        if key not in j:
            assert e[key] == (value.isoformat() if hasattr(value, "isoformat") else value), key


def test_json_keeps_header_keys_such_as_teams_title_and_dates() -> None:
    e = json.loads(exported(DATA / "partners.toml", "json"))
    assert e["teams"] == {"Us": ["North", "South"], "Them": ["East", "West"]}
    assert e["players"] == ["North", "East", "South", "West"]
    assert e["first_dealer"] == "West"
    assert e["created"] == "2024-05-04T20:15:00+00:00"
    assert (e["winner"], e["won_on_hand"]) == ("Them", 5)
    t = json.loads(exported(DATA / "cutthroat.toml", "json"))
    assert t["title"] == "Tuesday cutthroat"


# ---------------------------------------------------------------------------
# Markdown


def md_table(text: str) -> list[list[str]]:
    rows = [ln for ln in text.splitlines() if ln.startswith("|")]
    return [[c.strip() for c in ln.strip().strip("|").replace("\\|", "\0").split("|")] for ln in rows]


@pytest.mark.parametrize("log", LOGS, ids=lambda p: p.stem)
def test_markdown_table_shape(log: Path) -> None:
    j = judged(log)
    table = md_table(exported(log, "md"))
    head, sep, *body = table
    assert len(body) == len(j["hands"])
    assert all(set(c) <= set("-:") and "-" in c for c in sep)
    assert {len(r) for r in table} == {len(head)}, "header, separator and rows have the same column count"
    # The last columns are the running totals with the change, e.g. "10 (+5)".
    last = body[-1][-len(j["scores"]):]
    assert [int(c.split()[0]) for c in last] == list(j["scores"].values())


def test_markdown_result_line_and_escaping() -> None:
    md = exported(DATA / "hostile-names.toml", "md")
    assert "\\<script\\>alert(1)\\</script\\> won on hand 6" in md
    assert "<script>" not in md
    assert md_table(md)[2][:6] == ["1", "\\<script\\>alert(1)\\</script\\>", "=SUM(1+1) 2", "S",
                                   "high =SUM(1+1), low Zoë \"Z\", Jr., jack =SUM(1+1), game: \\<script\\>alert(1)\\</script\\>",
                                   "made"]
    ongoing = exported(DATA / "cutthroat-2.toml", "md")
    assert "The game goes on after 2 hands (must pass 7). Score: Ann -2, Bob 2, Cy 2." in ongoing


def test_markdown_escapes_an_entity_and_a_pipe_in_a_name(tmp_path: Path) -> None:
    from pitchkeeper.reports.export import md_cell

    assert md_cell("Tom &amp; Jerry | &lt;b&gt;") == "Tom \\&amp; Jerry \\| \\&lt;b\\&gt;"
    log = tmp_path / "m.toml"
    r = runner.invoke(app, ["new", "cutthroat-pitch", "A&amp;B", "C|D", "E", "--match", str(log)])
    assert r.exit_code == 0, r.stderr
    r = runner.invoke(app, ["hand", "A&amp;B", "2", "S", "--high", "A&amp;B", "--rest", "none", "--game", "tie", "--low", "E",
                            "--match", str(log)])
    assert r.exit_code == 0, r.stderr
    md = exported(log, "md")
    assert "A\\&amp;B" in md and "C\\|D" in md and "A&amp;B" not in md.replace("A\\&amp;B", "")
    assert {len(row) for row in md_table(md)} == {len(md_table(md)[0])}


# ---------------------------------------------------------------------------
# HTML as text (the browser test renders it)


def test_html_escapes_every_name_and_fetches_nothing() -> None:
    import re

    page = exported(DATA / "hostile-names.toml", "html")
    assert "<script" not in page.lower()
    assert page.count("&lt;script&gt;alert(1)&lt;/script&gt;") >= 6
    assert "Zoë &quot;Z&quot;, Jr." in page
    assert not re.search(r"""(src|href|url)\s*[=(]\s*["']?\s*(https?:)?//""", page, re.I)
    assert "<link" not in page and "@import" not in page
    assert "default-src 'none'; style-src 'unsafe-inline'; img-src data:" in page
    assert "@media print" in page


def test_html_game_breakdown_card_by_card() -> None:
    page = exported(DATA / "partners.toml", "html")
    # Hand 1: Us counted 13 with KC KD KH QS JC JD, Them 11 with JS and 10H.
    assert "KC 3, KD 3, KH 3, QS 2, JC 1, JD 1</td><td class=\"n\">13" in page
    assert "JS 1, 10H 10</td><td class=\"n\">11" in page
    assert page.count('<tr class="hand-row"') == 5
    assert page.count("<polyline") == 2


# ---------------------------------------------------------------------------
# Output, the current match, bad input


def test_output_file_written_whole_and_format_from_suffix(tmp_path: Path) -> None:
    tmp_path = tmp_path / "out"  # (beside the data folder, where caches may be kept)
    tmp_path.mkdir()
    out = tmp_path / "sheet.json"
    code, stdout, err = run("export", "--match", str(DATA / "cutthroat.toml"), "-o", str(out))
    assert code == 0, err
    assert stdout == ""
    assert json.loads(out.read_text(encoding="utf-8"))["winner"] == "Ann"
    assert [p.name for p in tmp_path.iterdir()] == ["sheet.json"], "no temp file left behind"


def test_export_defaults_to_the_current_match(_home: Path) -> None:
    _home.mkdir(parents=True)
    (_home / "current").write_text(str(DATA / "cutthroat-2.toml"), encoding="utf-8")
    code, out, err = run("export", "--format", "csv")
    assert code == 0, err
    assert len(csv_rows(out)) == 2


@pytest.mark.parametrize(("args", "names"), [
    (["--format", "xlsx"], "--format: unknown format 'xlsx'"),
    (["--format", "csv", "--match", "{missing}"], "missing.toml: no such file"),
    (["--format", "csv", "--match", "{corrupt}"], "corrupt.toml: line 3: not valid TOML"),
    (["--format", "html", "--match", "{unknown_key}"], "unknown-key.toml:4: hands[1].deeler: unknown key 'deeler'"),
    (["--match", "{corrupt}"], "--format: cannot tell the format from out.txt"),
])
def test_bad_input_one_line_exit_2_nothing_written(tmp_path: Path, args: list[str], names: str) -> None:
    (tmp_path / "corrupt.toml").write_text('rules = "cutthroat-pitch"\nplayers = ["Ann", "Bob"\n', encoding="utf-8")
    (tmp_path / "unknown-key.toml").write_text(
        'rules = "cutthroat-pitch"\nplayers = ["Ann", "Bob", "Cy"]\n\n[[hands]]\ndeeler = "Ann"\ntrump = "S"\n'
        'bid = { player = "Bob", amount = 2 }\npoints = { high = "Bob", low = "Cy" }\n', encoding="utf-8")
    files = {"missing": tmp_path / "missing.toml", "corrupt": tmp_path / "corrupt.toml",
             "unknown_key": tmp_path / "unknown-key.toml"}
    args = [a.format(**files) for a in args]
    if "--match" not in args:
        args += ["--match", str(DATA / "cutthroat.toml")]
    out = tmp_path / "out.txt"
    code, stdout, err = run("export", *args, "-o", str(out))
    assert code == 2
    assert stdout == ""
    assert err.count("\n") == 1 and names in err, err
    assert "Traceback" not in err
    assert not out.exists()


def test_bom_is_for_excel_only_on_request(tmp_path: Path) -> None:
    log = LOGS[0]
    plain = CliRunner().invoke(app, ["export", "--match", str(log), "--format", "csv"])
    excel = CliRunner().invoke(app, ["export", "--match", str(log), "--format", "csv", "--bom"])
    assert plain.exit_code == excel.exit_code == 0
    assert excel.stdout == "\ufeff" + plain.stdout and not plain.stdout.startswith("\ufeff")
