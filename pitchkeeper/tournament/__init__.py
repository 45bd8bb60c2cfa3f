"""Tournaments and leagues (spec section 8): seat the room, take every table's result, rank the players.

The domain is pure functions over frozen data (`model`, `seating`, `standings`); `book` keeps the
tournament file; `html` draws the organiser's pages; `ratings` rates players across everything kept.
The front ends (CLI, web) call these and show what they return.
"""

from __future__ import annotations

from pitchkeeper.tournament.book import create, load, record, record_folder, record_many, seat
from pitchkeeper.tournament.model import Result, Round, Seating, Shape, Tournament
from pitchkeeper.tournament.standings import standings

__all__ = ["Result", "Round", "Seating", "Shape", "Tournament", "create", "load", "record", "record_folder",
           "record_many", "seat", "standings"]
