"""The terminal: how every command draws (pitchkeeper.show.ansi, plain text in terminal cells; no Rich)."""
