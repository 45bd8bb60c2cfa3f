"""A replayed match as CSV, JSON, Markdown or a printable HTML page (strings only).

Every format is derived from the same replay (match.MatchState), so each export agrees with
`judge match`. Nothing here prints or writes: the CLI decides where the text goes.
"""

from __future__ import annotations

import csv
import html
import io
import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, NamedTuple

from pitchkeeper.errors import PitchError, did_you_mean
from pitchkeeper.game.cards import pretty
from pitchkeeper.game.partners import calls
from pitchkeeper.game.vocabulary import target_words
from pitchkeeper.reports.chart import Progression, progression
from pitchkeeper.words.verdict import (
    bid_name,
    bid_words,
    bidders,
    game_line,
    game_words,
    partnership,
    points_line,
    sale_words,
    winner_of,
)

if TYPE_CHECKING:  # types only: the domain modules are imported by whoever calls
    from pitchkeeper.game.match import MatchRecord, MatchState
    from pitchkeeper.game.rulesets import Ruleset
    from pitchkeeper.game.scoring import Verdict

FORMATS = ("csv", "json", "md", "html", "text")
ALIASES = {"markdown": "md", "htm": "html", "share": "text"}
# Spreadsheets run a cell starting with these as a formula (OWASP "CSV injection").
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
BOM = "\ufeff"  # Excel reads a CSV as UTF-8 only when it starts with one (export --bom)


def format_name(name: str) -> str:
    """A --format value (or an -o file suffix) checked against the known formats."""
    key = name.lower().lstrip(".")
    key = ALIASES.get(key, key)
    if key not in FORMATS:
        raise PitchError(f"unknown format '{name}'{did_you_mean(name, FORMATS)} (formats: {', '.join(FORMATS)})",
                         "--format")
    return key


class Export(NamedTuple):
    """What every format needs: the ruleset's point ids, the record and its replay."""

    point_ids: tuple[str, ...]
    record: MatchRecord
    state: MatchState
    reach: str = "reach"  # the ruleset's win.reach: "reach" the target, or "exceed" it
    game_id: str | None = None  # the ruleset's game point (None: it has none)
    calls: bool = False  # the table calls a partner each hand (the hand's teams are not the table's sides)
    direction: str = "up"  # "down": scores count down from the target (win.direction)

    @property
    def sides(self) -> tuple[str, ...]:
        return tuple(self.state.scores)

    @property
    def goal(self) -> str:
        """The goal in words: "to 21", "must pass 21", "down from 7 to 0"."""
        return target_words(self.reach, self.state.target, self.direction)


def build(ruleset: Ruleset, record: MatchRecord, state: MatchState) -> Export:
    game = ruleset.game_point
    return Export(tuple(p.id for p in ruleset.points), record, state, ruleset.settings["win"]["reach"],
                  game.id if game else None, calls(ruleset, record.table), ruleset.direction)


def render(fmt: str, ex: Export) -> str:
    """The export in one of FORMATS."""
    return {"csv": to_csv, "json": to_json_text, "md": to_markdown, "html": to_html, "text": to_text}[fmt](ex)


# ---------------------------------------------------------------------------
# rows shared by CSV and Markdown


def _winners(ex: Export, v: Verdict) -> dict[str, str]:
    """Point id -> the side that won it (a player's name in individual play; where a partner is called, the
    player who won it, or the hand's side for a point no one player wins: "Ann+Cy"); game not won is said
    as such ("tie (13-13), not scored"), never left blank."""
    j = v.to_json()
    won = {a["point"]: winner_of(j, a) for a in j["awards"]}
    if ex.game_id is not None and v.game is not None and v.game.side is None:
        won[ex.game_id] = game_words(v.to_json()["game"])
    return won


def _points(ex: Export, v: Verdict) -> str:
    return points_line(v.to_json(), game_id=ex.game_id or "game")


def csv_header(ex: Export) -> list[str]:
    """The columns; a match whose table calls a partner has two more after the bid: the card called and
    who held it (every other match keeps today's header)."""
    return (["hand", "dealer", "bidder", "bid", *(["called", "partner"] if ex.calls else []), "trump",
             *ex.point_ids, "result"] + [f"{s} change" for s in ex.sides] + [f"{s} total" for s in ex.sides])


def _called(v: Verdict) -> list[str]:
    """The called card and who held it ("none": the bidder played alone), as the CSV's two columns."""
    return [v.bid.called or "", v.bid.partner or "none"]


