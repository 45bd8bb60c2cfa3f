"""The analysis with every card known, in words a player at the table reads (spec section 9's objects).

"with every card known, best play by everyone gives Us 4; Us took 3 (their own play gave away 1)"; "trick 3,
Cy's 9H gave away low (the 2S or 3S kept it)". Each function takes the object `pitchkeeper.analyse_hand`,
`analyse_match` or `bid_odds` returns, so a front end (the terminal, a web page) shows the same sentences.
Sentences, not tables: a terminal of 40 columns wraps them at spaces.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pitchkeeper.errors import or_list
from pitchkeeper.game.cards import SUIT_NAMES
from pitchkeeper.game.points import POINTS
from pitchkeeper.words.verdict import bid_name

DOUBLE_DUMMY = ("Par is what perfect play by everyone, with every card face up, gives the bidding side: a bound "
                "to argue with, not a verdict on a player who could not see the other hands.")


def points_words(ids: Sequence[str]) -> str:
    """['low', 'game'] -> 'low and game'."""
    names = [POINTS.get(i, i) for i in ids]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _cap(s: str) -> str:
    return s[:1].upper() + s[1:]


def _n(k: int, what: str) -> str:
    return f"{k} {what}" if k == 1 else f"{k} {what}s"


def play_words(p: Mapping[str, Any]) -> str:
    """One costly card: "trick 3, Cy's 9H gave away low (the 2S or 3S kept it)"."""
    lost = p.get("lost") or []
    what = points_words(lost) if lost else _n(p["cost"], "point")
    best = list(p.get("best") or [])
    kept = ""
    if best:
        shown = best if len(best) <= 3 else [*best[:2], f"{len(best) - 2} more"]
        kept = f" (the {or_list(shown)} kept it)"
    return f"trick {p['trick']}, {p['player']}'s {p['card']} gave away {what}{kept}"


def par_words(a: Mapping[str, Any]) -> str:
    """Par against what was taken, and who gave the difference away: "with every card known, best play by
    everyone gives Us 2; Us took 4 (the defence gave away 2)". Par is what best play by both sides gives the
    bidding side, so taking more than par means the defence gave points away, taking less that the bidding
    side's own play did (net of the two)."""
    side, par, taken = a["bid"]["side"], a["par"], a["taken"]
    head = f"with every card known, best play by everyone gives {side} {par}"
    if taken > par:
        return f"{head}; {side} took {taken} (the defence gave away {taken - par})"
    if taken < par:
        return f"{head}; {side} took {taken} (their own play gave away {par - taken})"
    return f"{head}, and {side} took {taken}"


def figure(x: float, signed: bool = False) -> str:
    """A figure to one decimal as a player reads it: never "-0.0" (a mean a hair below zero is 0.0); `signed`
    puts + before a gain ("+1.3", "-0.7", "0.0")."""
    v = round(x, 1)
    if v == 0:
        return "0.0"
    return f"{v:+.1f}" if signed else f"{v:.1f}"


def illegal_words(a: Mapping[str, Any]) -> str | None:
    """The illegal play the analysis stopped at, in words (None when every card was allowed): "trick 4, W's
    KD was not allowed (...): a revoke is no choice between cards, so the analysis stops there"."""
    bad = a.get("illegal")
    if not bad:
        return None
    why = str(bad["why"]).partition(": ")[2] or str(bad["why"])  # "W played K♦: hearts were led: ..."
    return (f"trick {bad['trick']}, {bad['player']}'s {bad['card']} was not allowed - {why} (rule {bad['rule']}); "
            "an illegal play is no choice between cards, so the analysis stops there")


