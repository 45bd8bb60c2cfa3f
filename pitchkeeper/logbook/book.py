"""`Logbook`: a kept match as a library - the one write path of every front end (CLI, web, API).

The log's text is the source of truth. A write builds the new text (a hand's block appended, or
one block cut or replaced, so comments a person wrote survive), reads it back through the one
loader and replays it whole; only then is it written, atomically and under the log's lock. Bad
input is a PitchError and leaves the file as it was.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, NamedTuple

from pitchkeeper.errors import PitchError
from pitchkeeper.logbook import loader, store
from pitchkeeper.logbook.loader import Loaded

# A typed hand (logbook.entry.HandEntry, or anything with its `to_table(log, base)` and `source`)
Entry = Any


class Change(NamedTuple):
    """A change to a log, replayed and checked: what the front end shows, and what gets written."""

    number: int  # the hand added, corrected or dropped
    before: Loaded
    after: Loaded
    state: Any  # game.match.MatchState after the change
    text: str  # the new text of the log
    replayed_before: Any = None  # MatchState before the change (edit, undo)
    warnings: tuple[str, ...] = ()
    what: str = "edit"  # the command a stale change asks to run again
    points: Any = None  # made on a replay checkpoint: its (last, one before) points after the change

    @property
    def changes_anything(self) -> bool:
        return self.text != self.before.text

    def scoreboard(self) -> Any:
        """The scoreboard (game.scoreboard.Scoreboard) of the match after the change."""
        from pitchkeeper.game.scoreboard import scoreboard

        k = self.after
        return scoreboard(k.ruleset, k.record, self.state, match=str(k.path), warnings=k.warnings)


_KEY_ORDER = ("dealer", "trump", "bid", "auction", "points", "captured", "tricks", "dealt", "held", "revokes",
              "note", "announced", "recorded")


def ordered(hand: Mapping[str, Any]) -> dict[str, Any]:
    """A hand's keys in the order the log writes them (the known ones first, as a person reads them)."""
    return {k: hand[k] for k in sorted(hand, key=lambda k: _KEY_ORDER.index(k) if k in _KEY_ORDER else 99)}


def now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S")


