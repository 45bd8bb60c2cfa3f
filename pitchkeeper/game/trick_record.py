"""A trick as a record writes it, read: each card given its player, and who folds.

The words of a record (`tricks[i].cards`, `--cards`, `--held`) into plays: named ("Bob:5S") or seated
from the leader, folds in trump-only play named ("Cy:fold") or left out. The rules of play are
game.play's; this is only who played what.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from pitchkeeper.errors import PitchError
from pitchkeeper.game.cards import Card, parse_card
from pitchkeeper.game.records import Trick


def parse_plays(text: str, where: str = "--cards") -> list[tuple[str, Card | None]]:
    """'Ann:JC Bob:AC Cy:fold' (or bare cards, seated P1, P2...) -> [(player, card or None)]."""
    tokens = [t for t in text.replace(",", " ").split() if t]
    if not tokens:
        raise PitchError("no cards: give them in playing order from the leader, such as \"Ann:JC Bob:AC\"", where)
    named = [":" in t for t in tokens]
    if any(named) and not all(named):
        raise PitchError("name the player of every card (\"Ann:JC Bob:AC\") or of none", where)
    out: list[tuple[str, Card | None]] = []
    for k, t in enumerate(tokens, 1):
        who, _, card = t.rpartition(":")
        who = who.strip() or f"P{k}"
        if card.lower() in ("fold", "folded", "-", ""):
            out.append((who, None))
            continue
        try:
            out.append((who, parse_card(card)))
        except PitchError as e:
            raise e.at(f"{where} ({who})") from None
    return out


def parse_held(items: Sequence[str], where: str = "--held") -> dict[str, tuple[Card, ...]]:
    """['Bob:AC KC 4D', 'Cy:5C; Dee:2S 3S'] -> {player: cards}."""
    out: dict[str, tuple[Card, ...]] = {}
    for item in items:
        for part in item.split(";"):
            if not part.strip():
                continue
            who, sep, cards = part.partition(":")
            if not sep or not who.strip():
                raise PitchError(f"expected \"Player:card card ...\", got {part.strip()!r}", where)
            who = who.strip()
            try:
                parsed = tuple(parse_card(c) for c in cards.replace(",", " ").split())
            except PitchError as e:
                raise e.at(f"{where} {who}") from None
            out[who] = out.get(who, ()) + parsed
    return out


def named_folds(trick: Trick, players: tuple[str, ...], folded: Mapping[str, int]) -> dict[str, int] | None:
    """Who folds in a trump-only trick, read from its names alone: the explicit folds and, when every
    card is named, the players still in who are left out. None when some cards are named and some
    not: then only seating them from the leader tells."""
    named = [p.player for p in trick.plays if p.player is not None]
    if not named:
        return {}
    if len(named) != len(trick.plays):
        return None
    out = {p.player: j for j, p in enumerate(trick.plays, 1) if p.card is None and p.player is not None}
    out.update({p: 0 for p in players if p not in folded and p not in named})
    return out


def seat_plays(trick: Trick, players: tuple[str, ...], folded: Mapping[str, int], trump_only: bool,
                where: str) -> tuple[list[tuple[str, Card, int]], dict[str, int]]:
    """Give each card its player: named ones as written, others by seat from the leader.

    Returns the plays (player, card, position in `cards`) and the players who fold in this
    trick (player -> position of an explicit fold, 0 when left out of a named trick).
    """
    n = len(players)
    plays = trick.plays
    if trick.leader in players and trick.leader not in folded:  # the usual case: everyone still in plays, in turn
        start = players.index(trick.leader)
        turn = players[start:] + players[:start]
        if folded:
            turn = tuple(p for p in turn if p not in folded)
        names, cards = zip(*plays, strict=True) if plays else ((), ())
        if len(plays) == len(turn) and (names == turn or not any(names)) and None not in cards:
            return list(zip(turn, cards, range(1, len(turn) + 1), strict=True)), {}
    start = players.index(trick.leader)
    order = [players[(start + k) % n] for k in range(n) if players[(start + k) % n] not in folded]
    if trick.leader in folded:
        raise PitchError(f"{trick.leader} folded in trick {folded[trick.leader]} and leads no more",
                         f"{where}.leader")
    named = {p.player for p in trick.plays if p.player is not None}
    seated: list[tuple[str, Card | None, int]] = []
    pos = 0
    for j, play in enumerate(trick.plays, 1):
        cw = f"{where}.cards[{j}]"
        if play.player is None:
            while pos < len(order) and order[pos] in named:
                pos += 1
            if pos >= len(order):
                raise PitchError("more cards than players" + (" still in" if trump_only else "") + " in this trick", cw)
            seated.append((order[pos], play.card, j))
            pos += 1
            continue
        if play.player in folded:
            raise PitchError(f"{play.player} folded in trick {folded[play.player]} and plays no more", cw)
        if play.card is None and not trump_only:
            raise PitchError(f"{play.player} folds, but only in trump-only play may a player fold", cw)
        seated.append((play.player, play.card, j))
    whos = [p for p, _, _ in seated]
    dup = next((p for p in whos if whos.count(p) > 1), None)
    if dup:
        raise PitchError(f"{dup} plays twice to this trick", where)
    if whos[0] != trick.leader or seated[0][1] is None:
        raise PitchError(f"the first card is the leader's ({trick.leader}), not {whos[0]}'s", where)
    if whos != [p for p in order if p in whos]:
        raise PitchError(f"cards are not in playing order from the leader ({', '.join(order)})", where)
    folds_now = {p: j for p, c, j in seated if c is None}
    missing = [p for p in order if p not in whos]
    if missing:
        if not trump_only:
            raise PitchError(f"{len(seated)} cards in this trick; every one of the {n} players plays to it", where)
        if not named:
            raise PitchError(f"{len(seated)} cards for {len(order)} players still in: when a player folds, "
                             "name who played each card (\"Bob:5S\")", where)
        folds_now.update(dict.fromkeys(missing, 0))
    return [(p, c, j) for p, c, j in seated if c is not None], folds_now
