"""`pitchkeeper tournament`: seat the room, take every table's result, rank the players (spec section 8).

Each command parses, calls pitchkeeper.tournament and shows what it returns; the tournament file
is written only by the library (atomic, locked, nothing written on bad input).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from pitchkeeper.cli import JsonOpt, emit_json, topic
from pitchkeeper.cli.library import may_write_over
from pitchkeeper.errors import PitchError
from pitchkeeper.logbook import paths, writing
from pitchkeeper.tournament import book, html, standings

commands = topic()

FileArg = Annotated[Path, typer.Argument(help="The tournament file (TOML).", show_default=False)]


def _split(text: str | None, sep: str = ",") -> list[str]:
    return [x.strip() for x in (text or "").split(sep) if x.strip()]


@commands.command("new")
def new_cmd(
    file: FileArg,
    rules: Annotated[str, typer.Option("--rules", "-r", help="Ruleset: a built-in name or a .toml file.",
                                       show_default=False)],
    fmt: Annotated[str, typer.Option("--format", "-f", help="progressive, round-robin or swiss.",
                                     show_default=False)],
    players: Annotated[str | None, typer.Option("--players", "-p", help="\"Ann,Bob,Cy,...\" (the draw's order).",
                                                show_default=False)] = None,
    teams: Annotated[str | None, typer.Option("--teams", "-t", help="Fixed teams: \"Ann&Bob,Cy&Dee,...\".",
                                              show_default=False)] = None,
    rounds: Annotated[int | None, typer.Option("--rounds", "-n", help="Rounds to play (default: a full round "
                                               "robin; enough for Swiss; 6 for progressive).", show_default=False)] = None,
    seed: Annotated[str, typer.Option("--seed", help="order (as listed) or ratings (strongest first, from every "
                                      "game kept).")] = "order",
    title: Annotated[str, typer.Option("--title", help="A name for the event.")] = "",
    tiebreak: Annotated[str | None, typer.Option("--tiebreak", help="The figures the standings rank by, in order: "
                                                 "points, wins, head-to-head, opponents-wins (default: the format's "
                                                 "own, docs/tournaments.md).", show_default=False)] = None,
) -> None:
    """Start a tournament file."""
    team_list = [_split(tm, "&") for tm in _split(teams)]
    names = _split(players)
    if not names and not team_list:
        raise PitchError("name the players (--players \"Ann,Bob,...\") or the teams (--teams \"Ann&Bob,...\")",
                         "--players")
    if names and team_list:
        in_teams = [p for tm in team_list for p in tm]
        stray = [p for p in in_teams if p not in names]
        if stray:
            raise PitchError(f"{', '.join(stray)} in a team but not in --players", "--teams")
    if seed not in ("order", "ratings"):
        raise PitchError(f"expected order or ratings, got {seed!r}", "--seed")
    ratings = None
    if seed == "ratings":
        from pitchkeeper.reports import ratings as rating_mod

        ratings = {r.name: r.ordinal for r in rating_mod.rate_kept()}
    t = book.create(file, rules, fmt, names, team_list, rounds, seed, title, ratings,
                    tiebreak=_split(tiebreak) if tiebreak is not None else None)
    units = f"{len(t.teams)} teams" if t.teams else f"{len(t.players)} players"
    sys.stdout.write(f"started {file}: {t.format}, {t.rules}, {units}, {t.planned} round(s); "
                     f"seat the first round with: pitchkeeper tournament seat {file}\n")


@commands.command("seat")
def seat_cmd(
    file: FileArg,
    as_json: JsonOpt = False,
    cards: Annotated[Path | None, typer.Option("--cards", help="Also write the round's printable table cards and "
                                               "score sheets (HTML) to this file.", show_default=False)] = None,
) -> None:
    """Seat the next round (or show the current one, while tables are still playing)."""
    rnd, new = book.seat(file)
    if cards is not None:
        may_write_over(cards, None)  # never over a match log or a tournament
        writing.write_atomic(cards, _cards(file, book.load(file), rnd, None))
    if as_json:
        emit_json(rnd.to_json())
        return

    if not new:
        t = book.load(file)
        left = t.unrecorded(rnd)
        done = f"the night was closed after round {t.closed}" if t.closed is not None else \
            f"all {t.planned} round(s) have been played"
        sys.stderr.write(f"round {rnd.number} of {t.planned} is being played: waiting for table(s) "
                         f"{', '.join(map(str, left))}\n" if left else f"{done}\n")
    sys.stdout.write(html.seating_text(rnd))


@commands.command("record")
def record_cmd(
    file: FileArg,
    table: Annotated[list[int] | None, typer.Option("--table", "-t", help="The table number (1 is the head table); "
                                                    "repeat --table and --score in pairs to record several tables "
                                                    "in one write.", show_default=False)] = None,
    log: Annotated[Path | None, typer.Option("--match", "-m", help="The table's match log: its winner and final "
                                             "scores are taken.", show_default=False)] = None,
    score: Annotated[list[str] | None, typer.Option("--score", "-s", help="Final scores by hand: "
                                                    "\"Ann&Cy=21,Bob&Dee=14\".", show_default=False)] = None,
    winner: Annotated[str | None, typer.Option("--winner", help="With --score: the winning side, where the rules "
                                               "let a side win without the higher score.", show_default=False)] = None,
    round_from: Annotated[Path | None, typer.Option("--round-from", help="A folder of the round's match logs, one "
                                                    "a table: records them all, or none.", show_default=False)] = None,
    rnd: Annotated[int | None, typer.Option("--round", help="The round (default: the current one); with --force, "
                                            "an earlier round's result is corrected.", show_default=False)] = None,
    force: Annotated[bool, typer.Option("--force", help="Correct a result already recorded.")] = False,
    as_json: JsonOpt = False,
) -> None:
    """Record a table's result from its match log or its final scores; the standings follow."""
    if round_from is not None:
        if table is not None or log is not None or score is not None:
            raise PitchError("--round-from records every table of the round: give no --table, --match or --score",
                             "--round-from")
        t, results = book.record_folder(file, round_from, force)
        done = ", ".join(str(r.table) for r in results)
        msg = f"recorded round {results[0].round}: table(s) {done}"
    else:
        tables, sheets = table or [], score or []
        if not tables:
            raise PitchError("which table? give --table T (or --round-from FOLDER)", "--table")
        if winner is not None and score is None:
            raise PitchError("--winner goes with --score (a match log names its winner)", "--winner")
        if log is not None and (sheets or len(tables) > 1):
            raise PitchError("--match records one table: give one --table and no --score", "--match")
        if log is None and len(sheets) != len(tables):
            raise PitchError(f"{len(tables)} --table but {len(sheets)} --score: give them in pairs", "--score")
        if winner is not None and len(tables) > 1:
            raise PitchError("--winner names the winner of one table: record that table alone", "--winner")
        entries = ([(tables[0], None, None, log)] if log is not None else
                   [(tb, book.parse_score_option(sc), winner, None) for tb, sc in zip(tables, sheets, strict=True)])
        t, results = book.record_many(file, entries, rnd=rnd, force=force)
        lines = []
        for res in results:
            seat = t.rounds[res.round - 1].tables[res.table - 1]
            parts = [f"{'&'.join(s)} {sc}" for s, sc in zip(seat.sides, res.scores, strict=True)]
            verb = "corrected" if res.correction else "recorded"
            lines.append(f"{verb} round {res.round} table {res.table}: {', '.join(parts)}; "
                         f"{'&'.join(seat.sides[res.winner])} won")
        msg = "\n".join(lines)
    if as_json:
        emit_json(standings(t))
        return
    cur = t.current
    left = t.unrecorded(cur) if cur else []
    tail = (f"; waiting for table(s) {', '.join(map(str, left))}" if left else
            "; the tournament is over" if t.finished else "; seat the next round")
    sys.stdout.write(msg + tail + "\n")


