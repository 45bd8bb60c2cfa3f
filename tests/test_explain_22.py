"""`rules explain` after issue 22: 27 disputes (32 topics, the digest's D19 misdeal and D22 bidding over a
partner included) answered from data for every built-in and every house file; each new setting changes the
answer it is about; the jokers' one-line rank names the right cards; the examples sit at a table the ruleset
allows."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pitchkeeper.cli import app
from pitchkeeper.game import rulesets
from pitchkeeper.game.cards import pretty
from pitchkeeper.game.deal import must_throw
from pitchkeeper.game.vocabulary import symbol_words
from pitchkeeper.words import disputes, explain

ROOT = Path(__file__).resolve().parent.parent
HOUSE = sorted((ROOT / "examples" / "house-rules").glob("*.toml"))
ALL = [*rulesets.builtin_names(), *(str(p) for p in HOUSE)]
runner = CliRunner()


def load(ref: str) -> rulesets.Ruleset:
    return rulesets.load(ref)


def house(tmp_path: Path, text: str, name: str = "house") -> rulesets.Ruleset:
    f = tmp_path / f"{name}.toml"
    f.write_text(text, encoding="utf-8")
    return rulesets.load(f)


def a_key(r: rulesets.Ruleset, key: str) -> bool:
    """A key an answer may say it is drawn from: a setting, a point of this ruleset, or one of its keys."""
    parts = key.split(".")
    if parts[0] == "points":
        return len(parts) == 1 or (parts[1] in r.by_id and (len(parts) == 2 or parts[2] in rulesets.point_fields()))
    return len(parts) == 2 and parts[1] in rulesets.SECTIONS.get(parts[0], {})


@pytest.mark.parametrize("ref", ALL, ids=lambda s: Path(s).stem)
def test_every_topic_answers_every_ruleset_from_keys_that_exist(ref: str) -> None:
    r = load(ref)
    answers = disputes.explain_all(r)
    assert len(answers) == 32
    for a in answers:
        assert a.summary and a.answer and a.example and a.question.endswith("?"), a.topic
        assert "\n" not in a.summary + a.example, a.topic
        assert "None" not in a.summary + a.answer + a.example, (a.topic, a.answer)  # no Python leaking into words
        bad = [k for k in a.keys if not a_key(r, k)]
        assert not bad, (a.topic, bad)


def test_the_27_disputes_are_each_answered_and_companions_share_a_number() -> None:
    numbers = [t.number for t in disputes.TOPICS]
    assert sorted(set(numbers)) == list(range(1, 28))
    assert numbers == sorted(numbers)  # ordered by dispute, companions right after their primary
    companions = {n: [t.id for t in disputes.TOPICS if t.number == n] for n in (3, 6, 8, 10)}
    assert companions == {3: ["follow", "trump-lead", "fold"], 6: ["high", "lone-trump"], 8: ["smudge", "jack-out"],
                          10: ["setback", "negative"]}
    new = ["kitty", "draw", "call-partner", "identical-jokers", "ten-for-game", "sandbagging", "count-down",
           "three-sets"]
    assert [disputes.find(t).number for t in new] == list(range(18, 26))


@pytest.mark.parametrize(("alias", "topic"), [
    ("widow", "kitty"), ("exchange", "draw"), ("Call Your Partner", "call-partner"), ("twin_jokers", "identical-jokers"),
    ("ten-of-trump", "ten-for-game"), ("sandbag", "sandbagging"), ("countdown", "count-down"),
    ("sets-out", "three-sets"), ("shoot", "smudge"),
])
def test_new_topics_are_found_by_their_aliases(alias: str, topic: str) -> None:
    assert disputes.find(alias).id == topic


# Each new setting, flipped in a house file, changes the answer that is about it (and `rules diff` shows it).
FLIPS = [
    ("cutthroat-pitch", "[partner]\ncounts = [5]\n", "call-partner", "partner"),
    ("call-partner-5", "[partner]\nmay_call = \"any\"\nfirst_trick = false\n", "call-partner", "partner"),
    ("call-partner-5", "[partner]\nunheld = \"redeal\"\n", "call-partner", "partner"),
    ("call-partner-5", "[partner]\nfirst_trick = false\n", "first-lead", "partner"),
    ("call-partner-5", "[partner]\ndefenders = \"each\"\n", "call-partner", "partner"),
    ("seven-point", "[trump]\nidentical_jokers = \"first-higher\"\n", "identical-jokers", "jokers-alike"),
    ("seven-point", "[trump]\nidentical_jokers = \"later-higher\"\n", "jokers", "jokers-alike"),
    ("trickster-4", "[kitty]\nsize = 3\n", "kitty", "kitty"),
    ("trickster-4-kitty", "[kitty]\ndiscard_counts = \"game\"\n", "kitty", "kitty"),
    ("seven-point", "[trump]\nset_by = \"named\"\n[draw]\ndiscard = \"any\"\n", "draw", "hand"),
    ("nine-card-pitch", "[draw]\nmost = 2\n", "draw", "hand"),
    ("trickster-10-draw", "[draw]\nrest = false\n", "draw", "hand"),
    ("call-partner-5", "[discard]\ntrumps = \"allowed\"\n", "draw", "discard-rule"),
    ("call-partner-5", "[discard]\npoint_trumps = true\n", "draw", "discard-rule"),
    ("seven-point", "[play]\nmust_trump = true\n", "follow", "follow"),
    ("trickster-4", "[bidding]\nforced_exact = true\n", "all-pass", "all-pass"),
    ("partnership-pitch", "[smudge]\nneeds = \"every-trick\"\n", "smudge", "smudge"),
    ("partnership-pitch", "[smudge]\nmade = \"win\"\n", "smudge", "smudge"),
    ("partnership-pitch", "[smudge]\nmade = \"points\"\nmade_points = 8\n", "smudge", "smudge"),
    ("partnership-pitch", "[smudge]\nset = \"lose\"\n", "setback", "smudge"),
    ("partnership-pitch", "[smudge]\nset = \"points\"\nset_points = 7\n", "smudge", "smudge"),
    ("partnership-pitch", "[smudge]\nin_the_hole = \"may-not\"\n", "smudge", "smudge"),
    ("moon-10", "[smudge]\nin_the_hole = \"may\"\n", "smudge", "smudge"),
    ("seven-point", "[win]\ndirection = \"down\"\n", "count-down", "target"),
    ("strict-follow", "[win]\nset_and_win = true\n", "defenders-win", "who-wins"),
    ("seven-point", "[win]\ndefenders_stop_short = true\n", "sandbagging", "who-wins"),
    ("seven-point", "[win]\ninstant = \"every-point\"\n", "both-over", "instant"),
    ("bicycle-smudge", "[win]\ninstant_by = \"bidder\"\n", "both-over", "instant"),
    ("seven-point", "[win]\nsets_out = 3\n", "three-sets", "sets-out"),
    ("seven-point", "[points.low]\nnatural = true\n", "low", "low"),
    ("seven-point", "[points.game]\ntie = \"bidder\"\n", "game-tie", "game"),
    ("two-hand-elder-tie", "[points.game]\ntie = \"nobody\"\n", "game-tie", "game"),
]


def base_ref(name: str) -> str:
    path = ROOT / "examples" / "house-rules" / f"{name}.toml"
    return str(path) if path.exists() else name


@pytest.mark.parametrize(("base", "change", "topic", "described"), FLIPS,
                         ids=[f"{b}:{c.split(chr(10))[1].split(' ')[0]}" for b, c, _, _ in FLIPS])
def test_each_new_setting_changes_its_answer_and_its_words(tmp_path: Path, base: str, change: str, topic: str,
                                                           described: str) -> None:
    before = load(base_ref(base))
    after = house(tmp_path, f'extends = {json.dumps(base_ref(base))}\n{change}')
    a, b = disputes.explain(before, topic), disputes.explain(after, topic)
    assert (a.summary, a.answer, a.example) != (b.summary, b.answer, b.example)
    sections = [line.strip("[]") for line in change.splitlines() if line.startswith("[")]
    assert any(k.startswith(s) for k in a.keys + b.keys for s in sections), (a.keys, b.keys)  # it says what it reads
    rows = explain.diff(before, after)
    assert described in [t for t, _, _ in rows], rows


# ---------------------------------------------------------------------------
# Answers worked out from the rules layer


def test_jokers_summary_names_the_card_below_the_lower_joker() -> None:
    for ref in ALL:
        r = load(ref)
        order = r.settings["trump"]["order"]
        jokers = [s for s in order if s in ("HJ", "LJ", "JK")]
        if len(jokers) != 2:
            continue
        summary = disputes.explain(r, "jokers").summary
        below = order.index(jokers[-1]) + 1
        if below < len(order):
            assert f"above {symbol_words(order[below])}" in summary, (ref, summary)
        assert "above the low joker" not in summary  # the old bug: the pair placed by the first joker alone


@pytest.mark.parametrize(("ref", "summary"), [
    ("seven-point", "HJ, LJ: always trumps, HJ over LJ, both below the off-jack and above the ten of trumps"),
    ("trickster-10", "HJ, LJ: always trumps, HJ over LJ, both below the off-jack and above the ten of trumps"),
    ("trickster-6", "JK: always trumps, below the off-jack and above the ten of trumps"),
    ("bicycle-auction-pitch-joker", "JK: always trumps, the lowest trump, below the two of trumps"),
    ("smear-jick", "two look-alike jokers: always trumps, both below the off-jack and above the ten of trumps; "
                   "of two in one trick the later played wins"),
])
def test_jokers_summary(ref: str, summary: str) -> None:
    assert disputes.explain(load(base_ref(ref)), "jokers").summary == summary


def test_jokers_apart_are_placed_each_on_its_own(tmp_path: Path) -> None:
    r = house(tmp_path, 'extends = "seven-point"\n[trump]\norder = ["HJ", "A", "K", "Q", "J", "off-J", "10", "9", "8", '
                        '"7", "6", "5", "4", "3", "2", "LJ"]\n')
    assert disputes.explain(r, "jokers").summary == ("HJ, LJ: always trumps; HJ the highest trump, above the ace of "
                                                     "trumps; LJ the lowest trump, below the two of trumps")


def test_the_low_sentence_names_which_jokers_never_count_as_low(tmp_path: Path) -> None:
    some = house(tmp_path, 'extends = "seven-point"\n[points.low]\nskip = ["HJ"]\n')
    a = disputes.explain(some, "jokers").answer
    assert "The high joker never counts as low (points.low.skip); the low joker can be low only when" in a
    natural = disputes.explain(load(base_ref("smear-jick")), "jokers").answer
    assert "A joker never counts as low (points.low.natural)." in natural


def test_must_trump_is_worked_out_by_the_play_model() -> None:
    a = disputes.explain(load(base_ref("strict-follow")), "follow")
    assert a.summary == "no: follow suit when able; trump only when out of the suit led, and then trump if able"
    assert a.example.endswith("holding 2♠, 2♦, 3♦, with no heart, must play 2♠")


def test_the_called_card_leads_the_first_trick() -> None:
    a = disputes.explain(load(base_ref("call-partner-5")), "first-lead")
    assert a.summary.endswith("; the called card must be played to the first trick")
    assert a.example.endswith("Ann called A♠: Cy, holding A♠, 2♥, must play A♠ to trick 1")


def test_call_partner_example_shares_the_points_per_player() -> None:
    a = disputes.explain(load(base_ref("call-partner-5")), "call-partner")
    assert a.example == ("five players: Ann bids 5 and calls A♠; Cy holds it: Ann and Cy against Bob, Dee and Eve; "
                         "they take 6: Ann +6, Cy +6; Bob, Dee and Eve took 4 together: +4 each")
    assert "each lose the bid when set" in a.answer and "plays alone against all the others" in a.answer


def test_kitty_example_lays_away_by_the_lay_away_rules() -> None:
    a = disputes.explain(load(base_ref("widow-counts-for-game")), "kitty")
    assert a.summary == "4 cards to the bidder, who lays away 4; they count for game"
    assert a.example.endswith("they count for game to Us (10)") and "10♥" in a.example.split("lays away")[1]
    mn = disputes.explain(load(base_ref("minnesota-smear")), "kitty")
    laid = mn.example.split("lays away ")[1].split(";")[0].split()
    assert len(laid) == 7 and all("♠" not in c for c in laid)  # nine and four, down to six: non-trumps go first


def test_draw_example_throws_what_must_throw_says() -> None:
    r = load(base_ref("ten-point-pitch"))
    a = disputes.explain(r, "draw")
    held = a.example.split("holds ")[1].split(":")[0]
    thrown = a.example.split("throws ")[1].split(" and")[0]
    cards = {pretty(c): c for c in r.deck}
    holding = [cards[c] for c in held.split()]
    assert [pretty(c) for c in must_throw(r, r.views["S"], holding)] == thrown.split()
    assert a.summary == "after trump, every non-trump is thrown and hands refilled to 6; the bidder takes the rest"


def test_identical_jokers_answers() -> None:
    assert disputes.explain(load("seven-point"), "identical-jokers").example.endswith("HJ wins")
    assert disputes.explain(load(base_ref("smear-jick")), "identical-jokers").example.endswith("LJ, played later, wins")
    assert disputes.explain(load("trickster-6"), "identical-jokers").summary == "one joker: nothing to tell apart"
    assert disputes.explain(load("trickster-4"), "identical-jokers").summary.startswith("does not arise")


def test_ten_for_game_reads_the_catalogue() -> None:
    assert disputes.explain(load("seven-point"), "ten").summary == "game is a point; the ten counts 10 toward it"
    assert disputes.explain(load(base_ref("ten-for-game")), "ten").summary == (
        "no game point: the ten of trumps scores 1 to whoever captures it instead")


def test_count_down_and_three_sets_examples() -> None:
    a = disputes.explain(load(base_ref("nine-card-pitch")), "count-down")
    assert a.example == "Us on 21 bid 3 and made it: Us on 18; Them bid 3 and were set: Them on 24"
    assert disputes.explain(load(base_ref("nine-card-pitch")), "reach").summary == "reach: 0 is enough"
    t = disputes.explain(load(base_ref("three-sets-out")), "three-sets")
    assert t.summary == "yes: a side set 3 times is out; with two sides the other wins at once"


def test_sandbagging_follows_who_may_win() -> None:
    assert disputes.explain(load("seven-point"), "sandbagging").summary == "yes: a side that passes can win on defence"
    assert disputes.explain(load(base_ref("set-and-win")), "sandbagging").summary == (
        "no: only the bidding side can win, and only having made its bid; except by setting the bidder")


def test_the_moon_needs_and_pays_what_its_settings_say() -> None:
    a = disputes.explain(load(base_ref("moon-10")), "smudge")
    assert a.summary == "a bid worth 11: it needs every point; made, it wins the game at once (a side in the hole " \
                        "goes to 0 instead)"
    assert "set, it loses the game" in a.answer
    jack = disputes.explain(load(base_ref("moon-10")), "jack-out")
    assert "A moon needs every point of the 10, so it cannot be made" in jack.answer


# ---------------------------------------------------------------------------
# Table shapes in the examples


@pytest.mark.parametrize(("ref", "words"), [
    ("seven-point", "low goes to Ann's side (Us)"),
    ("schmier", "low goes to Ann's side (Us)"),
    ("call-partner-5", "the point goes to Ann's side (Ann+Cy)"),
    ("two-hand-elder-tie", "low goes to Ann"),
])
def test_examples_use_a_table_the_ruleset_allows(ref: str, words: str) -> None:
    assert disputes.explain(load(base_ref(ref)), "low").example.endswith(words)


def test_all_pass_names_the_players_of_the_table() -> None:
    assert disputes.explain(load(base_ref("two-hand-elder-tie")), "all-pass").example.startswith(
        "Bob passes: Ann, the dealer, must bid 2 or more")
    assert disputes.explain(load("cutthroat-pitch"), "all-pass").example.startswith("Bob and Cy pass: Ann, the dealer")
    assert disputes.explain(load(base_ref("stuck-dealer-exactly")), "all-pass").summary == (
        "the dealer is stuck and must bid exactly 2")


def test_cli_lists_thirty_topics_with_their_numbers() -> None:
    r = runner.invoke(app, ["rules", "explain", "--rules", base_ref("call-partner-5"), "--json"])
    topics = json.loads(r.stdout)["topics"]
    assert len(topics) == 32 and sorted({t["number"] for t in topics}) == list(range(1, 28))
    one = json.loads(runner.invoke(app, ["rules", "explain", "widow", "--rules", base_ref("minnesota-smear"),
                                         "--json"]).stdout)
    assert one["topic"] == "kitty" and one["number"] == 18 and "kitty.size" in one["from"]
