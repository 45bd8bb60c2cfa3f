"""The JSON Schema of the ruleset format, generated from the same field table that validates it
(shipped as rulesets/ruleset.schema.json, so editors check a ruleset as it is typed)."""

from __future__ import annotations

import json
from typing import Any

from pitchkeeper.game.cards import JOKERS, RANKS
from pitchkeeper.game.rulesets import SECTIONS, TOP_KEYS, F, point_fields


def _schema_for(f: F) -> dict[str, Any]:
    base: dict[str, Any] = {"description": f.doc}
    if f.kind == "int":
        base["type"] = "integer"
        if f.lo is not None:
            base["minimum"] = f.lo
        if f.hi is not None:
            base["maximum"] = f.hi
    elif f.kind == "bool":
        base["type"] = "boolean"
    elif f.kind == "str":
        base["type"] = "string"
    elif f.kind == "enum":
        base["enum"] = list(f.choices)
    elif f.kind == "strlist":
        base.update(type="array", items={"type": "string"}, uniqueItems=True)
    elif f.kind == "enumlist":
        base.update(type="array", items={"enum": list(f.choices)}, uniqueItems=True)
    elif f.kind == "intlist":
        base.update(type="array", items={"type": "integer", "minimum": f.lo, "maximum": f.hi}, uniqueItems=True)
    elif f.kind == "counts":
        base.update(type="object", propertyNames={"enum": list(RANKS + JOKERS)},
                    additionalProperties={"type": "integer", "minimum": 0})
    if f.nonempty:
        base["minItems"] = 1
    if f.default not in ("", [], 0) or f.kind in ("bool", "int"):
        base["default"] = f.default
    return base


def json_schema() -> dict[str, Any]:
    """The JSON Schema of the ruleset format (shipped as rulesets/ruleset.schema.json for editors)."""
    props: dict[str, Any] = {k: _schema_for(f) for k, f in TOP_KEYS.items()}
    for sec, fields in SECTIONS.items():
        props[sec] = {"type": "object", "additionalProperties": False,
                      "properties": {k: _schema_for(f) for k, f in fields.items()}}
    props["points"] = {
        "type": "object",
        "description": "the point catalogue: [points.ID] tables, in counting order",
        "additionalProperties": {"type": "object", "additionalProperties": False,
                                 "properties": {k: _schema_for(f) for k, f in point_fields().items()}},
    }
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "pitchkeeper ruleset",
        "description": "A Pitch / Setback ruleset for pitchkeeper (TOML).",
        "type": "object",
        "additionalProperties": False,
        "properties": props,
    }


if __name__ == "__main__":  # pragma: no cover - maintenance: python -m pitchkeeper.game.schema > rulesets/ruleset.schema.json
    print(json.dumps(json_schema(), indent=2, ensure_ascii=False))
