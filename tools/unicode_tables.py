"""python -m tools.unicode_tables DIR: rebuild the Unicode tables the text cleaner and
the look-alike check use (scorer/clean/unicode_tables.py, scorer/clean/data/confusables.txt) from
Unicode's own files for one version, laid in DIR:

* DerivedCoreProperties.txt (the UCD): Default_Ignorable_Code_Point;
* emoji-data.txt and emoji-variation-sequences.txt (the UCD's emoji/ folder):
  Extended_Pictographic, Emoji_Modifier, and the characters that take U+FE0E/U+FE0F;
* confusables.txt (UTS #39's security/ folder): the prototype of each confusable.

Python's `unicodedata` has none of these, and the app never reads anything from
outside the repository, so the tables are kept here, each pinned to the Unicode
version of the `unicodedata` it runs with (`unicodedata.unidata_version`): the
cleaner reads categories from one and the tables from the other, and the two must
describe the same characters.  tests/scorer/test_unicode_tables.py fails when Python's
version moves away from the pinned one; then fetch that version's four files (from
https://www.unicode.org/Public/<version>/ucd/ and .../security/<version>/), run this
again and read the diff.  Nothing is downloaded here: the files are given.
"""

from __future__ import annotations

import re
import sys
import unicodedata
from collections.abc import Iterable, Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TABLES = ROOT / "scorer" / "clean" / "unicode_tables.py"
CONFUSABLES = ROOT / "scorer" / "clean" / "data" / "confusables.txt"

_RANGE = re.compile(r"^([0-9A-F]{4,6})(?:\.\.([0-9A-F]{4,6}))?\s*;\s*([A-Za-z_]+)\s*#\s*(.*)$")


def version_of(text: str, name: str) -> str:
    """The Unicode version a file says it is of (its header), e.g. "14.0.0"."""
    found = re.search(r"^# (?:Version: |\S*-)(\d+\.\d+\.\d+)", text, re.M)
    if found is None:
        raise SystemExit(f"{name}: no version in its header")
    return found.group(1)


def property_ranges(text: str, prop: str) -> list[tuple[int, int, str]]:
    """(first, last, the file's comment) of each line giving `prop`, in code point order."""
    found = []
    for line in text.splitlines():
        m = _RANGE.match(line)
        if m and m.group(3) == prop:
            first = int(m.group(1), 16)
            last = int(m.group(2) or m.group(1), 16)
            found.append((first, last, " ".join(m.group(4).split())))
    return sorted(found)


