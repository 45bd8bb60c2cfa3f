"""The table's usual arguments (the rules digest's disputes, and the house rules' own), answered from a
ruleset's data: 27 disputes, some answered by a topic and its companions (32 topics in all).

Each topic reads only the ruleset's settings and point catalogue, never its name, so a house ruleset gets
answers of its own. Examples use spades as trump, real cards of the ruleset's deck and a table the ruleset
allows (words.samples); where a play, a lay-away or a draw is at stake the example is worked out by the
rules layer itself, so the words cannot drift from what `judge` decides. The answers live in
words.card_disputes (cards, play, points), words.deal_disputes (kitty and draw) and words.game_disputes
(bidding, scoring, winning); this module lists them and finds one."""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from pitchkeeper.errors import PitchError, nearest
from pitchkeeper.game.rulesets import Ruleset
from pitchkeeper.words import card_disputes as cards
from pitchkeeper.words import deal_disputes as deal
from pitchkeeper.words import game_disputes as game
from pitchkeeper.words.samples import Parts

__all__ = ["TOPICS", "Answer", "Parts", "Topic", "explain", "explain_all", "find"]


class Answer(NamedTuple):
    """One ruleset's answer to one dispute."""

    topic: str
    question: str
    dispute: str  # the rules digest's number for it (D1...), or its section
    summary: str  # one line, for the list of topics
    answer: str  # the answer in plain words
    example: str  # one line, with cards where useful
    keys: tuple[str, ...]  # the ruleset settings the answer is drawn from
    number: int = 0  # which of the 25 disputes it answers (a topic's companions share its number)

    def to_json(self, rules: str) -> dict[str, object]:
        return {"rules": rules, "topic": self.topic, "question": self.question, "dispute": self.dispute,
                "summary": self.summary, "answer": self.answer, "example": self.example, "from": list(self.keys),
                "number": self.number}


class Topic(NamedTuple):
    id: str
    question: str
    dispute: str
    aliases: tuple[str, ...]
    answer: Callable[[Ruleset], Parts]
    number: int  # the dispute it answers, 1-25


DISPUTES = 27  # how many disputes the topics answer

