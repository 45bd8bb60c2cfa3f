"""The CLI run in this process as a person at a terminal runs it (Typer's CliRunner), `columns` wide and
without colour: `invoke` gives the result, `ok` its output once exit status 0 is asserted. A test file
fixes its own width with functools.partial."""

from __future__ import annotations

from click.testing import Result
from typer.testing import CliRunner

from pitchkeeper.cli import app

runner = CliRunner()


def invoke(*args: str, columns: int, input: str | None = None) -> Result:
    return runner.invoke(app, list(args), input=input, env={"COLUMNS": str(columns), "NO_COLOR": "1"})


def ok(*args: str, columns: int, input: str | None = None) -> str:
    r = invoke(*args, columns=columns, input=input)
    assert r.exit_code == 0, r.stdout + r.stderr
    return r.stdout
