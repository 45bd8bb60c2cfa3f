"""Shared fixtures: no test ever touches the real user data directory."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "data"


@pytest.fixture(autouse=True)
def _home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "pitchkeeper-home"
    monkeypatch.setenv("PITCHKEEPER_HOME", str(home))
    monkeypatch.setenv("NO_COLOR", "1")
    return home
