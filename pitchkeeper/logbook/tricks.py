"""Tricks as a person types them - each trick's cards in playing order, "AS 2S KS 5S" - into the record's
`tricks`, each trick with its leader worked out as the rules have it.

Nobody at a table says who led each trick: it follows from the cards. The first trick is led by the
pitcher (or by the player on the dealer's left, where `play.first_leader` says so), each later one by
the winner of the trick before (game.play judges who won it), and in trump-only play a player who has
folded leads no more: the lead passes to the next player still in. A card may name its player,
"Bob:5S" ("Bob:fold" where a player out of trumps folds); a trick whose first card names its player is
led by that player.

The leaders worked out here are never taken on trust: the log judges the whole hand (game.play.replay),
so a trick that does not add up is refused there, at that trick, in the library's own words.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pitchkeeper.errors import PitchError
from pitchkeeper.game import play
from pitchkeeper.game.cards import Card, parse_card, try_card

FOLD_WORDS = ("fold", "folds", "folded", "-")
Typed = str | Sequence[str]  # "AS 2S Bob:KS 5S", or its tokens


def tokens(text: Typed, players: Sequence[str] = ()) -> list[str]:
    """The tokens of one trick as typed: cards, and `Name:card`, where a name may hold spaces ("Dee Dee:5S")
    when one of `players` is so named."""
    words = text.replace(",", " ").split() if isinstance(text, str) else [str(w) for w in text]
    spaced = [p.lower() for p in players if " " in p]
    out: list[str] = []
    pending: list[str] = []  # words that may start a name with spaces, waiting for its ":card"
    for w in words:
        if ":" in w:
            name = " ".join([*pending, w.rpartition(":")[0]]).lower()
            if pending and any(p.startswith(name) for p in spaced):
                w = " ".join([*pending, w])
            else:
                out += pending
            out.append(w)
            pending = []
        elif spaced and try_card(w) is None:
            pending.append(w)
        else:
            out += pending
            pending = []
            out.append(w)
    return out + pending


def parse_trick(text: Typed, table: Any, where: str) -> list[tuple[str | None, Card | None]]:
    """One typed trick -> its plays: (the player named, or None) and the card (None: a fold)."""
    plays: list[tuple[str | None, Card | None]] = []
    for j, token in enumerate(tokens(text, table.players), 1):
        at = f"{where}.cards[{j}]"
        who, sep, card = token.rpartition(":")
        player = table.player(who.strip(), at) if sep else None
        if player is not None and card.strip().lower() in (*FOLD_WORDS, ""):
            plays.append((player, None))
            continue
        try:
            plays.append((player, parse_card(card.strip())))
        except PitchError as e:
            raise e.at(at) from None
    if not plays:
        raise PitchError("no cards: type the trick's cards in playing order from its leader, such as AS 2S KS 5S",
                         where)
    return plays


def _written(plays: Sequence[tuple[str | None, Card | None]]) -> list[str]:
    """The plays as the record writes them: `AS`, `Bob:5S`, `Bob:fold`."""
    return [f"{p}:{c or 'fold'}" if p is not None else str(c) for p, c in plays]


def _seated(plays: Sequence[tuple[str | None, Card | None]], leader: str, table: Any, out: set[str],
            trump_only: bool) -> list[tuple[str, Card | None]]:
    """Each card with its player: a named one as named, the others by seat from the leader (players who
    have folded skipped); in trump-only play, a trick naming every card leaves out the players who fold."""
    order = [p for p in table.clockwise_from(leader) if p not in out]
    named = {p for p, _ in plays if p is not None}
    free = iter([p for p in order if p not in named])
    seated: list[tuple[str, Card | None]] = []
    for p, c in plays:
        who = p if p is not None else next(free, None)
        if who is None:
            raise PitchError("more cards than players in this trick")
        seated.append((who, c))
    if trump_only and len(named) == len(plays):
        seated += [(p, None) for p in order if p not in named]
    return seated


def trick_tables(typed: Sequence[Typed], ruleset: Any, table: Any, hand: Mapping[str, Any],
                 where: str = "tricks") -> list[dict[str, Any]]:
    """The typed tricks as the record's `[{leader, cards}]`, for a hand whose `dealer`, `bid` and `trump`
    are known. Each leader as the rules have it (see the module); a trick that cannot be judged stops the
    working out, and the log's own check then says what is wrong with it."""
    trump = hand["trump"]
    trump_only = ruleset.settings["play"]["follow"] == "trump-only"
    due = table.left_of(hand["dealer"]) if ruleset.settings["play"]["first_leader"] == "eldest" \
        else hand["bid"]["player"]
    out: set[str] = set()  # who has folded (trump-only play)
    judged = True
    result = []
    for k, text in enumerate(typed, 1):
        plays = parse_trick(text, table, f"{where}[{k}]")
        leader = plays[0][0] or play.next_in(table.players, due, out)
        result.append({"leader": leader, "cards": _written(plays)})
        if not judged:
            continue
        try:
            seated = _seated(plays, leader, table, out, trump_only)
            due = play.judge_trick(ruleset, trump, seated).winner
        except PitchError:
            judged = False  # the log's check says what is wrong with this trick
            continue
        out |= {p for p, c in seated if c is None}
    return result
