"""Running `serve`: uvicorn on the socket the command opened, the console on a thread of its own, and the
open pages' event streams ended at once on Ctrl-C; and the QR code printed on the console."""

from __future__ import annotations

import socket
import sys
from collections.abc import Callable
from typing import Any, TextIO

import segno
import uvicorn

from pitchkeeper.web.console import console_logging


def serve_forever(web: Any, sock: socket.socket, close_streams: Callable[[], None]) -> None:
    """Serve `web` until Ctrl-C."""
    console = console_logging(sys.stderr)  # the server never waits for the console (web.console)
    config = uvicorn.Config(web, log_config=None, log_level="warning", access_log=False, timeout_graceful_shutdown=1,
                            lifespan="on", server_header=False)

    class Server(uvicorn.Server):
        def handle_exit(self, sig: int, frame: object) -> None:
            close_streams()  # end the open pages' event streams, so Ctrl-C stops at once
            super().handle_exit(sig, frame)  # type: ignore[arg-type]

    try:
        Server(config).run(sockets=[sock])
    finally:
        console.close()


def print_qr(url: str, out: TextIO) -> None:
    """The address as a QR code in the terminal, to scan from a phone."""
    segno.make(url, error="m").terminal(out=out, compact=True, border=2)
