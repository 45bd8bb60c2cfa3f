"""The analysis of a hand record or a whole match log with every card known (spec section 9): read the
record through the one loader, analyse each hand recorded trick by trick (game.analysis), sum what each
player's cards cost. `pitchkeeper.analyse_hand` and `pitchkeeper.analyse_match` of the public API."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pitchkeeper.errors import PitchError
from pitchkeeper.game import analysis, match
from pitchkeeper.logbook import loader


def analyse_hand(record: Mapping[str, Any] | str | Path, rules: str | None = None, core: str | None = None) -> dict[str, Any]:
    """The `analyse hand` object of a hand record (a mapping of its keys, or the path of its file) recorded
    trick by trick: par, the points taken, each card's value before and after, its cost and the best cards."""
    loader.check_record(record, "hand")
    if isinstance(record, Mapping):
        name, (ruleset, table, hand) = None, loader.hand_of(record, ".", rules)
    else:
        name, (ruleset, table, hand) = str(record), loader.load_hand(record, rules)
    try:
        return analysis.analyse(ruleset, table, hand, core)
    except PitchError as e:
        raise (e if name is None else e.at(name)) from None


def analyse_match(record: Mapping[str, Any] | str | Path, rules: str | None = None, core: str | None = None) -> dict[str, Any]:
    """The `analyse match` object: every hand recorded trick by trick analysed, the others named as not
    analysable, and each player's total cost over the match."""
    loader.check_record(record, "match")
    if isinstance(record, Mapping):
        try:
            ruleset = loader.pinned_ruleset(record, ".", rules)[0]
            parsed = match.parse_match(record)
            match.replay(ruleset, parsed)  # the match as it is judged: a bad hand is refused here, by number
        except PitchError as e:
            raise PitchError(e.message, loader.key_path(e.where or "") or None) from None
        path, text = None, None
    else:
        loaded = loader.load(record, rules=rules, kind="file")
        loaded.replay()
        ruleset, parsed, path, text = loaded.ruleset, loaded.record, loaded.path, loaded.text
    table = parsed.table
    hands: list[dict[str, Any]] = []
    costs = dict.fromkeys(table.players, 0)
    for n, hand in enumerate(parsed.hands, 1):
        if analysis.not_analysable(hand):
            hands.append({"hand": n, "analysed": False, "why": analysis.not_analysable(hand)})
            continue
        try:
            one = analysis.analyse(ruleset, table, hand, core)
        except PitchError as e:
            placed = PitchError(e.message, f"hands[{n}].{e.where}" if e.where else f"hands[{n}]")
            raise (placed if path is None or text is None else loader.place(placed, path, text)) from None
        for p, c in one["costs"].items():
            costs[p] += c
        hands.append({"hand": n, "analysed": True, **one})
    return {"rules": ruleset.name, "hands": hands, "costs": costs}