def costly(a: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The cards that cost points, in playing order."""
    return [p for p in a["plays"] if p["cost"] > 0]


def verdict_line(a: Mapping[str, Any]) -> str:
    """Par and the costliest card, in one sentence (for a hand's verdict: serve's page, `hand`)."""
    worst = max(costly(a), key=lambda p: p["cost"], default=None)
    bad = illegal_words(a)
    tail = f"; {bad}" if bad else ""
    if worst is None:
        return f"{_cap(par_words(a))}; no card cost a point{' before it' if bad else ''}{tail}."
    return f"{_cap(par_words(a))}; the costliest card: {play_words(worst)}{tail}."


def hand_lines(a: Mapping[str, Any]) -> list[str]:
    """The whole analysis of a hand: par, each card that cost points, what each player's cards cost."""
    lines = [f"{a['rules']}, {SUIT_NAMES.get(a['trump'], a['trump'])} trump, {a['bid']['player']} bid "
             f"{bid_name(a['bid'])}.", _cap(par_words(a)) + "."]
    bad = illegal_words(a)
    before = f" before trick {a['illegal']['trick']}'s illegal play" if bad else ""
    lines += [_cap(play_words(p)) + "." for p in costly(a)] or [f"No card cost a point{before}."]
    if bad:
        lines.append(_cap(bad) + ".")
    lines.append("Cost by player: " + ", ".join(f"{p} {c}" for p, c in a["costs"].items()) + ".")
    return lines


def match_lines(m: Mapping[str, Any]) -> list[str]:
    """Every hand in a line, then who lost the most points over the match."""
    lines = []
    for h in m["hands"]:
        if not h.get("analysed", True):
            lines.append(f"Hand {h['hand']}: not recorded trick by trick, not analysed.")
            continue
        worst = max(costly(h), key=lambda p: p["cost"], default=None)
        tail = "; no card cost a point" if worst is None else f"; costliest: {play_words(worst)}"
        bad = illegal_words(h)
        tail += f"; {bad}" if bad else ""
        lines.append(f"Hand {h['hand']}: {par_words(h)}{tail}.")
    ranked = sorted(m["costs"].items(), key=lambda pc: -pc[1])
    if not any(h.get("analysed", True) for h in m["hands"]):
        lines.append("No hand of this match was recorded trick by trick: there is nothing to analyse.")
    elif not any(c for _, c in ranked):
        lines.append("Over the match no card cost a point.")
    else:
        lines.append("Points given away over the match: " + ", ".join(f"{p} {c}" for p, c in ranked) + ".")
    return lines


def _pct(x: float) -> str:
    return f"{round(100 * x)}%"


def odds_lines(o: Mapping[str, Any]) -> list[str]:
    """The odds of each bid, trump by trump, and the bid that scores best on average."""
    lines = [f"{' '.join(o['cards'])} in {o['rules']}, {o['players']} players"
             f"{' in partnerships' if o.get('teams') else ''}: {o['samples']} layouts of the unseen cards "
             f"(seed {o['seed']}), each solved with every card known."]
    if o.get("draw"):
        lines.append(_cap(o["draw"]) + ".")
    for t in o["trumps"]:
        name = _cap(SUIT_NAMES.get(t["trump"], t["trump"]))
        if not t.get("possible", True):
            lines.append(f"{name}: not possible - {t['why']}.")
            continue
        lines.append(f"{name} trump: the bidding side takes {figure(t['mean'])} points on average.")
        for b, x in t["make"].items():
            lines.append(f"  bid {b}: {_pct(x)} made, {figure(t['expected'][b], True)} on average")
        lines.append(f"  best bid: {t['best_bid']}")
    lines.append(DOUBLE_DUMMY)
    return lines


def bid_answers(o: Mapping[str, Any], bid: str) -> list[str]:
    """"Should I have bid 3?", answered for each trump suit of an odds object: how often the bid is made,
    what it scores on average under the ruleset's settlement, and the bid that scores best where it is
    another one."""
    lines = []
    for t in o["trumps"]:
        name = SUIT_NAMES.get(t["trump"], t["trump"])
        if not t.get("possible", True):
            lines.append(f"In {name}: not possible - {t['why']}.")
            continue
        best = str(t["best_bid"])
        said = f"{bid} is made in {_pct(t['make'][bid])} of the layouts and scores {figure(t['expected'][bid], True)} on average"
        if best == bid:
            lines.append(f"In {name}: yes - {said}, the best bid.")
        elif round(t["expected"][bid], 1) >= round(t["expected"][best], 1):  # as good as the best, as shown
            lines.append(f"In {name}: yes - {said}; no bid scores more.")
        else:
            lines.append(f"In {name}: no - {said}; {best} scores best ({figure(t['expected'][best], True)}, made in "
                         f"{_pct(t['make'][best])}).")
    return lines
