"""What the entry page shows besides its questions, made from the library's data: the auction as taps,
the verdict before Save (of a new hand, of a correction, of a hand another device saved first), and the
next game.

Nothing here computes a score or checks a bid: the auction is game.bidding's `Auction` (the calls it
offers are those the judge accepts), the verdicts and totals are the Logbook's, the words are
words.verdict's. Functions of a snapshot and the answers; the routes (app.py) call them.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from dataclasses import dataclass, replace
from typing import Any

from pitchkeeper.errors import PitchError
from pitchkeeper.game import match as m
from pitchkeeper.game.bidding import Auction
from pitchkeeper.game.records import parse_call
from pitchkeeper.logbook.entry import auction_calls, names, team_specs
from pitchkeeper.web import form as entry_form
from pitchkeeper.web import view
from pitchkeeper.words.verdict import call_words, changes, partnership, points_line

# ---------------------------------------------------------------------------
# the auction, tapped call by call


@dataclass(frozen=True)
class AuctionView:
    """The auction as the page shows it: the calls so far, whose turn, a button per legal call, the outcome."""

    dealer: str
    calls: list[tuple[str, str]]  # (player, the call in words)
    turn: str | None
    buttons: list[tuple[str, str, str]]  # (the value sent "Bob:3", the button's words, the call "3")
    done: bool
    outcome: str  # "Cy wins the bid at 3" / "everyone passed: ... deals again" ("" while it goes on)
    redeal: bool = False
    high: str = ""  # the highest bid so far, in words


def gone(s: Any, number: int | None) -> str | None:
    """Why a form about hand `number` (a correction) cannot be answered any more: the hand was undone on
    another device meanwhile, or the form names a hand the match never had; None while it is there."""
    if number is None or 1 <= number <= s.count:
        return None
    if number > s.count:
        return (f"Hand {number} is gone: it was undone on another device. Nothing was saved; here is the "
                "match as it stands.")
    return f"There is no hand {number} in this match: nothing was saved."


def dealer_of(s: Any, a: entry_form.Answers, number: int | None) -> str | None:
    """Who dealt the hand being entered: as answered, as recorded (a correction), or the rotation's."""
    if a.dealer:
        return a.dealer
    if number is not None:
        why = gone(s, number)
        if why is not None:
            raise PitchError(why)
        return str(s.hands[number - 1].get("dealer") or "") or None
    return m.dealer_due(s.loaded.record)


def auction_of(s: Any, a: entry_form.Answers, number: int | None) -> Auction | None:
    """The auction of the answers (None: the dealer is unknown). PitchError at the call the rules refuse."""
    dealer = dealer_of(s, a, number)
    if dealer is None:
        return None
    table = s.table
    return Auction.of(s.ruleset, table, table.player(dealer, "dealer"), calls_of(s, a.auction))


def calls_of(s: Any, text: str) -> list[tuple[str, int | str]]:
    """The calls the form carries, "Bob:pass Dee Dee:2" (a name may hold spaces), as (player, call)."""
    if not text.strip():
        return []
    return [parse_call(c, s.table, f"auction[{i}]") for i, c in enumerate(auction_calls(text, s.table, "auction"), 1)]


def auction_view(s: Any, a: entry_form.Answers, number: int | None) -> AuctionView | None:
    """The auction section of the page; None where the dealer is unknown. Calls the rules refuse (the
    dealer changed since they were tapped, say) are dropped from the end until the rest stand."""
    if gone(s, number) is not None:
        return None
    try:
        auction = auction_of(s, a, number)
    except PitchError:
        try:
            auction = auction_of(s, replace(a, auction=""), number)
        except PitchError:  # a dealer who is not a player (said at the dealer's question): the usual one
            auction = auction_of(s, replace(a, auction="", dealer=""), number)
    if auction is None:
        return None
    b = s.ruleset.settings["bidding"]
    calls = []
    walk = Auction.start(auction.ruleset, auction.table, auction.dealer)
    for player, call in auction.calls:
        calls.append((player, call_words(walk, call)))
        walk = walk.then(player, call)
    outcome, redeal = "", False
    if auction.done:
        try:
            out = auction.outcome()
            worth = str(b["smudge_name"]) if out.smudge else str(out.amount)
            outcome = (f"{out.player} pitches without a contract" if out.amount == 0
                       else f"{out.player} wins the bid at {worth}")
            if out.seller:
                outcome += f", bought from {out.seller}"
            elif out.refused:
                outcome += f", kept from {out.refused}"
        except PitchError as e:
            outcome, redeal = e.message, True
    high = auction.so_far()
    high_words = "" if high is None else f"{high.player} {b['smudge_name'] if high.smudge else high.value}"
    turn = auction.turn
    buttons = [] if auction.done or turn is None else [(f"{turn}:{c}", call_words(auction, c), str(c))
                                                       for c in auction.legal()]
    return AuctionView(auction.dealer, calls, None if auction.done else auction.turn, buttons, auction.done,
                       outcome, redeal, high_words)


