"""Card tokens (spec section 1): every written form, the canonical output, and helpful errors."""

from __future__ import annotations

import pytest

from pitchkeeper.errors import PitchError
from pitchkeeper.game.cards import ALL_CARDS, parse_card, parse_cards, parse_suit, pretty


@pytest.mark.parametrize("text", ["10s", "Ts", "10♠", "t♤", "10S", "TS", " 10s "])
def test_every_form_of_the_ten_of_spades(text: str) -> None:
    assert parse_card(text) == "10S"


@pytest.mark.parametrize(("text", "card"), [
    ("as", "AS"), ("Kh", "KH"), ("q♦", "QD"), ("J♣", "JC"), ("2♢", "2D"), ("9♡", "9H"), ("3♧", "3C"),
    ("hj", "HJ"), ("LJ", "LJ"), ("jk", "JK"), ("♥️A", None),
])
def test_ranks_suits_and_jokers(text: str, card: str | None) -> None:
    if card is None:
        with pytest.raises(PitchError):
            parse_card(text)
    else:
        assert parse_card(text) == card


def test_canonical_output_round_trips_every_card() -> None:
    for card in ALL_CARDS:
        assert parse_card(card) == card
        assert parse_card(card.lower()) == card


@pytest.mark.parametrize(("text", "guess"), [("1OS", "10S"), ("IOH", "10H"), ("lOd", "10D"), ("10 S", "10S"),
                                             ("A-S", "AS")])
def test_a_mistyped_card_names_the_card_probably_meant(text: str, guess: str) -> None:
    with pytest.raises(PitchError) as e:
        parse_card(text)
    assert str(e.value) == f"'{text}' is not a card - did you mean {guess}?"


def test_a_card_with_nothing_close_explains_the_form() -> None:
    with pytest.raises(PitchError) as e:
        parse_card("banana")
    assert "'banana' is not a card" in str(e.value)
    assert "rank" in str(e.value)


def test_a_card_must_be_text() -> None:
    with pytest.raises(PitchError, match="not a card"):
        parse_card(10)


def test_cards_as_a_list_or_one_string() -> None:
    assert parse_cards(["as", "10h"]) == ("AS", "10H")
    assert parse_cards("as 10h, JK") == ("AS", "10H", "JK")


@pytest.mark.parametrize(("text", "suit"), [("S", "S"), ("spades", "S"), ("Hearts", "H"), ("♦", "D"), ("c", "C"),
                                            ("club", "C"), ("♤", "S"), ("sp", "S"), ("Diam", "D")])
def test_suits(text: str, suit: str) -> None:
    assert parse_suit(text) == suit


def test_a_bad_suit_suggests_one() -> None:
    with pytest.raises(PitchError, match="did you mean spades"):
        parse_suit("spdes")


def test_pretty_uses_suit_symbols() -> None:
    assert pretty("10S") == "10♠"
    assert pretty("HJ") == "HJ"
