"""The words that explain the rules: a ruleset described in plain words, and the answers to the disputes players have."""
