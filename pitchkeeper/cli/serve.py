"""`pitchkeeper serve`: the match on the TV and every phone at the table (pitchkeeper.web).

The web stack (Starlette, uvicorn, Jinja2, segno) is imported inside the command only: `serve --help`
and the table commands never load it, and a missing install is one line, not a traceback.
"""

from __future__ import annotations

import socket
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from pitchkeeper.cli import MatchOpt, fail, topic
from pitchkeeper.logbook import paths, store

if TYPE_CHECKING:  # the web stack is loaded by the command itself, never on the way to it
    from pitchkeeper.web.keys import Keys

commands = topic()

LOOPBACK_HOSTS = ["127.0.0.1", "localhost", "::1", "[::1]"]
LOOPBACK_NAMES = ["127.0.0.1", "localhost", "::1"]


def _lan_address() -> str | None:
    """This machine's address on the local network (the route a packet would take; nothing is sent)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(("10.254.254.254", 1))
            ip = s.getsockname()[0]
        except OSError:
            ip = None
    if ip and not ip.startswith("127."):
        return ip
    try:
        ip = socket.gethostbyname(socket.gethostname())
    except OSError:
        return None
    return None if ip.startswith("127.") else ip


def _names(bind: str, lan_address: str | None) -> list[str]:
    """The Host names and addresses the server answers to (besides the address a connection came in
    on): this machine's loopback names; off loopback also its host name and the addresses it has."""
    names = list(LOOPBACK_NAMES)
    if bind in LOOPBACK_HOSTS:
        return names
    names += [n for n in (bind, lan_address) if n and n not in ("0.0.0.0", "::")]
    host = socket.gethostname()
    try:
        fqdn = socket.getfqdn()
    except OSError:
        fqdn = host
    names += [n for n in {host, fqdn, host.split(".")[0] + ".local"} if n and n != "localhost"]
    try:
        names += [str(a[4][0]).split("%")[0] for a in socket.getaddrinfo(host, None)]
    except OSError:
        pass
    return sorted(set(names))


def _check_pin(pin: str) -> str:
    if not (4 <= len(pin) <= 32) or not pin.isprintable() or any(c.isspace() for c in pin):
        fail("a PIN is 4 to 32 characters with no spaces")
    return pin


