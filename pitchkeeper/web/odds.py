"""`/odds`: "should I have bid 3?" - the odds of each bid from the cards a player held (spec section 9's
`bid_odds`, on a phone after the hand).

The player taps the cards they held - as many as the ruleset deals a hand, the jokers where it has
them - and sees, for each trump suit, the chance to make each bid, what each scores on average under
the ruleset's settlement, and the best bid; a tap on a bid asks "should I have bid 3?" and is answered
in words (words.analysis). The match's ruleset and number of players unless another built-in ruleset
or count is chosen. The cards the player could not see are laid out at random a fixed number of times
from one seed - the same cards, the same answer - and each layout is solved with every card known;
the page says how many.

It reads only: no PIN, nothing written, a GET whose address can be shared (`/api/odds` answers the same
question in JSON). The search runs in the odds worker (web.analysed), within its budget: never on the
event loop, never for minutes - seven players' layouts take that long, and get "too long" instead.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from pitchkeeper.errors import PitchError, or_list, shown
from pitchkeeper.game import odds, rulesets, solver
from pitchkeeper.game.cards import JOKERS, RANKS, SUIT_NAMES, SUITS, parse_suit, try_card
from pitchkeeper.web import analysed, view
from pitchkeeper.web.site import site_of
from pitchkeeper.words.analysis import DOUBLE_DUMMY, bid_answers, odds_lines

SEED = 1  # one seed for every question: the same cards give the same answer, on every phone
QUERY = 2048  # bytes of query string at most (a whole hand tapped is a few hundred)
MAX_CARDS = 64  # cards named at most (a deck and its jokers): past that the question is refused unread
QUESTIONS = {"cards": "Your cards:", "rules": "Ruleset:", "players": "Players:", "trump": "Trump:",
             "ask": "Should I have bid"}


# Layouts per question, by the number of players: what the compiled core answers in about a second for
# all four suits (a layout of 5, 6 or 7 players is searched far longer than one of 4; a few take far
# longer still, and meet the budget). A tenth of it where only the pure-Python reference is installed.
LAYOUTS = {2: 200, 3: 200, 4: 200, 5: 30, 6: 10}
MANY = 10  # 7 players and more


def samples(players: int) -> int:
    """Layouts per question for that many players, with the core installed here."""
    n = LAYOUTS.get(players, MANY)
    return n if "compiled" in solver.cores() else max(1, n // 10)


@dataclass
class Question:
    """What the page (or /api/odds) asked, as sent."""

    cards: list[str] = field(default_factory=list)
    rules: str = ""  # "": the match's
    players: str = ""  # "": the match's count (where the ruleset allows it)
    trump: str = ""  # "": every suit
    ask: str = ""  # a bid: "should I have bid 3?"
    go: bool = False  # work it out (not only draw the cards of another ruleset)


class Refused(PitchError):
    """A question no page of ours sends (too long, too many cards): 400, one line."""


def read(request: Request) -> Question:
    if len(request.scope.get("query_string", b"")) > QUERY:
        raise Refused(f"the question is too long (at most {QUERY} bytes of address)")
    q = request.query_params
    cards = [c for v in q.getlist("card") for c in v.split()] + [c for v in q.getlist("cards") for c in
                                                                  v.replace(",", " ").split()]
    if len(cards) > MAX_CARDS:
        raise Refused(f"{len(cards)} cards named: a deck has at most {MAX_CARDS}")
    return Question(cards, q.get("rules", "").strip(), q.get("players", "").strip(), q.get("trump", "").strip(),
                    q.get("ask", "").strip(), q.get("go", "") == "1" or request.url.path.startswith("/api/"))


@dataclass
class Setting:
    """The question checked against its ruleset: what the page draws, and the job, once it can be asked."""

    ruleset: Any
    match_rules: str  # the match's ruleset's name (the default)
    players: int
    counts: list[int]
    chosen: list[str]
    bids: list[str]
    trump: str | None = None
    ask: str = ""
    problem: tuple[str, str] | None = None  # (the question it sits at, the message in the page's words)
    job: tuple[str, tuple[str, Any]] | None = None


def setting(s: Any, q: Question) -> Setting:
    """Read the ruleset (a file: in a worker thread) and check every answer; the first problem is kept."""
    problem: tuple[str, str] | None = None
    match_rules = s.ruleset.name
    ruleset = s.ruleset
    if q.rules and q.rules != match_rules:
        if q.rules in rulesets.builtin_names():
            ruleset = rulesets.load(q.rules)
        else:  # a page names a built-in ruleset only: never a file of the server's
            problem = ("rules", f"'{shown(q.rules)}' is not a built-in ruleset (they are {or_list(rulesets.builtin_names())})")
    counts = list(ruleset.settings["players"]["counts"])
    n = len(s.table.players) if len(s.table.players) in counts else len(odds.seating(ruleset, None)[0])
    if q.players and problem is None:
        if q.players.isascii() and q.players.isdigit() and len(q.players) < 4 and int(q.players) in counts:
            n = int(q.players)
        else:
            problem = ("players", f"{or_list(counts)} players play {ruleset.name}, not {shown(q.players)}")
    bids = [str(b) for b in odds.bids(ruleset)]
    st = Setting(ruleset, match_rules, n, counts, [], bids)
    size = ruleset.settings["deck"]["hand_size"]
    try:
        st.trump = parse_suit(q.trump) if q.trump else None
    except PitchError:
        problem = problem or ("trump", f"'{shown(q.trump)}' is not a suit: tap one, or every suit")
    if q.ask and q.ask not in bids:
        problem = problem or ("ask", f"{shown(q.ask)}? {ruleset.name}'s bids are {or_list(bids)}")
    st.ask = q.ask if q.ask in bids else ""
    hand = None
    tapped = [try_card(c) for c in q.cards]
    try:  # a card that is none, not of this deck or given twice: the library's words, whatever the count
        if len(q.cards) == size or None in tapped or len(set(tapped)) < len(tapped) or \
                not ruleset.deck.issuperset(tapped):
            hand = odds.parse_hand_cards(ruleset, q.cards)
    except PitchError as e:
        problem = problem or ("cards", e.message)
    st.chosen = list(hand) if hand else list(dict.fromkeys(c for c in tapped if c is not None and c in ruleset.deck))
    if hand is None and q.go and problem is None:
        k = len(q.cards)
        problem = ("cards", f"{k} of {size} tapped: tap {size - k} more" if k < size
                   else f"{k} tapped: a hand in {ruleset.name} holds {size}; untap {k - size}")
    st.problem = problem
    if hand is not None and problem is None and q.go:
        layout = sorted(hand, key=_order)
        key = repr((ruleset.digest, layout, n, st.trump, samples(n), SEED))
        st.job = (hashlib.sha256(key.encode()).hexdigest(),
                  ("odds", {"cards": layout, "rules": analysed.portable(ruleset), "players": n, "trump": st.trump,
                            "samples": samples(n), "seed": SEED}))
    return st


def _order(card: str) -> tuple[int, int]:
    """The order the page draws cards in: the jokers, then spades, hearts, diamonds, clubs, high to low."""
    if card in JOKERS:
        return (-1, JOKERS.index(card))
    return (SUITS.index(card[-1]), -RANKS.index(card[:-1]))


def deck_rows(ruleset: Any) -> list[tuple[str, list[str]]]:
    """The deck as the page lays it out to tap: (the row's class, its cards)."""
    rows = [("jokers", [j for j in JOKERS if j in ruleset.deck])]
    rows += [(f"suit-{s}", [r + s for r in reversed(RANKS) if r + s in ruleset.deck]) for s in SUITS]
    return [(k, cs) for k, cs in rows if cs]


def result_view(o: dict[str, Any], ask: str) -> dict[str, Any]:
    """The odds object laid out for the page: each trump suit's bids with the chance and the average."""
    suits = []
    for t in o["trumps"]:
        one: dict[str, Any] = {"trump": t["trump"], "sign": view.SUIT_SIGNS[t["trump"]],
                               "name": SUIT_NAMES[t["trump"]], "possible": t.get("possible", True)}
        if one["possible"]:
            one.update(mean=f"{t['mean']:.1f}", best=str(t["best_bid"]), rows=[
                {"bid": b, "made": round(100 * x), "average": _average(t["expected"][b]), "best": b == str(t["best_bid"])}
                for b, x in t["make"].items()])
        else:
            one["why"] = t["why"]
        suits.append(one)
    lines = odds_lines(o)
    return {"suits": suits, "caption": lines[0], "draw": o.get("draw"), "answers": bid_answers(o, ask) if ask else [],
            "bound": DOUBLE_DUMMY}


def _average(x: float) -> str:
    """A score change with its sign (a real minus: a hyphen reads as a dash): +2.1, −0.8, 0.0."""
    r = round(x, 1)
    return f"+{r:.1f}" if r > 0 else f"−{-r:.1f}" if r < 0 else "0.0"


def outcome_words(o: analysed.Outcome, st: Setting, budget: float) -> str:
    if o.kind == "slow":
        return (f"Not answered (too long): {samples(st.players)} layouts of {st.players} players take more than "
                f"{budget:g} s here. Tap the trump (one suit is quicker), or ask for fewer players.")
    if o.kind == "busy":
        return "Many questions at once: ask again in a moment."
    return f"Not answered: {o.message}."


# ---------------------------------------------------------------------------
# the routes


async def odds_page(request: Request) -> Response:
    site = site_of(request)
    s = await site.snapshot()
    try:
        q = read(request)
    except Refused as e:
        return site.render("odds.html", 400, **(await _context(site, s, Question(), ("", e.message))))
    return site.render("odds.html", **(await _context(site, s, q)))


async def _context(site: Any, s: Any, q: Question, refused: tuple[str, str] | None = None) -> dict[str, Any]:
    st = await run_in_threadpool(setting, s, q)
    problem = refused or st.problem
    answer, failed = None, None
    if st.job is not None:
        o = await site.odds.outcome(*st.job)
        if o.kind == "done":
            answer = result_view(o.value, st.ask)
        else:
            failed = outcome_words(o, st, site.odds.budget)
    field_, text = problem or ("", "")
    return {
        "title": "Should I have bid 3?", "rules": st.ruleset.name, "match_rules": st.match_rules,
        "rulesets": rulesets.builtin_names(), "players": st.players, "counts": st.counts, "size":
        st.ruleset.settings["deck"]["hand_size"], "rows": deck_rows(st.ruleset), "chosen": st.chosen, "bids": st.bids,
        "trump": st.trump or "", "ask": st.ask, "problem": {"field": field_, "text": _said(field_, text)} if problem else None,
        "answer": answer, "failed": failed, "samples": samples(st.players), "fewer": _fewer(st.players),
        "seed": SEED, "card_text": view.card_text,
        "suits": [(c, view.SUIT_SIGNS[c], SUIT_NAMES[c]) for c in SUITS],
    }


def _fewer(players: int) -> str:
    """Why a question is answered from fewer layouts than 200, in words ("" when it is not)."""
    if "compiled" not in solver.cores():
        return "the compiled core is not installed here, and the plain one is slower"
    return f"a layout of {players} players takes longer to search" if samples(players) < LAYOUTS[4] else ""


def _said(name: str, text: str) -> str:
    """A problem in the page's words: the question it is about, then what is wrong."""
    text = shown(text)
    text = text[:1].upper() + text[1:]
    return f"{QUESTIONS.get(name, '')} {text}".strip()


async def api_odds(request: Request) -> Response:
    """The same question in JSON: the `analyse odds` object, 400 with one line on bad input, 503 when it
    takes too long (or too many are asked at once)."""
    site = site_of(request)
    s = await site.snapshot()
    try:
        q = read(request)
        st = await run_in_threadpool(setting, s, q)
    except Refused as e:
        return JSONResponse({"error": e.message}, status_code=400)
    if st.problem is not None:
        name, text = st.problem
        return JSONResponse({"error": f"{name}: {shown(text)}"}, status_code=400)
    assert st.job is not None
    o = await site.odds.outcome(*st.job)
    if o.kind == "done":
        return JSONResponse(o.value, headers={"Cache-Control": "no-store"})
    if o.kind == "error":
        return JSONResponse({"error": o.message}, status_code=400)
    return JSONResponse({"error": outcome_words(o, st, site.odds.budget)}, status_code=503, headers={"Retry-After": "2"})


def routes() -> list[Route]:
    return [Route("/odds", odds_page), Route("/api/odds", api_odds)]
