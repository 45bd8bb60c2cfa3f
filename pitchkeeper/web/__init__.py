"""`pitchkeeper serve`: the web front end (Starlette, Jinja2), a client of `Logbook` like the CLI.

Imported only by the `serve` command: nothing else may import this package.
"""