def _listen(host: str, port: int) -> socket.socket:
    """The listening socket. Made with the TCP protocol named, so that asyncio turns Nagle's algorithm
    off on each connection (it checks the protocol): else a kept-alive connection's answer waits for the
    phone's delayed acknowledgement."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    try:
        if sys.platform != "win32":
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host.strip("[]"), port))
        sock.listen(128)
    except OSError as e:
        sock.close()
        fail(f"cannot listen on {host}:{port}: {e.strerror or e}")
    return sock


def _url(host: str, port: int) -> str:
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"


@commands.command("serve")
def serve(
    match: MatchOpt = None,
    host: Annotated[str | None, typer.Option("--host", metavar="HOST", help="The address to listen on (default 127.0.0.1: this "
                                             "machine only).", show_default=False)] = None,
    port: Annotated[int, typer.Option("--port", "-p", min=0, max=65535, metavar="PORT",
                                      help="The port (0: any free one).")] = 8765,
    pin: Annotated[str | None, typer.Option("--pin", metavar="PIN", help="The PIN for writes, for this run (default: "
                                            "the table's, made once and kept in the data folder).",
                                            show_default=False)] = None,
    new_pin: Annotated[bool, typer.Option("--new-pin", help="Make the table a new PIN (every page signed in must "
                                          "enter it).")] = False,
    lan: Annotated[bool, typer.Option("--lan", help="Listen on the local network and print the address to "
                                      "open, with a QR code.")] = False,
    tournament: Annotated[Path | None, typer.Option("--tournament", "-t", metavar="FILE", help="Serve a club night: "
                                                    "the hall screen at /, each table's page at /table/T, the "
                                                    "organizer's at /organizer (--pin: the organizer's).",
                                                    show_default=False)] = None,
) -> None:
    """Serve the table: the scoreboard at /, hand entry for phones at /enter, JSON at /api.

    Without --match it serves the current match and follows the table to each next game (started from a
    phone, or with `new`, `new --rematch`, `use`); with --match, that one match. Reading needs nothing;
    every write needs the PIN: the table's, kept from one run to the next (a page that entered it stays
    signed in), until --new-pin. With --tournament FILE it serves a club night instead: every table reports
    from a phone with its own PIN (printed on its card by `tournament cards`), the hall screen follows the
    standings. Ctrl-C stops it.
    """
    try:
        import jinja2  # noqa: F401
        import segno  # noqa: F401
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError as e:  # pragma: no cover - they are dependencies; a broken install says how to mend it
        fail(f"serve needs the web packages ({e.name} is missing): pip install 'starlette>=0.40' 'uvicorn>=0.30' "
             "'jinja2>=3.1' 'segno>=1.6' (or reinstall pitchkeeper)")
    if pin is not None and new_pin:
        fail("--pin gives this run's PIN and --new-pin makes the table a new one: give one of them")
    if tournament is not None:
        if match is not None:
            fail("--tournament serves a night, --match one game: give one of them")
        _serve_night(tournament, host, port, pin, new_pin, lan)
        return
    _serve_table(match, host, port, pin, new_pin, lan)


def _serve_table(match: str | None, host: str | None, port: int, pin: str | None, new_pin: bool, lan: bool) -> None:
    """`serve` of a match (`match`), or of the table's current match followed to each next game (None)."""
    from pitchkeeper.web.app import create_app
    from pitchkeeper.web.guard import STRONG_ODDS, evening_guesses, odds, pin_shown
    from pitchkeeper.web.keys import table_keys
    from pitchkeeper.web.run import print_qr, serve_forever

    path = store.resolve_match_path(match)
    keys = table_keys(paths.data_dir(), renew=new_pin, keep_pin=pin is None)
    table_pin = _check_pin(pin) if pin is not None else keys.pin
    bind = host or ("0.0.0.0" if lan else "127.0.0.1")
    loopback = bind in LOOPBACK_HOSTS
    sock = _listen(bind, port)
    port = sock.getsockname()[1]
    shown = _lan_address() if bind in ("0.0.0.0", "::") else bind
    base = _url(shown or "127.0.0.1", port)
    entry_url = f"{base}/enter" if not loopback and shown else None  # the TV shows it, with a QR code to scan
    try:
        web = create_app(path, table_pin, allowed_hosts=_names(bind, shown), entry_url=entry_url, secret=keys.secret,
                         follow=match is None)  # no --match: the table's current match, followed to the next game
    except BaseException:  # a broken log stops here: let the port go
        sock.close()
        raise
    out = sys.stdout
    out.write(f"serving {path}\n")
    if match is None:
        out.write("  and each next game at this table (a phone's Next game, or new / use here)\n")
    out.write(f"  scoreboard  {base}/\n  enter hands {base}/enter\n")
    for note in keys.notes:
        out.write(f"  note: {note}\n")
    out.write(f"  PIN         {pin_shown(table_pin)}{_pin_origin(keys, given=pin is not None)}\n")
    if odds(table_pin) > STRONG_ODDS:
        out.write(f"  this PIN could be guessed: {evening_guesses():,} wrong PINs may be tried in an evening, a chance "
                  f"of 1 in {1 / odds(table_pin):,.0f}; leave --pin out for the table's ten-digit one\n")
    if loopback:
        out.write("  listening on this machine only; --lan lets the phones at the table in\n")
    elif shown is None:  # the local network (--lan, or a --host that is not this machine alone)
        out.write("  (no local network address found: is this machine on a network?)\n")
    else:
        out.write(f"\nopen on a phone (same Wi-Fi): {base}/enter\n")
        print_qr(f"{base}/enter", out)
    out.write("Ctrl-C stops.\n")
    out.flush()
    serve_forever(web, sock, web.state.site.hub.close_soon)


