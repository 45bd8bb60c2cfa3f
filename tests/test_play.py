"""The play model: effective suits, trump and plain ranks, the follow rules of every seed, the first
lead, one trick judged on its own, and whole hands replayed from `tricks` (issue 4)."""

from __future__ import annotations

import tomllib
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest

from pitchkeeper.errors import PitchError
from pitchkeeper.game import records, rulesets, scoring
from pitchkeeper.game.cards import PARTNER_SUIT, SUITS
from pitchkeeper.game.play import (
    TRUMP,
    allowed,
    first_lead_suits,
    judge_play,
    judge_trick,
    parse_held,
    parse_plays,
    replay,
    winner_index,
)

DATA = Path(__file__).resolve().parent / "data" / "play"
R = {n: rulesets.load(n) for n in rulesets.builtin_names()}


def record(name: str) -> dict[str, Any]:
    return tomllib.loads((DATA / name).read_text(encoding="utf-8"))


def parsed(data: dict[str, Any]) -> tuple[rulesets.Ruleset, records.Table, records.Hand]:
    table, hand = records.parse_hand_record(data)
    return R[data["rules"]], table, hand


def house(tmp_path: Path, text: str) -> rulesets.Ruleset:
    f = tmp_path / "house.toml"
    f.write_text(text, encoding="utf-8")
    return rulesets.load(f)


# ---------------------------------------------------------------------------
# Effective suits and ranks, from the ruleset's trump order


@pytest.mark.parametrize("name", sorted(R))
@pytest.mark.parametrize("trump", SUITS)
def test_every_symbol_of_the_trump_order_is_a_trump_and_leaves_its_printed_suit(name: str, trump: str) -> None:
    r = R[name]
    view = r.views[trump]
    expected = {rulesets.symbol_card(s, trump) for s in r.settings["trump"]["order"]}
    assert {c for c in r.deck if view.suit[c] == TRUMP} == expected
    # every other card keeps its printed suit
    assert all(view.suit[c] == c[-1] for c in r.deck if c not in expected)


def test_seven_point_trump_ranks_as_seed_000_lists_them() -> None:
    # "ace, king, queen, jack of suit, jack of color, high joker, low joker, ten, nine, ... two"
    seed_order = ["AS", "KS", "QS", "JS", "JC", "HJ", "LJ", "10S", "9S", "8S", "7S", "6S", "5S", "4S", "3S", "2S"]
    view = R["seven-point"].views["S"]
    for hi, lo in pairwise(seed_order):
        assert winner_index(view, [lo, hi]) == 1, (hi, lo)
        assert winner_index(view, [hi, lo]) == 0, (hi, lo)


@pytest.mark.parametrize(("name", "above", "below"), [
    ("trickster-11", "AC", "KS"),  # the off-ace ranks just below the ace (trump.order), above the king
    ("trickster-13", "3C", "2S"),  # the off-three just below the three, above the deuce
    ("trickster-13", "3S", "3C"),
    ("trickster-6", "JC", "JK"),  # the single joker sits between the jacks and the ten
    ("trickster-6", "JK", "10S"),
])
def test_off_cards_and_jokers_rank_where_the_trump_order_puts_them(name: str, above: str, below: str) -> None:
    order = R[name].settings["trump"]["order"]
    sym = {rulesets.symbol_card(s, "S"): s for s in order}
    assert order.index(sym[above]) < order.index(sym[below])  # the derivation: earlier in the order is higher
    assert winner_index(R[name].views["S"], [below, above]) == 1


def test_plain_suit_lead_won_by_the_highest_card_of_the_effective_suit_led() -> None:
    view = R["seven-point"].views["S"]
    # no trump played: the highest heart wins; the ace of diamonds is off-suit
    assert winner_index(view, ["5H", "KH", "AD", "QH"]) == 1
    # spades trump: J♣ led is a trump lead, and beats any club
    assert winner_index(view, ["JC", "AC", "KC", "QC"]) == 0
    # a club lead: J♣ played to it is a trump and wins
    assert winner_index(view, ["5C", "AC", "JC", "KC"]) == 2
    # with no off-jack (auction pitch), J♣ is a club below the queen
    assert winner_index(R["auction-pitch"].views["S"], ["5C", "JC", "QC", "2D"]) == 2


# ---------------------------------------------------------------------------
# Follow rules: each seed, each built-in family


SUIT_OR_TRUMP = ["seven-point", "auction-pitch", "partnership-pitch", "cutthroat-pitch", "solo-pitch", "trickster-4",
                 "trickster-5", "trickster-6", "trickster-9"]
