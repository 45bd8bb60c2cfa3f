"""A replay checkpoint: the state of a log after its last hand (and the one before), so that `hand`,
`undo` and `edit` of the last hand cost the same on hand 10,000 as on hand 30.

The file stays the truth. A checkpoint is used only for the exact text it was made from (its length
and a digest of it) under a ruleset of the same digest, and only for a change at the end of the log;
anything else - another text, a hand edited by hand, a corrupt or missing checkpoint - is `None`, and
the caller replays the whole log as before. The new hand is checked the way a full replay checks it:
the appended (or replaced) last block is read on its own (a TOML document that parsed whole followed
by one `[[hands]]` block parses as the same document with that hand appended); the hand is then scored
on the checkpointed scores exactly as `game.match.replay` scores hand N.
"""

from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, NamedTuple

FORMAT = 1
KEEP = 6  # checkpoints kept per log: the latest texts (an undo, a restored file, find theirs again)
SUFFIX = ".ckpt"


class Point(NamedTuple):
    """The replay after hand n: what the next hand is scored on, and what the board shows."""

    n: int
    scores: dict[str, int]
    ending: Any  # game.match.Ending | None
    warnings: tuple[str, ...]  # the replay's warnings up to hand n
    forfeits: dict[str, int]  # counters forfeited up to hand n
    hand: Any  # game.records.Hand n (None when n == 0)
    result: Any  # game.match.HandResult n (None when n == 0)
    raw: Any  # hand n as its TOML table (None when n == 0)


class Tail(Sequence[Any]):
    """The hands of a match of which only the last ones are at hand: its length is the match's.

    Reading an earlier hand is a LookupError, never a wrong answer: a caller that needs every
    hand (--json, the API) replays the whole log instead.
    """

    def __init__(self, n: int, last: Mapping[int, Any], forfeits: dict[str, int] | None = None) -> None:
        self.n = n
        self.last = dict(last)  # index (from 0) -> item
        self.forfeits = forfeits  # the sum of the counters of every hand (game.match.stakes)

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, i: Any) -> Any:
        if not isinstance(i, int):
            raise LookupError("a checkpoint holds only the last hands")
        j = i + self.n if i < 0 else i
        if j not in self.last:
            raise LookupError(f"a checkpoint holds only the last hands, not hand {i + 1}")
        return self.last[j]

    def __iter__(self) -> Iterator[Any]:
        raise LookupError("a checkpoint holds only the last hands")


def point_of(state: Any, record: Any, raw_hands: Sequence[Any], upto: int) -> Point:
    """The Point after hand `upto` of a fully replayed state (upto = len(state.hands) or one less)."""
    n = len(state.hands)
    if upto == n:
        scores, ending, warnings = dict(state.scores), state.ending, tuple(state.warnings)
    else:
        scores = dict(state.hands[upto - 1].scores) if upto else dict.fromkeys(state.table.sides, 0)
        ending = state.ending if state.ending is not None and state.ending.hand <= upto else None
        later = tuple(f"hands[{i}]." for i in range(upto + 1, n + 1))
        warnings = tuple(w for w in state.warnings if not w.startswith(later))
    forfeits: dict[str, int] = {}
    for h in state.hands[:upto]:
        for p, c in (h.verdict.counters or {}).items():
            forfeits[p] = forfeits.get(p, 0) + c
    if not upto:
        return Point(0, scores, ending, warnings, forfeits, None, None, None)
    return Point(upto, scores, ending, warnings, forfeits, record.hands[upto - 1], state.hands[upto - 1],
                 raw_hands[upto - 1])


_memo: list[tuple[str, str]] = []  # the last texts digested, with their digests (a command digests each twice)


def _digest(text: str) -> str:
    """The text's blake2 digest: what decides that a checkpoint is this text's. A checksum would be
    cheaper to load, but an edit can be made to collide with it (an outside tester did)."""
    from pitchkeeper.logbook.store import blake2

    for t, d in _memo:
        if t is text:
            return d
    digest = blake2(text.encode("utf-8", "surrogateescape"), 16)
    _memo[:] = [(text, digest), *_memo[:1]]
    return digest


def _pickle() -> Any:
    """CPython's pickle itself, without the module `pickle` around it (its pure-Python half costs about
    a millisecond to load on every `hand`, `undo` and `edit`)."""
    try:
        import _pickle as pickle
    except ImportError:  # another interpreter
        import pickle
    return pickle


