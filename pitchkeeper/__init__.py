"""pitchkeeper: keeps the score of Pitch, Setback and Auction Pitch at a real table.

The public API (spec section 6) is loaded on first use, so `import pitchkeeper` (and every CLI
start) costs nothing for it: `judge_hand`, `judge_match`, `Logbook`, `PitchError`, and the analysis with
every card known (spec section 9): `analyse_hand`, `analyse_match`, `bid_odds`.
"""

from importlib import import_module as _import_module

__version__ = "0.1.0"

_API = {
    "judge_hand": "pitchkeeper.logbook.loader",
    "judge_match": "pitchkeeper.logbook.loader",
    "Logbook": "pitchkeeper.logbook.book",
    "PitchError": "pitchkeeper.errors",
    "analyse_hand": "pitchkeeper.reports.analyse",
    "analyse_match": "pitchkeeper.reports.analyse",
    "bid_odds": "pitchkeeper.game.odds",
}
__all__ = ["Logbook", "PitchError", "__version__", "analyse_hand", "analyse_match", "bid_odds", "judge_hand",
           "judge_match"]


def __getattr__(name: str) -> object:
    module = _API.get(name)
    if module is None:
        raise AttributeError(f"module 'pitchkeeper' has no attribute {name!r}")
    value = getattr(_import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_API])