TRUMP_ONLY = ["trickster-7", "trickster-10", "trickster-11", "trickster-13"]


def test_the_families_cover_every_builtin() -> None:
    assert sorted(SUIT_OR_TRUMP + TRUMP_ONLY) == sorted(R)


@pytest.mark.parametrize("name", SUIT_OR_TRUMP)
def test_follow_suit_or_trump_families(name: str) -> None:
    # seeds 000-003 and seed 004's 4-point: follow the suit led or trump, even when able to follow
    r = R[name]
    view = r.views["S"]
    hand = ["9H", "2S", "4D"]
    assert set(allowed(r, view, hand, "H").cards) == {"9H", "2S"}
    assert allowed(r, view, hand, "H").rule == "must-follow-or-trump"
    assert set(allowed(r, view, hand, "C").cards) == set(hand)  # void in clubs: anything
    assert allowed(r, view, hand, TRUMP).cards == ("2S",)  # trump led: must play a trump
    assert set(allowed(r, view, ["9H", "4D"], TRUMP).cards) == {"9H", "4D"}  # none held: anything


@pytest.mark.parametrize("name", SUIT_OR_TRUMP)
def test_a_called_card_binds_its_holder_and_leaves_the_rules_as_they_were(name: str) -> None:
    # partner.first_trick: the called card's holder must play it, whatever the follow rules say; asked before
    # and after, for another card or none, the ruleset's follow rules are what they always are
    r = R[name]
    view = r.views["S"]
    hand = ["9H", "2S", "4D"]
    for _ in range(2):
        a = allowed(r, view, hand, "H", called="4D")
        assert a.cards == ("4D",) and a.rule == "called-first-trick" and "4♦" in a.words
        b = allowed(r, view, hand, "H", called="KC")  # a card not held: the usual rules
        assert set(b.cards) == {"9H", "2S"} and b.rule == "must-follow-or-trump"
        assert allowed(r, view, hand, "H") == b
        assert allowed(r, view, hand, None, True, called="9H").cards == ("9H",)


@pytest.mark.parametrize("name", TRUMP_ONLY)
def test_trump_only_families(name: str) -> None:
    # seed 004's 10-point group: "you may only play trump"
    r = R[name]
    view = r.views["S"]
    hand = ["9H", "2S", "4D", "LJ"]
    for led in ("H", TRUMP, None):
        a = allowed(r, view, hand, led)
        assert set(a.cards) == {"2S", "LJ"} and a.rule == "trump-only"
    assert allowed(r, view, ["9H", "4D"], TRUMP).cards == ()  # out of trumps: folds


def test_strict_follow_is_a_house_switch(tmp_path: Path) -> None:
    # the HSW reading (digest D4): must follow when able; a trump only when void
    r = house(tmp_path, 'extends = "auction-pitch"\n[play]\nfollow = "suit"\n')
    view = r.views["S"]
    a = allowed(r, view, ["9H", "2S", "4D"], "H")
    assert a.cards == ("9H",) and a.rule == "must-follow"
    assert set(allowed(r, view, ["2S", "4D"], "H").cards) == {"2S", "4D"}


def test_seed_000_jack_of_clubs_example() -> None:
    # "assume spades is trump ... If someone leads clubs and the only club in a person's hand is the jack of
    # clubs, the person is free to play any card from their hand (since the jack of clubs is considered a spade)"
    r = R["seven-point"]
    view = r.views["S"]
    hand = ["JC", "9H", "4D", "KD"]
    assert set(allowed(r, view, hand, "C").cards) == set(hand)
    ruling = judge_play(r, view, "9H", hand, "C", player="Bob")
    assert ruling.legal is True and ruling.rule is None
    assert "J♣ is a spade for this hand" in ruling.why
    # and when trump is led, J♣ is the trump he must play (digest D1)
    assert allowed(r, view, hand, TRUMP).cards == ("JC",)
    assert judge_play(r, view, "9H", hand, TRUMP).rule == "must-follow-trump"
    # with no off-jack the same hand must follow with J♣ (auction pitch, seed 001)
    ap = R["auction-pitch"]
    assert allowed(ap, ap.views["S"], hand, "C").cards == ("JC",)


