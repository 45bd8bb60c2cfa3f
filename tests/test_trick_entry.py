"""A hand entered trick by trick as a person types it: each trick's cards in playing order, nobody saying
who led (logbook.tricks works the leaders out; the log judges the result). Random hands of every
built-in ruleset played out legally come back with the very leaders they were played with."""

from __future__ import annotations

import random
import tomllib
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from solver_ref import after, begin, random_game, random_line, record

import pitchkeeper
from pitchkeeper.game import records, rulesets, scoring
from pitchkeeper.logbook.entry import HandEntry
from pitchkeeper.logbook.tricks import trick_tables

DATA = Path(__file__).parent / "data" / "play"
TEAMS = {"Us": ["Ann", "Cy"], "Them": ["Bob", "Dee"]}
OFFJACK = ["AS 3S 2S HJ", "5C 2H KC 10C", "7h 6h qh ah", "3D AD 8D 9D", "3C QC 4H 8H", "5D KS JC 7D"]


def log_of(tmp_path: Path, rules: str, players: list[str], teams: dict[str, list[str]] | None = TEAMS) -> pitchkeeper.Logbook:
    return pitchkeeper.Logbook.create(tmp_path / "m.toml", rules, players, teams=teams or {}, first_dealer=players[-1])


def test_a_hand_typed_trick_by_trick_is_the_hand_file_with_its_leaders(tmp_path: Path) -> None:
    book = log_of(tmp_path, "seven-point", ["Ann", "Bob", "Cy", "Dee"])
    state = book.append(HandEntry(bidder="ann", amount="3", trump="spades", tricks=OFFJACK))
    kept = tomllib.loads(book.path.read_text())["hands"][0]
    written = tomllib.loads((DATA / "seven-point-offjack.toml").read_text())
    assert kept["tricks"] == written["tricks"]  # the leaders worked out, the cards in their canonical form
    judged = pitchkeeper.judge_hand(DATA / "seven-point-offjack.toml")
    assert state["hands"][0]["awards"] == judged["awards"] and state["scores"] == judged["delta"]


def test_folds_in_trump_only_play_are_named_and_the_lead_passes_on(tmp_path: Path) -> None:
    book = log_of(tmp_path, "trickster-10", ["Ann", "Bob", "Cy", "Dee"])
    book.append(HandEntry(bidder="Ann", amount="5", trump="S",
                          tricks=["AS 2S 5S 4S", "Ann:KS Cy:JC Dee:10S", "Cy:QS Dee:HJ"]))
    kept = tomllib.loads(book.path.read_text())["hands"][0]["tricks"]
    written = tomllib.loads((DATA / "trickster-10-fold.toml").read_text())["tricks"]
    assert [t["leader"] for t in kept] == [t["leader"] for t in written] == ["Ann", "Ann", "Cy"]


def test_a_name_with_a_space_names_its_card(tmp_path: Path) -> None:
    players = ["Ann", "Bob", "Cy", "Dee Dee"]
    book = log_of(tmp_path, "seven-point", players, {"Us": ["Ann", "Cy"], "Them": ["Bob", "Dee Dee"]})
    typed = [*OFFJACK[:5], "dee dee:5D KS JC 7D"]
    book.append(HandEntry(bidder="Ann", amount="3", trump="S", tricks=typed))
    last = tomllib.loads(book.path.read_text())["hands"][0]["tricks"][5]
    assert last == {"leader": "Dee Dee", "cards": ["Dee Dee:5D", "KS", "JC", "7D"]}


@pytest.mark.parametrize(("typed", "where", "words"), [
    ([*OFFJACK[:5], "5D KS JC 7X"], "tricks[6].cards[4]", "'7X' is not a card"),
    ([*OFFJACK[:5], "5D KS JC AS"], "tricks[6].cards[4]", "AS was already played in trick 1"),
    ([*OFFJACK[:1], "", *OFFJACK[2:]], "tricks[2]", "no cards"),
    (["Bob:3S 2S HJ AS", *OFFJACK[1:]], "tricks[1].leader", "the pitcher (Ann) leads this trick"),
    (OFFJACK[:5], "tricks", "5 tricks given; a hand of 6 cards each has 6 tricks"),
    ([*OFFJACK[:5], "5D KS JC 7D Zed:2C"], "tricks[6].cards[5]", "'Zed' is not a player"),
])
def test_a_bad_trick_is_one_line_at_that_trick_and_nothing_is_written(tmp_path: Path, typed: list[str], where: str,
                                                                      words: str) -> None:
    book = log_of(tmp_path, "seven-point", ["Ann", "Bob", "Cy", "Dee"])
    before = book.path.read_bytes()
    with pytest.raises(pitchkeeper.PitchError) as e:
        book.append(HandEntry(bidder="Ann", amount="3", trump="S", tricks=typed))
    assert (e.value.where or "").endswith(where) and words in e.value.message and "\n" not in str(e.value)
    assert book.path.read_bytes() == before


def test_tricks_and_points_together_are_refused(tmp_path: Path) -> None:
    book = log_of(tmp_path, "seven-point", ["Ann", "Bob", "Cy", "Dee"])
    with pytest.raises(pitchkeeper.PitchError, match="one of them"):
        book.append(HandEntry(bidder="Ann", amount="3", trump="S", tricks=OFFJACK, points={"high": "Us"}))


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(rulesets.builtin_names()), st.integers(0, 2**32 - 1))
def test_random_hands_played_out_come_back_with_their_leaders(name: str, seed: int) -> None:
    rng = random.Random(seed)
    g = random_game(name, rng)
    st_ = begin(g)
    for p, c in random_line(g, rng, st_):
        st_ = after(g, st_, p, c)
    done = st_.done
    assume(done)  # trump-only play where nobody holds a trump: no trick at all
    rec = record(g, done)
    trump_only = g.ruleset.settings["play"]["follow"] == "trump-only"
    # as a person types it: bare cards, named only where someone folds (trump-only play names every card)
    typed = [" ".join(c if not trump_only else f"{p}:{c}" for p, c in plays) for _, plays in done]
    table = records.parse_table({"players": list(g.players), **({"teams": g.teams} if g.teams else {})})
    hand = {"dealer": g.dealer, "trump": g.trump, "bid": rec["bid"]}
    worked = trick_tables(typed, g.ruleset, table, hand)
    assert [t["leader"] for t in worked] == [t["leader"] for t in rec["tricks"]]
    entered = records.parse_hand({**hand, "tricks": worked}, table)
    played = records.parse_hand({**hand, "tricks": rec["tricks"]}, table)
    assert scoring.verdict(g.ruleset, table, entered).to_json() == scoring.verdict(g.ruleset, table, played).to_json()

