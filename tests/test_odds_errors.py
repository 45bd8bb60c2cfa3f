"""An error names what its caller gave (outside test F9): the Python API's `bid_odds` names its argument
(`cards: AS is given twice`), the command line the option the user typed (`--cards: AS is given twice`) -
one error, each front end's own words for where it is."""

from __future__ import annotations

from typing import Any

import pytest
from typer.testing import CliRunner

import pitchkeeper
from pitchkeeper.cli import app

CARDS = "AS KS 5S 2H 9D JC"
CASES = [  # (bid_odds arguments, the matching command-line options, the message)
    ({"cards": "AS AS 5S 2H 9D JC"}, ["--cards", "AS AS 5S 2H 9D JC"], "cards", "AS is given twice"),
    ({"cards": "AS KS 5S 2H 9D"}, ["--cards", "AS KS 5S 2H 9D"], "cards", "5 cards given"),
    ({"cards": CARDS, "samples": 0}, ["--cards", CARDS, "--samples", "0"], "samples", "from 1 to 100000, got 0"),
    ({"cards": CARDS, "players": 5}, ["--cards", CARDS, "--players", "5"], "players", "not 5"),
]


@pytest.mark.parametrize(("kw", "argv", "field", "words"), CASES)
def test_the_library_names_the_argument_and_the_cli_its_option(kw: dict[str, Any], argv: list[str], field: str,
                                                                words: str) -> None:
    with pytest.raises(pitchkeeper.PitchError) as e:
        pitchkeeper.bid_odds(rules="seven-point", samples=kw.pop("samples", 5), seed=1, **kw)
    assert e.value.where == field and str(e.value).startswith(f"{field}: ") and words in str(e.value)
    assert "--" not in str(e.value)
    r = CliRunner().invoke(app, ["analyse", "odds", "--rules", "seven-point", "--seed", "1", *argv])
    assert r.exit_code == 2
    line = r.output.strip()
    assert line.startswith(f"error: --{field}: ") and words in line and line.count(f"{field}:") == 1
