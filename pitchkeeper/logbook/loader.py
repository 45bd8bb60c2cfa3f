"""The one loader of a record file: read, parse, find its ruleset (the pinned one for a log), replay.

Every reader of a match log goes through `load` and `Loaded.replay`, so a broken log is reported
in one shape wherever it is read: `file:line: hands[n].key: what is wrong` (the line of the hand's
`[[hands]]` header; a problem in the header is `file: key: what is wrong`). `logbook.problems`
returns every problem of a log as data, in the same shape, for `pitchkeeper check`.
"""

import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any, NamedTuple

from pitchkeeper.errors import PitchError, control_free, shown
from pitchkeeper.game import match, records, rulesets, scoring
from pitchkeeper.game.scoreboard import Scoreboard, scoreboard
from pitchkeeper.logbook import store


class Loaded(NamedTuple):
    """A match record as read: its text, its TOML, the ruleset it is played under, and its record."""

    path: Path
    text: str
    data: dict[str, Any]
    ruleset: Any
    record: Any
    warnings: tuple[str, ...]
    files: tuple[str, ...] = ()  # the ruleset files consulted (base first)

    def replay(self) -> Any:
        """The match replayed (game.match.MatchState); a hand that cannot be scored is placed by its line."""
        try:
            return match.replay(self.ruleset, self.record)
        except PitchError as e:
            raise place(e, self.path, self.text) from None

    def scoreboard(self, state: Any) -> Scoreboard:
        """The scoreboard of this log replayed (`state`, its replay): what `status` shows."""
        return scoreboard(self.ruleset, self.record, state, match=str(self.path), warnings=self.warnings)


LOG = "match log (start one with `pitchkeeper new`)"


def replayed(path: object) -> tuple[Loaded, Any]:
    """A match log read and replayed, for a reader that neither writes it nor needs its version (`status`,
    `history`): the same log, the same errors as `Logbook(path).load()`, without the Logbook's write half."""
    k = load(log_path(path))
    return k, k.replay()


def type_name(value: object) -> str:
    """What a caller passed, for a message: 'None', 'int', 'bytes'."""
    return "None" if value is None else type(value).__name__


def log_path(path: object) -> Path:
    """The path of a log given by a caller: text or a path-like, never None, bytes or a number."""
    if isinstance(path, str | os.PathLike) and not isinstance(path, bytes):
        name = os.fspath(path)
        if isinstance(name, str) and name and "\0" not in name and _encodable(name):
            return Path(name)
        if isinstance(name, str):
            raise PitchError("expected the path of a match log, got " + (
                "an empty name" if not name else "a name holding a NUL character" if "\0" in name
                else "a name that is not valid text (a lone surrogate)"), "path")
    raise PitchError(f"expected the path of a match log (text or a pathlib.Path), got {type_name(path)}", "path")


def _encodable(name: str) -> bool:
    """Whether the system can hold `name` as a file name (half a character it cannot)."""
    try:
        os.fsencode(name)
    except UnicodeEncodeError:
        return False
    return True


def load(path: str | Path, text: str | None = None, like: Loaded | None = None, rules: str | None = None,
         load_ruleset: Any = None, kind: str = LOG, data: dict[str, Any] | None = None) -> Loaded:
    """Read, parse and check a match record or log (not yet replayed). Errors are in the one shape.

    `text`: the text to read instead of the file (a change not yet written). `like`: a Loaded whose
    header is the same, so its ruleset need not be loaded again. `rules`: a ruleset that overrides
    the record's own (`--rules`). `load_ruleset`: loads a ruleset by reference (`stats` keeps the
    rulesets of many logs read at once). `kind`: what the file should be, for the message when it is
    missing. `data`: `text` already parsed.
    """
    path = Path(path)
    if text is None:
        text = store.read_text(path, kind)
    if data is None:
        data = store.parse_text(text, path) if kind == LOG else store.parse_text(text, path, "")
    try:
        if like is not None and rules is None and like.data.get("rules") == data.get("rules") \
                and like.data.get("ruleset") == data.get("ruleset"):
            ruleset, warnings, files = like.ruleset, list(like.warnings), like.files
        else:
            ruleset, warnings, files = pinned_ruleset(data, path, rules, load_ruleset)
        record = match.parse_match(data)
    except PitchError as e:
        raise place(e, path, text) from None
    return Loaded(path, text, data, ruleset, record, tuple(warnings), tuple(files))