def test_seed_000_jokers_are_trumps_of_no_suit() -> None:
    r = R["seven-point"]
    view = r.views["H"]
    assert allowed(r, view, ["LJ", "5S", "9C"], TRUMP).cards == ("LJ",)
    assert set(allowed(r, view, ["LJ", "5S", "9C"], "D").cards) == {"LJ", "5S", "9C"}  # void in diamonds


def test_seed_001_in_trumps_follow_suit_in_plain_suits_follow_or_trump() -> None:
    r = R["auction-pitch"]
    view = r.views["D"]
    assert allowed(r, view, ["3D", "9H", "KS"], TRUMP).cards == ("3D",)
    assert set(allowed(r, view, ["3D", "9H", "KS"], "H").cards) == {"9H", "3D"}
    bad = judge_play(r, view, "KS", ["3D", "9H", "KS"], "H", player="Cy")
    assert bad.legal is False and bad.rule == "must-follow-or-trump" and set(bad.could or ()) == {"9H", "3D"}
    assert "Cy could have played" in bad.why


def test_seed_003_trump_allowed_while_able_to_follow() -> None:
    # "un joueur peut jouer un atout même s'il est capable de suivre la couleur"
    r = R["solo-pitch"]
    assert judge_play(r, r.views["C"], "2C", ["2C", "AH"], "H").legal is True


# ---------------------------------------------------------------------------
# The first lead and trump set by it


def test_first_lead_announced_off_jack_can_make_either_black_suit_trump() -> None:
    r = R["seven-point"]  # trump.set_by = first-lead-announced
    assert set(first_lead_suits(r, "JC")) == {"C", "S"}
    assert set(first_lead_suits(r, "HJ")) == set(SUITS)  # a joker: the pitcher names the suit
    assert first_lead_suits(r, "5C") == ("C",)
    for trump in ("S", "C"):
        j = judge_trick(r, trump, parse_plays("Ann:JC Bob:AC Cy:5C Dee:2S"), first=True)
        assert j.plays[0].ruling.legal is True
    j = judge_trick(r, "H", parse_plays("Ann:JC Bob:AH Cy:5C Dee:2S"), first=True)
    assert j.plays[0].ruling.legal is False and j.plays[0].ruling.rule == "first-lead-trump"


def test_first_lead_without_announcement_uses_the_printed_suit(tmp_path: Path) -> None:
    house = tmp_path / "house.toml"  # trump.set_by = first-lead, with an off-jack in trump.order
    house.write_text('extends = "trickster-5"\n[trump]\nset_by = "first-lead"\n[play]\nfirst_lead_trump = true\n',
                     encoding="utf-8")
    r = rulesets.load(str(house))
    assert first_lead_suits(r, "JC") == ("C",)
    j = judge_trick(r, "S", parse_plays("Ann:JC Bob:AC"), first=True)
    assert j.plays[0].ruling.rule == "first-lead-trump" and "makes clubs trump, not spades" in j.plays[0].ruling.why
    # a joker has no printed suit, so even here the pitcher names it
    assert set(first_lead_suits(R["trickster-6"], "JK")) == set(SUITS)


def test_first_lead_that_cannot_make_the_named_trump_shows_what_could() -> None:
    r = R["partnership-pitch"]
    j = judge_trick(r, "H", parse_plays("Ann:AS Bob:2S"), parse_held(["Ann:AS 4H 9C"]), first=True)
    ann = j.plays[0].ruling
    assert ann.legal is False and ann.rule == "first-lead-trump" and ann.could == ("4H",)


def test_named_trump_first_lead_must_be_a_trump_if_the_pitcher_holds_one() -> None:
    r = R["trickster-10"]  # trump named, trump-only play
    view = r.views["S"]
    a = allowed(r, view, ["9H", "2S"], None, first=True)
    assert a.cards == ("2S",) and a.rule == "first-lead-trump"
    assert judge_play(r, view, "9H", None, None, first=True).rule == "first-lead-trump"


# ---------------------------------------------------------------------------
# One trick on its own


def test_judge_trick_winner_why_and_rulings() -> None:
    r = R["seven-point"]
    plays = parse_plays("Ann:5C Bob:9H Cy:KC Dee:2H")
    held = parse_held(["Bob:JC 9H 4D; Dee:2H 3C"])
    j = judge_trick(r, "S", plays, held)
    assert (j.winner, j.card) == ("Cy", "KC")  # no trump, K♣ the highest club
    assert "no trump was played" in j.why
    legal = {p.player: p.ruling.legal for p in j.plays}
    # Ann leads (always legal); Bob holds no club (J♣ is a spade); Cy follows suit; Dee held 3♣ but threw 2♥
    assert legal == {"Ann": True, "Bob": True, "Cy": True, "Dee": False}
    dee = j.plays[3].ruling
    assert dee.rule == "must-follow-or-trump" and dee.could == ("3C",)
    js = j.to_json()
    assert js["winner"] == "Cy" and js["led"] == "C"
    assert js["plays"][1] == {"player": "Bob", "card": "9H", "suit": "H", "legal": True, "rule": None,
                              "why": js["plays"][1]["why"], "could": ["JC", "9H", "4D"]}


