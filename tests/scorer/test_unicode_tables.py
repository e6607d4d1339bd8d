"""The Unicode tables the text cleaner and the look-alike check keep (scorer/clean/unicode_tables.py,
scorer/clean/data/confusables.txt, made by tools/unicode_tables.py), read here: well formed,
of the Unicode version Python's unicodedata is, and every character they list refused
by the cleaner, but for the parts of an emoji."""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorer.clean import lookalike, text, unicode_tables
from tools import unicode_tables as build

TABLES = {
    "DEFAULT_IGNORABLE": unicode_tables.DEFAULT_IGNORABLE,
    "EMOJI_VARIATION_BASES": unicode_tables.EMOJI_VARIATION_BASES,
    "EXTENDED_PICTOGRAPHIC": unicode_tables.EXTENDED_PICTOGRAPHIC,
    "EMOJI_MODIFIERS": unicode_tables.EMOJI_MODIFIERS,
}


def test_the_tables_are_of_the_unicode_version_python_reads_categories_from() -> None:
    """Fails when Python's unicodedata moves to another Unicode version: rebuild the
    tables from that version's files (tools/unicode_tables.py) and read the diff."""
    assert unicodedata.unidata_version == unicode_tables.UNICODE_VERSION
    header = lookalike.DATA.read_text(encoding="utf-8").splitlines()[0]
    assert f"Unicode {unicode_tables.UNICODE_VERSION}," in header


@pytest.mark.parametrize("name", list(TABLES))
def test_each_table_is_sorted_ranges_apart(name: str) -> None:
    ranges = TABLES[name]
    assert ranges
    for first, last in ranges:
        assert 0 <= first <= last <= 0x10FFFF
    for (_, last), (first, _) in zip(ranges, ranges[1:], strict=False):
        assert last < first


def test_the_ignorable_table_says_each_ranges_category_as_unicodedata_does() -> None:
    """Each line of the table carries the category the UCD gives its characters (its
    comment): unicodedata, of the same version, agrees on the first and the last."""
    source = Path(unicode_tables.__file__).read_text(encoding="utf-8")
    lines = re.findall(r"\((0x[0-9A-F]+), (0x[0-9A-F]+)\),  # (\w\w) ", source)
    assert len(lines) == len(unicode_tables.DEFAULT_IGNORABLE)
    for first, last, category in lines:
        for cp in (int(first, 16), int(last, 16)):
            assert unicodedata.category(chr(cp)) == category, hex(cp)


def _ignorable() -> list[int]:
    return [cp for a, b in unicode_tables.DEFAULT_IGNORABLE for cp in range(a, b + 1)]


def test_every_default_ignorable_character_is_refused() -> None:
    listed = _ignorable()
    assert len(listed) == 4174  # Unicode 14.0's Default_Ignorable_Code_Point: its count
    for cp in listed:
        c = chr(cp)
        for raw in (c, f"老王{c}", f"{c}老王", f"老{c}王"):
            with pytest.raises(text.TextRefused) as refused:
                text.clean_text(text.PLAYER_NAME, raw)
            assert f"U+{cp:04X}" in refused.value.message
            assert refused.value.code in ("format_character", "invisible_character"), hex(cp)


LOOK_ALIKES = {
    "U+034F combining grapheme joiner": "老\u034f王",
    "U+FE0F after no emoji": "老王\ufe0f",
    "U+FE0E after no emoji": "老王\ufe0e",
    "U+FE0F first": "\ufe0f老王",
    "two U+FE0F after an emoji": "❤\ufe0f\ufe0f",
    "U+3164 Hangul filler": "老王\u3164",
    "U+115F Hangul choseong filler": "\u115f老王",
    "U+1160 Hangul jungseong filler": "老\u1160王",
    "U+FFA0 halfwidth Hangul filler": "老王\uffa0",
    "U+2800 braille blank": "老王\u2800",
    "U+2800 alone": "\u2800",
    "U+200D between letters": "老\u200d王",
    "U+200D after an emoji, at the end": "❤\ufe0f\u200d",
    "U+200D before an emoji, first": "\u200d👩",
    "U+E0100 ideographic variation selector": "葛\U000e0100",
}


@pytest.mark.parametrize("raw", list(LOOK_ALIKES.values()), ids=list(LOOK_ALIKES))
def test_the_look_alikes_are_refused(raw: str) -> None:
    with pytest.raises(text.TextRefused):
        text.clean_text(text.PLAYER_NAME, raw)


def test_the_fillers_and_the_blank_are_named_and_refused() -> None:
    assert set(_ignorable()) >= text.HANGUL_FILLERS
    for cp in text.HANGUL_FILLERS | text.BLANK_LOOKING:
        assert text.refused_character(f"老{chr(cp)}王") == chr(cp)


EMOJI = {
    "red heart with U+FE0F": "小红\u2764\ufe0f",
    "a text-style heart, U+FE0E": "\u2764\ufe0e小红",
    "a keycap": "1\ufe0f\u20e3号",
    "a family (joiners)": "\U0001f468\u200d\U0001f469\u200d\U0001f467",
    "a rainbow flag (U+FE0F, joiner)": "\U0001f3f3\ufe0f\u200d\U0001f308",
    "a doctor with a skin tone": "\U0001f469\U0001f3fb\u200d\u2695\ufe0f",
}


@pytest.mark.parametrize("raw", list(EMOJI.values()), ids=list(EMOJI))
def test_the_parts_of_an_emoji_are_kept(raw: str) -> None:
    assert text.clean_text(text.PLAYER_NAME, raw) == raw