def bid_cell(v: Verdict) -> str:
    """The bid in a score sheet's cell: "Bob 3"; where a partner is called "Ann+Cy 6 (A♠)", "Ann alone 6 (A♠)"."""
    if v.bid.team is None:
        return f"{v.bid.player} {bid_name(v.bid)}"
    return f"{bidders(v.to_json())} {bid_name(v.bid)}" + (f" ({pretty(v.bid.called)})" if v.bid.called else "")


def safe_cell(text: str) -> str:
    """A name as a spreadsheet shows it, never run: a leading = + - @ is quoted with an apostrophe."""
    return "'" + text if text.startswith(FORMULA_START) else text


def to_csv(ex: Export) -> str:
    """One row per hand: who dealt and bid, each point's winner, made or set, changes and totals.

    Numbers stay numbers (a change of -2 is written -2); only names are guarded against formulas.
    """
    buf = io.StringIO()
    w = csv.writer(buf, quoting=csv.QUOTE_MINIMAL, lineterminator="\r\n")
    w.writerow([safe_cell(c) for c in csv_header(ex)])
    for h, hand in zip(ex.state.hands, ex.record.hands, strict=True):
        v = h.verdict
        won = _winners(ex, v)
        w.writerow([h.number, safe_cell(hand.dealer), safe_cell(v.bid.player), v.bid.label,
                    *([safe_cell(c) for c in _called(v)] if ex.calls else []), v.trump,
                    *[safe_cell(won.get(p, "")) for p in ex.point_ids],
                    "made" if v.bid.made else "set",
                    *[v.delta[s] for s in ex.sides], *[h.scores[s] for s in ex.sides]])
    return buf.getvalue()


# ---------------------------------------------------------------------------
# JSON


def _plain(v: Any) -> Any:
    """TOML values as JSON values: dates and times become ISO text."""
    if isinstance(v, Mapping):
        return {str(k): _plain(x) for k, x in v.items()}
    if isinstance(v, list | tuple):
        return [_plain(x) for x in v]
    if isinstance(v, str | int | float | bool) or v is None:
        return v
    iso = getattr(v, "isoformat", None)
    return iso() if iso else str(v)


def to_json_obj(ex: Export) -> dict[str, Any]:
    """The `judge match` object, plus every header key of the match log that it does not already have.

    Keys of the judge object (rules, target, hands ...) keep their judged values: `rules` is the
    ruleset's name even when the log names a file, and `target` the one actually played to. Each
    hand also gets its `dealer` (an added key; the judge keys are unchanged).
    """
    obj = ex.state.to_json()
    for h, hand, played in zip(obj["hands"], ex.record.hands, ex.state.hands, strict=True):
        h["dealer"] = hand.dealer
        h["game_line"] = game_line(h["game"])
        h["sale"] = sale_words(played.verdict.auction)
    for k, v in ex.record.header.items():
        if k != "hands" and k not in obj:
            obj[k] = _plain(v)
    return obj


def to_json_text(ex: Export) -> str:
    return json.dumps(to_json_obj(ex), ensure_ascii=False, indent=2) + "\n"


# ---------------------------------------------------------------------------
# Markdown


def md_cell(text: str) -> str:
    """A name that cannot break the table or turn into formatting when pasted into a chat.

    `&` too: "&lt;" would otherwise be shown as "<", an entity rather than the name as written.
    """
    out = text.replace("\\", "\\\\")
    for ch in "|*_`<>[]~&":
        out = out.replace(ch, "\\" + ch)
    return out.replace("\n", " ")


def _signed(n: int) -> str:
    return f"{n:+d}"


def _side_words(ex: Export, side: str) -> str:
    table = ex.state.table
    if table.teams:
        return f"{side} ({', '.join(table.members(side))})"
    return side


def result_line(ex: Export) -> str:
    """The final result in one sentence (plain text; callers escape it for their format)."""
    st = ex.state
    totals = ", ".join(f"{s} {st.scores[s]}" for s in ex.sides)
    if st.ending:
        return f"{st.ending.winner} won on hand {st.ending.hand}: {st.ending.reason}. Final score: {totals}."
    n = len(st.hands)
    return f"The game goes on after {n} hand{'s' if n != 1 else ''} ({ex.goal}). Score: {totals}."