def place(e: PitchError, path: Path, text: str) -> PitchError:
    """The error inside FILE in the one shape: `file:line: hands[n].key: message` (a log is read by line)."""
    where = e.where or ""
    prefix = str(path)
    if where.startswith(prefix):
        return e  # placed already (a ruleset file, say)
    where = key_path(where)
    m = re.match(r"hands\[(\d+)\]", where)
    if m:
        line = store.hand_line(text, int(m.group(1)))
        if line is not None:
            return PitchError(e.message, f"{path}:{line}: {where}")
    return PitchError(e.message, f"{path}: {where}" if where else str(path))


def key_path(where: str) -> str:
    """`hands[2]: bid.amount` (a hand's error placed in its hand) -> `hands[2].bid.amount`."""
    return re.sub(r"^(hands\[\d+\]): (?=[A-Za-z])", r"\1.", where)


# ---------------------------------------------------------------------------
# The ruleset a record is played under


def rules_ref(data: Mapping[str, Any], path: str | Path, override: str | None) -> str:
    """Which ruleset a record asks for: --rules wins; a relative path is read beside the record."""
    if override:
        return override
    ref = data.get("rules")
    if ref is None:
        raise PitchError("missing: name the ruleset, rules = \"seven-point\" (or give --rules)", "rules")
    if not isinstance(ref, str):
        raise PitchError("expected a ruleset name or file path", "rules")
    control_free(ref, "rules", "a ruleset name is plain text")
    if not Path(ref).is_absolute():  # a file is read beside the record; a bare name is a built-in one first
        beside = Path(path).parent / ref
        if (ref.endswith(".toml") or not _builtin(ref)) and store.is_file(beside):
            return str(beside)
    return ref


def _builtin(name: str) -> bool:
    return store.is_file(rulesets.builtin_dir() / f"{name}.toml")


def pinned_ruleset(data: Mapping[str, Any], path: str | Path, override: str | None = None,
                   load: Any = None) -> tuple[Any, list[str], tuple[str, ...]]:
    """The ruleset a match is played under, warnings, and the ruleset files consulted (base first).

    A log pins its ruleset: `[ruleset]` holds its name, its digest, and a copy of the merged
    ruleset TOML. When the ruleset named by `rules` still has that digest it is used; when it has
    changed (a house-rules file edited, pitchkeeper upgraded) the pinned copy is used and a warning
    names both versions, so history never changes silently. A change of words only (the notes, the
    title, the source: the pinned copy's `play_digest` equals the current one's) is no change to the
    game: the current ruleset is used, with its words, and nothing is said. `--rules` (override) wins,
    as for every record. `load` loads a ruleset by reference (default game.rulesets.load).
    """
    if load is None:
        load = rulesets.load
    if override:
        try:
            r = load(override)
        except PitchError as e:  # a problem inside the ruleset file names that file already
            raise (e if e.where else e.at("--rules")) from None
        return r, [], r.chain
    ref = rules_ref(data, path, None)
    pin = data.get("ruleset")
    current = None
    failure: PitchError | None = None
    try:
        current = load(ref)
    except PitchError as e:
        failure = e
    if pin is None:
        if current is None:
            assert failure is not None
            raise failure.at("rules")
        return current, [], current.chain
    if not isinstance(pin, dict) or not isinstance(pin.get("digest"), str):
        raise PitchError("expected [ruleset] with name, digest and copy (written by pitchkeeper new)", "ruleset")
    digest = pin["digest"]
    files = current.chain if current is not None else ()
    if current is not None and current.digest == digest:
        return current, [], files
    what = (f"ruleset {ref!r} has changed since this match began (pinned {digest}; it is now {current.digest})"
            if current is not None else f"ruleset {ref!r} cannot be loaded now: {failure} (pinned {digest})")
    copy = pin.get("copy")
    if not isinstance(copy, str):
        raise PitchError(f"{what}, and the log keeps no copy of the pinned version; give --rules to choose one",
                         "ruleset")
    try:
        merged = store.parse_text(copy, "ruleset.copy", "")
    except PitchError as e:
        raise PitchError(f"the pinned copy is not valid TOML: {e.message}", "ruleset.copy") from None
    problems = rulesets.validate(merged)
    if problems:
        raise PitchError(f"the pinned copy is not a valid ruleset: {problems[0]}", "ruleset.copy")
    pinned = rulesets.compile_ruleset(merged, (f"{path} (pinned copy)",))
    if pinned.digest != digest:
        raise PitchError(f"the pinned copy does not match its digest ({pinned.digest}, not {digest}): "
                         "was it edited by hand?", "ruleset.copy")
    if current is not None and current.play_digest == pinned.play_digest:
        return current, [], files  # only the words changed: the same game
    return pinned, [f"{path}: {what}; the match keeps the pinned version"], files


# ---------------------------------------------------------------------------
# A hand record