@commands.command("standings")
def standings_cmd(
    file: FileArg,
    as_json: JsonOpt = False,
    fmt: Annotated[str, typer.Option("--format", "-f", help="text, json, csv or html (a page for a screen).")] = "text",
    out: Annotated[Path | None, typer.Option("--output", "-o", help="Write to this file instead of standard "
                                             "output.", show_default=False)] = None,
    after: Annotated[int | None, typer.Option("--after", help="The standings as they were after this round.",
                                              show_default=False)] = None,
    refresh: Annotated[int | None, typer.Option("--refresh", help="With --format html: the page reloads itself "
                                                "every N seconds (for a screen in the hall).",
                                                show_default=False)] = None,
) -> None:
    """The standings: ranks (equal figures share one), points, wins and games."""
    if fmt not in ("text", "json", "csv", "html"):
        raise PitchError(f"expected text, json, csv or html, got {fmt!r}", "--format")
    t = book.load(file)
    if refresh is not None and (fmt != "html" or refresh < 1):
        raise PitchError("expected a number of seconds (1 or more), with --format html", "--refresh")
    if after is not None and not 0 <= after <= len(t.rounds):
        raise PitchError(f"expected a round from 0 to {len(t.rounds)}", "--after")
    s = standings(t, after)
    if as_json or fmt == "json":
        if out is None:
            emit_json(s)
            return

        text = json.dumps(s, ensure_ascii=False, indent=2) + "\n"
    else:
        text = (html.standings_csv(t) if fmt == "csv" else html.standings_html(t, refresh) if fmt == "html"
                else html.standings_text(s))
    if out is None:
        sys.stdout.write(text)
    else:
        may_write_over(out, None)  # never over a match log or a tournament
        writing.write_atomic(out, text)
        sys.stderr.write(f"wrote {out}\n")


