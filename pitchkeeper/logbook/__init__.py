"""The match-log files: reading, atomic locked writing, the data folder."""