def test_judge_trick_without_held_rules_only_what_the_card_shows() -> None:
    r = R["auction-pitch"]
    j = judge_trick(r, "S", parse_plays("5C KC 2S 9H"))
    assert [p.player for p in j.plays] == ["P1", "P2", "P3", "P4"]
    # following suit and trumping are always legal here; a heart on a club lead depends on the hand
    assert [p.ruling.legal for p in j.plays] == [True, True, True, None]
    assert j.winner == "P3"


def test_judge_trick_trump_only_folds() -> None:
    r = R["trickster-10"]
    j = judge_trick(r, "S", parse_plays("Ann:AS Bob:fold Cy:fold"), parse_held(["Bob:3S 4H", "Cy:9H"]))
    bob, cy = j.plays[1].ruling, j.plays[2].ruling
    assert bob.legal is False and bob.rule == "trump-only" and bob.could == ("3S",)
    assert cy.legal is True  # out of trumps: folds
    assert j.winner == "Ann"


@pytest.mark.parametrize(("cards", "held", "where", "words"), [
    ("Ann:AS Bob:AS", [], "--cards", "AS is played twice"),
    ("Ann:AS Bob:KS", ["Bob:QS 2H"], "--held", "Bob played KS, which is not among Bob's held cards"),
    ("Ann:AS Bob:KS", ["Bob:KS; Cy:2H"], "--held", "Cy plays no card"),
    ("Ann:AS Bob:KS", ["Ann:AS 2H; Bob:KS 2H"], "--held", "2♥ is held by Ann and Bob"),
    ("Ann:AS Bob:HJ", [], "--cards", "HJ is not in auction-pitch's deck"),
    ("Ann:AS Bob:fold", [], "--cards", "Bob folds, but auction-pitch is not played trumps-only"),
    ("Ann:AS Ann:KS", [], "--cards", "Ann plays twice"),
    ("Ann:AS KS", [], "--cards", "name the player of every card"),
    ("Ann:AX", [], "--cards (Ann)", "'AX' is not a card"),
])
def test_judge_trick_bad_input_names_where(cards: str, held: list[str], where: str, words: str) -> None:
    with pytest.raises(PitchError) as e:
        judge_trick(R["auction-pitch"], "S", parse_plays(cards), parse_held(held))
    assert e.value.where == where and words in e.value.message


# ---------------------------------------------------------------------------
# Whole hands from `tricks`


def test_seven_point_replay_winners_captures_and_no_illegal_play() -> None:
    data = record("seven-point-offjack.toml")
    r, table, hand = parsed(data)
    rep = replay(r, table, hand)
    assert rep.illegal == ()
    # the winners the file's comments work out by hand; each leads the next trick
    assert [t.winner for t in rep.tricks] == ["Ann", "Cy", "Bob", "Cy", "Dee", "Ann"]
    assert [t.leader for t in rep.tricks[1:]] == [t.winner for t in rep.tricks[:-1]]
    assert rep.tricks[5].card == "KS" and "the off-jack" in rep.tricks[5].why
    assert rep.trick_counts == {"Ann": 2, "Cy": 2, "Bob": 1, "Dee": 1}
    won = {p: set(cs) for p, cs in rep.captured}
    for t in rep.tricks:
        assert {c for _, c in t.plays} <= won[t.winner]
    assert sorted(c for _, cs in rep.captured for c in cs) == sorted(c for _, cs in hand.held for c in cs)


def test_tricks_and_the_same_cards_as_captured_give_the_same_verdict() -> None:
    data = record("seven-point-offjack.toml")
    r, table, hand = parsed(data)
    rep = replay(r, table, hand)
    as_captured = {k: v for k, v in data.items() if k != "tricks"} | {"captured": {p: list(cs) for p, cs in rep.captured}}
    v1 = scoring.verdict(r, table, hand)
    v2 = scoring.verdict(r, *records.parse_hand_record(as_captured))
    assert v1.to_json() == v2.to_json()
    assert v1.tricks == rep.tricks


