"""`Logbook`: a kept match as a library - the one write path of every front end (CLI, web, API).

The log's text is the source of truth, and every call reads it as it stands: nothing derived from it
is kept on disk. A write builds the new text (a hand's block appended, or one block cut or replaced,
so comments a person wrote survive), parses it and replays it whole; only then is it written,
atomically and under the log's lock. Bad input is a PitchError (one line) and leaves the file as it
was; so is a log whose hands are not written as `[[hands]]` blocks, which a text change could break.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, NamedTuple

from pitchkeeper.errors import PitchError
from pitchkeeper.game import match, rulesets
from pitchkeeper.game.match import MatchState
from pitchkeeper.game.partners import crosswise
from pitchkeeper.game.records import new_name, parse_table
from pitchkeeper.game.scoreboard import Scoreboard
from pitchkeeper.game.scoring import amount_worth
from pitchkeeper.logbook import loader, store, writing
from pitchkeeper.logbook.loader import Loaded, log_path, type_name
from pitchkeeper.logbook.paths import new_log_path
from pitchkeeper.logbook.writing import now, ordered

# A typed hand (logbook.entry.HandEntry, or anything with its `to_table(log, base)` and `source`)
Entry = Any


class Change(NamedTuple):
    """A change to a log, replayed and checked: what the front end shows, and what gets written."""

    number: int  # the hand added, corrected or dropped
    before: Loaded
    after: Loaded
    state: MatchState  # after the change
    text: str  # the new text of the log
    replayed_before: MatchState | None = None  # before the change (edit, undo)
    warnings: tuple[str, ...] = ()
    what: str = "edit"  # the command a stale change asks to run again

    @property
    def changes_anything(self) -> bool:
        return self.text != self.before.text

    def scoreboard(self) -> Scoreboard:
        """The scoreboard of the match after the change."""
        return self.after.scoreboard(self.state)


class Reading(NamedTuple):
    """One reading of the log: its version and what those very bytes hold, replayed."""

    version: str  # as Logbook.version: a digest of the bytes read
    loaded: Loaded
    state: MatchState


def _version_of(raw: bytes) -> str:
    """A log's version (logbook.versions), loaded by the first reading or versioned write that asks: a
    command line that writes under the lock asks for none and so loads no hashlib."""
    from pitchkeeper.logbook.versions import version_of

    return version_of(raw)


class Stale(PitchError):
    """A write made against a view of the log that is not current any more (another device, the CLI, or a
    new game wrote since): refused, nothing written. `version` is the log's version now."""

    def __init__(self, message: str, where: str | None, version: str | None) -> None:
        super().__init__(message, where)
        self.version = version


class NotNext(PitchError):
    """A hand that names its number (`number=N`), when N is not the next hand: refused, nothing written."""


def _expected(expect: object, number: object = None) -> None:
    """The version and hand number a write is made against, checked for their type (a caller's mistake is
    one line, as every bad argument)."""
    if expect is not None and not isinstance(expect, str):
        raise PitchError(f"expected the version a write is made against (text, as Logbook.version), got "
                         f"{type_name(expect)}", "expect")
    if number is not None and (isinstance(number, bool) or not isinstance(number, int)):
        raise PitchError(f"expected the number of the hand being recorded, got {type_name(number)}", "number")


