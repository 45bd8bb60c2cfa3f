"""The console script. It marks the CLI as lazy before loading it, so that `cli.main` loads only
the area of the CLI that the command line runs (every command module costs start-up time)."""

from __future__ import annotations


def main() -> None:
    import pitchkeeper

    pitchkeeper.LAZY_CLI = True
    from pitchkeeper import cli

    cli.main()