def _pin_origin(keys: Keys, given: bool) -> str:
    """Where the PIN printed comes from, so that the table knows whether a page signed in last time still is."""
    from pitchkeeper.web.keys import since_words

    if given:
        return "  (as given)"
    if not keys.kept:
        return "  (for this run only)"
    if keys.kept_since is None:
        return "  (new: the table's from now on; serve --new-pin makes another)"
    return f"  (the table's since {since_words(keys.kept_since)}; serve --new-pin makes another)"


def night_urls(bind: str, port: int) -> tuple[str, bool]:
    """The address phones open for a night (the table cards' QR codes), and whether it is on the network."""
    shown = _lan_address() if bind in ("0.0.0.0", "::") else bind
    if bind in LOOPBACK_HOSTS or shown is None:
        return _url("127.0.0.1" if bind in LOOPBACK_HOSTS or shown is None else bind, port), False
    return _url(shown, port), True


def _serve_night(file: Path, host: str | None, port: int, pin: str | None, new_pin: bool, lan: bool) -> None:
    """`serve --tournament FILE`: the night on this server (web.night_app)."""
    from pitchkeeper.tournament import book
    from pitchkeeper.web.guard import STRONG_ODDS, evening_guesses, odds, pin_shown
    from pitchkeeper.web.keys import night_keys
    from pitchkeeper.web.night_app import create_night_app
    from pitchkeeper.web.run import print_qr, serve_forever

    t = book.load(file)  # a missing or broken file: one line, exit 2, before anything listens
    keys = night_keys(paths.data_dir(), file, t.table_count, renew=new_pin)
    organizer = _check_pin(pin) if pin is not None else keys.organizer
    bind = host or ("0.0.0.0" if lan else "127.0.0.1")
    sock = _listen(bind, port)
    port = sock.getsockname()[1]
    base, on_lan = night_urls(bind, port)
    shown = _lan_address() if bind in ("0.0.0.0", "::") else bind
    try:
        web = create_night_app(file, organizer, keys.tables, allowed_hosts=_names(bind, shown), secret=keys.secret,
                               base_url=base)
    except BaseException:
        sock.close()
        raise
    out = sys.stdout
    out.write(f"serving the night of {file} ({t.format}, {len(t.players)} players, {t.table_count} tables)\n")
    out.write(f"  hall screen {base}/\n  organizer   {base}/organizer\n  each table  {base}/table/N\n")
    for note in keys.notes:
        out.write(f"  note: {note}\n")
    said = "  (as given)" if pin is not None else "  (the night's; serve --tournament FILE --new-pin makes new ones)"
    out.write(f"  organizer's PIN  {pin_shown(organizer)}{said}\n")
    out.write("  tables' PINs     " + ", ".join(f"{n}: {pin_shown(p)}" for n, p in sorted(keys.tables.items())) + "\n")
    if keys.made or new_pin:
        out.write(f"  new PINs: print the table cards with `pitchkeeper tournament cards {file} -o cards.html`\n")
    if odds(organizer) > STRONG_ODDS:
        out.write(f"  this PIN could be guessed: {evening_guesses():,} wrong PINs may be tried in an evening, a chance "
                  f"of 1 in {1 / odds(organizer):,.0f}; leave --pin out for the night's ten-digit one\n")
    if not on_lan:
        out.write("  listening on this machine only; --lan lets the tables' phones in\n")
    else:
        out.write(f"\nthe organizer's page on a phone (same Wi-Fi): {base}/organizer\n")
        print_qr(f"{base}/organizer", out)
    out.write("Ctrl-C stops.\n")
    out.flush()
    serve_forever(web, sock, web.state.night.close_soon)
