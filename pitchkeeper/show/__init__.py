"""The terminal: the fast drawing of every command (pitchkeeper.show.ansi; no Rich)."""
