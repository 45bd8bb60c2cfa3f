"""Who won each point, as the table answers it: every point asked, none decided by omission.

At the table a point left unsaid must not silently mean "not out": that is how a wrong score gets
through. So an entry by points names every point the ruleset can award - a side or player,
`none` (it was not out) or, for game, `tie` - or says once that "the rest were not out". The
question is the rule's own: where a point goes to the player *dealt* its card, it is "who was
dealt low?", not "who took low?" (captor and dealt player differ in about half of all hands).
Hand-record files keep the contract of spec section 3 (a point left out was not out).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from pitchkeeper.errors import PitchError
from pitchkeeper.game.kinds import always_out

if TYPE_CHECKING:
    from pitchkeeper.game.rulesets import PointRule, Ruleset

NOBODY = ("-", "none", "nobody", "no", "not out")
TIE = ("tie", "tied")


def verb(rule: PointRule) -> str:
    """"was dealt" where the point goes to the player dealt its card, else "took"."""
    return "was dealt" if rule.to == "dealt" else "took"


def question(rule: PointRule) -> str:
    """The question the rule asks: "who was dealt low?", "who took jack?", "who won game?"."""
    if rule.kind.ties:
        return f"who won {rule.label}?"
    return f"who {verb(rule)} {rule.label}?"


def ways(rule: PointRule, must: bool) -> str:
    """What may be answered besides a side or player."""
    if rule.kind.ties:
        return "tie, or - for none"
    return "" if must else "- if not out"


def nobody(rule: PointRule, text: str, must: bool) -> bool:
    """Is `text` an explicit "nobody" for this point? (tie only for game; an always-out point has an owner)."""
    t = text.strip().lower()
    if t in TIE:
        if not rule.kind.ties:
            raise PitchError(f"only game can be tied; {rule.label} goes to one side, or none if it was not out")
        return True
    if t in NOBODY:
        if must:
            raise PitchError(f"{rule.label} is always out: say who {verb(rule).replace('took', 'won')} it")
        return True
    return False


def unanswered(ruleset: Ruleset, answered: Mapping[str, object]) -> list[str]:
    """The ids of the ruleset's points with no answer (in the ruleset's order)."""
    return [p.id for p in ruleset.points if p.id not in answered]


def missing_message(ruleset: Ruleset, missing: list[str], option: bool = True) -> str:
    """One line: which points are unanswered, and how to say nobody, tie, or the rest were not out."""
    rules = {p.id: p for p in ruleset.points}
    names = ", ".join(missing)
    first = rules[missing[0]]
    if option:
        how = [f"--{first.id} WHO" + (" (the player dealt it)" if first.to == "dealt" else "")]
        maybe = [m for m in missing if not rules[m].kind.ties and not always_out(rules[m])]
        if maybe:
            how.append(f"--{maybe[0]} none if it was not out")
        if any(rules[m].kind.ties for m in missing):
            how.append(f"--{next(m for m in missing if rules[m].kind.ties)} tie")
        how.append("--rest none for the others that were not out")
        return f"no answer for {names}: say who won each point ({'; '.join(how)})"
    return f"no answer for {names}: name a side or player, - if not out" + (
        ", tie for game" if any(rules[m].kind.ties for m in missing) else "")


def beyond_rest(ruleset: Ruleset, missing: list[str]) -> list[str]:
    """The unanswered points that "the rest were not out" cannot answer: game (always played out; a
    tie is said as such) and the points always out (someone won, or was dealt, them)."""
    rules = {p.id: p for p in ruleset.points}
    return [m for m in missing if rules[m].kind.ties or always_out(rules[m])]


def rest_message(ruleset: Ruleset, missing: list[str], option: bool = True) -> str:
    """One line for points "the rest were not out" cannot answer: which, and how to answer each."""
    rules = {p.id: p for p in ruleset.points}
    how = []
    for m in missing:
        rule = rules[m]
        name = f"--{m}" if option else rule.label
        if rule.kind.ties:
            how.append(f"{name} WHO or {name} tie" if option else f"{name}: a side or player, or tie")
        else:
            how.append(f"{rule.label} is always out: say who {verb(rule).replace('took', 'won')} it"
                       + (f" ({name} WHO)" if option else ""))
    rest = "--rest none" if option else "\"the rest were not out\""
    return (f"no answer for {', '.join(missing)}: {rest} answers only points that may be not out; "
            + "; ".join(how))


def entry_hint(ruleset: Ruleset) -> str:
    """An example of entry by points in this ruleset's own point names."""
    return " ".join(f"--{p.id} WHO" for p in list(ruleset.points)[:3]) + " ... (or --rest none)"


def rest_help(ruleset: Ruleset | None) -> str:
    """The help of `--rest`: what "the points not named were not out" answers, and the points it never
    answers (those always out, a tied game) by the ruleset's names; with no ruleset at hand, in general."""
    if ruleset is None:
        return ("The points not named were not out. It never answers a point that is always out, nor a tied "
                "game (--game tie).")
    always = [p.label for p in ruleset.always_out]
    never = ([f"{' or '.join(always)} (always out)"] if always else []) + [
        f"a tied {p.label} (--{p.id} tie)" for p in ruleset.points if p.kind.ties]
    return "The points not named were not out." + (f" It never answers {', nor '.join(never)}." if never else "")