TOPICS: tuple[Topic, ...] = (
    Topic("off-jack", "Is the off-jack a trump, and must it follow its printed suit?", "D1",
          ("jick", "left-bower", "jack-of-colour", "jack-of-color", "off-ace", "off-three"), cards.off_jack, 1),
    Topic("jokers", "Where do jokers rank; do they score, count for game, or count as low?", "D14",
          ("joker", "high-joker", "low-joker"), cards.jokers, 2),
    Topic("follow", "May I trump when I could follow suit?", "D4",
          ("trumping", "trump-anytime", "must-follow", "following", "must-trump"), cards.follow, 3),
    Topic("trump-lead", "When trump is led, may I throw off a plain card while holding trump?", "D5",
          ("must-follow-trump", "throw-off"), cards.trump_lead, 3),
    Topic("fold", "What happens to a player out of trumps, and who leads then?", "1.4",
          ("folding", "trump-only", "out-of-trumps", "leader"), cards.fold, 3),
    Topic("first-lead", "Must the first lead be trump? What if it is a joker or a jack of either colour?", "D15",
          ("pitch", "first-trick", "announce", "opening-lead"), cards.first_lead, 4),
    Topic("low", "Who gets low: the player dealt it or the one who captures it?", "D2",
          ("who-gets-low", "deuce", "two"), cards.low, 5),
    Topic("high", "Must the highest trump be won, or just held?", "D24",
          ("highest-trump", "ace"), cards.high, 6),
    Topic("lone-trump", "Only one trump is in play: is it both high and low?", "D3",
          ("only-trump", "single-trump", "one-trump"), cards.lone_trump, 6),
    Topic("game-tie", "The game point is tied: who scores it?", "D10",
          ("game", "game-point", "tie"), cards.game_tie, 7),
    Topic("smudge", "What is a smudge (moon), and what does it need and pay?", "D12",
          ("moon", "shoot-the-moon", "slam", "shoot"), game.smudge, 8),
    Topic("jack-out", "The jack of trumps was never dealt: can the top bid still be made?", "D11",
          ("no-jack", "jack-not-dealt"), game.jack_out, 8),
    Topic("sweep", "Does taking all the tricks score a point of its own?", "D21",
          ("all-tricks", "fifth-point"), cards.sweep, 9),
    Topic("setback", "Does a set bidder keep the points it took?", "D13",
          ("set", "set-back", "failed-bid"), game.setback, 10),
    Topic("negative", "Can a score go below zero?", "D23",
          ("negative-scores", "in-the-hole", "below-zero"), game.negative, 10),
    Topic("all-pass", "Everybody passes: what now?", "D8",
          ("everyone-passes", "stuck-dealer", "stick-the-dealer", "force-bid"), game.all_pass, 11),
    Topic("dealer-steal", "May the dealer take the bid by equalling it?", "D9",
          ("steal", "dealer-privilege", "match"), game.steal, 12),
    Topic("sell-out", "Selling the pitch: who scores, and what if the eldest keeps it?", "D20",
          ("sale", "sell", "commercial-pitch"), game.sell_out, 13),
    Topic("both-over", "Both sides reach the target in the same hand: who wins?", "D6",
          ("both-sides-over", "count-out", "counting-out", "several-out", "bidder-goes-out"), game.both_over, 14),
    Topic("defenders-win", "Can the defending side win the game?", "D7",
          ("defenders", "who-can-win", "only-bidder", "set-and-win"), game.defenders, 15),
    Topic("reach", "Must the target be reached or passed?", "D16",
          ("exceed", "target", "reach-or-exceed"), game.reach, 16),
    Topic("revoke", "What is the penalty for a revoke?", "D18",
          ("renege", "penalty", "illegal-play"), cards.revoke, 17),
    Topic("kitty", "Is there a kitty (widow); who takes it, what is laid away, and does the discard count?", "1.2",
          ("widow", "blind", "nest", "lay-away", "discard"), deal.kitty, 18),
    Topic("draw", "After trump, may players throw cards and draw new ones; what must be kept?", "1.2",
          ("refill", "draw-back", "exchange", "throw"), deal.draw, 19),
    Topic("call-partner", "With five, does the bidder call a partner; who is it, and how are the points shared?",
          "1.2", ("partner", "called-card", "five-players", "call", "call-your-partner"), game.call_partner, 20),
    Topic("identical-jokers", "The two jokers look alike: which one is higher?", "D14",
          ("same-jokers", "twin-jokers", "which-joker", "look-alike-jokers"), cards.identical_jokers, 21),
    Topic("ten-for-game", "Is there a game point, or does the ten of trumps replace it?", "D17",
          ("ten", "ten-of-trump", "ten-of-trumps", "no-game"), cards.ten_for_game, 22),
    Topic("sandbagging", "May a side pass a good hand and win on defence, or must it bid to go out?", "D7",
          ("sandbag", "bid-to-go-out", "must-bid-out", "defence", "defense", "stop-short"), game.sandbagging, 23),
    Topic("count-down", "Do scores count up to the target, or down from it to zero?", "1.7",
          ("countdown", "counting-down", "start-at-target", "count-up", "direction"), game.count_down, 24),
    Topic("three-sets", "Is a side that is set three times out of the game?", "1.7",
          ("three-sets-out", "sets-out", "set-out", "setbacks-out", "elimination"), game.three_sets, 25),
    Topic("misdeal", "After a misdeal, who deals again?", "D19",
          ("mis-deal", "redeal", "deal-again", "bad-deal", "exposed-card"), game.misdeal, 26),
    Topic("over-partner", "May I bid over my own partner?", "D22",
          ("bid-over-partner", "overbid-partner", "outbid-partner", "bid-over-partners"), game.over_partner, 27),
)
_BY_NAME = {t.id: t for t in TOPICS} | {a: t for t in TOPICS for a in t.aliases}


def find(topic: str) -> Topic:
    """A topic by id or alias (any case, spaces for dashes); else the nearest one in the message."""
    key = "-".join(topic.strip().lower().replace("_", " ").split())
    if key in _BY_NAME:
        return _BY_NAME[key]
    guess = nearest(key, list(_BY_NAME))
    hint = f" - did you mean {_BY_NAME[guess].id}?" if guess else ""
    raise PitchError(f"unknown topic '{topic}'{hint} (topics: {', '.join(t.id for t in TOPICS)})")


def explain(r: Ruleset, topic: str) -> Answer:
    """This ruleset's answer to one dispute."""
    t = find(topic)
    summary, answer, example, keys = t.answer(r)
    return Answer(t.id, t.question, t.dispute, summary, answer, example, keys, t.number)


def explain_all(r: Ruleset) -> list[Answer]:
    """Every topic, answered for this ruleset (the list `rules explain` shows)."""
    return [explain(r, t.id) for t in TOPICS]
