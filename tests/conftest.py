"""Shared fixtures: no test ever touches the real user data directory.

What the tests share is written once in plain modules beside them (imported by name; pytest collects
only test_*.py): helpers (a ruleset variant, a record changed), house_games (the house-rule games and
the CLI runner), serving (the in-process client, the offjack table and its taps, a real uvicorn server),
nights (a club night's pages as a phone without JavaScript), processes (`serve` in its own process and
headless Chromium, for the benchmarks too), browsing (the browser tier's page helpers), attacking (raw
HTTP against a real serve), and the independent references the tests check the engine against:
solver_ref (a brute-force minimax) and night_ref (the tournament rules)."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "data"


@pytest.fixture(autouse=True)
def _home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "pitchkeeper-home"
    monkeypatch.setenv("PITCHKEEPER_HOME", str(home))
    monkeypatch.setenv("NO_COLOR", "1")
    return home


# The layer of each test file (pyproject.toml registers the markers): `python -m pytest -m unit` runs the
# domain alone in seconds while editing game/; `-m "not slow"` leaves out whole games, heavy properties,
# many subprocesses and serve. A new test file gets its layer here (collection stops until it has one).
LAYERS = {
    "unit": ("test_ansi", "test_auction_taps", "test_bid_answers", "test_bidding", "test_cards",
             "test_count_down", "test_deal", "test_entry_agreement", "test_follow_judged", "test_guard",
             "test_layers", "test_match_early", "test_match_end", "test_match_rules_22", "test_notes", "test_partners",
             "test_play",
             "test_play_properties", "test_point_kinds", "test_rulesets", "test_scoring", "test_smudge",
             "test_standings", "test_tournament"),
    "cli": ("test_answer_every_point", "test_api", "test_api_arguments", "test_bid_names", "test_chart",
            "test_cli_adapter", "test_cli_wording_19", "test_entry", "test_entry_22", "test_entry_wording",
            "test_evening_cli", "test_explain", "test_explain_22", "test_explain_misdeal_partner",
            "test_export", "test_export_22", "test_final_cli", "test_front_call_partner", "test_history_widths",
            "test_house_rules", "test_illegal_plays", "test_judge_cli", "test_loader",
            "test_loader_play_digest", "test_log_index", "test_log_safety", "test_log_shapes",
            "test_match_cli", "test_narrow_screens", "test_odds_errors", "test_play_cli", "test_ratings",
            "test_rules_words_22", "test_scoreboard", "test_stats", "test_stats_22", "test_store",
            "test_table_play", "test_table_screens", "test_tournament_cli", "test_trick_entry",
            "test_wide_names", "test_windows"),
    "slow": ("test_adversarial", "test_analyse", "test_api_property", "test_api_words", "test_at_a_terminal",
             "test_cli_docs", "test_cli_surface", "test_log_files", "test_match_property", "test_night_api",
             "test_night_cli", "test_night_mending", "test_night_pages", "test_odds_layouts", "test_page_answers",
             "test_play_auction_terminal", "test_final_terminal", "test_properties", "test_properties_22",
             "test_serve_analysis",
             "test_serve_api", "test_serve_attacks", "test_serve_call_partner", "test_serve_cli", "test_serve_keys",
             "test_serve_odds", "test_serve_pages", "test_serve_table", "test_serve_tricks", "test_solver",
             "test_web_mending",
             "test_solver_compiled", "test_solver_house", "test_terminal_house_rules", "test_whole_games"),
    "browser": ("test_analysis_browser", "test_browser", "test_browser_call_partner", "test_evening_browser",
                "test_night_browser", "test_night_phones_browser", "test_serve_browser", "test_serve_layout",
                "test_web_mending_browser"),
}
LAYER_OF = {name: layer for layer, names in LAYERS.items() for name in names}


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        name = item.path.stem
        if name not in LAYER_OF:
            raise pytest.UsageError(f"tests/{item.path.name} has no layer: add it to LAYERS in tests/conftest.py")
        item.add_marker(LAYER_OF[name])
