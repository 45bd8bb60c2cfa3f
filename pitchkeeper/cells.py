"""How wide text is on a terminal, in cells: what every column, padding and line break measures.

A name such as 李雷 takes four cells, not two; Zoë written with a combining diaeresis takes three, not
four; an emoji takes two, whatever joiners, skin tones or presentation selectors follow it. Text is
measured in grapheme clusters (a base character and the marks, joiners and selectors that belong to
it), as Rich measures it (rich.cells.cell_len is the reference the tests compare with), from the
standard library's Unicode tables.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator
from functools import lru_cache

ZWJ = "\u200d"
VS16 = "\ufe0f"  # "show the character before as an emoji": two cells
SOFT_HYPHEN = "\xad"  # a format character that terminals show (Rich counts it as one cell)


def _regional(ch: str) -> bool:
    return "\U0001f1e6" <= ch <= "\U0001f1ff"  # the letters that pair into a flag


@lru_cache(maxsize=4096)
def char_width(ch: str) -> int:
    """One code point alone: 0 (a mark, a format or control character, a skin tone), 2 (East Asian wide or
    fullwidth), else 1."""
    if ch == SOFT_HYPHEN:
        return 1
    if unicodedata.combining(ch) or unicodedata.category(ch) in ("Mn", "Me", "Mc", "Cf", "Cc"):
        return 0
    if "\u1160" <= ch <= "\u11ff":  # Hangul vowels and finals that follow a leading consonant
        return 0
    if "\U0001f3fb" <= ch <= "\U0001f3ff":  # a skin tone: part of the emoji before it
        return 0
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


def _extends(ch: str) -> bool:
    """Does `ch` belong to the cluster before it (a mark, a selector, a joiner, a skin tone, a tag)?"""
    return char_width(ch) == 0 and ch != SOFT_HYPHEN


def graphemes(text: str) -> Iterator[str]:
    """The text as the clusters a terminal draws as one: "e" + combining diaeresis, an emoji with its
    joiners and modifiers, a flag (two regional letters). Well-formed text is what this is for: a joiner
    between two letters, or a selector after a symbol that has no emoji form, may be measured otherwise
    than Rich measures it."""
    cluster = ""
    for ch in text:
        if cluster and (_extends(ch) or (cluster.endswith(ZWJ) and unicodedata.category(cluster[0]) == "So")
                        or (_regional(ch) and len(cluster) == 1 and _regional(cluster))):
            cluster += ch
            continue
        if cluster:
            yield cluster
        cluster = ch
    if cluster:
        yield cluster


def cluster_width(cluster: str) -> int:
    base = char_width(cluster[0]) if cluster else 0
    if len(cluster) > 1 and _regional(cluster[0]) and _regional(cluster[1]):
        return 2  # a flag
    if base == 1 and VS16 in cluster and (unicodedata.category(cluster[0]) == "So" or cluster[0] in "#*0123456789"):
        return 2  # a symbol shown as an emoji (❤️, #️⃣)
    return base


@lru_cache(maxsize=4096)
def _cell_len(text: str) -> int:
    if ZWJ not in text and VS16 not in text:
        # Only a joiner or an emoji selector makes a cluster other than its characters' widths added up (a mark
        # or a skin tone is 0 cells, a flag's two letters 1 each): without them, the characters are summed.
        return sum(map(char_width, text))
    return sum(cluster_width(c) for c in graphemes(text))


def cell_len(text: str) -> int:
    """The cells `text` takes on one line of a terminal."""
    if text.isascii():  # one cell a character, but for the controls (none in the usual line: counted at once)
        return len(text) if text.isprintable() else sum(1 for ch in text if " " <= ch <= "~")
    return _cell_len(text)


def ljust(text: str, width: int) -> str:
    """`text` padded with spaces to `width` cells (str.ljust counts characters)."""
    return text + " " * max(0, width - cell_len(text))


def rjust(text: str, width: int) -> str:
    return " " * max(0, width - cell_len(text)) + text


def cut(text: str, width: int, tail: str = "...") -> str:
    """`text` in at most `width` cells: cut between clusters, with `tail` where it was cut."""
    if cell_len(text) <= width:
        return text
    room, out = width - cell_len(tail), ""
    for c in graphemes(text):
        w = cluster_width(c)
        if w > room:
            break
        out, room = out + c, room - w
    return out + tail


def wrap_cells(text: str, width: int) -> list[str]:
    """`text` broken at spaces into lines of at most `width` cells; a word wider than a line is cut between
    its clusters (as textwrap.wrap breaks long words). No line holds a leading or trailing space."""
    lines: list[str] = []
    line = ""
    for word in text.split():
        while cell_len(word) > width:
            if line:
                lines.append(line)
                line = ""
            head, room = "", width
            clusters = list(graphemes(word))
            while clusters and cluster_width(clusters[0]) <= room:
                room -= cluster_width(clusters[0])
                head += clusters.pop(0)
            if not head:  # a cluster wider than the line: alone on a line of its own
                head = clusters.pop(0)
            lines.append(head)
            word = "".join(clusters)
        if not word:
            continue
        if line and cell_len(line) + 1 + cell_len(word) <= width:
            line += " " + word
        else:
            if line:
                lines.append(line)
            line = word
    if line:
        lines.append(line)
    return lines
