"""Commands that settle play: `judge trick` and `rules explain`.

Only parsing and printing live here; the play model is `pitchkeeper.game.play` and the answers
are `pitchkeeper.words.disputes`. Domain and drawing modules are imported inside the commands, so
loading this module costs nothing at start-up.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from pitchkeeper.cli import JsonOpt, RulesOpt, emit_json, fail, judge_app, rules_app

if TYPE_CHECKING:
    from pitchkeeper.game.play import TrickJudgement
    from pitchkeeper.game.rulesets import Ruleset
    from pitchkeeper.words.disputes import Answer


def _ruleset(rules: str | None, command: str) -> Ruleset:
    from pitchkeeper.game import rulesets

    if not rules:
        fail(f"--rules: say which ruleset ({command} --rules seven-point, or a .toml file); "
             "'pitchkeeper rules list' names the built-in ones")
    return rulesets.load(rules)


@judge_app.command("trick")
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
    from pitchkeeper.errors import PitchError
    from pitchkeeper.game import play
    from pitchkeeper.game.cards import parse_suit

    ruleset = _ruleset(rules, "judge trick")
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
    from pitchkeeper.game.cards import SUIT_NAMES
    from pitchkeeper.game.play import TRUMP
    from pitchkeeper.show.ansi import Table, Text
    from pitchkeeper.show.render import card_text, console, suit_text

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


@rules_app.command("explain")
def rules_explain(
    topic: Annotated[str | None, typer.Argument(help="A dispute, such as off-jack, low, follow, revoke; "
                                                     "leave it out for the list.", show_default=False)] = None,
    rules: RulesOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Settle a table argument: this ruleset's answer to a common dispute, with an example."""
    from pitchkeeper.words import disputes

    ruleset = _ruleset(rules, "rules explain")
    if topic is None:
        answers = disputes.explain_all(ruleset)
        if as_json:
            emit_json({"rules": ruleset.name, "topics": [
                {"topic": a.topic, "question": a.question, "dispute": a.dispute, "summary": a.summary}
                for a in answers]})
            return
        _draw_topics(ruleset.name, answers)
        return
    answer = disputes.explain(ruleset, topic)
    if as_json:
        emit_json(answer.to_json(ruleset.name))
        return
    _draw_answer(ruleset.name, answer)


def _draw_topics(name: str, answers: list[Answer]) -> None:
    from pitchkeeper.show.ansi import Table, Text
    from pitchkeeper.show.render import console

    out = console()
    out.print(Text.assemble((name, "bold"), ": the usual table arguments, and this ruleset's answer"))
    t = Table()
    t.add_column("topic", style="bold")
    t.add_column("answer")
    for a in answers:
        t.add_row(a.topic, a.summary)
    out.print(t)
    out.print(Text(f"pitchkeeper rules explain TOPIC --rules {name} for the full answer", style="dim"))


def _draw_answer(name: str, a: Answer) -> None:
    from pitchkeeper.show.ansi import Text
    from pitchkeeper.show.render import console

    out = console()
    out.print(Text.assemble((a.question, "bold"), (f"  ({name}, digest {a.dispute})", "dim")))
    out.print(Text(a.answer))
    if a.example and a.example != "-":
        out.print(Text.assemble(("example: ", "bold"), a.example))
    out.print(Text(f"from: {', '.join(a.keys)}", style="dim"))
