"""Rulesets as they were last read - parsed, merged and checked - kept in the data folder's cache, so that
a command at the table need not load a TOML parser and read and check the same files on every run.

The files stay the truth. An entry is used only while every file of its chain has the size, times and
inode it had, each `extends` still leads to the same file, and the same pitchkeeper (its version and
its rules engine's sources) wrote it; anything else, or an entry that cannot be read, is a miss, and the
ruleset is read from its files as before (and remembered again). `marshal` holds the entry: it is built
into the interpreter (nothing to import) and reads back plain data only.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pitchkeeper.logbook import paths, store

FORMAT = 1
SUFFIX = ".rules"


def load(ref: str | Path) -> Any:
    """`game.rulesets.load`, from the cache when its files are as they were (the same Ruleset, the same errors)."""
    from pitchkeeper.errors import PitchError
    from pitchkeeper.game import rulesets

    ref = str(ref)
    try:
        first = rulesets.resolve(ref)
        target = store.cache_path(first, SUFFIX)
    except (PitchError, OSError, ValueError):
        return rulesets.load(ref)  # in its own words
    hit = _hit(target, ref)
    if hit is not None:
        return hit
    ruleset = rulesets.load(ref)
    _save(target, ref, ruleset)
    return ruleset


def _links(ref: str, chain: tuple[str, ...]) -> list[tuple[str, str | None, str]] | None:
    """How the chain was found: (reference, the folder it is resolved from, the file it names), first file
    first; None when the files no longer say so (read again, then)."""
    from pitchkeeper.game import rulesets

    links: list[tuple[str, str | None, str]] = []
    base: str | None = None
    for i, path in enumerate(reversed(chain)):  # chain is base first; the reference names the last file
        links.append((ref, base, path))
        if i == len(chain) - 1:
            break
        try:
            parent = rulesets.read_toml(Path(path)).get("extends")
        except Exception:
            return None
        if not isinstance(parent, str):
            return None
        ref, base = parent, str(Path(path).parent)
    return links


def _hit(target: Path, ref: str) -> Any:
    import marshal

    from pitchkeeper import __version__
    from pitchkeeper.game import rulesets

    try:
        with open(target, "rb") as f:
            c = marshal.loads(f.read())
        if not (isinstance(c, dict) and c.get("format") == FORMAT and c.get("version") == __version__
                and c.get("code") == paths.code_stamp() and c.get("ref") == ref):
            return None
        for link_ref, base, path, st in c["links"]:
            if str(rulesets.resolve(link_ref, None if base is None else Path(base))) != path:
                return None
            if store.stamp(path) != st:
                return None
        ruleset = rulesets.compile_ruleset(c["merged"], tuple(c["chain"]))
    except Exception:  # a corrupt or foreign entry is only a slower command
        return None
    ruleset.__dict__["digest"] = c["digest"]  # the cached_property's value: no json to load for it
    return ruleset


def _save(target: Path, ref: str, ruleset: Any) -> None:
    """Remember a ruleset just read (best effort: one that cannot be kept is read again next time)."""
    import marshal

    from pitchkeeper import __version__
    from pitchkeeper.game import rulesets

    try:
        stamps = [store.stamp(path) for path in reversed(ruleset.chain)]
        links = _links(ref, ruleset.chain)
        # read after the stamps were taken, the files must still say what was compiled: a file changed
        # meanwhile would otherwise be remembered with the stamp of its new text
        if links is None or None in stamps or rulesets.load_merged(ref)[0] != ruleset.raw:
            return
        c = {"format": FORMAT, "version": __version__, "code": paths.code_stamp(), "ref": ref,
             "links": [[*link, st] for link, st in zip(links, stamps, strict=True)],
             "chain": list(ruleset.chain), "merged": dict(ruleset.raw), "digest": ruleset.digest}
        data = marshal.dumps(c)
    except Exception:  # a value marshal cannot hold (a TOML date, say): not cached
        return
    store.put_cache(target, data)