def _cards(file: Path, t: Any, rnd: Any, url: str | None) -> str:
    """The round's table cards with each table's PIN for the night and the QR code of its page at `url`
    (default: this machine's address on the local network, port 8765, as `serve --tournament --lan`)."""
    from pitchkeeper.cli.serve import night_urls
    from pitchkeeper.web.keys import night_keys
    from pitchkeeper.web.view import qr_svg

    keys = night_keys(paths.data_dir(), file, t.table_count)
    for note in keys.notes:
        sys.stderr.write(f"note: {note}\n")
    if url is None:
        url, on_lan = night_urls("0.0.0.0", 8765)
        if not on_lan:
            sys.stderr.write(f"no local network address found: the QR codes open {url}; give --url\n")
    base = url.rstrip("/")
    urls = {s.table: f"{base}/table/{s.table}" for s in rnd.tables}
    return html.table_cards(t, rnd, pins=keys.tables, qr={n: str(qr_svg(u)) for n, u in urls.items()}, urls=urls)


@commands.command("cards")
def cards_cmd(
    file: FileArg,
    out: Annotated[Path, typer.Option("--output", "-o", help="The HTML file to write.", show_default=False)],
    rnd: Annotated[int | None, typer.Option("--round", help="The round (default: the current one).",
                                            show_default=False)] = None,
    url: Annotated[str | None, typer.Option("--url", help="The address the phones open (serve --tournament "
                                            "prints it); default this machine's on the local network, port 8765.",
                                            show_default=False)] = None,
) -> None:
    """Printable table cards and score sheets for a round: the table number across half the card, the seats,
    the QR code of the table's page and its PIN for `serve --tournament`; a score sheet for a whole game."""
    t = book.load(file)
    if not t.rounds:
        raise PitchError("no round has been seated yet: run `pitchkeeper tournament seat` first", str(file))
    number = rnd or len(t.rounds)
    if not 0 < number <= len(t.rounds):
        raise PitchError(f"expected a round from 1 to {len(t.rounds)}", "--round")
    if url is not None and not url.startswith(("http://", "https://")):
        raise PitchError(f"expected an address such as http://192.168.1.20:8765, got {url!r}", "--url")
    may_write_over(out, None)  # never over a match log or a tournament
    writing.write_atomic(out, _cards(file, t, t.rounds[number - 1], url))
    sys.stderr.write(f"wrote {out}: {len(t.rounds[number - 1].tables)} table card(s) for round {number}, with each "
                     "table's PIN for the night\n")


@commands.command("check")
def check_cmd(file: FileArg) -> None:
    """Check a tournament file (after a change by hand): exit 2 with the problem's key if there is one."""
    t = book.load(file)
    done = sum(1 for r in t.rounds if t.complete(r))
    sys.stdout.write(f"{file}: ok - {t.format}, {len(t.players)} players, {len(t.rounds)} of {t.planned} round(s) "
                     f"seated, {done} complete\n")