def tap(s: Any, a: entry_form.Answers, number: int | None, call: str) -> entry_form.Answers:
    """The answers after one tap in the auction: "Bob:3", a call by the player it names, who must be the one
    whose turn it is in the auction the form carries ("<" takes the last call back, "-" clears them); once
    the auction is whole, its bidder and bid are the answers'.

    A tap names its player so that a tap sent before the page showed the last one's answer (a quick
    double tap on a slow network) is refused, never given to whoever speaks next."""
    if call == "-":
        return replace(a, auction="")
    if call == "<":
        return replace(a, auction=" ".join(f"{p}:{c}" for p, c in calls_of(s, a.auction)[:-1]))
    auction = auction_of(s, a, number)
    if auction is None or auction.turn is None or auction.done:
        raise PitchError("the auction is over: take a call back (↶) to change it", "auction")
    who, sep, _ = call.rpartition(":")
    if not sep or not who.strip():
        raise PitchError(f"this tap does not say whose call it is: tap {auction.turn}'s call again", "auction")
    player, value = parse_call(call, s.table, "auction")
    if player != auction.turn:
        if player in [p for p, _ in auction.calls]:
            raise PitchError(f"{player} has spoken already: it is {auction.turn}'s turn (the tap was made before "
                             f"the page showed {player}'s call; nothing was added)", "auction")
        raise PitchError(f"it is not {player}'s turn yet: {auction.turn} speaks next (nothing was added)",
                         "auction")
    auction = auction.then(player, value)
    a = replace(a, auction=" ".join(f"{p}:{c}" for p, c in auction.calls))
    if auction.done:
        try:
            out = auction.outcome()
        except PitchError:
            return a  # everyone passed and the hand is dealt again: shown, nothing to fill in
        amount = "smudge" if out.smudge else str(out.amount)
        a = replace(a, bidder=out.player, amount=amount)
    return a


# ---------------------------------------------------------------------------
# the verdict before Save


def digest(secret: bytes, answers: entry_form.Answers, number: int | None, version: str, hand: int) -> str:
    """A signature of the answers a verdict was shown for, against which log and as which hand: Save writes
    only what was checked, where it was checked."""
    payload = json.dumps([answers.fields(), number, version, hand])
    return hmac.new(secret, payload.encode(), hashlib.sha256).hexdigest()


def hand_words(s: Any, hand: dict[str, Any], sale: Any = None) -> dict[str, Any]:
    game = s.ruleset.game_point
    return {"bid_line": view.bid_line(hand, sale), "lines": view.verdict_lines(hand, s.ruleset),
            "points": points_line(hand, view.labels_of(s.ruleset), game.id if game else "game")}


def preview(s: Any, change: Any, number: int | None, checked: str, conflict: dict[str, Any] | None = None,
            ) -> dict[str, Any]:
    """The verdict of the hand being entered and what it does to the match.

    A new hand's row adds up: each side's total before it, its change, the total after it. A correction
    shows the hand before and after, what changed, and the match's totals before and after (every later
    hand replayed)."""
    state = change.state.to_json()
    n = change.number
    hand = state["hands"][n - 1]
    sale = change.state.hands[n - 1].verdict.auction
    start = state["target"] if state.get("direction") == "down" else 0  # counting down, from the target
    before_hand = state["hands"][n - 2]["scores"] if n > 1 else dict.fromkeys(hand["scores"], start)
    out = {
        **hand_words(s, hand, sale), "number": n, "correcting": number is not None, "delta": hand["delta"],
        "before_hand": before_hand, "after_hand": hand["scores"], "winner": state["winner"], "reason": state["reason"],
        "colours": view.colour_of(s.board), "checked": checked, "version": s.version, "conflict": conflict,
        "down": state.get("direction") == "down", "partnership": partnership(hand),
    }
    if number is not None:
        was = s.state["hands"][n - 1]
        labels = view.labels_of(s.ruleset)
        game = s.ruleset.game_point
        out["was"] = hand_words(s, was, view.sale_of(s, n))
        out["changes"] = changes(was, hand, labels, game.id if game else "game")
        out["totals_before"], out["totals_after"] = s.state["scores"], state["scores"]
        out["winner_before"] = s.state["winner"]
    return out