def test_auction_pitch_revoke_is_judged_and_penalised() -> None:
    data = record("auction-pitch-revoke.toml")
    r, table, hand = parsed(data)
    v = scoring.verdict(r, table, hand)
    assert [(i.trick, i.player, i.card, i.rule) for i in v.illegal] == [(2, "Bob", "2H", "must-follow-or-trump")]
    assert "could have played J♣" in v.illegal[0].why
    # seed 001: "A revoke is punished by the offender being set back the number of points bid and forfeiting
    # a red counter to the pool"; Bob took no point of his own, so his change is just the setback
    assert r.settings["revoke"]["setback"] == "bid" and v.taken["Bob"] == 0
    assert v.delta["Bob"] == -hand.bid.amount
    assert v.counters == {"Bob": r.settings["revoke"]["counters"]}
    # the others are scored as usual: Ann (high only) is short of her 2, Cy keeps low
    assert v.delta["Ann"] == -hand.bid.amount and v.delta["Cy"] == v.taken["Cy"] == 1


def test_the_same_revoke_costs_nothing_where_the_ruleset_sets_no_penalty(tmp_path: Path) -> None:
    house(tmp_path, 'extends = "auction-pitch"\n[revoke]\nsetback = "none"\ncounters = 0\n')
    data = record("auction-pitch-revoke.toml") | {"rules": str(tmp_path / "house.toml")}
    table, hand = records.parse_hand_record(data)
    v = scoring.verdict(rulesets.load(data["rules"]), table, hand)
    assert len(v.illegal) == 1 and v.delta["Bob"] == 0 and v.counters is None


def test_trickster_10_folds_and_the_lead_passes_to_the_next_player_still_in() -> None:
    data = record("trickster-10-fold.toml")
    r, table, hand = parsed(data)
    rep = replay(r, table, hand)
    assert rep.illegal == ()
    assert [t.winner for t in rep.tricks] == ["Ann", "Ann", "Cy"]
    assert [p for p, _ in rep.tricks[1].plays] == ["Ann", "Cy", "Dee"]  # Bob folded
    assert [p for p, _ in rep.tricks[2].plays] == ["Cy", "Dee"]  # Ann is out too: Cy leads
    trumps = {c for _, cs in hand.held for c in cs if r.views["S"].suit[c] == TRUMP}
    assert {c for _, cs in rep.captured for c in cs} == trumps  # every trump played, nothing else


def test_trump_only_trick_may_name_only_some_players() -> None:
    # unnamed cards take the seats from the leader that no named card takes; Bob, left out, folds
    data = record("trickster-10-fold.toml")
    mixed = _with_trick(data, 1, {"leader": "Ann", "cards": ["KS", "Cy:JC", "Dee:10S"]})
    assert replay(*parsed(mixed)).tricks == replay(*parsed(data)).tricks


def _with_trick(data: dict[str, Any], i: int, trick: dict[str, Any] | None) -> dict[str, Any]:
    tricks = [dict(t) for t in data["tricks"]]
    if trick is None:
        del tricks[i]
    else:
        tricks[i] = trick
    return data | {"tricks": tricks}


@pytest.mark.parametrize(("i", "trick", "where", "words"), [
    (2, {"leader": "Dee", "cards": ["Dee:HJ", "Cy:QS"]}, "tricks[3].leader",
     "the last trick's winner (Ann) is out of trumps, so the next player still in (Cy) leads"),
    (1, {"leader": "Ann", "cards": ["Ann:KS", "Cy:JC"]}, "tricks[2]", "Dee folds while holding"),
    (1, {"leader": "Ann", "cards": ["KS", "JC", "10S"]}, "tricks[2]", "name who played each card"),
    (2, None, "tricks", "trumps still held (Cy QS; Dee HJ)"),
])
def test_trump_only_bad_input(i: int, trick: dict[str, Any] | None, where: str, words: str) -> None:
    r, table, hand = parsed(_with_trick(record("trickster-10-fold.toml"), i, trick))
    with pytest.raises(PitchError) as e:
        replay(r, table, hand)
    assert e.value.where == where and words in e.value.message


