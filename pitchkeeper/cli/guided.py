"""`pitchkeeper play`: guided entry for a whole game, hand by hand, at the terminal.

It asks the questions of one hand (dealer known; bidder, bid, trump, then who took each point or
the cards), re-asks on bad input, goes back one answer on `<`, and records each hand through the
same path as `pitchkeeper hand`: its answers make a HandEntry (pitchkeeper.logbook.entry), which the
Logbook turns into the log's hand and checks and writes alike.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import Annotated, Any

import typer

from pitchkeeper.cli import MatchOpt, book_of, interactive, topic, warn
from pitchkeeper.errors import PitchError
from pitchkeeper.logbook.entry import NOT_OUT, amount_of, owner_name

commands = topic()


class _Back(Exception):
    """The player typed < (or back): ask the previous question again."""


class _Quit(Exception):
    """The player typed q (or input ended): stop, keeping the hands already saved."""


@dataclass(frozen=True)
class _Question:
    key: str
    prompt: str
    default: str | None
    parse: Any  # str -> value, raising PitchError to ask again


def _ask(q: _Question, echo: bool) -> tuple[str, Any]:
    """Ask until the answer parses; < goes back, q quits. Returns (the answer as typed, its value)."""
    while True:
        shown = f" [{q.default}]" if q.default not in (None, "") else ""
        sys.stdout.write(f"{q.prompt}{shown}: ")
        sys.stdout.flush()
        line = sys.stdin.readline()
        if line == "":
            sys.stdout.write("\n")
            raise _Quit("input ended")
        text = line.strip()
        if echo:
            sys.stdout.write(text + "\n")
        if text in ("<", "back"):
            raise _Back()
        if text.lower() in ("q", "quit", "exit"):
            raise _Quit("stopped")
        if not text and q.default is not None:
            text = q.default
        try:
            return text, q.parse(text)
        except PitchError as e:
            sys.stdout.write(f"  ? {e.message} (< goes back, q stops)\n")


def _questions(k: Any, raw: dict[str, str], values: dict[str, Any]) -> list[_Question]:
    """The questions of one hand, given the answers so far (the points asked depend on the entry chosen)."""
    from pitchkeeper.game.cards import parse_cards, parse_suit
    from pitchkeeper.game.scoring import always_out, dealt_cards

    r, table = k.ruleset, k.record.table
    b = r.settings["bidding"]
    who = "/".join(table.sides)
    qs = [
        _Question("bidder", f"who won the bid? ({', '.join(table.players)})", raw.get("bidder"),
                  lambda t: table.player(t, "bidder")),
        _Question("amount", "bid" + (f" ({b['min']}-{b['max']} or {b['smudge_name']})" if b["smudge"]
                                     else f" ({b['min']}-{b['max']})"),
                  raw.get("amount", str(b["forced_bid"] or b["min"])), lambda t: _bid_in_range(t, r)),
        _Question("trump", "trump (S, H, D, C)", raw.get("trump"), parse_suit),
        _Question("entry", "enter who took each point (p) or the cards each side took (c)", raw.get("entry", "p"),
                  lambda t: {"p": "points", "points": "points", "c": "cards", "cards": "cards"}[t.lower()]
                  if t.lower() in ("p", "points", "c", "cards") else _bad("type p or c")),
    ]
    if values.get("entry") == "points":
        for rule in r.points:
            must = always_out(rule)
            qs.append(_Question(f"pt:{rule.id}", f"who took {rule.label}? ({who}" + (")" if must else ", - if nobody)"),
                                raw.get(f"pt:{rule.id}", None if must else "-"),
                                lambda t, must=must, rule=rule: _point_answer(table, t, must, rule.label)))
    elif values.get("entry") == "cards":
        cards: list[str] = []
        for s in table.sides:
            key = f"cards:{s}"
            qs.append(_Question(key, f"cards {s} captured (- for none)", raw.get(key),
                                lambda t, s=s: _side_cards(t, s, parse_cards)))
            cards += values.get(key) or []
        if all(f"cards:{s}" in values for s in table.sides) and values.get("trump"):
            for c in dealt_cards(r, values["trump"], cards):
                qs.append(_Question(f"dealt:{c}", f"who was dealt {c}?", raw.get(f"dealt:{c}"),
                                    lambda t: table.player(t, "dealt")))
    qs.append(_Question("save", "save this hand? (y/n)", "y",
                        lambda t: t.lower() in ("y", "yes") if t.lower() in ("y", "yes", "n", "no")
                        else _bad("type y or n")))
    return qs


def _bid_in_range(text: str, ruleset: Any) -> int | str:
    """A bid typed at the prompt, checked against the ruleset's range at once (so it is asked again)."""
    from pitchkeeper.game.scoring import amount_worth

    v = amount_of(text, ruleset)
    amount_worth(ruleset, 0 if v == "smudge" else v, v == "smudge")
    return v


