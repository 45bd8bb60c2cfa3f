"""Data and text out of replayed matches: exports, the score chart, statistics, house-rules starters."""
