"""Helpers for the tests of a club night's pages over HTTP (no JavaScript): a phone that keeps its cookies
and posts its forms with the page's token, a night of twelve players seated for its first round, and a
table's phone signed in with its PIN."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from serving import Api
from test_serve_pages import messages, token

from pitchkeeper.tournament import book

ORGANIZER = "8642097531"
PINS = {1: "1111111111", 2: "2222222222", 3: "3333333333"}
PLAYERS = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ian", "Jo", "Kim", "Lou"]


class Browser:
    """One phone: its cookies, the page it shows, its forms posted with the page's token. Closed on
    leaving a `with` block."""

    def __init__(self, app: Any) -> None:
        self.api = Api(app)
        self.page = ""

    def __enter__(self) -> Browser:
        return self

    def __exit__(self, *exc: object) -> None:
        self.api.close()

    def get(self, url: str) -> Any:
        r = self.api("GET", url)
        self.page = r.text
        return r

    def post(self, url: str, fields: dict[str, str], **headers: str) -> Any:
        r = self.api("POST", url, data={"csrf": token(self.page), **fields}, headers=headers)
        while r.status_code == 303:
            r = self.api("GET", r.headers["location"])
        self.page = r.text
        return r


def new_night(folder: Path, title: str) -> Path:
    """A progressive night of partnership pitch for PLAYERS, three rounds, its first round seated."""
    p = folder / "night.toml"
    book.create(p, "partnership-pitch", "progressive", PLAYERS, rounds=3, title=title)
    book.seat(p)
    return p


def signed_in(b: Browser, table: int, pin: str | None = None) -> Browser:
    b.get(f"/table/{table}")
    r = b.post(f"/table/{table}/pin", {"pin": pin or PINS[table]})
    assert r.status_code == 200 and 'id="hand-form"' in r.text, messages(r.text)
    return b


def sides_of(path: Path, table: int) -> list[str]:
    cur = book.load(path).current
    assert cur is not None
    return ["&".join(s) for s in cur.tables[table - 1].sides]
