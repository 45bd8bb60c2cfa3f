"""Stands in for Cython's `cython` module where Cython is not installed.

game.search is written in Cython's pure-Python mode: plain Python whose annotations Cython reads to
compile it. Without Cython (and so without the compiled build) it runs as the Python it is, and every
declaration here is a no-op: a type is a marker (`cython.int[9]` included), a decorator returns what
it decorates.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

compiled = False


class _Type:
    """A C type named in an annotation: subscripted for an array, called for a cast."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __getitem__(self, size: Any) -> _Type:
        return self

    def __call__(self, value: Any) -> Any:
        return value

    def __repr__(self) -> str:
        return f"cython.{self.name}"


int = _Type("int")  # (the names are Cython's)
bint = _Type("bint")
longlong = _Type("longlong")
ulonglong = _Type("ulonglong")
uchar = _Type("uchar")
void = _Type("void")


def _same(f: Any) -> Any:
    return f


cclass = cfunc = ccall = final = _same


def locals(**types: Any) -> Callable[[Any], Any]:
    return _same


def boundscheck(flag: bool) -> Callable[[Any], Any]:
    return _same


wraparound = boundscheck


def exceptval(value: Any = None, check: bool = True) -> Callable[[Any], Any]:
    return _same


def declare(type: Any, value: Any = None) -> Any:
    """A C variable declared with its value: the value."""
    return value


def pointer(type: Any) -> Any:
    """A C pointer type: a marker, as a type is."""
    return type
