"""A hand's verdict in a table's words, the same on every screen and in every export.

`game_line` is the one wording of game - won with its count, or tied and not scored - so that no
screen lists the points and says nothing of game (the very argument tables have: "was game
counted?"). `points_line` is every point of a hand in one line (`not_out_words` those nobody
won, as the TV says them), `sale_words` names a sale of the pitch, `call_words` an auction's call
as a button or prompt says it, and `changes` what a correction changes in a hand. Each reads the
`judge hand` object (spec section 5), which every front end has.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from pitchkeeper.game.cards import pretty
from pitchkeeper.game.verdicts import BidResult

if TYPE_CHECKING:
    from pitchkeeper.game.bidding import Auction, Outcome

NOT_OUT = "not out"


def _counts(counts: Mapping[str, int], first: str | None = None) -> str:
    """"14-12" between two sides (`first`'s count first); with more, each side named: "Ann 14, Bob 12, Cy 3"."""
    if len(counts) == 2:
        order = sorted(counts, key=lambda s: s != first)
        return "-".join(str(counts[s]) for s in order)
    return ", ".join(f"{s} {n}" for s, n in counts.items())


def game_words(game: Mapping[str, Any]) -> str:
    """Who got game, with the count where it is known: "Us (14-12)", "tie (13-13), not scored"."""
    counts: Mapping[str, int] = game.get("counts") or {}
    side = game.get("side")
    if side is not None:
        return f"{side} ({_counts(counts, side)})" if counts else str(side)
    if not counts:  # entered by hand as tied: no count is known
        return "tie, not scored"
    top = max(counts.values())
    if sum(1 for n in counts.values() if n == top) > 1:
        return f"tie ({_counts(counts)}), not scored"
    return f"not scored ({_counts(counts)}): nobody counted more than half"


def game_line(game: Mapping[str, Any] | None) -> str | None:
    """The line every screen and export gives game: "game: tie (13-13), not scored", "game: Us (14-12)";
    None where the ruleset has no game point."""
    return None if game is None else f"game: {game_words(game)}"


def winner_of(hand: Mapping[str, Any], a: Mapping[str, Any]) -> str:
    """Who won a point, as the table names them: the side; in a hand whose sides are not the table's (a
    called partner) the player who won it, where a player did ("ace Cy"), else the hand's side ("Ann+Cy")."""
    if "teams" in hand and a.get("player"):
        return str(a["player"])
    return str(a["side"])


def _award_words(hand: Mapping[str, Any], a: Mapping[str, Any], labels: Mapping[str, str] | None) -> str:
    name = (labels or {}).get(a["point"]) or a["point"]
    value = a.get("value", 1)
    return f"{name} {winner_of(hand, a)}" + (f" ×{value}" if value != 1 else "")


def bid_name(bid: BidResult | Mapping[str, Any]) -> str:
    """A bid as the ruleset names it: its number, or the ruleset's own name for the smudge bid
    (bidding.smudge_name: "shoot", "moon"), from a verdict's BidResult or its JSON `bid`."""
    if isinstance(bid, BidResult):
        return str(bid.name or bid.label)
    return str(bid.get("name") or bid["amount"])


def bidders(hand: Mapping[str, Any]) -> str:
    """Who bid: the bidder; where a partner is called, the bidding team ("Ann+Cy") or "Ann alone"."""
    b = hand["bid"]
    if b.get("team") is None:
        return str(b["player"])
    return str(b["team"]) if b.get("partner") else f"{b['player']} alone"


def called_words(hand: Mapping[str, Any]) -> str | None:
    """The called card and who held it: "called A♠ (Cy)", "called A♠, held by nobody: Ann alone"; None
    where no partner is called."""
    b = hand["bid"]
    if b.get("team") is None or b.get("called") is None:
        return None
    card = pretty(b["called"])
    return f"called {card} ({b['partner']})" if b.get("partner") else \
        f"called {card}, held by nobody: {b['player']} alone"


def partnership(hand: Mapping[str, Any]) -> str | None:
    """The hand's sides where a partner is called: "called A♠: partner Cy (Ann+Cy against Bob+Dee+Eve)";
    None otherwise."""
    b = hand["bid"]
    teams = hand.get("teams")
    if b.get("team") is None or not teams:
        return None
    others = [s for s in teams if s != b["team"]]
    against = others[0] if len(others) == 1 else ", ".join(others)
    card = pretty(b["called"]) if b.get("called") else "?"
    if b.get("partner"):
        return f"called {card}: partner {b['partner']} ({b['team']} against {against})"
    return f"called {card}, held by nobody: {b['player']} alone against {against}"


def not_out_words(hand: Mapping[str, Any], points: Sequence[str], labels: Mapping[str, str] | None = None
                  ) -> str | None:
    """The points nobody won, as every screen says them: "not out: jack, off-jack". `points`: the ids of
    the ruleset's points but game (always played out; its own line says a tie), in the ruleset's order;
    None where every one was out."""
    won = {a["point"] for a in hand.get("awards", [])}
    nobody = [(labels or {}).get(p) or p for p in points if p not in won]
    return f"{NOT_OUT}: {', '.join(nobody)}" if nobody else None


def points_line(hand: Mapping[str, Any], labels: Mapping[str, str] | None = None, game_id: str = "game",
                points: Sequence[str] = ()) -> str:
    """Every point of a hand in one line, game always said, and (given the ruleset's point ids but game,
    `points`) those nobody won: "high Us, low Them, game: tie (13-13), not scored; not out: jack, off-jack".
    `game_id`: the id of the ruleset's game point (its own name in a ruleset that renames it)."""
    game = hand.get("game")
    parts = [_award_words(hand, a, labels) for a in hand.get("awards", [])
             if game is None or a["point"] != game_id]
    line = game_line(game)
    if line is not None:
        parts.append(line)
    out = ", ".join(parts) or "no points"
    nobody = not_out_words(hand, [p for p in points if p != game_id], labels)
    return f"{out}; {nobody}" if nobody else out


def sale_words(out: Outcome | None) -> str | None:
    """A sale of the pitch (sell-out auctions): "Ann sold the pitch to Cy at 3", "Ann kept the pitch at 3,
    refusing Cy"; None when the pitch did not change hands and nobody was refused."""
    if out is None:
        return None
    if out.seller:
        return f"{out.seller} sold the pitch to {out.player} at {out.price}"
    if out.refused:
        return f"{out.player} kept the pitch at {out.price}, refusing {out.refused}"
    return None


def sale_tag(out: Outcome | None) -> str:
    """What a sale did to a bid, said beside it: "bought from Ann", "kept from Cy" ("" when none)."""
    if out is not None and out.seller:
        return f"bought from {out.seller}"
    if out is not None and out.refused:
        return f"kept from {out.refused}"
    return ""


def bid_words(hand: Mapping[str, Any], sale: Outcome | None = None, suit: str | None = None) -> str:
    """"Bob bid 3 in ♠ – made", with a sale named ("Cy bid 3 in ♠, bought from Ann – made"), a called partner
    ("Ann+Cy bid 6 in ♠ (A♠) – made", "Ann alone bid 6 in ♠ (A♠) – set")."""
    b = hand["bid"]
    trump = suit or hand["trump"]
    called = f" ({pretty(b['called'])})" if b.get("team") is not None and b.get("called") else ""
    if b["amount"] == 0:
        return f"{bidders(hand)} pitched {trump}{called} without a contract"
    tag = sale_tag(sale)
    how = f", {tag}" if tag else ""
    return f"{bidders(hand)} bid {bid_name(b)} in {trump}{called}{how} – " + ("made" if b["made"] else "set")


def call_words(a: Auction, call: Any) -> str:
    """An auction's call as a button or a prompt offers it: "pass", "3", "smudge", "pitch a card (4)",
    "sell to Cy (3)", "keep it at 3"."""
    b = a.ruleset.settings["bidding"]
    high = a.so_far()
    if call == "sell" or (call == "pass" and a.last_word):
        return f"sell to {high.player} ({high.value})" if high else "sell"
    if a.last_word and isinstance(call, int):
        return f"keep it at {call}"
    if call == "pitch":
        worth = b["pitch_at_once"] if a.sell_out else b["pitch_bid"]
        return f"pitch a card ({worth})"
    if call == "smudge":
        return str(b["smudge_name"])
    return str(call)


def _point_map(hand: Mapping[str, Any], labels: Mapping[str, str] | None, game_id: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for a in hand.get("awards", []):
        if hand.get("game") is not None and a["point"] == game_id:
            continue
        name = (labels or {}).get(a["point"]) or a["point"]
        who = winner_of(hand, a)
        out[name] = who + (f" ({a['player']})" if a.get("player") and a["player"] != who else "")
    if hand.get("game") is not None:
        out["game"] = game_words(hand["game"])
    return out


def changes(before: Mapping[str, Any], after: Mapping[str, Any], labels: Mapping[str, str] | None = None,
            game_id: str = "game") -> list[str]:
    """What a correction changes in a hand, one line each: "bid: Bob 3 → Bob 4", "jack: Us → not out",
    "game: tie (13-13), not scored → Us (14-12)", "Us: +2 → +4". Empty when nothing changes."""
    out = []
    b0, b1 = before["bid"], after["bid"]
    if (b0["player"], b0["amount"]) != (b1["player"], b1["amount"]):
        out.append(f"bid: {b0['player']} {b0['amount']} → {b1['player']} {b1['amount']}")
    c0, c1 = called_words(before), called_words(after)
    if c0 != c1:
        out.append(f"partner: {c0 or 'none called'} → {c1 or 'none called'}")
    if before["trump"] != after["trump"]:
        out.append(f"trump: {before['trump']} → {after['trump']}")
    p0, p1 = _point_map(before, labels, game_id), _point_map(after, labels, game_id)
    for name in [*p0, *(k for k in p1 if k not in p0)]:
        was, now = p0.get(name, NOT_OUT), p1.get(name, NOT_OUT)
        if was != now:
            out.append(f"{name}: {was} → {now}")
    if b0["made"] != b1["made"]:
        out.append(f"the bid: {'made' if b0['made'] else 'set'} → {'made' if b1['made'] else 'set'}")
    for side in after["delta"]:
        d0, d1 = before["delta"].get(side, 0), after["delta"][side]
        if d0 != d1:
            out.append(f"{side}: {d0:+d} → {d1:+d}")
    return out