class Logbook:
    """A match log kept on disk. Every method reads the file as it stands (another writer may have
    changed it) and every write is whole or nothing, locked against any other writer."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._seen: tuple[Loaded, Any] | None = None  # the last text read, replayed

    def __repr__(self) -> str:
        return f"Logbook({str(self.path)!r})"

    # -- opening and creating

    @classmethod
    def open(cls, path: str | Path) -> Logbook:
        """A kept match; a missing or broken log is a PitchError (in the one shape)."""
        book = cls(path)
        book.load()
        return book

    @classmethod
    def create(cls, path: str | Path, rules: str, players: Sequence[str],
               teams: Mapping[str, Sequence[str]] | Sequence[tuple[str, Sequence[str]]] | None = None,
               first_dealer: str | None = None, title: str | None = None, target: int | None = None, *,
               stake: int | None = None, rematch_of: str | None = None) -> Logbook:
        """Start a match log at `path` (never over an existing file) that pins its ruleset.

        `teams`: team name -> players; None seats partners across where the ruleset plays in
        partnerships (as `pitchkeeper new`); an empty mapping has each play for himself.
        `first_dealer`: default the first player.
        """
        from pitchkeeper.game.records import parse_table
        from pitchkeeper.logbook import rulecache

        if isinstance(players, str) or not isinstance(players, Sequence):
            raise PitchError("expected a list of names in seating order", "players")
        if target is not None and (not isinstance(target, int) or isinstance(target, bool) or target < 1):
            raise PitchError(f"expected a whole number above 0, got {target!r}", "target")
        ref = str(rules)
        ruleset = rulecache.load(ref)
        merged = dict(ruleset.raw)  # the merged TOML, which the log pins a copy of
        table = parse_table({"players": [p.strip() if isinstance(p, str) else p for p in players]})
        if teams is None:
            pairs = auto_teams(ruleset, table.players)
        elif isinstance(teams, Mapping):
            pairs = tuple((str(t), tuple(table.player(m, f"teams.{t}") for m in ms)) for t, ms in teams.items())
        else:
            pairs = tuple((str(t), tuple(table.player(m, f"teams.{t}") for m in ms)) for t, ms in teams)
        data: dict[str, Any] = {"players": list(table.players)}
        if pairs:
            data["teams"] = {t: list(ms) for t, ms in pairs}
        table = parse_table(data)
        table.check_against(ruleset)
        first = table.player(first_dealer, "first_dealer") if first_dealer is not None else table.players[0]
        if ref.endswith(".toml") or "/" in ref:
            import os

            # absolute, but not through its links: a house-rules file reached by a link extends what
            # sits beside the link, and the log must name the file as it was read
            ref = os.path.abspath(ref)
        text = header_text(rules=ref, ruleset=ruleset, merged=merged, players=table.players, teams=table.teams,
                           first_dealer=first, target=target, stake=stake, title=title, rematch_of=rematch_of)
        path = Path(path)
        k = loader.load(path, text)  # the header must read back as a valid match before it is written
        store.create_new(path, text)
        from pitchkeeper.logbook import checkpoint

        start = checkpoint.Point(0, dict.fromkeys(k.record.table.sides, 0), None, (), {}, None, None, None)
        checkpoint.save(path, checkpoint.Entry(text, k.data, k.ruleset.digest, start, None))  # a quick first hand
        return cls(path)

    def rematch(self, path: str | Path | None = None, *, first_dealer: str | None = None, target: int | None = None,
                stake: int | None = None, title: str | None = None, force: bool = False) -> Logbook:
        """The next game at the same table: the same players, teams, rules, target and stake, the deal
        passed on (or to `first_dealer`). Refused while this game is on, unless `force`. `path`:
        default a new file in the data folder."""
        from pitchkeeper.game import match
        from pitchkeeper.logbook.paths import new_log_path

        prev, state = self.load()
        if state.ending is None and not force:
            raise PitchError(f"{self.path}: the game is still on (hand {len(state.hands)}); finish it, or add --force")
        rec = prev.record
        table = rec.table
        first = table.player(first_dealer, "--dealer") if first_dealer else match.dealer_due(rec) or table.players[0]
        title = title or prev.data.get("title")
        return Logbook.create(path if path is not None else new_log_path(prev.ruleset.name),
                              loader.rules_ref(prev.data, self.path, None), list(table.players),
                              {t: list(ms) for t, ms in table.teams} if table.teams else {}, first,
                              title if isinstance(title, str) else None,
                              target if target is not None else rec.target,
                              stake=stake if stake is not None else rec.stake, rematch_of=str(self.path.resolve()))

    # -- reading

    def load(self) -> tuple[Loaded, Any]:
        """The log as it stands, read and replayed: (Loaded, MatchState)."""
        k = loader.load(self.path)
        if self._seen is not None and self._seen[0].text == k.text \
                and self._seen[0].ruleset.digest == k.ruleset.digest:
            return self._seen
        seen = (k, k.replay())
        self._seen = seen
        return seen

    def state(self) -> dict[str, Any]:
        """The `judge match` object of the log as it stands."""
        return self.load()[1].to_json()

    def scoreboard(self) -> Any:
        """The scoreboard (game.scoreboard.Scoreboard) of the log as it stands."""
        from pitchkeeper.game.scoreboard import scoreboard

        k, state = self.load()
        return scoreboard(k.ruleset, k.record, state, match=str(k.path), warnings=k.warnings)

    @property
    def version(self) -> str:
        """Opaque; changes with every write, whoever wrote (a digest of the file's bytes)."""
        return _digest(store.read_bytes(self.path, loader.LOG))

    def snapshot(self) -> tuple[dict[str, Any], str]:
        """The `judge match` object and the version of one and the same reading of the file (a page
        that shows the state and then waits for the next version must not miss a write in between)."""
        raw = store.read_bytes(self.path, loader.LOG)
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            return self.state(), _digest(raw)  # the loader says what is wrong, in its words
        k = loader.load(self.path, text.replace("\r\n", "\n") if "\r" in text else text)
        return k.replay().to_json(), _digest(raw)

    # -- writing (the public API)

    def append(self, hand: Mapping[str, Any] | Entry) -> dict[str, Any]:
        """Record one more hand (the per-hand keys; `dealer` may be left out: the rotation's next
        dealer). Returns the `judge match` object after it."""
        return self.record(hand).state.to_json()

    def replace(self, n: int, hand: Mapping[str, Any] | Entry) -> dict[str, Any]:
        """Correct hand `n` (from 1); every later total is replayed. Returns the `judge match` object."""
        with store.locked(self.path):
            change = self.prepare_replace(n, hand)
            self._write(change)
        return change.state.to_json()

    def drop_last(self) -> dict[str, Any]:
        """Undo: drop the last hand. Returns the `judge match` object after it."""
        with store.locked(self.path):
            change = self.prepare_drop()
            self._write(change)
        return change.state.to_json()

    # -- writing, step by step (a front end that shows a change before it is saved)

    def record(self, hand: Mapping[str, Any] | Entry, *, dry_run: bool = False, quick: bool = False) -> Change:
        """Append a hand under the lock (read, build, check, write): two writers never lose a hand.

        `quick`: on the log's replay checkpoint when it has one for this very text; the Change's state
        then holds only the last hands (enough for the board, not for its `to_json`).
        """
        with store.locked(self.path):
            store.sweep_temps(self.path)
            if quick:
                from pitchkeeper.logbook import checkpoint

                change = checkpoint.append(self, hand)
                if change is not None:
                    if not dry_run:
                        self._write_text(change.text, change.after, change.state)
                        self._checkpoint(change)
                    return change
            k = loader.load(self.path)
            n = len(k.record.hands) + 1
            table = hand_table(hand, k, None)
            text = store.append_hand(k.text, block(table, n, self.path))
            try:
                k2, state = validated(self.path, text, n, k)
            except PitchError as e:
                raise new_hand_error(e, self.path, n, getattr(hand, "source", None)) from None
            if not dry_run:
                store.hand_spans(text, len(k2.record.hands))  # the block can be found again by undo and edit
                self._write_text(text, k2, state)
        warnings = tuple(w for w in state.warnings if w.startswith(f"hands[{n}]")) + k.warnings
        change = Change(n, k, k2, state, text, None, warnings, "hand")
        if not dry_run:
            self._checkpoint(change)
        return change

    def prepare_replace(self, n: int, hand: Mapping[str, Any] | Entry, *, quick: bool = False) -> Change:
        """Hand `n` corrected and the match replayed, not yet written (see `commit`). `quick`: the last
        hand on the replay checkpoint when there is one (the states then hold only the last hands)."""
        if quick:
            from pitchkeeper.logbook import checkpoint

            change = checkpoint.replace_last(self, n, hand)
            if change is not None:
                return change
        k = loader.load(self.path)
        before = k.replay()
        count = len(k.record.hands)
        if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= count:
            raise PitchError(f"there is no hand {n}: the log has {count} hand(s)", str(self.path))
        raw = k.data["hands"][n - 1]
        table = hand_table(hand, k, raw)
        text = store.replace_hand(k.text, n, count, block(table, n, self.path))
        try:
            k2, after = validated(self.path, text, count, k)
        except PitchError as e:
            raise PitchError(e.message + " (nothing was written)", e.where) from None
        return Change(n, k, k2, after, text, before, k2.warnings, "edit")

    def prepare_drop(self, *, quick: bool = False) -> Change:
        """The log without its last hand, replayed, not yet written (see `commit`). `quick`: on the replay
        checkpoint when there is one (the states then hold only the last hands)."""
        if quick:
            from pitchkeeper.logbook import checkpoint

            change = checkpoint.drop(self)
            if change is not None:
                return change
        k = loader.load(self.path)
        count = len(k.record.hands)
        if not count:
            raise PitchError("the match has no hands to undo", str(self.path))
        before = k.replay()
        text = store.remove_hand(k.text, count, count)
        k2, after = validated(self.path, text, count - 1, k)
        return Change(count, k, k2, after, text, before, k2.warnings, "undo")

    def commit(self, change: Change) -> None:
        """Write a prepared change, unless the log changed since it was prepared (then nothing is written)."""
        with store.locked(self.path):
            self._write(change)

    def _write(self, change: Change) -> None:
        """Write a change while holding the lock (first sweeping what a killed writer left, as `record` does)."""
        store.sweep_temps(self.path)
        if store.read_text(self.path) != change.before.text:
            again = "run undo again" if change.what == "undo" else f"run the {change.what} again"
            when = "meanwhile" if change.what == "undo" else f"while this {change.what} was prepared"
            raise PitchError(f"the log changed {when}; {again}", str(self.path))
        if change.changes_anything:
            self._write_text(change.text, change.after, change.state)
            self._checkpoint(change)

    def _write_text(self, text: str, k: Loaded, state: Any) -> None:
        store.write_atomic(self.path, text)
        remember(k, state, store.stamp(self.path))
        self._seen = None

    def _checkpoint(self, change: Change) -> None:
        """Remember the replay of the text written and of the text it replaced (an undo, or a file put
        back, finds it), so the next change at the end of the log need not replay it (best effort)."""
        from pitchkeeper.logbook import checkpoint

        before = change.before
        header = {key: v for key, v in change.after.data.items() if key != "hands"}
        if change.points is not None:  # made on the checkpoint of the text before, which is kept near
            checkpoint.save(self.path, checkpoint.Entry(change.text, header, change.after.ruleset.digest,
                                                        *change.points), touch=before.text)
            return
        new = checkpoint.entries_of(change.after, change.state)
        if change.replayed_before is not None:
            old = checkpoint.entries_of(before, change.replayed_before)
        else:  # a hand appended: the text before it is the new replay without its last hand
            old = checkpoint.entries_of(change.after, change.state, drop=1)._replace(text=before.text)
        checkpoint.save(self.path, new, old)


# ---------------------------------------------------------------------------
# Helpers of the write path


def _digest(data: bytes) -> str:
    return store.blake2(data, 12)


def remember(k: Loaded, state: Any, stamp: list[int] | None) -> dict[str, Any]:
    """The scoreboard of a replayed log, cached beside it for the next `status` (keyed by the file's version)."""
    from pitchkeeper import __version__
    from pitchkeeper.game.scoreboard import scoreboard

    board = scoreboard(k.ruleset, k.record, state, match=str(k.path), warnings=k.warnings).to_json()
    store.write_cache(k.path, stamp, k.files, __version__, board)
    return board


def hand_table(hand: Mapping[str, Any] | Entry, k: Loaded, base: Mapping[str, Any] | None) -> dict[str, Any]:
    """The hand as the log keeps it. A mapping is taken as written (a missing dealer is the
    rotation's, or the corrected hand's); an entry is built against the log."""
    from pitchkeeper.game import match

    if not isinstance(hand, Mapping):
        if hasattr(hand, "to_table"):
            return hand.to_table(k, base)
        raise PitchError(f"expected a table of the per-hand keys (dealer, trump, bid, ...), got {type(hand).__name__}",
                         f"{k.path}: hand")
    out = dict(hand)
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


def block(hand: Mapping[str, Any], n: int, path: Path) -> str:
    """A hand's `[[hands]]` text; a value TOML cannot hold is bad input."""
    try:
        return store.hand_toml(dict(hand))
    except TypeError as e:
        raise PitchError(f"{e} (nothing was written)", f"{path}: hands[{n}]") from None


def validated(path: Path, text: str, number: int, like: Loaded | None = None) -> tuple[Loaded, Any]:
    """Parse and replay the new text whole: nothing is written unless this succeeds."""
    k = loader.load(path, text, like)
    if len(k.record.hands) < number:
        raise PitchError("the new hand did not read back from the log", str(path))
    if like is not None:
        changed = sorted(key for key in {*k.data, *like.data} - {"hands"} if k.data.get(key) != like.data.get(key))
        if changed:  # a cut that took more than a hand's own lines: refuse it rather than lose them
            raise PitchError(f"this change would also alter {', '.join(changed)}; the log was not changed",
                             str(path))
    return k, k.replay()


def new_hand_error(e: PitchError, path: Path, n: int, source: str | None = None) -> PitchError:
    """An error in the hand being added names the hand, not a line of a file that was not written;
    for a hand read from a file (`--from`), that file and its key."""
    import re

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
    n = len(players)
    for size in sorted(s for s in ruleset.settings["players"]["team_sizes"] if s > 1):
        if n % size == 0 and n // size >= 2:
            k = n // size
            groups = [tuple(players[i::k]) for i in range(k)]
            names = ["Us", "Them"] if k == 2 else ["+".join(g) for g in groups]
            return tuple(zip(names, groups, strict=True))
    return None


def header_text(*, rules: str, ruleset: Any, merged: dict[str, Any], players: tuple[str, ...],
                teams: tuple[tuple[str, tuple[str, ...]], ...] | None, first_dealer: str, target: int | None,
                stake: int | None, title: str | None, rematch_of: str | None) -> str:
    """The header of a new match log: the table, the dealer, and the pinned ruleset."""
    from pitchkeeper.logbook.store import FORMAT, multiline, table_toml, toml_value

    lines = [
        "# pitchkeeper match log: one [[hands]] block per hand, in the order played.",
        "# You may correct it by hand; then run `pitchkeeper check` on this file.",
        f"format = {FORMAT}",
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
        f"copy = {multiline(table_toml(merged))}",
    ]
    return "\n".join(lines) + "\n"
