"""Commands that write a match at the table: new, hand, edit, undo (status and history: cli.scores; check:
cli.check).

Each parses its options, calls the library (pitchkeeper.logbook: the one loader, the Logbook's
locked write path, HandEntry) and shows the result (pitchkeeper.show: `board` and `render`, both
drawn with show.ansi, never Rich; `--json` loads no drawing code).
"""

from __future__ import annotations

import inspect
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from pitchkeeper.cli import JsonOpt, MatchOpt, ask, emit_json, interactive, kept, topic, warn
from pitchkeeper.cli.adapter import fitted
from pitchkeeper.errors import PitchError, shown, utf8
from pitchkeeper.game.answers import NOBODY as NOBODY_WORDS
from pitchkeeper.game.answers import entry_hint, rest_help
from pitchkeeper.game.points import POINT_IDS  # each gets an option of its own on `hand` and `edit`
from pitchkeeper.game.records import parse_table
from pitchkeeper.game.vocabulary import target_words
from pitchkeeper.logbook import loader, shelf, store
from pitchkeeper.logbook.book import Logbook
from pitchkeeper.logbook.entry import HandEntry, names, team_specs
from pitchkeeper.show import board
from pitchkeeper.show.ansi import Console
from pitchkeeper.words.verdict import bid_name, called_words

commands = topic()


def book_of(match: str | None) -> Any:
    """The Logbook of --match (or of the current match): what a command that writes the log works on."""
    return Logbook(store.resolve_match_path(match))

YesOpt = Annotated[bool, typer.Option("--yes", "-y", help="Do not ask for confirmation.")]


def _confirm(question: str, yes: bool, what: str, no: str, as_json: bool = False) -> None:
    """Ask before a destructive change; never prompt when stdin is not a terminal. Answered no: `no` is
    said, and the command ends there with status 0 (the log untouched)."""
    if yes:
        return
    if not interactive():
        raise PitchError(f"{what} asks before it changes the log, and standard input is not a terminal: add --yes")
    if not ask(question):
        kept(no, as_json)


# ---------------------------------------------------------------------------
# new


def _team_specs(specs: list[str], table: Any) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """--team "Us=Ann,Cy" (or "Us: Ann Cy") -> teams, members named exactly."""
    return tuple((name, tuple(table.player(m, f"--team {name}") for m in members))
                 for name, members in team_specs(specs))


def _names(text: str) -> list[str]:
    return names(text)


@commands.command("new")
def new_match(
    rules: Annotated[str | None, typer.Argument(help="Ruleset: a built-in name or a .toml file.",
                                                show_default=False)] = None,
    players: Annotated[list[str] | None, typer.Argument(help="The players in seating order, clockwise.",
                                                        show_default=False)] = None,
    rules_opt: Annotated[str | None, typer.Option("--rules", "-r", help="The ruleset, as an option (instead of the "
                                                  "first argument).", show_default=False)] = None,
    players_opt: Annotated[list[str] | None, typer.Option("--players", "-p", help="The players, as an option: "
                                                          "\"Ann,Bob,Cy,Dee\" (or repeat it).",
                                                          show_default=False)] = None,
    team: Annotated[list[str] | None, typer.Option("--team", "--teams", "-t", help="A team, as NAME=PLAYER,PLAYER; "
                                                   "repeat for each, or separate them with ';' (default: partners "
                                                   "sit across).", show_default=False)] = None,
    solo: Annotated[bool, typer.Option("--solo", "--individual", help="Each plays for himself.")] = False,
    dealer: Annotated[str | None, typer.Option("--dealer", "--first-dealer", "-d", help="Who deals first "
                                               "(default: the first player).", show_default=False)] = None,
    target: Annotated[int | None, typer.Option("--target", min=1, help="The winning score, if not the ruleset's.",
                                               show_default=False)] = None,
    stake: Annotated[int | None, typer.Option("--stake", min=0, help="Stake per player per game (default: the "
                                              "ruleset's [stakes] per_game).", show_default=False)] = None,
    title: Annotated[str | None, typer.Option("--title", help="A name for the match.", show_default=False)] = None,
    match: Annotated[str | None, typer.Option("--match", "-m", help="Write the log here (default: a new file in "
                                              "the data folder).", show_default=False)] = None,
    rematch: Annotated[bool, typer.Option("--rematch", help="The next game at the same table: same players, "
                                          "rules, target and stake; the deal passes on.")] = False,
    of: Annotated[str | None, typer.Option("--of", help="With --rematch: the finished match (default: the "
                                           "current one).", show_default=False)] = None,
    force: Annotated[bool, typer.Option("--force", help="With --rematch: even if that game is not over.")] = False,
    as_json: JsonOpt = False,
) -> None:
    """Start a match: ruleset, players, teams and first dealer. It becomes the current match."""
    start_match(**locals())


