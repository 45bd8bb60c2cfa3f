"""The rules of Pitch: pure functions over frozen data (cards, rulesets, records, bidding, play,
scoring, match). No files, no output."""
