"""A naive, independent scorer: the baseline the verdict engine is timed against, and checked against.

Written from the rules (the seeds, spec sections 3 and 5), not from pitchkeeper.scoring: it reads
only the ruleset's data as its TOML gives it (`settings` with defaults filled in, and the raw
`points` tables) and the parsed hand, and does the obvious thing hand by hand: rank the trumps of
the suit named, find the highest and lowest trump captured, look for each point's card, add up
game, settle the bid. It keeps no compiled form per trump and builds nothing it need not.

It covers hands entered as captured cards or quick entry (points), without revokes or a sale
credit (it raises NotImplementedError for those): the deals the benchmark and the agreement test
use. It trusts its input (no validation): the engine's checks are part of what the engine costs.
"""

from __future__ import annotations

from typing import Any

KNOWN_IDS = ("high", "low", "jack", "off-jack", "high-joker", "low-joker", "joker", "game", "ace", "off-ace",
             "ten", "three", "off-three", "five", "deuce", "all-tricks")
SAME_COLOUR = {"S": "C", "C": "S", "H": "D", "D": "H"}
JOKERS = ("HJ", "LJ", "JK")
GAME_COUNTS = {"A": 4, "K": 3, "Q": 2, "J": 1, "10": 10}


def card_of(symbol: str, trump: str) -> str:
    """A trump-order symbol (A, 10, off-J, HJ...) as the card it is in this trump."""
    if symbol in JOKERS:
        return symbol
    if symbol.startswith("off-"):
        return symbol[4:] + SAME_COLOUR[trump]
    return symbol + trump


