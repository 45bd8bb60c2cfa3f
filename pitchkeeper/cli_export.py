"""Commands that look back: export, chart, stats."""

from __future__ import annotations

from pitchkeeper.cli import app, judge_app, rules_app  # noqa: F401
