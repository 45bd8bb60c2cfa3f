"""Commands that keep a match at the table: new, hand, play, status, history, undo, edit, matches, check.

The match log is the source of truth: every command reads it, replays it, and (for the writing
commands) writes the new text only after parsing and replaying it whole, under the log's lock.
Drawing code (pitchkeeper.show, never Rich) is imported only where it draws; `--json` never loads it.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import typer

from pitchkeeper.cli import JsonOpt, MatchOpt, app, emit_json
from pitchkeeper.errors import PitchError, did_you_mean
from pitchkeeper.game.records import POINT_IDS  # each gets an option of its own on `hand` and `edit`

NOT_OUT = ("-", "none", "nobody", "no")

YesOpt = Annotated[bool, typer.Option("--yes", "-y", help="Do not ask for confirmation.")]


# ---------------------------------------------------------------------------
# Reading a kept match (pitchkeeper.logbook: the one loader and the one write path)


def _book(match: str | None) -> Any:
    """The Logbook of --match (or of the current match)."""
    from pitchkeeper.logbook import store
    from pitchkeeper.logbook.book import Logbook

    return Logbook(store.resolve_match_path(match))


def board_of(k: Any, state: Any) -> dict[str, Any]:
    """The scoreboard of a replayed log as the `status --json` object (and what `status` draws)."""
    from pitchkeeper.game.scoreboard import scoreboard

    return scoreboard(k.ruleset, k.record, state, match=str(k.path), warnings=k.warnings).to_json()


def _out() -> Any:
    """The console for the at-the-table output (pitchkeeper.show.ansi: no Rich to load on every hand)."""
    from pitchkeeper.show.ansi import Console

    return Console()


def _draw_verdict(v: Any, table: Any) -> None:
    """The verdict on the hand just recorded (the scorecard without the card-by-card game count)."""
    from pitchkeeper.show import scorecard

    scorecard.draw(v, table, breakdown=False)


def _warn(lines: Any) -> None:
    for w in lines:
        sys.stderr.write(f"warning: {w}\n")


def _interactive() -> bool:
    try:
        return sys.stdin.isatty()
    except (AttributeError, ValueError):
        return False


def _confirm(question: str, yes: bool, what: str) -> None:
    """Ask before a destructive change; never prompt when stdin is not a terminal."""
    if yes:
        return
    if not _interactive():
        raise PitchError(f"{what} asks before it changes the log, and standard input is not a terminal: add --yes")
    if not typer.confirm(question, default=False):
        raise typer.Exit(1)


# ---------------------------------------------------------------------------
# new


def _team_specs(specs: list[str], table: Any) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """--team "Us=Ann,Cy" (or "Us: Ann Cy") -> teams, members named exactly."""
    out = []
    for spec in specs:
        name, sep, rest = spec.partition("=")
        if not sep:
            name, sep, rest = spec.partition(":")
        name = name.strip()
        if not sep or not name:
            raise PitchError(f"expected a team as NAME=PLAYER,PLAYER (such as Us=Ann,Cy), got {spec!r}", "--team")
        members = [m for m in rest.replace(",", " ").replace("+", " ").split() if m]
        if not members:
            raise PitchError(f"team {name} has no players", "--team")
        out.append((name, tuple(table.player(m, f"--team {name}") for m in members)))
    return tuple(out)


def _new_path(rules_name: str) -> Path:
    import time

    from pitchkeeper.logbook.paths import matches_dir

    folder = matches_dir()
    stem = f"{time.strftime('%Y-%m-%d')}-{Path(rules_name).stem}"
    p = folder / f"{stem}.toml"
    n = 2
    while p.exists():
        p = folder / f"{stem}-{n}.toml"
        n += 1
    return p


@app.command("new")
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
    from pitchkeeper.game import match as m
    from pitchkeeper.game import rulesets
    from pitchkeeper.game.records import parse_table
    from pitchkeeper.logbook import loader, store
    from pitchkeeper.logbook.book import Logbook

    rematch_of = None
    if rules_opt:
        if rules and not players_opt:  # `new --rules R Ann Bob ...`: every argument is a player
            players = [rules, *(players or [])]
        elif rules:
            raise PitchError("give the ruleset once: as the first argument or as --rules", "--rules")
        rules = rules_opt
    if players_opt:
        if players:
            raise PitchError("give the players once: as arguments or as --players", "--players")
        players = [p for item in players_opt for p in item.replace(",", " ").split()]
    if team:
        team = [t for item in team for t in item.split(";") if t.strip()]
    if rematch:
        if rules or players or team or solo:
            raise PitchError("--rematch takes the table of the last game: give no ruleset, players or teams")
        src = store.resolve_match_path(of)
        prev, state = Logbook(src).load()
        if state.ending is None and not force:
            raise PitchError(f"{src}: the game is still on (hand {len(state.hands)}); finish it, or add --force")
        rec = prev.record
        table = rec.table
        teams: Any = {t: list(ms) for t, ms in table.teams} if table.teams else {}
        first = m.dealer_due(rec) or table.players[0]
        if dealer:
            first = table.player(dealer, "--dealer")
        target = target if target is not None else rec.target
        stake = stake if stake is not None else rec.stake
        title = title or prev.data.get("title")
        rematch_of = str(src.resolve())
        ref = loader.rules_ref(prev.data, src, None)
        names = list(table.players)
    else:
        if not rules:
            raise PitchError("name the ruleset and the players: pitchkeeper new seven-point Ann Bob Cy Dee "
                             "(`pitchkeeper rules list` shows the rulesets)")
        if not players:
            raise PitchError("name the players in seating order, clockwise: pitchkeeper new "
                             f"{rules} Ann Bob Cy Dee")
        ref = rules
        table = parse_table({"players": [p.strip() for p in players]})
        first = table.player(dealer, "--dealer") if dealer else table.players[0]
        if team and solo:
            raise PitchError("give teams or --solo, not both")
        teams = dict(_team_specs(team, table)) if team else {} if solo else None
        names = list(table.players)
    path = Path(match) if match else _new_path(rulesets.load(ref).name)
    book = Logbook.create(path, ref, names, teams, first, title, target, stake=stake, rematch_of=rematch_of)
    store.write_pointer(path)
    k = book.load()[0]
    ruleset, table = k.ruleset, k.record.table
    if as_json:
        emit_json({"match": str(path), "rules": ruleset.name, "digest": ruleset.digest, "players": list(table.players),
                   "teams": {t: list(ms) for t, ms in table.teams} if table.teams else None,
                   "first_dealer": first, "target": target or ruleset.settings["win"]["target"],
                   "stake": stake, "rematch_of": rematch_of})
        return
    sides = ", ".join(f"{t} ({' & '.join(ms)})" for t, ms in table.teams) if table.teams else "each for himself"
    sys.stdout.write(f"new match: {path}\n  {ruleset.name}, to {target or ruleset.settings['win']['target']}; "
                     f"{sides}; {first} deals first\n"
                     "  record each hand with: pitchkeeper hand BIDDER AMOUNT TRUMP --high WHO --low WHO ...\n")


# ---------------------------------------------------------------------------
# hand and edit: one hand from the command line


def _hand_parameters() -> list[Any]:
    """The options of `hand` (and `edit`), one for every point id of the contract: made, not written."""
    import inspect

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
        params.append(p("pt_" + pid.replace("-", "_"), Annotated[str | None, opt(
            f"--{pid}", help=f"Who took {pid} (team or player; - if it was not out).", show_default=False)]))
    params += [
        p("point", Annotated[list[str] | None, opt("--point", "-p", help="ID=WHO for any point of the ruleset, "
                                                   "e.g. off-jack=Us (repeat).", show_default=False)]),
        p("cards", Annotated[list[str] | None, opt("--cards", "-c", help="WHO: CARDS - the cards a side or player "
                                                   "captured, e.g. \"Us: AS JS 10H ...\" (repeat for each).",
                                                   show_default=False)]),
        p("dealt", Annotated[list[str] | None, opt("--dealt", help="PLAYER: CARDS dealt to a player, where the "
                                                   "ruleset gives low to the player dealt it (repeat).",
                                                   show_default=False)]),
        p("auction", Annotated[str | None, opt("--auction", "-a", help="The calls from the dealer's left, e.g. "
                                               "\"Bob:pass Cy:2 Dee:3 Ann:pass\".", show_default=False)]),
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


def _amount(text: str, ruleset: Any) -> int | str:
    t = text.strip().lower()
    b = ruleset.settings["bidding"]
    if t.isascii() and t.lstrip("-").isdigit():
        return int(t)
    if t in ("smudge", "moon", "shoot", str(b["smudge_name"]).lower()):
        return "smudge"
    if t in ("none", "pitch-0", "nocontract"):
        return 0
    raise PitchError(f"{text!r} is not a bid: a number from {b['min']} to {b['max']}"
                     + (f", or {b['smudge_name']}" if b["smudge"] else "")
                     + (", or 0 (a pitch without a contract)" if b["all_pass"] == "eldest-pitches" else ""), "AMOUNT")


def _owner_name(table: Any, who: str, where: str) -> str:
    """A side or player as typed (any case, a unique prefix) -> the name the log keeps."""
    side, player = table.owner(who.strip(), where)
    if player is not None and table.teams and who.strip().lower() not in (side.lower(),):
        return player
    return side


def _point_id(ruleset: Any, text: str, where: str) -> str:
    ids = [p.id for p in ruleset.points]
    t = text.strip().lower()
    if t in ids:
        return t
    pre = [i for i in ids if i.startswith(t)] if t else []
    if len(pre) == 1:
        return pre[0]
    raise PitchError(f"{ruleset.name} has no point '{text}'{did_you_mean(text, ids)} (its points: {', '.join(ids)})",
                     where)


def _split_who(spec: str, where: str) -> tuple[str, str]:
    for sep in (":", "="):
        who, s, rest = spec.partition(sep)
        if s and who.strip():
            return who.strip(), rest
    raise PitchError(f"expected WHO: CARDS, such as \"Us: AS JS 10H\", got {spec!r}", where)


def _cards(text: str, where: str) -> list[str]:
    from pitchkeeper.game.cards import parse_cards

    try:
        return list(parse_cards(text))
    except PitchError as e:
        raise e.at(where) from None


def _outcome_given(kw: dict[str, Any]) -> tuple[dict[str, str | None], list[str] | None]:
    points: dict[str, str | None] = {}
    for pid in POINT_IDS:
        v = kw.get("pt_" + pid.replace("-", "_"))
        if v is not None:
            points[pid] = v
    return points, kw.get("cards")


def build_hand(kw: dict[str, Any], k: Any, base: dict[str, Any] | None, number: int) -> dict[str, Any]:
    """The hand the options describe, as the log keeps it (TOML-ready, names written exactly).

    `base` is the hand being corrected (edit): options given replace its keys, the rest stay.
    """
    import time

    from pitchkeeper.game import match
    from pitchkeeper.game.cards import parse_suit
    from pitchkeeper.game.records import HAND_KEYS, HAND_RECORD_KEYS, parse_call

    ruleset, table = k.ruleset, k.record.table
    hand: dict[str, Any] = dict(base) if base else {}
    if kw.get("from_file") is not None:
        hand = _from_file(kw["from_file"], k, HAND_KEYS, HAND_RECORD_KEYS)
        if base and "dealer" not in hand:
            hand = {"dealer": base["dealer"], **hand}
        others = [n for n, v in kw.items() if v not in (None, False, []) and n not in ("from_file", "match", "as_json",
                                                                                       "dry_run", "dealer", "yes",
                                                                                       "number")]
        if others:
            raise PitchError("--from gives the whole hand: give no other hand options", "--from")
    if kw.get("dealer"):
        hand["dealer"] = table.player(kw["dealer"], "--dealer")
    if "dealer" not in hand:
        due = match.dealer_due(k.record)
        if due is None:
            raise PitchError("who dealt? the log names no first dealer: give --dealer")
        hand["dealer"] = due
    if kw.get("from_file") is not None:
        hand.setdefault("recorded", time.strftime("%Y-%m-%dT%H:%M:%S"))
        return _ordered(hand)
    if kw.get("trump") is not None:
        try:
            hand["trump"] = parse_suit(kw["trump"])
        except PitchError as e:
            raise e.at("TRUMP") from None
    if kw.get("bidder") is not None or kw.get("amount") is not None:
        old = hand.get("bid", {}) if isinstance(hand.get("bid"), dict) else {}
        who = kw.get("bidder") if kw.get("bidder") is not None else old.get("player")
        amount = _amount(kw["amount"], ruleset) if kw.get("amount") is not None else old.get("amount")
        if who is None or amount is None:
            raise PitchError("give the bidder and the amount: pitchkeeper hand Ann 3 spades ...", "BIDDER")
        hand["bid"] = {"player": table.player(who, "BIDDER"), "amount": amount}
    for key, word in (("bid", "BIDDER and AMOUNT"), ("trump", "TRUMP")):
        if key not in hand:
            raise PitchError(f"say the {word}: pitchkeeper hand Ann 3 spades --high Us --low Them ...", word)
    if kw.get("auction") is not None:
        if kw["auction"].strip() in NOT_OUT:
            hand.pop("auction", None)
        else:
            calls = []
            for i, c in enumerate(kw["auction"].replace(",", " ").split(), 1):
                who, call = parse_call(c, table, f"--auction: auction[{i}]")
                calls.append(f"{who}:{call}")
            hand["auction"] = calls
    points, cards = _outcome_given(kw)
    for spec in kw.get("point") or []:
        pid, sep, who = spec.partition("=")
        if not sep:
            raise PitchError(f"expected ID=WHO, such as off-jack=Us, got {spec!r}", "--point")
        points[_point_id(ruleset, pid, "--point")] = who
    ids = [p.id for p in ruleset.points]
    for pid in points:
        if pid not in ids:
            raise PitchError(f"{ruleset.name} has no point '{pid}'{did_you_mean(pid, ids)} (its points: "
                             f"{', '.join(ids)})", f"--{pid}")
    if points and cards:
        raise PitchError("give who took each point, or the cards each side captured, not both", "--cards")
    if points:
        outcome = dict(hand["points"]) if isinstance(hand.get("points"), dict) else {}
        for key in ("captured", "tricks", "held", "points", "dealt"):
            hand.pop(key, None)
        for pid, who in points.items():
            if who is None or who.strip().lower() in NOT_OUT:
                outcome.pop(pid, None)
            else:
                outcome[pid] = _owner_name(table, who, f"--{pid}")
        hand["points"] = {pid: outcome[pid] for pid in ids if pid in outcome}
    elif cards:
        for key in ("captured", "tricks", "points", "held"):
            hand.pop(key, None)
        captured: dict[str, list[str]] = {}
        for spec in cards:
            who, text = _split_who(spec, "--cards")
            name = table.side_or_player(who, "--cards")
            captured.setdefault(name, []).extend(_cards(text, f"--cards {name}"))
        hand["captured"] = captured
    if kw.get("dealt"):
        dealt: dict[str, list[str]] = {}
        for spec in kw["dealt"]:
            who, text = _split_who(spec, "--dealt")
            name = table.player(who, "--dealt")
            dealt.setdefault(name, []).extend(_cards(text, f"--dealt {name}"))
        hand["dealt"] = dealt
    if not any(key in hand for key in ("points", "captured", "tricks")):
        raise PitchError("say who took each point (--high Us --low Them ...), or the cards each side captured "
                         "(--cards \"Us: AS JS ...\"), or give --from HANDFILE")
    if kw.get("revoke"):
        if [r.strip().lower() for r in kw["revoke"]] == ["-"]:
            hand.pop("revokes", None)
        else:
            hand["revokes"] = [table.player(r, "--revoke") for r in kw["revoke"]]
    if kw.get("note") is not None:
        if kw["note"]:
            hand["note"] = kw["note"]
        else:
            hand.pop("note", None)
    hand.setdefault("recorded", time.strftime("%Y-%m-%dT%H:%M:%S"))
    return _ordered(hand)


_KEY_ORDER = ("dealer", "trump", "bid", "auction", "points", "captured", "tricks", "dealt", "held", "revokes",
              "note", "announced", "recorded")


def _ordered(hand: dict[str, Any]) -> dict[str, Any]:
    return {k: hand[k] for k in sorted(hand, key=lambda k: _KEY_ORDER.index(k) if k in _KEY_ORDER else 99)}


def _from_file(path: Path, k: Any, hand_keys: tuple[str, ...], all_keys: tuple[str, ...]) -> dict[str, Any]:
    """The per-hand keys of a hand record file. Header keys it has must agree with the match."""
    from pitchkeeper.errors import unknown_key
    from pitchkeeper.logbook import store

    data = store.read_record(path)
    table = k.record.table
    hand = {}
    for key, v in data.items():
        if key not in all_keys:
            raise unknown_key(key, all_keys, f"{path}: {key}")
        if key == "players" and (not isinstance(v, list) or tuple(v) != table.players):
            raise PitchError(f"players {v} are not this match's ({', '.join(table.players)})", f"{path}: players")
        if key == "teams" and table.teams and {t: list(m) for t, m in table.teams} != v:
            raise PitchError("teams differ from this match's", f"{path}: teams")
        if key == "rules" and v != k.data.get("rules") and v != k.ruleset.name:
            raise PitchError(f"the hand is for {v}, the match is played under {k.ruleset.name}", f"{path}: rules")
        if key not in ("rules", "players", "teams"):
            hand[key] = v
    return hand


@dataclass(frozen=True)
class Options:
    """The options of `hand`/`edit` as a hand entry for the Logbook (built against the log it goes to)."""

    kw: dict[str, Any]

    @property
    def source(self) -> str | None:
        return str(self.kw["from_file"]) if self.kw.get("from_file") is not None else None

    def to_table(self, log: Any, base: Any) -> dict[str, Any]:
        return build_hand(self.kw, log, dict(base) if base is not None else None, 0)


def record_hand(kw: dict[str, Any]) -> Any:
    """`hand`: append one hand to the log (the Logbook's locked write path); the Change made."""
    return _book(kw.get("match")).record(Options(kw), dry_run=bool(kw.get("dry_run")))


def _hand_command(**kw: Any) -> None:
    w = record_hand(kw)
    _warn(w.warnings)
    if kw.get("as_json"):
        emit_json(w.state.to_json())
        return
    _draw_verdict(w.state.hands[w.number - 1].verdict, w.state.table)
    _draw_board(board_of(w.after, w.state))
    if kw.get("dry_run"):
        sys.stdout.write("(dry run: nothing was written)\n")


def _edit_command(**kw: Any) -> None:
    number = kw["number"]
    book = _book(kw.get("match"))
    change = book.prepare_replace(number, Options(kw))
    _show_change(change.replayed_before, change.state, number, kw.get("as_json", False))
    if not change.changes_anything:
        sys.stderr.write("nothing changes\n")
        return
    if kw.get("dry_run"):
        sys.stderr.write("(dry run: nothing was written)\n")
        return
    _confirm(f"save the corrected hand {number}?", kw.get("yes", False), "edit")
    book.commit(change)
    if not kw.get("as_json"):
        sys.stdout.write(f"hand {number} corrected in {book.path}\n")
    _warn(change.warnings)


def _register_hand_commands() -> None:
    import inspect

    params = _hand_parameters()

    def hand(**kw: Any) -> None:
        """Record a hand: bidder, amount, trump, and who took each point (or the cards each side took).

        The dealer follows the rotation. Prints the verdict and the scoreboard; with --json, the
        `judge match` object of the whole match.
        """
        _hand_command(**kw)

    hand.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
    app.command("hand")(hand)

    def edit(**kw: Any) -> None:
        """Correct hand N (options as for `hand`; those given replace the hand's), show the change, save it.

        Every later total is recomputed by replaying the log.
        """
        _edit_command(**kw)

    number = inspect.Parameter("number", inspect.Parameter.KEYWORD_ONLY, annotation=Annotated[int, typer.Argument(
        help="The hand to correct (from 1).", show_default=False)])
    yes = inspect.Parameter("yes", inspect.Parameter.KEYWORD_ONLY, annotation=YesOpt, default=False)
    edit.__signature__ = inspect.Signature([number, *params, yes])  # type: ignore[attr-defined]
    app.command("edit")(edit)


_register_hand_commands()


def _show_change(before: Any, after: Any, number: int, as_json: bool) -> None:
    old, new = before.hands[number - 1], after.hands[number - 1]
    if as_json:
        emit_json({"hand": number, "before": {**old.verdict.to_json(), "scores": old.scores},
                   "after": {**new.verdict.to_json(), "scores": new.scores},
                   "scores": {"before": before.scores, "after": after.scores},
                   "winner": {"before": before.winner, "after": after.winner}})
        return
    from pitchkeeper.show import render
    from pitchkeeper.show.ansi import Table as RTable
    from pitchkeeper.show.ansi import Text

    t = RTable(title=f"hand {number}", title_justify="left", show_edge=False, pad_edge=False)
    t.add_column("")
    t.add_column("before")
    t.add_column("after")

    def summary(h: Any) -> str:
        v = h.verdict
        pts = ", ".join(f"{a.point}:{a.side}" for a in v.awards) or "-"
        return f"{v.bid.player} {v.bid.label} in {v.trump}, {'made' if v.bid.made else 'set'}; {pts}"

    t.add_row("hand", summary(old), summary(new))
    for s in before.scores:
        t.add_row(f"{s} change", f"{old.verdict.delta[s]:+d}", f"{new.verdict.delta[s]:+d}")
    for s in before.scores:
        t.add_row(f"{s} now", str(before.scores[s]), Text(str(after.scores[s]), style="bold"
                                                          if after.scores[s] != before.scores[s] else ""))
    t.add_row("winner", str(before.winner or "-"), str(after.winner or "-"))
    render.console().print(t)


# ---------------------------------------------------------------------------
# status, history


@app.command("status")
def status(match: MatchOpt = None, as_json: JsonOpt = False) -> None:
    """The scoreboard: scores, who deals next, points needed, who is in the hole, the last hand."""
    from pitchkeeper import __version__
    from pitchkeeper.logbook import store

    path = store.resolve_match_path(match)
    st = store.read_cache(path, __version__)  # an unchanged log need not be parsed and replayed again
    if st is None:
        from pitchkeeper.logbook import loader
        from pitchkeeper.logbook.book import remember

        k = loader.load(path)
        st = remember(k, k.replay(), k.stamp)
    _warn(st["warnings"])
    if as_json:
        emit_json(st)
        return
    _draw_board(st, last=True)


def _draw_board(st: dict[str, Any], last: bool = False) -> None:
    """The scoreboard, drawn from `status --json` data (so a cached status draws without replaying)."""
    from pitchkeeper.show.ansi import Text, grid

    rows: list[list[Any]] = [["side"] + (["players"] if st["teams"] else []) + ["score", "needs", ""]]
    for s, v in st["scores"].items():
        need = st["needed"][s]
        flag = Text("in the hole", style="red") if v < 0 else Text("")
        if st["winner"] == s:
            flag = Text("winner", style="bold green")
        cells: list[Any] = [Text(s, style="bold")] + ([" & ".join(st["sides"][s])] if st["teams"] else [])
        rows.append([*cells, Text(str(v), style="bold red" if v < 0 else "bold"), str(need) if need else "out", flag])
    out = _out()
    t = grid(rows, right=(len(rows[0]) - 3, len(rows[0]) - 2), width=out.width)
    head = (f"{st['rules']} to {st['target']}" + (f" - {st['title']}" if st["title"] else "")
            + f"  (hand {st['hands']})")
    out.print(Text(head, style="bold"))
    for line in t:
        out.print(line)
    h = st["last_hand"]
    if last and h:
        pts = ", ".join(f"{a['point']} {a['side']}" for a in h["awards"]) or "no points"
        delta = ", ".join(f"{s} {d:+d}" for s, d in h["delta"].items())
        made = h["bid"]["made"]
        out.print(Text.assemble(("last hand ", "dim"), f"{h['number']}: {h['bid']['player']} bid "
                                f"{h['bid']['amount']} in {h['trump']}, ", ("made" if made else "set",
                                                                            "green" if made else "red"),
                                f"; {pts}; {delta}"))
    if st["winner"]:
        out.print(Text.assemble(("winner: ", "bold"), (st["winner"], "bold green"),
                                f" on hand {st['won_on_hand']} - {st['reason']}"))
        out.print(Text("start the next game with: pitchkeeper new --rematch", style="dim"))
    else:
        only = " (only the bidding side can win)" if st["only_bidder"] else ""
        out.print(Text(f"{st['next_dealer']} deals next{only}"))
    sk = st["stakes"]
    if sk:
        parts = [f"stake {sk['stake']} {sk['unit']} a player"] if sk["stake"] else []
        if sk["forfeits"]:
            parts.append(f"pool {sk['pool']} (" + ", ".join(f"{p} {n}" for p, n in sk["forfeits"].items()) + ")")
        if sk["settled"]:
            parts.append("settled: " + ", ".join(f"{s} {n:+d}" for s, n in sk["settled"].items()))
        out.print(Text("; ".join(parts), style="cyan"))


@app.command("history")
def history(match: MatchOpt = None, as_json: JsonOpt = False) -> None:
    """The match hand by hand: dealer, bid, points, score changes and running totals."""
    k, state = _book(match).load()
    if as_json:
        rows = []
        for h, hand in zip(state.hands, k.record.hands, strict=True):
            v = h.verdict.to_json()
            rows.append({"number": h.number, "dealer": hand.dealer, "trump": v["trump"], "bid": v["bid"],
                         "awards": v["awards"], "taken": v["taken"], "delta": v["delta"], "scores": h.scores,
                         "note": hand.note or None})
        emit_json({"match": str(k.path), "rules": k.ruleset.name, "target": state.target, "hands": rows,
                   "scores": state.scores, "winner": state.winner,
                   "won_on_hand": state.ending.hand if state.ending else None})
        return
    from pitchkeeper.show import render
    from pitchkeeper.show.ansi import Table as RTable
    from pitchkeeper.show.ansi import Text

    t = RTable()
    for col, just in (("#", "right"), ("dealer", "left"), ("bid", "left"), ("trump", "left"), ("points", "left")):
        t.add_column(col, justify=just)  # type: ignore[arg-type]
    for s in state.scores:
        t.add_column(s, justify="right")
    for h, hand in zip(state.hands, k.record.hands, strict=True):
        v = h.verdict
        bid = Text.assemble(f"{v.bid.player} {v.bid.label} ", ("made" if v.bid.made else "set",
                                                               "green" if v.bid.made else "red"))
        pts = ", ".join(f"{a.point}:{a.side}" for a in v.awards)
        cells = [Text.assemble((str(h.scores[s]), "bold"), " ", render.signed(v.delta[s])) for s in state.scores]
        t.add_row(str(h.number), hand.dealer, bid, render.suit_text(v.trump), Text(pts, style="dim"), *cells)
    render.console().print(Text(f"{k.ruleset.name} to {state.target}  {k.path}", style="bold"))
    render.console().print(t)
    if state.ending:
        render.console().print(Text.assemble(("winner: ", "bold"), (state.ending.winner, "bold green"),
                                           f" on hand {state.ending.hand} - {state.ending.reason}"))
    _warn(list(k.warnings) + list(state.warnings))


# ---------------------------------------------------------------------------
# undo


@app.command("undo")
def undo(match: MatchOpt = None, yes: YesOpt = False, as_json: JsonOpt = False) -> None:
    """Drop the last hand of the match (after asking)."""

    book = _book(match)
    change = book.prepare_drop()
    count, k = change.number, change.before
    v = change.replayed_before.hands[-1].verdict
    what = (f"hand {count}: {k.record.hands[-1].dealer} dealt, {v.bid.player} bid {v.bid.label} in {v.trump}; "
            + ", ".join(f"{s} {d:+d}" for s, d in v.delta.items()))
    if not as_json:
        sys.stdout.write(f"drop {what}\n")
    _confirm(f"drop hand {count}?", yes, "undo")
    book.commit(change)
    after = change.state
    if as_json:
        emit_json(after.to_json())
        return
    sys.stdout.write(f"dropped hand {count}; scores now " + ", ".join(f"{s} {n}" for s, n in after.scores.items())
                     + "\n")


# ---------------------------------------------------------------------------
# matches, check


@app.command("matches")
def matches(as_json: JsonOpt = False) -> None:
    """The match logs in the data folder, with their state; * marks the current match."""
    from pitchkeeper.logbook import store
    from pitchkeeper.logbook.book import Logbook
    from pitchkeeper.logbook.paths import matches_dir

    try:
        current = store.current_match()
    except PitchError:
        current = None
    files = sorted(matches_dir().glob("*.toml")) if matches_dir().is_dir() else []
    if current is not None and current.exists() and all(f.resolve() != current.resolve() for f in files):
        files.append(current)
    rows = []
    for f in files:
        row: dict[str, Any] = {"match": str(f), "current": current is not None and f.resolve() == current.resolve()}
        try:
            k, state = Logbook(f).load()
            row.update(rules=k.ruleset.name, title=k.data.get("title"), players=list(k.record.table.players),
                       hands=len(state.hands), scores=state.scores, winner=state.winner,
                       state="won" if state.ending else "playing", error=None)
        except PitchError as e:
            row.update(rules=None, title=None, players=None, hands=None, scores=None, winner=None, state="broken",
                       error=str(e))
        rows.append(row)
    if as_json:
        emit_json(rows)
        return
    if not rows:
        sys.stdout.write("no matches yet: start one with `pitchkeeper new`\n")
        return
    from pitchkeeper.show import render
    from pitchkeeper.show.ansi import Table as RTable
    from pitchkeeper.show.ansi import Text

    t = RTable()
    for col in ("", "match", "rules", "hands", "scores", "state"):
        t.add_column(col)
    for row in rows:
        if row["state"] == "broken":
            st = Text(f"broken: {row['error']}", style="red")
        elif row["winner"]:
            st = Text(f"won by {row['winner']}", style="green")
        else:
            st = Text("playing")
        scores = ", ".join(f"{s} {n}" for s, n in (row["scores"] or {}).items())
        t.add_row("*" if row["current"] else "", Path(row["match"]).name, row["rules"] or "", str(row["hands"] or 0),
                  scores, st)
    render.console().print(t)


@app.command("check")
def check(
    file: Annotated[str | None, typer.Argument(help="A match log (default: the current match).",
                                               show_default=False)] = None,
    as_json: JsonOpt = False,
) -> None:
    """Check a hand-edited match log: every problem with its hand and line; exit 2 if there is any."""
    from pitchkeeper.logbook import loader, store

    report = loader.check(store.resolve_match_path(file))
    path, warnings = report.path, report.warnings
    found = [f.to_json() for f in report.problems]
    if as_json:
        emit_json({"match": str(path), "ok": not report.errors, "problems": found, "warnings": list(warnings)})
    else:
        for w in warnings:
            sys.stderr.write(f"warning: {w}\n")
        for f in report.problems:
            sys.stderr.write(f"{f}\n")
        if report.errors:
            sys.stderr.write(f"{len(report.errors)} problem(s) in {path}\n")
        else:
            sys.stdout.write(f"{path}: ok - {report.hands} hand(s), {report.ruleset.name}"
                             + (f", {len(found)} warning(s)" if found else "") + "\n")
    if report.errors:
        raise typer.Exit(2)
