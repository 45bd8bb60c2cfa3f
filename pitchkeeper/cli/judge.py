"""Commands that judge: `judge hand`, `judge match` (record files) and `judge trick` (a trick at the table).

Parse, call the library (pitchkeeper.logbook.loader, pitchkeeper.game), show; drawing (pitchkeeper.show,
never Rich) only in the drawing paths.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from pitchkeeper.cli import JsonOpt, RulesOpt, emit_json, fail, topic, warn
from pitchkeeper.cli.library import need_ruleset
from pitchkeeper.errors import PitchError
from pitchkeeper.game import play, scoring
from pitchkeeper.game.cards import SUIT_NAMES, parse_suit
from pitchkeeper.game.play import TRUMP
from pitchkeeper.logbook import loader
from pitchkeeper.show import render, scorecard
from pitchkeeper.show.ansi import Table, Text
from pitchkeeper.show.render import card_text, console, suit_text

if TYPE_CHECKING:
    from pitchkeeper.game.play import TrickJudgement

commands = topic()


# ---------------------------------------------------------------------------
# judge


@commands.command("hand")
def judge_hand(
    file: Annotated[Path, typer.Argument(help="A hand record (TOML).", show_default=False)],
    rules: RulesOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Judge one hand: every point with its reason, the game count, the bid and the score change."""
    ruleset, table, hand = loader.load_hand(file, rules)
    try:
        v = scoring.verdict(ruleset, table, hand)
    except PitchError as e:
        raise e.at(str(file)) from None
    if as_json:
        emit_json(v.to_json())
        return

    scorecard.draw(v, table, ruleset.name)


def load_match(path: Path, rules: str | None) -> Any:
    """Read a match record file through the one loader; its warnings go to stderr."""
    k = loader.load(path, rules=rules, kind="file")
    warn(k.warnings)
    return k


@commands.command("match")
def judge_match(
    file: Annotated[Path, typer.Argument(help="A match record (TOML), such as a match log.", show_default=False)],
    rules: RulesOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Replay a whole match: each hand's verdict, the running scores, and who won by which rule."""
    state = load_match(file, rules).replay()
    if as_json:
        emit_json(state.to_json())
        return

    render.match_sheet(state)



@commands.command("trick")
def judge_trick(
    rules: RulesOpt = None,
    trump: Annotated[str | None, typer.Option("--trump", "-t", help="The trump suit: S, H, D, C or its name.")] = None,
    cards: Annotated[str | None, typer.Option(
        "--cards", "-c", help="The cards in playing order from the leader, each Player:CARD, such as "
                              "\"Ann:JC Bob:AC Cy:5C Dee:2S\"; Player:fold for a player out of trumps.")] = None,
    held: Annotated[list[str] | None, typer.Option(
        "--held", help="A player's cards as the trick began, the card played included: \"Bob:AC KC 4D\". "
                       "Repeat it, or separate players with ';'.")] = None,
    first: Annotated[bool, typer.Option("--first", help="This is the hand's first trick: the pitcher's first "
                                                        "lead.")] = False,
    as_json: JsonOpt = False,
) -> None:
    """Who wins a trick and why; with --held, whether each play kept the rules, and what else was allowed."""
    ruleset = need_ruleset(rules, "judge trick")
    if not trump:
        fail("--trump: say which suit is trump (S, H, D or C)")
    if not cards:
        fail("--cards: give the cards in playing order from the leader, such as \"Ann:JC Bob:AC Cy:5C Dee:2S\"")
    try:
        suit = parse_suit(trump)
    except PitchError as e:
        raise e.at("--trump") from None
    plays = play.parse_plays(cards)
    hands = play.parse_held(held or [])
    j = play.judge_trick(ruleset, suit, plays, hands, first=first)
    if as_json:
        emit_json(j.to_json())
        return
    _draw_trick(j)


def _draw_trick(j: TrickJudgement) -> None:
    def card(c: str | None) -> Text:
        return Text("folds", style="dim") if c is None else card_text(c)

    out = console()
    led = "trump" if j.led == TRUMP else SUIT_NAMES.get(j.led or "", "-")
    out.print(Text.assemble((j.rules, "bold"), "  trump ", suit_text(j.trump), f"  {led} led",
                            ("  (first trick of the hand)" if j.first else "")))
    t = Table()
    t.add_column("player")
    t.add_column("card")
    t.add_column("legal")
    t.add_column("why")
    for p in j.plays:
        r = p.ruling
        mark = {True: Text("yes", style="green"), False: Text("NO", style="bold red"),
                None: Text("?", style="yellow")}[r.legal]
        why = Text(r.why, style="" if r.legal is False else "dim")
        if r.rule:
            why.append(f"  [{r.rule}]", style="red")
        t.add_row(Text(p.player, style="bold" if p.player == j.winner else ""), card(p.card), mark, why)
    out.print(t)
    out.print(Text.assemble(("winner: ", "bold"), (j.winner, "bold green"), " with ", card(j.card), f" - {j.why}"))