def merged(ranges: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
    """Ranges in order, touching ones joined."""
    out: list[tuple[int, int]] = []
    for first, last in sorted(ranges):
        if out and first <= out[-1][1] + 1:
            out[-1] = (out[-1][0], max(last, out[-1][1]))
        else:
            out.append((first, last))
    return out


def variation_bases(text: str) -> list[int]:
    """The characters with an emoji (U+FE0F) presentation sequence; each has its text
    (U+FE0E) sequence too, which is checked."""
    emoji: set[int] = set()
    plain: set[int] = set()
    for line in text.split("\n"):
        m = re.match(r"^([0-9A-F]{4,6}) (FE0[EF])\s*;", line)
        if m:
            (emoji if m.group(2) == "FE0F" else plain).add(int(m.group(1), 16))
    if emoji != plain:
        raise SystemExit("emoji-variation-sequences.txt: a base without both sequences")
    return sorted(emoji)


def confusable_lines(text: str) -> Iterator[tuple[int, tuple[int, ...]]]:
    """(source, its prototype) of each mapping of confusables.txt."""
    for line in text.splitlines():
        body = line.split("#", 1)[0].strip().lstrip("\ufeff")
        if not body:
            continue
        source, target, _type = (f.strip() for f in body.split(";")[:3])
        yield int(source, 16), tuple(int(t, 16) for t in target.split())


def _hex(cp: int) -> str:
    return f"0x{cp:04X}"


def _ranges_source(name: str, doc: str, ranges: list[tuple[int, int, str]]) -> list[str]:
    head = f"{name}: tuple[tuple[int, int], ...] = ("
    if len(ranges) == 1 and not ranges[0][2]:  # as ruff format writes a tuple of one
        return [f"# {doc}", f"{head}({_hex(ranges[0][0])}, {_hex(ranges[0][1])}),)"]
    lines = [f"# {doc}", head]
    for first, last, comment in ranges:
        item = f"    ({_hex(first)}, {_hex(last)}),"
        lines.append(f"{item}  # {comment}"[:100].rstrip() if comment else item)
    lines.append(")")
    return lines


def build(folder: Path) -> tuple[str, str]:
    """The two files' new text, from the four of `folder`."""
    texts = {
        name: (folder / name).read_text(encoding="utf-8")
        for name in [
            "DerivedCoreProperties.txt",
            "emoji-data.txt",
            "emoji-variation-sequences.txt",
            "confusables.txt",
        ]
    }
    versions = {name: version_of(text, name) for name, text in texts.items()}
    version = versions["DerivedCoreProperties.txt"]
    if set(versions.values()) != {version}:
        raise SystemExit(f"the files are of different versions: {versions}")
    if version != unicodedata.unidata_version:
        raise SystemExit(
            f"the files are Unicode {version}, this Python's unicodedata is "
            f"{unicodedata.unidata_version}: the tables must be of the same version"
        )
    ignorable = property_ranges(texts["DerivedCoreProperties.txt"], "Default_Ignorable_Code_Point")
    pictographic = merged(
        (a, b) for a, b, _ in property_ranges(texts["emoji-data.txt"], "Extended_Pictographic")
    )
    modifiers = merged(
        (a, b) for a, b, _ in property_ranges(texts["emoji-data.txt"], "Emoji_Modifier")
    )
    bases = merged((cp, cp) for cp in variation_bases(texts["emoji-variation-sequences.txt"]))
    out = [
        f'"""Unicode {version}\'s character tables the text cleaner needs and Python\'s',
        "unicodedata lacks.  Made by `python -m tools.unicode_tables DIR` from Unicode's own",
        "files (its docstring says which): do not edit by hand.",
        "",
        "Pinned to the Unicode version of the unicodedata the app runs with, so that the",
        "categories read from one and the tables read from the other describe the same",
        "characters (tests/scorer/test_unicode_tables.py holds the two together).",
        '"""',
        "",
        f'UNICODE_VERSION = "{version}"',
        "",
        *_ranges_source(
            "DEFAULT_IGNORABLE",
            "Default_Ignorable_Code_Point (DerivedCoreProperties.txt), as the file lists it.",
            ignorable,
        ),
        "",
        *_ranges_source(
            "EMOJI_VARIATION_BASES",
            "Characters with an emoji and a text presentation sequence, + U+FE0F / U+FE0E"
            "\n# (emoji-variation-sequences.txt).",
            [(a, b, "") for a, b in bases],
        ),
        "",
        *_ranges_source(
            "EXTENDED_PICTOGRAPHIC",
            "Extended_Pictographic (emoji-data.txt): what an emoji joiner (U+200D) joins.",
            [(a, b, "") for a, b in pictographic],
        ),
        "",
        *_ranges_source(
            "EMOJI_MODIFIERS",
            "Emoji_Modifier (emoji-data.txt): the skin tones, visible after an emoji.",
            [(a, b, "") for a, b in modifiers],
        ),
        "",
    ]
    mapping = dict(confusable_lines(texts["confusables.txt"]))
    data = [
        f"# confusables.txt of UTS #39, Unicode {version}, compacted by tools/unicode_tables.py:",
        "# each line a character and its prototype, in hexadecimal (the source's comments",
        "# and its type, always MA, left out).  Read by scorer/clean/lookalike.py.",
        *(
            f"{src:04X}\t{' '.join(f'{t:04X}' for t in target)}"
            for src, target in sorted(mapping.items())
        ),
        "",
    ]
    return "\n".join(out), "\n".join(data)


def main(argv: list[str]) -> None:
    if len(argv) != 1:
        raise SystemExit(__doc__)
    tables, data = build(Path(argv[0]))
    TABLES.write_text(tables, encoding="utf-8")
    CONFUSABLES.parent.mkdir(exist_ok=True)
    CONFUSABLES.write_text(data, encoding="utf-8")
    print(f"wrote {TABLES.relative_to(ROOT)} and {CONFUSABLES.relative_to(ROOT)}")


if __name__ == "__main__":
    main(sys.argv[1:])
