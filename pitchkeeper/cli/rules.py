"""Commands about rulesets: `rules list`, `show`, `check`, `diff`, `new` (house rules) and `explain`
(a table argument settled by this ruleset's answer).

Parse, call the library (pitchkeeper.game.rulesets, pitchkeeper.words), show; drawing (pitchkeeper.show,
never Rich) only in the drawing paths.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from pitchkeeper.cli import JsonOpt, emit_json, fail, topic
from pitchkeeper.cli.library import may_write_over, need_ruleset
from pitchkeeper.errors import shown
from pitchkeeper.game import rulesets
from pitchkeeper.logbook import loader, store, writing
from pitchkeeper.reports import houserules
from pitchkeeper.show import render
from pitchkeeper.show.ansi import Table, Text
from pitchkeeper.show.render import console
from pitchkeeper.words import disputes, explain

if TYPE_CHECKING:
    from pitchkeeper.words.disputes import Answer

commands = topic()


# ---------------------------------------------------------------------------
# rules


@commands.command("list")
def rules_list(as_json: JsonOpt = False) -> None:
    """The built-in rulesets."""

    rows = []
    for name in rulesets.builtin_names():
        r = rulesets.load(name)
        rows.append({"name": name, "title": r.title, "source": r.source, "target": r.settings["win"]["target"],
                     "points": r.max_points, "jokers": r.settings["deck"]["jokers"]})
    if as_json:
        emit_json(rows)
        return

    render.rules_list(rows)


@commands.command("show")
def rules_show(
    name: Annotated[str, typer.Argument(help="A built-in name or a ruleset file.", show_default=False)],
    as_json: JsonOpt = False,
) -> None:
    """A ruleset in plain words."""

    r = rulesets.load(name)
    words = explain.describe(r)
    if as_json:
        emit_json({"name": r.name, "title": r.title, "source": r.source, "files": list(r.chain),
                   "rules": {k: v[1] for k, v in words.items()}, "notes": list(r.notes),
                   "settings": r.settings, "points": [p.id for p in r.points],
                   "overridden_notes": [{"note": o.text, "keys": list(o.keys), "by": o.by, "dropped": o.dropped}
                                        for o in r.overridden_notes]})
        return

    render.rules_show(r, words)


@commands.command("check")
def rules_check(
    file: Annotated[str, typer.Argument(help="A ruleset file (or built-in name).", show_default=False)],
) -> None:
    """Validate a ruleset file: every problem with its key, exit 2 if there is any."""
    problems, chain = rulesets.check(file)
    if problems:
        for p in problems:  # one line each, `error: FILE: key: what`; a count when there are several
            sys.stderr.write(f"error: {shown(chain[-1])}: {shown(p)}\n")
        if len(problems) > 1:
            sys.stderr.write(f"{len(problems)} problem(s) in {shown(file)}\n")
        raise typer.Exit(2)
    r = rulesets.load(file)
    via = f" (extends {', '.join(Path(c).stem for c in r.chain[:-1])})" if len(r.chain) > 1 else ""
    over = ""
    if r.overridden_notes:
        k = len(r.overridden_notes)
        over = f"; {k} note{'' if k == 1 else 's'} of {', '.join(Path(c).stem for c in r.chain[:-1])} overridden"
    sys.stdout.write(f"{file}: ok - {r.name}{via}, {len(r.points)} points, "
                     f"{r.max_points} a hand at most, target {r.settings['win']['target']}{over}\n")


@commands.command("diff")
def rules_diff(
    a: Annotated[str, typer.Argument(help="A ruleset (name or file).", show_default=False)],
    b: Annotated[str, typer.Argument(help="Another ruleset.", show_default=False)],
    as_json: JsonOpt = False,
) -> None:
    """What two rulesets disagree on, in words."""

    ra, rb = rulesets.load(a), rulesets.load(b)
    rows = explain.diff(ra, rb)
    if as_json:
        emit_json([{"topic": t, ra.name: x, rb.name: y} if ra.name != rb.name else
                   {"topic": t, "a": x, "b": y} for t, x, y in rows])
        return

    render.rules_diff(ra, rb, rows)


@commands.command("new")
def rules_new(
    file: Annotated[Path, typer.Argument(help="The house-rules file to write.", show_default=False)],
    extends: Annotated[str, typer.Option("--extends", "-e", help="The ruleset it changes.")] = "seven-point",
    force: Annotated[bool, typer.Option("--force", help="Overwrite an existing file.")] = False,
) -> None:
    """Start a house-rules file that extends a ruleset, naming every setting it may change."""
    base = rulesets.load(extends)
    may_write_over(file, None)  # never over a match log, even with --force
    if file.exists() and not force:
        fail(f"{file}: already exists (use --force to overwrite)")
    text = houserules.starter(base, extends, file.stem)

    writing.write_atomic(file, text)
    sys.stdout.write(f"wrote {shown(file)}: uncomment and change what your table plays differently, "
                     f"then run: pitchkeeper rules check {shown(file)}\n")



def _current_ruleset() -> Any:
    """The ruleset the current match is played under (the version its log pins), or None."""
    path = store.current_match()
    if path is None or not path.exists():
        return None
    return loader.pinned_ruleset(store.read_record(path), path)[0]


@commands.command("explain")
def rules_explain(
    topic: Annotated[str | None, typer.Argument(help="A dispute, such as off-jack, low, follow, revoke; "
                                                     "leave it out for the list.", show_default=False)] = None,
    rules: Annotated[str | None, typer.Option("--rules", "-r", help="Ruleset: a built-in name or a .toml file "
                                              "(default: the current match's).", show_default=False)] = None,
    as_json: JsonOpt = False,
) -> None:
    """Settle a table argument: this ruleset's answer to a common dispute, with an example."""
    ruleset = _current_ruleset() if not rules else None
    ruleset = ruleset or need_ruleset(rules, "rules explain")
    if topic is None:
        answers = disputes.explain_all(ruleset)
        if as_json:
            emit_json({"rules": ruleset.name, "topics": [
                {"topic": a.topic, "question": a.question, "dispute": a.dispute, "summary": a.summary,
                 "number": a.number}
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
    out = console()
    out.print(Text.assemble((a.question, "bold"), (f"  ({name}, digest {a.dispute})", "dim")))
    out.print(Text(a.answer))
    if a.example and a.example != "-":
        out.print(Text.assemble(("example: ", "bold"), a.example))
    out.print(Text(f"from: {', '.join(a.keys)}", style="dim"))