def test_a_non_trump_in_trump_only_play_is_illegal_and_taken_back() -> None:
    trick = {"leader": "Ann", "cards": ["Ann:KS", "Bob:7D", "Cy:JC", "Dee:10S"]}
    r, table, hand = parsed(_with_trick(record("trickster-10-fold.toml"), 1, trick))
    v = scoring.verdict(r, table, hand)
    assert [(i.trick, i.player, i.card, i.rule) for i in v.illegal] == [(2, "Bob", "7D", "trump-only")]
    assert "7D" not in {c for _, cs in replay(r, table, hand).captured for c in cs}


@pytest.mark.parametrize(("i", "trick", "where", "words"), [
    (2, {"leader": "Cy", "cards": ["7H", "6H", "QH", "AS"]}, "tricks[3].cards[4]", "AS was already played in trick 1"),
    (1, {"leader": "Bob", "cards": ["2H", "KC", "10C", "5C"]}, "tricks[2].leader",
     "led by Bob, but the last trick's winner (Ann) leads this trick"),
    (0, {"leader": "Bob", "cards": ["3S", "2S", "HJ", "AS"]}, "tricks[1].leader", "the pitcher (Ann)"),
    (1, {"leader": "Ann", "cards": ["5C", "2H", "KC", "10D"]}, "tricks[2].cards[4]",
     "Dee plays 10D, which is not among Dee's held cards"),
    (1, {"leader": "Ann", "cards": ["5C", "2H", "KC"]}, "tricks[2]", "every one of the 4 players plays to it"),
    (1, {"leader": "Ann", "cards": ["5C", "Bob:fold", "KC", "10C"]}, "tricks[2].cards[2]",
     "only in trump-only play may a player fold"),
    (1, {"leader": "Ann", "cards": ["5C", "Cy:KC", "Bob:2H", "10C"]}, "tricks[2]", "not in playing order"),
])
def test_bad_tricks_name_the_key(i: int, trick: dict[str, Any], where: str, words: str) -> None:
    r, table, hand = parsed(_with_trick(record("seven-point-offjack.toml"), i, trick))
    with pytest.raises(PitchError) as e:
        replay(r, table, hand)
    assert e.value.where == where and words in e.value.message


def test_a_card_the_deck_lacks_is_bad_input() -> None:
    data = _with_trick(record("auction-pitch-revoke.toml"), 0, {"leader": "Ann", "cards": ["AS", "3S", "2S", "HJ"]})
    data.pop("held")
    r, table, hand = parsed(data)
    with pytest.raises(PitchError) as e:
        replay(r, table, hand)
    assert e.value.where == "tricks[1].cards[4]" and "HJ is not in auction-pitch's deck" in e.value.message


def test_held_must_be_whole_hands_of_the_deck() -> None:
    data = record("seven-point-offjack.toml")
    data["held"] = dict(data["held"]) | {"Bob": data["held"]["Bob"][:5]}
    r, table, hand = parsed(data)
    with pytest.raises(PitchError) as e:
        replay(r, table, hand)
    assert e.value.where == "held.Bob" and "5 cards; a hand holds 6" in e.value.message


def test_without_held_what_the_card_alone_shows_is_still_judged() -> None:
    # trump-only play: a non-trump is illegal whatever the hand
    trick = {"leader": "Ann", "cards": ["Ann:KS", "Bob:7D", "Cy:JC", "Dee:10S"]}
    data = _with_trick(record("trickster-10-fold.toml"), 1, trick)
    data.pop("held")
    data["dealt"] = {"Bob": ["2S"]}  # the deuce goes to the player dealt it
    r, table, hand = parsed(data)
    assert [(i.trick, i.player, i.rule) for i in replay(r, table, hand).illegal] == [(2, "Bob", "trump-only")]


def test_partial_held_and_the_tricks_show_the_rest() -> None:
    data = record("auction-pitch-revoke.toml")
    full = replay(*parsed(data)).illegal
    data["held"] = {"Dee": data["held"]["Dee"]}
    found = replay(*parsed(data)).illegal  # Bob's hand is not given, but every card he held is in the tricks
    assert [(i.trick, i.player, i.card, i.rule) for i in found] == [(i.trick, i.player, i.card, i.rule) for i in full]
    assert full and all("the tricks show what Bob held" in i.why for i in found if i.player == "Bob")


def test_off_suit_partner_is_the_same_colour() -> None:
    # the off-jack of each trump is the jack of the other suit of its colour (seed 000, seed 004)
    assert {t: PARTNER_SUIT[t] for t in SUITS} == {"S": "C", "C": "S", "H": "D", "D": "H"}
    assert all(R["seven-point"].views[t].suit["J" + PARTNER_SUIT[t]] == TRUMP for t in SUITS)