def to_text(ex: Export, goal: str | None = None) -> str:
    """A few plain lines to paste into a group chat: the match, the score (leader first), the state."""
    st = ex.state
    n = len(st.hands)
    head = f"{_title(ex)} - {st.rules}, {goal or ex.goal}"
    order = sorted(ex.sides, key=lambda s: -st.scores[s])
    score = " - ".join(f"{_side_words(ex, s)} {st.scores[s]}" for s in order)
    lines = [head, f"{score} after {n} hand{'s' if n != 1 else ''}"]
    if st.hands:
        last = st.hands[-1].verdict
        lines.append(f"Hand {n}: {bid_words(last.to_json(), last.auction)}; {_points(ex, last)}")
    if st.ending:
        lines.append(f"{st.ending.winner} won on hand {st.ending.hand}: {st.ending.reason}.")
    else:
        lines.append("The game goes on.")
    return "\n".join(lines) + "\n"


def to_markdown(ex: Export) -> str:
    """A score sheet to paste into a chat: one table row per hand, then the result."""
    st = ex.state
    head = ["#", "dealer", "bid", "trump", "points", "result", *ex.sides]
    lines = [f"**{md_cell(_title(ex))}** - {md_cell(st.rules)}, {ex.goal}", ""]
    if st.table.teams:
        lines += ["Teams: " + "; ".join(md_cell(_side_words(ex, s)) for s in ex.sides), ""]
    lines.append("| " + " | ".join(md_cell(h) for h in head) + " |")
    lines.append("|" + "|".join("---:" if i == 0 or i >= 6 else "---" for i in range(len(head))) + "|")
    for h, hand in zip(st.hands, ex.record.hands, strict=True):
        v = h.verdict
        sale = sale_words(v.auction)
        row = [str(h.number), hand.dealer, bid_cell(v) + (f" ({sale})" if sale else ""), v.trump,
               _points(ex, v),
               "made" if v.bid.made else "set",
               *[f"{h.scores[s]} ({_signed(v.delta[s])})" for s in ex.sides]]
        lines.append("| " + " | ".join(md_cell(c) for c in row) + " |")
    lines += ["", md_cell(result_line(ex)), ""]
    return "\n".join(lines)


def _title(ex: Export) -> str:
    t = ex.record.header.get("title")
    return t if isinstance(t, str) and t.strip() else "Pitch match"


# ---------------------------------------------------------------------------
# HTML


# Colours that tell the sides apart in print as well (with a dash pattern each, for black and white).
COLOURS = ("#1f6feb", "#d1242f", "#1a7f37", "#9a6700", "#8250df", "#bf3989", "#0a7f86", "#57606a", "#6e4c13")
DASHES = ("", "6 3", "2 3", "8 3 2 3", "1 2", "10 4", "4 4", "3 6", "12 2")

CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:"