def _read(path: Path) -> dict[str, Any] | None:
    """The checkpoint file of `path` (read once per run: `find` and then `save` both need it)."""
    from pitchkeeper import __version__
    from pitchkeeper.logbook import paths, store

    pickle = _pickle()
    target = store.cache_path(path, SUFFIX)
    key = (str(target), store.stamp(target))
    if _last and _last[0] == key:
        return _last[1]
    try:
        with open(target, "rb") as f:
            c = pickle.load(f)
        if not (isinstance(c, dict) and c.get("format") == FORMAT and c.get("version") == __version__
                and c.get("code") == paths.code_stamp()
                and isinstance(c.get("entries"), list)):  # (any path to the log: the text's digest decides)
            c = None
    except Exception:  # a corrupt or foreign checkpoint is only a slower command
        c = None
    _last[:] = [key, c]
    return c


_last: list[Any] = []  # (the checkpoint file and its stamp, what it held): the last one read


class Found(NamedTuple):
    header: dict[str, Any]  # the log's header keys as read (the text's digest vouches for them)
    ruleset: str  # the digest of the ruleset the points were replayed under
    top: Point  # after the last hand
    below: Point | None  # after the one before (None: not known)


def find(path: Path, text: str) -> Found | None:
    """The checkpoint of exactly this text, or None."""
    c = _read(path)
    if c is None:
        return None
    size = len(text)
    digest = None
    for e in c["entries"]:
        if e["size"] == size:
            digest = digest or _digest(text)
            if e["digest"] == digest:
                return Found(e["header"], e["ruleset"], e["top"], e["below"])
    return None


class Entry(NamedTuple):
    """What to remember of one text of the log."""

    text: str
    header: Mapping[str, Any]
    ruleset: str
    top: Point
    below: Point | None


def entries_of(k: Any, state: Any, drop: int = 0) -> Entry:
    """The Entry of a fully replayed log (k: a loader.Loaded; state: its MatchState); with `drop`=1,
    the points of the same log without its last hand (the caller gives that text: `_replace(text=)`)."""
    n = len(state.hands) - drop
    raws = k.data.get("hands", [])
    header = {key: v for key, v in k.data.items() if key != "hands"}
    return Entry(k.text, header, k.ruleset.digest, point_of(state, k.record, raws, n),
                 point_of(state, k.record, raws, n - 1) if n else None)


def save(path: Path, *new: Entry, touch: str | None = None) -> None:
    """Remember the points of these texts (best effort), then those of `touch` (a text already
    remembered, kept near), then those of the few latest other texts."""
    from pitchkeeper import __version__
    from pitchkeeper.logbook import paths, store

    pickle = _pickle()
    c = _read(path)
    entries = []
    for e in new:
        if e.below is not None and e.below.n != e.top.n - 1:
            continue
        entries.append({"size": len(e.text), "digest": _digest(e.text), "header": dict(e.header),
                        "ruleset": e.ruleset, "top": e.top, "below": e.below})
    old = c["entries"] if c is not None else []
    if touch is not None:
        key = (len(touch), _digest(touch))
        old = sorted(old, key=lambda e: (e["size"], e["digest"]) != key)  # stable: that one first
    mine = {(e["size"], e["digest"]): e for e in entries}
    for e in old:
        same = mine.get((e["size"], e["digest"]))
        if same is None:
            entries.append(e)
        elif same["below"] is None:  # the same text remembered before with its one-before point: keep it
            same["below"] = e["below"]
    c = {"format": FORMAT, "version": __version__, "code": paths.code_stamp(), "entries": entries[:KEEP]}
    try:
        data = pickle.dumps(c, protocol=5)
        target = store.cache_path(path, SUFFIX)
    except Exception:
        return
    store.put_cache(target, data)


# ---------------------------------------------------------------------------
# The changes at the end of a log, made on a checkpoint (None: replay the whole log instead)


def _state(ruleset: Any, table: Any, target: int, top: Point, below: Point | None) -> Any:
    """The MatchState after `top`, holding only its last hands (game.match.stakes reads the forfeits)."""
    from pitchkeeper.game.match import MatchState

    last = {top.n - 1: top.result}
    if below is not None and below.n:
        last[below.n - 1] = below.result
    return MatchState(ruleset.name, target, table, Tail(top.n, last, top.forfeits), dict(top.scores), top.ending,
                      top.warnings)


