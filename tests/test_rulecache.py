"""The ruleset cache (logbook/rulecache.py): the same Ruleset as reading the files, and never a stale one."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from pitchkeeper.errors import PitchError
from pitchkeeper.game import rulesets
from pitchkeeper.logbook import rulecache, store


def entry(ref: str) -> Path:
    return store.cache_path(rulesets.resolve(ref), rulecache.SUFFIX)


def same(a: rulesets.Ruleset, b: rulesets.Ruleset) -> None:
    assert a == b
    assert a.digest == b.digest and a.chain == b.chain and a.raw == b.raw


@pytest.mark.parametrize("name", rulesets.builtin_names())
def test_every_built_in_ruleset_comes_back_from_the_cache_as_read(name: str) -> None:
    first = rulecache.load(name)
    assert entry(name).is_file()
    again = rulecache.load(name)
    assert "digest" in again.__dict__  # from the entry: not computed again
    same(again, rulesets.load(name))
    same(first, again)


def house(tmp_path: Path, body: str, name: str = "house.toml", extends: str = "seven-point") -> Path:
    p = tmp_path / name
    p.write_text(f'extends = "{extends}"\nname = "{p.stem}"\n{body}', encoding="utf-8")
    return p


def test_a_house_rule_edited_is_read_again(tmp_path: Path) -> None:
    p = house(tmp_path, "[win]\ntarget = 11\n")
    assert rulecache.load(str(p)).settings["win"]["target"] == 11
    assert rulecache.load(str(p)).settings["win"]["target"] == 11  # from the cache
    p.write_text(p.read_text(encoding="utf-8").replace("11", "15"), encoding="utf-8")
    got = rulecache.load(str(p))
    assert got.settings["win"]["target"] == 15
    same(got, rulesets.load(str(p)))


def test_a_change_to_the_ruleset_it_extends_is_seen(tmp_path: Path) -> None:
    base = house(tmp_path, "[win]\ntarget = 11\n", "base.toml")
    top = house(tmp_path, "[settle]\nsetback = \"none\"\n", "top.toml", extends="base.toml")
    assert rulecache.load(str(top)).settings["win"]["target"] == 11
    base.write_text(base.read_text(encoding="utf-8").replace("11", "9"), encoding="utf-8")
    got = rulecache.load(str(top))
    assert got.settings["win"]["target"] == 9 and got.settings["settle"]["setback"] == "none"
    same(got, rulesets.load(str(top)))


def test_an_extends_that_now_leads_elsewhere_is_followed(tmp_path: Path) -> None:
    """A file that extends a name finds the built-in first, then a file beside it: a new file there is seen."""
    (tmp_path / "a").mkdir()
    top = house(tmp_path / "a", "[win]\ntarget = 13\n", "top.toml", extends="mine")
    (tmp_path / "a" / "mine").write_text('extends = "seven-point"\n[settle]\nsetback = "none"\n', encoding="utf-8")
    assert rulecache.load(str(top)).settings["settle"]["setback"] == "none"
    os.replace(tmp_path / "a" / "mine", tmp_path / "a" / "gone")
    (tmp_path / "a" / "mine").write_text('extends = "trickster-10"\n', encoding="utf-8")
    same(rulecache.load(str(top)), rulesets.load(str(top)))


def test_a_broken_ruleset_is_the_same_error_and_never_cached(tmp_path: Path) -> None:
    p = house(tmp_path, "[win]\ntarget = -3\n")
    with pytest.raises(PitchError) as cached:
        rulecache.load(str(p))
    with pytest.raises(PitchError) as direct:
        rulesets.load(str(p))
    assert str(cached.value) == str(direct.value)
    assert not entry(str(p)).exists()
    with pytest.raises(PitchError) as unknown:
        rulecache.load("seven-pont")
    assert "did you mean" in str(unknown.value).lower()


@pytest.mark.parametrize("junk", [b"", b"\x00garbage", b"\xe3\x01\x00\x00\x00"])
def test_a_corrupt_entry_is_only_a_miss(junk: bytes) -> None:
    rulecache.load("seven-point")
    entry("seven-point").write_bytes(junk)
    same(rulecache.load("seven-point"), rulesets.load("seven-point"))
    assert entry("seven-point").read_bytes() != junk  # and written again


def test_an_entry_of_another_version_or_engine_is_not_used(monkeypatch: pytest.MonkeyPatch) -> None:
    import marshal

    rulecache.load("seven-point")
    c = marshal.loads(entry("seven-point").read_bytes())
    c["merged"]["win"]["target"] = 99  # were it used, this would show
    for key, value in (("version", "0.0.0"), ("code", [])):
        entry("seven-point").write_bytes(marshal.dumps({**c, key: value}))
        assert rulecache.load("seven-point").settings["win"]["target"] == 21
    entry("seven-point").write_bytes(marshal.dumps(c))
    assert rulecache.load("seven-point").settings["win"]["target"] == 99  # (the entry as made is used)
