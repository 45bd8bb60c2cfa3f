"""Small helpers shared by the tests."""

from __future__ import annotations

from typing import Any

from pitchkeeper.game import rulesets


def variant(base: str, **sections: dict[str, Any]) -> rulesets.Ruleset:
    """A built-in ruleset with some settings changed, as a house-rules file would change them."""
    merged, _ = rulesets.load_merged(base)
    for sec, values in sections.items():
        merged[sec] = {**merged.get(sec, {}), **values}
    assert rulesets.validate(merged) == []
    return rulesets.compile_ruleset(merged)


def imported_by(args: list[str], env: dict[str, str] | None = None, whole: bool = False) -> tuple[set[str], Any]:
    """The modules a command line imports as the console script runs it (python -X importtime -m
    pitchkeeper ...: it reads the import log, so it holds even though the CLI ends the process at
    once), and the finished process. `env` adds to this process's environment, or with `whole` is all of it."""
    import os
    import re
    import subprocess
    import sys

    p = subprocess.run([sys.executable, "-X", "importtime", "-m", "pitchkeeper", *args], capture_output=True,
                       text=True, check=False, env={**({} if whole else os.environ), "NO_COLOR": "1", **(env or {})})
    mods = set(re.findall(r"(?m)^import time:\s+\d+ \|\s+\d+ \|\s*(\S+)$", p.stderr))
    assert mods, p.stderr
    return mods, p