CSS = """
:root { color-scheme: light; }
body { font: 14px/1.4 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 2em auto;
       max-width: 60em; padding: 0 1em; color: #1f2328; background: #fff; }
h1 { font-size: 1.5em; margin: 0 0 .2em; } h2 { font-size: 1.15em; margin: 1.6em 0 .4em; }
.meta { color: #57606a; margin: 0 0 1em; }
table { border-collapse: collapse; margin: .4em 0; }
th, td { border: 1px solid #d0d7de; padding: .25em .5em; text-align: left; vertical-align: top; }
th { background: #f6f8fa; } td.n { text-align: right; font-variant-numeric: tabular-nums; }
.set { color: #d1242f; font-weight: 600; } .made { color: #1a7f37; font-weight: 600; }
.result { font-size: 1.1em; font-weight: 600; margin: 1em 0; }
.hand { break-inside: avoid; margin: .6em 0 1em; }
.hand h3 { font-size: 1em; margin: .4em 0 .2em; }
.why { color: #57606a; font-size: .92em; margin: .2em 0; }
svg { max-width: 100%; height: auto; }
svg text { font: 12px system-ui, sans-serif; fill: #1f2328; }
/* a phone (390 px): each hand's row a card of labelled lines, no page wider than the screen */
@media screen and (max-width: 40em) {
  body { margin: 1em auto; padding: 0 .75em; }
  body, td, th, li, p, h1 { overflow-wrap: anywhere; }
  #hands td:empty { display: none; }
  #hands, #hands tbody, #hands tr, #hands td { display: block; }
  #hands thead { display: none; }
  #hands tr { border: 1px solid #d0d7de; border-radius: 6px; margin: 0 0 .6em; padding: .3em .5em; }
  #hands td { border: 0; padding: .1em 0; display: flex; justify-content: space-between; gap: 1em;
              text-align: right; }
  #hands td::before { content: attr(data-label); color: #57606a; text-align: left; }
  table.game { width: 100%; }
}
@media print {
  body { margin: 0; max-width: none; font-size: 11pt; }
  h2 { break-after: avoid; } table, figure, .hand { break-inside: avoid; }
  th { background: none; } a { color: inherit; text-decoration: none; }
  @page { margin: 1.5cm; }
}
"""


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def svg_chart(p: Progression, width: int = 720, height: int = 320) -> str:
    """The score progression as inline SVG: a polyline per side, axes, the target line, a legend."""
    left, right, top, bottom = 48, 16, 16, 56
    pw, ph = width - left - right, height - top - bottom
    lo, hi = p.lo, p.hi
    span = max(1, hi - lo)
    n = max(1, len(p.hands) - 1)

    def x(i: int) -> float:
        return round(left + pw * i / n, 1)

    def y(v: int) -> float:
        return round(top + ph * (hi - v) / span, 1)

    out = [f'<svg id="chart" role="img" viewBox="0 0 {width} {height}" '
           f'width="{width}" height="{height}" aria-labelledby="chart-title">',
           '<title id="chart-title">Score after each hand</title>']
    # y axis ticks: 0, the target, the extremes, and a few between.
    ticks: list[int] = []
    for v in [0, p.target, lo, hi, *(lo + round(span * k / 4) for k in range(1, 4))]:
        if all(abs(y(v) - y(t)) >= 14 for t in ticks):  # keep labels apart; 0 and the target first
            ticks.append(v)
    for v in ticks:
        out.append(f'<line x1="{left}" x2="{left + pw}" y1="{y(v)}" y2="{y(v)}" stroke="#eaeef2"/>')
        out.append(f'<text x="{left - 6}" y="{y(v) + 4}" text-anchor="end">{v}</text>')
    every = max(1, -(-len(p.hands) // 24))  # at most ~24 hand labels
    for i in p.hands:
        if i % every == 0 or i == p.hands[-1]:
            out.append(f'<text x="{x(i)}" y="{top + ph + 18}" text-anchor="middle">{i}</text>')
    out.append(f'<line class="axis" x1="{left}" x2="{left}" y1="{top}" y2="{top + ph}" stroke="#1f2328"/>')
    out.append(f'<line class="axis" x1="{left}" x2="{left + pw}" y1="{y(max(lo, 0)) if lo < 0 else top + ph}" '
               f'y2="{y(max(lo, 0)) if lo < 0 else top + ph}" stroke="#1f2328"/>')
    out.append(f'<text x="{left + pw / 2}" y="{top + ph + 36}" text-anchor="middle">hand</text>')
    out.append(f'<line id="target" x1="{left}" x2="{left + pw}" y1="{y(p.line)}" y2="{y(p.line)}" '
               'stroke="#57606a" stroke-dasharray="4 4"/>')
    out.append(f'<text x="{left + pw - 2}" y="{y(p.line) - 5}" text-anchor="end">{_e(p.goal)}</text>')
    for i, s in enumerate(p.sides):
        colour, dash = COLOURS[i % len(COLOURS)], DASHES[i % len(DASHES)]
        pts = " ".join(f"{x(k)},{y(v)}" for k, v in zip(p.hands, p.scores[s], strict=True))
        dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
        out.append(f'<polyline class="side" data-side="{_e(s)}" fill="none" stroke="{colour}" stroke-width="2.5"'
                   f'{dash_attr} points="{pts}"/>')
        if len(p.hands) <= 60:  # a dot on each hand while they are far enough apart to see
            out.extend(f'<circle cx="{x(k)}" cy="{y(v)}" r="3" fill="{colour}"/>'
                       for k, v in zip(p.hands, p.scores[s], strict=True))
    lx = left
    ly = height - 8
    for i, s in enumerate(p.sides):
        colour, dash = COLOURS[i % len(COLOURS)], DASHES[i % len(DASHES)]
        dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
        out.append(f'<g class="legend"><line x1="{lx}" x2="{lx + 22}" y1="{ly - 4}" y2="{ly - 4}" stroke="{colour}" '
                   f'stroke-width="2.5"{dash_attr}/><text x="{lx + 26}" y="{ly}">{_e(s)}</text></g>')
        lx += 40 + 7 * min(len(s), 24)
    out.append("</svg>")
    return "\n".join(out)


def _cards(cards: tuple[tuple[str, int], ...]) -> str:
    return ", ".join(f"{_e(c)} {n}" for c, n in cards) or "none"


def _game_block(ex: Export, number: int, v: Verdict) -> str:
    """One hand's points with their reasons and the game count card by card."""
    sale = sale_words(v.auction)
    j = v.to_json()
    parts = [f'<section class="hand" id="hand-{number}"><h3>Hand {number}: {_e(bidders(j))} bid '
             f'{_e(bid_name(v.bid))}, trump {_e(v.trump)}, '
             f'<span class="{"made" if v.bid.made else "set"}">{"made" if v.bid.made else "set"}</span></h3>']
    together = partnership(j)
    if together:
        parts.append(f'<p class="why partnership">{_e(together)}</p>')
    if sale:
        parts.append(f'<p class="why">{_e(sale)}</p>')
    g = v.game
    items = [f"<li>{_e(a.point)}: {_e(a.reason)}</li>" for a in v.awards if g is None or a.point != ex.game_id]
    line = game_line(v.to_json()["game"])
    if line is not None:  # game always said, a tie included
        items.append(f'<li class="game-line">{_e(line)}</li>')
    if items:
        parts.append("<ul>" + "".join(items) + "</ul>")
    else:
        parts.append('<p class="why">No points were won.</p>')
    if g is not None and g.cards:
        sides = [s for s, _ in v.hand_sides] if v.hand_sides is not None else ex.sides  # the hand's own sides
        rows = "".join(f'<tr><th scope="row">{_e(s)}</th><td>{_cards(g.cards.get(s, ()))}</td>'
                       f'<td class="n">{g.counts.get(s, 0)}</td></tr>' for s in sides)
        parts.append(f'<table class="game"><thead><tr><th>side</th><th>counting cards</th><th>game count</th></tr>'
                     f"</thead><tbody>{rows}</tbody></table>")
    if g is not None:  # why game went where it did (or to nobody)
        parts.append(f'<p class="why">{_e(g.reason)}</p>')
    for line in v.settlement:
        parts.append(f'<p class="why">{_e(line)}</p>')
    parts.append("</section>")
    return "\n".join(parts)


def to_html(ex: Export) -> str:
    """One self-contained printable page: no scripts, no fetches (the CSP forbids them), names escaped."""
    st = ex.state
    title = _title(ex)
    table = st.table
    who = ("; ".join(f"{_e(s)}: {', '.join(_e(m) for m in table.members(s))}" for s in ex.sides)
           if table.teams else ", ".join(_e(p) for p in table.players))
    head = ["#", "dealer", "bid", "trump", *ex.point_ids, "result",
            *[f"{s} change" for s in ex.sides], *[f"{s} total" for s in ex.sides]]
    rows = []
    for h, hand in zip(st.hands, ex.record.hands, strict=True):
        v = h.verdict
        won = _winners(ex, v)
        res = "made" if v.bid.made else "set"
        values = ([(str(h.number), "n"), (hand.dealer, ""), (bid_cell(v), ""), (v.trump, "")]
                  + [(won.get(p, ""), "") for p in ex.point_ids] + [(res, res)]
                  + [(_signed(v.delta[s]), "n") for s in ex.sides] + [(str(h.scores[s]), "n") for s in ex.sides])
        cells = [f'<td data-label="{_e(label)}"' + (f' class="{cls}"' if cls else "") + f">{_e(text)}</td>"
                 for label, (text, cls) in zip(head, values, strict=True)]
        rows.append(f'<tr class="hand-row" data-hand="{h.number}">' + "".join(cells) + "</tr>")
    body = [
        "<!DOCTYPE html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        f'<meta http-equiv="Content-Security-Policy" content="{CSP}">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{_e(title)} - {_e(st.rules)}</title>",
        f"<style>{CSS}</style>",
        "</head>",
        "<body>",
        f"<h1>{_e(title)}</h1>",
        f'<p class="meta">{_e(st.rules)}, {_e(ex.goal)}. {who}</p>',
        f'<p class="result" id="result">{_e(result_line(ex))}</p>',
        "<h2>Hands</h2>",
        '<table id="hands"><thead><tr>' + "".join(f'<th scope="col">{_e(c)}</th>' for c in head) + "</tr></thead>",
        "<tbody>", *rows, "</tbody></table>",
        "<h2>Score after each hand</h2>",
        "<figure>", svg_chart(progression(st, ex.reach)), "</figure>",
        "<h2>Points and game count, hand by hand</h2>",
        *[_game_block(ex, h.number, h.verdict) for h in st.hands],
        "</body>",
        "</html>",
        "",
    ]
    return "\n".join(body)