def test_a_name_with_an_emoji_selector_is_compared_without_it() -> None:
    assert lookalike.looks_like("小红\u2764\ufe0f", "小红\u2764")
    assert lookalike.looks_like("\U0001f468\u200d\U0001f469", "\U0001f468\U0001f469")


@given(st.text(max_size=20))
def test_what_the_cleaner_keeps_holds_nothing_invisible_but_emoji_parts(raw: str) -> None:
    try:
        cleaned = text.clean_text(text.PLAYER_NAME, raw)
    except text.TextRefused:
        return
    pictographic = unicode_tables.EXTENDED_PICTOGRAPHIC
    for i, c in enumerate(cleaned):
        if c in "\ufe0e\ufe0f":  # right after a character that takes it
            assert i > 0
            assert text.in_ranges(unicode_tables.EMOJI_VARIATION_BASES, ord(cleaned[i - 1]))
        elif c == "\u200d":  # between two emoji
            assert 0 < i < len(cleaned) - 1
            assert text.in_ranges(pictographic, ord(cleaned[i + 1]))
        else:
            assert not text.invisible(c)


# ----------------------------------------------------------------- the confusables


def test_the_confusables_file_is_one_prototype_a_character() -> None:
    lines = lookalike.DATA.read_text(encoding="utf-8").splitlines()
    body = [line for line in lines if not line.startswith("#")]
    assert len(body) == len(lookalike.prototypes()) > 6000
    for line in body:
        assert re.fullmatch(r"[0-9A-F]{4,6}\t[0-9A-F]{4,6}( [0-9A-F]{4,6})*", line), line


SAME = [
    ("Bob", "B\u043eb"),  # Cyrillic о
    ("Bob", "\uff22\uff4f\uff42"),  # full-width, as a Chinese keyboard types it
    ("Al", "AI"),  # l and I
    ("老王", "老王\u3164"),  # a stored name from before the filler was refused
    ("paypal", "\u0440\u0430\u0443\u0440\u0430l"),  # Cyrillic р а у р а
]
APART = [("老王", "老玉"), ("Bob", "bob"), ("Bob", "Bobb"), ("老王", "王老"), ("小李", "小季")]


@pytest.mark.parametrize(("a", "b"), SAME)
def test_names_that_look_the_same_have_one_skeleton(a: str, b: str) -> None:
    assert lookalike.looks_like(a, b) and lookalike.looks_like(b, a)


@pytest.mark.parametrize(("a", "b"), APART)
def test_names_that_do_not_look_the_same_have_two(a: str, b: str) -> None:
    assert not lookalike.looks_like(a, b)


@given(st.text(max_size=12))
def test_a_name_never_looks_like_itself(name: str) -> None:
    assert not lookalike.looks_like(name, name)


# ----------------------------------------------------------------- the build script


def test_the_build_script_reads_unicodes_files(tmp_path: Path) -> None:
    """tools/unicode_tables.py on small files of the same shape as Unicode's: what the
    tables above are made by (the real files are not in the repository)."""
    v = unicodedata.unidata_version
    (tmp_path / "DerivedCoreProperties.txt").write_text(
        f"# DerivedCoreProperties-{v}.txt\n"
        "00AD          ; Default_Ignorable_Code_Point # Cf       SOFT HYPHEN\n"
        "115F..1160    ; Default_Ignorable_Code_Point # Lo   [2] HANGUL CHOSEONG FILLER..X\n"
        "0041..005A    ; Uppercase # L&  [26] LATIN CAPITAL LETTER A..LATIN CAPITAL LETTER Z\n"
    )
    (tmp_path / "emoji-data.txt").write_text(
        f"# emoji-data-{v}.txt\n"
        "2764          ; Extended_Pictographic# E0.6   [1] (❤️)       red heart\n"
        "1F3FB..1F3FF  ; Emoji_Modifier       # E1.0   [5] (🏻..🏿)    light skin tone..\n"
    )
    (tmp_path / "emoji-variation-sequences.txt").write_text(
        f"# emoji-variation-sequences-{v}.txt\n"
        "2764 FE0E  ; text style;  # (1.1) HEAVY BLACK HEART\n"
        "2764 FE0F  ; emoji style; # (1.1) HEAVY BLACK HEART\n"
    )
    (tmp_path / "confusables.txt").write_text(
        f"\ufeff# confusables.txt\n# Version: {v}\n"
        "0430 ;\t0061 ;\tMA\t# ( а → a ) CYRILLIC SMALL LETTER A → LATIN SMALL LETTER A\t#\n"
        "00C6 ;\t0041 0045 ;\tMA\t# ( Æ → AE ) ...\t#\n"
    )
    tables, data = build.build(tmp_path)
    made: dict[str, object] = {}
    exec(compile(tables, "unicode_tables", "exec"), made)
    assert made["UNICODE_VERSION"] == v
    assert made["DEFAULT_IGNORABLE"] == ((0x00AD, 0x00AD), (0x115F, 0x1160))
    assert made["EMOJI_VARIATION_BASES"] == ((0x2764, 0x2764),)
    assert made["EMOJI_MODIFIERS"] == ((0x1F3FB, 0x1F3FF),)
    assert [line for line in data.splitlines() if not line.startswith("#")] == [
        "00C6\t0041 0045",
        "0430\t0061",
    ]
    (tmp_path / "confusables.txt").write_text("# Version: 1.0.0\n")
    with pytest.raises(SystemExit):
        build.build(tmp_path)
