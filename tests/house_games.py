"""The games of tests/data/house-rules, played by the house files of examples/house-rules, as the CLI
tests read them (the CLI in this process)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import cli_runs

HOUSE = Path(__file__).resolve().parent.parent / "examples" / "house-rules"
GAMES = Path(__file__).resolve().parent / "data" / "house-rules"  # whole games played by house files
FIVE = ["Ann", "Bob", "Cy", "Dee", "Eve"]
# call-partner-5: Ann bids 5 in spades, calls the ace nobody holds, plays alone and is set
ANN_ALONE = ["hand", "Ann", "5", "S", "--called", "AS", "--partner", "none", "--ace", "Ann", "--jack", "Bob",
             "--off-jack", "Bob", "--high-joker", "Cy", "--low-joker", "Dee", "--ten", "Eve", "--point", "three=Ann",
             "--deuce", "Eve"]


def run(*args: str, width: int = 120) -> Any:
    """The CLI in this process, at a terminal `width` columns wide."""
    return cli_runs.invoke(*args, columns=width)


def copied(name: str, folder: Path) -> Path:
    """A house-rule game of tests/data, its ruleset named by an absolute path, in `folder`."""
    text = (GAMES / f"{name}.match.toml").read_text(encoding="utf-8")
    text = text.replace(f'rules = "../../../examples/house-rules/{name}.toml"', f'rules = "{HOUSE / name}.toml"')
    path = folder / f"{name}.toml"
    path.write_text(text, encoding="utf-8")
    return path