def start_match(rules: str | None, players: list[str] | None, rules_opt: str | None, players_opt: list[str] | None,
                team: list[str] | None, solo: bool, dealer: str | None, target: int | None, stake: int | None,
                title: str | None, match: str | None, rematch: bool, of: str | None, force: bool, as_json: bool,
                in_play: bool = False) -> None:
    """`new`, and `play` with no match (which then asks its questions: no hint to run it)."""

    if match:  # the current-match pointer keeps the path as UTF-8 text: refused before anything is written
        utf8(match, "--match")
    if rules_opt:
        if rules and not players_opt:  # `new --rules R Ann Bob ...`: every argument is a player
            players = [rules, *(players or [])]
        elif rules:
            raise PitchError("give the ruleset once: as the first argument or as --rules", "--rules")
        rules = rules_opt
    if players_opt:
        if players:
            raise PitchError("give the players once: as arguments or as --players", "--players")
        players = [p for item in players_opt for p in _names(item)]
    if rematch:
        if rules or players or team or solo:
            raise PitchError("--rematch takes the table of the last game: give no ruleset, players or teams")
        book = shelf.next_game(of, path=Path(match) if match else None, first_dealer=dealer, target=target,
                               stake=stake, title=title, force=force)
    else:
        if not rules:
            raise PitchError("name the ruleset and the players: pitchkeeper new seven-point Ann Bob Cy Dee "
                             "(`pitchkeeper rules list` shows the rulesets)")
        if not players:
            raise PitchError("name the players in seating order, clockwise: pitchkeeper new "
                             f"{rules} Ann Bob Cy Dee")
        table = parse_table({"players": [p.strip() for p in players]})
        first = table.player(dealer, "--dealer") if dealer else table.players[0]
        if team and solo:
            raise PitchError("give teams or --solo, not both")
        teams = dict(_team_specs(team, table)) if team else {} if solo else None
        book = shelf.start(rules, list(table.players), teams, first, title, target, stake=stake,
                           path=Path(match) if match else None)
    path = book.path
    k = loader.load(path)  # the header just written, read back: no hand to replay, no version asked
    ruleset, table, first = k.ruleset, k.record.table, k.record.first_dealer
    rematch_of, target, stake = k.data.get("rematch_of"), k.record.target, k.record.stake
    if as_json:
        emit_json({"match": str(path), "rules": ruleset.name, "digest": ruleset.digest, "players": list(table.players),
                   "teams": {t: list(ms) for t, ms in table.teams} if table.teams else None,
                   "first_dealer": first, "target": target or ruleset.settings["win"]["target"],
                   "stake": stake, "rematch_of": rematch_of})
        return

    sides = ", ".join(f"{t} ({' & '.join(ms)})" for t, ms in table.teams) if table.teams else "each for himself"
    goal = target_words(ruleset.settings["win"]["reach"], target or ruleset.settings["win"]["target"],
                        ruleset.direction)
    out = Console()  # lines wrapped to the terminal (a phone is 40 columns)
    for line in (f"new match: {shown(path)}", f"  {ruleset.name}, {goal}; {sides}; {first} deals first",
                 *(() if in_play else (f"  record each hand with: pitchkeeper hand BIDDER AMOUNT TRUMP "
                                       f"{entry_hint(ruleset)}", "  or answer the questions of: pitchkeeper play"))):
        out.print(line)


# ---------------------------------------------------------------------------
# hand and edit: one hand from the command line


