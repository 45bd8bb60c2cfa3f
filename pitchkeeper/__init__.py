"""pitchkeeper: keeps the score of Pitch, Setback and Auction Pitch at a real table."""

__version__ = "0.1.0"