def _side_cards(text: str, side: str, parse_cards: Any) -> list[str]:
    """The cards a side took, as typed; "Us: AS KS" is accepted for Us (the --cards form)."""
    who, sep, rest = text.partition(":")
    if sep:
        if who.strip().lower() != side.lower():
            raise PitchError(f"these are the cards {side} captured, not {who.strip()}")
        text = rest
    return [] if text.strip() in NOT_OUT else list(parse_cards(text))


def _bad(message: str) -> Any:
    raise PitchError(message)


def _point_answer(table: Any, text: str, must: bool, label: str) -> str | None:
    if text.strip().lower() in NOT_OUT:
        if must:
            raise PitchError(f"{label} is always out: say who took it")
        return None
    return owner_name(table, text, label)


def _entry(k: Any, values: dict[str, Any]) -> Any:
    """The answers of one hand as a HandEntry: recorded exactly as `hand` records its options."""
    from pitchkeeper.logbook.entry import NOBODY, HandEntry

    if values["entry"] == "points":
        points = {rule.id: values[f"pt:{rule.id}"] or NOBODY for rule in k.ruleset.points if f"pt:{rule.id}" in values}
        return HandEntry(bidder=values["bidder"], amount=values["amount"], trump=values["trump"], points=points)
    cards = {s: values.get(f"cards:{s}") or [] for s in k.record.table.sides}
    dealt: dict[str, list[str]] = {}
    for key in values:
        if key.startswith("dealt:"):
            dealt.setdefault(values[key], []).append(key[6:])
    return HandEntry(bidder=values["bidder"], amount=values["amount"], trump=values["trump"], cards=cards,
                     dealt=dealt or None)


@commands.command("play")
def play(
    match: MatchOpt = None,
    piped: Annotated[bool, typer.Option("--piped", help="Read the answers from standard input even though it is "
                                        "not a terminal (scripts, tests).")] = False,
) -> None:
    """Guided entry for a whole game: asks hand by hand (< goes back, q stops), shows the scoreboard after each."""
    from pitchkeeper.game import match as m
    from pitchkeeper.show import board

    at_terminal = interactive()
    if not at_terminal and not piped:
        raise PitchError("play asks questions, and standard input is not a terminal; to pipe the answers "
                         "deliberately, add --piped")
    book = book_of(match)
    path = book.path
    k, state = book.load()
    if state.ending:
        sys.stdout.write(f"the game is over: {state.ending.winner} won on hand {state.ending.hand}. "
                         "Start the next with: pitchkeeper new --rematch\n")
        return
    warn(k.warnings)
    while True:
        dealer = m.dealer_due(k.record)
        n = len(k.record.hands) + 1
        scores = ", ".join(f"{s} {v}" for s, v in state.scores.items())
        sys.stdout.write(f"\nhand {n}: {dealer} deals  ({scores})\n")
        raw: dict[str, str] = {}
        values: dict[str, Any] = {}
        i = 0
        saved = False
        try:
            while not saved:
                qs = _questions(k, raw, values)
                if i >= len(qs):
                    i = len(qs) - 1
                q = qs[i]
                try:
                    text, value = _ask(q, echo=not at_terminal)
                except _Back:
                    if i == 0:
                        sys.stdout.write("  (this is the first question of the hand)\n")
                    else:
                        i -= 1
                    continue
                raw[q.key], values[q.key] = text, value
                if q.key != "save":
                    i += 1
                    continue
                if not value:
                    sys.stdout.write("  hand not saved; enter it again\n")
                    values.pop("save", None)
                    raw.pop("save", None)
                    i = 0
                    continue
                try:
                    w = book.record(_entry(k, values))
                except PitchError as e:
                    sys.stdout.write(f"  ? {e.message}\n")
                    i = [x.key for x in qs].index("entry")
                    continue
                saved = True
        except _Quit as e:
            sys.stdout.write(f"{e}: hand {n} was not saved; the hands before it are in {path}\n")
            return
        warn(w.warnings)
        board.verdict(w.state.hands[-1].verdict, w.state.table)
        board.draw(w.scoreboard().to_json())
        k, state = w.after, w.state
        if state.ending:
            return
