"""Checking a merged ruleset: every problem at once, each as 'key: what is wrong - the fix'.

The types come from the one field table (game.settings); then the rules that tie settings together
(a trump order of the deck's cards, a deck big enough for the deal and the kitty, a draw after trump
is named, a smudge rule only where there is a smudge bid ...). game.rulesets re-exports `validate`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from pitchkeeper.errors import CONTROL, did_you_mean, or_list, shown, unknown_key_words
from pitchkeeper.game.cards import JOKERS, RANKS, Card
from pitchkeeper.game.kinds import KINDS
from pitchkeeper.game.records import team_sizes_for, teams_fit
from pitchkeeper.game.settings import COMMON_POINT_KEYS, SECTIONS, TOP_KEYS, F, point_fields, settings_of

_CITED = re.compile(r"\b(?:(" + "|".join(SECTIONS) + r")\.([a-z_]+)|points\.([a-z0-9-]+)(?:\.([a-z_]+))?)\b")


def cited_keys(note: str) -> tuple[str, ...]:
    """The settings a note cites, as written in it ('bidding.min', 'points.low.to', 'points.ten'), in
    order, each once. A house file that changes a cited key overrides the note (game.rulesets)."""
    out: dict[str, None] = {}
    for m in _CITED.finditer(note):
        sec, key, pid, pkey = m.groups()
        token = f"{sec}.{key}" if sec else f"points.{pid}" + (f".{pkey}" if pkey else "")
        out[token] = None
    return tuple(out)


def _type_problem(f: F, v: Any) -> str | None:
    def isint(x: Any) -> bool:
        return isinstance(x, int) and not isinstance(x, bool)

    if f.kind == "int":
        if not isint(v):
            return f"expected a whole number, got {v!r}"
        if (f.lo is not None and v < f.lo) or (f.hi is not None and v > f.hi):
            return f"{v} is out of range ({f.lo} to {f.hi})"
    elif f.kind == "bool":
        if not isinstance(v, bool):
            return f"expected true or false, got {v!r}"
    elif f.kind == "str":
        if not isinstance(v, str):
            return f"expected text, got {v!r}"
        if CONTROL.search(v):
            return f"{shown(repr(v))} holds a control character - it is plain text, printed to terminals"
    elif f.kind == "enum":
        if v not in f.choices:
            return f"'{v}' is not allowed{did_you_mean(str(v), f.choices)} (one of: {', '.join(f.choices)})"
    elif f.kind in ("strlist", "enumlist", "intlist"):
        if not isinstance(v, list):
            return f"expected a list, got {v!r}"
        for i, x in enumerate(v):
            if f.kind == "intlist":
                if not isint(x) or (f.lo is not None and x < f.lo) or (f.hi is not None and x > f.hi):
                    return f"item {i + 1}: expected a whole number from {f.lo} to {f.hi}, got {x!r}"
            elif not isinstance(x, str):
                return f"item {i + 1}: expected text, got {x!r}"
            elif CONTROL.search(x):
                return f"item {i + 1}: {shown(repr(x))} holds a control character - it is plain text"
            elif f.kind == "enumlist" and x not in f.choices:
                return f"item {i + 1}: '{x}' is not allowed{did_you_mean(x, f.choices)} (one of: {', '.join(f.choices)})"
        if f.nonempty and not v:
            return "expected at least one item"
        if len(set(map(str, v))) != len(v):
            dup = next(x for x in v if v.count(x) > 1)
            return f"names {dup!r} twice"
    elif f.kind == "counts":
        if not isinstance(v, dict):
            return "expected a table such as { A = 4, K = 3, Q = 2, J = 1, \"10\" = 10 }"
        for k, x in v.items():
            if k not in RANKS and k not in JOKERS:
                return f"'{k}' is not a rank or joker{did_you_mean(k, RANKS + JOKERS)}"
            if not isint(x) or x < 0:
                return f"{k}: expected a whole number of 0 or more, got {x!r}"
    return None


def validate(data: Mapping[str, Any]) -> list[str]:
    """Every problem in a merged ruleset, each as 'key: what is wrong - the fix'. The types first: the rules
    that tie settings together read the settings, so they are checked only once every type is right."""
    out = _type_problems(data)
    if out:
        return out
    s = settings_of(data)
    out += _deck_problems(s)
    out += _player_problems(s)
    points, has_game = _point_problems(data.get("points", {}), s)
    out += points
    out += _bidding_problems(s)
    out += _house_rule_problems(data, s, has_game)
    out += _note_problems(data)
    return out


def _type_problems(data: Mapping[str, Any]) -> list[str]:
    """Each top key and section key known and of its type (the field table, game.settings)."""
    out: list[str] = []
    for k, v in data.items():
        if k in ("$schema",):
            continue
        if k in TOP_KEYS:
            msg = _type_problem(TOP_KEYS[k], v)
            if msg:
                out.append(f"{k}: {msg}")
        elif k == "points":
            if not isinstance(v, Mapping):
                out.append("points: expected tables, such as [points.high]")
        elif k in SECTIONS:
            if not isinstance(v, Mapping):
                out.append(f"{k}: expected a table [{k}]")
                continue
            out += _keys_problems(k, v, SECTIONS[k])
        else:
            out.append(f"{k}: {unknown_key_words(k, list(TOP_KEYS) + list(SECTIONS) + ['points'])}")
    return out


def _keys_problems(where: str, table: Mapping[str, Any], fields: Mapping[str, F]) -> list[str]:
    """Each key of one table (a section, a point) known to the field table, and its value of its type."""
    out: list[str] = []
    for k, v in table.items():
        f = fields.get(k)
        if f is None:
            out.append(f"{where}.{k}: {unknown_key_words(k, list(fields))}")
            continue
        msg = _type_problem(f, v)
        if msg:
            out.append(f"{where}.{k}: {msg}")
    return out


def _deck_problems(s: Mapping[str, Mapping[str, Any]]) -> list[str]:
    """The trump order places every card of this deck, each once; the plain order every rank."""
    out: list[str] = []
    deck_ranks = set(s["deck"]["ranks"])
    jokers = jokers_of(s["deck"]["jokers"])
    order = s["trump"]["order"]
    for sym in order:
        problem = _symbol_problem(sym, deck_ranks, jokers)
        if problem:
            out.append(f"trump.order: {problem}")
    for j in jokers:
        if j not in order:
            out.append(f"trump.order: the deck has {j} but the trump order does not place it - jokers are always trumps")
    for r in s["deck"]["ranks"]:
        if r not in order:
            out.append(f"trump.order: the trump {r} is missing - list every rank of the deck")
    for sym in ("off-A", "off-J", "off-3"):
        if sym in order and sym[4:] not in order:
            out.append(f"trump.order: {sym} without the trump {sym[4:]}")
    missing = [r for r in s["deck"]["ranks"] if r not in s["play"]["plain_order"]]
    if missing:
        out.append(f"play.plain_order: missing {', '.join(missing)}")
    return out


def _player_problems(s: Mapping[str, Mapping[str, Any]]) -> list[str]:
    """Each table size allowed can be dealt from the deck and formed into teams."""
    out: list[str] = []
    n_cards = len(set(s["deck"]["ranks"])) * 4 + len(jokers_of(s["deck"]["jokers"]))
    deal = s["deck"]["deal_size"] or s["deck"]["hand_size"]
    kitty = s["kitty"]["size"]
    for n in s["players"]["counts"]:
        if n * deal + kitty > n_cards:
            more = f" and a kitty of {kitty}" if kitty else ""
            out.append(f"players.counts: {n} players of {deal} cards{more} need {n * deal + kitty} cards; "
                       f"the deck has {n_cards}")
        if not team_sizes_for(s["players"]["team_sizes"], n):
            out.append(f"players.counts: {n} players cannot form teams of {s['players']['team_sizes']}")
    return out


def _point_problems(pts: Any, s: Mapping[str, Mapping[str, Any]]) -> tuple[list[str], bool]:
    """Each point's keys, then the catalogue as a whole (something scored, one game point at most, the
    count-out points among them); and whether it has a game point (the kitty's rules ask)."""
    if not isinstance(pts, Mapping):
        return [], False
    out: list[str] = []
    fields = point_fields()
    for pid, p in pts.items():
        out += _one_point_problems(f"points.{pid}", p, fields, s["trump"]["order"])
    ids = [pid for pid, p in pts.items() if isinstance(p, Mapping) and p.get("enabled", True)]
    if not ids:
        out.append("points: the ruleset scores no points - add a [points.ID] table")
    games = [pid for pid in ids if (pk := KINDS.get(str(pts[pid].get("of")))) is not None and pk.game]
    if len(games) > 1:
        out.append(f"points: more than one game point ({', '.join(games)})")
    for pid in s["win"]["count_out"]:
        if pid not in pts:  # a point dropped with enabled = false is simply not counted
            out.append(f"win.count_out: '{pid}' is not a point of this ruleset{did_you_mean(pid, pts)}")
    return out, bool(games)


def _one_point_problems(where: str, p: Any, fields: Mapping[str, F], order: list[str]) -> list[str]:
    """One [points.ID] table: its keys known and of their type, then the keys its kind reads."""
    if not isinstance(p, Mapping):
        return [f"{where}: expected a table [{where}]"]
    out = _keys_problems(where, p, fields)
    if out:
        return out
    of = p.get("of", "card")
    kind = KINDS[of]
    for pk in p:
        if pk == "card":  # never reported on another kind's point (as it always was)
            continue
        if pk not in COMMON_POINT_KEYS and pk not in kind.keys:
            out.append(f"{where}.{pk}: does not apply to a point of = \"{of}\"")
    if "card" in kind.keys:
        sym = p.get("card")
        if not sym:
            out.append(f"{where}.card: a card point needs card = (A..2, off-J, off-A, off-3, HJ, LJ or JK)")
        elif sym not in order and p.get("enabled", True) is not False:
            out.append(f"{where}.card: {sym} is not a trump in this ruleset's deck and trump.order")
    if p.get("to") == "dealt" and not kind.to_dealt:
        out.append(f"{where}.to: only a card's point can go to the player dealt it")
    if p.get("tie", "nobody") != "nobody" and p.get("need") == "majority":
        out.append(f"{where}.tie: with need = \"majority\" a tie never wins game; only tie = \"nobody\" applies")
    return out


def _bidding_problems(s: Mapping[str, Mapping[str, Any]]) -> list[str]:
    """The bids' range, a smudge above every number, a forced bid among the bids, a revoke's cost."""
    out: list[str] = []
    b = s["bidding"]
    if b["min"] > b["max"]:
        out.append(f"bidding.min: {b['min']} is above bidding.max {b['max']}")
    if b["smudge"] and b["smudge"] <= b["max"]:
        out.append(f"bidding.smudge: worth {b['smudge']}, not above bidding.max {b['max']} - a smudge must outbid every number")
    if b["all_pass"] == "dealer-forced" and b["forced_bid"] and not (b["min"] <= b["forced_bid"] <= b["max"]):
        out.append(f"bidding.forced_bid: {b['forced_bid']} is outside the bids {b['min']}-{b['max']}")
    if s["revoke"]["setback"] == "points" and not s["revoke"]["points"]:
        out.append("revoke.points: setback = \"points\" needs how many points (revoke.points)")
    return out


def _changed(s: Mapping[str, Mapping[str, Any]], section: str) -> list[str]:
    """The keys of a section set to something other than their default."""
    return [k for k, f in SECTIONS[section].items() if s[section][k] != f.default]


def _house_rule_problems(data: Mapping[str, Any], s: Mapping[str, Mapping[str, Any]], has_game: bool) -> list[str]:
    """The rules that tie the settings of kitty, draw, partner, smudge and the end of a game together."""
    name = str(data.get("name", "")) or "this ruleset"
    return (_kitty_and_draw_problems(name, s, has_game) + _partner_problems(s) + _smudge_problems(name, s)
            + _end_problems(s))


def _kitty_and_draw_problems(name: str, s: Mapping[str, Mapping[str, Any]], has_game: bool) -> list[str]:
    """How the hands come down to the hand size: the kitty, the draw after trump, the lay-away rules."""
    out: list[str] = []
    hand = s["deck"]["hand_size"]
    deal = s["deck"]["deal_size"] or hand
    named = s["trump"]["set_by"] == "named"
    kitty, counts = s["kitty"]["size"], s["kitty"]["discard_counts"]
    dr = s["draw"]
    if kitty and deal > hand and dr["discard"] == "none":
        out.append(f"deck.deal_size: with a kitty, the other players come down from {deal} to {hand} only in a draw: "
                   "set draw.discard")
    if kitty and deal + kitty < hand:
        out.append(f"kitty.size: the bidder holds {deal}+{kitty} after taking the kitty, fewer than the {hand} played")
    if counts != "nothing" and not kitty:
        out.append("kitty.discard_counts: no kitty is dealt (kitty.size = 0), so the bidder lays nothing away to count")
    elif counts == "game" and not has_game:
        out.append(f"kitty.discard_counts: the discard counts for game, but {name} has no game point")
    if dr["discard"] != "none" and not named:
        out.append("draw.discard: the draw comes after trump is named: set trump.set_by = \"named\"")
    if dr["discard"] == "down-to-hand" and deal == hand and not kitty:
        out.append("draw.discard: down-to-hand throws nothing: deck.deal_size is the hand size and there is no kitty")
    if dr["most"] and dr["discard"] != "any":
        why = {"none": "there is no draw: draw.discard is \"none\"",
               "non-trumps": "draw.discard = \"non-trumps\" throws every non-trump, however many",
               "down-to-hand": "draw.discard = \"down-to-hand\" throws down to the hand size, drawing nothing"}
        out.append(f"draw.most: only with draw.discard = \"any\" ({why.get(dr['discard'], dr['discard'])})")
    if dr["rest"] and dr["discard"] not in ("non-trumps", "any"):
        out.append("draw.rest: the bidder takes the rest of the stock only after a draw that deals "
                   "(draw.discard = non-trumps or any)")
    for key in _changed(s, "discard"):
        if not kitty and dr["discard"] == "none" and deal == hand:
            out.append(f"discard.{key}: nothing is laid away in these rules (no kitty.size, no draw.discard, and "
                       "deck.deal_size is the hand size)")
        elif not named:
            out.append(f"discard.{key}: the lay-away rules read trump: set trump.set_by = \"named\"")
    return out


def _partner_problems(s: Mapping[str, Mapping[str, Any]]) -> list[str]:
    """Calling a partner: at a table size allowed, in individual play, with trump named when the call
    reads it, and a first-trick rule that can be played."""
    out: list[str] = []
    named = s["trump"]["set_by"] == "named"
    pa = s["partner"]
    players = s["players"]
    if not pa["counts"]:
        out += [f"partner.{key}: no table calls a partner (partner.counts = [])" for key in _changed(s, "partner")]
    else:
        out += [f"partner.counts: {n} is not among players.counts" for n in pa["counts"] if n not in players["counts"]]
        if 1 not in players["team_sizes"]:
            out.append("partner.counts: calling a partner needs individual play: add 1 to players.team_sizes")
        if pa["may_call"] != "any" and not named:
            what = "trump" if pa["may_call"] == "trump" else "non-trump"
            out.append(f"partner.may_call: calling a {what} needs trump named first: set trump.set_by = \"named\"")
        if pa["first_trick"] and s["play"]["follow"] == "trump-only" and pa["may_call"] != "trump":
            out.append("partner.first_trick: only trumps are played (play.follow = trump-only), so a called "
                       "non-trump is never played: call a trump (partner.may_call = \"trump\")")
    return out


def _smudge_problems(name: str, s: Mapping[str, Mapping[str, Any]]) -> list[str]:
    """The smudge's settings only where there is a smudge bid, each amount with the outcome that reads it."""
    out: list[str] = []
    sm = s["smudge"]
    if not s["bidding"]["smudge"]:
        out += [f"smudge.{key}: {name} has no smudge bid (bidding.smudge = 0)" for key in _changed(s, "smudge")]
    else:
        for what, amount in (("made", "made_points"), ("set", "set_points")):
            if sm[what] == "points" and not sm[amount]:
                out.append(f"smudge.{amount}: {what} = \"points\" needs how many (smudge.{amount})")
            elif sm[amount] and sm[what] != "points":
                out.append(f"smudge.{amount}: only with smudge.{what} = \"points\"")
        if sm["in_the_hole"] == "to-zero" and sm["made"] != "win":
            out.append("smudge.in_the_hole: to-zero only applies to a smudge that wins the game (smudge.made = \"win\")")
        if sm["set"] == "lose":
            bad = [(shape, k) for shape, k in _shapes(s) if k != 2]
            if bad:
                shape, k = bad[0]
                out.append(f"smudge.set: lose gives the game to the other side, which needs exactly two sides; "
                           f"{shape} gives {k}")
    return out


def _end_problems(s: Mapping[str, Mapping[str, Any]]) -> list[str]:
    """The end of a game, must-trump and look-alike jokers: settings that only mean something together."""
    out: list[str] = []
    pa = s["partner"]
    w = s["win"]
    if w["instant"] == "none" and w["instant_by"] != "anyone":
        out.append("win.instant_by: no side wins at once (win.instant = none)")
    if (w["instant"] != "none" and w["instant_by"] == "anyone" and pa["counts"]
            and pa["defenders"] == "together"):
        out.append("win.instant: the defenders of a called partner's hand play together (partner.defenders), and no "
                   "one of them can win for the others: set win.instant_by = \"bidder\"")
    if s["play"]["must_trump"] and s["play"]["follow"] == "trump-only":
        out.append("play.must_trump: only trumps are played anyway (play.follow = trump-only)")
    if s["trump"]["identical_jokers"] != "no":
        if s["deck"]["jokers"] != 2:
            out.append("trump.identical_jokers: needs two jokers (deck.jokers = 2)")
        else:
            order = s["trump"]["order"]
            if "HJ" in order and "LJ" in order and abs(order.index("HJ") - order.index("LJ")) != 1:
                out.append("trump.identical_jokers: HJ and LJ must be next to each other in trump.order")
    return out


def _shapes(s: Mapping[str, Mapping[str, Any]]) -> list[tuple[str, int]]:
    """Every table a ruleset allows, in words, with its number of sides."""
    out = []
    calls = s["partner"]["counts"]
    for n in s["players"]["counts"]:
        for size in s["players"]["team_sizes"]:
            if size == 1:
                out.append((f"{n} players each calling a partner" if n in calls else f"{n} players each for himself",
                            n))
            elif teams_fit(n, size):
                out.append((f"{n} players in teams of {size}", n // size))
    return out


def _note_problems(data: Mapping[str, Any]) -> list[str]:
    """A note that cites something shaped like a setting that is none (a typo, or a key renamed)."""
    out = []
    notes = data.get("notes", [])
    points = data.get("points", {})
    fields = point_fields()
    for i, note in enumerate(notes if isinstance(notes, list) else [], 1):
        for token in cited_keys(str(note)):
            parts = token.split(".")
            if parts[0] == "points":
                pid = parts[1]
                if pid not in points:
                    out.append(f"notes[{i}]: cites '{token}', which is no setting{did_you_mean(pid, points)}")
                elif len(parts) > 2 and parts[2] not in fields:
                    out.append(f"notes[{i}]: cites '{token}', which is no setting{did_you_mean(parts[2], fields)}")
            elif parts[1] not in SECTIONS[parts[0]]:
                guess = did_you_mean(parts[1], SECTIONS[parts[0]])
                out.append(f"notes[{i}]: cites '{token}', which is no setting{guess}")
    return out


def jokers_of(n: int) -> tuple[Card, ...]:
    """The jokers of a deck of `n` jokers."""
    return {0: (), 1: ("JK",), 2: ("HJ", "LJ")}[n]


def _symbol_problem(sym: str, ranks: set[str], jokers: tuple[Card, ...]) -> str | None:
    if sym in JOKERS:
        if sym not in jokers:
            have = {0: "no jokers", 1: "one joker (JK)", 2: "two jokers (HJ, LJ)"}[len(jokers)]
            return f"{sym} is not in the deck (deck.jokers gives {have})"
        return None
    rank = sym[4:] if sym.startswith("off-") else sym
    if rank not in ranks:
        return f"{sym}: the deck has no {rank}s (deck.ranks)"
    return None


__all__ = ["cited_keys", "jokers_of", "or_list", "validate"]