def _loaded(k: Any, text: str, top: Point, below: Point | None, stamp: list[int] | None = None) -> Any:
    """A Loaded of `text` whose record and data hold only the last hands."""
    hands, raws = {top.n - 1: top.hand}, {top.n - 1: top.raw}
    if below is not None and below.n:
        hands[below.n - 1], raws[below.n - 1] = below.hand, below.raw
    data = {key: v for key, v in k.data.items() if key != "hands"}
    data["hands"] = Tail(top.n, raws)
    return k._replace(text=text, data=data, record=k.record._replace(hands=Tail(top.n, hands)), stamp=stamp)


def opened(path: Path, replay: bool = False) -> tuple[Any, Point, Point | None] | None:
    """The log as it stands and its checkpointed points: (Loaded holding only its last hands, top, below).

    `replay`: a log without a checkpoint (new to this data folder, or edited by hand) is replayed once
    to make its points, so that a change at its end is made as on a checkpoint: the new text is not
    parsed and replayed whole a second time (half the time, and one copy of a long log in memory).
    """
    from pitchkeeper.errors import PitchError
    from pitchkeeper.game import match
    from pitchkeeper.logbook import loader, store

    st = store.stamp(path)
    try:
        text = store.read_text(path, loader.LOG)
    except PitchError:
        return None
    if store.stamp(path) != st:
        st = None
    found = find(path, text)
    if found is None:
        return _replayed(path, text, st) if replay else None
    try:
        ruleset, warnings, files = loader.pinned_ruleset(found.header, path)
        record = match.parse_match(found.header)
    except PitchError:
        return None
    if ruleset.digest != found.ruleset:
        return None
    k = loader.Loaded(path, text, dict(found.header), ruleset, record, tuple(warnings), tuple(files), st)
    return _loaded(k, text, found.top, found.below, st), found.top, found.below


def _replayed(path: Path, text: str, st: list[int] | None) -> tuple[Any, Point, Point | None] | None:
    """`opened` of a log replayed whole (None: it does not load or replay; the caller's full path says why)."""
    from pitchkeeper.errors import PitchError
    from pitchkeeper.logbook import loader

    try:
        k = loader.load(path, text)._replace(stamp=st)
        state = k.replay()
    except PitchError:
        return None
    raws, n = k.data.get("hands", []), len(state.hands)
    top = point_of(state, k.record, raws, n)
    below = point_of(state, k.record, raws, n - 1) if n else None
    header = {key: v for key, v in k.data.items() if key != "hands"}
    save(path, Entry(text, header, k.ruleset.digest, top, below))  # the next command finds it
    return _loaded(k, text, top, below, st), top, below


def state_of(k: Any, top: Point, below: Point | None) -> Any:
    """The MatchState of an opened log (only its last hands): what its scoreboard is drawn from."""
    return _state(k.ruleset, k.record.table, k.record.target or k.ruleset.settings["win"]["target"], top, below)


def _plain(v: Any) -> bool:
    """Only text, whole numbers TOML has (64 bits), booleans, lists and tables with text keys: what
    `store.hand_toml` writes so that TOML reads back exactly the same value (tests/test_store.py holds
    it to that)."""
    t = type(v)
    if t is str or t is bool:
        return True
    if t is int:
        return -(2**63) <= v < 2**63
    if t is list:
        return all(_plain(x) for x in v)
    if t is dict:
        return all(type(x) is str and _plain(y) for x, y in v.items())
    return False


