"""The terminal: the fast drawing of the table commands (no Rich) and the Rich reports."""
