"""`pitchkeeper play`: guided entry for a whole game, hand by hand, at the terminal.

It asks the questions of one hand (dealer known): the auction first, call by call from the dealer's
left - each player offered the calls the ruleset allows now (game.bidding's Auction, the rules the
judge applies) - which gives the bidder and the bid; or, with `-` at the first call, the bidder and
the bid themselves. Then trump and every point of the ruleset ("who was dealt low?" where the rule
gives it to the player dealt it) or the cards. It re-asks on bad input, goes back one answer on `<`,
shows the verdict and the new scores before "save this hand? [Y/n]", and records each hand through the
same path as `pitchkeeper hand`: its answers make a HandEntry (pitchkeeper.logbook.entry), which the
Logbook turns into the log's hand and checks and writes alike. The winner is announced once the
winning hand is saved. At a terminal the prompts have line editing and history (readline, where
Python has it).
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import typer

from pitchkeeper.cli import MatchOpt, interactive, topic, warn, yes_no
from pitchkeeper.cli.table import _names, start_match
from pitchkeeper.errors import PitchError
from pitchkeeper.game import answers, rulesets
from pitchkeeper.game import match as m
from pitchkeeper.game.bidding import Auction
from pitchkeeper.game.cards import parse_card, parse_cards, parse_suit
from pitchkeeper.game.partners import calls
from pitchkeeper.game.records import PARTNER_NOBODY, parse_call
from pitchkeeper.game.scoring import always_out, amount_worth, dealt_cards
from pitchkeeper.logbook import store
from pitchkeeper.logbook.book import Change, Logbook
from pitchkeeper.logbook.entry import NOBODY, NOT_OUT, HandEntry, amount_of, owner_name
from pitchkeeper.show import board
from pitchkeeper.show.ansi import Console, Text
from pitchkeeper.words.verdict import call_words

commands = topic()


class _Back(Exception):
    """The player typed < (or back): ask the previous question again."""


class _Quit(Exception):
    """The player typed q (or input ended): stop, keeping the hands already saved."""


@dataclass(frozen=True, slots=True)
class _Question:
    """One question of the dialogue: what it asks, its default, and how its answer is read."""

    key: str
    prompt: str
    default: str | None
    parse: Any  # str -> value, raising PitchError to ask again


def _ask(q: _Question, echo: bool, at_terminal: bool = False) -> tuple[str, Any]:
    """Ask until the answer parses; < goes back, q quits. Returns (the answer as typed, its value)."""
    while True:
        shown = f" [{q.default}]" if q.default not in (None, "") else ""
        prompt = _fit_prompt(f"{q.prompt}{shown}: ")
        if at_terminal:
            try:
                line = input(prompt) + "\n"  # readline (when loaded) edits the line and keeps a history
            except EOFError:
                line = ""
        else:
            sys.stdout.write(prompt)
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
            _say(f"  ? {e.message} (< goes back, q stops)")


def _fit_prompt(prompt: str) -> str:
    """A prompt too wide for the terminal and an answer: its head printed as wrapped lines, the last line left
    to ask on."""
    out = Console()
    parts = Text(prompt.rstrip()).wrap(out.width - 10, indent=0)  # room left for the answer typed
    for part in parts[:-1]:
        out.print(part, wrap=False)
    return parts[-1].plain + " "


def _say(text: str) -> None:
    """A line of the dialogue, wrapped to the terminal (a phone is 40 columns)."""
    Console().print(Text(text))


def _questions(k: Any, raw: dict[str, str], values: dict[str, Any]) -> list[_Question]:
    """The questions of one hand, given the answers so far (the points asked depend on the entry chosen)."""
    r, table = k.ruleset, k.record.table
    b = r.settings["bidding"]
    who = ", ".join(table.sides)
    qs = _auction_questions(k, raw, values)
    if not _auction_kept(values):  # no auction: the bidder and the bid, asked
        qs += [
            _Question("bidder", f"who won the bid? ({', '.join(table.players)})", raw.get("bidder"),
                      lambda t: table.player(t, "bidder")),
            _Question("amount", "bid" + (f" ({b['min']}-{b['max']} or {b['smudge_name']})" if b["smudge"]
                                         else f" ({b['min']}-{b['max']})"),
                      raw.get("amount", str(b["forced_bid"] or b["min"])), lambda t: _bid_in_range(t, r)),
        ]
    qs.append(_Question("trump", "trump (S, H, D, C)", raw.get("trump"), parse_suit))
    bidder = _bidder(values)
    if calls(r, table) and bidder is not None:  # call your partner: the card, and who held it
        others = [p for p in table.players if p != bidder]
        qs += [
            _Question("called", f"which card did {bidder} call?", raw.get("called"), lambda t: parse_card(t)),
            _Question("partner", f"who held it? ({', '.join(others)}, or none: {bidder} alone)", raw.get("partner"),
                      lambda t, b=bidder: _holder(table, t, b)),
        ]
    qs += [
        _Question("entry", "points (p) or cards taken (c)", raw.get("entry", "p"),
                  lambda t: {"p": "points", "points": "points", "c": "cards", "cards": "cards"}[t.lower()]
                  if t.lower() in ("p", "points", "c", "cards") else _bad("type p or c")),
    ]
    if values.get("entry") == "points":
        for rule in r.points:
            must = always_out(rule)
            extra = answers.ways(rule, must)
            qs.append(_Question(f"pt:{rule.id}", f"{answers.question(rule)} ({who}" + (f"; {extra})" if extra else ")"),
                                raw.get(f"pt:{rule.id}"),
                                lambda t, must=must, rule=rule: _point_answer(table, t, must, rule)))
    elif values.get("entry") == "cards":
        size = r.settings["kitty"]["size"]
        if size and bidder is not None:  # the kitty the bidder took, and what it laid away (when that counts)
            counts = r.settings["kitty"]["discard_counts"] != "nothing"
            qs.append(_Question("kitty", f"the kitty, {size} cards {bidder} took (- to leave it out)",
                                raw.get("kitty"), lambda t: _cards_or_none(t)))
            qs.append(_Question("discard", f"cards {bidder} laid away" + (
                " (they count for the bidding side)" if counts else " (- to leave them out)"),
                raw.get("discard"), lambda t, c=counts: _cards_or_none(t, c)))
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
    qs.append(_Question("save", "save this hand? [Y/n]", "", lambda t: yes_no(t, True)))
    return qs


def _bidder(values: dict[str, Any]) -> str | None:
    """Who won the bid, as answered so far (by the auction, or asked)."""
    done = _auction_done(values)
    return done.outcome().player if done is not None else values.get("bidder")


def _holder(table: Any, text: str, bidder: str) -> str:
    """Who held the called card as typed: a player other than the bidder, or none (the bidder alone)."""
    if text.strip().lower() in PARTNER_NOBODY:
        return "none"
    who = table.player(text, "partner")
    if who == bidder:
        raise PitchError(f"{bidder} is the bidder: name who else held it, or none if nobody did")
    return str(who)


def _cards_or_none(text: str, needed: bool = False) -> str:
    """Cards as typed ("-" for none, unless they are needed), checked as cards."""
    if text.strip() in NOT_OUT:
        if needed:
            raise PitchError("they count for the bidding side: list them, such as 5H 4C 2D")
        return "-"
    return " ".join(parse_cards(text))


def _auction_questions(k: Any, raw: dict[str, str], values: dict[str, Any]) -> list[_Question]:
    """The auction, one question a call from the dealer's left, each offering the calls the ruleset allows
    then; `-` at the first skips it (the bidder and the bid are asked instead)."""
    table = k.record.table
    auction = Auction.start(k.ruleset, table, m.dealer_due(k.record) or table.players[0])
    qs = []
    n = 1
    while auction.turn is not None and not auction.done:
        key = f"call:{n}"
        hint = _calls_hint(auction) + ("; - for none" if n == 1 else "")
        head = "auction: " if n == 1 else ""
        qs.append(_Question(key, f"{head}{auction.turn}'s call ({hint})", _earlier_call(auction, raw, n),
                            lambda t, a=auction, n=n: _call(a, t, n)))
        after = values.get(key)
        if after is None:  # not answered yet, or no auction kept
            break
        auction = after
        n += 1
    return qs


def _earlier_call(a: Auction, raw: dict[str, str], n: int) -> str | None:
    """The call given earlier at this turn, offered again (Enter keeps it) while the auction before it allows
    it; the first call offers `-` (no auction) when it has none."""
    said = raw.get(f"call:{n}")
    if said is None:
        return "-" if n == 1 else None
    try:
        _call(a, said, n)
    except PitchError:  # an earlier call changed, and this one no longer fits: asked afresh
        return None
    return said


def _calls_hint(a: Auction) -> str:
    """The calls offered, in few words: "pass, 3-7, smudge" (a run of bids as a range)."""
    words: list[str] = []
    run: list[int] = []

    def close() -> None:
        if run:
            words.append(str(run[0]) if len(run) == 1 else f"{run[0]}-{run[-1]}")
            run.clear()

    for c in a.legal():
        if isinstance(c, int) and not a.last_word:
            if run and c != run[-1] + 1:
                close()
            run.append(c)
            continue
        close()
        words.append(call_words(a, c))
    close()
    return ", ".join(words)


def _call(a: Auction, text: str, n: int) -> Auction | None:
    """One call as typed ("pass", "3", "smudge", "sell"; at eldest's last word "keep" undertakes the bid):
    checked against the bidding rules at once, so a call they refuse is asked again here."""
    t = text.strip().lower()
    if n == 1 and t in NOT_OUT:
        return None
    who = a.turn or ""
    high = a.so_far()
    if a.last_word and t in ("keep", "keep it") and high is not None:
        t = str(high.value)
    if t == "p":
        t = "pass"
    if not t:
        raise PitchError(f"say {who}'s call: {_calls_hint(a)}")
    try:
        _, call = parse_call(f"{who}:{t}", a.table, "auction")
    except PitchError:  # the calls this ruleset allows here, not every call some ruleset has
        raise PitchError(f"'{text.strip()}' is not a call here: {_calls_hint(a)}") from None
    try:
        after = a.then(who, call)
        if after.done:
            after.outcome()  # everyone passed where the hand is dealt again: said now
    except PitchError as e:
        raise PitchError(e.message) from None
    return after


def _after_call(k: Any, key: str, values: dict[str, Any], raw: dict[str, str]) -> None:
    """A call answered (again): the later calls are asked again, each offering its earlier answer (kept in
    `raw`) where the auction still allows it; a whole auction says who won it."""
    for later in [x for x in values if x.startswith("call:") and int(x[5:]) > int(key[5:])]:
        values.pop(later)
    done = _auction_done(values)
    if done is not None:
        out = done.outcome()
        worth = k.ruleset.settings["bidding"]["smudge_name"] if out.smudge else out.amount
        _say(f"  {out.player} won the bid at {worth}" if out.amount else f"  {out.player} pitches without a contract")


def _auction_kept(values: dict[str, Any]) -> bool:
    return values.get("call:1") is not None


def _auction_done(values: dict[str, Any]) -> Auction | None:
    """The whole auction answered (None: none kept, or not finished)."""
    calls = sorted((int(key[5:]), v) for key, v in values.items() if key.startswith("call:") and v is not None)
    last = calls[-1][1] if calls else None
    return last if last is not None and last.done else None


def _question_of(e: PitchError, keys: list[str]) -> str:
    """The question whose answer a refused hand's error is about (where it names one), else the entry's."""
    where = e.where or ""
    m = re.search(r"(auction|bid\.amount|bid|trump|called|partner|kitty|discard|points\.([\w-]+)|captured\.([^.:]+)|"
                  r"dealt)", where)
    first_call = "call:1" if "call:1" in keys and "bidder" not in keys else None
    if m:
        key = {"auction": "call:1", "bid.amount": first_call or "amount", "bid": first_call or "bidder",
               "trump": "trump", "dealt": next((x for x in keys if x.startswith("dealt:")), "entry"),
               "called": "called", "partner": "partner", "kitty": "kitty", "discard": "discard"}.get(m.group(1))
        if m.group(2):
            key = f"pt:{m.group(2)}"
        elif m.group(3):
            key = f"cards:{m.group(3)}"
        if key in keys:
            return key
    return "entry"


def _bid_in_range(text: str, ruleset: Any) -> int | str:
    """A bid typed at the prompt, checked against the ruleset's range at once (so it is asked again)."""
    v = amount_of(text, ruleset)
    amount_worth(ruleset, v if isinstance(v, int) else 0, v == "smudge")
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


def _point_answer(table: Any, text: str, must: bool, rule: Any) -> str | None:
    """A side or player; None for an explicit nobody (-, none) or, for game, tie. Never a silent default."""
    if not text.strip():
        raise PitchError(f"say {answers.question(rule)[:-1]}: a side or player" +
                         ("" if must else ", - if not out") + (", tie" if rule.kind.ties else ""))
    if answers.nobody(rule, text, must):
        return None
    return owner_name(table, text, rule.label)


def _entry(k: Any, values: dict[str, Any]) -> Any:
    """The answers of one hand as a HandEntry: recorded exactly as `hand` records its options. Every
    point was asked, so the entry requires every point (a None answer is an explicit nobody). A kept
    auction gives the bidder and the bid."""
    done = _auction_done(values)
    auction = " ".join(f"{p}:{c}" for p, c in done.calls) if done is not None else None
    if done is not None:
        out = done.outcome()
        values = {**values, "bidder": out.player, "amount": "smudge" if out.smudge else out.amount}
    called, partner = values.get("called"), values.get("partner")
    if values["entry"] == "points":
        points = {rule.id: values[f"pt:{rule.id}"] or NOBODY for rule in k.ruleset.points if f"pt:{rule.id}" in values}
        return HandEntry(bidder=values["bidder"], amount=values["amount"], trump=values["trump"], auction=auction,
                         points=points, require_every_point=True, called=called, partner=partner)
    cards = {s: values.get(f"cards:{s}") or [] for s in k.record.table.sides}
    dealt: dict[str, list[str]] = {}
    for key in values:
        if key.startswith("dealt:"):
            dealt.setdefault(values[key], []).append(key[6:])
    laid = values.get("discard")
    return HandEntry(bidder=values["bidder"], amount=values["amount"], trump=values["trump"], auction=auction,
                     cards=cards, dealt=dealt or None, kitty=values.get("kitty"),
                     discard={"": laid} if laid else None, called=called, partner=partner)


def _line_editing() -> None:
    """Arrow keys and history in the prompts: readline, where this Python has it (not on Windows)."""
    try:
        import readline  # noqa: F401  (importing it is what makes input() edit the line)
    except ImportError:
        pass


def _start_match(echo: bool, at_terminal: bool) -> Path:
    """No current match: ask for the ruleset, the players and the first dealer, and start one (as `new`)."""

    _say("no current match: start one (q stops)")
    rules = _ask(_Question("rules", "ruleset (rules list names them)", "seven-point",
                           lambda t: rulesets.load(t) and t), echo, at_terminal)[1]

    def players(text: str) -> list[str]:
        names = _names(text)
        if len(names) < 2:
            raise PitchError("name the players in seating order, clockwise: Ann, Bob, Cy, Dee")
        return names

    names = _ask(_Question("players", "players, clockwise (commas if a name has a space)", None, players), echo,
                 at_terminal)[1]
    first = _ask(_Question("dealer", "who deals first?", names[0],
                           lambda t: next((n for n in names if n.lower() == t.strip().lower()), None)
                           or _bad(f"one of {', '.join(names)}")), echo, at_terminal)[1]
    start_match(rules=rules, players=names, rules_opt=None, players_opt=None, team=None, solo=False, dealer=first,
                target=None, stake=None, title=None, match=None, rematch=False, of=None, force=False, as_json=False,
                in_play=True)
    path = store.current_match()
    assert path is not None
    return path


@commands.command("play")
def play(
    match: MatchOpt = None,
    piped: Annotated[bool, typer.Option("--piped", help="Read the answers from standard input even though it is "
                                        "not a terminal (scripts, tests).")] = False,
) -> None:
    """Guided entry for a whole game: asks hand by hand (< goes back, q stops), shows the verdict before it saves.

    With no current match, it starts one (ruleset, players, first dealer).
    """
    at_terminal = interactive()
    if not at_terminal and not piped:
        raise PitchError("play asks questions, and standard input is not a terminal; to pipe the answers "
                         "deliberately, add --piped")
    if at_terminal:
        _line_editing()
    echo = not at_terminal
    if match is None and store.current_match() is None:
        try:
            path = _start_match(echo, at_terminal)
        except (_Quit, _Back):
            sys.stdout.write("no match was started\n")
            return
    else:
        path = store.resolve_match_path(match)
    book = Logbook(path)
    k, state = book.load()
    if state.ending:
        _say(f"the game is over: {state.ending.winner} won on hand {state.ending.hand}. "
             "Start the next with: pitchkeeper new --rematch")
        return
    warn(k.warnings)
    while True:
        n = len(k.record.hands) + 1
        scores = ", ".join(f"{s} {v}" for s, v in state.scores.items())
        sys.stdout.write("\n")
        _say(f"hand {n}: {m.dealer_due(k.record)} deals  ({scores})")
        try:
            w = _one_hand(book, k, echo, at_terminal)
        except _Quit as e:
            _say(f"{e}: hand {n} was not saved; the hands before it are in {path}")
            return
        warn(w.warnings)
        _say(f"saved hand {n}: " + ", ".join(f"{s} {v}" for s, v in w.state.scores.items()))
        k, state = w.after, w.state
        if state.ending:  # announced once the winning hand is saved, not before
            _say(f"{state.ending.winner} won on hand {state.ending.hand} - {state.ending.reason}")
            _say("start the next game with: pitchkeeper new --rematch")
            return


def _one_hand(book: Logbook, k: Any, echo: bool, at_terminal: bool) -> Change:
    """Ask one hand's questions until it is saved (what Logbook.record wrote). The questions depend on
    the answers so far (`_questions`), so they are asked again after each answer; before the save
    question the verdict is shown, judged as saving would judge it, and a refused answer sends the
    player back to the question it came from. _Quit when the player stops."""
    raw: dict[str, str] = {}
    values: dict[str, Any] = {}
    i = 0
    while True:
        qs = _questions(k, raw, values)
        if i >= len(qs):
            i = len(qs) - 1
        q = qs[i]
        if q.key == "save" and "preview" not in values:
            try:  # the verdict and the new scores, judged exactly as saving would, before the question
                preview = book.record(_entry(k, values), dry_run=True)
            except PitchError as e:  # back to the question whose answer is wrong
                _say(f"  ? {e.message}")
                i = _back_to(e, qs)
                continue
            board.verdict(preview.state.hands[-1].verdict, preview.state.table)
            board.draw(preview.scoreboard().to_json(), preview=True)
            values["preview"] = True
        try:
            text, value = _ask(q, echo, at_terminal)
        except _Back:
            values.pop("preview", None)
            if i == 0:
                _say("  (this is the first question of the hand)")
            else:
                i -= 1
            continue
        raw[q.key], values[q.key] = (value if isinstance(value, str) and q.key != "entry" else text), value
        values.pop("preview", None) if q.key != "save" else None
        if q.key.startswith("call:"):
            _after_call(k, q.key, values, raw)
        if q.key != "save":
            i += 1
            continue
        if not value:
            _say("  not saved: the answers again (Enter keeps each, < goes back)")
            for key in ("save", "preview"):
                values.pop(key, None)
                raw.pop(key, None)
            i = 0
            continue
        try:
            return book.record(_entry(k, values))
        except PitchError as e:
            _say(f"  ? {e.message}")
            values.pop("preview", None)
            i = _back_to(e, qs)


def _back_to(e: PitchError, qs: list[_Question]) -> int:
    """The index of the question a refusal names."""
    keys = [x.key for x in qs]
    return keys.index(_question_of(e, keys))
