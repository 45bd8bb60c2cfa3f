"""Small helpers shared by the tests."""

from __future__ import annotations

import copy
from typing import Any

from pitchkeeper.game import rulesets


def variant(base: str, **sections: dict[str, Any]) -> rulesets.Ruleset:
    """A built-in ruleset with some settings changed, as a house-rules file would change them."""
    merged, _ = rulesets.load_merged(base)
    for sec, values in sections.items():
        merged[sec] = {**merged.get(sec, {}), **values}
    assert rulesets.validate(merged) == []
    return rulesets.compile_ruleset(merged)


def changed(record: dict[str, Any], **change: Any) -> dict[str, Any]:
    """A copy of a record (deep: the test may change it further) with keys replaced, or dropped where None."""
    out = copy.deepcopy(record)
    for k, v in change.items():
        if v is None:
            out.pop(k, None)
        else:
            out[k] = v
    return out
