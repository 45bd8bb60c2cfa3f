"""Commands that keep a match at the table: new, hand, play, status, history, undo, edit, matches, check."""

from __future__ import annotations

from pitchkeeper.cli import app, judge_app, rules_app  # noqa: F401
