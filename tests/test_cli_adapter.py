"""What pitchkeeper.cli.adapter (every use of Typer's and Click's insides) provides, checked through the
behaviour a person sees, so that a Typer release that moves its insides fails here, by name."""

from __future__ import annotations

import errno

import pytest
import typer
from typer.testing import CliRunner

from pitchkeeper import cli
from pitchkeeper.cli import adapter
from pitchkeeper.errors import PitchError

runner = CliRunner()


def small_app(exc: BaseException) -> typer.Typer:
    """A two-command CLI on the lazy group, whose `boom` raises `exc`."""
    app = typer.Typer(cls=adapter.LazyGroup, context_settings=adapter.CONTEXT, rich_markup_mode=None,
                      pretty_exceptions_enable=False)

    @app.command()
    def boom() -> None:
        """Raise."""
        raise exc

    @app.command()
    def calm() -> None:
        """Say so."""
        typer.echo("calm")

    return app


def test_click_exceptions_are_the_ones_click_raises() -> None:
    group = adapter.root_command(cli.app)
    with pytest.raises(adapter.UsageError) as e:
        group.main(["rules", "list", "--no-such-option"], prog_name="pitchkeeper", standalone_mode=False)
    assert isinstance(e.value, adapter.ClickException)
    assert "No such option: --no-such-option" in e.value.format_message()  # type: ignore[attr-defined]


def test_the_help_lists_commands_without_building_them_and_a_run_builds_only_its_own(
        capsys: pytest.CaptureFixture[str]) -> None:
    group = adapter.root_command(cli.app)
    group.main(["--help"], prog_name="pitchkeeper", standalone_mode=False)
    assert "Record a hand" in capsys.readouterr().out
    # the groups are made (a group is only its map), no command is built
    assert all(isinstance(c, adapter.LazyGroup) and c.commands == {} for c in group.commands.values())
    assert "status" not in group.commands
    ctx = group.make_context("pitchkeeper", ["status", "--help"], resilient_parsing=True)
    status = group.get_command(ctx, "status")
    assert status.name == "status" and [p.name for p in status.params if p.name == "match"] == ["match"]
    assert [n for n, c in group.commands.items() if not isinstance(c, adapter.LazyGroup)] == ["status"]
    assert group.get_command(ctx, "status") is status  # built once
    judge = group.get_command(ctx, "judge")
    assert isinstance(judge, adapter.LazyGroup) and judge.commands == {} and judge.list_commands(ctx) == [
        "hand", "match", "trick"]


def test_a_command_the_map_names_in_the_wrong_module_is_a_lookup_error() -> None:
    with pytest.raises(LookupError, match=r"pitchkeeper\.cli\.rules defines no command 'status'"):
        adapter.build("status", "rules")


@pytest.mark.parametrize(("args", "line"), [
    (["stauts"], "error: No such command 'stauts'. Did you mean 'stats', 'status'?\n"),
    (["judge", "hnd"], "error: judge: No such command 'hnd'. Did you mean 'hand'?\n"),
    (["rules", "list", "--bogus"], "error: rules list: No such option: --bogus\n"),
    (["judge", "trick", "-r", "seven-point", "-t", "S", "-c", "Ann:JC", "-3"],
     "error: judge trick: No such option: -3 (a negative number is read as an option; write -- before it)\n"),
])
def test_a_usage_error_is_one_line_naming_the_command(args: list[str], line: str) -> None:
    r = runner.invoke(cli.app, args)
    assert r.exit_code == 2 and r.stdout == ""
    assert r.stderr == line


def test_a_bare_group_answers_with_its_help() -> None:
    r = runner.invoke(cli.app, ["rules"])
    assert r.exit_code == 2 and "Usage:" in r.output and "explain" in r.output


def test_bad_input_is_one_line_and_exit_2() -> None:
    r = runner.invoke(small_app(PitchError("no such player 'Zed'", "--dealer")), ["boom"])
    assert r.exit_code == 2 and r.stderr == "error: --dealer: no such player 'Zed'\n"


def test_a_file_the_system_refuses_is_one_line_and_exit_2(tmp_path) -> None:
    where = tmp_path / "locked.toml"
    r = runner.invoke(small_app(PermissionError(errno.EACCES, "Permission denied", str(where))), ["boom"])
    assert r.exit_code == 2 and r.stderr == f"error: {where}: Permission denied\n"


def test_a_bug_is_one_line_exit_1_and_its_traceback_only_with_debug(monkeypatch: pytest.MonkeyPatch) -> None:
    app = small_app(KeyError("seat"))
    r = runner.invoke(app, ["boom"])
    assert r.exit_code == 1 and "Traceback" not in r.stderr
    assert r.stderr.startswith("error: internal error (a bug): KeyError: 'seat' - please report it")
    assert r.stderr.count("\n") == 1
    monkeypatch.setattr(adapter.Debug, "on", True)
    r = runner.invoke(app, ["boom"])
    assert r.exit_code == 1 and "Traceback" in r.stderr and r.stderr.endswith("please report it (see 'Reporting a "
                                                                               "bug' in the README: the command and "
                                                                               "its --debug output)\n")


def test_a_command_that_ends_well_exits_0() -> None:
    r = runner.invoke(small_app(RuntimeError()), ["calm"])
    assert r.exit_code == 0 and r.stdout == "calm\n"


def test_a_typo_among_a_small_apps_commands() -> None:
    r = runner.invoke(small_app(RuntimeError()), ["clam"])
    assert r.exit_code == 2 and "Did you mean 'calm'?" in r.stderr


def test_command_names_follow_typer() -> None:
    """A command registered without a name is run by its function's name, dashed."""
    names = {adapter.command_name(i) for m in ("table", "scores", "check") for i in adapter.registered(m)}
    assert {"new", "hand", "edit", "status", "history", "undo", "check"} == names