def _hand_parameters() -> list[Any]:
    """The options of `hand` (and `edit`), one for every point id of the contract: made, not written."""
    def p(name: str, annotation: Any, default: Any = None) -> inspect.Parameter:
        return inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, annotation=annotation, default=default)

    opt = typer.Option
    params = [
        p("bidder", Annotated[str | None, typer.Argument(help="Who won the bid.", show_default=False)]),
        p("amount", Annotated[str | None, typer.Argument(help="The bid: a number, smudge, or 0 for a pitch "
                                                         "without a contract.", show_default=False)]),
        p("trump", Annotated[str | None, typer.Argument(help="Trump: S, H, D, C or the suit's name.",
                                                        show_default=False)]),
    ]
    for pid in POINT_IDS:
        params.append(p("pt_" + pid.replace("-", "_"), Annotated[list[str] | None, opt(
            f"--{pid}", metavar="WHO", help=_point_help(pid), show_default=False)]))
    params += [
        p("rest", Annotated[str | None, opt("--rest", metavar="none", help=rest_help(None), show_default=False)]),
        p("point", Annotated[list[str] | None, opt("--point", "-p", help="ID=WHO for any point of the ruleset, "
                                                   "e.g. off-jack=Us (repeat).", show_default=False)]),
        p("cards", Annotated[list[str] | None, opt("--cards", "-c", help="WHO: CARDS - the cards a side or player "
                                                   "captured, e.g. \"Us: AS JS 10H ...\" (repeat for each).",
                                                   show_default=False)]),
        p("dealt", Annotated[list[str] | None, opt("--dealt", help="PLAYER: CARDS dealt to a player, where the "
                                                   "ruleset gives low to the player dealt it (repeat).",
                                                   show_default=False)]),
        p("called", Annotated[str | None, opt("--called", metavar="CARD", help="Call your partner: the card the "
                                              "bidder called, e.g. AS (- drops it).", show_default=False)]),
        p("partner", Annotated[str | None, opt("--partner", metavar="WHO", help="Who held the called card; none if "
                                               "no other player did (the bidder played alone). Left out, it is read "
                                               "from --held or the tricks.", show_default=False)]),
        p("kitty", Annotated[str | None, opt("--kitty", metavar="CARDS", help="The kitty (widow) as dealt, e.g. "
                                             "\"AS 5H JD\" (- drops it).", show_default=False)]),
        p("discard", Annotated[list[str] | None, opt("--discard", metavar="[WHO:] CARDS", help="Cards laid away or "
                                                     "thrown in a draw: \"5H 4C\" is the bidder's, \"Bob: 9D 3C\" "
                                                     "another's (repeat).", show_default=False)]),
        p("drawn", Annotated[list[str] | None, opt("--drawn", metavar="WHO: CARDS", help="Cards a player was dealt in "
                                                   "the draw, e.g. \"Bob: 5S 9D\" (repeat).", show_default=False)]),
        p("held", Annotated[list[str] | None, opt("--held", metavar="WHO: CARDS", help="Cards a player held when play "
                                                  "began, after any kitty and draw (repeat).", show_default=False)]),
        p("auction", Annotated[str | None, opt("--auction", "-a", help="The calls from the dealer's left, e.g. "
                                               "\"Bob:pass Cy:2 Dee:3 Ann:pass\"; eldest's sale of the pitch in a "
                                               "sell-out auction is Ann:sell.", show_default=False)]),
        p("revoke", Annotated[list[str] | None, opt("--revoke", help="A player who revoked (repeat).",
                                                    show_default=False)]),
        p("dealer", Annotated[str | None, opt("--dealer", "-d", help="Who dealt (default: the deal passes to the "
                                              "left).", show_default=False)]),
        p("note", Annotated[str | None, opt("--note", help="A note kept with the hand.", show_default=False)]),
        p("from_file", Annotated[Path | None, opt("--from", help="A hand record file (the per-hand keys).",
                                                  show_default=False)]),
        p("match", MatchOpt),
        p("dry_run", Annotated[bool, opt("--dry-run", "-n", help="Judge the hand but write nothing.")], False),
        p("as_json", JsonOpt, False),
    ]
    return params


def _point_help(pid: str) -> str:
    """The help of --ID: the question the point asks ("dealt" where a ruleset gives it to the player dealt it)."""
    if pid == "game":
        return "Who won game: a team or player, tie, or none."
    if pid in ("low", "deuce"):  # no ruleset named: which rulesets have the point, and how, is their data
        return (f"Who won {pid}: a team or player, or none if it was not out. Where the ruleset gives {pid} to the "
                "player dealt it, name who was dealt it, not who captured it.")
    return f"Who won {pid}: a team or player, or none if it was not out."