class NaiveScorer:
    """judge(ruleset, table, hand) -> the `judge hand --json` object (spec section 5)."""

    def __init__(self) -> None:
        self._points: dict[str, list[tuple[str, dict[str, Any]]]] = {}

    def points(self, rs: Any) -> list[tuple[str, dict[str, Any]]]:
        """The ruleset's enabled points as written, in the order verdicts list them."""
        got = self._points.get(rs.name)
        if got is None:
            pts = [(pid, p) for pid, p in rs.raw.get("points", {}).items() if p.get("enabled", True)]
            rank = {pid: i for i, pid in enumerate(KNOWN_IDS)}
            got = self._points[rs.name] = sorted(pts, key=lambda x: rank.get(x[0], len(rank)))
        return got

    def judge(self, rs: Any, table: Any, hand: Any) -> dict[str, Any]:
        if hand.revokes or (hand.auction and rs.settings["bidding"]["sale_credit"] != "none"):
            raise NotImplementedError("revokes and sale credits are beyond the naive scorer")
        sides = list(table.sides)
        side_of = {p: p for p in table.players}
        if table.teams:
            for team, members in table.teams:
                for p in members:
                    side_of[p] = team
        bid_side = side_of[hand.bid.player]
        awards: list[dict[str, Any]] = []
        game: dict[str, Any] | None = None
        if hand.points is not None:
            awards, game = self.quick(rs, table, hand, side_of)
        else:
            awards, game = self.cards(rs, table, hand, side_of, bid_side)
        taken = {s: 0 for s in sides}
        for a in awards:
            taken[a["side"]] += a["value"]
        b = rs.settings["bidding"]
        amount = b["smudge"] if hand.bid.smudge else hand.bid.amount
        made = amount == 0 or taken[bid_side] >= amount
        delta = {}
        for s in sides:
            if s != bid_side:
                delta[s] = taken[s] if rs.settings["settle"]["defenders_score"] else 0
            elif made:
                delta[s] = taken[s]
            elif rs.settings["settle"]["setback"] == "bid":
                delta[s] = -amount
            else:
                delta[s] = 0
        return {
            "rules": rs.name, "trump": hand.trump, "awards": awards, "game": game, "taken": taken,
            "bid": {"side": bid_side, "player": hand.bid.player,
                    "amount": "smudge" if hand.bid.smudge else hand.bid.amount, "made": made},
            "delta": delta, "illegal": [],
        }

    def quick(self, rs: Any, table: Any, hand: Any, side_of: dict[str, str]) -> tuple[list[dict[str, Any]], Any]:
        value = {pid: p.get("value", 1) for pid, p in self.points(rs)}
        order = [pid for pid, _ in self.points(rs)]
        awards = []
        for pid, who in sorted(hand.points, key=lambda x: order.index(x[0])):
            side = who if who in table.sides else side_of[who]
            awards.append({"point": pid, "card": None, "side": side,
                           "player": who if who in table.players else None, "value": value[pid]})
        game = None
        for pid, p in self.points(rs):
            if p.get("of", "card") == "game":
                won = [a["side"] for a in awards if a["point"] == pid]
                game = {"counts": {}, "side": won[0] if won else None}
        return awards, game

    def cards(self, rs: Any, table: Any, hand: Any, side_of: dict[str, str],
              bid_side: str) -> tuple[list[dict[str, Any]], Any]:
        trump = hand.trump
        order = [card_of(sym, trump) for sym in rs.settings["trump"]["order"]]  # high to low
        rank = {c: i for i, c in enumerate(order)}  # 0 is the highest trump
        captor: dict[str, str] = {}  # card -> the key it is captured under (a side or a player)
        for key, cards in hand.captured:
            for c in cards:
                captor[c] = key
        dealt_to: dict[str, str] = {}
        for player, cards in (*hand.held, *hand.dealt):  # `dealt` wins over `held`
            for c in cards:
                dealt_to[c] = player
        trumps = sorted((c for c in captor if c in rank), key=rank.__getitem__)
        high = trumps[0] if trumps else None

        def award(pid: str, p: dict[str, Any], card: str) -> dict[str, Any]:
            if p.get("to", "captor") == "dealt" and card in dealt_to:
                player = dealt_to[card]
                return {"point": pid, "card": card, "side": side_of[player], "player": player,
                        "value": p.get("value", 1)}
            key = captor[card]  # a lone trump wins its own trick: its captor was dealt it
            side = key if key in table.sides else side_of[key]
            return {"point": pid, "card": card, "side": side, "player": key if key in table.players else None,
                    "value": p.get("value", 1)}

        awards = []
        game = None
        for pid, p in self.points(rs):
            kind = p.get("of", "card")
            if kind == "highest-trump":
                if high is not None:
                    awards.append(award(pid, p, high))
            elif kind == "lowest-trump":
                skip = {card_of(s, trump) for s in p.get("skip", ())}
                pool = [c for c in trumps if c not in skip]
                if pool and not (pool[-1] == high and p.get("apart", False)):
                    awards.append(award(pid, p, pool[-1]))
            elif kind == "card":
                c = card_of(p["card"], trump)
                if c in captor:
                    awards.append(award(pid, p, c))
            elif kind == "game":
                counts_of = p.get("counts", GAME_COUNTS)
                counts = {s: 0 for s in table.sides}
                for key, cards in hand.captured:
                    side = key if key in table.sides else side_of[key]
                    for c in cards:
                        counts[side] += counts_of.get(c if c in JOKERS else c[:-1], 0)
                top = max(counts.values())
                leaders = [s for s, v in counts.items() if v == top]
                winner = leaders[0] if len(leaders) == 1 and top > 0 else None
                if winner and p.get("need", "plurality") == "majority" and top * 2 <= sum(counts.values()):
                    winner = None
                game = {"counts": counts, "side": winner}
                if winner:
                    awards.append({"point": pid, "card": None, "side": winner, "player": None,
                                   "value": p.get("value", 1)})
            elif kind == "all-tricks":
                took = {key if key in table.sides else side_of[key] for key, cards in hand.captured if cards}
                if len(took) == 1:
                    (side,) = took
                    if side == bid_side or not p.get("only_bidder", True):
                        awards.append({"point": pid, "card": None, "side": side, "player": None,
                                       "value": p.get("value", 1)})
        return awards, game
