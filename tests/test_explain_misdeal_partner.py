"""The digest's D19 (misdeal: who deals again?) and D22 (may you bid over your own partner?) answered by
`rules explain` from two settings, deck.misdeal and bidding.over_partner, each changing its answer, and the
auction refusing a bid over a partner where the ruleset forbids it (outside test F6)."""

from __future__ import annotations

import json

import pytest
from helpers import variant
from typer.testing import CliRunner

from pitchkeeper.cli import app
from pitchkeeper.errors import PitchError
from pitchkeeper.game import bidding, records
from pitchkeeper.words import disputes


def run(*args: str) -> tuple[int, str]:
    r = CliRunner().invoke(app, list(args))
    return r.exit_code, r.output


@pytest.mark.parametrize("words", ["misdeal", "Misdeal", "deal again", "redeal"])
def test_misdeal_is_a_topic_by_its_names(words: str) -> None:
    code, out = run("rules", "explain", words, "--rules", "seven-point")
    assert code == 0, out
    text = " ".join(out.split())
    assert "misdeal" in text.lower() and "Ann deals again" in text and "deck.misdeal" in text


def test_who_deals_after_a_misdeal_follows_deck_misdeal() -> None:
    same = disputes.explain(variant("seven-point"), "misdeal")
    nxt = disputes.explain(variant("seven-point", deck={"misdeal": "next-dealer"}), "misdeal")
    assert "same dealer" in same.answer and same.example.endswith("Ann deals again")
    assert "next player" in nxt.answer and nxt.example.endswith("Bob deals again")
    assert same.keys == nxt.keys == ("deck.misdeal",)


def test_bidding_over_a_partner_follows_bidding_over_partner() -> None:
    code, out = run("rules", "explain", "bid over partner", "--rules", "partnership-pitch", "--json")
    assert code == 0, out
    yes = json.loads(out)
    assert yes["dispute"] == "D22" and yes["answer"].startswith("Yes") and yes["from"] == ["bidding.over_partner"]
    no = disputes.explain(variant("partnership-pitch", bidding={"over_partner": False}), "over-partner")
    assert no.answer.startswith("No") and "must pass" in no.example
    alone = disputes.explain(variant("cutthroat-pitch"), "over-partner")
    assert "no partner" in alone.answer


def test_the_auction_refuses_a_bid_over_a_partner_only_where_the_rules_forbid_it() -> None:
    table = records.parse_table({"players": ["Ann", "Bob", "Cy", "Dee"],
                                 "teams": {"Us": ["Ann", "Cy"], "Them": ["Bob", "Dee"]}})
    calls = [("Ann", 2), ("Bob", "pass"), ("Cy", 3)]  # Dee dealt: Ann speaks first; Cy is Ann's partner
    assert bidding.Auction.of(variant("partnership-pitch"), table, "Dee", calls).high.player == "Cy"
    strict = variant("partnership-pitch", bidding={"over_partner": False})
    with pytest.raises(PitchError, match="Cy may not bid over Ann, Cy's partner") as e:
        bidding.Auction.of(strict, table, "Dee", calls)
    assert e.value.where == "auction[3]"
    assert bidding.Auction.of(strict, table, "Dee", [("Ann", 2), ("Bob", 3), ("Cy", 4)]).high.player == "Cy"