def conflict(s: Any, saved_as: int, same: bool, moved: str | None = None) -> dict[str, Any]:
    """Hand N, saved meanwhile by another device, beside what this phone entered (as the next hand):
    `same`, whether this phone's answers make the very hand that was saved; `moved`, what became of a
    tapped auction that does not fit the next hand's deal."""
    saved = s.state["hands"][saved_as - 1]
    words = hand_words(s, saved, view.sale_of(s, saved_as))
    return {"number": saved_as, **words, "same": same, "moved": moved}


def judged_as(served: Any, s: Any, a: entry_form.Answers, f: entry_form.Form, n: int) -> dict[str, Any] | None:
    """The answers' verdict in words as hand `n` of the log (dealt by whoever dealt the hand there, unless
    answered), not written; None when they cannot be that hand."""
    dealer = a.dealer or str(s.hands[n - 1].get("dealer") or "")
    try:
        change = served.preview_replace(n, entry_form.to_hand(replace(a, dealer=dealer), f))
    except PitchError:
        return None
    return hand_words(s, change.state.to_json()["hands"][n - 1], change.state.hands[n - 1].verdict.auction)


def same_hand(served: Any, s: Any, a: entry_form.Answers, f: entry_form.Form, saved_as: int) -> bool:
    """Whether the answers make the very hand another device saved as `saved_as` (then: discard yours)."""
    mine = judged_as(served, s, a, f, saved_as)
    saved = s.state["hands"][saved_as - 1]
    return mine is not None and mine == hand_words(s, saved, view.sale_of(s, saved_as))


def as_next_hand(s: Any, a: entry_form.Answers, saved_as: int) -> tuple[entry_form.Answers, str | None, bool]:
    """The answers entered for hand N (saved meanwhile by another device) made into the next hand:
    (answers, what became of their auction, whether they can be recorded so).

    A tapped auction belongs to its deal: it is judged again against the next hand's dealer. When it no
    longer fits (the calls went round from another player's left), it is left out - the bid stands - and
    the table is told why in its words; where it decided a sale of the pitch, which a bid alone cannot
    say, the auction must be tapped again for the new hand."""
    if not a.auction:
        return a, None, True
    try:
        auction_of(s, a, None)
        return a, None, True
    except PitchError:
        pass
    was = str(s.hands[saved_as - 1].get("dealer") or "") if 1 <= saved_as <= s.count else ""
    dealer = dealer_of(s, replace(a, auction=""), None)
    first = auction_of(s, replace(a, auction=""), None)
    then = f"{dealer}'s deal, where {first.turn} speaks first" if first is not None and first.turn else \
        f"{dealer}'s deal"
    said = f"Your auction was tapped for hand {saved_as}" + (f", {was}'s deal" if was else "")
    cleared = replace(a, auction="")
    try:
        old = Auction.of(s.ruleset, s.table, s.table.player(was, "dealer"),
                         calls_of(s, a.auction)).outcome() if was else None
    except PitchError:
        old = None
    if old is not None and (old.seller or old.refused):
        return cleared, (f"{said}; hand {s.count + 1} is {then}. That auction sold the pitch, which the bid alone "
                         f"cannot say: tap hand {s.count + 1}'s auction again to record yours."), False
    return cleared, (f"{said}; hand {s.count + 1} is {then}, so it is left out of yours: your bid stands "
                     f"({a.bidder} {a.amount}). Tap the auction again if you want it kept."), True


# ---------------------------------------------------------------------------
# the next game


def next_game(s: Any) -> dict[str, Any]:
    """What "Next game" offers once a game is won: the same seats (the deal passed on by the rotation), or
    new players, ruleset or teams."""
    record = s.loaded.record
    return {"dealer": m.dealer_due(record) or record.table.players[0], "rules": s.ruleset.name,
            "players": ", ".join(record.table.players),
            "teams": "; ".join(f"{t}={','.join(ms)}" for t, ms in record.table.teams) if record.table.teams else ""}


def new_match_body(fields: Any) -> dict[str, Any]:
    """The page's "new players or rules" answers as a `POST /api/matches` body."""
    rules = str(fields.get("rules") or "").strip()
    players = names(str(fields.get("players") or ""))
    how = fields.get("teams_how") or "auto"
    body: dict[str, Any] = {"rules": rules, "players": players}
    if how == "solo":
        body["teams"] = {}
    elif how == "typed":
        body["teams"] = dict(team_specs([str(fields.get("teams") or "")], "teams"))
    title = str(fields.get("title") or "").strip()
    if title:
        body["title"] = title
    return body