def entry_of(kw: dict[str, Any], new: bool = True) -> Any:
    """The options of `hand`/`edit` as a HandEntry (names and cards are checked against the log later).

    A new hand entered by points answers every point (`--rest none` for those not out); a point
    named twice is an error, not "the last one wins".
    """
    points: dict[str, str] = {}
    for pid in POINT_IDS:
        v = kw.get("pt_" + pid.replace("-", "_"))
        if isinstance(v, str):
            v = [v]
        if v:
            if len(v) > 1:
                raise PitchError(f"{pid} is answered {len(v)} times ({', '.join(v)}): say it once", f"--{pid}")
            points[pid] = v[0]
    for spec in kw.get("point") or []:
        pid, sep, who = spec.partition("=")
        if not sep:
            raise PitchError(f"expected ID=WHO, such as off-jack=Us, got {spec!r}", "--point")
        pid = pid.strip()
        if pid in points:
            raise PitchError(f"{pid} is answered twice ({points[pid]}, {who}): say it once", "--point")
        points[pid] = who
    rest = kw.get("rest")
    if rest is not None and rest.strip().lower() not in NOBODY_WORDS:
        raise PitchError(f"--rest says the points not named were not out: --rest none, not {rest!r}", "--rest")
    return HandEntry(bidder=kw.get("bidder"), amount=kw.get("amount"), trump=kw.get("trump"), dealer=kw.get("dealer"),
                     auction=kw.get("auction"), points=points, cards=_who_cards(kw.get("cards"), "--cards"),
                     dealt=_who_cards(kw.get("dealt"), "--dealt"), revokes=kw.get("revoke"), note=kw.get("note"),
                     file=kw.get("from_file"), require_every_point=new, rest=rest is not None,
                     by_point=frozenset(s.partition("=")[0].strip() for s in kw.get("point") or []),
                     kitty=kw.get("kitty"), discard=_discards(kw.get("discard")),
                     drawn=_who_cards(kw.get("drawn"), "--drawn"), held=_who_cards(kw.get("held"), "--held"),
                     called=kw.get("called"), partner=kw.get("partner"))


def _discards(specs: list[str] | None) -> dict[str, str] | None:
    """["5H 4C", "Bob: 9D"] -> {"": "5H 4C", "Bob": "9D"}: a spec without WHO is the bidder's."""
    if not specs:
        return None
    out: dict[str, str] = {}
    for spec in specs:
        who, sep, rest = spec.partition(":")
        if not sep:
            who, rest = "", spec
        who = who.strip()
        out[who] = f"{out[who]} {rest}" if who in out else rest
    return out


def _who_cards(specs: list[str] | None, where: str) -> dict[str, str] | None:
    """["Us: AS JS", "Them: 2S"] -> {"Us": "AS JS", "Them": "2S"} (a name given twice: its cards joined)."""
    if not specs:
        return None
    out: dict[str, str] = {}
    for spec in specs:
        for sep in (":", "="):
            who, s, rest = spec.partition(sep)
            if s and who.strip():
                out[who.strip()] = f"{out[who.strip()]} {rest}" if who.strip() in out else rest
                break
        else:
            raise PitchError(f"expected WHO: CARDS, such as \"Us: AS JS 10H\", got {spec!r}", where)
    return out


def record_hand(entry: Any, match: str | None, dry_run: bool = False) -> Any:
    """Append one hand to the log (the Logbook's locked write path); the Change made."""
    return book_of(match).record(entry, dry_run=dry_run)


def _hand_command(**kw: Any) -> None:
    w = record_hand(entry_of(kw), kw.get("match"), bool(kw.get("dry_run")))
    warn(w.warnings)
    if kw.get("as_json"):
        emit_json(w.state.to_json())
        return

    board.verdict(w.state.hands[w.number - 1].verdict, w.state.table)
    board.draw(w.scoreboard().to_json())
    if kw.get("dry_run"):
        sys.stdout.write("(dry run: nothing was written)\n")


def _edit_command(**kw: Any) -> None:
    number = kw["number"]
    book = book_of(kw.get("match"))
    change = book.prepare_replace(number, entry_of(kw, new=False))
    old, new = change.before.data["hands"][number - 1], change.after.data["hands"][number - 1]
    if not change.changes_anything or old == new:  # the same hand (perhaps written otherwise): nothing written
        if kw.get("as_json"):
            _show_change(change.replayed_before, change.state, number, True)
        else:
            sys.stdout.write(f"hand {number} unchanged\n")
        return
    _show_change(change.replayed_before, change.state, number, kw.get("as_json", False))
    was = next((k for k in ("captured", "tricks") if k in old), None)
    if was and "points" in new:  # never silently: the cards (and who was dealt what) give way to points
        out = sys.stderr if kw.get("as_json") else sys.stdout
        out.write(f"hand {number} was entered as {'cards' if was == 'captured' else 'tricks'}; "
                  "it will be kept as points\n")
    if kw.get("dry_run"):
        sys.stderr.write("(dry run: nothing was written)\n")
        return
    _confirm(f"save the corrected hand {number}?", kw.get("yes", False), "edit",
             f"Kept hand {number} as it was: nothing changed.", kw.get("as_json", False))
    book.commit(change)
    if not kw.get("as_json"):
        Console().print(f"hand {number} corrected in {shown(book.path)}")  # wrapped to the terminal
    warn(change.warnings)


