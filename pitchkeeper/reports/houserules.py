"""The starter house-rules file: every setting a table may change, commented, with its current value."""

from __future__ import annotations

import json
import re
from typing import Any

from pitchkeeper.game.rulesets import SECTIONS, Ruleset, point_fields, schema_path


def _value(v: Any) -> str:
    """One TOML value on one line (inline arrays and tables), so each setting is one commented line."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, list | tuple):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    if isinstance(v, dict):
        keys = (k if re.fullmatch(r"[A-Za-z_-]+", k) else json.dumps(k) for k in v)
        return "{ " + ", ".join(f"{k} = {_value(x)}" for k, x in zip(keys, v.values(), strict=True)) + " }"
    raise TypeError(f"no TOML form for {v!r}")


def starter(base: Ruleset, extends: str, name: str) -> str:
    lines = [
        f"#:schema {schema_path().resolve().as_uri()}",
        f"# House rules: {base.name} as your table plays it.",
        "# Every setting below is commented out with the value it inherits. Uncomment a line (and its",
        "# [section] header) to change it; delete what you do not need. Check with: pitchkeeper rules check FILE",
        "",
        f"name = {_value(name)}",
        f"extends = {_value(extends)}",
        f"title = {_value(base.title + ' (house rules)')}",
        "",
    ]
    for sec, fields in SECTIONS.items():
        lines.append(f"# [{sec}]")
        for key, f in fields.items():
            choices = f" ({' | '.join(f.choices)})" if f.kind == "enum" else ""
            lines.append(f"# {key} = {_value(base.settings[sec][key])}    # {f.doc}{choices}")
        lines.append("")
    lines.append("# Points: change one, or drop one with enabled = false, or add your own [points.NAME].")
    for p in base.points:
        lines.append(f"# [points.{p.id}]")
        shown = {"of": p.of, "value": p.value}
        for k in sorted(p.kind.keys):
            shown[k] = p.value_of(k)
        for k, v in shown.items():
            lines.append(f"# {k} = {_value(v)}    # {point_fields()[k].doc}")
        lines.append("# enabled = true")
        lines.append("")
    return "\n".join(lines)