def load_hand(path: str | Path, rules: str | None = None) -> tuple[Any, Any, Any]:
    """Read a hand record file: (ruleset, table, hand). Every error names the file and key."""
    data = store.read_record(path)
    return hand_of(data, path, rules, str(path))


def hand_of(data: Mapping[str, Any], path: str | Path, rules: str | None = None,
            name: str | None = None) -> tuple[Any, Any, Any]:
    """A hand record's table: (ruleset, table, hand). `path` finds a ruleset file named beside it;
    `name` (the file) prefixes every message."""
    try:
        ruleset = pinned_ruleset(data, path, rules)[0]  # a hand record pins none: its `rules` or --rules
        table, hand = records.parse_hand_record(data)
        table.check_against(ruleset)
    except PitchError as e:
        raise _named(e, name) from None
    return ruleset, table, hand


def _named(e: PitchError, name: str | None) -> PitchError:
    if name is None or (e.where or "").startswith(name):
        return e
    return e.at(name)


# ---------------------------------------------------------------------------
# The judge of the public API (spec sections 5 and 6)


def check_record(record: object, kind: str) -> None:
    """A program's mistake (None, a list, a key that is not text) is bad input too: a PitchError, never a
    TypeError. Every entry of the public API that takes a record ("hand" or "match") checks it here."""
    if not isinstance(record, Mapping | str | os.PathLike):
        raise PitchError(f"a {kind} record is a mapping of its keys or the path of its file, not {type(record).__name__}")
    if isinstance(record, Mapping):
        plain_data(record)


NESTED = 8  # no record nests past 5 (a match's hands, a hand's tricks, a trick's cards): 8 leaves room


def plain_data(value: object, where: str = "") -> None:
    """What a program passes for a record is shaped like one: every key text (as in TOML; a program may
    write 1: 2), nested no deeper than NESTED, no table or list holding itself. A PitchError names the
    place otherwise. No recursion: any shape a caller builds gets its one line."""
    problem = _shape_problem(value)
    if problem is not None:
        message, at = problem
        raise PitchError(message, ".".join(p for p in (where, at) if p) or None)


def _shape_problem(value: object) -> tuple[str, str] | None:
    """The first problem of `value`'s shape and where it is, walking down with a stack of the tables
    and lists on the way (their place kept as parts, made into words only for the message)."""
    containers = (dict, list, tuple, Mapping)
    stack: list[tuple[Any, int, tuple[Any, ...]]] = [(value, 0, ())]  # (item, depth, place) or (None, -1, container)
    inside: set[int] = set()
    while stack:
        v, depth, place = stack.pop()
        if depth < 0:
            inside.discard(id(place))
            continue
        if id(v) in inside:
            return "this table or list holds itself", _place(place)
        if depth >= NESTED:
            return f"nested more than {NESTED} deep: no record nests so deep", _place(place)
        inside.add(id(v))
        stack.append((None, -1, v))
        if isinstance(v, Mapping):
            for k, item in v.items():
                if not isinstance(k, str):
                    return f"expected a key that is text, got {shown(repr(k))} ({type(k).__name__})", _place(place)
                if isinstance(item, containers):
                    stack.append((item, depth + 1, (*place, k)))
        else:
            for i, item in enumerate(v):
                if isinstance(item, containers):
                    stack.append((item, depth + 1, (*place, i)))
    return None


def _place(parts: tuple[Any, ...]) -> str:
    out = ""
    for p in parts:
        out += f"[{p}]" if isinstance(p, int) else (f".{shown(p)}" if out else shown(p))
    return out


def judge_hand(record: Mapping[str, Any] | str | Path, rules: str | None = None) -> dict[str, Any]:
    """The `judge hand` object of a hand record: a mapping of its keys, or the path of its file."""
    check_record(record, "hand")
    if isinstance(record, Mapping):
        name, (ruleset, table, hand) = None, hand_of(record, ".", rules)
    else:
        name, (ruleset, table, hand) = str(record), load_hand(record, rules)
    try:
        return scoring.verdict(ruleset, table, hand).to_json()
    except PitchError as e:
        raise _named(e, name) from None


def judge_match(record: Mapping[str, Any] | str | Path, rules: str | None = None) -> dict[str, Any]:
    """The `judge match` object of a match record: a mapping of its keys, or the path of its file (a log)."""
    check_record(record, "match")
    if not isinstance(record, Mapping):
        return load(record, rules=rules, kind="file").replay().to_json()
    try:
        ruleset = pinned_ruleset(record, ".", rules)[0]
        return match.replay(ruleset, match.parse_match(record)).to_json()
    except PitchError as e:
        raise PitchError(e.message, key_path(e.where or "") or None) from None
