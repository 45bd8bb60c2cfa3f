"""docs/cli.md is what the commands print today: regenerated and compared (as the rulesets' JSON Schema is)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_cli_reference_is_what_the_commands_print() -> None:
    p = subprocess.run([sys.executable, str(ROOT / "scripts" / "cli_docs.py"), "--check"], capture_output=True,
                       text=True, timeout=120, env={k: v for k, v in os.environ.items() if k != "COLUMNS"}, check=False)
    assert p.returncode == 0, p.stderr + "\n(regenerate with: python scripts/cli_docs.py)"


def test_the_reference_holds_every_command_and_its_options() -> None:
    text = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    for heading in ("## pitchkeeper hand\n", "## pitchkeeper judge trick\n", "## pitchkeeper tournament record\n",
                    "## pitchkeeper rules explain\n", "## pitchkeeper serve\n"):
        assert heading in text
    hand = text.split("## pitchkeeper hand\n", 1)[1].split("\n## ", 1)[0]
    assert "Usage: pitchkeeper hand [OPTIONS]" in hand and "--rest" in hand and "--off-jack" in hand
    assert "Match logs are kept in DATA_FOLDER" in text and "/tmp" not in text and str(Path.home()) not in text
