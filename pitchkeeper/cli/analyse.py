"""Commands that analyse with every card known: `analyse hand`, `analyse match`, `analyse odds` (spec section 9).

Parse, call the library (pitchkeeper.reports.analyse, pitchkeeper.game.odds), show: JSON with --json,
else the sentences of pitchkeeper.words.analysis, wrapped to the terminal.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from pitchkeeper.cli import JsonOpt, MatchOpt, RulesOpt, emit_json, topic
from pitchkeeper.cli.library import match_path, need_ruleset
from pitchkeeper.errors import PitchError
from pitchkeeper.show.render import console

commands = topic()
ODDS_FLAGS = ("cards", "players", "trump", "samples", "seed", "rules")  # bid_odds' arguments, each an option here


def _say(lines: list[str]) -> None:
    out = console()
    for line in lines:
        out.print(line)


@commands.command("hand")
def analyse_hand(
    file: Annotated[Path, typer.Argument(help="A hand record (TOML) with `tricks`.", show_default=False)],
    rules: RulesOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Par of a hand recorded trick by trick, and what each card cost, with every card known."""
    from pitchkeeper.reports.analyse import analyse_hand as analyse
    from pitchkeeper.words.analysis import hand_lines

    a = analyse(file, rules)
    if as_json:
        emit_json(a)
        return
    _say(hand_lines(a))


@commands.command("match")
def analyse_match(
    file: Annotated[Path | None, typer.Argument(help="A match record (TOML), such as a match log (default: the "
                                                "current match).", show_default=False)] = None,
    match: MatchOpt = None,
    rules: RulesOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Every hand of a match recorded trick by trick, and the points each player's cards gave away.

    The match is FILE, or --match, or else the current match.
    """
    from pitchkeeper.reports.analyse import analyse_match as analyse
    from pitchkeeper.words.analysis import match_lines

    if file is not None and match is not None:
        raise PitchError("name the match once: a FILE or --match, not both", "--match")
    m = analyse(file if file is not None else match_path(match), rules)
    if as_json:
        emit_json(m)
        return
    _say(match_lines(m))


@commands.command("odds")
def analyse_odds(
    rules: RulesOpt = None,
    cards: Annotated[str | None, typer.Option("--cards", "-c", help="The pitcher's cards, such as "
                                                                   "\"AS KS 5S 2H 9D JC\".")] = None,
    players: Annotated[int | None, typer.Option("--players", "-p", help="How many play (default: 4 where the "
                                                                       "ruleset allows it).")] = None,
    trump: Annotated[str | None, typer.Option("--trump", "-t", help="Only this trump (default: every suit).")] = None,
    samples: Annotated[int, typer.Option("--samples", "-n", help="Layouts of the unseen cards to solve.")] = 200,
    seed: Annotated[int | None, typer.Option("--seed", help="Seed of the layouts: the same seed, the same answer "
                                                            "(default: a new one, printed).")] = None,
    as_json: JsonOpt = False,
) -> None:
    """The odds of each bid from the pitcher's cards: layouts of the unseen cards, each solved exactly."""
    from pitchkeeper.game.odds import bid_odds
    from pitchkeeper.words.analysis import odds_lines

    ruleset = need_ruleset(rules, "analyse odds")
    if not cards:
        raise PitchError("give the pitcher's cards, such as \"AS KS 5S 2H 9D JC\"", "--cards")
    try:
        o = bid_odds(cards, ruleset, players=players, trump=trump, samples=samples, seed=seed)
    except PitchError as e:  # the library names its argument (cards=); here it was an option (--cards)
        raise (PitchError(e.message, f"--{e.where}") if e.where in ODDS_FLAGS else e) from None
    if as_json:
        emit_json(o)
        return
    _say(odds_lines(o))
