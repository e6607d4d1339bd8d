"""Names that look the same without being the same: UTS #39 skeletons.

A room tells its players apart by name, at the table, in the ledger and in the
exports.  The cleaner (scorer/clean/text.py) refuses what shows as nothing; what is left
can still look alike: Latin "o" and Cyrillic "о", "Ｂｏｂ" typed full-width and "Bob",
"1" and "l".  Unicode's answer is the skeleton of UTS #39 ("Confusable Detection"):
two strings are confusable when their skeletons are equal, the skeleton being the
text decomposed (NFD), each character replaced by its prototype in confusables.txt,
and decomposed again.  Two steps come first:

* the default-ignorable characters (scorer/clean/unicode_tables.py) are dropped, as
  UTS #39 itself does from Unicode 15.1: "❤️" (with U+FE0F) and "❤" are compared
  as one name;
* compatibility forms are folded (NFKC): confusables.txt leaves most of them to
  NFKC (it maps full-width "Ａ" and "ｏ", not "ｂ"), and "Ｂｏｂ" typed on a Chinese
  keyboard's full-width setting is "Bob".

Neither package on PyPI computes this skeleton: `confusable-homoglyphs` 3.3.1 tells
whether one string mixes scripts or holds characters confusable with another
script's, and `confusables` 1.2.0 compares two strings greedily against a two-way
map of its own (Unicode 13.0, with additions such as "a" → "@") and lowercases;
neither maps a string to its prototype.  So the mapping is kept in the repository,
for the Unicode version `unicodedata` uses (scorer/clean/data/confusables.txt, made by
tools/unicode_tables.py), and the skeleton is these few lines.
"""

from __future__ import annotations

import functools
import unicodedata
from pathlib import Path

from scorer.clean import unicode_tables
from scorer.clean.text import invisible

DATA = Path(__file__).resolve().parent / "data" / "confusables.txt"


@functools.cache
def prototypes() -> dict[str, str]:
    """Each confusable character's prototype (read once, on first use)."""
    lines = DATA.read_text(encoding="utf-8").splitlines()
    if f"Unicode {unicode_tables.UNICODE_VERSION}," not in lines[0]:
        raise RuntimeError(f"{DATA} is not of Unicode {unicode_tables.UNICODE_VERSION}")
    table = {}
    for line in lines:
        if line and not line.startswith("#"):
            source, target = line.split("\t")
            table[chr(int(source, 16))] = "".join(chr(int(t, 16)) for t in target.split())
    return table


@functools.lru_cache(maxsize=8192)
def skeleton(name: str) -> str:
    """`name`'s UTS #39 skeleton: equal for two names that look the same."""
    table = prototypes()
    text = unicodedata.normalize("NFKC", "".join(c for c in name if not invisible(c)))
    text = unicodedata.normalize("NFD", text)
    return unicodedata.normalize("NFD", "".join(table.get(c, c) for c in text))


def looks_like(a: str, b: str) -> bool:
    """Whether two different names look the same."""
    return a != b and skeleton(a) == skeleton(b)


__all__ = ["looks_like", "prototypes", "skeleton"]
