"""`pitchkeeper serve`: the web front end (Starlette, Jinja2), a client of `Logbook` and of the tournament
library like the CLI: the table (a match, then the next) and the club night (`serve --tournament`).

Imported only by the `serve` command, and by `tournament cards` for the night's kept PINs and the QR codes
it prints on the cards: nothing else may import this package.
"""