def _points_now(args: list[str]) -> tuple[set[str], str, dict[str, str]]:
    """The options of `hand`/`edit` that the match at hand has no point for (its --match, or the current
    match), for their --help, and --rest in its ruleset's words; with no match, none left out."""
    given = None
    for i, a in enumerate(args):
        if a in ("--match", "-m") and i + 1 < len(args):
            given = args[i + 1]
        elif a.startswith("--match="):
            given = a.partition("=")[2]
    path = store.resolve_match_path(given)
    ruleset = loader.load(path).ruleset
    ids = [p.id for p in ruleset.points]
    hide = {"pt_" + pid.replace("-", "_") for pid in POINT_IDS if pid not in ids}
    own = [pid for pid in ids if pid not in POINT_IDS]
    note = (f"This match ({ruleset.name}, {shown(path.name)}) scores: {', '.join(ids)}; the options for other "
            "points are left out here" + (f" (answer {', '.join(own)} with --point ID=WHO)" if own else "") + ".")
    return hide, note, {"rest": rest_help(ruleset)}


def _register_hand_commands() -> None:
    params = _hand_parameters()

    def hand(**kw: Any) -> None:
        """Record a hand: bidder, amount, trump, and who won each point (or the cards each side took).

        Every point of the ruleset is answered: a team or player, none (not out), or --rest none for
        the points not named that were not out (each point's option says what it takes). The dealer follows
        the rotation. Prints the verdict and the scoreboard; with --json, the `judge match` object of the
        whole match.
        """
        _hand_command(**kw)

    hand.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
    commands.command("hand", cls=fitted(_points_now))(hand)

    def edit(**kw: Any) -> None:
        """Correct hand N (options as for `hand`; those given replace the hand's), show the change, save it.

        Every later total is recomputed by replaying the log.
        """
        _edit_command(**kw)

    number = inspect.Parameter("number", inspect.Parameter.KEYWORD_ONLY, annotation=Annotated[int, typer.Argument(
        help="The hand to correct (from 1).", show_default=False)])
    yes = inspect.Parameter("yes", inspect.Parameter.KEYWORD_ONLY, annotation=YesOpt, default=False)
    edit.__signature__ = inspect.Signature([number, *params, yes])  # type: ignore[attr-defined]
    commands.command("edit", cls=fitted(_points_now))(edit)


_register_hand_commands()


def _show_change(before: Any, after: Any, number: int, as_json: bool) -> None:
    old, new = before.hands[number - 1], after.hands[number - 1]
    if as_json:
        emit_json({"hand": number, "before": {**old.verdict.to_json(), "scores": old.scores},
                   "after": {**new.verdict.to_json(), "scores": new.scores},
                   "scores": {"before": before.scores, "after": after.scores},
                   "winner": {"before": before.winner, "after": after.winner}})
        return

    board.change(before, after, number)


# ---------------------------------------------------------------------------
# undo


@commands.command("undo")
def undo(match: MatchOpt = None, yes: YesOpt = False, as_json: JsonOpt = False) -> None:
    """Drop the last hand of the match (after asking)."""

    book = book_of(match)
    change = book.prepare_drop()
    count, k = change.number, change.before
    v = change.replayed_before.hands[-1].verdict
    called = called_words(v.to_json())
    what = (f"hand {count}: {k.record.hands[-1].dealer} dealt, {v.bid.player} bid {bid_name(v.bid)} in {v.trump}"
            + (f", {called}" if called else "") + "; " + ", ".join(f"{s} {d:+d}" for s, d in v.delta.items()))
    if not as_json:
        Console().print(f"drop {what}")  # wrapped to the terminal (a phone is 40 columns)
    _confirm(f"drop hand {count}?", yes, "undo", f"Kept hand {count}: nothing changed.", as_json)
    book.commit(change)
    after = change.state
    if as_json:
        emit_json(after.to_json())
        return
    Console().print(f"dropped hand {count}; scores now " + ", ".join(f"{s} {n}" for s, n in after.scores.items()))
