"""The version of a kept file: a digest of its bytes, which changes with every write, whoever wrote.

serve wakes its pages on it and a versioned write (`expect=`) is refused when the file moved on, so it is a
blake2b digest, which a person holding the file cannot forge to a collision (two checksums could be: a page
would stay stale). A module of its own, imported by the code that asks for a version (a Logbook's reading,
a versioned write, serve, a tournament): a command line that writes a log under its lock asks for none, and
loads neither it nor hashlib (and the OpenSSL that hashlib loads).
"""

from __future__ import annotations

import hashlib


def version_of(data: bytes) -> str:
    """`Logbook.version` of a log's bytes."""
    return hashlib.blake2b(data, digest_size=12).hexdigest()