def _next(k: Any, text: str, start: int, on: Point, n: int, table: dict[str, Any] | None = None
          ) -> tuple[Point, str] | None:
    """Hand n, the only block of text[start:], scored on the point before it: (its Point, the dealer warning).

    `table`: the hand as it was written into that block. When it holds only plain values, the block
    reads back as exactly that table, so it is taken as read (no TOML parser to load); otherwise the
    block is parsed on its own.
    """
    from pitchkeeper.errors import PitchError
    from pitchkeeper.game import match
    from pitchkeeper.game.records import parse_hand
    from pitchkeeper.logbook import store

    tail = text[start:]
    if on.ending is not None or len(store._hands_headers(tail)) != 1:
        return None
    try:
        if table is not None and _plain(table):
            raw = [table]
        else:
            data = store.parse_text(tail, k.path)
            raw = data.get("hands")
            if list(data) != ["hands"] or not isinstance(raw, list) or len(raw) != 1 or not isinstance(raw[0], Mapping):
                return None
        table = k.record.table
        hand = parse_hand(raw[0], table, f"hands[{n}].")
        expected = match.next_dealer(table, on.hand.dealer) if on.n else k.record.first_dealer
        warning = ""
        if expected is not None and hand.dealer != expected:
            warning = f"hands[{n}].dealer: {hand.dealer} deals, but the deal passes to {expected}"
        target = k.record.target or k.ruleset.settings["win"]["target"]
        result, ending = match.score_hand(k.ruleset, table, on.scores, hand, n, target)
    except PitchError:
        return None  # the full replay says what is wrong, in its words
    forfeits = dict(on.forfeits)
    for p, c in (result.verdict.counters or {}).items():
        forfeits[p] = forfeits.get(p, 0) + c
    warnings = (*on.warnings, warning) if warning else on.warnings
    return Point(n, dict(result.scores), ending, warnings, forfeits, hand, result, raw[0]), warning


def append(book: Any, hand: Any) -> Any:
    """`Logbook.record` of one more hand on the checkpoint (the caller holds the lock): a Change, or None."""
    from pitchkeeper.errors import PitchError
    from pitchkeeper.logbook import book as books
    from pitchkeeper.logbook import store

    o = opened(book.path, replay=True)
    if o is None:
        return None
    k, top, _ = o
    n = top.n + 1
    try:
        table = books.hand_table(hand, k, None)
        text = store.append_hand(k.text, books.block(table, n, book.path))
    except PitchError:
        return None
    if not text.startswith(k.text):
        return None
    nxt = _next(k, text, len(k.text), top, n, table)
    if nxt is None:
        return None
    new, warning = nxt
    target = k.record.target or k.ruleset.settings["win"]["target"]
    state = _state(k.ruleset, k.record.table, target, new, top)
    k2 = _loaded(k, text, new, top)
    return books.Change(n, k, k2, state, text, None, (*([warning] if warning else []), *k.warnings), "hand",
                        (new, top))


def drop(book: Any) -> Any:
    """`Logbook.prepare_drop` on the checkpoint: a Change, or None."""
    from pitchkeeper.errors import PitchError
    from pitchkeeper.logbook import book as books
    from pitchkeeper.logbook import store

    o = opened(book.path, replay=True)
    if o is None or o[2] is None or not o[1].n:
        return None
    k, top, below = o
    span = store.last_span(k.text)
    if span is None:
        return None
    try:
        text = store.remove_hand(k.text, top.n, top.n, span)
    except PitchError:
        return None
    target = k.record.target or k.ruleset.settings["win"]["target"]
    table = k.record.table
    before, after = _state(k.ruleset, table, target, top, below), _state(k.ruleset, table, target, below, None)
    k2 = _loaded(k, text, below, None)
    return books.Change(top.n, k, k2, after, text, before, k2.warnings, "undo", (below, None))


def replace_last(book: Any, n: int, hand: Any) -> Any:
    """`Logbook.prepare_replace` of the last hand on the checkpoint: a Change, or None."""
    from pitchkeeper.errors import PitchError
    from pitchkeeper.logbook import book as books
    from pitchkeeper.logbook import store

    o = opened(book.path, replay=True)
    if o is None or o[2] is None or o[1].n != n or not n:
        return None
    k, top, below = o
    span = store.last_span(k.text)
    if span is None:
        return None
    start = span[0]
    try:
        table = books.hand_table(hand, k, top.raw)
        text = store.replace_hand(k.text, n, n, books.block(table, n, book.path), span)
    except PitchError:
        return None
    if text[:start] != k.text[:start]:
        return None
    nxt = _next(k, text, start, below, n, table)
    if nxt is None:
        return None
    new = nxt[0]
    target = k.record.target or k.ruleset.settings["win"]["target"]
    table = k.record.table
    before, after = _state(k.ruleset, table, target, top, below), _state(k.ruleset, table, target, new, below)
    k2 = _loaded(k, text, new, below)
    return books.Change(n, k, k2, after, text, before, k2.warnings, "edit", (new, below))