class Logbook:
    """A match log kept on disk. Every method reads the file as it stands (another writer may have
    changed it) and every write is whole or nothing, locked against any other writer."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = log_path(path)
        self._seen: Reading | None = None  # the last reading, reused while the file's bytes are the same

    def __repr__(self) -> str:
        return f"Logbook({str(self.path)!r})"

    # -- opening and creating

    @classmethod
    def open(cls, path: str | os.PathLike[str]) -> Logbook:
        """A kept match; a missing or broken log is a PitchError (in the one shape)."""
        book = cls(path)
        book.read()
        return book

    @classmethod
    def create(cls, path: str | os.PathLike[str], rules: str | os.PathLike[str], players: Sequence[str],
               teams: Mapping[str, Sequence[str]] | Sequence[tuple[str, Sequence[str]]] | None = None,
               first_dealer: str | None = None, title: str | None = None, target: int | None = None, *,
               stake: int | None = None, rematch_of: str | None = None) -> Logbook:
        """Start a match log at `path` (never over an existing file) that pins its ruleset.

        `teams`: team name -> players; None seats partners across where the ruleset plays in
        partnerships (as `pitchkeeper new`); an empty mapping has each play for himself.
        `first_dealer`: default the first player.
        """
        path = log_path(path)
        if not isinstance(rules, str | os.PathLike) or isinstance(rules, bytes):
            raise PitchError(f"expected a ruleset name or the path of a ruleset file, got {type_name(rules)}", "rules")
        if isinstance(players, str) or not isinstance(players, Sequence):
            raise PitchError("expected a list of names in seating order", "players")
        _optional(first_dealer, str, "first_dealer", "a player's name")
        _optional(title, str, "title", "text")
        _optional(rematch_of, str, "rematch_of", "the path of a match log")
        for value, what in ((target, "target"), (stake, "stake")):
            if value is not None and (not isinstance(value, int) or isinstance(value, bool) or value < 1):
                raise PitchError(f"expected a whole number above 0, got {value!r}", what)
            if value is not None and value >= 2**63:
                raise PitchError(f"{value} is too large: a log holds whole numbers of up to 19 digits", what)
        ref = os.fspath(rules)
        ruleset = rulesets.load(ref)
        merged = dict(ruleset.raw)  # the merged TOML, which the log pins a copy of
        table = parse_table({"players": [p.strip() if isinstance(p, str) else p for p in players]})
        if rematch_of is None:  # a rematch keeps the table as it was kept
            for i, name in enumerate(table.players, 1):
                new_name(name, f"players[{i}]")
        pairs = auto_teams(ruleset, table.players) if teams is None else _team_pairs(teams, table)
        data: dict[str, Any] = {"players": list(table.players)}
        if pairs:
            data["teams"] = {t: list(ms) for t, ms in pairs}
        table = parse_table(data)
        table.check_against(ruleset)
        first = table.player(first_dealer, "first_dealer") if first_dealer is not None else table.players[0]
        if ref.endswith(".toml") or "/" in ref:
            # absolute, but not through its links: a house-rules file reached by a link extends what
            # sits beside the link, and the log must name the file as it was read
            ref = os.path.abspath(ref)
        text = header_text(rules=ref, ruleset=ruleset, merged=merged, players=table.players, teams=table.teams,
                           first_dealer=first, target=target, stake=stake, title=title, rematch_of=rematch_of)
        loader.load(path, text)  # the header must read back as a valid match before it is written
        writing.create_new(path, text)
        return cls(path)

    def rematch(self, path: str | os.PathLike[str] | None = None, *, first_dealer: str | None = None,
                target: int | None = None, stake: int | None = None, title: str | None = None,
                force: bool = False) -> Logbook:
        """The next game at the same table: the same players, teams, rules, target and stake, the deal
        passed on (or to `first_dealer`). Refused while this game is on, unless `force`. `path`:
        default a new file in the data folder."""
        new = log_path(path) if path is not None else None
        _optional(first_dealer, str, "first_dealer", "a player's name")
        _optional(title, str, "title", "text")
        prev, state = self.load()
        if state.ending is None and not force:
            raise PitchError(f"{self.path}: the game is still on (hand {len(state.hands)}); finish it, or add --force")
        rec = prev.record
        table = rec.table
        first = table.player(first_dealer, "--dealer") if first_dealer else match.dealer_due(rec) or table.players[0]
        title = title or prev.data.get("title")
        return Logbook.create(new if new is not None else new_log_path(prev.ruleset.name),
                              loader.rules_ref(prev.data, self.path, None), list(table.players),
                              {t: list(ms) for t, ms in table.teams} if table.teams else {}, first,
                              title if isinstance(title, str) else None,
                              target if target is not None else rec.target,
                              stake=stake if stake is not None else rec.stake, rematch_of=str(self.path.resolve()))

    # -- reading

    def read(self) -> Reading:
        """The log as it stands, read once: its version, the log as loaded, and its replay.

        A reading is reused only for the very same bytes (their digest) whose ruleset, found again,
        is the same one (its digest): an edit however made - the same size, its time put back - or a
        changed house-rules file is read afresh.
        """
        raw = store.read_bytes(self.path, loader.LOG)
        version = _version_of(raw)
        seen = self._seen
        if seen is not None and seen.version == version:
            k = loader.load(self.path, seen.loaded.text, data=seen.loaded.data)  # the same bytes parse the same
            if (k.ruleset.digest, k.warnings, k.files) == (seen.loaded.ruleset.digest, seen.loaded.warnings,
                                                           seen.loaded.files):
                return seen
        else:
            k = loader.load(self.path, store.decoded(raw, self.path))
        reading = Reading(version, k, k.replay())
        self._seen = reading
        return reading

    def load(self) -> tuple[Loaded, MatchState]:
        """The log as it stands, read and replayed: (Loaded, MatchState)."""
        reading = self.read()
        return reading.loaded, reading.state

    def state(self) -> dict[str, Any]:
        """The `judge match` object of the log as it stands."""
        return self.read().state.to_json()

    def scoreboard(self) -> Scoreboard:
        """The scoreboard of the log as it stands (`status --json` prints its `to_json()`)."""
        k, state = self.load()
        return k.scoreboard(state)

    @property
    def version(self) -> str:
        """Opaque; changes with every write, whoever wrote (a digest of the file's bytes)."""
        return _version_of(store.read_bytes(self.path, loader.LOG))

    def snapshot(self) -> tuple[dict[str, Any], str]:
        """The `judge match` object and the version of one and the same reading of the file (a page
        that shows the state and then waits for the next version must not miss a write in between)."""
        reading = self.read()
        return reading.state.to_json(), reading.version

    # -- writing (the public API)

    # Every write may name the version it was made against (`expect`, as `version` gave it): when the log
    # changed since, it is refused with `Stale` and nothing is written. The check is made under the log's
    # lock, on the very bytes the write starts from, so no other writer can slip in between.

    def append(self, hand: Mapping[str, Any] | Entry, *, expect: str | None = None,
               number: int | None = None) -> dict[str, Any]:
        """Record one more hand (the per-hand keys; `dealer` may be left out: the rotation's next
        dealer). Returns the `judge match` object after it. `number`: the hand this is meant to be
        (from 1); when it is not the next one, `NotNext` and nothing is written."""
        return self.record(hand, expect=expect, number=number).state.to_json()

    def replace(self, n: int, hand: Mapping[str, Any] | Entry, *, expect: str | None = None) -> dict[str, Any]:
        """Correct hand `n` (from 1); every later total is replayed. Returns the `judge match` object."""
        _expected(expect)
        with writing.locked(self.path):
            self._check_version(expect)
            change = self.prepare_replace(n, hand)
            self._write(change)
        return change.state.to_json()

    def drop_last(self, *, expect: str | None = None) -> dict[str, Any]:
        """Undo: drop the last hand. Returns the `judge match` object after it."""
        _expected(expect)
        with writing.locked(self.path):
            self._check_version(expect)
            change = self.prepare_drop()
            self._write(change)
        return change.state.to_json()

    def _check_version(self, expect: str | None, raw: bytes | None = None) -> None:
        """Refuse (Stale) a write made against another version than the log's now. Call under the lock."""
        if expect is None:
            return
        now = _version_of(raw if raw is not None else store.read_bytes(self.path, loader.LOG))
        if now != expect:
            raise Stale("the match changed since this was read (another device or the command line wrote to it): "
                        "nothing was written; look at it again", str(self.path), now)

    # -- writing, step by step (a front end that shows a change before it is saved)

    def record(self, hand: Mapping[str, Any] | Entry, *, dry_run: bool = False, expect: str | None = None,
               number: int | None = None) -> Change:
        """Append a hand under the lock (read, build, check, write): two writers never lose a hand.
        `dry_run`: the change checked and replayed, not written. `expect` and `number`: as `append`."""
        _expected(expect, number)
        with writing.locked(self.path):
            writing.sweep_temps(self.path)
            raw = store.read_bytes(self.path, loader.LOG)
            self._check_version(expect, raw)
            k = loader.load(self.path, store.decoded(raw, self.path))
            n = len(k.record.hands) + 1
            if number is not None and number != n:
                raise NotNext(f"hand {number} is not the next hand: the match has {n - 1} hand(s), so the next is "
                              f"hand {n} (nothing was written)", str(self.path))
            _blocks(k, n - 1)
            table = hand_table(hand, k, None, n)
            text = store.append_hand(k.text, block(table, n, self.path))
            try:
                k2, state = _validated(self.path, text, k, [*k.data.get("hands", []), None])
            except PitchError as e:
                raise new_hand_error(e, self.path, n, getattr(hand, "source", None)) from None
            if not dry_run:
                self._write_text(text)
        warnings = tuple(w for w in state.warnings if w.startswith(f"hands[{n}]")) + k.warnings
        return Change(n, k, k2, state, text, None, warnings, "hand")

    def prepare_replace(self, n: int, hand: Mapping[str, Any] | Entry) -> Change:
        """Hand `n` corrected and the match replayed, not yet written (see `commit`)."""
        k = loader.load(self.path)
        before = k.replay()
        count = len(k.record.hands)
        if isinstance(n, bool) or not isinstance(n, int):
            raise PitchError(f"expected the number of the hand to correct (1 to {count}), got {type_name(n)} {n!r}",
                             "number")
        if not 1 <= n <= count:
            raise PitchError(f"there is no hand {n}: the log has {count} hand(s)", str(self.path))
        _blocks(k, count)
        hands = list(k.data["hands"])
        table = hand_table(hand, k, hands[n - 1], n)
        text = store.replace_hand(k.text, n, count, block(table, n, self.path))
        hands[n - 1] = None
        try:
            k2, after = _validated(self.path, text, k, hands)
        except PitchError as e:
            raise PitchError(e.message + " (nothing was written)", e.where) from None
        return Change(n, k, k2, after, text, before, k2.warnings, "edit")

    def prepare_drop(self) -> Change:
        """The log without its last hand, replayed, not yet written (see `commit`)."""
        k = loader.load(self.path)
        count = len(k.record.hands)
        if not count:
            raise PitchError("the match has no hands to undo", str(self.path))
        before = k.replay()
        _blocks(k, count)
        text = store.remove_hand(k.text, count, count)
        try:
            k2, after = _validated(self.path, text, k, list(k.data["hands"][:-1]))
        except PitchError as e:
            raise PitchError(e.message + " (nothing was written)", e.where) from None
        return Change(count, k, k2, after, text, before, k2.warnings, "undo")

    def commit(self, change: Change) -> None:
        """Write a prepared change, unless the log changed since it was prepared (then nothing is written)."""
        if not isinstance(change, Change):
            raise PitchError(f"expected a change made by prepare_replace or prepare_drop, got {type_name(change)}")
        with writing.locked(self.path):
            self._write(change)

    def _write(self, change: Change) -> None:
        """Write a change while holding the lock (first sweeping what a killed writer left, as `record` does)."""
        writing.sweep_temps(self.path)
        if store.read_text(self.path) != change.before.text:
            again = "run undo again" if change.what == "undo" else f"run the {change.what} again"
            when = "meanwhile" if change.what == "undo" else f"while this {change.what} was prepared"
            raise PitchError(f"the log changed {when}; {again}", str(self.path))
        if change.changes_anything:
            self._write_text(change.text)

    def _write_text(self, text: str) -> None:
        writing.write_atomic(self.path, text)
        self._seen = None


# ---------------------------------------------------------------------------
# Helpers of the write path


def _optional(value: object, kind: type, what: str, said: str) -> None:
    if value is not None and not isinstance(value, kind):
        raise PitchError(f"expected {said}, got {type_name(value)}", what)


def _team_pairs(teams: object, table: Any) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """`teams` of `create` (a mapping of team name -> players, or pairs of them) as pairs, names checked."""
    if isinstance(teams, Mapping):
        items = list(teams.items())
    elif isinstance(teams, Sequence) and not isinstance(teams, str):
        items = list(teams)
        if not all(isinstance(i, Sequence) and not isinstance(i, str) and len(i) == 2 for i in items):
            raise PitchError("expected a mapping of team name -> players, or (name, players) pairs", "teams")
    else:
        raise PitchError(f"expected a mapping of team name -> players, got {type_name(teams)}", "teams")
    out = []
    for t, ms in items:
        if not isinstance(t, str):
            raise PitchError(f"expected a team's name, got {type_name(t)}", "teams")
        if isinstance(ms, str) or not isinstance(ms, Sequence):
            raise PitchError(f"expected a list of the team's players, got {type_name(ms)}", f"teams.{t}")
        out.append((t, tuple(table.player(m, f"teams.{t}") for m in ms)))
    return tuple(out)


def _blocks(k: Loaded, count: int) -> None:
    """Refuse to change a log whose hands are not `count` [[hands]] blocks (an inline array, say)."""
    problem = store.blocks_problem(k.text, count)
    if problem is not None:
        raise PitchError(f"{problem} (nothing was written)", f"{k.path}: hands")


def _validated(path: Path, text: str, like: Loaded, hands: list[Any]) -> tuple[Loaded, MatchState]:
    """Parse and replay the new text whole: nothing is written unless this succeeds. `hands`: what
    the new text must hold, hand by hand (None: the hand changed); the header must be as it was."""
    try:
        data = store.parse_text(text, path)
    except PitchError:  # the old text parsed: the change breaks it (hands in a shape TOML closes)
        raise PitchError(f"this change would break the log's TOML (are its hands all [[hands]] blocks?): "
                         f"{store.FIX_BLOCKS}", f"{path}: hands") from None
    k = loader.load(path, text, like, data=data)
    got = k.data.get("hands", [])
    if len(got) != len(hands) or any(want is not None and h != want for h, want in zip(got, hands, strict=True)):
        raise PitchError(f"this change would also alter another hand (are its hands all [[hands]] blocks?): "
                         f"{store.FIX_BLOCKS}", f"{path}: hands")
    changed = sorted(key for key in {*k.data, *like.data} - {"hands"} if k.data.get(key) != like.data.get(key))
    if changed:  # a cut that took more than a hand's own lines: refuse it rather than lose them
        raise PitchError(f"this change would also alter {', '.join(changed)}; the log was not changed", str(path))
    store.check_blocks(text, len(got), f"{path}: hands")  # what is written can be changed again
    return k, k.replay()


def hand_table(hand: Mapping[str, Any] | Entry, k: Loaded, base: Mapping[str, Any] | None,
               n: int | None = None) -> dict[str, Any]:
    """The hand as the log keeps it. A mapping is taken as written (a missing dealer is the
    rotation's, or the corrected hand's); an entry is built against the log."""
    if not isinstance(hand, Mapping):
        if hasattr(hand, "to_table"):
            return hand.to_table(k, base)
        raise PitchError(f"expected a table of the per-hand keys (dealer, trump, bid, ...), got {type(hand).__name__}",
                         f"{k.path}: hand")
    try:
        loader.plain_data(hand)
    except PitchError as e:
        raise e.at(f"{k.path}: hand") from None
    out = dict(hand)
    bid = out.get("bid")
    if isinstance(bid, Mapping) and "amount" in bid:
        out["bid"] = {**bid, "amount": _amount(bid["amount"], k, f"{k.path}: hands[{n or len(k.record.hands) + 1}]")}
    if "dealer" not in out:
        if isinstance(base, Mapping) and "dealer" in base:
            out["dealer"] = base["dealer"]
        else:
            due = match.dealer_due(k.record)
            if due is None:
                raise PitchError("who dealt? the log names no first dealer: give dealer", str(k.path))
            out["dealer"] = due
    out.setdefault("recorded", now())
    return ordered(out)


def _amount(amount: object, k: Loaded, where: str) -> object:
    """A bid's amount as the record writes it (spec section 3: a whole number, or "smudge"): typed digits
    (" 3 ", "02") are written as the number they mean, so that every reader of the log finds a number;
    a number past the 64 bits of TOML is a bid out of range, said as such before it can reach the file."""
    if isinstance(amount, str) and amount.strip().isascii() and amount.strip().isdigit() and len(amount.strip()) < 19:
        return int(amount.strip())
    if isinstance(amount, int) and not isinstance(amount, bool) and not -(2**63) <= amount < 2**63:
        try:
            amount_worth(k.ruleset, amount)  # out of range: says so, with the ruleset's range
        except PitchError as e:
            raise PitchError(f"{e.message} (nothing was written)", f"{where}.bid.amount") from None
    return amount


def block(hand: Mapping[str, Any], n: int, path: Path) -> str:
    """A hand's `[[hands]]` text; a value TOML cannot hold is bad input."""
    try:
        return writing.hand_toml(dict(hand))
    except TypeError as e:
        raise PitchError(f"{e} (nothing was written)", f"{path}: hands[{n}]") from None


def new_hand_error(e: PitchError, path: Path, n: int, source: str | None = None) -> PitchError:
    """An error in the hand being added names the hand, not a line of a file that was not written;
    for a hand read from a file (`--from`), that file and its key."""
    where = e.where or ""
    prefix = f"{path}:"
    if where.startswith(prefix):
        where = where.split(": ", 1)[1] if ": " in where else ""
    m = re.match(r"hands\[(\d+)\]", where)
    if m and int(m.group(1)) != n:
        return e  # a hand already in the log is broken: it is named with its line, as every reader names it
    if source and where.startswith(f"hands[{n}]"):
        key = where[len(f"hands[{n}]"):].lstrip(".: ")
        return PitchError(e.message + " (nothing was written)", f"{source}: {key}" if key else source)
    return PitchError(e.message + " (nothing was written)", f"{path}: {where}" if where else str(path))


def auto_teams(ruleset: Any, players: tuple[str, ...]) -> tuple[tuple[str, tuple[str, ...]], ...] | None:
    """Partners sit across from each other: players 1 and 3 against 2 and 4 (or in threes, crosswise)."""
    for size in sorted(s for s in ruleset.settings["players"]["team_sizes"] if s > 1):
        teams = crosswise(players, size)
        if teams:
            return teams
    return None


def header_text(*, rules: str, ruleset: Any, merged: dict[str, Any], players: tuple[str, ...],
                teams: tuple[tuple[str, tuple[str, ...]], ...] | None, first_dealer: str, target: int | None,
                stake: int | None, title: str | None, rematch_of: str | None) -> str:
    """The header of a new match log: the table, the dealer, and the pinned ruleset."""
    toml_value = writing.toml_value
    lines = [
        "# pitchkeeper match log: one [[hands]] block per hand, in the order played.",
        "# You may correct it by hand; then run `pitchkeeper check` on this file.",
        f"format = {writing.FORMAT}",
        f"rules = {toml_value(rules)}",
    ]
    if title:
        lines.append(f"title = {toml_value(title)}")
    lines.append(f"players = {toml_value(list(players))}")
    if teams:
        lines.append(f"teams = {toml_value({t: list(m) for t, m in teams})}")
    lines.append(f"first_dealer = {toml_value(first_dealer)}")
    if target is not None:
        lines.append(f"target = {target}")
    if stake is not None:
        lines.append(f"stake = {stake}")
    lines.append(f"created = {toml_value(now())}")
    if rematch_of:
        lines.append(f"rematch_of = {toml_value(rematch_of)}")
    lines += [
        "",
        "# The ruleset as it was when this match began: the digest pins it and the copy keeps it,",
        "# so a later change to the ruleset cannot change this game's history.",
        "[ruleset]",
        f"name = {toml_value(ruleset.name)}",
        f"digest = {toml_value(ruleset.digest)}",
        f"copy = {writing.multiline(writing.table_toml(merged))}",
    ]
    return "\n".join(lines) + "\n"
